"""Thresholds on totals: "suppliers with more than 50k spend", "which suppliers did we spend less than 10.000 EUR
with", "vendors above EUR 0.05m since July", "product groups under 1,000 EUR in Q1".

The amount bounds each supplier's (product group's, product's) TOTAL over the period, never a single invoice: the
listing of invoices above an amount (``finance.invoices_above_threshold``) answers another question, and serving it
here was a confident wrong answer. The totals are the governed ranking (``finance.spend_ranking``, one row per
group with spend in the period, ordered towards the side the amount asks for, at the metric's largest limit); the
composer keeps the rows on the asked side of the amount (exact decimals, the boundary as the question words it:
"more than" excludes the amount itself, "at least" includes it) and states the boundary, a total exactly on it,
and how many groups had spend. When the metric's cut stops inside the qualifying rows (more groups than its limit
qualify) the answer says it is partial; it is never presented as complete.

A question naming invoices, lines or credit notes ("invoices above 5k", "suppliers with invoices over 5k") is a
per-document listing and stays with :mod:`router.planner`'s threshold workflow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.reader import Reading
from router.reading import dimension_phrase, group_dimension

#: The governed metric behind a threshold on totals, and its largest limit (rows beyond it are said, not dropped).
TOTALS_METRIC = "finance.spend_ranking"
ALL_GROUPS = 100

#: A document-level noun: the amount bounds single documents or lines ("invoices above 5k").
_DOCUMENT_NOUN = re.compile(
    r"\b(?:invoices?|bills?|credit[- ]?notes?|credit[- ]?memos?|documents?|lines?|line[- ]items?|positions?|"
    r"orders?|receipts?|rechnung(?:en)?|belege?)\b", re.I)
#: Credit notes named as the basis of the totals ("net of credit notes", "after credit notes"): no listing of them.
_CREDIT_BASIS = re.compile(
    r"\b(?:net of|after|less|minus|including|incl\.?|deducting|with)\s+(?:the\s+|all\s+|any\s+)?"
    r"credit[- ]?(?:notes?|memos?)\b|\bcredit[- ]?(?:notes?|memos?)\s+(?:included|deducted|subtracted|netted)\b",
    re.I)
#: What the totals are grouped by: the noun that is listed ("suppliers with more than 50k spend").
_NOUNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("supplier_id", re.compile(r"\b(?:suppliers?|vendors?|lieferanten?)\b", re.I)),
    ("product_group_id", re.compile(r"\b(?:product[- ])?(?:groups?|categor(?:y|ies)|sub-?categor(?:y|ies))\b", re.I)),
    ("product_code", re.compile(r"\b(?:products?|items?|articles?|skus?)\b", re.I)),
)
#: A spend word: with a named supplier and no listed noun, "did we spend more than 50k with Beta" bounds its total.
_SPEND_WORD = re.compile(r"\b(?:spen[dt]|spending|paid|pay|bought|purchased?|purchases|invoiced|billed|"
                         r"expenditure|business)\b", re.I)


@dataclass(frozen=True)
class TotalThreshold:
    """A threshold on each group's total: the amount bounds (exact decimal strings) and the grouping."""

    dimension: str
    direction: str  # "above" or "below": the side of ``amount`` that qualifies
    amount: str
    inclusive: bool
    currency: str | None
    #: The upper bound of a range ("between 10k and 50k"), and whether it qualifies itself.
    upper: str | None = None
    upper_inclusive: bool = False
    #: "net spend above 10k": the net (tax-exclusive) total is compared.
    net: bool = False


def total_threshold(reading: Reading) -> TotalThreshold | None:
    """The threshold on totals a question asks for, or ``None`` (no amount bound, or one on single documents).

    A listed noun (suppliers, vendors, product groups, products) with no document noun groups the totals; without
    one, a named supplier and a spend word ("did we spend more than 50k with Beta") bound that supplier's total.
    """
    amount = reading.threshold_amount
    if amount is None or amount.comparator not in ("above", "below"):
        return None
    text = reading.cue_text
    a = reading.analysis
    if (_DOCUMENT_NOUN.search(_CREDIT_BASIS.sub(" ", text))
            or reading.cues.unit_price or reading.cues.quantity or a.average_price
            or a.share or a.comparison is not None or reading.excluded_status is not None):
        return None
    dimension = next((name for name, pattern in _NOUNS if pattern.search(text)), None)
    if dimension is None:
        named = set(reading.entities.supplier_ids) - set(reading.excluded_supplier_ids)
        if not (named and _SPEND_WORD.search(text)):
            return None
        dimension = "supplier_id"
    if dimension == "product_group_id":
        dimension = group_dimension(text, filtered=bool(reading.entities.product_group_id))
    upper = reading.upper_threshold
    return TotalThreshold(
        dimension=dimension, direction=amount.comparator, amount=f"{amount.value.quantize(Decimal('0.01'))}",
        inclusive=amount.inclusive, currency=amount.currency, upper=upper[0] if upper else None,
        upper_inclusive=upper[1] if upper else False, net=reading.cues.net_basis)


@dataclass(frozen=True)
class ThresholdRequest:
    """The governed call of a threshold on totals, or the constraints it cannot take (reason, question)."""

    threshold: TotalThreshold
    parameters: dict[str, Any]
    problems: tuple[tuple[str, str], ...] = ()


def threshold_request(reading: Reading, threshold: TotalThreshold, gazetteer: Any, company_id: str | None, start: str,
                      end: str, reporting_currency: str | None) -> ThresholdRequest:
    """``finance.spend_ranking``'s parameters for the threshold: every constraint of the reading, ordered towards
    the qualifying side, at the metric's largest limit."""
    e = reading.entities
    problems: list[tuple[str, str]] = []
    excluded = set(reading.excluded_supplier_ids)
    # (no company: every company of the tenant together, bounded by its row-level security)
    params: dict[str, Any] = {**({"company_id": company_id} if company_id else {}), "start_date": start,
                              "end_date": end}
    named = sorted(set(e.supplier_ids) - excluded)
    if named:
        params["supplier_ids"] = named
    if excluded:
        params["exclude_supplier_ids"] = sorted(excluded)
    if e.product_group_id and e.product_group_id not in set(reading.excluded_group_ids):
        params["product_group_ids"] = list(gazetteer.subgroups(e.product_group_id))
    if reading.excluded_group_ids:
        params["exclude_product_group_ids"] = sorted({g for gid in reading.excluded_group_ids
                                                      for g in gazetteer.subgroups(gid)})
    if e.product_codes:
        problems.append(("combination: a threshold on totals cannot be limited to products",
                         f"Totals compared with an amount can be limited to suppliers and product groups, not to "
                         f"products ({', '.join(e.product_codes)}). Do you want the totals without that filter, or "
                         "the invoices above the amount?"))
    if tuple(reading.statuses) != ("posted", "paid"):
        params["invoice_statuses"] = list(reading.statuses)
    if reading.analysis.document_types is not None:
        params["document_types"] = list(reading.analysis.document_types)
    if reporting_currency:
        params["reporting_currency"] = reporting_currency
    if threshold.currency and reporting_currency and threshold.currency != reporting_currency:
        problems.append((f"currency: the threshold is in {threshold.currency}, not the reporting currency "
                         f"{reporting_currency}",
                         f"Totals are compared in the reporting currency {reporting_currency}; an amount in "
                         f"{threshold.currency} is not converted. Do you mean {threshold.amount} "
                         f"{reporting_currency}?"))
    if reading.analysis.ranking is not None:
        problems.append(("combination: a ranking and an amount threshold in one question",
                         "Do you want the groups whose total is beyond the amount, or the ranking? I can give "
                         "either, not a ranking cut by an amount."))
    if reading.breakdown.grain or [d for d in reading.breakdown.group_by if d != threshold.dimension]:
        problems.append(("combination: a threshold on totals has no further breakdown",
                         "A threshold compares each total over the whole period; it cannot also be split by "
                         "another grouping or by period. Do you want the totals over the whole period?"))
    params.update({"limit": ALL_GROUPS, "direction": "bottom" if threshold.direction == "below" else "top",
                   "order_by": "net_spend" if threshold.net else "total_spend"})
    return ThresholdRequest(threshold, params, tuple(problems))


def threshold_rule(t: TotalThreshold) -> str:
    """The routing rule of a threshold on totals: the bounds travel in it to the composer (:func:`_parse_rule`)."""
    return ("spend_threshold:" + ",".join((f"dim={t.dimension}", f"dir={t.direction}", f"amount={t.amount}",
                                           f"incl={int(t.inclusive)}", f"upper={t.upper or ''}",
                                           f"upper_incl={int(t.upper_inclusive)}", f"net={int(t.net)}")))


def parse_rule(rules: tuple[str, ...] | list[str]) -> TotalThreshold | None:
    """The threshold a routing rule carries (:func:`threshold_rule`), or ``None``."""
    hit = next((r for r in rules if r.startswith("spend_threshold:")), None)
    if hit is None:
        return None
    bits = dict(part.split("=", 1) for part in hit.split(":", 1)[1].split(","))
    return TotalThreshold(dimension=bits["dim"], direction=bits["dir"], amount=bits["amount"],
                          inclusive=bits["incl"] == "1", currency=None, upper=bits["upper"] or None,
                          upper_inclusive=bits["upper_incl"] == "1", net=bits["net"] == "1")


def threshold_steps(req: ThresholdRequest) -> tuple[PlanStep, ...]:
    """The governed totals (one row per group with spend, ordered towards the qualifying side) and the check."""
    t = req.threshold
    return (
        PlanStep(step_id="calculate-totals", tool="metrics.query",
                 arguments={"metric": TOTALS_METRIC, "parameters": dict(req.parameters), "group_by": [t.dimension],
                            "grain": None},
                 purpose=f"Each {dimension_phrase(t.dimension)}'s total over the period ({TOTALS_METRIC}, every "
                         f"group with spend up to {ALL_GROUPS}), compared with the amount in the answer."),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("calculate-totals",),
                 purpose="Completeness: the totals ran; no qualifying group is an answer, no spend is no data."),
    )


def qualifies(value: Decimal, t: TotalThreshold) -> bool:
    """Whether a total is on the asked side of the bounds (exact decimals; the boundary as the question words it).

    >>> t = TotalThreshold("supplier_id", "above", "50000.00", False, "EUR")
    >>> qualifies(Decimal("50000.00"), t), qualifies(Decimal("50000.01"), t)
    (False, True)
    >>> qualifies(Decimal("10000.00"), TotalThreshold("supplier_id", "below", "10000.00", True, None))
    True
    """
    bound = Decimal(t.amount)
    if t.direction == "below":
        return value <= bound if t.inclusive else value < bound
    ok = value >= bound if t.inclusive else value > bound
    if ok and t.upper is not None:
        upper = Decimal(t.upper)
        ok = value <= upper if t.upper_inclusive else value < upper
    return ok


def _bounds_text(t: TotalThreshold, cur: str) -> str:
    if t.upper is not None:
        low = "at least" if t.inclusive else "more than"
        high = "at most" if t.upper_inclusive else "less than"
        return f"{low} {t.amount} {cur} and {high} {t.upper} {cur}"
    if t.direction == "below":
        return f"{'at most' if t.inclusive else 'less than'} {t.amount} {cur}"
    return f"{'at least' if t.inclusive else 'more than'} {t.amount} {cur}"


def _plural(dimension: str, n: int) -> str:
    """ "supplier" / "suppliers", "top-level product group" / "top-level product groups"."""
    word = dimension_phrase(dimension)
    return word if n == 1 else word + "s"


@composer("spend_threshold")
def _compose_threshold(d: _Draft) -> None:
    """``spend_threshold``: the groups whose total is on the asked side of the amount, with their totals, the
    boundary and how many groups had spend; a cut inside the qualifying rows is partial."""
    from router.tools import MetricToolResponse

    t = parse_rule(d.routing.rule_hits)
    outcome = d.run.outcomes.get("calculate-totals")
    m = outcome.output if outcome is not None and outcome.status == "ok" else None
    if t is None or not isinstance(m, MetricToolResponse):
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The totals could not be calculated; no group is listed." + d.failure_text
        return
    company = d.routing.entities.company_name or d.routing.entities.company_id or (
        "the tenant's companies together" if not m.parameters.get("company_id") else "the company")
    cur = m.currency or ""
    value_key = "net_spend" if t.net else "total_spend"
    measure = "net spend (tax excluded)" if t.net else "spend (net + tax)"
    dim = t.dimension
    rows = [r for r in m.rows if r.get(dim) is not None and r.get(value_key) is not None]
    bounds = _bounds_text(t, cur)
    params = m.parameters
    scope = "".join((f" (among suppliers {', '.join(params['supplier_ids'])})" if params.get("supplier_ids") else "",
                     f" (suppliers {', '.join(params['exclude_supplier_ids'])} excluded)"
                     if params.get("exclude_supplier_ids") else ""))
    policy = (f"statuses {', '.join(params.get('invoice_statuses') or ('posted', 'paid'))}; "
              + ("invoices only; " if params.get("document_types") == ["invoice"] else
                 "credit notes only; " if params.get("document_types") == ["credit_note"] else
                 "credit notes netted in; ")
              + f"in {cur}, converted at the corporate rate on each posting date; cancelled, draft and duplicate "
                "invoices never count")
    result: dict[str, Any] = {"metric": TOTALS_METRIC, "dimension": dim, "direction": t.direction,
                              "threshold": t.amount, "inclusive": t.inclusive, "upper_threshold": t.upper,
                              "currency": cur, "measure": value_key}
    status: AnswerStatus
    if not rows:
        status = "no_data"
        text = (f"No data: no validated invoice line of {company}{scope} in {d.period_text}, so no "
                f"{_plural(dim, 2)} had spend to compare with {bounds} (no data, not a zero total).")
        result.update({"status": "no_data", "ids": [], "rows": []})
    else:
        chosen = [r for r in rows if qualifies(Decimal(str(r[value_key])), t)]
        ranked = max(int(r.get("groups_ranked") or 0) for r in rows) or len(rows)
        cut = ranked > len(rows) and qualifies(Decimal(str(rows[-1][value_key])), t)
        ids = [str(r[dim]) for r in chosen]
        listed = "; ".join(f"{r[dim]} {r[value_key]} {cur}" for r in chosen)
        side = "largest first" if t.direction != "below" else "smallest first"
        n = len(chosen)
        named = list(params.get("supplier_ids") or ()) if dim == "supplier_id" else []
        if named:
            # "did we spend more than 50k with Beta": each named supplier's total and its verdict
            by_id = {str(r[dim]): r for r in rows}
            verdicts = []
            for sid in named:
                row = by_id.get(sid)
                if row is None:
                    verdicts.append(f"{sid} had no counted spend in {d.period_text} (no data, not a total)")
                    continue
                ok = sid in ids
                verdicts.append(f"{sid}'s total {measure} in {d.period_text} was {row[value_key]} {cur}, "
                                f"{'' if ok else 'not '}{bounds}")
            lead = ("Yes: " if ids else "No: ") if len(named) == 1 else ""
            text = f"{lead}{company}: " + "; ".join(verdicts) + "."
        elif n:
            text = (f"{n} {_plural(dim, n)} of {company}{scope} had a total {measure} of {bounds} in "
                    f"{d.period_text} ({side}): {listed}.")
        else:
            text = (f"No {dimension_phrase(dim)} of {company}{scope} had a total {measure} of {bounds} in "
                    f"{d.period_text}.")
        text += (f" Each {dimension_phrase(dim)}'s total over the whole period is compared with the amount, not "
                 f"single invoices ({policy}).")
        on_bound = [str(r[dim]) for r in rows if Decimal(str(r[value_key])) in
                    {Decimal(t.amount), *([Decimal(t.upper)] if t.upper else [])}]
        for on in on_bound:
            verdict = "qualifies" if on in ids else "does not qualify"
            text += f" {on}'s total is exactly on the boundary and {verdict} ({bounds})."
        others = [r for r in rows if str(r[dim]) not in ids]
        if named:
            others = []
        text += f" {ranked} {_plural(dim, ranked)} had counted spend in the period"
        if others and not cut and t.upper is None:
            nearest = others[0][value_key]
            text += (f"; the other {ranked - n} {'does' if ranked - n == 1 else 'do'} not qualify (the nearest "
                     f"total outside the bound is {nearest} {cur}).")
        else:
            text += "."
        if cut:
            status = "partial"
            text = (f"PARTIAL RESULT: more than {len(rows)} {_plural(dim, 2)} qualify; only the first {len(rows)} of "
                    f"{ranked} are listed. " + text)
            result["status"] = "partial"
        else:
            status = "answered"
            result["status"] = "complete"
        key = {"supplier_id": "supplier_ids", "product_code": "product_codes"}.get(dim, "product_group_ids")
        result.update({key: ids, "ids": ids, "rows": [{dim: r[dim], value_key: r[value_key]} for r in chosen],
                       "groups_with_spend": ranked})
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, m.source_line_ids, "invoice line behind a compared total")
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": TOTALS_METRIC, "parameters": params, "threshold": t.amount, "direction": t.direction}


def route_threshold(text: str, reading: Reading, inputs: Any, threshold: TotalThreshold) -> Any:
    """The routing result of a threshold on totals: the plan, or a clarification naming what is missing (company,
    period, a constraint the totals cannot take)."""
    from router.company_set import every_restated, tenant_wide
    from router.extensions import _aggregate, _result, _scope_problems
    from router.reader import interpretation

    every = tenant_wide(reading, inputs.gazetteer)
    reasons, questions, entities, currency = _scope_problems(reading, inputs, every_company=every)
    if every:
        currency = inputs.gazetteer.companies[0].reporting_currency
    tr = reading.period.time_range
    intents = _aggregate()
    rule = threshold_rule(threshold)
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    if every:
        read_as = f"{every_restated(inputs.gazetteer)}, {read_as}"
    if reasons or tr is None or (entities.company_id is None and not every):
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="spend_threshold:clarification")
    req = threshold_request(reading, threshold, inputs.gazetteer, entities.company_id, tr.start.isoformat(),
                            tr.end.isoformat(), currency)
    for reason, question in req.problems:
        reasons.append(reason)
        questions.append(question)
    if reading.excluded_supplier_ids:
        read_as += ", excluding suppliers " + ", ".join(reading.excluded_supplier_ids)
    read_as += (f"; each {dimension_phrase(threshold.dimension)}'s total over the period compared with "
                f"{_bounds_text(threshold, currency or threshold.currency or '')}")
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="spend_threshold:clarification")
    return _result(text, reading, inputs, workflow="spend_threshold", entities=entities, steps=threshold_steps(req),
                   intents=intents, read_as=read_as, statuses=reading.statuses, currency=currency, rule=rule)


def threshold_amounts(rules: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The bounds a threshold on totals echoes back in its answer (inputs of the question, not computed figures)."""
    t = parse_rule(rules)
    if t is None:
        return ()
    return (t.amount, *((t.upper,) if t.upper else ()))


__all__ = ["ALL_GROUPS", "TOTALS_METRIC", "ThresholdRequest", "TotalThreshold", "parse_rule", "qualifies",
           "route_threshold", "threshold_amounts", "threshold_request", "threshold_rule", "threshold_steps",
           "total_threshold"]
