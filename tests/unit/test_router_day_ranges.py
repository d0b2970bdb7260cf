"""Ranges between two written days, generated over every written form and connector (seeded, no database).

The second day is the exclusive end ("between 2026-01-01 and 2026-04-01" is Q1), except after "through" and
when it is a month's last day, which nobody writes as an exclusive end; a first day without a year takes the
second's.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.periods import resolve_period

AS_OF = dt.date(2026, 11, 20)
DAYS = st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2026, 10, 31))


def _words(day: dt.date, *, year: bool = True) -> list[str]:
    month, short = day.strftime("%B"), day.strftime("%b")
    forms = [f"{day.day} {month}", f"{month} {day.day}", f"{short} {day.day}", f"{day.day}th of {month}"]
    if not year:
        return forms
    return [day.isoformat(), f"{day.day} {month} {day.year}", f"{month} {day.day}, {day.year}",
            f"{short} {day.day} {day.year}", f"{day.day:02d}.{day.month:02d}.{day.year}"]


def _month_end(day: dt.date) -> dt.date:
    return (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=DAYS, length=st.integers(0, 300), data=st.data())
def test_a_range_ending_on_a_month_end_includes_it(start: dt.date, length: int, data: st.DataObject) -> None:
    end = _month_end(start + dt.timedelta(days=length))
    same_year = start.year == end.year
    first = data.draw(st.sampled_from(_words(start) + (_words(start, year=False) if same_year else [])))
    last = data.draw(st.sampled_from(_words(end)))
    frame = data.draw(st.sampled_from(["between {a} and {b}", "from {a} to {b}", "from {a} through {b}",
                                       "{a} - {b}", "{a} to {b}", "{a} thru {b}"]))
    question = f"Company A spend {frame.format(a=first, b=last)}"
    resolved = resolve_period(question, AS_OF)
    assert resolved.time_range is not None, (question, resolved)
    assert (resolved.time_range.start, resolved.time_range.end) == (start, end + dt.timedelta(days=1)), question


@settings(max_examples=80, deadline=None)
@given(start=DAYS, length=st.integers(2, 200))
def test_a_mid_month_end_is_exclusive_after_to_and_inclusive_after_through(start: dt.date, length: int) -> None:
    end = start + dt.timedelta(days=length)
    if end == _month_end(end):
        end -= dt.timedelta(days=1)
    for connector, stop in (("to", end), ("through", end + dt.timedelta(days=1)), ("to before", end)):
        question = f"spend of Company A from {start.isoformat()} {connector} {end.isoformat()}"
        resolved = resolve_period(question, AS_OF)
        assert resolved.time_range is not None, question
        assert (resolved.time_range.start, resolved.time_range.end) == (start, stop), question
