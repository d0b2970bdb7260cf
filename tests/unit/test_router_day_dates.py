"""A calendar day in any written form is that day, never its month or year (no database)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 15)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
SHORT = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _suffix(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _forms(day: dt.date) -> list[str]:
    name, short = MONTHS[day.month - 1], SHORT[day.month - 1]
    return [day.isoformat(), f"{day.day} {name} {day.year}", f"{day.day}{_suffix(day.day)} of {name} {day.year}",
            f"{day.day} {short}. {day.year}", f"{name} {day.day}, {day.year}", f"{short} {day.day} {day.year}",
            f"{day.day:02d}.{day.month:02d}.{day.year}", f"{day.day}. {name} {day.year}"]


@seed(20261205)
@settings(max_examples=60, deadline=None, database=None)
@given(day=st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2026, 12, 31)),
       frame=st.sampled_from(["Company A spend on {d}", "what did we spend {d}?", "approved vendors as of {d}",
                              "warranty on {d}"]))
def test_every_form_of_a_day_is_that_day(day: dt.date, frame: str) -> None:
    for form in _forms(day):
        resolution = resolve_period(frame.format(d=form), AS_OF)
        assert resolution.time_range is not None, form
        assert (resolution.time_range.start, resolution.time_range.end) == (day, day + dt.timedelta(days=1)), form


@pytest.mark.parametrize(("question", "start", "end"), [
    ("spend since 15 Jan 2026", dt.date(2026, 1, 15), dt.date(2026, 5, 16)),
    # (days written in words name both ends of the range: "between 1 Oct and 15 Nov 2025" runs through 15 Nov)
    ("spend between 1 Jan 2026 and March 15, 2026", dt.date(2026, 1, 1), dt.date(2026, 3, 16)),
    ("spend in March 2026", dt.date(2026, 3, 1), dt.date(2026, 4, 1)),
])
def test_days_as_bounds(question: str, start: dt.date, end: dt.date) -> None:
    period = resolve_period(question, AS_OF).time_range
    assert period is not None and (period.start, period.end) == (start, end)


@pytest.mark.parametrize("question", ["spend on 31 February 2026", "spend on 30.02.2026"])
def test_a_day_that_does_not_exist_is_asked_about(question: str) -> None:
    assert resolve_period(question, AS_OF).ambiguous


def test_amounts_with_dots_are_no_days() -> None:
    period = resolve_period("invoices over 1.500.000 EUR in 2026", AS_OF).time_range
    assert period is not None and period.label == "2026"


@pytest.mark.parametrize(("question", "label"), [
    ("company a invoices > 20.000 EUR 2025", "2025"),
    ("invoices of at least 2,000 EUR 2025", "2025"),
    ("invoices over 20k € 2025", "2025"),
    ("invoices over EUR 2025", None),  # an amount of 2025 euros, not a year
])
def test_a_year_after_an_amounts_currency_is_a_year(question: str, label: str | None) -> None:
    period = resolve_period(question, AS_OF).time_range
    assert (period.label if period else None) == label
