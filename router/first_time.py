"""First-time suppliers asked for: "new suppliers for Company B in Q1-26 (first invoice ever)", "which vendors
invoiced Company C for the first time in Q4 2025", "first-time vendors", "who invoiced us for the first time in
August", "suppliers billing for the first time", German "neue Lieferanten", "erstmals abgerechnet".

The answer is a list of suppliers: those whose first counted invoice to that one company (ever, in the governed
history) is dated in the period, from the one governed listing over exactly them, ``finance.first_time_suppliers``
(over ``marts.validated_invoice_lines``, RLS-bound). It is never the period's supplier breakdown: a supplier that
invoiced the company before the period is known, whatever it billed since. "New" is new to one company (a supplier
may be known to another), so a question without exactly one company is asked back, as is one without a period; a
constraint the listing cannot take (a product, a group, an amount, a currency, their spend) is named, never
dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from router.answer import _Draft, cite_lines, composer
from router.contract import PlanStep
from router.reader import Reading

#: The governed listing of the suppliers new to a company in a period.
FIRST_TIME_METRIC = "finance.first_time_suppliers"
RULE = "first_time"
#: The plan's step per company, numbered ("first-time-suppliers-1").
STEP = "first-time-suppliers"

_SUPPLIER = r"(?:suppliers?|vendors?|creditors?|billers?|invoicers?|lieferanten|kreditoren)"
#: Words that say "first time" by themselves about suppliers: "first-time vendors", "new suppliers", "neue
#: Lieferanten", "newly onboarded vendors".
_NEW_SUPPLIERS = re.compile(
    rf"\bfirst[- ]?time\s+{_SUPPLIER}\b|\bnew(?:ly\s+(?:added|onboarded|invoicing|billing))?\s+{_SUPPLIER}\b"
    rf"|\bneue[nrs]?\s+{_SUPPLIER}\b|\b{_SUPPLIER}\s+(?:that\s+are\s+|who\s+are\s+)?new\b",
    re.I)
#: "for the first time", "first invoice (ever)", "erstmals", "zum ersten Mal": first-time words that need an
#: invoicing verb or a supplier noun beside them ("spend passed 50k for the first time" is no such question).
_FIRST = re.compile(r"\b(?:for\s+the\s+)?(?:very\s+)?first[- ]time\b|\bfirst\s+(?:ever\s+)?(?:invoice|bill)s?"
                    r"(?:\s+ever)?\b|\berstmal(?:s|ig)\w*|\bzum\s+ersten\s+mal\b|\bnever\s+(?:invoiced|billed)"
                    r"\s+(?:us\s+)?before\b", re.I)
_INVOICING = re.compile(rf"\b(?:invoic\w*|bill(?:ed|ing|s)?|charg(?:ed|ing)|{_SUPPLIER}|who|rechnung\w*|"
                        r"abgerechnet|fakturiert)\b", re.I)
#: A figure over them is another question: the listing names them, it does not total them.
_VALUE = re.compile(r"\b(?:spend|spent|how\s+much|amounts?|value|worth|sum|volume|totals?|umsatz|betrag)\b", re.I)
_COUNT = re.compile(r"\b(?:how\s+many|number\s+of|count|wie\s+viele|anzahl)\b", re.I)
#: Words of the question the listing reads itself: not unknown names.
_OWN_WORDS = re.compile(rf"(?:{_SUPPLIER}|new|first|time|ever|invoic\w*|bill\w*|charg\w*|who|us|any|which|"
                        r"onboarded|added|never|before|list|show|names?|ids?|pls|please|neue\w*|erstmal\w*)",
                        re.I)
#: How many suppliers the answer text names (the result carries every one).
LISTED = 60


@dataclass(frozen=True)
class FirstTimeRequest:
    """A question about the suppliers new to a company: the words that said it and whether a count is asked."""

    words: str
    count: bool
    value: bool
    spans: tuple[tuple[int, int], ...]


def first_time_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the words asking for first-time suppliers in ``text`` (empty when it asks no such thing)."""
    spans = [m.span() for m in _NEW_SUPPLIERS.finditer(text)]
    firsts = [m.span() for m in _FIRST.finditer(text)]
    if firsts and (spans or _INVOICING.search(text)):
        spans.extend(firsts)
    return tuple(sorted(spans))


def first_time_request(reading: Reading) -> FirstTimeRequest | None:
    """The first-time-supplier question ``reading`` asks, or ``None``. A named document or a named supplier ("was
    Delta new to Company C?", "Beta's first invoice") keeps its own path."""
    spans = first_time_spans(reading.text)
    if not spans:
        return None
    ids = reading.identifiers
    if ids.invoice_numbers or ids.document_ids or ids.contract_ids or reading.entities.supplier_ids:
        return None
    words = ", ".join(dict.fromkeys(reading.text[a:b] for a, b in spans))
    return FirstTimeRequest(words=words, count=bool(_COUNT.search(reading.cue_text)),
                            value=bool(_VALUE.search(reading.cue_text)), spans=spans)


def _overlaps(start: int, end: int, spans: tuple[tuple[int, int], ...]) -> bool:
    return any(a < end and start < b for a, b in spans)


def _named_companies(reading: Reading) -> list[str]:
    return list(dict.fromkeys([*reading.identifiers.company_ids,
                               *(m.candidates[0] for m in reading.mentions.companies if len(m.candidates) == 1)]))


def period_asks(period: Any, missing: str) -> tuple[tuple[str, str], ...]:
    """The (reason, question) to ask when a listing's period is ambiguous or missing; none when it was read.

    Listings of one period (first-time suppliers, suppliers that did not invoice) need it stated: the whole history
    would answer another question."""
    example = "For example 2026-Q1, March 2026 or between 2026-01-01 and 2026-04-01."
    if period.ambiguous:
        return ((f"period: {period.reason}", f"Which period do you mean ({period.reason})? {example}"),)
    if period.time_range is None:
        return (("period: the question names no period", f"{missing} {example}"),)
    return ()


def route_first_time(text: str, reading: Reading, inputs: Any, req: FirstTimeRequest) -> Any:
    """The routing result of a first-time-supplier question: the governed listing planned for one company and one
    period, or a clarification naming what is missing or what it cannot take."""
    from router.company_set import resolves
    from router.extensions import _aggregate, _result
    from router.reader import interpretation, unread_clarifications

    unread = tuple(u for u in reading.not_understood
                   if not _overlaps(u.start, u.end, req.spans) and not _OWN_WORDS.fullmatch(u.text.strip()))
    reasons, questions = unread_clarifications(unread)
    e = reading.entities
    named = _named_companies(reading)
    known = ", ".join(f"{c.company_name} ({c.company_id})" for c in inputs.gazetteer.companies)
    several = len(named) > 1 and all(inputs.gazetteer.company(c) is not None for c in named) and all(
        len(m.candidates) == 1 for m in reading.mentions.companies)
    if len(named) > 1 and not several:
        reasons.append(f"company: first-time suppliers are new to one company; {', '.join(named)} named")
        questions.append(f"A supplier is new to one company (it may have invoiced another before): which company "
                         f"do you mean, {' or '.join(named)}?")
    elif several:
        # "Kestrel and Alpenland: new suppliers in August": a supplier is new to one company, so each company
        # named gets its own list (never one list over both: a supplier known to one may be new to the other)
        e = e.model_copy(update={"company_id": None, "company_name": None})
        others = [p for p in reading.entity_problems if not resolves(p)]
        reasons.extend(f"entity: {p}" for p in others)
        questions.extend(others)
    elif not e.company_id and not reading.entity_problems and len(inputs.gazetteer.companies) == 1:
        # a tenant of one company: that company is the one meant
        only = inputs.gazetteer.companies[0]
        e = e.model_copy(update={"company_id": only.company_id, "company_name": only.company_name})
    else:
        reasons.extend(f"entity: {p}" for p in reading.entity_problems)
        questions.extend(reading.entity_problems)
        if not e.company_id and not reading.entity_problems:
            reasons.append("company: first-time suppliers are new to one company; none named")
            questions.append(f"Which company do you mean (a supplier is new to one company)? Known companies: "
                             f"{known}.")
    period = reading.period
    asked = period_asks(period, "In which period should the supplier's first invoice fall?")
    reasons.extend(a for a, _ in asked)
    questions.extend(q for _, q in asked)
    cannot = [*(["product group " + (e.product_group or "")] if e.product_group_id else []),
              *(["products " + ", ".join(e.product_codes)] if e.product_codes else []),
              *([f"the amount {reading.threshold_amount.text!r}"]
                if reading.threshold_amount is not None and reading.threshold_amount.text.strip() else []),
              *(["the currency " + ", ".join(reading.currencies)] if reading.currencies else []),
              *(["their spend (the listing names the new suppliers; their spend is a question of its own)"]
                if req.value else [])]
    for what in cannot:
        reasons.append(f"first_time: {what} cannot be applied to the first-time suppliers")
        questions.append(f"I can list (and count) the suppliers that invoiced a company for the first time in a "
                         f"period, but not by {what}. Do you want them without it?")
    intents = _aggregate()
    tr = period.time_range if not period.ambiguous else None
    read_as = interpretation(e, tr.start, tr.end) if tr is not None else interpretation(e, None, None)
    read_as += ("; first-time suppliers: a counted (posted or paid) invoice to the company dated in the period and "
                "no document of the supplier for that company (any type or status) dated before it")
    companies = tuple(named) if several else (e.company_id,) if e.company_id else ()
    if several:
        read_as = f"each of {', '.join(named)} on its own, {read_as}"
    if reasons or tr is None or not companies:
        return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule=f"{RULE}:clarification")
    listings = tuple(PlanStep(step_id=f"{STEP}-{i + 1}", tool="metrics.query",
                              arguments={"metric": FIRST_TIME_METRIC, "group_by": [], "grain": None,
                                         "parameters": {"company_id": company, "start_date": tr.start.isoformat(),
                                                        "end_date": tr.end.isoformat()}},
                              purpose=f"The suppliers new to {company} in the period ({FIRST_TIME_METRIC}).")
                     for i, company in enumerate(companies))
    steps = (*listings, PlanStep(step_id="validate-result", tool="validation.check_completeness",
                                 depends_on=tuple(s.step_id for s in listings),
                                 purpose="Completeness: the governed listing ran; an empty list is said as such."))
    return _result(text, reading, inputs, workflow="first_time_suppliers", entities=e, steps=steps,
                   intents=intents, read_as=read_as, rule=f"{RULE}:{'count' if req.count else 'list'}")


def _company_text(d: _Draft, m: Any) -> tuple[str, str, list[str], dict[str, Any]]:
    """(status, text, supplier ids, result) of one company's listing."""
    rows = list(m.rows) or ([dict(m.values)] if m.values.get("supplier_id") else [])
    company = str(m.parameters.get("company_id"))
    e = d.routing.entities
    who = (e.company_name or company) if e.company_id == company else company
    ids = list(dict.fromkeys(str(r.get("supplier_id")) for r in rows))
    starts = {str(r.get("history_start")) for r in rows if r.get("history_start")}
    start = str(m.parameters.get("start_date"))
    cut = [why for why in ([f"{FIRST_TIME_METRIC} was truncated at its row cap"] if m.truncated else [])
           + ([f"{FIRST_TIME_METRIC} returned a partial result"] if m.status == "partial" else [])]
    if any(s >= start for s in starts):
        # the data begins in the period: every supplier of the period is "new" in the files, which says nothing
        # about the company's real history; said, so the list is not taken for more than it is
        cut.append(f"{who}'s data on file begins on {min(starts)}, within the period: every supplier of the period "
                   "is new in the data, which may not be new to the company")
    if rows:
        shown = "; ".join(f"{r.get('supplier_id')} (first invoice {r.get('first_invoice_date')}, "
                          f"{r.get('invoice_count')} invoice{'' if str(r.get('invoice_count')) == '1' else 's'} in "
                          f"the period)" for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        noun = "supplier" if len(ids) == 1 else "suppliers"
        text = f"{who}: {len(ids)} {noun} invoiced for the first time in {d.period_text}: {shown}{more}."
        status = "answered"
    else:
        text = (f"{who}: no supplier invoiced for the first time in {d.period_text} (every supplier that invoiced "
                "in the period had invoiced the company before; a count of 0).")
        status = "no_data"
    if cut:
        status, text = "partial", f"PARTIAL: {'; '.join(cut)}. {text}"
    result = {"status": {"answered": "complete"}.get(status, status), "company_id": company, "supplier_ids": ids,
              "supplier_count": len(ids), "partial_reasons": cut,
              "suppliers": [{k: r.get(k) for k in ("supplier_id", "first_invoice_date", "invoice_count")}
                            for r in rows],
              "line_count": sum(int(r.get("line_count") or 0) for r in rows)}
    return status, text, ids, result


@composer("first_time_suppliers")
def _compose_first_time(d: _Draft) -> None:
    """``first_time_suppliers``: per company, the suppliers whose first counted invoice to it falls in the period."""
    from router.tools import MetricToolResponse

    listings = [o.output for step, o in d.run.outcomes.items()
                if step.startswith(STEP) and o.status == "ok" and isinstance(o.output, MetricToolResponse)]
    planned = [s for s in d.routing.execution_plan if s.step_id.startswith(STEP)]
    if not listings or len(listings) != len(planned):
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The first-time suppliers could not be listed; no answer is given." + d.failure_text
        return
    parts = [_company_text(d, m) for m in listings]
    statuses = {p[0] for p in parts}
    status = "partial" if "partial" in statuses else "answered" if "answered" in statuses else "no_data"
    text = " ".join(p[1] for p in parts)
    text += (" A first-time supplier has a counted (posted or paid) invoice to the company dated in the period and "
             "no document (invoice or credit note, any status) for the company dated before it.")
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    ids = list(dict.fromkeys(i for p in parts for i in p[2]))
    d.status, d.text = status, text  # type: ignore[assignment]
    d.result = {"status": {"answered": "complete"}.get(status, status), "metric": FIRST_TIME_METRIC,
                "policy": listings[0].policy, **({"supplier_ids": ids, "supplier_count": len(ids),
                                                  **{k: v for k, v in parts[0][3].items() if k != "status"}}
                                                 if len(parts) == 1 else
                                                 {"companies": [p[3] for p in parts]})}
    for m in listings:
        cite_lines(d, m.source_line_ids, "invoice line of a first-time supplier's invoice")
    d.inputs = ({"metric": listings[0].metric, "parameters": listings[0].parameters} if len(listings) == 1 else
                {"metric": FIRST_TIME_METRIC, "parameters": [m.parameters for m in listings]})


__all__ = ["FIRST_TIME_METRIC", "FirstTimeRequest", "first_time_request", "first_time_spans", "route_first_time"]
