"""Spend with suppliers that are *not* approved (off-contract, maverick, "nicht freigegeben").

"Spend with suppliers not on the approved vendor list" is the company's spend less its approved vendors: the
approval policy's set (approvals of the company's agreements, in the version the graph holds as active, whose
validity ``[valid_from, valid_to)`` overlaps the period) read from the graph, then the governed
``finance.company_spend`` with that set as ``exclude_supplier_ids``. The negation is never dropped: read without it
the question would be answered with the approved vendors' spend, the opposite figure (a silent wrong answer).

Three shapes share the negation cue:

* no supplier named ("Xenon: spend with non-approved suppliers in Q1 2026"): the off-contract figure above;
* a named supplier with the negation as a remark ("spend with Orbis (not approved)"): that supplier's spend, and
  its approvals in the period checked and stated (an approval found contradicts the remark and is said);
* no spend asked ("which suppliers are not approved"): a clarification naming the negation, never the approved
  vendors' list in its place.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Literal

from router.contract import IntentScore, PlanStep, Ref, TimeRange
from router.negation_scope import NEGATED_APPROVAL
from router.open_reading import with_invoices_only_step
from router.reader import Reading, interpretation

#: An approval that ended: "Beta's approval for data loggers ran out 1 Feb 2026", "after the approval ended",
#: "no longer approved", German "nach Ablauf der Freigabe". What follows is spend with a supplier no longer approved.
_EXPIRED = re.compile(
    r"\b(?:approval|authori[sz]ation|freigabe)\b(?:\s+[\w'’.-]+){0,6}?\s+(?:ran\s+out|runs?\s+out|expired|expires|"
    r"ended|ends|lapsed|lapses|was\s+(?:withdrawn|revoked|terminated|cancelled)|terminated|abgelaufen|endete)\b"
    r"|\bafter\s+(?:the|its|their|his|her)\s+approval(?:\s+(?:ended|expired|ran\s+out|lapsed|was\s+withdrawn))?\b"
    r"|\b(?:nach|seit)\s+(?:dem\s+)?Ablauf\s+(?:der\s+)?Freigabe\b"
    r"|\bno\s+longer\s+approved\b|\bnot\s+approved\s+any\s?more\b",
    re.I,
)
#: The negated approval: English, the German rewriting's leftovers ("nicht approved", "excluding Freigabe") and the
#: German words themselves. An agreement named after it ("w/o approval under agreement-2025-08") is the approvals'
#: source, so the linking word is part of the cue.
_NEGATION = re.compile(
    r"\b(?:non|un)[- ]?(?:approved|authori[sz]ed|freigegeben\w*)\b"
    r"|\bnot[- ](?:yet\s+|been\s+|currently\s+)?(?:approved|authori[sz]ed|freigegeben\w*|zugelassen\w*)\b"
    r"(?:\s+(?:under|in|per|by|for)\b)?"
    r"|\bnot\s+(?:on|in|part\s+of)\s+(?:the|our|its|their|an?|any)\s+(?:approved|preferred)\s+"
    r"(?:vendors?|suppliers?)(?:\s+lists?)?"
    # "vendors outside its approved list", "off the approved vendor list", "not among the approved suppliers",
    # "missing from the AVL": the approved set named as a list the suppliers are outside of
    r"|\b(?:outside(?:\s+of)?|not\s+(?:on|in|part\s+of|among|within|listed\s+(?:on|in))|off|beyond|"
    r"missing\s+from|absent\s+from|excluded\s+from)\s+(?:(?:the|our|its|their|his|her|an?|any|the\s+company['’]s|"
    # "not on Company A's approved vendor list": the company named as the list's owner
    r"[\w&.-]+(?:\s+[\w&.-]+){0,3}?['’]s)\s+)?"
    r"(?:(?:approved|preferred|authori[sz]ed|contracted)\s+(?:(?:vendors?|suppliers?)(?:\s+(?:lists?|panel|base|tables?|register))?|"
    r"lists?|panel|base|tables?|register)|avl|approved[- ]vendor[- ]list)\b"
    r"|\boff[- ]?contract\b"
    # "maverick buying check", "maverick spend review": the cue with the words that name the check asked
    r"|\bmaverick(?:\s+(?:buying|buys|spend(?:ing)?|purchas\w*))?(?:\s+(?:checks?|reviews?|analysis|audit|"
    r"report|scan))?\b"
    r"|(?:\b(?:without|lacking|with\s+no|have\s+no|has\s+no|having\s+no|had\s+no|no)|\bw/o)\s+"
    r"(?:an?\s+|any\s+)?(?:valid\s+|current\s+|active\s+)?(?:approvals?|freigabe)\b"
    r"(?:\s+(?:under|in|per|from|according\s+to)\b)?"
    r"|\b(?:ohne|excluding)\s+(?:eine\s+|an?\s+)?freigabe\b"
    r"|\bnicht\s+(?:approved|freigegeben\w*|zugelassen\w*|genehmigt\w*)\b|\bungenehmigt\w*",
    re.I,
)


#: A list of suppliers asked for: "which suppliers did X buy from off-contract", "list the vendors ... not approved".
_WHICH_SUPPLIERS = re.compile(
    r"\b(?:which|what)\s+(?:(?:other|non[- ]approved|unapproved)\s+)?(?:suppliers?|vendors?)\b"
    r"|\b(?:list|name|show|give)\s+(?:me\s+)?(?:the\s+|all\s+|its\s+|their\s+)?(?:suppliers|vendors)\b"
    r"|\bwhich\s+of\s+(?:[\w&.'’-]+\s+){0,4}?(?:suppliers|vendors)\b"
    r"|\bwho\s+(?:did|were|was)\b|\bwelche\s+(?:Lieferanten|Anbieter)\b", re.I)
#: Words that say the suppliers were bought from, paid or invoiced: the list is of suppliers with spend, which
#: the governed breakdown gives (without them "which suppliers are not approved" asks for no spend at all).
_TRANSACTED = re.compile(
    r"\b(?:buy|buys|bought|purchas\w*|paid|pays?|invoic\w*|billed|spen[dt]\w*|order(?:ed)?\s+from|"
    r"gekauft|eingekauft|bezahlt)\b"
    # "Company A's suppliers (in Q2)": the suppliers a company has are the ones it buys from
    r"|['’]s\s+(?:suppliers|vendors)\b", re.I)

#: What the negated-approval figure is asked as: the total, broken down by supplier, the list of the suppliers
#: (with their spend), or the share of the company's spend.
Shape = Literal["total", "by_supplier", "suppliers", "share"]


def off_contract_shape(reading: Reading) -> Shape | None:
    """The shape of an off-contract figure (no supplier named), or ``None`` when the question combines it with
    something the governed breakdown cannot give (a ranking, a comparison, a time grain, another dimension)."""
    b, a = reading.breakdown, reading.analysis
    listing = bool(_WHICH_SUPPLIERS.search(reading.text))
    if (a.ranking or a.comparison or a.original_currency or a.document_currency or a.document_types or b.grain
            or b.group_by not in ((), ("supplier_id",))):
        return None
    if a.share:
        # "what share of X's spend was off-contract": part and whole, two governed calls over the same filters
        return None if (b.group_by or listing) else "share"
    if listing:
        return "suppliers"
    return "by_supplier" if b.group_by else "total"


@dataclass(frozen=True)
class OffContract:
    """A question with a negated approval: its shape and the cue as written."""

    kind: Literal["figure", "named", "expired", "unserved"]
    words: str
    #: Every negation cue's span ("off-contract ... (vendors w/o approval under ...)" has two).
    spans: tuple[tuple[int, int], ...]
    #: Suppliers named in a parenthesis right after the cue ("not approved vendors (Epsilon and Zeta)"): the
    #: question's own list of the suppliers not approved, a remark shown beside the governed list, not a filter.
    remark: tuple[str, ...] = ()


#: The opening of a parenthesis right after a negation cue, a few words between ("not approved vendors (").
_APPOSITION = re.compile(r"(?:\s+[\w-]+){0,3}\s*\(([^()]{1,200})\)")


def _apposition(reading: Reading, found: list[re.Match[str]]) -> tuple[str, ...]:
    """The suppliers named in a parenthesis right after a negation cue, when every supplier the question names
    sits there; otherwise ``()``."""
    suppliers = reading.mentions.suppliers
    for f in found:
        paren = _APPOSITION.match(reading.text, f.end())
        if paren is None:
            continue
        start, end = paren.span(1)
        if suppliers and all(start <= m.start and m.end <= end and m.resolved for m in suppliers):
            return tuple(dict.fromkeys(m.resolved for m in suppliers if m.resolved))
    return ()


def off_contract_request(reading: Reading) -> OffContract | None:
    """The negated-approval shape of the question, or ``None`` when it negates no approval."""
    ended = list(_EXPIRED.finditer(reading.text))
    found = ended or list(_NEGATION.finditer(reading.text)) or list(NEGATED_APPROVAL.finditer(reading.text))
    if not found:
        return None
    if ended:
        if not reading.cues.spend:
            return None  # "when did Beta's approval expire?": an approval question, the general path reads it
        words = " ".join(ended[0].group(0).split())
        kind: Literal["expired", "unserved"] = "expired" if reading.entities.supplier_ids else "unserved"
        return OffContract(kind, words, tuple((f.start(), f.end()) for f in ended))
    words = " ".join(found[0].group(0).split())
    span = tuple((f.start(), f.end()) for f in found)
    remark = _apposition(reading, found) if reading.cues.spend else ()
    if remark:
        return OffContract("figure", words, span, remark)
    if reading.entities.supplier_ids:
        # "was Orbis not approved in Q1?" asks for the supplier's approvals (either answer is stated there)
        return OffContract("named", words, span) if reading.cues.spend else None
    if not reading.cues.spend and not (_WHICH_SUPPLIERS.search(reading.text) and _TRANSACTED.search(reading.text)):
        return OffContract("unserved", words, span)
    return OffContract("figure", words, span)


def _ref(step: str, field: str) -> Ref:
    return Ref.model_validate({"$ref": step, "field": field})


#: The step ids the answer composer reads the shape from (router/answer.py).
EXCLUDE_STEP = "find-approved-to-exclude"
CHECK_STEP = "check-approval"


#: The whole of an off-contract share: the same governed spend without the exclusion (router/answer.py reads it).
WHOLE_STEP = "calculate-whole-spend"


def off_contract_steps(req: OffContract, reading: Reading, company_id: str, start: str, end: str,
                       currency: str | None, groups: tuple[str, ...], as_of: dt.date,
                       shape: Shape = "total") -> tuple[PlanStep, ...]:
    """The plan: the approved set from the graph, then the governed spend without it (or of the named suppliers,
    with their approvals checked)."""
    e = reading.entities
    company = _ref("resolve-company", "company_id")
    common: dict[str, Any] = {
        "company_id": company, "start_date": start, "end_date": end,
        "invoice_statuses": list(reading.statuses),
        "reporting_currency": _ref("resolve-company", "reporting_currency"),
    }
    steps = [PlanStep(step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": company_id},
                      purpose=f"Resolve {e.company_name or company_id} to its canonical id and reporting currency.")]
    if req.kind in ("named", "expired"):
        steps.append(PlanStep(
            step_id=CHECK_STEP, tool="graph.find_approved_vendors", depends_on=("resolve-company",),
            arguments={"company_id": company, "start_date": start, "end_date": end,
                       "supplier_ids": list(e.supplier_ids), "as_of": as_of.isoformat()},
            purpose="The named suppliers' approvals overlapping the period (the question says they are not approved)."))
        steps.append(PlanStep(
            step_id="calculate-spend", tool="finance.aggregate_spend", depends_on=("resolve-company",),
            arguments={**common, "supplier_ids": list(e.supplier_ids), "product_codes": list(e.product_codes) or None},
            purpose="Governed SQL total of the named suppliers (finance.aggregate_spend)."))
    else:
        steps.append(PlanStep(
            step_id=EXCLUDE_STEP, tool="graph.find_approved_vendors", depends_on=("resolve-company",),
            arguments={"company_id": company, "start_date": start, "end_date": end, "as_of": as_of.isoformat()},
            purpose="The approved set: suppliers whose approval [valid_from, valid_to) overlaps the period."))
        steps.append(PlanStep(
            step_id="calculate-spend", tool="finance.company_spend", depends_on=("resolve-company", EXCLUDE_STEP),
            arguments={**common, "exclude_supplier_ids": _ref(EXCLUDE_STEP, "supplier_ids"),
                       **({"product_group_ids": list(groups)} if groups else {}),
                       **({"product_codes": list(e.product_codes)} if e.product_codes else {})},
            purpose="Governed SQL total of the company without the approved set (finance.company_spend with "
                    "exclude_supplier_ids)."))
        if shape in ("by_supplier", "suppliers") or req.remark:
            # the governed breakdown of the same lines: each supplier not approved with its spend
            steps[-1] = steps[-1].model_copy(update={"arguments": {**steps[-1].arguments,
                                                                   "group_by": ["supplier_id"]}})
        if shape == "share":
            steps.append(PlanStep(
                step_id=WHOLE_STEP, tool="finance.company_spend", depends_on=("resolve-company",),
                arguments={**common, **({"product_group_ids": list(groups)} if groups else {}),
                           **({"product_codes": list(e.product_codes)} if e.product_codes else {})},
                purpose="The whole of the share: the company's governed spend over the same filters, nobody "
                        "excluded (finance.company_spend)."))
    check = ("calculate-spend", EXCLUDE_STEP if req.kind == "figure" else CHECK_STEP)
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=check,
                          purpose="Completeness: no data vs zero."))
    return tuple(with_invoices_only_step(reading.text, steps))  # an open total: both readings (router/open_reading)


def _reread(reading: Reading, spans: tuple[tuple[int, int], ...], inputs: Any) -> Reading:
    """The question read again with the negation cues blanked out (the reading keeps the question's text)."""
    from router.currency import currency_reading
    from router.reader import read

    text = reading.text
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    again = currency_reading(read(text, inputs.gazetteer, inputs.as_of, inputs.catalog, inputs.resolver),
                             inputs.gazetteer)
    return dataclasses.replace(again, text=reading.text)


def _without_cue(reading: Reading, spans: tuple[tuple[int, int], ...]) -> Reading:
    """The reading with the unread spans inside the negation cues taken as read ("off-contract", "approval
    under", "nicht"): the cues are consumed by this shape, every other unread span stays a clarification."""
    kept = tuple(u for u in reading.not_understood
                 if not any(start <= u.start and u.end <= end for start, end in spans))
    return dataclasses.replace(reading, not_understood=kept)


def route_off_contract(text: str, reading: Reading, inputs: Any, req: OffContract) -> Any:
    """The routing result of a negated-approval question (a plan or a clarification naming what is open)."""
    from router.extensions import _aggregate, _result, _scope_problems  # (extensions imports this module)

    if req.kind in ("figure", "named") and any(
            u.start < e and s < u.end and not (s <= u.start and u.end <= e)
            for u in reading.not_understood for s, e in req.spans):
        # "off-contract paper products spend": the cue ran into a name the reader then could not place; the
        # question is read again with the cue blanked out (same offsets), so the name is read on its own
        reading = _reread(reading, req.spans, inputs)
    reading = _without_cue(reading, req.spans)
    note = ""
    if req.kind == "expired":
        reading, note = _after_expiry(reading, req.spans, inputs.as_of)
    intents: tuple[IntentScore, ...] = (*_aggregate(), IntentScore(type="relationship", confidence=0.9,
                                                                    source="rule"))
    rule = f"off_contract:{req.kind}:{req.words}"
    if req.kind == "unserved" and _EXPIRED.search(req.words):
        reason = f"constraint: '{req.words}' needs a named supplier and a spend figure"
        question = (f"'{req.words}': I can give a named supplier's spend from the date its approval ended up to "
                    "today. Which supplier, and from which date?")
        return _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                       reasons=[reason], questions=[question], intents=intents, rule=rule)
    if req.kind == "unserved":
        reason = f"constraint: '{req.words}' negates an approval, which only a spend figure can take"
        question = (f"'{req.words}': I can give the spend with suppliers not approved for the company in a period "
                    "(the company's spend less its approved vendors), or the approved vendors themselves. Which "
                    "one do you want?")
        return _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                       reasons=[reason], questions=[question], intents=intents, rule=rule)
    if req.remark:
        # the named suppliers only say which suppliers the question takes as not approved: not a filter
        reading = dataclasses.replace(reading, entities=reading.entities.model_copy(update={"supplier_ids": ()}))
    reasons, questions, entities, currency = _scope_problems(reading, inputs)
    tr = reading.period.time_range
    groups = inputs.gazetteer.subgroups(entities.product_group_id) if entities.product_group_id else ()
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    if req.kind == "figure":
        read_as += ("; suppliers not approved for the company in the period (its approved vendors, from the "
                    "agreements' approvals overlapping the period, excluded)")
    else:
        read_as += f"; the named suppliers' spend, with '{req.words}' checked against their approvals in the period"
        read_as += note
        if groups:
            reasons.append(f"constraint: {entities.product_group} beside the named suppliers and '{req.words}'")
            questions.append(f"Do you want the named suppliers' spend on {entities.product_group} only, or all their "
                             "spend?")
    if reading.excluded_supplier_ids or reading.excluded_group_ids or reading.excluded_product_codes:
        excluded = ", ".join([*reading.excluded_supplier_ids, *reading.excluded_group_ids,
                              *reading.excluded_product_codes])
        reasons.append(f"constraint: the exclusion of {excluded} beside '{req.words}'")
        questions.append(f"I can give the spend with suppliers not approved, but not also without {excluded}. Do you "
                         "want it without that exclusion?")
    shape = off_contract_shape(reading) if req.kind == "figure" else None
    if req.kind == "figure" and shape is not None:
        read_as += {"total": "", "by_supplier": "; broken down by supplier",
                    "suppliers": "; the suppliers not approved that the company had spend with, each with its spend",
                    "share": "; as a share of the company's spend over the same filters (nobody excluded)"}[shape]
        if req.remark:
            read_as += (f"; {', '.join(req.remark)}, named in the question as the suppliers not approved, read as "
                        "a remark (the suppliers not approved are those of the agreements' approvals, listed "
                        "below), not as a filter")
    elif reading.breakdown.group_by or reading.breakdown.grain or reading.analysis.governed_shape:
        reasons.append(f"constraint: a breakdown or ranking beside '{req.words}'")
        questions.append("I can give the total spend with suppliers not approved, not broken down or ranked. Do you "
                         "want the total?")
    if reasons or tr is None or entities.company_id is None:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="off_contract:clarification")
    steps = off_contract_steps(req, reading, entities.company_id, tr.start.isoformat(), tr.end.isoformat(),
                               currency, groups, inputs.as_of, shape or "total")
    return _result(text, reading, inputs, workflow="spend", entities=entities, steps=steps, intents=intents,
                   read_as=read_as, statuses=reading.statuses, currency=currency, rule=rule)


def _after_expiry(reading: Reading, spans: tuple[tuple[int, int], ...], as_of: dt.date) -> tuple[Reading, str]:
    """The reading of "what did we still spend with Beta from 1 Feb on" after "Beta's approval for data loggers ran
    out": a group named inside the approval clause is what the approval covered (not a filter on the spend), and a
    single day named is where the span starts ("from D on", "ab D", "(from D)"), up to the as-of date. Both are
    said in the interpretation."""
    notes: list[str] = []
    e = reading.entities
    inside = [m for m in reading.mentions.product_groups if any(s <= m.start and m.end <= t for s, t in spans)]
    if inside and e.product_group_id is not None and len(reading.mentions.product_groups) == len(inside):
        notes.append(f"'{inside[0].text}' read as what the approval covered, not as a filter on the spend")
        reading = dataclasses.replace(reading, entities=e.model_copy(update={"product_group": None,
                                                                             "product_group_id": None}))
    tr = reading.period.time_range
    if tr is not None and tr.end - tr.start == dt.timedelta(days=1) and tr.start <= as_of:
        span = TimeRange(start=tr.start, end=as_of + dt.timedelta(days=1), label=f"{tr.start} onwards",
                         source_text=tr.source_text)
        reading = dataclasses.replace(reading, period=dataclasses.replace(reading.period, time_range=span))
        notes.append(f"'{tr.source_text or tr.start}' read as the start of the span after the approval ended, "
                     f"up to the as-of date {as_of}")
    return reading, "".join(f"; {n}" for n in notes)


def _approval(a: Any) -> str:
    until = f"to {a.valid_to}" if a.valid_to else "open-ended"
    return f"{a.supplier_id} ({a.agreement_id}, valid from {a.valid_from} {until})"


def off_contract_scope(vendors: Any, excluded: bool, company: str | None, period_text: str) -> tuple[str, str]:
    """(scope words, approval sentence) of a negated-approval figure: the approved set that was excluded, with
    the agreement approving each, or the named suppliers' approvals found (one found contradicts the question's
    remark and is said)."""
    if excluded:
        if not vendors.supplier_ids:
            return (" with suppliers not approved",
                    f" No approval of {company} overlaps {period_text}, so no supplier was excluded: all its spend "
                    "is with suppliers not approved.")
        approvals = "; ".join(_approval(a) for a in vendors.approvals)
        return (" with suppliers not approved (its approved vendors excluded)",
                f" Excluded as approved (approvals overlapping the period, in the agreement versions in force): "
                f"{approvals}.")
    if not vendors.approvals:
        return "", f" No approval of {company} for these suppliers overlaps {period_text} (not approved)."
    return "", (" Note: contrary to the question, an approval overlapping the period was found: "
                + "; ".join(_approval(a) for a in vendors.approvals) + ".")


def off_contract_parts(spend: Any, whole: Any, company: str | None,
                       period_text: str) -> tuple[str, dict[str, Any], bool]:
    """(sentence, result fields, answered) of an off-contract figure asked by supplier or as a share: the suppliers
    of the governed breakdown listed, and the share computed from the two governed totals (part: the spend without
    the approved set; whole: the same spend, nobody excluded), exactly, with both inputs said. ``answered`` is true
    when the share stands although the part has no line (0 % of a whole that has data: zero, not no data)."""
    from decimal import ROUND_HALF_UP, Decimal

    text = ""
    result: dict[str, Any] = {}
    rows = [b for b in spend.breakdown if b.dimension == "supplier_id" and b.key]
    if rows and spend.status != "no_data":
        result["off_contract_supplier_ids"] = [b.key for b in rows]
        text += (f" Suppliers not approved that {company} had counted spend with in {period_text}: "
                 + ", ".join(b.key for b in rows) + ".")
    if whole is None:
        return text, result, False
    out = whole.output if whole.status == "ok" else None
    if out is None or out.status == "no_data" or out.total_spend is None:
        why = "it did not run" if out is None else "it has no counted spend (no data, not zero)"
        return text + (f" No share of {company}'s spend in {period_text} can be given: {why}."), result, False
    total = Decimal(out.total_spend)
    part = Decimal(spend.total_spend) if spend.status != "no_data" and spend.total_spend is not None else Decimal(0)
    if total == 0:
        return text + f" {company}'s spend in {period_text} sums to 0, so no share can be given.", result, False
    percent = (part * 100 / total).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    result.update({"share_percent": str(percent), "part_value": spend.total_spend if part else None,
                   "whole_value": out.total_spend,
                   "whole_line_count": out.matched_line_count})
    said = "no counted line" if spend.status == "no_data" else f"{spend.total_spend} {spend.currency}"
    text += (f" Share of {company}'s spend in {period_text}: {percent} % ({said} with "
             f"suppliers not approved of {out.total_spend} {out.currency} in all, over {out.matched_line_count} "
             "validated invoice lines; both governed finance.company_spend totals over the same filters, the part "
             "without the approved vendors, computed as part / whole x 100 and rounded once to 2 decimals).")
    return text, result, spend.status == "no_data"


__all__ = [
    "CHECK_STEP",
    "EXCLUDE_STEP",
    "WHOLE_STEP",
    "OffContract",
    "off_contract_parts",
    "off_contract_request",
    "off_contract_scope",
    "off_contract_shape",
    "off_contract_steps",
    "route_off_contract",
]
