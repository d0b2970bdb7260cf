"""The answer of a derived FP&A measure (router/derived.py) from its base answer and the governed metric it calls.

Kept apart from :mod:`router.service` so the service only wires it in: :func:`derive` gets the base answer and a
``call(metric, params)`` that runs a governed metric (audited, tenant-bound) and returns its typed response.
Whatever cannot be derived exactly from the base reading is a clarification that says why, never a figure.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from router.answer import Answer, PolicyCheck, filters_text, share_two_decimals
from router.derived import (
    AVERAGE_METRIC,
    PROJECTION_METRIC,
    RANKING_METRIC,
    SHARE_METRIC,
    SPEND_CARRIED,
    SPEND_METRICS,
    DerivedAsk,
    average_text,
    base_params,
    base_total,
    carried,
    concentration_text,
    one_figure,
    projection_text,
    tail_text,
)
from router.period_ranking import period_label, rank, ranking_text
from router.run_rate import whole_months
from router.tools import MetricToolResponse

_SPEND_KEYS = frozenset(SPEND_CARRIED)
Call = Callable[[str, dict[str, Any]], MetricToolResponse]
_LABELS = {"projection": "projection", "average_invoice_value": "average invoice value",
           "concentration": "supplier concentration", "period_ranking": "ranking of periods by spend"}


def _cents(value: object) -> str:
    try:
        return str(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    except (InvalidOperation, ValueError):
        return ""


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value)) if value is not None else None
    except (InvalidOperation, ValueError):
        return None


def _decimal_sum(values: Any) -> Decimal | None:
    total = Decimal(0)
    for value in values:
        d = _decimal(value)
        if d is None:
            return None
        total += d
    return total


def _clarify(base: Answer, found: DerivedAsk, why: str) -> Answer:
    text = (f"I need a clarification before answering: the {_LABELS[found.kind]} ('{found.words}') is computed "
            f"from one governed figure, and {why}. Which company, period and scope do you mean?")
    return Answer(status="clarification", text=text, result={}, inputs=base.inputs, sources=(),
                  clarification_question=text)


def _read_as(text: str) -> str:
    found = re.search(r" Read as: .*?(?= Sources:|$)", text, re.S)
    return found.group(0).rstrip() if found else ""


def _answered(base: Answer, found: DerivedAsk, sentence: str, derived: MetricToolResponse,
              result: dict[str, Any], *, keep_base: bool) -> Answer:
    body = base.text.split(" Sources:", 1)[0] if keep_base else _read_as(base.text).strip()
    sources = tuple(derived.source_line_ids) or base.sources
    # the citations are the base's, kept only for the lines the derived figure rests on (an average is over
    # invoices, so a credit note's lines of the base total are not its sources)
    keep = set(sources)
    citations = tuple(c for c in base.citations if c.kind != "invoice_line" or c.source_id in keep)
    text = f"{sentence} {body}".strip()
    if sources:
        text += " Sources: " + ", ".join(sources) + "."
    inputs = {**base.inputs, "derived": {"measure": found.kind, "words": found.words, "metric": derived.metric,
                                         "parameters": derived.parameters}}
    return Answer(status="answered", text=text, result={**result, "measure": found.kind, "metric": derived.metric,
                                                         "currency": derived.currency},
                  inputs=inputs, sources=sources, citations=citations, checks=base.checks)


def derive(base: Answer, found: DerivedAsk, as_of: dt.date, call: Call,
           plan: Sequence[Mapping[str, Any]] = ()) -> Answer:
    """The derived measure's answer from ``base`` (the base question's answer; ``plan``: its plan's steps)."""
    if found.refused:
        text = f"I need a clarification before answering: {found.refused}. Which figure do you mean?"
        return Answer(status="clarification", text=text, result={}, inputs=base.inputs, sources=(),
                      clarification_question=text)
    if base.status == "clarification":
        return base
    if found.kind == "projection":
        running = _running(base, found, as_of, plan)
        if running is not None:
            return running  # (also when the month so far has no data: its pace is not known either way)
    if base.status != "answered":
        note = f"No {_LABELS[found.kind]} was computed ('{found.words}'): its base figure is not complete. "
        return base.model_copy(update={"text": note + base.text})
    got = base_params(base.inputs, plan)
    if got is None:
        return _clarify(base, found, "the question reads as more than one figure or not as spend")
    name, params = got
    if found.kind == "period_ranking":
        return _period_ranking(base, found, name, params)
    if found.kind == "concentration":
        return _concentration(base, found, name, params, call)
    if name not in SPEND_METRICS:
        return _clarify(base, found, "the question reads as a ranking, not as one spend total")
    if not one_figure(base.result):
        return _clarify(base, found, "the question asks for a breakdown, and the measure is given for one total "
                        "only (ask once per company, supplier or period)")
    if found.kind == "projection":
        return _projection(base, found, params, as_of, call)
    return _average(base, found, params, call)


def _running(base: Answer, found: DerivedAsk, as_of: dt.date, plan: Sequence[Mapping[str, Any]]) -> Answer | None:
    """A clarification when the base period is not whole calendar months or has months not yet over."""
    got = base_params(base.inputs, plan)
    if got is None or "start_date" not in got[1] or "end_date" not in got[1]:
        return None
    start, end = dt.date.fromisoformat(str(got[1]["start_date"])), dt.date.fromisoformat(str(got[1]["end_date"]))
    if whole_months(start, end) is None:
        return _clarify(base, found, f"the base period {start} to {end} (end exclusive) is not whole calendar "
                        "months, so there is no month count to project from")
    if end > as_of + dt.timedelta(days=1):
        return _clarify(base, found, f"the base period {start} to {end} (end exclusive) has months not yet over on "
                        f"{as_of}, so its pace is not known")
    return None


def _projection(base: Answer, found: DerivedAsk, params: dict[str, Any], as_of: dt.date, call: Call) -> Answer:
    start, end = dt.date.fromisoformat(str(params["start_date"])), dt.date.fromisoformat(str(params["end_date"]))
    months = whole_months(start, end)
    if months is None or end > as_of + dt.timedelta(days=1):
        return _clarify(base, found, "the base period is not whole calendar months that are over")
    p = carried(PROJECTION_METRIC, params)
    if p is None or found.horizon_months is None:
        return _clarify(base, found, "the base figure has a filter the projection does not carry")
    r = call(PROJECTION_METRIC, {**p, "horizon_months": found.horizon_months})
    v = r.values
    total, lines = base_total(base.result)
    if _cents(v.get("total_spend")) != _cents(total) or r.matched_line_count != lines or \
            v.get("projected_spend") is None:
        return _clarify(base, found, "the projection's governed call does not reproduce the base total")
    sentence = projection_text(str(v["total_spend"]), int(str(v["months"])), found.horizon_months,
                               str(v["monthly_run_rate"]), str(v["projected_spend"]), str(r.currency), found.words)
    result = {"status": "complete", "total_spend": v["total_spend"], "months": v["months"],
              "horizon_months": found.horizon_months, "monthly_run_rate": v["monthly_run_rate"],
              "projected_spend": v["projected_spend"], "matched_line_count": r.matched_line_count}
    return _answered(base, found, sentence, r, result, keep_base=True)


def _average(base: Answer, found: DerivedAsk, params: dict[str, Any], call: Call) -> Answer:
    params = dict(params)
    with_types = dict(params)  # the base total is reproduced with its own document types
    types = params.pop("document_types", None)
    if types not in (None, ["invoice", "credit_note"], ["invoice"]):
        return _clarify(base, found, "an average invoice value is over invoices, not credit notes")
    p = carried(AVERAGE_METRIC, params)
    if p is None:
        return _clarify(base, found, "the question also filters by something an invoice's value cannot be split "
                        "by (a product group or product: an invoice can mix them)")
    # the parameters carried must give the base total again (else a filter of the question was not carried)
    again = call(SPEND_METRICS[0], {k: v for k, v in with_types.items() if k in _SPEND_KEYS})
    total, lines = base_total(base.result)
    if _cents(again.values.get("total_spend")) != _cents(total) or again.matched_line_count != lines:
        return _clarify(base, found, "the average's governed call does not carry every filter of the base total")
    r = call(AVERAGE_METRIC, p)
    v = r.values
    if r.status == "no_data" or v.get("average_invoice_value") is None:
        return base.model_copy(update={"status": "no_data", "text": "No invoice matched, so there is no average "
                                       "invoice value (no data, not zero). " + _read_as(base.text).strip()})
    sentence = average_text(str(v["average_invoice_value"]), str(v["total_spend"]), int(str(v["invoice_count"])),
                            str(r.currency))
    scope = [f"{label} {', '.join(p[key])}" for key, label in (
        ("company_ids", "companies"), ("supplier_ids", "suppliers"), ("exclude_supplier_ids", "excluding suppliers"))
        if p.get(key)]
    if scope:
        sentence += f" Scope: {'; '.join(scope)}."
    result = {"status": "complete", "average_invoice_value": v["average_invoice_value"],
              "total_spend": v["total_spend"], "invoice_count": v["invoice_count"],
              "matched_line_count": r.matched_line_count}
    return _answered(base, found, sentence, r, result, keep_base=False)


def _concentration(base: Answer, found: DerivedAsk, name: str, params: dict[str, Any], call: Call) -> Answer:
    n = found.top_n or 0
    rows = [r for r in base.result.get("rows") or [] if isinstance(r, Mapping)]
    if name != RANKING_METRIC or base.result.get("dimension") != "supplier_id" or \
            params.get("order_by") != "total_spend" or not rows:
        return _clarify(base, found, "the question does not read as the suppliers ranked by spend")
    ranked = int(str(rows[0].get("groups_ranked") or 0))
    if any(int(str(r["rank"])) + int(str(r.get("tie_count") or 1)) - 1 > n for r in rows
           if int(str(r["rank"])) <= n):
        tied = ", ".join(str(r["supplier_id"]) for r in rows if int(str(r["rank"])) <= n)
        return _clarify(base, found, f"suppliers are tied at rank {n} ({tied}), so the top {n} are not one set")
    p = carried(SHARE_METRIC, params, drop=("order_by", "direction", "limit"))
    if p is None:
        return _clarify(base, found, "the ranking has a filter the share does not carry")
    ids = [str(r["supplier_id"]) for r in rows if int(str(r["rank"])) <= n]
    r = call(SHARE_METRIC, {**p, "supplier_ids": ids})
    v = r.values
    if v.get("share_percent") is None:
        return _clarify(base, found, "the spend in scope is zero, so there is no share")
    # the share's part must be the ranked top suppliers' spend again (else a filter of the ranking was not carried);
    # the rows are cent-rounded, so their sum may differ from the exact part by half a cent per row
    ranked_part = _decimal_sum(r_["total_spend"] for r_ in rows if int(str(r_["rank"])) <= n)
    part = _decimal(v.get("part_value"))
    if ranked_part is None or part is None or abs(ranked_part - part) > Decimal("0.005") * n + Decimal("0.005"):
        return _clarify(base, found, "the share's governed call does not reproduce the ranked suppliers' spend")
    # the percent stated to two places from the exact part and whole (the metric's 4-place percent rounded again
    # could move the last digit: 53.53497 % is 53.5350 %, which reads as 53.54)
    two = share_two_decimals(v["share_percent"], v["part_value"], v["whole_value"])
    if found.tail:
        # the tail is the rest of the same governed whole: whole - top N, in exact Decimal
        whole = _decimal(v.get("whole_value"))
        if whole is None or not whole:
            return _clarify(base, found, "the spend in scope is zero, so there is no share")
        rest = whole - part
        exact = Decimal(100) - Decimal(str(v["share_percent"]))
        pct = share_two_decimals(exact, rest, whole) or str(exact)
        sentence = tail_text(n, ids, pct, str(rest), str(v["part_value"]), str(whole), str(r.currency), ranked)
        if ranked <= n:
            sentence += f" Only {ranked} suppliers have spend in scope, so there is no tail outside the top {n}."
        result = {"status": "complete", "top_n": n, "tail": True, "supplier_ids": ids, "share_percent": pct,
                  "part": str(rest), "top_part": v["part_value"], "whole": v["whole_value"],
                  "suppliers_ranked": ranked}
        return _answered(base, found, sentence, r, result, keep_base=True)
    sentence = concentration_text(n, ids, two or str(v["share_percent"]), str(v["part_value"]),
                                  str(v["whole_value"]), str(r.currency), ranked)
    if ranked <= n:
        sentence += f" Only {ranked} suppliers have spend in scope, so the top {n} hold all of it."
    result = {"status": "complete", "top_n": n, "supplier_ids": ids, "share_percent": two or v["share_percent"],
              "share_percent_exact": v["share_percent"],
              "part": v["part_value"], "whole": v["whole_value"], "suppliers_ranked": ranked}
    return _answered(base, found, sentence, r, result, keep_base=True)


def _period_ranking(base: Answer, found: DerivedAsk, name: str, params: dict[str, Any]) -> Answer:
    """The governed breakdown by month (quarter) of the base answer, ranked; no figure is computed here."""
    ask = found.periods
    rows = [r for r in base.result.get("breakdown") or [] if isinstance(r, Mapping)]
    listed = [r for r in base.result.get("rows") or [] if isinstance(r, Mapping)]
    if not rows and listed and all(set(r) <= {"period_start", "total_spend", "matched_line_count"} for r in listed):
        # the tenant's companies together: the same breakdown, as rows keyed by their period start
        rows = [{"dimension": "period_start", "key": r.get("period_start"), "total_spend": r.get("total_spend"),
                 "matched_line_count": r.get("matched_line_count")} for r in listed]
    if ask is None or name not in SPEND_METRICS or not rows or \
            any(r.get("dimension") != "period_start" for r in rows):
        grain = ask.grain if ask else "period"
        return _clarify(base, found, f"the question does not read as one selection's spend by {grain}")
    start, end = params.get("start_date"), params.get("end_date")
    ranked = rank(rows, ask.n, ask.order, ask.grain, dt.date.fromisoformat(str(start)) if start else None,
                  dt.date.fromisoformat(str(end)) if end else None)
    if ranked is None:
        return _clarify(base, found, "a period of the breakdown has no amount")
    if ranked.tie:
        tied = ", ".join(f"{period_label(k)}" for k in ranked.tie)
        return _clarify(base, found, f"{tied} have the same spend to the cent at the cut, so the "
                        f"{'top' if ask.order == 'desc' else 'bottom'} {ask.n} are not one set (ask for more or "
                        "fewer periods)")
    currency = str(base.result.get("currency") or params.get("reporting_currency") or "")
    # every filter the ranked breakdown ran with is restated ("excluding SUP-27"): the base sentence that named them
    # is replaced by the ranking
    sentence = f"{ranking_text(ranked, ask, currency)} Filters applied: {filters_text(params, currency)}."
    items = [{"period": k, "label": period_label(k), "rank": i, "total_spend": str(amount), "matched_line_count": n}
             for i, (k, amount, n) in enumerate(ranked.items, 1)]
    result = {"status": base.result.get("status") or "complete", "kind": "period_ranking", "grain": ask.grain,
              "order": ask.order, "items": items, "periods_without_data": list(ranked.without_data),
              "total_spend": base.result.get("total_spend"),
              "matched_line_count": base.result.get("matched_line_count")}
    body = _read_as(base.text).strip()
    text = f"{sentence} {body}".strip()
    if base.sources:
        text += " Sources: " + ", ".join(base.sources) + "."
    inputs = {**base.inputs, "derived": {"measure": found.kind, "words": found.words, "grain": ask.grain,
                                         "order": ask.order, "n": ask.n}}
    return Answer(status="answered", text=text, result={**result, "measure": found.kind, "metric": name,
                                                         "currency": currency},
                  inputs=inputs, sources=base.sources, citations=base.citations, checks=base.checks)


def _check(name: str, figure: object, expected: Decimal | None, tolerance: Decimal, text: str) -> PolicyCheck:
    got = _decimal(figure)
    if got is None or expected is None:
        return PolicyCheck(check=name, passed=False, detail="a figure or an input of the measure is missing")
    if abs(got - expected) > tolerance:
        return PolicyCheck(check=name, passed=False, detail=f"{got} is not {expected} within {tolerance}")
    if str(figure) not in text:
        return PolicyCheck(check=name, passed=False, detail=f"{figure} is not the figure the text states")
    return PolicyCheck(check=name, passed=True, detail=f"{got} = {expected} within {tolerance}")


def check_derived(answer: Answer) -> tuple[PolicyCheck, ...]:
    """The derived figure recomputed from the inputs the answer states (the metric computes from exact sums, the
    inputs shown are cent-rounded, so each check allows that rounding carried through the formula) and found in
    the text: a derived figure that its own formula does not give is withheld."""
    r, text = answer.result, answer.text
    measure = r.get("measure")
    if measure == "projection":
        total, months, horizon = _decimal(r.get("total_spend")), _decimal(r.get("months")), \
            _decimal(r.get("horizon_months"))
        expected = total * horizon / months if total is not None and months and horizon else None
        slack = Decimal("0.005") * horizon / months + Decimal("0.005") if months and horizon else Decimal(0)
        return (_check("derived_projection", r.get("projected_spend"), expected, slack, text),)
    if measure == "average_invoice_value":
        total, count = _decimal(r.get("total_spend")), _decimal(r.get("invoice_count"))
        expected = total / count if total is not None and count else None
        return (_check("derived_average", r.get("average_invoice_value"), expected, Decimal("0.01"), text),)
    if measure == "concentration":
        part, whole = _decimal(r.get("part")), _decimal(r.get("whole"))
        expected = part * 100 / whole if part is not None and whole else None
        # part and whole are cent-rounded: their ratio may move by about 0.005 / whole per cent, plus the share's
        # own rounding
        slack = Decimal("0.01") + (Decimal(1) / whole if whole else Decimal(0))
        return (_check("derived_concentration", r.get("share_percent"), expected, slack, text),)
    if measure == "period_ranking":
        return (_check_ranking(r, text),)
    return (PolicyCheck(check="derived_measure", passed=False, detail=f"unknown measure {measure!r}"),)


def _check_ranking(r: Mapping[str, Any], text: str) -> PolicyCheck:
    """The ranked amounts are in the order asked and each is stated in the text."""
    amounts = [_decimal(i.get("total_spend")) for i in r.get("items") or ()]
    if not amounts or any(a is None for a in amounts):
        return PolicyCheck(check="derived_period_ranking", passed=False, detail="a ranked amount is missing")
    ordered = sorted(amounts, reverse=r.get("order") != "asc")  # type: ignore[type-var]
    if amounts != ordered:
        return PolicyCheck(check="derived_period_ranking", passed=False, detail="the periods are not in rank order")
    if any(str(i["total_spend"]) not in text for i in r["items"]):
        return PolicyCheck(check="derived_period_ranking", passed=False, detail="a ranked amount is not in the text")
    return PolicyCheck(check="derived_period_ranking", passed=True, detail=f"{len(amounts)} periods in rank order")


__all__ = ["check_derived", "derive"]
