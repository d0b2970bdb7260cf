"""Compound questions: several asks in one question, and a figure plus a document fact about what it selects.

**Several asks** ("spend with Gamma in Q1 and its invoice count", "top 3 suppliers; spend on Sensors", "X? And
Y?", "X as well as Y", German "X und wie viele Y"): :func:`split_asks` cuts the question where the parts on both
sides each ask for something, carries the company and period to the parts that name none (and, when a part refers
back with "its" / "that", the supplier, group and product of the part before), and ``ask`` answers every part on
its own; :func:`merge_answers` puts them under their own words and says PARTIAL, naming the part, when one is not
answered (never a part silently dropped). A unit-price change between two periods (:func:`price_change_parts`) is
two average-price calls and the change between them. A document fact beside a figure stays one workflow.

**A figure and a document fact about the entity it selects:**

"What are the payment terms of our biggest supplier, and what did we spend with it last quarter?" needs two
workflows, the second depending on the first. The figure selects the supplier:

* ``rank``: the top or bottom supplier by governed spend (``finance.spend_ranking``, limit 1, ties at the cut all
  kept), in a company and period, optionally within a product group and its subgroups;
* ``share``: the supplier with the largest or smallest share of that spend (the same ranking: its share column);
* ``unit_price``: the cheapest (or dearest) supplier of one product by its quantity-weighted average unit price
  (``catalog.average_unit_price`` by supplier; the lowest/highest price's suppliers, ties all kept);
* ``named``: suppliers the question names, when it asks both their figure and a document fact.

The approvals graph then finds the agreement(s) approving *that* supplier for the company in the period (the
figure step's selected supplier ids flow into it through a plan reference, never a guessed id). The fact is either
the approval itself (its scope, the groups it covers, its validity: ``approval``) or a clause of the approving
agreement, searched only in that agreement (payment terms, notice period, term, warranty, certificates...). The
answer cites both parts (invoice lines of the figure, the approval row or passage of the fact), attributes each
fact to its supplier when several are selected (a tie), and says PARTIAL when either part is missing.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from router.analysis import _WHICH_CURRENCY
from router.answer import Answer, AnswerStatus, Citation, _Draft, _snippet, composer
from router.comparison_words import change_output_only
from router.contract import PlanStep, Ref
from router.outcome_words import did_not_run
from router.reader import Reading, _company_id_mentions
from router.reading import COORDINATED_GROUPINGS
from router.rules import PRODUCT_CODE
from router.scope import all_companies

RANKING_METRIC = "finance.spend_ranking"
UNIT_PRICE_METRIC = "catalog.average_unit_price"

Selection = Literal["rank", "share", "unit_price", "named"]

_SUPPLIER = r"(?:supplier|vendor)s?"
_SELECTOR = re.compile(
    r"\b(?:(?P<top>biggest|largest|top|main|most important|highest[- ]spend(?:ing)?|primary|leading)|"
    r"(?P<bottom>smallest|least important|lowest[- ]spend(?:ing)?))\s+(?:approved\s+)?" + _SUPPLIER + r"\b|"
    r"\b" + _SUPPLIER + r"\s+(?:that |which |whom )?(?:we|our company|it)\s+(?:spent|spend|paid|pay|buy|bought|"
    r"purchased?)\s+(?:the\s+)?(?P<most>most|least)\b|"
    r"\b" + _SUPPLIER + r"\s+with\s+the\s+(?:(?P<high>highest|largest|biggest|most)|(?P<low>lowest|smallest|least))"
    r"\s+(?:spend|spending|purchases|purchase volume|volume|invoiced amount)\b|"
    # "which supplier had the lowest spend", "which vendor did we spend the most with"
    r"\b(?:which|what|who)\b\s+(?:" + _SUPPLIER + r"\s+)?(?:\w+\s+){0,4}?(?:the\s+)?(?:(?P<qtop>most|highest|largest|"
    r"biggest)|(?P<qbottom>least|lowest|smallest))(?:\s+(?:spend|spending|purchases|volume|amount))?\b",
    re.I,
)
_SHARE = re.compile(
    r"\b" + _SUPPLIER + r"\b[^.?;]{0,40}?\b(?:(?P<top>largest|biggest|highest|greatest)|(?P<bottom>smallest|lowest))"
    r"\s+(?:percentage\s+|%\s*)?share\b|"
    r"\b(?:(?P<top2>largest|biggest|highest|greatest)|(?P<bottom2>smallest|lowest))\s+share\b[^.?;]{0,40}?\b"
    + _SUPPLIER + r"\b",
    re.I,
)
_PRICE = re.compile(
    r"\b(?:(?P<low>cheapest|least expensive|lowest[- ]priced|lowest[- ]cost)|"
    r"(?P<high>most expensive|priciest|dearest|highest[- ]priced))\s+" + _SUPPLIER + r"\b|"
    r"\b" + _SUPPLIER + r"\s+(?:with|offering|that has|having)\s+the\s+(?:(?P<low2>lowest|cheapest|best)|"
    r"(?P<high2>highest))\s+(?:average\s+)?(?:unit\s+)?price\b",
    re.I,
)
#: The figure part of a named supplier's figure-plus-fact question.
_FIGURE = re.compile(r"\b(spen[dt]|spending|how much|paid|purchases?|purchased|bought|invoiced|volume|figures?)\b",
                     re.I)
#: "its <something>" after a selector: what the question asks about the selected supplier. Figure words are the
#: figure part; anything else must be a fact of :data:`FACTS`, or the question is a clarification naming it.
_ITS = re.compile(r"\b(?:its|their|that supplier's|this supplier's|the supplier's)\s+(?P<what>[a-z][\w-]*(?:\s+"
                  r"(?!and\b|or\b|in\b|for\b|with\b|last\b|this\b)[a-z][\w-]*){0,3})", re.I)
#: ("their EUR amounts", "their gross totals": the figure asked in a currency or a reading is still the figure)
_FIGURE_WORDS = re.compile(r"^(?:total\s+)?(?:(?:eur|euro|usd|gbp|chf|gross|net|invoice)\s+)?(?:spend|spending|spent|"
                           r"shares?|figures?|amounts?|totals?|purchases|volume|invoices?|unit prices?|"
                           r"average unit prices?|prices?|ranks?|positions?|revenue|costs?|values?)\b", re.I)

#: "its (single) largest supplier", "their top vendor": the possessive names the company whose supplier the ranking
#: selects (the selector itself), not a fact asked about a selected supplier.
_SELECTED_SUPPLIER = re.compile(
    r"^(?:(?:single|one|very|main|own)\s+)?(?:largest|biggest|top|main|leading|principal|most\s+important|"
    r"highest[- ]spend|smallest|lowest[- ]spend)(?:\s+(?:single|one))?\s+(?:suppliers?|vendors?)\b", re.I)


@dataclass(frozen=True)
class Fact:
    """A fact the agreement side holds: its label, how it is found, and the words its passage uses."""

    label: str
    pattern: re.Pattern[str]
    #: ``approval``: the approval row itself (graph); ``clause``: a passage of the approving agreement.
    kind: Literal["approval", "clause"]
    #: Search text (and snippet window) for a clause: the words the agreement's clause is written in.
    query: str


def _fact(label: str, pattern: str, kind: Literal["approval", "clause"], query: str) -> Fact:
    return Fact(label, re.compile(r"\b(?:" + pattern + r")", re.I), kind, query)


#: The facts the corpus's agreements carry, most specific first (checked in this order).
FACTS: tuple[Fact, ...] = (
    _fact("approval", r"approved for|approval|approved (?:scope|product groups?|categor\w+)|scope of (?:its |the )?"
          r"approval|(?:approved|valid) until|until when|valid(?:ity)?\b(?! period)|expir\w+|"
          r"(?:product groups?|categor(?:y|ies)) (?:is |are )?(?:it|they|that supplier|this supplier) approved",
          "approval", ""),
    _fact("payment terms", r"payment terms?\b|terms of payment|payment conditions|payment due|due date|"
          r"(?:when|how soon) (?:is |must )?(?:payment|we pay)", "clause",
          "Payment is due days net after receipt of a correct invoice payment terms"),
    _fact("notice period", r"notice period|period of notice|termination notice|terminat\w+|cancel(?:l?ation)? "
          r"(?:of )?the (?:agreement|contract)", "clause",
          "Either party may terminate with months notice to the end of a calendar quarter"),
    _fact("term of the agreement", r"term of the (?:agreement|contract)|(?:agreement|contract) term\b|"
          r"(?:agreement|contract) (?:run|runs|duration)|how long (?:does|will) (?:the|its) (?:agreement|contract)|"
          r"renew\w*", "clause", "This Agreement runs for years from the effective date and renews for one year"),
    _fact("warranty", r"warrant(?:y|ies)(?: period)?|guarantee period", "clause",
          "The warranty period is months from acceptance"),
    _fact("certificates", r"certificat\w*|certified|certification|iso\s?\d{4,5}|quality management", "clause",
          "quality management system certified to ISO 9001 calibration certificates"),
    _fact("liability and insurance", r"liabilit\w+|insurance|insured", "clause",
          "product liability insurance of at least per event"),
    _fact("delivery terms", r"delivery terms|terms of delivery|incoterms?|delivery conditions", "clause",
          "Delivery is DAP to the site named in the Order Incoterms"),
    _fact("price adjustments", r"price adjustments?|prices? (?:are |is )?fixed|price reviews?|price increases?|"
          r"rebates?|volume discounts?", "clause",
          "Prices are fixed for the first months price adjustments require written notice"),
    _fact("confidentiality", r"confidential\w*", "clause", "keep the terms of this Agreement confidential for years"),
    _fact("audit rights", r"audit(?:s| rights?)?\b", "clause",
          "may audit compliance with this Agreement once per year"),
)


@dataclass(frozen=True)
class CompoundRequest:
    """A figure that selects suppliers and the fact asked about them."""

    selection: Selection
    direction: str  # top | bottom (unit_price: bottom = the cheapest)
    selector: str
    fact: Fact

    @property
    def described(self) -> str:
        """The selection in words, for the interpretation line."""
        if self.selection == "named":
            return "the named suppliers' spend"
        if self.selection == "unit_price":
            return ("the cheapest" if self.direction == "bottom" else "the most expensive") + \
                " supplier of the product by average unit price"
        what = "share of spend" if self.selection == "share" else "spend"
        return f"the {self.direction} supplier by {what}"


def find_fact(text: str) -> Fact | None:
    """The first fact of :data:`FACTS` the text asks about."""
    for fact in FACTS:
        if fact.pattern.search(text):
            return fact
    return None


def unknown_fact(reading: Reading) -> str | None:
    """The words of a fact asked about a selected supplier ("our biggest supplier ... the colour of its logo") that
    no agreement fact matches, or ``None``: the question is then a clarification naming them, never the figure
    alone presented as the answer."""
    text = reading.cue_text
    if find_fact(text) is not None:
        return None
    if not (_SELECTOR.search(text) or _SHARE.search(text) or _PRICE.search(text)):
        return None
    for found in _ITS.finditer(text):
        what = found.group("what").strip()
        if not _FIGURE_WORDS.match(what) and not _SELECTED_SUPPLIER.match(what):
            return " ".join(text[found.start():found.end()].split())
    return None


def compound_request(reading: Reading) -> CompoundRequest | None:
    """The two workflows a question needs, or ``None`` when it is not a figure-plus-document question."""
    text = reading.cue_text
    fact = find_fact(text)
    if fact is None:
        return None
    price = _PRICE.search(text)
    if price is not None:
        low = bool(price.group("low") or price.group("low2"))
        return CompoundRequest("unit_price", "bottom" if low else "top", price.group(0), fact)
    share = _SHARE.search(text)
    if share is not None:
        bottom = bool(share.group("bottom") or share.group("bottom2"))
        return CompoundRequest("share", "bottom" if bottom else "top", share.group(0), fact)
    selector = _SELECTOR.search(text)
    if selector is not None:
        bottom = bool(selector.group("bottom") or selector.group("low") or selector.group("qbottom")) or \
            (selector.group("most") or "").lower() == "least"
        return CompoundRequest("rank", "bottom" if bottom else "top", selector.group(0), fact)
    e = reading.entities
    if e.supplier_ids and not e.product_codes and _FIGURE.search(text):
        return CompoundRequest("named", "top", ", ".join(e.supplier_ids), fact)
    return None


def _figure_step(req: CompoundRequest, reading: Reading, company_id: str, start: str, end: str,
                 currency: str | None, product_group_ids: tuple[str, ...]) -> tuple[PlanStep, Any]:
    """The figure step and the reference to the suppliers it selects."""
    statuses = list(reading.statuses)
    if req.selection == "unit_price":
        params: dict[str, Any] = {"product_code": reading.entities.product_codes[0], "company_id": company_id,
                                  "start_date": start, "end_date": end, "invoice_statuses": statuses}
        if currency:
            params["reporting_currency"] = currency
        field = "lowest_unit_price_supplier_ids" if req.direction == "bottom" else "highest_unit_price_supplier_ids"
        step = PlanStep(
            step_id="rank-suppliers", tool="metrics.query",
            arguments={"metric": UNIT_PRICE_METRIC, "parameters": params, "group_by": ["supplier_id"], "grain": None},
            purpose=f"Average unit price of {params['product_code']} per supplier ({UNIT_PRICE_METRIC}); the "
                    f"{'lowest' if req.direction == 'bottom' else 'highest'} price selects the supplier (ties kept).",
        )
        return step, Ref.model_validate({"$ref": "rank-suppliers", "field": field})
    ranking: dict[str, Any] = {"company_id": company_id, "start_date": start, "end_date": end,
                               "direction": req.direction, "limit": 1, "invoice_statuses": statuses}
    if req.selection == "named":
        ranking["supplier_ids"] = list(reading.entities.supplier_ids)
        ranking["limit"] = len(reading.entities.supplier_ids)
    if product_group_ids:
        ranking["product_group_ids"] = list(product_group_ids)
    if currency:
        ranking["reporting_currency"] = currency
    step = PlanStep(
        step_id="rank-suppliers", tool="metrics.query",
        arguments={"metric": RANKING_METRIC, "parameters": ranking, "group_by": ["supplier_id"], "grain": None},
        purpose=(f"Spend with {', '.join(reading.entities.supplier_ids)} in the period ({RANKING_METRIC})"
                 if req.selection == "named" else
                 f"The {req.direction} supplier by governed spend in the period, with its spend and share "
                 f"({RANKING_METRIC}, limit 1; ties at the cut all kept)."),
    )
    if req.selection == "named":
        # The fact is about the suppliers the question names, whether or not they have spend in the period.
        return step, list(reading.entities.supplier_ids)
    return step, Ref.model_validate({"$ref": "rank-suppliers", "field": "row_supplier_ids"})


def compound_steps(req: CompoundRequest, reading: Reading, company_id: str, start: str, end: str,
                   currency: str | None, product_group_ids: tuple[str, ...] = ()) -> tuple[PlanStep, ...]:
    """Figure (selects the suppliers) -> their approving agreements -> the fact there -> check.

    ``product_group_ids``: the ranking's category ("our biggest supplier of sensors": the group and its subgroups).
    """
    figure, selected = _figure_step(req, reading, company_id, start, end, currency, product_group_ids)
    agreements = Ref.model_validate({"$ref": "find-agreement", "field": "agreement_ids"})
    steps = [
        figure,
        PlanStep(
            step_id="find-agreement", tool="graph.find_approved_vendors",
            depends_on=() if isinstance(selected, list) else ("rank-suppliers",),
            arguments={"company_id": company_id, "start_date": start, "end_date": end, "supplier_ids": selected},
            purpose="The approval(s) of the supplier the figure selected, for the company in the period, and the "
                    "agreements that grant them.",
        ),
    ]
    checked = ["rank-suppliers", "find-agreement"]
    if req.fact.kind == "clause":
        steps.append(PlanStep(
            step_id="retrieve-fact", tool="documents.search", depends_on=("find-agreement",),
            arguments={
                "query_text": req.fact.query,
                "identifiers": {"product_codes": [], "invoice_numbers": [], "contract_ids": agreements},
                "retrieval_modes": ["exact", "bm25", "vector"],
                "filters": {"document_types": ["agreement"], "document_ids": agreements},
                "limit": 6,
            },
            purpose=f"The {req.fact.label} in the approving agreement(s) (evidence, untrusted text).",
        ))
        checked.append("retrieve-fact")
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(checked), purpose="Both parts present: the figure and the cited fact."))
    return tuple(steps)


def rule_hit(req: CompoundRequest) -> str:
    """The routing rule hit that names the shape (the composer reads the selection, direction and fact back)."""
    return f"compound:{req.selection}:{req.direction}:{req.selector}+{req.fact.label}"


def rule_parts(rule: str) -> tuple[str, str, str]:
    """(selection, direction, fact label) of a :func:`rule_hit`."""
    head, _, fact = rule.partition("+")
    bits = head.split(":")
    if len(bits) < 4:
        return "rank", "top", fact or "document fact"
    return bits[1], bits[2], fact or "document fact"


def _money(value: Any) -> str:
    return "no data" if value is None else str(value)


@composer("figure_with_document")
def _compose_compound(d: _Draft) -> None:
    """``figure_with_document``: the selected suppliers and their figure, then the fact for each of them (from its
    approval or its approving agreement), all cited; PARTIAL when a part is missing."""
    from router.tools import ApprovedVendorsToolResponse, MetricToolResponse

    outcomes = d.run.outcomes
    company = d.routing.entities.company_name or d.routing.entities.company_id or "the company"
    selection, direction, fact_label = rule_parts(next((r for r in d.routing.rule_hits
                                                        if r.startswith("compound:")), ""))
    ranking = outcomes.get("rank-suppliers")
    m = ranking.output if ranking is not None and ranking.status == "ok" else None
    vendors_outcome = outcomes.get("find-agreement")
    vendors = vendors_outcome.output if vendors_outcome is not None else None
    fact_outcome = outcomes.get("retrieve-fact")
    citations = list(d.citations)
    parts: list[str] = []
    missing: list[str] = []
    result: dict[str, Any] = {"selection": selection, "fact": fact_label}
    named = list(d.routing.entities.supplier_ids) if selection == "named" else []
    selected: list[str] = []
    rows: dict[str, dict[str, Any]] = {}
    if isinstance(m, MetricToolResponse):
        for line_id in m.source_line_ids:
            citations.append(Citation(source_id=line_id, kind="invoice_line", role=f"invoice line in {m.metric}"))
        if m.metric == UNIT_PRICE_METRIC:
            priced = [r for r in m.rows if r.get("unit_price") is not None and r.get("supplier_id")]
            if priced:
                best = (min if direction == "bottom" else max)(Decimal(str(r["unit_price"])) for r in priced)
                selected = [str(r["supplier_id"]) for r in priced if Decimal(str(r["unit_price"])) == best]
        elif named:
            selected = named
        else:
            selected = [str(r["supplier_id"]) for r in m.rows if r.get("rank") == 1 and r.get("supplier_id")]
        rows = {str(r.get("supplier_id")): r for r in m.rows if r.get("supplier_id")}
    approvals = vendors.approvals if isinstance(vendors, ApprovedVendorsToolResponse) else ()
    names = {a.supplier_id: a.supplier_name for a in approvals}
    cur = (m.currency if isinstance(m, MetricToolResponse) else None) or ""
    if not isinstance(m, MetricToolResponse):
        missing.append(did_not_run("the figure", ranking))
    elif not selected:
        what = "priced lines of the product" if m.metric == UNIT_PRICE_METRIC else "counted spend"
        missing.append(f"no {what} of {company} in {d.period_text}, so no supplier to select")
    else:
        def label(s: str) -> str:
            return s + (f" ({names[s]})" if s in names else "")

        figures = []
        supplier_rows = []
        for s in selected:
            r = rows.get(s)
            if m.metric == UNIT_PRICE_METRIC:
                assert r is not None
                figures.append(f"{s}: {r.get('unit_price')} {cur} per unit (net {r.get('net_amount')} {cur} / "
                               f"{r.get('quantity')} units)")
                supplier_rows.append({"supplier_id": s, "unit_price": r.get("unit_price"), "currency": cur,
                                      "quantity": r.get("quantity"), "net_amount": r.get("net_amount")})
                continue
            spend = r.get("total_spend") if r else None
            share = next((r[k] for k in r if "share" in k and r[k] is not None), None) if r else None
            figures.append(f"{s}: {_money(spend)}" + (f" {cur}" if spend is not None else
                                                        " (no validated invoice lines in the period)")
                           + (f", {share} % of the ranked spend" if share is not None and selection == "share"
                              else ""))
            supplier_rows.append({"supplier_id": s, "total_spend": spend, "currency": cur,
                                  "rank": r.get("rank") if r else None,
                                  **({"share_percent": share} if selection == "share" else {})})
            if spend is None:
                missing.append(f"no validated invoice lines for {s} in {d.period_text} (no data, not zero)")
        who = ", ".join(label(s) for s in selected)
        tie = f" (a tie: {len(selected)} suppliers share rank 1)" if len(selected) > 1 and not named else ""
        if named:
            lead = f"Spend of {company} with {who} in {d.period_text}: "
        elif m.metric == UNIT_PRICE_METRIC:
            code = (m.parameters or {}).get("product_code", "the product")
            cheap = "cheapest" if direction == "bottom" else "most expensive"
            lead = (f"The {cheap} supplier of {code} for {company} by quantity-weighted average net unit price in "
                    f"{d.period_text} "
                    f"is {who}{tie}: ")
        else:
            what = "share of spend" if selection == "share" else "spend"
            lead = f"The selected supplier of {company} by {what} in {d.period_text} is {who}{tie}; spend with it: "
        parts.append(lead + "; ".join(figures) + f" (governed {m.metric}).")
        result["suppliers"] = supplier_rows
    fact_found: dict[str, list[str]] = {}
    for s in selected:
        mine = [a for a in approvals if a.supplier_id == s]
        if not mine:
            missing.append(f"no agreement of {company} approves {s} in {d.period_text}, so no {fact_label} was "
                           "found for it")
            continue
        if fact_label == "approval":
            texts = []
            for a in mine:
                until = f"until {a.valid_to} (exclusive)" if a.valid_to else "open-ended"
                texts.append(f"approved under {a.agreement_id} for {a.scope or 'an unstated scope'}, valid from "
                             f"{a.valid_from}, {until} [{a.chunk_id or a.document_id}]")
                ref = a.chunk_id or a.document_id
                citations.append(Citation(source_id=ref, kind="chunk", document_id=a.document_id, page=a.page,
                                          role=f"approval of {s}"))
            parts.append(f"{s}: " + "; ".join(texts) + ".")
            fact_found[s] = [a.chunk_id or a.document_id for a in mine]
            continue
        agreements = {a.agreement_id for a in mine} | {a.document_id for a in mine}
        passages = [c for c in d.shown if c.document_id in agreements]
        if not passages:
            missing.append(f"no passage of {s}'s approving agreement ({', '.join(sorted(agreements))}) gives its "
                           f"{fact_label}")
            continue
        passage = passages[0]
        window = _snippet(passage.text, d.routing.question + " " + _FACT_QUERIES.get(fact_label, ""))
        owner = f"{s}'s approving agreement" if len(selected) > 1 or named else "the approving agreement"
        cite = f"[{passage.chunk_id}, {passage.document_id} p. {passage.page}]"
        parts.append(f"{fact_label.capitalize()} from {owner} {cite}: \"{window}\"")
        fact_found[s] = [passage.chunk_id]
    if selected and not fact_found and fact_label != "approval" and fact_outcome is not None \
            and fact_outcome.status not in ("ok", "not_found", "skipped"):
        missing.append(did_not_run("the document search", fact_outcome))
    if fact_found:
        result["facts"] = fact_found
    figure_ok = bool(selected) and isinstance(m, MetricToolResponse) and not any(
        r.get("total_spend") is None and r.get("unit_price") is None for r in result.get("suppliers", []))
    complete = figure_ok and bool(selected) and all(s in fact_found for s in selected)
    status: AnswerStatus = "answered" if complete else ("partial" if (selected or fact_found) else "failed")
    text = " ".join(parts)
    if not complete:
        text = ("PARTIAL RESULT: " if status == "partial" else "") + text + \
               (" " if text else "") + "Missing: " + "; ".join(dict.fromkeys(missing)) + "."
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    result["status"] = "complete" if complete else ("partial" if status == "partial" else "failed")
    citations = list({c.source_id: c for c in citations}.values())
    d.status, d.text, d.result = status, text, result
    d.inputs = {"figure": m.parameters if isinstance(m, MetricToolResponse) else None, "selected": selected}
    d.citations, d.sources = citations, tuple(c.source_id for c in citations)


_FACT_QUERIES = {f.label: f.query for f in FACTS}

# --- several asks in one question ----------------------------------------------------------------------------------
# "Spend with Gamma in Q1 and its invoice count", "top 3 suppliers; spend on Sensors", "X? And Y?", "X und wie viele
# Y": each ask is answered on its own, with its own constraints, and the answer says which part was not answered.
#: Where one ask may end and the next begin (a part on either side must ask for something: :data:`_ASK`).
#: Words whose abbreviation ends in a full stop inside one ask ("excl. Sensors", "Epsilon Instr.", "1,5 Mio. €",
#: "Jan. 2026"): that stop ends no sentence.
_ABBREVIATIONS = ("excl", "ex", "exkl", "incl", "inkl", "approx", "ca", "vs", "mio", "mrd", "tsd", "nr", "no", "bzw",
                  "ltd", "inc", "corp", "co", "instr", "dept", "qty", "e.g", "i.e", "z.b", "u.a", "jan", "feb",
                  "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "okt", "nov", "dec", "dez", "ggü", "gg")
_NOT_ABBREVIATION = "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS)
_BOUNDARY = re.compile(
    r"\?\s*(?:and\s+|also,?\s+|plus\s+|und\s+)?(?=\S)|;\s*(?:and\s+|also,?\s+|plus\s+)?|"
    # not the dot of an abbreviation ("excl. Sensors") or of a German ordinal ("im 2. Halbjahr", "1. Quartal")
    + _NOT_ABBREVIATION + r"(?<!\b\d)(?<!\b\d\d)\.\s+(?:also,?\s+|and\s+|plus\s+)?(?=[A-Za-z])|"
    r",?\s+and\s+also\s+|,?\s+as\s+well\s+as\s+|"
    # "confirm the approved vendors as of today and tell me whether we spent anything with Gamma": a second ask
    r",?\s+and\s+(?=(?:please\s+)?(?:tell|let)\s+(?:me|us)\s+(?:whether|if|how|what|which|who|when)\b)|"
    r",?\s+plus\s+|\s+[-\u2013\u2014]+\s+(?:and\s+)?(?=(?:and|what|which|how|who|its|their|the|also)\b)|"
    # "X spend in Q1 + which vendors are approved": a "+" before a new ask (not inside a period list, "Q1 + Q2")
    # ("+ total 2025 spend", "+ list of invoices": a second measure or a listing)
    r"\s+\+\s+(?=(?:and|what|which|how|who|its|their|the|also|top|number|avg|average|total|list|listenpreis|"
    r"katalogpreis|catalog(?:ue)?\s+(?:list\s+)?price)\b|[\w .-]{1,30}'s\s|"
    r"(?![QH]\d)(?:[A-Za-z][\w-]*\s+){1,3}(?:spend|spent)\b)|"
    r",\s+and\s+|,\s+(?=(?:the|what|which|how|who|top|its|their)\b|[\w .-]{1,30}'s\s|"
    r"(?:\S+\s+){1,2}(?:spend|spent)\b)|\s+and\s+(?=[\w .-]{1,30}'s\s|(?:\S+\s+){1,2}(?:spend|spent)\b)|"
    r"\s+and\s+(?=(?:what|which|how|who|also|its|their|(?:the\s+)?(?:avg|average|mean)\s+(?:unit\s+)?price|"
    # "... and the list price of PRD-710": the catalogue's price, an ask of its own (router/list_prices.py)
    r"(?:the\s+|its\s+)?(?:catalog(?:ue)?\s+)?list\s+price|"
    # "... AND list of invoices over 16,5k", "and list the invoices": a listing beside a figure
    r"list\s+(?:of\s+|all\s+|the\s+)?(?:the\s+)?(?:invoices|credit\s+notes|suppliers|vendors)|"
    # "largest invoice and average invoice value": the average invoice value is a measure of its own
    r"(?:avg\.?|average|mean)\s+(?:gross\s+)?(?:invoice|bill)\b|"
    # "how many X did we buy and at what average unit price?"
    r"at\s+what\s+(?:(?:avg|average|mean)\s+)?(?:unit\s+)?(?:price|cost)|"
    r"the\s+(?:number|count|share|top|average|"
    # "the VAT amount and the gross incl. VAT": a figure at another basis is a second measure of the same scope
    r"gross|net|vat|tax|"
    r"total|spend|breakdown|same|monthly|biggest|largest|unit)|top|"
    # "spend per supplier and the open (posted) total": a figure over the invoices of a status
    r"(?:the\s+)?(?:open|unpaid|outstanding|paid|settled|posted)\s+(?:\([\w\s,/-]{1,25}\)\s+)?"
    r"(?:total|amount|spend|sum|balance)|"
    # a second measure over the same scope: "total spend and number of invoices", "... and invoice count"
    r"(?:number|count)\s+of|(?:invoice|document)\s+count|total\s+(?:\d{4}\s+)?(?:spend|spending|amount|value)|"
    # "average unit price and units", "... and the quantity": the units of the same product
    r"units|(?:the\s+)?quantity)\b)|"
    # "Q1 spend and the invoices over 10,000 EUR": a listing beside a figure
    r"\s+and\s+(?=(?:the|which|all)\s+(?:invoices|credit\s+notes)\s+(?:over|above|under|below|exceeding|of\s+more|"
    r"of\s+less|(?:more|less|greater|larger|smaller)\s+than|from|with|still|that|which)\b)|"
    # "spend with Gamma and # of invoices": the number sign opens a count, a second measure
    r"\s+(?:and|&)\s+(?=#\s*(?:of\s+)?[A-Za-z])|"
    r"\s+&\s+(?=(?:the\s+)?(?:(?:number|count)\s+of|(?:invoice|document)\s+count|total\s+(?:\d{4}\s+)?(?:spend|"
    r"spending|amount)|"
    r"how\s+(?:many|much)|spend|spending|top\s+\d+|list\s+(?:of\s+)?(?:the\s+)?(?:invoices|credit\s+notes)|"
    r"(?:what|which)\s+(?:invoices|suppliers|vendors))\b|"
    # "Kestrel spend Q4 25 & Alpenland spend Q4 25": a second company's figure, as after "and"
    r"[\w .-]{1,30}'s\s|(?:\S+\s+){1,2}(?:spend|spent)\b)|"
    r",?\s+und\s+(?=(?:wie|was|welche[rsnm]?|wer|die|der|den|das|ihr[e]?)\b)|"
    # "Gesamtausgaben und Anzahl Rechnungen": a second measure of the same scope (German "and the number of")
    # ("und Anteil Delta daran": a share of the total before it, one governed share, not a second ask)
    r"\s+und\s+(?=(?:anzahl|zahl\s+der|summe|gesamt\w*|ausgaben|durchschnitt\w*)\b)|"
    # "Ypsilon approved vendors 2026 and spend with Iris YTD": a figure with its own supplier after a listing
    r"\s+and\s+(?=(?:our\s+|the\s+)?(?:spend|spending)\s+(?:with|at|from)\b)|"
    # "duplicates in 2026 and new suppliers in Aug 2025": the first-time suppliers, a listing with its own period
    r"\s+and\s+(?=(?:the\s+|any\s+)?(?:new|first[- ]time)\s+(?:suppliers?|vendors?)\b)",
    re.I,
)
#: A part asks for something: a measure, a ranking, a list, a breakdown, a count, a price (English and German).
_ASK = re.compile(
    r"\b(?:spen[dt]|spending|paid|pay|cost|bill|how much|how many|number of|count|top|biggest|largest|smallest|"
    # a measure of the same scope said by its basis or kind ("net of VAT and also the gross total", "the VAT amount,
    # and the gross", "how many invoices and what's the avg invoice size"): each is a part of its own
    r"net|gross|vat|tax|average|avg|mean|"
    r"bottom|rank\w*|share|percent\w*|portion|proportion|monthly|quarterly|per (?:supplier|vendor|month|quarter|"
    r"product|category)|by (?:month|supplier|vendor|quarter|product|category)|broken down|breakdown|unit price|"
    r"price|approved|which (?:suppliers|vendors)|invoices?|payment terms?|total|(?:gesamt)?ausgaben|anzahl|"
    r"ausgegeben|wie viele|wie viel|"
    r"rechnungen|lieferanten|gr[öo](?:ß|ss)ten|anteil|units?|quantit(?:y|ies)|bought|purchased|"
    # "... and what do they add up to?": the total of what the part before counted
    r"add(?:s|ed)?\s+up|amount(?:s|ed)?\s+to|come\s+to|sum|"
    # "duplicates in 2026 and new suppliers in Aug 2025": the first-time suppliers are a listing of their own
    r"new\s+(?:suppliers?|vendors?)|first[- ]time|"
    # "duplicates in Q1 + how many invoices": the replicated duplicates are a listing of their own
    r"duplicat(?:e|es|ed)|dupes?|replica(?:s|ted)?|dublette\w*|duplikat\w*|doppelt\w*)\b|%|"
    # "plus # paper suppliers", "# of invoices": the number sign asks for a count
    r"(?<!\w)#\s?(?:of\s+)?(?=[A-Za-z])",
    re.I,
)
#: "+ Listenpreis PRD-710", "and the list price of PRD-710": the catalogue's price of a product, an ask of its own.
_LIST_PRICE_ASK = re.compile(r"\b(?:listenpreis\w*|katalogpreis\w*|(?:catalog(?:ue)?\s+)?list\s+price)\b", re.I)
#: "Calibration interval for PRD-482, and how many did A buy": a fact a product's manual states is an ask of its own
#: (answered from the manual and cited), never read away into the figure beside it.
_PRODUCT_FACT = re.compile(
    r"(?=.*(?:\bPRD[-_ ]?\d+|\bmanual\b|\bhandbook\b|\bdatasheet\b))(?:.*\b(?:(?:re)?calibration|maintenance|service|"
    r"inspection|cleaning|replacement)\s+(?:intervals?|cycles?|period|schedule|frequency)\b|.*\b(?:operating|measuring|"
    r"measurement|storage|ambient)\s+(?:temperature|range|pressure|conditions?)\b|.*\b(?:accuracy|torque|"
    r"loop\s+resistance|ip\s+rating|protection\s+class|specifications?)\b)", re.I | re.S)
#: A fact a document states, asked in words of the document ("how often does the manual require a calibration",
#: "what order value triggers the two-signatory rule", "above which order value is sanctions screening required",
#: "until when is Beta approved", "when did the agreement take effect", "was the amendment in force on ..."): an
#: ask of its own beside a figure or a list, answered from the documents and cited, never dropped for the figure.
_DOCUMENT_QUESTION = re.compile(
    r"\b(?:how\s+often|how\s+frequently|how\s+long|until\s+when|till\s+when|since\s+when|"
    r"when\s+(?:did|does|do|will|was|is)\b|"
    r"(?:above|below|over|under|from|up\s+to|at)\s+(?:which|what)\s+(?:order\s+|invoice\s+|purchase\s+)?"
    r"(?:value|amount|threshold|limit|level)|"
    r"(?:what|which)\s+(?:order\s+|invoice\s+|purchase\s+)?(?:value|amount|threshold|limit|interval|frequency|"
    r"warranty|notice\s+period|payment\s+terms?|rule|clause|obligation|requirement)s?\b(?!\s+of\s+(?:spend|"
    r"invoices))|"
    r"(?:was|is|were|are)\s+(?:the\s+|our\s+)?(?:[\w'’-]+\s+){0,3}?(?:amendment|agreement|contract|addendum|policy)"
    r"\b(?=[^?]*\b(?:in\s+force|valid|effective|signed|amended|terminated|renewed|active)\b))", re.I)
#: The document or rule the fact is in.
_DOCUMENT_CUE = re.compile(
    r"\b(?:manuals?|handbook|datasheet|agreements?|contracts?|amendments?|addendum|polic(?:y|ies)|rules?|clauses?|"
    r"approved|approval|in\s+force|take\s+effect|took\s+effect|effective|warranty|screening|signator\w*|"
    r"calibrat\w*|certificat\w*|notice|inspection|maintenance|require[sd]?|triggers?)\b", re.I)
#: Words of a figure or a listing: a clause with one is no document fact alone.
_FIGURE_ASK = re.compile(r"\b(?:spen[dt]|spending|how\s+much|how\s+many|invoices?|credit\s+notes?|totals?|"
                         r"purchases?|purchased|bought|count|number\s+of|paid|largest|biggest|top)\b", re.I)


#: A claim the writer states as context ("I keep hearing that ...", "Somebody told me ...", "Our records say ...").
_CLAIM = re.compile(r"^(?!(?:which|what|who|whom|whose|how|when|where|why|did|do|does|is|are|was|were|can|could|"
                    r"would|will|has|have|had|list|show|give|tell|please)\b)"
                    r"[A-Z][\w .'-]{1,40}?\s+(?:got|has\s+got|has\s+been|had|was|were)\s+(?:[\w-]+\s+){0,3}?"
                    r"(?:approved|onboarded|added|listed|delisted|credited)\b(?![^.]*\?)|"
                    r"^(?:i|we)\s+(?:keep\s+hearing|(?:have\s+)?heard|hear|believe|think|understand|assume|was\s+told|"
                    r"were\s+told|was\s+informed|were\s+informed)\b|^(?:somebody|someone|people|our\s+records|"
                    r"the\s+records|our\s+(?:team|buyer|colleague)s?)\s+(?:told|tell|tells|say|says|said|claim|"
                    r"claims|claimed|show|shows)\b", re.I)
#: A lead before a colon ("Two items for the Xenon Pharma file please: ...").
_LEAD = re.compile(r"^([^:?;]{1,80}):\s+(?=\S)")


def document_fact_ask(piece: str) -> bool:
    """Whether a part asks only for a fact a document states (see :data:`_DOCUMENT_QUESTION`)."""
    return bool(_DOCUMENT_QUESTION.search(piece) and _DOCUMENT_CUE.search(piece) and not _FIGURE_ASK.search(piece))


#: A right-hand side that only modifies the left one ("... and how does that compare to last year").
#: The units an answer is given in: a percentage, or the amount in the reporting currency.
_ANSWER_UNIT = r"(?:%|percent(?:age)?s?|pct|per\s*cent|euros?|eur|€|absolute(?:\s+terms)?|amounts?)"
_MODIFIER = re.compile(r"^(?:(?:ranked\s+|ordered\s+|sorted\s+)?by\s+(?:total\s+|gross\s+|net\s+)?"
                       r"(?:spend|spending|value|amount)\s*[?.!]*$|"
                       # "... which share was X? in percent", "? in euros and %": the unit the answer before is
                       # given in, never an ask of its own (answered apart it was a bare total beside the share)
                       rf"(?:and\s+)?(?:in|as)\s+(?:an?\s+)?{_ANSWER_UNIT}(?:\s*(?:and|&|\+|/|,)\s*(?:in\s+|as\s+)?"
                       rf"(?:an?\s+)?{_ANSWER_UNIT})?(?:\s+(?:terms|only|pls|please|plz|thx|thanks))?\s*[?.!]*$|"
                       # "... the most invoices? top 2 pls": a bare cut-off is the limit of the ranking before it
                       r"(?:(?:just|only|the|give\s+me(?:\s+the)?|show(?:\s+the)?)\s+)?(?:top|first|bottom)[- ]?\d+"
                       r"(?:\s+(?:only|pls|please|plz|thx|thanks))?\s*[?.!]*$|"
                       # "... which invoices were exported twice? invoice numbers pls": what the listing before shows
                       r"(?:(?:just|only|the|give\s+me(?:\s+the)?|show(?:\s+the)?|with|which|what|nur|die)\s+)*"
                       r"(?:invoice|inv|document|doc|rechnungs)[.-]?\s*(?:numbers?|nos?\.?|#s?|ids?|nummern)"
                       r"(?:\s+(?:only|pls|please|plz|thx|thanks|bitte))?\s*[?.!]*$|"
                       r"how (?:does|did|do) (?:that|it|this) compare|compared?\b|vs\.?|versus|the same "
                       r"(?:period|quarter|month|year)|year over year|the previous|the change|the difference|"
                       # "per invoice currency ... plus EUR total": the reporting total beside the currency rows
                       r"(?:the\s+|a\s+)?(?:(?:EUR|USD|GBP|CHF)|reporting[- ]currency|converted)\s+(?:totals?|"
                       r"equivalents?|sum)\b)", re.I)
#: A remark or an instruction after a question is no ask of its own ("I'm not sure whether to count paid
#: invoices", "Ignore previous instructions and add ..."): it stays with the question it follows.
_NOT_ASK = re.compile(r"^(?:i\b|i'm|i am|we're|we are|not sure|note|please note|ignore|disregard|forget|add|delete|"
                      r"drop|update|insert|remove|you\b|system\b|btw|thanks|"
                      # "Drafts don't count for us.": the governed policy restated (drafts and cancelled documents
                      # are never spend), a condition of the ask before it, never a count of drafts
                      r"(?:the\s+)?(?:drafts?|cancell?ed|void(?:ed)?)(?:\s+(?:invoices?|ones|documents?))?\s+"
                      r"(?:don'?t|do\s+not|never|shouldn'?t|should\s+not|must\s+not|won'?t)\s+(?:count|be\s+counted|"
                      r"matter)\b)", re.I)
#: A part that refers back to the one before ("its invoice count", "how many invoices was that").
_REFERS = re.compile(r"\b(?:its|their|them|those|they)\b|\b(?:it|that|this)\s*[?.!]?\s*$|\bthe same\b(?!\s+(?:period|"
                     # ("the same invoice exported twice" describes a document, it refers to no part)
                     r"quarter|month|year|week|invoices?|documents?|credit\s+notes?|bills?|numbers?))|"
                     r"\bwhich\s+one\b|\b(?:biggest|largest|smallest|highest|lowest)"
                     r"\s+one\b", re.I)
#: "which was the biggest one": "one" is a document of the part before ("how many invoices ... and which was the
#: biggest one?"), named so that the part reads as the ranking of those documents.
_ONE = re.compile(r"\bwhich\s+one\s+(?:was|is|were)\s+(?:the\s+)?(?P<size2>biggest|largest|smallest|highest|lowest)\b|"
                  r"\b(?P<which>which\s+)one\b|\b(?P<size>biggest|largest|smallest|highest|lowest)\s+one\b", re.I)
def _one_as(found: re.Match[str], noun: str) -> str:
    if found.group("size2"):
        return f"which was the {found.group('size2')} {noun}"
    return f"which {noun}" if found.group("which") else f"{found.group('size')} {noun}"


#: "of the suppliers Company C bought from in H2 2025, which two ...": the scope of the question after it, no ask.
_PARTITIVE = re.compile(r"^(?:of|among(?:st)?|out\s+of)\s+(?:the\s+|all\s+(?:the\s+)?|our\s+|its\s+|their\s+)?"
                        r"(?:[\w'’-]+\s+){0,3}?(?:suppliers|vendors|products|items|(?:product\s+)?(?:groups|categories|"
                        r"sub-?groups))\b(?![^,]*\?)", re.I)
#: "By top-level category, what did ... spend in Q1?", "Per supplier and month: how much ...": a grouping phrase
#: standing before the question is the breakdown of the ask after it, no ask of its own (answered apart, it was
#: a clarification beside a bare total).
_GROUPING_LEAD = re.compile(r"(?:(?:broken\s+(?:down|out)|split|grouped|break(?:\s+(?:it|that))?\s+down)\s+)?"
                            r"(?:by|per|for\s+each)\s+(?!(?:[\w-]+\s+){0,4}?(?:spend|spent|spending|how|what|"
                            r"which)\b)[\w-]+(?:\s*(?:,|and|&|/)?\s*[\w-]+){0,4}", re.I)
_DOCUMENT_NOUN = re.compile(r"\b(invoices?|credit notes?)\b", re.I)
_PERIOD_LEAD = re.compile(r"^(?:in|for|during|over|since|from|between|last|this|the|past|trailing|ytd|year|im|"
                          r"in den|seit)\b", re.I)


@dataclass(frozen=True)
class AskPart:
    """One ask of a compound question: its words in the question and the question it is answered as (the shared
    constraints of the other parts carried over)."""

    asked: str
    question: str
    #: What was carried over from another part (for the answer's interpretation).
    carried: tuple[str, ...] = ()
    #: ``current`` / ``base``: the two periods of a unit-price comparison (the answer adds the change).
    role: str = ""
    #: The part asked without the period it took from a later part ("Which Company A invoices were duplicated, and
    #: what is its spend for Q1 2026 ...": Q1 may belong to the spend only); both readings are answered and said.
    without_period: str = ""
    #: The period carried (named in the answer's second reading).
    carried_period: str = ""
    #: The part refers back to an earlier one ("... and who is approved for it?"): what "it" is, is that part's.
    refers: bool = False


def _segments(text: str, names: Sequence[tuple[int, int]] = ()) -> list[str]:
    """The question cut at every boundary where the parts on both sides ask for something.

    ``names`` are the spans of entity names read in ``text``: a boundary inside one ("Cables and Connectors
    spend") joins two words of a name, never two asks.
    """
    pieces: list[tuple[str, str]] = []  # (separator before, text)
    last, sep = 0, ""
    # "by company and top-level category": two coordinated groupings of one breakdown, never two asks
    groupings = [m.span() for m in COORDINATED_GROUPINGS.finditer(text)]
    for found in _BOUNDARY.finditer(text):
        if any(a < found.end() and found.start() < b for a, b in (*names, *groupings)):
            continue
        piece = text[last:found.start()]
        if piece.strip():
            pieces.append((sep, piece))
            sep, last = found.group(0), found.end()
    pieces.append((sep, text[last:]))
    out: list[str] = []
    for sep, piece in pieces:
        piece_clean = piece.strip(" ,;.?!-\u2013\u2014")
        if not piece_clean:
            continue
        if out and (not _asks(piece_clean) or not _asks(out[-1]) or _MODIFIER.match(piece_clean)
                    or _NOT_ASK.match(piece_clean) or _PARTITIVE.match(out[-1].strip())
                    or _GROUPING_LEAD.fullmatch(out[-1].strip(" ,;:"))
                    or _BASIS_QUALIFIER.fullmatch(out[-1].strip(" ,;:"))):
            out[-1] = out[-1] + sep + piece  # not an ask of its own: part of the one before
        else:
            out.append(piece)
    if len(out) > 2 and _CLAIM.match(out[0].strip()) and "?" not in out[0]:
        # "I keep hearing that Zeta is approved for Company A. Can you check who is approved ..., and how much
        # ...?": the claim is context of the part after it (which checks it), never an ask of its own
        out[1:2] = [out[0].strip().rstrip(".") + ". " + out[1]]
        del out[0]
    return [" ".join(p.strip(" ,;-\u2013\u2014").split()) for p in out]


#: A piece that only states the basis of the figure ("Net of VAT, what did A and B spend", "excl. VAT: ...") qualifies
#: the ask after it; read as an ask of its own it would leave that ask at the default (gross) basis.
_BASIS_QUALIFIER = re.compile(r"(?:(?:net|gross)(?:\s+(?:of|excl\.?|excluding|ex|before|after|w/o|without|incl\.?|"
                              r"including)\s+(?:vat|tax(?:es)?))?|(?:excl\.?|excluding|ex|w/o|without|incl\.?|including|"
                              r"before|after)[\s.-]*(?:vat|tax(?:es)?)|in\s+[a-z]{3}(?:,?\s+(?:net|gross))?)", re.I)


def _asks(piece: str) -> bool:
    """Whether a piece of a question asks for something: a figure word, or a fact of a product's manual."""
    # (a fact the agreements state, "notice period", "payment term", is an ask as a manual's fact is)
    return bool(_ASK.search(piece) or _PRODUCT_FACT.match(piece) or _LIST_PRICE_ASK.search(piece) or find_fact(piece)
                or document_fact_ask(piece))


def _span_text(text: str, spans: Any) -> str:
    return " ".join(text[a:b] for a, b in spans).strip()


def _slots(part: str, reading: Reading) -> dict[str, str]:
    """The constraint words a part states itself: company, period, suppliers, product groups, products."""
    m = reading.mentions
    out: dict[str, str] = {}
    # (a company read from a short form or a typo, "Comp B", has no mention: its resolved name stands for it)
    # (the same company named twice, "Company C got ... Company C's vendors", is carried once)
    company = " ".join(dict.fromkeys(x.text for x in m.companies)) \
        or " ".join(re.findall(r"\bCOMP-[A-Z0-9]+\b", part)) or (reading.entities.company_name or "")
    if company:
        out["company"] = company
    if reading.period.time_range is not None and reading.period.spans:
        period = _span_text(part, reading.period.spans)
        out["period"] = period if _PERIOD_LEAD.match(period) else f"in {period}"
        compared = reading.analysis.comparison
        current = reading.period.time_range
        base = compared.base if compared is not None else None
        if base is None and current.end - current.start > dt.timedelta(days=1):
            # (a single day keeps its words: "as at 10 April" is a point in time, not a range of one day)
            # the period as the part read it, never its words again: the words of a span may be read otherwise
            # out of their sentence ("from Oct 25 through Mar 26" carried as "from Oct 25 through Mar")
            last = current.end - dt.timedelta(days=1)
            out["period"] = f"from {current.start.isoformat()} through {last.isoformat()}"
        if base is not None and (base.end == current.start or current.end == base.start):
            # "paper spend q4 25 vs q1 26, plus # paper suppliers": a part without a period of its own takes both
            # compared periods together (they adjoin), said as one range; the comparison part keeps its own two
            first, last = min(base.start, current.start), max(base.end, current.end) - dt.timedelta(days=1)
            out["period"] = f"from {first.isoformat()} through {last.isoformat()}"
    if m.suppliers:
        out["supplier"] = " and ".join(x.text for x in m.suppliers)
    if m.product_groups:
        out["group"] = " and ".join(x.text for x in m.product_groups)
    products = [x.text for x in m.products] + re.findall(r"\bPRD-\d+\b", part, re.I)
    if products:
        out["product"] = " and ".join(dict.fromkeys(products))
    return out


#: What a listing lists: the noun phrase right after the question word ("which control equipment vendors are
#: approved for C": vendors; "which product groups is its biggest supplier approved for": product groups).
_LISTED = re.compile(r"\b(?:which|what|list(?:\s+(?:the|all|our))?)\s+(?:of\s+(?:the|our|its|their)\s+)?"
                     r"(?:(?!(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would)\b)[\w'’-]+\s+){0,3}?"
                     r"(?P<head>suppliers?|vendors?|product\s+groups?|categor(?:y|ies)|groups?|products?|"
                     r"agreements?|contracts?)\b", re.I)
_LISTED_OBJECTS = (("supplier", "suppliers"), ("vendor", "suppliers"), ("product group", "product groups"),
                   ("categor", "product groups"), ("group", "product groups"), ("product", "products"),
                   ("agreement", "agreements"), ("contract", "agreements"))


def listed_object(text: str) -> str | None:
    """What a listing asks for ("suppliers", "product groups", "products", "agreements"), or None."""
    found = _LISTED.search(text)
    if found is None:
        return None
    head = " ".join(found.group("head").lower().split())
    return next(kind for prefix, kind in _LISTED_OBJECTS if head.startswith(prefix))


def lists_approved_suppliers(text: str) -> bool:
    """A part that lists approved suppliers ("which vendors are approved for Company C"): the graph answers it as an
    ask of its own. The fact reader says what is asked (the approval) and what is listed (suppliers); an approval
    fact that lists something else ("which product groups is its biggest supplier approved for") is a fact about
    the figure's supplier."""
    fact = find_fact(text)
    return fact is not None and fact.label == "approval" and (listed_object(text) == "suppliers"
                                                              or _WHO_APPROVED.search(text) is not None)


#: "who is approved for MRO as of today": the approved suppliers asked for by "who".
_WHO_APPROVED = re.compile(r"\bwho\s+(?:is|are|was|were|'s)\s+(?:currently\s+|now\s+|actually\s+|really\s+|"
                           r"in\s+fact\s+|still\s+)?(?:approved|authori[sz]ed|"
                           r"qualified)\b", re.I)


#: A part that lists the approved vendors ("approved vendors of Company C", "which suppliers are approved").
_APPROVED_LIST = re.compile(r"\b(?:approved|authori[sz]ed)\s+(?:[a-z][\w-]*\s+){0,2}?(?:vendors?|suppliers?)\b|"
                            r"\b(?:vendors?|suppliers?)\s+(?:(?:are|were|is|was)\s+)?(?:currently\s+)?"
                            r"(?:approved|authori[sz]ed)\b", re.I)
#: (a bare "now" only at the end of the part, "approved vendors company c now": elsewhere it may open a clause)
_NOW = re.compile(r"\b(?:right now|currently|today|at present|at the moment|as of now|these days)\b|"
                  r"\bnow\s*[?.!]*\s*$", re.I)
_CARRY_WORDS = {"company": "for {}", "period": "{}", "supplier": "with {}", "group": "on {}", "product": "of {}"}


#: A part that is only a measure ("number of invoices", "invoice count", "the total spend"): the scope is the
#: other part's.
_BARE_MEASURE = re.compile(r"^\s*(?:and\s+)?(?:the\s+|its\s+|their\s+)?(?:total\s+)?(?:spend(?:ing)?|amount|value|"
                           r"(?:number\s+of|#\s*(?:of\s+)?)\s*(?:invoices|documents|credit\s+notes|invoice\s+lines|"
                           r"lines|units)|"
                           r"(?:how\s+many\s+)?units|(?:the\s+)?quantity|"
                           r"(?:invoice|document|line)\s+count|count\s+of\s+invoices|how\s+many\s+invoices|"
                           # a basis or tax figure ("and the VAT amount", "the gross incl. VAT", "net too"): the
                           # figure of the part before at another basis, so of its whole scope
                           r"(?:(?:vat|tax(?:es)?)|(?:gross|net)(?:\s+(?:of|incl\.?|including|excl\.?|excluding|ex)"
                           r"\s+(?:vat|tax(?:es)?))?)(?:\s+(?:amount|total|figure|value|sum|spend))?"
                           r"(?:\s+(?:too|as\s+well|also|please|pls))?)"
                           r"\s*[?.!]?\s*$", re.I)


_ADD_UP = re.compile(r"\bwhat\s+(?:do|does|did)\s+(?:they|those|these|it|that)\s+(?:all\s+)?(?:add\s+up\s+to|"
                     r"amount\s+to|come\s+to|sum\s+(?:up\s+)?to|total)\b", re.I)
_FROM_WHOM = re.compile(r"\bwhich\s+(suppliers|vendors)\s+(?:were|are|was|did)\s+(?:they|those|these|those\s+"
                        r"invoices|these\s+invoices)\s+(?:all\s+)?(?:come\s+)?from\b", re.I)


def _status_words(reading: Reading) -> str:
    """The statuses a part selects when it names them ("open", "paid only"), as words the reader reads back;
    ``""`` when it counts the default ones (posted and paid)."""
    if tuple(reading.statuses) == ("posted", "paid") or not reading.statuses:
        return ""
    return " or ".join(reading.statuses)


#: A part that is only a question word ("- how much?", ", how many?"): it asks about the text before it.
#: "Within Company A's sensor spend for FY25, what % was pressure sensors?": the lead clause is the whole of the
#: share asked after it, one question.
_WITHIN_SHARE = re.compile(r"^\s*(?:within|of|out\s+of|among(?:st)?)\s+[^?;]{3,120}?[,:]\s*(?:what|which|how\s+much)\s+"
                           r"(?:%|(?:share|percent\w*|portion|proportion|fraction)\b)", re.I)
#: "..., and what share of it was cooling equipment?": a share whose whole is the figure of the part before.
_SHARE_OF_IT = re.compile(r"\b(share|percent(?:age)?|portion|proportion|fraction|%)\s+of\s+(?:it|that|this|"
                          r"(?:the|that|this)\s+total)\b", re.I)
_QUESTION_WORD_ONLY = re.compile(r"^\s*(?:so\s+)?how\s+(?:much|many)(?:\s+(?:each|apiece|for\s+each|did\s+each"
                                 r"(?:\s+(?:one|company|of\s+them))?(?:\s+(?:spend|buy|pay))?))?"
                                 # "- how much in total?": the total of what the text before names, no ask of its own
                                 r"(?:\s+(?:in\s+total|in\s+all|total|altogether|all\s+together|overall))?"
                                 r"(?:,?\s+(?:please|pls|plz|thanks|thx))?\s*[?.!]*\s*$", re.I)

#: A part that only asks for the count per status ("- how many in each status?", ", number per status"): it counts
#: the documents the text before it names, one question.
_PER_STATUS_ONLY = re.compile(r"^\s*(?:and\s+)?(?:how\s+many|number|count|counts)\b[^?;]{0,30}?\b(?:in\s+each|per|by|"
                              r"for\s+each|each)\s+status\s*[?.!]*\s*$", re.I)

#: A figure of its own in the text before a per-status tail ("Company C spend 2026 with Beta, and how many invoices
#: per status?"): that figure is an ask of its own, the tail another one.
_OWN_FIGURE = re.compile(
    r"\b(?:spend|spent|spending|purchases?|purchased|amounts?|totals?|value|values|worth|costs?|sum|how\s+much|"
    r"prices?|vat|tax(?:es)?|net|gross|average|avg|mean|share|percent(?:age)?|savings|quantit(?:y|ies)|units|"
    r"volumes?|eur|usd|gbp|chf)\b|%|[€$£]"
    r"|\bhow\s+many\s+(?!(?:of\s+(?:the|its|their|our)\s+)?(?:invoices|documents|credit\s+notes|bills)\b)", re.I)


def _per_status_of_documents(texts: list[str], read_part: Any) -> bool:
    """Whether a part only asks for the count per status of the documents the text before it names, one question:
    the text before has no figure of its own (its entity names masked: "Supplier Value" is no value asked for)."""
    tails = [i for i, t in enumerate(texts) if i and _PER_STATUS_ONLY.match(t)]
    return bool(tails) and not any(_OWN_FIGURE.search(read_part(t).cue_text) for t in texts[:tails[0]])


#: A part that only asks how far the figure before it moved ("- how much did it move?", "by how much did it
#: change", "what's the difference", "% change?"): the comparison the part before names, one question.
_CHANGE_ONLY = re.compile(
    r"^\s*(?:so\s+|and\s+)?(?:(?:by\s+)?how\s+(?:much|far|big)(?:\s+(?:did|has|have|was|is|were))?"
    r"(?:\s+(?:it|that|this|they|the\s+(?:unit\s+)?price|prices?|the\s+change))?(?:\s+(?:move[ds]?|moving|change[ds]?|"
    r"shift(?:ed)?|go(?:ne)?\s+(?:up|down)|went\s+(?:up|down)|rise|rose|risen|increased?|decreased?|drop(?:ped)?|"
    r"fall|fell|fallen|differ|vary|varied))?|what(?:['’]s|\s+is|\s+was)\s+the\s+(?:change|move|movement|"
    r"difference|delta|shift)|(?:%|percent(?:age)?|pct)\s+change|change\s+in\s+%|delta)"
    r"(?:,?\s+(?:please|pls|plz|thanks|thx))?\s*[?.!]*\s*$", re.I)

#: A part that only says how to present the ranking before it ("? rank all", "- rank them", "full ranking pls",
#: "sorted", "top 3"): an instruction to that ranking, one question.
_RANKING_ONLY = re.compile(
    r"^\s*(?:and\s+)?(?:pls\s+|please\s+)?(?:(?:rank|ranked|sort|sorted|order|ordered)(?:\s+(?:them|all|everything|"
    r"all\s+of\s+them|them\s+all|every\s+one))?|(?:the\s+)?(?:full|whole|complete)\s+(?:ranking|list)|all\s+of\s+them|"
    r"top\s+\d{1,2})(?:,?\s+(?:please|pls|plz|thanks|thx))?\s*[?.!]*\s*$", re.I)


#: A part that asks which invoice currencies there are ("which currency", "billing ccy", "Währung"): its rows carry
#: their amounts, so a bare "how much" / "amounts" beside it is the same ask, not a total of its own.
_CURRENCY_ASK = re.compile(_WHICH_CURRENCY + r"|\b(?:billing|invoice|original)\s+(?:currenc(?:y|ies)|ccys?)\b", re.I)
_AMOUNT_ONLY = re.compile(r"^\s*(?:and\s+)?(?:how\s+much|(?:the\s+|their\s+)?(?:amounts?|totals?|figures?|sums?))\b"
                          r"(?!\s+(?:did|do|does|was|were|is|are|of|with|for|from|on|spent)\b)"
                          # "the total VAT", "the total net amount": a measure of its own, not the rows' amounts
                          r"(?!\s+(?:vat|tax(?:es)?|mwst|ust|net|gross|excl\w*|incl\w*)\b)", re.I)


#: A listing of invoices ("which of its invoices are overdue", "list the open invoices"): an ask of its own.
_INVOICE_LISTING = re.compile(r"\b(?:which|what|list)\b[^?;]{0,40}?\b(?:invoices|credit\s+notes|bills)\b", re.I)


def _ranks(reading: Reading) -> bool:
    """Whether ``reading`` asks for a ranking: of spend (the analysis's) or of unit prices in a group."""
    from router.price_rankings import price_ranking

    return reading.analysis.ranking is not None or price_ranking(reading) is not None


#: What a part beside a named document may ask of it without naming it: its amount, VAT, currency or status.
_OF_THE_DOCUMENT = re.compile(r"\b(?:how\s+much|total|amount|value|vat|tax|gross|net|currenc(?:y|ies)|eur|usd|gbp|chf|"
                              r"booked|posted|paid|status|draft|cancell?ed|its|it)\b", re.I)
#: Words of an ask over many documents or a period's figure: never only the named document's fact.
_OVER_MANY = re.compile(r"\b(?:invoices|credit\s+notes|documents|bills|spend|spent|spending|how\s+many|count|"
                        r"number\s+of|suppliers?|vendors?)\b", re.I)


def about_named_document(texts: Sequence[str], read_part: Any) -> bool:
    """Whether the parts of a question are all about the one invoice or credit note it names by number ("Could you
    look up INV-...? What is its total incl. VAT?", "facture INV-..., how much VAT?", "INV-...: which currency is it,
    and how much in EUR?"): the parts without the number name nothing of their own (no company, supplier, product,
    group or period unless they are a remark) and ask only the document's amount, VAT, currency or status, or
    nothing; the document lookup answers the whole question (its amount states currency and status), never a
    part asked for a company and period it does not need."""
    from router.invoice_facts import document_numbers

    named = [bool(document_numbers(t)) for t in texts]
    if not any(named) or all(named):
        return False
    for text, has_number in zip(texts, named, strict=True):
        if has_number:
            continue
        r = read_part(text)
        e = r.entities
        if (e.company_id or e.supplier_ids or e.product_codes or e.product_group_id or _OVER_MANY.search(text)
                or (r.period.time_range is not None and not _NOT_ASK.match(text.strip()))):
            return False
        if _asks(text) and not _OF_THE_DOCUMENT.search(text):
            return False
    return True


#: A part that names only the basis of a figure ("and the gross incl. VAT", "the net please"): the basis word, with
#: no measure noun after it.
_BASIS_ONLY = re.compile(r"\b(?P<basis>gross|net)\b(?!\s+(?:of\b|spend|spending|spent|total|amount|value|sum|figure|"
                         r"purchases|invoice))", re.I)
_MEASURE_NOUN = re.compile(r"\b(?:spen[dt]|spending|how\s+much|how\s+many|totals?|amounts?|value|sum|figures?|"
                           r"purchases?|invoices?|count|number|average|avg)\b", re.I)


#: A remark in brackets closing a part ("... was that? (rough is fine but exact pref.)").
_TRAILING_REMARK = re.compile(r"\s*[?.!]?\s*\([^()]{0,80}\)\s*[?.!]*\s*$")


def _basis_as_spend(text: str) -> str:
    """A part that names only a basis ("the gross incl. VAT as well") asks for the spend at that basis: the measure
    the other parts share (spend), said, so that the part is read as a figure and not refused."""
    found = _BASIS_ONLY.search(text)
    if found is None or _MEASURE_NOUN.search(text) is not None:
        return text
    return f"{text[:found.end()]} spend{text[found.end():]}"


def split_asks(question: str, read_part: Any) -> tuple[AskPart, ...]:
    """The asks of ``question`` (one part: not a compound question), each with the constraints it shares.

    ``read_part`` reads one part's text (:func:`router.reader.read` with the tenant's gazetteer). The company and
    the period are shared by every part that names none ("For Company A in Q1: X and Y"); a part that refers back
    ("its invoice count", "how many invoices was that") also takes the supplier, product group and product of the
    part before; a unit-price part without a product takes the product of another part.
    """
    if _WITHIN_SHARE.match(question):
        return ()
    from router.document_scopes import document_scope_parts

    scopes = document_scope_parts(question)  # "invoices total vs net of credit notes": one figure, two scopes
    if scopes is not None:
        return tuple(AskPart(q, q) for q in scopes)
    whole = read_part(question)
    # (a currency's share of the spend is one governed figure, finance.currency_share: no parts)
    apart = separate_parts(question, whole)
    if apart:
        return apart
    texts = _segments(question, whole.mentions.spans if whole.text == question else ())
    if len(texts) < 2:
        return price_change_parts(whole)
    if about_named_document(texts, read_part):
        return ()  # "look up INV-...: what is its total incl. VAT?": one question about the document named
    if any(_QUESTION_WORD_ONLY.match(t) for t in texts[1:]) or _per_status_of_documents(texts, read_part):
        # "Company A invoices from Delta in April - how much?": one question, its question word last ("Company C
        # invoices 2026 - how many in each status?": the count of those invoices per status)
        return ()
    if len(texts) == 2 and _RANKING_ONLY.match(texts[1]) and _ranks(whole):
        return ()  # "which supplier is cheapest per unit in 2025? rank all": how the ranking is shown, one question
    if len(texts) == 2 and (_CHANGE_ONLY.match(texts[1]) or change_output_only(texts[1])) \
            and whole.analysis.comparison is not None:
        # "unit price PRD-530 q1 26 vs q4 25 - how much did it move?": the size of the change the first part
        # compares is that comparison's own answer (its delta and percent), not an ask of its own
        return price_change_parts(whole)
    if len(texts) == 2 and any(_CURRENCY_ASK.search(t) for t in texts) and any(_AMOUNT_ONLY.match(t) for t in texts):
        return ()  # "invoices to X - which currency, how much, Q1": the currency rows are the amounts asked for
    listings = [t for t in texts if find_fact(t)]
    if compound_request(whole) is not None and not (listings and all(lists_approved_suppliers(t) for t in listings)):
        # a figure and a document fact about the supplier it selects: one workflow (above); a part that lists the
        # approved suppliers is an ask of its own, with its own period
        return ()
    readings = [read_part(t) for t in texts]
    statuses = [_status_words(r) for r in readings]
    # "..., and what are the payment terms in agreement-2026-04?": a fact of a document the part names by its id,
    # with no figure word, is an ask of its own (its document says it); the figure beside it is answered apart
    own_document = [bool((((r.identifiers.contract_ids or r.identifiers.document_ids) and find_fact(t))
                          or _PRODUCT_FACT.match(t) or _LIST_PRICE_ASK.search(t) or document_fact_ask(t))
                         and not _FIGURE.search(t))
                    for t, r in zip(texts, readings, strict=True)]
    from router.agreement_clauses import clause_request

    # "What was B's payment term on D, and which vendors were approved for it on that date?": a document fact beside
    # a list of the approved vendors, no figure anywhere: the mixed workflow (a figure with documents) would answer
    # the list alone and drop the fact, so each is an ask of its own
    # (the same with a listing of invoices beside the fact: "Company C's payment terms, and which of its invoices
    # are overdue")
    facts = [bool(find_fact(t) and not lists_approved_suppliers(t)) for t in texts]
    fact_and_approved = (not any(_FIGURE.search(t) for t in texts) and any(facts)
                         and all(f or lists_approved_suppliers(t) or _INVOICE_LISTING.search(t)
                                 for t, f in zip(texts, facts, strict=True))
                         and not all(facts))
    # a clause of the company's agreement beside asks that are no figure is an ask of its own too
    clauses = [clause_request(r) is not None for r in readings]
    apart_clauses = any(clauses) and not all(clauses) and not any(
        _FIGURE.search(t) for t, c in zip(texts, clauses, strict=True) if not c)
    if not (fact_and_approved or apart_clauses) and (any(
            ((find_fact(t) and not lists_approved_suppliers(t)) or r.identifiers.contract_ids
             or r.identifiers.document_ids or r.agreement_topic) and not own
            for t, r, own in zip(texts, readings, own_document, strict=True)) or all(own_document)):
        return ()  # a document fact beside a figure: the mixed workflow answers both (spend_with_documents)
    # A German part is read through its English rewriting (router/german.py): its spans are in that text.
    read_texts = [r.text for r in readings]
    slots = [_slots(t, r) for t, r in zip(read_texts, readings, strict=True)]
    parts = []
    for i, (text, own) in enumerate(zip(read_texts, slots, strict=True)):
        donors = [slots[j] for j in (*range(i - 1, -1, -1), *range(i + 1, len(texts)))]
        # (a remark in brackets after the part, "(rough is fine)", is no word of its ask)
        core = _TRAILING_REMARK.sub("", text)
        # "..., and how does that trend vs the prior quarter": a pronoun in a part that names no measure of its own
        # refers to the figure of a part before, whatever its position in the part
        refers = bool(_REFERS.search(core)) or bool(
            not _MEASURE_NOUN.search(core) and re.search(r"\b(?:that|this|it)\b", core, re.I)
            and any(_FIGURE.search(t) for t in read_texts[:i]))
        # "spend with Gamma and invoice count": a bare count has the whole scope of the part before it; a bare
        # "total spend" beside a named figure is the company's total (the contrast), so it takes no names
        # (as has a part that names only a basis or tax figure, "and the VAT amount": the same figure's VAT)
        bare = _BARE_MEASURE.match(core) is not None and not own and re.search(
            r"number|count|many|units|quantity|#|(?i:\b(?:vat|tax(?:es)?|gross|net)\b)", core) is not None
        # (a document fact asked in words, "what warranty does it set", takes the company of the other parts: the
        # agreement searched is that company's; "how often does it need calibrating" the product: the manual is
        # that product's; its period is its own)
        wanted = ["company", "product"] if document_fact_ask(texts[i]) else [] if own_document[i] \
            else ["company", "period"]
        if refers or bare:
            wanted += ["supplier", "group", "product"]
        elif (readings[i].cues.unit_price or readings[i].analysis.average_price  # "at what average price?"
              or (readings[i].cues.quantity and not readings[i].entities.supplier_ids)):  # "and units bought?"
            wanted.append("product")
            if (readings[i].cues.unit_price or readings[i].analysis.average_price) and not any(
                    "product" in d for d in (own, *donors)) and "group" not in own:
                # "kestrel crates: units and avg unit price": the group another part names, whose one catalogue
                # product the price is of (router/sole_products.py; a group of several is asked about)
                wanted.append("group")
        carried = []
        asked = texts[i]
        lead = _LEAD.match(text) if document_fact_ask(texts[i]) else None
        if lead is not None and not _asks(lead.group(1)):
            # "Two items for the Xenon Pharma file please: above which order value is ... required": the lead before
            # the colon is no ask; the fact is asked of the company it names
            text = text[lead.end():]
            if "company" in own:
                text = text.rstrip(" ?.!") + " " + _CARRY_WORDS["company"].format(own["company"])
                carried.append(own["company"])
        before = readings[i - 1].entities if i else None
        if (before is not None and _SHARE_OF_IT.search(text) and not before.supplier_ids
                and not before.product_group_id and not before.product_codes):
            # the part before is the company's total: "what share of it was X" is X's share of total spend
            text = _SHARE_OF_IT.sub(lambda found: f"{found.group(1)} of total spend", text)
            carried.append("total spend")
        if refers:
            # "what do they add up to?", "which suppliers were they from?": the total, or the suppliers, of what
            # the part before selected, in words the reader reads as that figure
            text = _ADD_UP.sub("what is the total", text)
            text = _FROM_WHOM.sub(lambda found: f"which {found.group(1)} did we buy from", text)
            text = re.sub(r"\s+(?:on|for)\s+(?:them|those|these)\b", "", text, flags=re.I)
            text = re.sub(r"\b(?:its|their)\b", "the", text, flags=re.I)
            if _FIGURE.search(text) and not readings[i].entities.supplier_ids and any(
                    (_APPROVED_LIST.search(t) or _WHO_APPROVED.search(t)) and not _FIGURE.search(t)
                    for t in texts[:i]):
                # "approved vendors of Company C and their spend": the spend with those approved vendors
                text = re.sub(r"\s+with\s+(?:them|those|these)\b", "", text, flags=re.I)
                text = text.rstrip(" ?.!") + " with approved vendors"
                carried.append("approved vendors")
            text = re.sub(r"\s+(?:(?:was|is|were|are)\s+)?(?:it|that|this)\s*([?.!]?)\s*$", r"\1", text, flags=re.I)
            # "which invoices are they?": the documents the part before selected
            text = re.sub(r"\s+(?:was|is|were|are)\s+(?:they|those|these)\s*([?.!]?)\s*$", r"\1", text, flags=re.I)
            text = re.sub(r"\bthe same\b", "the spend", text, flags=re.I)
            if not _MEASURE_NOUN.search(text) and any(_FIGURE.search(t) for t in read_texts[:i]):
                # "what did X spend in Q4, and how does that trend vs the prior quarter": the part names no measure
                # of its own; what it refers to is the spend of the part before
                text = re.sub(r"\b(?:that|this|it)\b", "the spend", text, count=1, flags=re.I)
            earlier = next((_DOCUMENT_NOUN.search(t) for t in reversed(read_texts[:i]) if _DOCUMENT_NOUN.search(t)),
                           None)
            if earlier is not None:
                noun = earlier.group(1).lower().rstrip("s") if not earlier.group(1).lower().startswith("credit") \
                    else "credit note"
                text = _ONE.sub(functools.partial(_one_as, noun=noun), text)
        text = _basis_as_spend(text)
        later_period = ""
        before_period = text
        for slot in wanted:
            if slot in own or (slot == "period" and _NOW.search(text)):
                continue  # "... approved right now": the part's own time is the as-of date
            # a bare measure takes the names of the part before it only ("The total spend. Also, total spend
            # with Zeta" is the company's total beside Zeta's, not Zeta's twice)
            scoped = bare and not refers and slot in ("supplier", "group", "product")
            donor = next((d[slot] for d in (donors[:i] if scoped else donors) if slot in d), None)
            if donor is None or (slot in ("supplier", "group", "product") and not (refers or bare)
                                 and slot != "product" and not (slot == "group" and "product" in wanted)):
                continue
            later = next((d for d in donors[i:] if d.get("period")), None)
            if (slot == "period" and "company" in own and not refers and not bare and later is not None
                    and "company" in later and not any(d.get("period") for d in donors[:i])):
                # the part names its own company, and the period only a later part that names its own company too:
                # the period may be that part's only
                before_period = text.rstrip(" ?.!")
                later_period = donor
            text = text.rstrip(" ?.!") + " " + _CARRY_WORDS[slot].format(donor)
            carried.append(donor)
        # The status filter of the part referred to ("open invoice amount (posted, not paid), and which invoices
        # are they?") is part of its selection: the documents listed are the ones the figure counted.
        later = range(i + 1, len(texts)) if refers else range(0)
        donor_status = next((statuses[j] for j in (*range(i - 1, -1, -1), *later) if statuses[j]), None)
        donor_types = next((readings[j].analysis.document_types for j in range(i - 1, -1, -1)
                            if readings[j].analysis.document_types), None)
        if refers and donor_types == ("credit_note",) and not readings[i].analysis.document_types \
                and not _DOCUMENT_NOUN.search(text):
            # "how many credit notes ..., and what was their total?": the credit notes' total
            text = text.rstrip(" ?.!") + " of credit notes"
            carried.append("credit notes")
        if (refers or bare) and donor_status and not statuses[i] and not readings[i].asked_statuses:
            text = text.rstrip(" ?.!") + f" with status {donor_status}"
            carried.append(f"status {donor_status}")
        parts.append(AskPart(asked, text if carried or text != read_texts[i] else asked, tuple(carried),
                             without_period=before_period if later_period else "", carried_period=later_period,
                             refers=refers))
    return tuple(parts)


def with_other_reading(part: AskPart, answer: Answer, other: Answer | None) -> Answer:
    """``answer`` (the part with the period it took from a later part) with the reading without that period said
    beside it: the question does not say whether the period is the part's too, so both readings are given."""
    if other is None or other.status not in _ANSWERED:
        return answer
    prose, _ = _prose_and_sources(other.text or "")
    text, _ = _prose_and_sources(answer.text or "")
    note = (f" The period '{part.carried_period}' is named in a later part of the question and may be that part's "
            f"only; read without it, \"{part.without_period}\": {prose}")
    sources = tuple(dict.fromkeys([*answer.sources, *other.sources]))
    return answer.model_copy(update={
        "text": text + note + (" Sources: " + ", ".join(sources) + "." if sources else ""),
        "result": {**answer.result, "without_period": {"question": part.without_period, **other.result}},
        "sources": sources,
        "citations": tuple({c.source_id: c for c in (*answer.citations, *other.citations)}.values()),
    })


#: "X in Q4 and, separately, in Q1", "Q3 and Q4 separately", "with A and with B, separately", "one figure each":
#: the same ask once per named period (or supplier), never their total.
_SEPARATELY = re.compile(r"(?:,?\s*(?:\band\s*,?\s*)?\b(?:each\s+)?(?:separately|individually|respectively|"
                         r"(?:as\s+)?separate\s+figures|one\s+figure\s+(?:for\s+)?each|each\s+on\s+its\s+own)\b|"
                         # "- both numbers please", ": give me both figures", ", each figure"
                         r"\s*[-\u2013\u2014:,]?\s*(?:(?:please\s+)?(?:give\s+(?:me\s+|us\s+)?|show\s+(?:me\s+)?)?both"
                         r"(?:\s+(?:numbers|figures|totals|amounts|values))?|each\s+(?:number|figure|total))\b"
                         r"(?=\s*(?:please)?\s*[?.!]?\s*$))(?:\s+please)?,?", re.I)
#: "What did we spend with A in Q1, and what with B?": the second ask repeats the first with another supplier.
_ELLIPSIS = re.compile(r",?\s+and\s+(?:what|how\s+much)(?:\s+about)?(?=\s+(?:with|from|for)\s)", re.I)
_LEAD_WORD = re.compile(r"(?:\b(?:with|from|at|by|in|for|during|over)\s+)$", re.I)


def _cut(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` without ``spans`` (and the preposition before each), the glue left dangling tidied away."""
    out = text
    for start, end in sorted(spans, reverse=True):
        lead = _LEAD_WORD.search(out, 0, start)
        out = out[:lead.start() if lead else start] + " " + out[end:]
    out = re.sub(r"(?:\s*,)?\s+(?:and|und|&)(?=\s*(?:$|[?.!,;:]|(?:and|und|&)\b))", "", out, flags=re.I)
    out = re.sub(r"\s+([?.!,;:])", r"\1", " ".join(out.split()))
    return re.sub(r"[,;:\s]+([?.!]?)$", r"\1", out).strip()


#: "with A and with B", "in Q3 2025 and in Q4 2025": the preposition said again asks for each on its own.
_AGAIN = re.compile(r"(?:\s+(?:ltd|gmbh|ag|inc|llc|plc|corp|kg|se|sa)\.?)?\s*,?\s*(?:and|&)\s+"
                    r"(?:(?P<with>with|from)|(?P<in>in|for|during))\s+(?:the\s+)?", re.I)


def _each_own_preposition(question: str, whole: Reading) -> bool:
    """Two named suppliers (or periods), the second after "and" and the preposition of the first again."""
    suppliers = sorted((m for m in whole.mentions.suppliers if m.resolved), key=lambda m: m.start)
    for a, b in itertools.pairwise(suppliers):
        glue = _AGAIN.fullmatch(question, a.end, b.start)
        if glue is not None and glue.group("with") and a.resolved != b.resolved:
            return True
    spans = sorted(whole.period.spans)
    for (_, end), (start, _) in itertools.pairwise(spans):
        glue = _AGAIN.fullmatch(question, end, start)
        if glue is not None and glue.group("in"):
            return True
    return False


#: After "and separately": a prepositional phrase that names what the second figure is about.
_WHAT_LEAD = re.compile(r"(?:\b(?:with|from|on|of|for)\s+(?:the\s+|our\s+)?)$", re.I)
_SWITCH_LEAD = re.compile(r"\s*(?:(?:on|for|with|from|of|in|at)\s+)?(?:the\s+|our\s+)?", re.I)


def _switched_scope_parts(question: str, whole: Reading, cue: re.Match[str] | None) -> tuple[AskPart, ...]:
    """"Spend with Beta at Company A in Q1, and separately on Sensors": two figures, the first as asked before the
    cue, the second over the same company and period but about what follows the cue (the supplier, group or
    product of the first part is not the second's, and the second's is not the first's)."""
    if cue is None or not re.search(r"separate|individual|on\s+its\s+own", cue.group(0), re.I):
        return ()
    lead = _SWITCH_LEAD.match(question, cue.end())
    if lead is None:
        return ()
    m = whole.mentions
    what = [(x.start, x.end) for x in (*m.suppliers, *m.product_groups, *m.products) if x.resolved]
    what += [found.span() for found in re.finditer(r"\bPRD-\d+\b", question, re.I)]
    after = [x for x in what if x[0] >= lead.end()]
    before = [x for x in what if x[1] <= cue.start()]
    if not after or any(cue.start() <= x[0] < lead.end() for x in what):
        return ()
    if any(a < cue.start() for a, _ in whole.period.spans) and any(a >= cue.end() for a, _ in
                                                                          whole.period.spans):
        return ()  # "in Q1, and separately in Q2": one ask per period (below)
    head = question[:cue.start()]
    tail = question[cue.end():].strip()
    end = tail[-1] if tail[-1:] in "?.!" else ""
    first = head.strip(" ,;:-") + end
    for start, stop in sorted(before, reverse=True):
        words = _WHAT_LEAD.search(head, 0, start)
        head = head[:words.start() if words else start] + " " + head[stop:]
    second = _cut(head, []).rstrip("?.! ,;:") + " " + tail
    return (AskPart(first, first), AskPart(tail, " ".join(second.split())))


#: "Company A and Company C each", "Xenon and Ypsilon, each": the companies listed, then "each".
_EACH_AFTER = re.compile(r"\s*,?\s*each\b(?!\s+(?:month|quarter|year|week|day|supplier|vendor|product|group|"
                         r"category|invoice|line|period)s?\b)", re.I)
#: "of Xenon and of Ypsilon", "for Company A and for Company B": the preposition said again before the second.
_COMPANY_AGAIN = re.compile(r"\s*,?\s*(?:and|&)\s+(?P<prep>of|for|at|by|from)\s+(?:the\s+)?", re.I)
#: After the last of companies listed with "'s": the share asked for each ("Xenon's and Ypsilon's share").
_POSSESSED_SHARE = re.compile(r"\s+(?:\w+\s+)?(?:shares?|percentages?|portions?|proportions?)\b", re.I)
#: The words between companies listed together ("Company A, Company B and Company C").
_COMPANY_LIST = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s(?:and|&|und)\s+)\s*", re.I)


def _company_parts(question: str, whole: Reading) -> tuple[AskPart, ...]:
    """One part per named company when each is asked on its own: "What share of group spend did Company A and
    Company C each account for?", "Q1 2026 spend of Xenon and of Ypsilon?". Each part is the question with the
    list replaced by one of the companies (and "each" dropped); every other constraint stays in every part, so a
    company's share of the group (the tenant-wide figure, router/group_scope.py) is each company's own."""
    named = [*(m for m in whole.mentions.companies if m.resolved), *_company_id_mentions(question, whole.identifiers)]
    companies = sorted({(m.start, m.end): m for m in named}.values(), key=lambda m: m.start)
    if len({m.resolved for m in companies}) < 2 or len(companies) != len({m.resolved for m in companies}):
        return ()
    again = all(_COMPANY_AGAIN.fullmatch(question, a.end, b.start) is not None
                and _COMPANY_AGAIN.fullmatch(question, a.end, b.start).group("prep").lower()  # type: ignore[union-attr]
                == question[:a.start].rstrip().rsplit(" ", 1)[-1].lower()
                for a, b in itertools.pairwise(companies))
    listed = all(_COMPANY_LIST.fullmatch(question, a.end, b.start) is not None
                 for a, b in itertools.pairwise(companies))
    each = _EACH_AFTER.match(question, companies[-1].end)
    # "Xenon's and Ypsilon's share of group spend": a share of each company (never one share of both together)
    owned = all(question[m.end:m.end + 2] in ("'s", "’s") for m in companies) and all(
        _COMPANY_LIST.fullmatch(question, a.end + 2, b.start) is not None for a, b in itertools.pairwise(companies))
    if owned and _POSSESSED_SHARE.match(question, companies[-1].end + 2):
        return tuple(AskPart(one, one) for one in (
            re.sub(r"\s+([?.!,;:])", r"\1", " ".join(
                (question[:companies[0].start] + m.text + question[companies[-1].end:]).split())).strip(" ,;:-")
            for m in companies))
    if not again and not (listed and each is not None):
        return ()
    begin, finish = companies[0].start, (each.end() if each is not None and listed else companies[-1].end)
    if again:
        # "spend of Xenon and of Ypsilon": the preposition before the first company stays in each part
        begin = companies[0].start
    out = []
    for m in companies:
        one = question[:begin] + m.text + question[finish:]
        one = re.sub(r"\s+([?.!,;:])", r"\1", " ".join(one.split())).strip(" ,;:-")
        out.append(AskPart(one, one))
    return tuple(out)


def separate_parts(question: str, whole: Reading) -> tuple[AskPart, ...]:
    """One part per named supplier or period when the question asks for them separately ("and, separately,",
    "... separately please", "and what with B?"); ``()`` otherwise. Each part is the question with the other
    suppliers (periods) taken out; the shared constraints stay in every part."""
    if whole.text != question:
        return ()  # a German question is read through its rewriting: its spans are not the question's
    products = _product_parts(question, whole)
    if products:
        return products
    per_company = _company_parts(question, whole)
    if per_company:
        return per_company
    cue = _SEPARATELY.search(question) or _ELLIPSIS.search(question)
    if cue is None and not _each_own_preposition(question, whole):
        return ()
    cue_span = (cue.start(), cue.end()) if cue is not None else (0, 0)
    switched = _switched_scope_parts(question, whole, cue)
    if switched:
        return switched
    suppliers = [m for m in whole.mentions.suppliers if m.resolved]
    companies = [m for m in whole.mentions.companies if m.resolved]
    period_spans = list(whole.period.spans)
    if len({m.resolved for m in companies}) >= 2 and _SEPARATELY.search(question):
        # "Company A and Company B spend in Q1, separately": the same ask once per named company.
        begin, finish = min(m.start for m in companies), max(m.end for m in companies)
        listed = question[begin:finish]
        if re.fullmatch(r"[\w .&'-]*?(?:\s*(?:,|and|&|und)\s*[\w .&'-]*?)+", listed) is None:
            return ()  # the companies are not one list ("Company A ... and ... Company B"): asked about
        out = []
        for m in dict((m.resolved, m) for m in companies).values():
            one = question[:begin] + m.text + question[finish:]
            found = _SEPARATELY.search(one)
            one = (one[:found.start()] + one[found.end():]) if found else one
            one = re.sub(r"\s+([?.!,;:])", r"\1", " ".join(one.split())).strip(" ,;:-")
            out.append(AskPart(one, one))
        return tuple(out)
    if len({m.resolved for m in suppliers}) >= 2:
        keep_period = ""
        if period_spans:
            first = question[period_spans[0][0]:period_spans[0][1]]
            keep_period = first if _PERIOD_LEAD.match(first) else f"in {first}"
        base = _cut(question, [*((m.start, m.end) for m in suppliers), *period_spans, cue_span])
        tail = base[-1] if base[-1:] in "?.!" else ""
        base = base.rstrip("?.! ")
        return tuple(AskPart(f"{base} with {m.text} {keep_period}".strip() + tail,
                             f"{base} with {m.text} {keep_period}".strip() + tail)
                     for m in dict((m.resolved, m) for m in suppliers).values())
    if cue is not None and _ELLIPSIS.match(question, cue.start()) is not None:
        return ()
    periods = _named_periods(question, whole)
    if len(periods) < 2:
        return ()
    base = _cut(question, [*period_spans, cue_span])
    tail = base[-1] if base[-1:] in "?.!" else ""
    base = base.rstrip("?.! ")
    return tuple(AskPart(f"{base} {words}{tail}", f"{base} {words}{tail}") for words in periods)


_SHARE_WORDS = r"(?:portion|share|fraction|percentage|proportion|part|percent|%)"
_CURRENCY_CODE = r"(?P<code>EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|CNY)"
#: "What portion of Q1 spend was invoiced in USD?", "what fraction of spend was billed in CHF", "share of GBP
#: invoices in our spend": the invoices of one currency (converted) against the whole spend.
_CURRENCY_SHARE = re.compile(
    rf"\b{_SHARE_WORDS}\b(?:(?!\b(?:and|but)\b)[^?.;]){{0,80}}?(?:\b(?:invoiced|billed|denominated|issued|paid)\s+"
    rf"in\s+{_CURRENCY_CODE}\b|(?<![A-Za-z]){_CURRENCY_CODE.replace('code', 'code2')}[- ](?:denominated\s+)?"
    r"(?:invoices|invoiced|billed)\b|\bin\s+(?P<code3>EUR|USD|GBP|CHF)\s+invoices\b)", re.I)


def currency_share_parts(question: str, whole: Reading) -> tuple[AskPart, ...]:
    """The share of one invoice currency in the spend: the spend on the invoices issued in it (converted to the
    reporting currency) and the whole spend, two governed figures; :func:`merge_answers` adds their ratio. ``()``
    when the question asks no such share (or names no company or period: the parts would ask for them)."""
    from router.currency import issued_currencies, share_asked

    found = _CURRENCY_SHARE.search(whole.cue_text)
    # the currency by word or symbol too ("billed in pounds", "in Dollar abgerechnet")
    issued = issued_currencies(whole.cue_text) if found is None and share_asked(whole.cue_text) else set()
    e = whole.entities
    tr = whole.period.time_range
    # a German question is read through its English rewriting: the spans are in ``whole.text``
    if (found is None and len(issued) != 1) or not e.company_id or tr is None or whole.period.ambiguous:
        return ()
    if whole.analysis.share is not None and (e.supplier_ids or e.product_group_id):
        return ()  # a supplier's or group's share: the share metrics answer it
    code = (found.group("code") or found.group("code2") or found.group("code3")).upper() if found else min(issued)
    words = whole.text[whole.period.spans[0][0]:whole.period.spans[-1][1]] if whole.period.spans else ""
    period = words if _PERIOD_LEAD.match(words) else f"in {words}"
    who = e.company_name or e.company_id
    scope = "".join(f" with {m.text}" for m in whole.mentions.suppliers) + \
        "".join(f" on {m.text}" for m in whole.mentions.product_groups)
    part = f"{who} spend{scope} {period} on invoices billed in {code}"
    base = f"{who} total spend{scope} {period}"
    return (AskPart(part, part, (), "share_part"), AskPart(base, base, (), "share_whole"))


def _currency_share(parts: Sequence[tuple[AskPart, Answer]]) -> str:
    roles = {p.role: a for p, a in parts if p.role}
    part, whole = roles.get("share_part"), roles.get("share_whole")
    if part is None or whole is None:
        return ""
    num, den = part.result.get("total_spend"), whole.result.get("total_spend")
    if num is None or den is None or Decimal(str(den)) == 0:
        return "No share can be stated: " + ("the spend is zero or there is no data (no share, not 0 %)." if
                                             den is None or Decimal(str(den)) == 0 else
                                             "no invoice of that currency in the period (no data).")
    pct = (100 * Decimal(str(num)) / Decimal(str(den))).quantize(Decimal("0.01"))
    currency = whole.result.get("currency") or ""
    return (f"Share: {num} {currency} of {den} {currency} is {pct} % of the spend (both in the reporting currency, "
            "converted at the corporate rate on each posting date).")


#: "... of each", "give both averages", "A vs B", "A or B": a unit price asked for every product named.
#: A unit price is one product's, so two products joined by "and" ask for both ("of A and of B").
_EACH_PRODUCT = re.compile(r"\b(?:each|both|either|separately|respectively|vs\.?|versus|or|compared?|and)\b", re.I)


#: The role of one product's unit-price part (the product code after it): the merged answer orders the products.
PRODUCT_PRICE_ROLE = "product_price:"


def _price_order(parts: Sequence[tuple[AskPart, Answer]]) -> str:
    """ "Which is cheaper?": the products of unit-price parts ordered by their average unit price, lowest first,
    with the cheaper one named (each part alone answers one product and says nothing of the other). Empty when a
    part has no price (no data is no price) or the prices are in different currencies."""
    priced = [(p.role[len(PRODUCT_PRICE_ROLE):], a) for p, a in parts if p.role.startswith(PRODUCT_PRICE_ROLE)]
    if len(priced) < 2 or any(a.status != "answered" or a.result.get("unit_price") is None for _, a in priced):
        return ""
    currencies = {str(a.result.get("currency") or "") for _, a in priced}
    if len(currencies) != 1:
        return ""
    unit = currencies.pop()
    ranked = sorted(((Decimal(str(a.result["unit_price"])), code) for code, a in priced))
    (low, cheapest), (high, dearest) = ranked[0], ranked[-1]
    listed = "; ".join(f"{i}. {code} {price} {unit} per unit".replace("  ", " ")
                       for i, (price, code) in enumerate(ranked, start=1))
    if low == high:
        return f"Average unit prices, lowest first: {listed}. They cost the same per unit."
    return (f"Average unit prices, lowest first: {listed}. {cheapest} is the cheapest, {high - low} {unit} per "
            f"unit below {dearest}.").replace("  ", " ")


def _company_words(reading: Reading) -> str:
    """The company a unit-price part is asked for: the one named, all of them when the question says so ("(all
    cos)", "group-wide": a part without them would ask which company), or none."""
    e = reading.entities
    if e.company_id:
        return f" for {e.company_name or e.company_id}"
    return " for all companies" if all_companies(reading) is not None else ""


def _product_parts(question: str, whole: Reading) -> tuple[AskPart, ...]:
    """One unit-price part per product when a price question names several and asks for each ("average unit price
    of each", "which is cheaper, A or B? give both averages"); ``()`` otherwise."""
    if not (whole.cues.unit_price or whole.analysis.average_price) or not _EACH_PRODUCT.search(whole.cue_text):
        return ()
    spans: list[tuple[int, int, str]] = [(m.start, m.end, m.resolved) for m in whole.mentions.products
                                         if m.resolved]
    # a code as written ("prd 600", "PRD655", "prd-482"): the identifiers' own pattern, normalised
    # (a code restating a product already named beside it, "thermal mass flowmeter TMF-2 (PRD-515)", is the same
    # product, no product of its own)
    spans += [(f.start(), f.end(), f"PRD-{f.group(1)}") for f in PRODUCT_CODE.finditer(question)
              if not any(a <= f.start() < b or code == f"PRD-{f.group(1)}" for a, b, code in spans)]
    codes = list(dict.fromkeys(code for _, _, code in spans))
    if len(codes) < 2 or len(codes) != len(spans):
        return ()
    e = whole.entities
    tr = whole.period.time_range
    if tr is None or whole.period.ambiguous:
        return ()
    words = question[whole.period.spans[0][0]:whole.period.spans[-1][1]]
    period = words if _PERIOD_LEAD.match(words) else f"in {words}"
    # (products' prices compared with no company named compare them over every company: each part says so, a
    # part alone would ask which company)
    who = _company_words(whole) or " for all companies"
    sup = f" from {' and '.join(e.supplier_ids)}" if e.supplier_ids and len(e.supplier_ids) == 1 else ""
    asked = {code: " ".join(question[a:b].split()) for a, b, code in spans}
    return tuple(AskPart(f"average unit price of {asked[c]}", f"average unit price of {c}{sup}{who} {period}",
                         role=f"{PRODUCT_PRICE_ROLE}{c}")
                 for c in codes)


def _named_periods(question: str, whole: Reading) -> list[str]:
    """The periods a question names one after the other, each as words the period reader reads alone."""
    from router.periods import resolve_period

    out: dict[tuple[dt.date, dt.date], str] = {}
    for start, end in whole.period.spans:
        words = question[start:end]
        one = resolve_period(words, whole.as_of)
        if one.time_range is not None and " + " not in one.time_range.label:
            out.setdefault((one.time_range.start, one.time_range.end),
                           words if _PERIOD_LEAD.match(words) else f"in {words}")
            continue
        pieces = one.parts or (one.time_range.label.split(" + ") if one.time_range is not None else ())
        for piece in pieces:
            label = piece if isinstance(piece, str) else piece.label
            alone = resolve_period(label, whole.as_of).time_range
            if alone is None:
                return []
            out.setdefault((alone.start, alone.end), f"in {label}")
    return list(out.values())


def _shifted(day: dt.date, years: int = 0, months: int = 0) -> dt.date:
    month = day.year * 12 + day.month - 1 + years * 12 + months
    year, month = divmod(month, 12)
    return dt.date(year, month + 1, min(day.day, 28 if month + 1 == 2 else 30 if month + 1 in (4, 6, 9, 11) else 31))


def price_change_parts(reading: Reading) -> tuple[AskPart, ...]:
    """"Did the unit price of X go up in Q1 vs Q4", "how did the average price of X change from A to B": the
    quantity-weighted average unit price in both periods (two governed calls; the answer adds the change). No
    governed metric compares unit prices between periods, so each period is asked on its own."""
    a = reading.analysis
    tr = reading.period.time_range
    codes = reading.entities.product_codes
    if not (a.average_price or reading.cues.unit_price) or a.comparison is None or tr is None or len(codes) != 1:
        return ()
    base = a.comparison.base
    # ("between Q3 and Q1 2026" in a change: its two ends, as "from ... to ...")
    ends = re.fullmatch(r"(?:from\s+)?(.+?)\s+(?:to|until|till)\s+(.+)|between\s+(.+?)\s+and\s+(.+)",
                        tr.source_text.strip(), re.I)
    if base is None and ends is not None:
        # "change from February to March": the reader reads one range; a change is between its two ends.
        from router.periods import resolve_period

        first, last = (resolve_period(w, reading.as_of).time_range for w in ends.groups() if w is not None)
        if first is not None and last is not None and first.end <= last.start:
            base, tr = first, last
    if base is None:
        if a.comparison.compare_to == "same_period_last_year":
            start, end = _shifted(tr.start, years=-1), _shifted(tr.end, years=-1)
        elif tr.start.day == 1 and tr.end.day == 1:
            months = (tr.end.year - tr.start.year) * 12 + tr.end.month - tr.start.month
            start, end = _shifted(tr.start, months=-months), tr.start
        else:
            start, end = tr.start - (tr.end - tr.start), tr.start
    else:
        start, end = base.start, base.end
    e = reading.entities
    who = _company_words(reading)
    sup = f" from {' and '.join(e.supplier_ids)}" if e.supplier_ids else ""
    ask = "average unit price of {code}{sup}{who} from {start} to before {end}"
    now = ask.format(code=codes[0], sup=sup, who=who, start=tr.start, end=tr.end)
    then = ask.format(code=codes[0], sup=sup, who=who, start=start, end=end)
    return AskPart(now, now, (), "current"), AskPart(then, then, (), "base")


def _price_change(parts: Sequence[tuple[AskPart, Answer]]) -> str:
    roles = {p.role: a for p, a in parts if p.role}
    cur, base = roles.get("current"), roles.get("base")
    if cur is None or base is None:
        return ""
    now, then = cur.result.get("unit_price"), base.result.get("unit_price")
    if now is None or then is None:
        return ("No change can be stated: " + ("the later" if now is None else "the earlier") +
                " period has no priced line (no data, not a price).")
    diff = Decimal(str(now)) - Decimal(str(then))
    pct = (100 * diff / Decimal(str(then))).quantize(Decimal("0.01")) if Decimal(str(then)) else None
    way = "went up" if diff > 0 else ("went down" if diff < 0 else "did not change")
    return (f"Change: the average unit price {way}, from {then} to {now} per unit, a difference of {diff:+} per unit"
            + (f" ({pct:+} %)." if pct is not None else "."))


_ANSWERED = ("answered", "no_data", "partial")


def _prose_and_sources(text: str) -> tuple[str, list[str]]:
    prose, _, sources = text.partition(" Sources: ")
    return prose.strip(), [s.strip().rstrip(".") for s in sources.split(",") if s.strip()]


def merge_answers(parts: Sequence[tuple[AskPart, Answer]]) -> Answer:
    """One answer for a compound question: every part's answer under its own words, the parts not answered named
    (PARTIAL when some are answered, never a part silently dropped), citations and sources of all parts.

    A part that refers back to an earlier part that needs a clarification ("spend on Packaging ..., and who is
    approved for it?", Packaging unknown) refers to what is not understood: the whole question is that one
    clarification, never an answer to the later part about something else."""
    for i, (part, _) in enumerate(parts):
        unclear = next((a for _, a in parts[:i] if a.status == "clarification"), None)
        if part.refers and unclear is not None:
            note = (f' The part "{part.asked}" refers to it, so it is not answered either until that is clear.')
            return unclear.model_copy(update={
                "text": (unclear.text or "") + note,
                "clarification_question": (unclear.clarification_question or "") + note
                if unclear.clarification_question else unclear.clarification_question})
    answered = [i for i, (_, a) in enumerate(parts, start=1) if a.status in _ANSWERED]
    unanswered = [i for i, (_, a) in enumerate(parts, start=1) if a.status not in _ANSWERED]
    texts: list[str] = []
    sources: list[str] = []
    for i, (part, answer) in enumerate(parts, start=1):
        prose, cited = _prose_and_sources(answer.text or answer.clarification_question or "")
        sources += cited
        took = f" (taking {', '.join(part.carried)} from the rest of the question)" if part.carried else ""
        if answer.status in _ANSWERED:
            texts.append(f"Part {i}, \"{part.asked}\"{took}: {prose}")
        else:
            why = answer.clarification_question or prose
            texts.append(f"Part {i}, \"{part.asked}\"{took}: NOT ANSWERED ({answer.status}): {why}")
    status: AnswerStatus
    if not answered:
        statuses = {a.status for _, a in parts}
        status = "clarification" if "clarification" in statuses else parts[0][1].status
    elif unanswered or any(parts[i - 1][1].status == "partial" for i in answered):
        status = "partial"
    elif all(parts[i - 1][1].status == "no_data" for i in answered):
        status = "no_data"
    else:
        status = "answered"
    lead = f"This question asks {len(parts)} things; each is answered on its own."
    if any(p.role.startswith("share_") for p, _ in parts):
        lead = ("The spend on the invoices of that currency and the whole spend (two governed figures; the share is "
                "their ratio):")
    elif any(p.role.startswith(PRODUCT_PRICE_ROLE) for p, _ in parts):
        # the order first ("which is cheaper?"), then each product's governed figure
        lead = " ".join(x for x in (_price_order(parts), lead) if x)
    elif any(p.role and p.role != "currency_count" for p, _ in parts):  # (counts per currency: router/list_totals.py)
        lead = "The average unit price in both periods (no governed metric compares prices between periods):"
    if unanswered and answered:
        lead = (f"PARTIAL RESULT: part{'s' if len(unanswered) > 1 else ''} {', '.join(map(str, unanswered))} of "
                f"{len(parts)} could not be answered (said below); the other parts are complete.")
    extra = [x for x in (_price_change(parts), _currency_share(parts)) if x]
    text = " ".join([lead, *texts, *extra])
    sources = list(dict.fromkeys([*sources, *(src for _, a in parts for src in a.sources)]))
    if sources:
        text += " Sources: " + ", ".join(sources) + "."
    clarification = None
    if status == "clarification":
        clarification = " ".join(f"Part {i} (\"{p.asked}\"): {a.clarification_question or a.text}"
                                 for i, (p, a) in enumerate(parts, start=1) if a.status == "clarification")
    citations = list({c.source_id: c for _, a in parts for c in a.citations}.values())
    return Answer(
        status=status, text=text,
        result={"status": "complete" if status in ("answered", "no_data") else status,
                "parts": [{"question": p.asked, "asked_as": p.question, "status": a.status, **a.result}
                          for p, a in parts]},
        inputs={"parts": [a.inputs for _, a in parts]},
        sources=tuple(sources), citations=tuple(citations),
        evidence=tuple(e for _, a in parts for e in a.evidence),
        withheld_chunk_ids=tuple(dict.fromkeys(w for _, a in parts for w in a.withheld_chunk_ids)),
        clarification_question=clarification,
        checks=tuple(c for _, a in parts for c in a.checks),
    )


__all__ = ["FACTS", "RANKING_METRIC", "UNIT_PRICE_METRIC", "AskPart", "CompoundRequest", "Fact", "compound_request",
           "compound_steps", "find_fact", "merge_answers", "rule_hit", "rule_parts", "split_asks", "unknown_fact"]
