"""Period forms and status/count classes of :mod:`evaluation.probes_periods_status`, routed without a database.

Every generated question (seed 3: neither the generator's training seed 1 nor its held-out seed 2) must be read
as the period the slots name (computed by the generator, never by the reader) and planned as the governed call
the generator means, with every slot value. Bounded: 6 probes per class, 96 in all.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from evaluation.probes_periods_status import KINDS, PERIOD_KINDS, PeriodProbe, probes
from router.german import read_german
from router.periods import resolve_period
from router.routing import RouterInputs, route
from router.run_rate import RUN_RATE, run_rate, run_rate_range, run_rate_sentence, whole_months
from tests.unit.test_router_rankings_counts import CATALOG
from tests.unit.test_router_statuses import AS_OF, CTX, GAZETTEER, METRICS, _calls, _same

_INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG)


def _plan_problem(probe: PeriodProbe) -> str | None:
    """Why the routed plan does not make the probe's governed calls (None when it does)."""
    result = route(probe.question, _INPUTS)
    if result.requires_clarification:
        return f"clarification: {result.clarification_question}"
    calls = _calls(result)
    for want in probe.calls:
        spend = want.metric == "finance.company_spend"
        found = [c for c in calls if c[0] == want.metric or (spend and c[0] in (
            "finance.company_spend", "finance.aggregate_spend", "finance.spend_ranking"))]
        if not found:
            return f"no call of {want.metric}: {calls}"
        _, params, _ = found[0]
        for key, value in want.parameters.items():
            got = params.get(key)
            if key == "company_id" and (got is None or not isinstance(got, str)):
                got = result.entities.company_id
            if key == "invoice_statuses" and got is None:
                got = ["posted", "paid"]
            if key == "document_types" and got is None:
                got = value if value == ["invoice"] and want.metric == "finance.invoice_count" else got
            if not _same(got, value):
                return f"{want.metric}.{key}: {got!r} != {value!r} ({params})"
    return None


@pytest.mark.parametrize("kind", KINDS)
def test_generated_questions_read_the_period_and_plan_the_governed_call(kind: str) -> None:
    wrong: list[tuple[object, ...]] = []
    for probe in probes(3, 6, (kind,)):
        if kind in PERIOD_KINDS and probe.start is not None:
            text = read_german(probe.question) or probe.question
            tr = resolve_period(text, dt.date(2026, 5, 15)).time_range
            if tr is None or (tr.start, tr.end) != (probe.start, probe.end):
                wrong.append((probe.question, text, tr and (tr.start, tr.end), (probe.start, probe.end)))
                continue
        if (why := _plan_problem(probe)) is not None:
            wrong.append((probe.question, why))
    assert not wrong, wrong[:4]


@pytest.mark.parametrize(("question", "period"), [
    # a day as a point, a day with its year, and a verb "may" stay what they were
    ("Company A spend on 25 Dec 2025", ("2025-12-25", "2025-12-26")),
    ("Company A spend between 2026-01-01 and 2026-04-01", ("2026-01-01", "2026-04-01")),
    ("Company A spend Jan-Mar 2026", ("2026-01-01", "2026-04-01")),
    ("Company A spend since 2026-01-01 until 12 Feb", ("2026-01-01", "2026-02-13")),
    ("what may 25 suppliers cost Company A in Q1 2026", ("2026-01-01", "2026-04-01")),
])
def test_forms_next_to_the_new_ones_keep_their_reading(question: str, period: tuple[str, str]) -> None:
    tr = resolve_period(question, dt.date(2026, 5, 15)).time_range
    assert tr is not None and (tr.start.isoformat(), tr.end.isoformat()) == period


def test_a_run_rate_divides_the_total_by_whole_months_only() -> None:
    assert run_rate(Decimal("42192.59"), 3) == Decimal("14064.20")
    # a total rounded to the cent may leave the rate's last cent open: both cents are said, none picked
    assert run_rate_range(Decimal("177059.19"), 6) == (Decimal("29509.86"), Decimal("29509.87"))
    text, result = run_rate_sentence("monthly run-rate", dt.date(2025, 7, 1), dt.date(2026, 1, 1), "177059.19", "EUR")
    assert "between 29509.86 and 29509.87 EUR" in text and result is not None and result["months"] == 6
    assert whole_months(dt.date(2025, 7, 1), dt.date(2026, 1, 1)) == 6
    assert whole_months(dt.date(2026, 1, 1), dt.date(2026, 5, 16)) is None
    text, result = run_rate_sentence("monthly run-rate YTD", dt.date(2026, 1, 1), dt.date(2026, 5, 16), "10.00", "EUR")
    assert result is None and "not whole calendar months" in text
    assert run_rate_sentence("spend in Q1", dt.date(2026, 1, 1), dt.date(2026, 4, 1), "10.00", "EUR") == ("", None)
    assert not RUN_RATE.search("spend by month in Q1 2026") and not RUN_RATE.search("monthly spend in Q1 2026")
