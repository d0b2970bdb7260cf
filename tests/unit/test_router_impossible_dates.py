"""An impossible calendar day ("30 February 2026") is a clarification naming it, whatever asks about it (a listing
with or without its verb, a spend, a count); and "the quarter just closed" is the last whole unit."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.periods import resolve_period
from tests.unit.test_router_routing import routed

DAYS = ["30 February 2026", "31 April 2026", "29 February 2025", "31 June 2026", "2026-02-30", "31 September 2025"]
FRAMES = ["Company B invoices dated {d}?", "List Company A invoices dated {d}",
          "Company A invoices from Supplier Beta dated {d}?", "Company B spend on {d}?",
          "How many Company A invoices on {d}?"]


@pytest.mark.parametrize(("frame", "day"), list(itertools.product(FRAMES, DAYS)))
def test_an_impossible_day_is_named_back(frame: str, day: str) -> None:
    result = routed(frame.format(d=day))
    assert result.requires_clarification, frame.format(d=day)
    assert day in (result.clarification_question or ""), (frame.format(d=day), result.clarification_question)


@pytest.mark.parametrize(("phrase", "label"), [
    ("in the quarter just closed", "2026-Q1"), ("for the just-closed quarter", "2026-Q1"),
    ("in the month that has just ended", "2026-04"), ("the recently completed quarter", "2026-Q1"),
    ("the year just closed", "2025"), ("in the just-ended month", "2026-04"),
])
def test_a_just_closed_unit_is_the_last_whole_one(phrase: str, label: str) -> None:
    period = resolve_period(f"Company A invoice count {phrase}", dt.date(2026, 5, 15))
    assert period.time_range is not None and period.time_range.label == label, (phrase, period)
