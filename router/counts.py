"""Invoice counts in ``ask``: "how many invoices", "number of invoices from Beta", "count of credit notes",
"how many unpaid invoices" -> the governed ``finance.invoice_count`` with every constraint of the reading.

The count is the catalog's metric (distinct counted documents: posted and paid by default, replicated
duplicates once, each document in its served version); this module only maps the reading to its parameters:
the company, the period, named suppliers (and excluded ones), a product group with its subgroups (the metric
filters leaf groups, so the group is expanded from the tenant's hierarchy), named products, the document type
(invoices, credit notes or both), the status and an allow-listed breakdown. A constraint it cannot map is a
clarification naming it. Zero is an answer: no matching document is a count of 0, not missing data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from router.analysis import document_type_scope, ranking_by_count
from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.entities import Gazetteer, Mention
from router.negation_scope import negated
from router.reader import Reading
from router.reading import dimension_phrase
from router.status_counts import (
    STATUS_ORDER,
    compose_status_counts,
    dated,
    has_status_counts,
    status_count_steps,
    status_table,
    unmapped_for_status_counts,
)

#: The governed metric behind a count question.
COUNT_METRIC = "finance.invoice_count"
#: Its allow-listed breakdowns (config.meta.procura.group_by / grains of the metric).
COUNT_DIMENSIONS = ("supplier_id", "document_type")
COUNT_GRAINS = ("month", "quarter", "year")

_COUNT = re.compile(
    # "how many times did Beta invoice us", "invoice volume (count)": the number of invoices (first: "times" is
    # otherwise another counted noun)
    r"\bhow many times (?:did|has|have)\b[^?.;!]{1,60}?\binvoiced?\b|\binvoice volume\b|"
    # "how often did Beta invoice us": the number of invoices
    r"\bhow often (?:did|has|have|does|do)\b[^?.;!]{1,60}?\b(?:invoiced?|bill(?:ed)?)\b|"
    # "which supplier invoiced us most often": a ranking by the number of invoices
    r"\b(?:invoiced|billed)\s+(?:\w+\s+){0,3}?(?:the\s+)?(?:most|least)\s+(?:often|frequently)\b|"
    # "#" is no word character: "# of invoices" has no word boundary before it ("# invoices": "of" may go).
    r"(?:\b(?:how many|number of|count of|count the|counts? of|total number of|no\.? of|tally of)|(?<!\w)#\s?(?:of)?)\b"
    r"(?P<gap>[^?.;!]{0,80}?)\b(?P<what>invoices?|credit[- ]?notes?|credits|documents|bills)\b"
    # "how many invoice lines": lines of invoices are counted, not documents
    r"(?![- ](?:lines?|line[- ]items?|items?|positions?)\b)|"
    # "which supplier sent the most invoices", "top 3 suppliers by number of invoices": a ranking by the count
    r"\b(?:the\s+)?(?:most|fewest|least|highest number of|largest number of|lowest number of|meisten|wenigsten)\s+"
    r"(?P<what4>invoices|credit[- ]?notes|documents|bills)\b|"
    # "invoice count", "paid invoices count", "credit notes count": the noun's number
    r"\b(?P<what2>invoices?|credit[- ]?notes?|documents?|bills?)[- ]counts?\b|"
    r"\bcount (?:all |our |the )?(?:\w+\s+)?(?P<what3>invoices|credit[- ]?notes|documents)\b|"
    # the noun first, the question word last: "Gamma invoices Company A, Feb 2026: how many?"
    # ("credit notes Xenon H2 2025 - number?", German "– Anzahl?": the same question word, last)
    r"\b(?P<what5>invoices|credit[- ]?notes|documents|bills)\b[^?.;!]{0,80}?[:,–-]\s*"
    r"(?P<qword>how many|number|count|anzahl|wie viele)(?=\s*(?:[?.!]|$))",
    re.I,
)
_CREDIT = re.compile(r"\bcredit[- ]?notes?\b|\bcredits\b", re.I)
_INVOICE = re.compile(r"\binvoices?\b|\bbills?\b", re.I)
# ("document counts by status": the documents' count, invoices and credit notes)
_BOTH = re.compile(r"\b(?:documents|document(?=[- ]counts?\b)|invoices? (?:and|or|&|plus) credit[- ]?notes?|"
                   r"credit[- ]?notes? (?:and|or|&|plus) invoices?|including credit[- ]?notes?|"
                   r"incl\.? credit[- ]?notes?)\b", re.I)
_OUTSTANDING = re.compile(r"\b(?:outstanding|not (?:yet )?paid|unsettled|still open|open)\b", re.I)
#: "invoices paid between ...", "bills that were settled": the counted documents' status, not a spend verb.
_PAID_DOCUMENTS = re.compile(r"\b(?:invoices?|bills?|credit[- ]?notes?)\s+(?:that\s+(?:were|are|have\s+been)\s+|"
                             r"(?:were|are)\s+)?(?:already\s+)?(?:paid|settled)\b", re.I)
#: Words before a name that turn it into an exclusion ("excluding Supplier Beta", "except Sensors").
_EXCLUDING = re.compile(r"\b(?:excluding|exclude|except(?: for)?|other than|apart from|not from|but not|besides|"
                        r"without|leaving out|ex\.?)\s+(?:(?:the|any|all|our)\s+)?$", re.I)

#: A status value named after the word "status" ("invoices in status approved", "status: booked"): a status the
#: count does not know is asked about, never dropped (the count would silently take posted and paid).
_STATUS_VALUE = re.compile(r"\b(?:in|with|of|having)\s+(?:the\s+)?status\s*[:=]?\s*[\"'“‘]?([a-z][\w-]*)|"
                           r"\bstatus\s*(?:[:=]|\bis\b)\s*[\"'“‘]?([a-z][\w-]*)", re.I)
_KNOWN_STATUS_WORDS = frozenset({
    "draft", "drafts", "posted", "paid", "cancelled", "canceled", "voided", "void", "open", "unpaid", "outstanding",
    "settled", "not", "still", "already", "fully",
    # words after "status" that are no status value ("in status overview", "with status breakdown")
    "overview", "breakdown", "split", "distribution", "summary", "per", "by", "and", "or", "of", "for", "the", "each",
    "in", "a", "any", "all", "every", "counts", "count", "column", "field", "values", "value", "different", "their",
    "its", "this", "that", "which", "what", "other", "same",
})


_STATUS_OF_WORD = {"draft": "draft", "drafts": "draft", "posted": "posted", "open": "posted", "unpaid": "posted",
                   "outstanding": "posted", "paid": "paid", "settled": "paid", "cancelled": "cancelled",
                   "canceled": "cancelled", "voided": "cancelled", "void": "cancelled"}


def named_statuses(text: str) -> tuple[str, ...]:
    """The statuses named after the word "status" ("with status 'draft'", "in status paid"), read from the
    question's own text (a quoted word is masked in the reader's cue text).

    >>> named_statuses("invoices with status 'draft' of Company A"), named_statuses("in status open")
    (('draft',), ('posted',))
    """
    words = (m.group(1) or m.group(2) for m in _STATUS_VALUE.finditer(text))
    return tuple(dict.fromkeys(_STATUS_OF_WORD[w.lower()] for w in words if w and w.lower() in _STATUS_OF_WORD))


def unknown_status_words(text: str) -> tuple[str, ...]:
    """Status values the question names that no document has ("in status approved").

    >>> unknown_status_words("how many invoices in status approved"), unknown_status_words("status: paid")
    (('approved',), ())
    """
    words = (m.group(1) or m.group(2) for m in _STATUS_VALUE.finditer(text))
    return tuple(dict.fromkeys(w for w in words if w and w.lower() not in _KNOWN_STATUS_WORDS))


#: What is counted when one of these stands between "how many" and "invoices" ("how many units were on ...").
_OTHER_COUNTED = re.compile(r"\b(?:units?|pieces?|items?|lines?|line items?|products?|suppliers?|vendors?|"
                            r"compan(?:y|ies)|euros?|dollars?|days?|times?)\b", re.I)


def trailing_count_word(reading: Reading) -> tuple[int, int] | None:
    """The span of a count's question word written last ("credit notes Xenon H2 2025 – Anzahl?"): read by the
    count, so never an unknown name."""
    match = _COUNT.search(reading.cue_text)
    return match.span("qword") if match is not None and match.group("qword") else None


def is_count_question(reading: Reading) -> bool:
    """True when the question asks how many invoices or credit notes there are (not units, not amounts).

    An amount threshold ("how many invoices are above 5,000 EUR") is a per-invoice total, which the count does not
    filter by; such a question stays with the threshold listing.
    """
    match = _COUNT.search(reading.cue_text)
    if match is None or reading.threshold is not None:
        return False
    return not _OTHER_COUNTED.search(match.group("gap") or "")


def document_types(text: str) -> tuple[str, ...]:
    """The document types a count question names: credit notes only, invoices only, or both.

    >>> document_types("how many credit notes"), document_types("number of invoices")
    (('credit_note',), ('invoice',))
    >>> document_types("how many invoices and credit notes")
    ('invoice', 'credit_note')
    """
    scoped, _ = document_type_scope(text)
    if scoped is not None and (scoped != ("credit_note",) or not _BOTH.search(text)):
        # "how many invoices (credit notes excluded)", "invoices and credit notes netted in": the shared reader.
        return scoped
    if _BOTH.search(text):
        return ("invoice", "credit_note")
    if _CREDIT.search(text) and not _INVOICE.search(_CREDIT.sub(" ", text)):
        return ("credit_note",)
    return ("invoice",)


def _excluded(text: str, mention: Mention) -> bool:
    # (the cues of every language, "sem a Beta", "hors Gamma", "Beta excluded": router/negation_scope.py)
    return bool(_EXCLUDING.search(text[max(0, mention.start - 40): mention.start])
                or negated(text, mention.start, mention.end, bare=False))


@dataclass(frozen=True)
class CountRequest:
    """A count question mapped to the metric's parameters, or the constraints it could not map."""

    parameters: dict[str, Any]
    group_by: tuple[str, ...]
    grain: str | None
    unmapped: tuple[tuple[str, str], ...]  # (reason, question)
    excluded_supplier_ids: tuple[str, ...] = ()
    excluded_group: str | None = None
    #: A ranking of suppliers by the count ("top 3 suppliers by number of invoices", "the most invoices"):
    #: ("top" | "bottom", how many; 1 when the question asks for one supplier).
    rank: tuple[str, int] | None = None
    #: A count per status ("how many invoices per status"): the statuses of the table (router/status_counts.py).
    by_status: tuple[str, ...] = ()
    #: The reporting currency the cancelled documents' count is taken in (their metric filters by it).
    currency: str | None = None


#: A breakdown phrase naming the document type ("split by document type"): the count's own dimension.
_DOCUMENT_TYPE = re.compile(r"^(?:the\s+)?(?:document|doc|invoice)[- ]?types?$|^type of (?:document|invoice)s?$", re.I)


def _consumed(phrase: str, spans: tuple[tuple[int, int], ...], text: str) -> bool:
    """Whether a breakdown phrase the reader could not place is the ranking's measure ("by invoice count")."""
    return any(phrase.lower() in text[s:e].lower() for s, e in spans)


def count_request(reading: Reading, gazetteer: Gazetteer, company_id: str | None, start: str,
                  end: str, currency: str | None = None) -> CountRequest:
    """The parameters of ``finance.invoice_count`` for a count question (company and period already resolved;
    no company: all the tenant's companies together)."""
    text = reading.text
    e = reading.entities
    unmapped: list[tuple[str, str]] = []
    included: list[str] = []
    excluded: list[str] = []
    for m in reading.mentions.suppliers:
        if m.resolved is None:
            continue  # ambiguous: asked about through the reading's entity problems
        (excluded if _excluded(text, m) else included).append(m.resolved)
    for sid in reading.identifiers.supplier_ids:
        if sid in gazetteer.supplier_names and sid not in excluded:
            included.append(sid)
    params: dict[str, Any] = {"start_date": start, "end_date": end}
    if company_id is not None:
        params["company_id"] = company_id
    if included:
        params["supplier_ids"] = sorted(set(included))
    if excluded:
        params["exclude_supplier_ids"] = sorted(set(excluded))
    excluded_group = None
    if e.product_group_id:
        groups = list(gazetteer.subgroups(e.product_group_id))
        group_mention = next((m for m in reading.mentions.product_groups if e.product_group_id in m.candidates), None)
        if group_mention is not None and _excluded(text, group_mention):
            params["exclude_product_group_ids"] = groups
            excluded_group = e.product_group
        else:
            params["product_group_ids"] = groups
    if e.product_codes:
        params["product_codes"] = list(e.product_codes)
    params["document_types"] = list(document_types(reading.cue_text))
    statuses = tuple(reading.statuses)
    if statuses == ("posted", "paid") and _OUTSTANDING.search(reading.cue_text):
        statuses = ("posted",)
    elif statuses == ("posted", "paid") and _PAID_DOCUMENTS.search(reading.cue_text):
        statuses = ("paid",)  # "# of invoices paid in Q1": the documents of that status are counted
    named = named_statuses(reading.text)
    if named and not reading.asked_statuses and set(named) != set(statuses):
        # "with status 'draft'": the status the question names after the word "status" is the one counted
        statuses = tuple(s for s in named if s != "cancelled") or statuses
        if "cancelled" in named:
            unmapped.append((
                "status: cancelled documents are never counted",
                "Cancelled invoices are excluded from every governed figure and cannot be counted here. Do you want "
                "the number of posted and paid invoices instead?",
            ))
    if reading.excluded_status == "draft":
        statuses = ("draft",)
    elif reading.excluded_status == "cancelled":
        unmapped.append((
            "status: cancelled documents are never counted",
            "Cancelled invoices are excluded from every governed figure and cannot be counted here. Do you want the "
            "number of posted and paid invoices instead?",
        ))
    params["invoice_statuses"] = list(statuses)
    for word in unknown_status_words(reading.text):
        unmapped.append((f"status: '{word}' is not an invoice status",
                         f"I do not know the status '{word}': documents are draft, posted (open, not yet paid), paid "
                         "or cancelled. Which status do you mean?"))
    b = reading.breakdown
    ranking, rank_spans = ranking_by_count(reading.cue_text)
    typed = tuple(u for u in b.unknown if _DOCUMENT_TYPE.match(u.strip()))
    unknown = [u for u in b.unknown if u not in typed and not _consumed(u, rank_spans, reading.cue_text)]
    dims = (*b.group_by, *(("document_type",) if typed else ()))
    by_status: tuple[str, ...] = ()
    if "invoice_status" in dims:
        # "how many invoices per status": one governed count per status (router/status_counts.py)
        # the statuses the question names, minus those it leaves out ("unpaid ... per status", "excluding paid"):
        # the columns; a status word no document has is asked about, never answered with the full table
        by_status, unplaced = status_table(reading.cue_text, named_statuses(reading.text))
        asked = set(unknown_status_words(reading.text))
        for word in (w for w in unplaced if w not in asked):
            unmapped.append((f"status: '{word}' is not an invoice status",
                             f"I cannot count the documents per status for '{word}': documents are draft, posted "
                             "(open, not yet paid), paid or cancelled. Which statuses do you want in the table?"))
        if not by_status:
            unmapped.append(("status: every status is left out of the table",
                             "The statuses named leave none to count. Which statuses do you want in the table?"))
            by_status = STATUS_ORDER
        dims = tuple(d for d in dims if d != "invoice_status")
    unserved = [*unknown, *(d for d in dims if d not in COUNT_DIMENSIONS),
                *([b.grain] if b.grain and b.grain not in COUNT_GRAINS else [])]
    if unserved:
        what = ", ".join(repr(dimension_phrase(u)) for u in unserved)
        unmapped.append((f"breakdown: {what} is not a grouping {COUNT_METRIC} offers",
                         f"I cannot break the invoice count down by {what}; it can be grouped by supplier or "
                         "document type, and by month, quarter or year. Which one do you want?"))
    rank = (ranking.direction, ranking.limit) if ranking is not None else None
    group_by = tuple(d for d in dims if d in COUNT_DIMENSIONS)
    ranked_dimension = ranking.dimension if ranking is not None else None
    if ranked_dimension is not None and ranked_dimension != "supplier_id":
        rank = None
        what = dimension_phrase(ranked_dimension)
        unmapped.append((f"ranking: {what} ranked by the number of invoices is not a governed count",
                         f"A document can hold lines of several {what}s, so {what}s cannot be ranked by their number "
                         "of invoices; I can rank suppliers by their number of invoices, or "
                         f"{what}s by spend. Which one do you want?"))
    elif rank is not None and group_by in ((), ("supplier_id",)) and not b.grain:
        group_by = ("supplier_id",)
    elif rank is not None:
        rank = None
        unmapped.append(("ranking: a ranking by the count with another breakdown",
                         "I can rank suppliers by their number of invoices, or break the count down; which one?"))
    if by_status:
        params["invoice_statuses"] = [s for s in by_status if s != "cancelled"] or ["posted", "paid"]
        table_params = {k: v for k, v in params.items() if k != "invoice_statuses"}
        unmapped.extend(unmapped_for_status_counts(table_params, by_status, currency, group_by,
                                                   b.grain if b.grain in COUNT_GRAINS else None))
        if rank is not None:
            unmapped.append(("ranking: a ranking by the count per status",
                             "I can rank suppliers by their number of invoices, or count the documents per status; "
                             "which one?"))
        unmapped = [u for u in unmapped if not u[0].startswith("status: cancelled documents are never counted")]
        return CountRequest(parameters=params, group_by=(), grain=None, unmapped=tuple(unmapped),
                            excluded_supplier_ids=tuple(sorted(set(excluded))), excluded_group=excluded_group,
                            by_status=by_status, currency=currency)
    return CountRequest(
        parameters=params, group_by=group_by, rank=rank,
        grain=b.grain if b.grain in COUNT_GRAINS else None, unmapped=tuple(unmapped),
        excluded_supplier_ids=tuple(sorted(set(excluded))), excluded_group=excluded_group,
    )


def count_rule(req: CountRequest) -> str:
    """The routing rule of a count: the ranking decision travels in it to the composer (:func:`_ranked`)."""
    return f"invoice_count:ranking:{req.rank[0]}:{req.rank[1]}" if req.rank else "invoice_count:aggregate"


def _ranked(rules: tuple[str, ...]) -> tuple[str, int] | None:
    hit = next((r for r in rules if r.startswith("invoice_count:ranking:")), None)
    if hit is None:
        return None
    direction, n = hit.split(":")[2:4]
    return direction, int(n)


def count_steps(req: CountRequest) -> tuple[PlanStep, ...]:
    """The count (and its breakdown, a second governed query) and the completeness check."""
    if req.by_status:
        return status_count_steps({k: v for k, v in req.parameters.items() if k != "invoice_statuses"},
                                  req.by_status, req.currency)
    steps = [PlanStep(
        step_id="count-invoices", tool="metrics.query",
        arguments={"metric": COUNT_METRIC, "parameters": dict(req.parameters), "group_by": [], "grain": None},
        purpose=f"Governed count of distinct counted documents ({COUNT_METRIC}).",
    )]
    if req.group_by or req.grain:
        steps.append(PlanStep(
            step_id="count-ranking" if req.rank else "count-breakdown", tool="metrics.query",
            arguments={"metric": COUNT_METRIC, "parameters": dict(req.parameters), "group_by": list(req.group_by),
                       "grain": req.grain},
            purpose=f"The same count grouped by {', '.join([*req.group_by, *([req.grain] if req.grain else [])])}.",
        ))
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: the count ran; zero documents is a count of 0."))
    return tuple(steps)


def ranked_rows(rows: list[dict[str, Any]] | tuple[Any, ...], direction: str, n: int) -> tuple[list[Any], str]:
    """The supplier rows of a count ranking cut at ``n`` ranks (every supplier tied with the n-th is kept) and the
    sentence stating the ties (a tie at the cut is said, never cut silently).

    >>> kept, said = ranked_rows([{"supplier_id": "A", "invoice_count": 3}, {"supplier_id": "B", "invoice_count": 2},
    ...                           {"supplier_id": "C", "invoice_count": 2}], "top", 2)
    >>> [r["supplier_id"] for r in kept]
    ['A', 'B', 'C']
    >>> said
    ' B and C are tied with 2 invoices each; because of the tie at the cut, 3 suppliers are listed for a top 2.'
    """
    def value(r: Any) -> int:
        return int(r.get("invoice_count") or 0)

    ordered = sorted(rows, key=lambda r: (-value(r) if direction == "top" else value(r), str(r.get("supplier_id"))))
    if not ordered:
        return [], ""
    cut = value(ordered[min(n, len(ordered)) - 1])
    kept = [r for r in ordered if (value(r) >= cut if direction == "top" else value(r) <= cut)]
    said = ""
    for count in dict.fromkeys(value(r) for r in kept):
        tied = [str(r.get("supplier_id")) for r in kept if value(r) == count]
        if len(tied) > 1:
            noun = "invoice" if count == 1 else "invoices"
            said += f" {', '.join(tied[:-1])} and {tied[-1]} are tied with {count} {noun} each;"
    if said:
        said = said[:-1] + "."
    if len(kept) > n:
        said = said[:-1] + (f"; because of the tie at the cut, {len(kept)} suppliers are listed for a "
                            f"{direction} {n}.")
    return kept, said


_TYPE_WORDS = {("invoice",): "invoices (credit notes not included)", ("credit_note",): "credit notes",
               ("invoice", "credit_note"): "invoices and credit notes"}


@composer("invoice_count")
def _compose_count(d: _Draft) -> None:
    """``invoice_count``: the governed count (0 is an answer), its breakdown and the reading it was computed under."""
    outcomes = d.run.outcomes
    if has_status_counts(outcomes):
        compose_status_counts(d)  # a count per status: its own table (router/status_counts.py)
        return
    total = outcomes.get("count-invoices")
    split = outcomes.get("count-breakdown") or outcomes.get("count-ranking")
    ranked = _ranked(d.routing.rule_hits)
    company = d.routing.entities.company_name or d.routing.entities.company_id or "the company"
    m = total.output if total is not None and total.status == "ok" else None
    from router.tools import MetricToolResponse

    if isinstance(m, MetricToolResponse) and not d.routing.entities.company_id and not m.parameters.get("company_id"):
        company = "All companies of the tenant together"  # a count over every company (router/scope.py)
    if not isinstance(m, MetricToolResponse):
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The invoice count could not be calculated; no figure is given." + d.failure_text
        return
    params = m.parameters
    types = tuple(params.get("document_types") or ("invoice", "credit_note"))
    what = _TYPE_WORDS.get(types, ", ".join(types))
    statuses = " or ".join(params.get("invoice_statuses") or ())
    count = int(m.values.get("invoice_count") or 0)
    scope = "".join((f" from {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else "",
                     f" (suppliers {', '.join(params['exclude_supplier_ids'])} excluded)"
                     if params.get("exclude_supplier_ids") else ""))
    what += scope
    text = (f"{company} has {count} {what} with status {statuses} {dated(d.period_text)}, each document counted "
            f"once (cancelled documents and replicated duplicates excluded), over {m.matched_line_count} validated "
            "invoice lines.")
    if count == 0:
        text = (f"{company} has 0 {what} with status {statuses} {dated(d.period_text)}: no counted document "
                "matches (a count of zero, not missing data).")
    result: dict[str, Any] = {"status": "complete", "metric": COUNT_METRIC, "invoice_count": count,
                              "document_types": list(types), "invoice_statuses": list(params.get("invoice_statuses")
                                                                                       or ()),
                              "matched_line_count": m.matched_line_count, "policy": m.policy}
    status: AnswerStatus = "answered"
    if split is not None:
        rows = split.output.rows if split.status == "ok" and isinstance(split.output, MetricToolResponse) else None
        if rows is None:
            status, result["status"] = "partial", "partial"
            text = "PARTIAL RESULT: the total count is complete, the breakdown failed. " + text + d.failure_text
        elif ranked:
            direction, n = ranked
            kept, ties = ranked_rows(rows, direction, n)
            listed = "; ".join(f"{r.get('supplier_id')}: {r.get('invoice_count')}" for r in kept)
            word = "most" if direction == "top" else "fewest"
            head = (f"All {len(rows)} suppliers" if n >= len(rows) else
                    f"{'Top' if direction == 'top' else 'Bottom'} {n} supplier{'s' if n > 1 else ''}")
            text = (f"{head} of {company} by number of {what} ({word} first), status {statuses}, dated in "
                    f"{d.period_text}: {listed or 'no supplier'}.{ties} Out of {count} {what} in total, from "
                    f"{len(rows)} suppliers (suppliers without a counted document are not ranked).")
            result["ranking"] = [{"supplier_id": r.get("supplier_id"), "invoice_count": r.get("invoice_count")}
                                 for r in kept]
        else:
            keys = [k for k in ("supplier_id", "document_type", "period_start") if any(k in r for r in rows)]
            listed = "; ".join(" ".join(str(r.get(k)) for k in keys) + f": {r.get('invoice_count')}" for r in rows)
            text += f" By {', '.join(dimension_phrase(k) if k != 'period_start' else 'period' for k in keys)}: " \
                    f"{listed or 'no rows'}."
            result["breakdown"] = [{**{k: r.get(k) for k in keys}, "invoice_count": r.get("invoice_count")}
                                   for r in rows]
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, m.source_line_ids, "invoice line of a counted document")
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": COUNT_METRIC, "parameters": params}


__all__ = ["COUNT_METRIC", "CountRequest", "count_request", "count_rule", "count_steps", "document_types",
           "is_count_question", "trailing_count_word", "unknown_status_words"]
