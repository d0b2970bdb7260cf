"""A part of a named period ("the first week of March 2026", "the last month of Q1", "the second half of March")
is asked about with its words named, never read as the whole month or quarter around it (review35). Slots vary:
ordinals, units, months, years, the words around."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest

from router.periods import resolve_period

AS_OF = dt.date(2026, 6, 15)
ORDINALS = ("first", "1st", "second", "2nd", "third", "last", "final", "fourth")
MONTHS = ("March 2026", "Feb 2025", "April", "December 2025", "the month", "January 2026")
FRAMES = ("Company A spend in {part}", "What did Kestrel spend during {part}?", "{part}: spend with Gamma",
          "invoices of Alpenland in {part}, by supplier")


@pytest.mark.parametrize("ordinal,month,frame", random.Random(35).sample(
    list(itertools.product(ORDINALS, MONTHS, FRAMES)), 40))
def test_a_week_of_a_month_is_asked_about(ordinal: str, month: str, frame: str) -> None:
    part = f"the {ordinal} week of {month}"
    got = resolve_period(frame.format(part=part), AS_OF)
    assert got.time_range is None and got.ambiguous and got.reason and part in got.reason


@pytest.mark.parametrize("part", ["the first month of Q1 2026", "the last month of 2025", "the second half of March",
                                  "the first half of April 2026", "the last 10 days of March 2026",
                                  "the first full week in May 2026", "the final fortnight of June"])
def test_other_parts_of_a_named_period_are_asked_about(part: str) -> None:
    got = resolve_period(f"Company A spend in {part}", AS_OF)
    assert got.time_range is None and got.ambiguous


@pytest.mark.parametrize("question,label", [("spend in the first quarter of 2026", "2026-Q1"),
                                            ("spend in the first half of 2026", "2026-H1"),
                                            ("spend in week 10 of 2026", "2026-W10"),
                                            ("spend in March 2026", "2026-03"),
                                            ("spend last week", "2026-W24")])
def test_whole_periods_stay_read(question: str, label: str) -> None:
    got = resolve_period(question, AS_OF)
    assert got.time_range is not None and got.time_range.label == label
