"""Periods and dates as AP clerks and FP&A analysts write them (router/clerk_dates.py and its hooks): dashed days
("since 01-Oct-25"), dashed months ("Mar-2026"), quarter notations, "last N quarters" as whole calendar units,
"so far in FY2026" and "YTD (FY2026)" as one period to the as-of date, "as at 30-Apr-26" / "at month end April
2026" as the overdue as-at day, and a day beside named documents read as their date (no database: routed in
memory, seeded slot variation)."""

from __future__ import annotations

import datetime as dt
import random
import types
from typing import Any

import pytest

from router.clerk_dates import clerk_dates, described_day, year_to_date_of
from router.contract import TimeRange
from router.periods import resolve_period
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

D = dt.date


def _range(question: str, as_of: dt.date = AS_OF) -> tuple[dt.date, dt.date]:
    resolved = resolve_period(question, as_of)
    assert not resolved.ambiguous and resolved.time_range is not None, (question, resolved.reason)
    return resolved.time_range.start, resolved.time_range.end


def _routed(question: str, as_of: dt.date = AS_OF) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=as_of, gazetteer=GAZETTEER, metrics=METRICS))


# -- dashed days and months ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "expected"), [
    ("Alpenland spend on data loggers since 01-Oct-25", (D(2025, 10, 1), D(2026, 5, 16))),
    ("Company B spend with Gamma since 15-Jan-2026", (D(2026, 1, 15), D(2026, 5, 16))),
    ("since 1-mar-26, what did Xenon spend with Helix?", (D(2026, 3, 1), D(2026, 5, 16))),
    ("Beta invoices from 01-Nov-25 to 31-Jan-26, Company A", (D(2025, 11, 1), D(2026, 2, 1))),
    ("Company A spend between 03-Feb-26 and 28-Feb-26", (D(2026, 2, 3), D(2026, 3, 1))),
    ("what did Kestrel spend on 02-Feb-26?", (D(2026, 2, 2), D(2026, 2, 3))),
])
def test_a_dashed_day_is_that_day_never_its_month(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _range(question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("avg unit price PRD-482 Mar-2026 (EUR)?", (D(2026, 3, 1), D(2026, 4, 1))),
    ("Company A spend Jan-2026", (D(2026, 1, 1), D(2026, 2, 1))),
    ("Feb-2026 spend for Kestrel with Gamma", (D(2026, 2, 1), D(2026, 3, 1))),
    ("units of PRD-530 bought by Company B in Dec-2025", (D(2025, 12, 1), D(2026, 1, 1))),
    ("Company B spend Mar-26", (D(2026, 3, 1), D(2026, 4, 1))),
])
def test_a_dashed_month_is_the_month(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _range(question) == expected


def test_the_rewrite_maps_every_position_back() -> None:
    question = "spend since 01-Oct-25 with Beta"
    text, origin = clerk_dates(question, AS_OF)
    assert text == "spend since 1 Oct 2025 with Beta"
    assert len(origin) == len(text) + 1
    assert question[origin[text.index("with")]:] == "with Beta"
    resolved = resolve_period(question, AS_OF)
    (span,) = resolved.spans
    assert question[span[0]:span[1]] == "since 01-Oct-25"


def test_a_dashed_code_or_a_far_year_is_left_alone() -> None:
    assert clerk_dates("INV-01-Oct-25-7 total", AS_OF)[0] == "INV-01-Oct-25-7 total"
    assert clerk_dates("spend since 01-Oct-70", AS_OF)[0] == "spend since 01-Oct-70"


@pytest.mark.parametrize(("question", "expected"), [
    ("Company A spend Q1/2026", (D(2026, 1, 1), D(2026, 4, 1))),
    ("Company A spend Q1-2026", (D(2026, 1, 1), D(2026, 4, 1))),
    ("Company A spend 1Q2026", (D(2026, 1, 1), D(2026, 4, 1))),
    ("Company A spend 2H25", (D(2025, 7, 1), D(2026, 1, 1))),
    ("Company B spend 4Q25", (D(2025, 10, 1), D(2026, 1, 1))),
])
def test_quarter_notations(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _range(question) == expected


@pytest.mark.parametrize("question", [
    "Gamma invoices by currency, Company A, 2H25 + Q1 so far",
    "Company B spend 2H25 and Q1 to date",
    "Beta spend for Company A, H2 2025 + 1Q26 so far",
    "Company A: 2H25 + Q1-2026 so far, by supplier",
])
def test_a_half_and_the_current_quarter_so_far_run_to_the_as_of_date(question: str) -> None:
    as_of = D(2026, 2, 28)
    assert _range(question, as_of) == (D(2025, 7, 1), D(2026, 3, 1))


# -- "last N quarters / months": whole calendar units ----------------------------------------------------------------
@pytest.mark.parametrize(("phrase", "expected"), [
    ("last 2 quarters", (D(2025, 10, 1), D(2026, 4, 1))),
    ("the past two quarters", (D(2025, 10, 1), D(2026, 4, 1))),
    ("previous 4 quarters", (D(2025, 4, 1), D(2026, 4, 1))),
    ("last 3 months", (D(2026, 2, 1), D(2026, 5, 1))),
    ("over the past six months", (D(2025, 11, 1), D(2026, 5, 1))),
    ("in the last 2 years", (D(2024, 1, 1), D(2026, 1, 1))),
    ("last 2 full quarters", (D(2025, 10, 1), D(2026, 4, 1))),
])
def test_last_n_units_are_whole_calendar_units(phrase: str, expected: tuple[dt.date, dt.date]) -> None:
    rng = random.Random(phrase)
    frame = rng.choice(["Company B quarterly spend, {p}", "Top 2 vendors for Company A other than Beta, {p}",
                        "{p}: what did Company A spend with Gamma?", "Company B spend {p}"])
    assert _range(frame.format(p=phrase)) == expected, frame


@pytest.mark.parametrize("phrase", ["last 90 days", "past 8 weeks", "rolling 60 days", "trailing 30 days",
                                    "rolling 6 months"])
def test_day_and_week_windows_stay_windows(phrase: str) -> None:
    _, end = _range(f"Company A spend {phrase}")
    assert end == AS_OF + dt.timedelta(days=1)


@pytest.mark.parametrize(("phrase", "months"), [("trailing 3 months", 3), ("trailing six months", 6)])
def test_trailing_and_rolling_months_are_complete_months(phrase: str, months: int) -> None:
    # every training set's truth: "trailing N months" are the N complete months before the as-of month
    start, end = _range(f"Company A spend {phrase}")
    assert end == AS_OF.replace(day=1)
    assert (end.year * 12 + end.month) - (start.year * 12 + start.month) == months and start.day == 1


def test_last_n_quarters_routes_with_the_whole_quarters() -> None:
    result = _routed("Company B quarterly spend, last 2 quarters")
    tr = result.constraints.time_range
    assert tr is not None and (tr.start, tr.end) == (D(2025, 10, 1), D(2026, 4, 1)), result.clarification_question


# -- "so far in FY2026", "YTD spend (FY2026)" --------------------------------------------------------------------------
@pytest.mark.parametrize("question", [
    "Gamma's share of Company A spend so far in FY2026",
    "Alpenland YTD spend (FY2026)?",
    "Company B spend FY2026, YTD",
    "YTD spend for Company A in 2026",
    "what did Company A spend with Beta so far in 2026",
    "Company B: spend to date for FY26",
    "FY2026 YTD spend Company A",
])
def test_the_year_so_far_is_one_period_to_the_as_of_date(question: str) -> None:
    as_of = D(2026, 3, 5)
    assert _range(question, as_of) == (D(2026, 1, 1), D(2026, 3, 6))


def test_a_year_that_does_not_hold_the_as_of_date_still_clashes_with_ytd() -> None:
    assert resolve_period("Company A YTD spend (FY2025)?", D(2026, 3, 5)).ambiguous
    assert _range("Company A spend so far in 2025", D(2026, 3, 5)) == (D(2025, 1, 1), D(2026, 1, 1))


def test_year_to_date_of_needs_a_ytd_and_a_year() -> None:
    ytd = TimeRange(start=D(2026, 1, 1), end=D(2026, 3, 6), label="2026-YTD", source_text="YTD")
    fy = TimeRange(start=D(2026, 1, 1), end=D(2027, 1, 1), label="FY2026", source_text="FY2026")
    q1 = TimeRange(start=D(2026, 1, 1), end=D(2026, 4, 1), label="2026-Q1", source_text="Q1")
    merged = year_to_date_of([ytd, fy])
    assert merged is not None and (merged.start, merged.end) == (D(2026, 1, 1), D(2026, 3, 6))
    assert year_to_date_of([ytd, q1]) is None
    assert year_to_date_of([fy]) is None


# -- overdue as at a written day or a month's end --------------------------------------------------------------------
def _overdue_day(question: str) -> str:
    result = _routed(question)
    hit = next((h for h in result.rule_hits if h.startswith("overdue:") and h.count(":") == 3), None)
    assert result.workflow == "overdue_invoices" and hit is not None, (question, result.clarification_question)
    return hit.rsplit(":", 1)[1]


@pytest.mark.parametrize(("question", "day"), [
    ("overdue invoices Company B as at 30-Apr-26?", "2026-04-30"),
    ("Company A overdue amount EUR at month end April 2026", "2026-04-30"),
    ("how many invoices of Company A were overdue at the end of March 2026?", "2026-03-31"),
    ("Company B overdue list as of 31-Mar-2026", "2026-03-31"),
    ("Company A total overdue in EUR at quarter-end Q1 2026", "2026-03-31"),
    ("Which invoices of Company B were overdue, Feb-2026 month-end?", "2026-02-28"),
    ("Company B overdue total at end-of-month Mar-2026", "2026-03-31"),
    ("Company A overdue invoices as at 30 April", "2026-04-30"),
    ("overdue total of Company B as of March 31st", "2026-03-31"),
    ("Company A invoices overdue as at 30-Jun", "2025-06-30"),
])
def test_overdue_is_judged_as_at_the_written_day_or_month_end(question: str, day: str) -> None:
    assert _overdue_day(question) == day


def test_overdue_in_a_period_without_its_end_is_still_asked() -> None:
    result = _routed("overdue invoices of Company A in April 2026")
    assert result.requires_clarification, result.rule_hits


def test_overdue_as_at_a_day_no_calendar_has_is_asked() -> None:
    result = _routed("Company A overdue as at 31 June")
    assert result.requires_clarification and "31 June" in (result.clarification_question or "")


# -- a day beside named documents is their date ------------------------------------------------------------------------
@pytest.mark.parametrize("question", [
    "Combined EUR gross for INV-2026-0121 + INV-2026-0126 (both Gamma, 02.02.2026)?",
    "Gross total of INV-2026-0148 (dated 2026-03-02)?",
    "INV-2025-0515 + INV-2026-0211, both 15-Jan-26, total incl VAT?",
    "What's the net of INV-2026-0148, Beta, 2 March 2026?",
])
def test_a_day_beside_documents_describes_them(question: str) -> None:
    result = _routed(question)
    assert result.workflow == "document_amounts", (question, result.clarification_question)


def test_a_period_beside_documents_is_still_a_conflict() -> None:
    result = _routed("Combined gross of INV-2026-0121 + INV-2026-0126 since 01-Jan-26?")
    assert result.requires_clarification


def _note(question: str, dates: dict[str, str]) -> list[str]:
    from router.invoice_facts import _described_day_note

    d = types.SimpleNamespace(routing=types.SimpleNamespace(question=question, as_of=D(2026, 4, 30)))
    return _described_day_note(d, {n: [{"invoice_date": day}] for n, day in dates.items()})  # type: ignore[arg-type]


def test_the_described_day_is_checked_against_the_documents() -> None:
    question = "Combined EUR gross for INV-2026-0121 + INV-2026-0126 (both Gamma, 02.02.2026)?"
    assert described_day(question, D(2026, 4, 30)) == D(2026, 2, 2)
    assert _note(question, {"INV-2026-0121": "2026-02-02", "INV-2026-0126": "2026-02-02"}) == [
        "Each document is dated 2026-02-02, as the question says."]
    (mismatch,) = _note(question, {"INV-2026-0121": "2026-02-02", "INV-2026-0126": "2026-02-05"})
    assert "INV-2026-0126 is dated 2026-02-05" in mismatch and "2026-02-02" in mismatch
    assert described_day("gross of INV-2026-0121 since 01-Jan-26", D(2026, 4, 30)) is None


@pytest.mark.parametrize(("question", "end"), [
    ("approved vendors for Company A as at 30-Apr-26", D(2026, 5, 1)),
    ("open invoices of Company B as at 31-Mar-26", D(2026, 4, 1)),
    ("Company A spend YTD as at 30-Apr-26", D(2026, 5, 1)),
    ("Company A unpaid invoices as of 15-Mar-2026", D(2026, 3, 16)),
])
def test_a_dashed_as_at_day_is_read_as_the_spaced_one(question: str, end: dt.date) -> None:
    result = _routed(question)
    spaced = _routed(question.replace("-Apr-26", " April 2026").replace("-Mar-26", " March 2026")
                     .replace("-Mar-2026", " March 2026"))
    tr, other = result.constraints.time_range, spaced.constraints.time_range
    assert tr is not None and tr.end == end, (question, result.clarification_question)
    assert other is not None and (tr.start, tr.end) == (other.start, other.end)
    assert result.workflow == spaced.workflow


@pytest.mark.parametrize(("question", "current"), [
    ("Company A spend last 3 months vs the 3 months before", ("2026-02-01", "2026-05-01")),
    ("Company A spend in the last 3 months compared with the previous 3 months", ("2026-02-01", "2026-05-01")),
    ("How did Company B spend change in the last 2 quarters vs the prior 2 quarters?", ("2025-10-01", "2026-04-01")),
    ("Company A spend past six months versus the preceding six months", ("2025-11-01", "2026-05-01")),
])
def test_last_n_units_compared_with_the_n_before_are_whole_units_each(question: str,
                                                                       current: tuple[str, str]) -> None:
    from semantic.params import base_period

    result = _routed(question)
    params = next(s.arguments["parameters"] for s in result.execution_plan
                  if s.arguments.get("metric") == "finance.spend_comparison")
    assert (params["start_date"], params["end_date"]) == current, (question, result.clarification_question)
    start, end = D.fromisoformat(current[0]), D.fromisoformat(current[1])
    if params["compare_to"] == "custom":
        base = (params["base_start_date"], params["base_end_date"])
    else:
        assert params["compare_to"] == "previous_period"
        base = tuple(d.isoformat() for d in base_period(start, end, "previous_period"))
    assert D.fromisoformat(base[1]) == start and D.fromisoformat(base[0]).day == 1
