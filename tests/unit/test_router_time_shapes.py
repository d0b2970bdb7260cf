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


# -- the spend named by its time shape (router/reader.py's spend cue) ----------------------------------------------
@pytest.mark.parametrize("text", [
    "Orbis Handel: Nimbus Tools cumulative since Mar 2025, to date", "Nimbus accumulated 2026 YTD",
    "Orbis cumulatively over H1 2026", "Nimbus Tools (orbis) avg per month Jan-Jun 26",
    "orbis mean per month in Q2 2026", "Nimbus @ Orbis Feb-Apr 2026, anything?",
    "Nimbus at Orbis in May: something at all?",
    "breakdown split by vendor for Orbis, Q2 2026", "Orbis spend broken down by category in March",
    "split out by month, Orbis, H1 2026"])
def test_a_time_shape_names_the_spend(text: str) -> None:
    from router.reader import _SPEND

    assert _SPEND.search(text) is not None


@pytest.mark.parametrize("text", ["Orbis Handel, anything I should know about Q2?", "Orbis accounts overview"])
def test_anything_inside_an_ask_is_no_spend_cue(text: str) -> None:
    from router.reader import _SPEND

    assert _SPEND.search(text) is None


# -- to-date units restated (router/periods.py) ----------------------------------------------------------------------
@pytest.mark.parametrize("text,start,end", [
    ("orbis ytd (calendar) pls", dt.date(2026, 1, 1), dt.date(2026, 5, 16)),
    ("orbis calendar YTD", dt.date(2026, 1, 1), dt.date(2026, 5, 16)),
    ("orbis calendar-year-to-date", dt.date(2026, 1, 1), dt.date(2026, 5, 16)),
    ("Nimbus MTD (May so far)", dt.date(2026, 5, 1), dt.date(2026, 5, 16)),
    ("Nimbus month-to-date (so far)", dt.date(2026, 5, 1), dt.date(2026, 5, 16)),
])
def test_a_to_date_unit_with_its_restatement_is_one_period(text: str, start: dt.date, end: dt.date) -> None:
    from router.periods import resolve_period

    found = resolve_period(text, AS_OF).time_range
    assert found is not None and (found.start, found.end) == (start, end)


def test_a_restated_month_other_than_the_current_one_is_not_read() -> None:
    from router.periods import resolve_period

    assert resolve_period("Nimbus MTD (February)", AS_OF).time_range is None


# -- projections to a named period (router/derived.py) --------------------------------------------------------------
@pytest.mark.parametrize("text,horizon,base_period", [
    ("orbis: if Q1-26 pace holds, full-year 2026 projection?", 12, "Q1-26"),
    ("Orbis: at the H1-26 pace what would a full quarter (Q3) land at?", 3, "H1-26"),
    ("nimbus annualised spend if Q1-26 pace continued", 12, "Q1-26"),
    ("if the Q2 2026 pace held, a forecast for H2 2026 for Orbis", 6, "Q2 2026"),
    ("Orbis: at the March 2026 pace, what would a full half-year (H2) land at?", 6, "March 2026"),
])
def test_a_projection_reads_its_horizon_from_the_projected_period(text: str, horizon: int, base_period: str) -> None:
    found = detect(read_notation(text, as_of=AS_OF) or text, AS_OF)
    assert found is not None and found.kind == "projection" and found.horizon_months == horizon
    assert not any(w in found.base.lower().split() for w in ("if", "pace", "continued", "held", "holds"))


# -- candidate periods of a ranking (router/derived.py) ---------------------------------------------------------------
@pytest.mark.parametrize("sep", [" / ", ", ", " or ", " vs "])
@pytest.mark.parametrize("ranking,grain,units,start,end", [
    ("which quarter was highest for Orbis, {list}?", "quarter", ["Q2 25", "Q3 25", "Q4 25"], "2025-04-01",
     "2025-12-31"),
    ("Nimbus: the strongest quarter, {list}", "quarter", ["Q4-25", "Q1-26"], "2025-10-01", "2026-03-31"),
    ("busiest month for Orbis: {list}", "month", ["Jan 2026", "Feb 2026", "Mar 2026"], "2026-01-01", "2026-03-31"),
])
def test_consecutive_candidates_are_the_ranked_range(sep: str, ranking: str, grain: str, units: list[str],
                                                     start: str, end: str) -> None:
    found = detect(ranking.format(list=sep.join(units)), AS_OF)
    assert found is not None and found.periods is not None and found.periods.grain == grain
    assert f"from {start} through {end}" in found.base


def test_candidates_with_a_gap_stay_as_written() -> None:
    found = detect("which quarter was highest for Orbis, Q1 25 / Q3 25?", AS_OF)
    assert found is not None and "Q1 25 / Q3 25" in found.base


# -- "over" between two periods (router/comparison_words.py) ----------------------------------------------------------
@pytest.mark.parametrize("text", ["Orbis Q2 2026 over Q1 2026, how much more", "nimbus Mar-26 over Feb-26 in EUR",
                                  "Orbis H1 2026 over H2 2025", "orbis Q3 over the previous quarter"])
def test_over_between_two_periods_connects_them(text: str) -> None:
    from router.comparison_words import CONNECTOR_RE

    assert CONNECTOR_RE.search(text) is not None


@pytest.mark.parametrize("text", ["Orbis invoices in Q1 2026 over 5000 EUR", "spend over Q1 2026 for Orbis",
                                  "invoices over 2500 in March 2026", "Orbis spend over the last 3 months"])
def test_over_before_an_amount_or_a_span_is_no_connector(text: str) -> None:
    from router.comparison_words import CONNECTOR_RE

    assert CONNECTOR_RE.search(text) is None


# -- an arrow after a change verb: two periods, not one range (router/period_grammar.py) ---------------------------
@pytest.mark.parametrize("verb", ["drop", "fall", "grow", "change", "move"])
@pytest.mark.parametrize("arrow", ["->", "→"])
def test_an_arrow_after_a_change_verb_keeps_both_periods(verb: str, arrow: str) -> None:
    text = f"orbis - how much did spend {verb} jan{arrow}feb 2026 (m/m %)?"
    assert "through" not in (read_notation(text, as_of=AS_OF) or text)


@pytest.mark.parametrize("arrow", ["->", "→"])
def test_an_arrow_without_a_change_verb_is_a_range(arrow: str) -> None:
    assert "from 2026-01-01 through 2026-03-31" in (read_notation(f"orbis spend jan{arrow}mar 2026", as_of=AS_OF) or "")
