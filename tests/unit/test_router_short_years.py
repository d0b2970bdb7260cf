"""Short and terse period forms of :mod:`evaluation.probes_short_years`, read and routed without a database.

Every generated question (seed 3: neither the generator's training seed 1 nor its held-out seed 2), at its own
as-of date, must be read as the period the slots name (computed by the generator, never by the reader), a
comparison with the base the slots name, and a two-digit year far from the as-of date must be asked about, never
read as a year nobody meant. Bounded: 8 probes per class.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

from evaluation.probes_short_years import KINDS, ShortYearProbe, probes
from router.periods import resolve_period
from router.routing import RouterInputs, route
from semantic.params import base_period
from tests.unit.test_router_rankings_counts import CATALOG
from tests.unit.test_router_statuses import AS_OF, CTX, GAZETTEER, METRICS, _calls

_INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG)


def _problem(probe: ShortYearProbe) -> str | None:
    """Why the probe is not read and planned as its slots say (None when it is)."""
    result = route(probe.question, replace(_INPUTS, as_of=probe.as_of))
    if probe.start is None:
        return None if result.requires_clarification else f"no clarification: {_calls(result)}"
    if result.requires_clarification:
        return f"clarification: {result.clarification_question}"
    want = probe.calls[0]
    found = [params for metric, params, _ in _calls(result) if metric == want.metric]
    found += [dict(step.arguments) for step in result.execution_plan if step.tool == want.metric]
    if not found:
        return f"no call of {want.metric}: {_calls(result)}"
    got = dict(found[0])
    if got.get("compare_to") in ("previous_period", "same_period_last_year"):
        # a named base that is a rule's base is planned as that rule: its dates are the rule's
        start, end = dt.date.fromisoformat(str(got["start_date"])), dt.date.fromisoformat(str(got["end_date"]))
        base = base_period(start, end, str(got["compare_to"]))
        got["base_start_date"], got["base_end_date"] = base[0].isoformat(), base[1].isoformat()
    for key in ("start_date", "end_date", "base_start_date", "base_end_date"):
        if key in want.parameters and str(got.get(key)) != str(want.parameters[key]):
            return f"{key}: {got.get(key)!r} != {want.parameters[key]!r}"
    return None


@pytest.mark.parametrize("kind", KINDS)
def test_short_period_forms_read_the_slots_period_at_every_as_of_date(kind: str) -> None:
    wrong: list[tuple[object, ...]] = []
    for probe in probes(3, 8, (kind,)):
        if probe.base is None:
            read = resolve_period(probe.question, probe.as_of)
            got = read.time_range
            if probe.start is None and not read.ambiguous:
                wrong.append((probe.question, probe.as_of, "read as", got and (got.start, got.end)))
                continue
            if probe.start is not None and (got is None or (got.start, got.end) != (probe.start, probe.end)):
                wrong.append((probe.question, probe.as_of, got and (got.start, got.end), (probe.start, probe.end),
                              read.reason))
                continue
        if (why := _problem(probe)) is not None:
            wrong.append((probe.question, probe.as_of, why))
    assert not wrong, wrong[:4]


@pytest.mark.parametrize(("question", "as_of", "period"), [
    # a parenthesis spelling out its bounds narrows the year (a lone "(Q3)" is asked about, below)
    ("Company A spend, calendar 2025 (Jul-Dec)?", "2026-05-15", ("2025-07-01", "2026-01-01")),
    # the year written is kept whatever the as-of date ("Q3 25" asked in Q3 2026 is still 2025)
    ("Company A spend in Q3 25", "2026-09-15", ("2025-07-01", "2025-10-01")),
    ("Company A spend since jul 25", "2026-12-06", ("2025-07-01", "2026-12-07")),
    ("Company A spend jul 25 - dec 25", "2026-12-06", ("2025-07-01", "2026-01-01")),
    ("Company A spend by quarter, Q3 25 - Q1 26", "2026-05-15", ("2025-07-01", "2026-04-01")),
    ("Company A spend H2 25 - H1 26", "2026-09-15", ("2025-07-01", "2026-07-01")),
    # a day stays a day; an amount stays an amount
    ("Company A spend Jan 25 - Feb 3 2026", "2026-05-15", ("2026-01-25", "2026-02-03")),
    ("Company A spend since the beginning of 2026 up to and including March 18", "2026-05-15",
     ("2026-01-01", "2026-03-19")),
    # words for every date on file; "ever" beside a named period only stresses it
    ("Company A invoices over 30k (any period)", "2026-05-15", ("1990-01-01", "2026-05-16")),
    ("did Company A ever spend with Beta in 2025", "2026-05-15", ("2025-01-01", "2026-01-01")),
    # a parenthesis restating the period, a clause stating context
    ("Company A spend from july 26 on (H2)", "2026-05-15", ("2026-07-01", "2027-01-01")),
    ("Epsilon was phased out end of 2025. Did Company A still spend with Epsilon in 2026?", "2026-05-15",
     ("2026-01-01", "2027-01-01")),
])
def test_short_years_keep_their_year(question: str, as_of: str, period: tuple[str, str]) -> None:
    read = resolve_period(question, dt.date.fromisoformat(as_of))
    assert read.time_range is not None, read.reason
    assert (read.time_range.start.isoformat(), read.time_range.end.isoformat()) == period


@pytest.mark.parametrize("question", [
    "Company A spend mar 17",  # March 2017 or the 17th of March?
    "Company A spend Q3 40",  # a year nobody asks about
    "Company A spend 2025 ytd",  # a past year has no to-date
    "Company A spend Q1 2026; Q2 2026",  # two periods, neither a context clause
    "Company A spend in 2025 (Q3)",  # a parenthesis that narrows, not restates
    "Company B spend in 2024 (Q4)",  # (the same: no year written in the parenthesis)
])
def test_unclear_periods_are_asked_about(question: str) -> None:
    read = resolve_period(question, dt.date(2026, 5, 15))
    assert read.ambiguous and read.time_range is None
