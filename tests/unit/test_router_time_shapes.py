"""Time-shape measures read whole (router/period_grammar.py, router/period_ranking.py, router/derived.py): a ranked
period followed by a range of months keeps its unit, so the ranking reader still sees "peak month"; slots vary over
ranking words, month notations, range separators and positions."""

from __future__ import annotations

import datetime as dt

import pytest

from router.derived import detect
from router.notation import read_notation

AS_OF = dt.date(2026, 5, 15)

_RANGES = [("Aug 25 - Feb 26", "2025-08-01", "2026-02-28"), ("Aug-25..Feb-26", "2025-08-01", "2026-02-28"),
           ("Aug25-Feb26", "2025-08-01", "2026-02-28"), ("09/2025 to 01/2026", "2025-09-01", "2026-01-31")]


@pytest.mark.parametrize("word,order", [("peak", "desc"), ("busiest", "desc"), ("quietest", "asc")])
@pytest.mark.parametrize("span,start,end", _RANGES)
@pytest.mark.parametrize("frame", ["Orbis Handel {word} month {span}?", "{word} month {span} for Orbis Handel",
                                   "Orbis Handel / Nimbus Tools - {word} month {span}"])
def test_a_ranked_month_keeps_its_unit_before_a_range(word: str, order: str, span: str, start: str, end: str,
                                                      frame: str) -> None:
    read = read_notation(frame.format(word=word, span=span), as_of=AS_OF) or frame.format(word=word, span=span)
    assert f"{word} month from {start} through {end}" in read
    found = detect(read, AS_OF)
    assert found is not None and found.kind == "period_ranking" and found.periods is not None
    assert (found.periods.grain, found.periods.order, found.periods.n) == ("month", order, 1)


@pytest.mark.parametrize("text", ["spend between the month of November 2025 and 02/2026",
                                  "from the month of 07/2025 to 09/2025 spend"])
def test_a_range_named_with_its_unit_still_drops_the_unit(text: str) -> None:
    read = read_notation(text, as_of=AS_OF) or text
    assert "month" not in read
