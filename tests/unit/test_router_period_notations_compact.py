"""Period notations a clerk or a tracker writes (a month word touching its year, a quarter or half written number
first with a joined year, dashed days with a two-digit year, a joined year before a currency or a comma), the end
of a range between two written days, a running total of the current unit, and a bracket restating a relative
comparison base (router/period_grammar.py, router/periods.py, router/period_words.py, router/analysis.py,
router/reader.py)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.analysis import parse_comparison
from router.notation import read_notation
from router.periods import resolve_period

AS_OF = dt.date(2026, 4, 20)
D = dt.date


def _period(question: str, as_of: dt.date = AS_OF) -> tuple[dt.date, dt.date] | None:
    text = read_notation(question, as_of=as_of) or question
    resolved = resolve_period(text, as_of)
    if resolved.time_range is None or resolved.ambiguous:
        return None
    return resolved.time_range.start, resolved.time_range.end


# --- a month word touching its year -------------------------------------------------------------------------------
_MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
           "oct": 10, "nov": 11, "dec": 12, "march": 3, "october": 10}


#: Each month word once, in a case and a year of its own (the two-digit and four-digit years, three cases).
_WRITTEN = [(word, ("24", "25", "2025")[i % 3], (str.lower, str.upper, str.title)[i % 3 - 1 if i % 2 else i % 3])
            for i, word in enumerate(sorted(_MONTHS))]


@pytest.mark.parametrize(("word", "year", "case"), _WRITTEN)
def test_a_month_word_touching_its_year_is_that_month(word: str, year: str, case: object) -> None:
    written = case(word) + year  # type: ignore[operator]
    full = int(year) if len(year) == 4 else 2000 + int(year)
    month = _MONTHS[word]
    end = D(full + 1, 1, 1) if month == 12 else D(full, month + 1, 1)
    frame = ("units of PRD-100 bought by Company A in {}?", "{}: top 2 products, Company B", "spend {} pls")[month % 3]
    assert _period(frame.format(written)) == (D(full, month, 1), end), frame.format(written)


@pytest.mark.parametrize(("question", "day"), [
    ("Company A spend mar31 2026", D(2026, 3, 31)), ("Company A spend dec15 2025", D(2025, 12, 15)),
    ("spend jan05 2026 pls", D(2026, 1, 5)),
])
def test_a_month_word_touching_a_day_before_its_year_is_that_day(question: str, day: dt.date) -> None:
    assert _period(question) == (day, day + dt.timedelta(days=1))


@pytest.mark.parametrize("question", [
    "Company A spend since dec15", "Company A spend mar31", "spend jan05 pls", "Company B spend in oct12",
])
def test_touching_digits_far_from_the_as_of_year_are_no_silent_year(question: str) -> None:
    # "dec15": 15 December or December 2015? Never a year far from the as-of year read silently.
    text = read_notation(question, as_of=AS_OF) or question
    assert not any(f"20{n:02d}" in text for n in (5, 12, 15, 31)), text
    resolved = resolve_period(text, AS_OF)
    assert resolved.time_range is None or resolved.time_range.start.year >= AS_OF.year - 2


@pytest.mark.parametrize("question", ["Company A invoice INV-dec25 total", "spend with supplier Dec25x in 2025"])
def test_a_month_word_inside_a_code_is_no_month(question: str) -> None:
    assert _period(question) != (D(2025, 12, 1), D(2026, 1, 1))


# --- quarter and half written number first, year joined by a sign ---------------------------------------------------
@pytest.mark.parametrize(("unit", "number", "sign", "year"), [
    (unit, number, sign, ("25", "2025")[i % 2])
    for i, (unit, number, sign) in enumerate(itertools.product(("Q", "h"), ("1", "2"), ("-", "/", "'", " - ")))])
def test_a_part_written_number_first_with_a_joined_year(unit: str, number: str, sign: str, year: str) -> None:
    full = int(year) if len(year) == 4 else 2000 + int(year)
    months = 3 if unit in "Qq" else 6
    start = D(full, months * int(number) - months + 1, 1)
    end = D(full + (start.month + months > 12), (start.month + months - 1) % 12 + 1, 1)
    question = f"which company spent the most in {number}{unit}{sign}{year}?"
    assert _period(question) == (start, end), question


def test_a_third_half_is_no_half() -> None:
    assert _period("spend in 3H-25") != (D(2025, 7, 1), D(2026, 1, 1))


# --- a joined year before a currency, a comma or a measure ----------------------------------------------------------
@pytest.mark.parametrize(("a", "b", "start", "end"), [
    ("Dec-25", "Feb-26", D(2025, 12, 1), D(2026, 3, 1)),
    ("Nov/25", "Jan/26", D(2025, 11, 1), D(2026, 2, 1)),
    ("Aug'25", "Oct'25", D(2025, 8, 1), D(2025, 11, 1)),
])
@pytest.mark.parametrize("after", [", gross EUR", " EUR", ", net", " in CHF", ""])
def test_a_joined_year_is_a_year_whatever_follows(a: str, b: str, start: dt.date, end: dt.date, after: str) -> None:
    assert _period(f"total for Supplier Beta (Company B) {a} to {b}{after}") == (start, end)


@pytest.mark.parametrize("grain", ["by month", "per month", "each month"])
def test_a_grain_before_a_range_keeps_its_unit_word(grain: str) -> None:
    text = read_notation(f"Company B spend {grain} Jul-25 to Oct-25", as_of=AS_OF)
    assert text is not None and grain in text
    assert _period(f"Company B spend {grain} Jul-25 to Oct-25") == (D(2025, 7, 1), D(2025, 11, 1))


# --- dashed days with a two-digit year -----------------------------------------------------------------------------
@pytest.mark.parametrize(("written", "start", "end"), [
    ("15-11-25 till 07-12-25", D(2025, 11, 15), D(2025, 12, 8)),
    ("27-08-25 - 08-12-25 (both dates incl.)", D(2025, 8, 27), D(2025, 12, 9)),
    ("01-01-26 to 31-03-26", D(2026, 1, 1), D(2026, 4, 1)),
    ("from 3-2-26 through 20-3-26", D(2026, 2, 3), D(2026, 3, 21)),
])
@pytest.mark.parametrize("frame", ["supplier split for Company A, {}", "{}: Company C invoices above 5,000 EUR"])
def test_dashed_days_with_a_two_digit_year(written: str, start: dt.date, end: dt.date, frame: str) -> None:
    assert _period(frame.format(written)) == (start, end)


def test_a_dashed_day_whose_order_nothing_settles_is_asked_about() -> None:
    asked = "Company A spend 03-04-26 - 05-06-26"
    resolved = resolve_period(read_notation(asked, as_of=AS_OF) or asked, AS_OF)
    assert resolved.time_range is None or resolved.ambiguous


# --- the end of a range between two written days ------------------------------------------------------------------
@pytest.mark.parametrize(("written", "start", "end"), [
    ("between 18/01/2026 and 03/04/2026", D(2026, 1, 18), D(2026, 4, 4)),
    ("between 18.01.2026 and 03.04.2026", D(2026, 1, 18), D(2026, 4, 4)),
    ("between 1 Oct and 15 Nov 2025", D(2025, 10, 1), D(2025, 11, 16)),
    ("between 1.1.2026 and 15.3.2026", D(2026, 1, 1), D(2026, 3, 16)),
    ("between Jan 1 and Mar 15 2026", D(2026, 1, 1), D(2026, 3, 16)),
    ("between 2026-01-01 and 2026-03-31", D(2026, 1, 1), D(2026, 4, 1)),
    # (an ISO end keeps the exclusive convention the readers themselves write a half-open period in)
    ("between 2026-01-01 and 2026-03-15", D(2026, 1, 1), D(2026, 3, 15)),
    # (an end on the first of a month is the half-open convention's exclusive end)
    ("between 2026-01-01 and 2026-04-01", D(2026, 1, 1), D(2026, 4, 1)),
    ("from 2026-01-01 to before 2026-03-15", D(2026, 1, 1), D(2026, 3, 15)),
])
def test_the_last_day_written_is_included(written: str, start: dt.date, end: dt.date) -> None:
    assert _period(f"Company A spend {written}") == (start, end)


# --- a running total of the current unit ----------------------------------------------------------------------------
@pytest.mark.parametrize(("words", "unit"), list(itertools.product(
    ("running total", "cumulative spend", "accumulated total"), ("this yr", "this quarter", "this qtr", "this month"))))
def test_a_running_total_of_the_current_unit_runs_to_date(words: str, unit: str) -> None:
    found = _period(f"{words} {unit} Company C / Supplier Beta")
    assert found is not None and found[1] == AS_OF + dt.timedelta(days=1), (words, unit, found)


def test_this_year_alone_is_the_whole_year() -> None:
    assert _period("Company C spend this year") == (D(2026, 1, 1), D(2027, 1, 1))


# --- a bracket restating a relative base ----------------------------------------------------------------------------
@pytest.mark.parametrize(("base", "bracket"), [
    ("compared to last month", "(Oct'25)"), ("vs prior month", "(Oct 2025)"), ("vs previous month", "(10/2025)"),
    ("against the prev month", "(i.e. October 2025)"), ("compared with the previous month", "(OCT 2025)"),
])
def test_a_bracket_after_a_relative_base_is_hidden_with_it(base: str, bracket: str) -> None:
    question = f"Company A spend November 2025 {base} {bracket}, up or down?"
    comparison, _, hidden, compares = parse_comparison(question, AS_OF)
    assert compares and comparison is not None and comparison.compare_to == "previous_period"
    assert comparison.stated_base is not None and comparison.stated_base.start == D(2025, 10, 1)
    assert any(question[s:e].endswith(")") for s, e in hidden)


def _weighed(current: tuple[dt.date, dt.date], bracket: tuple[dt.date, dt.date], rule: str) -> tuple[object, object]:
    from router.analysis import Analysis, Comparison
    from router.contract import TimeRange
    from router.periods import PeriodResolution
    from router.reader import _stated_base

    stated = TimeRange(start=bracket[0], end=bracket[1], label="stated", source_text="(stated)")
    analysis = Analysis(comparison=Comparison(rule, stated_base=stated))  # type: ignore[arg-type]
    period = PeriodResolution(TimeRange(start=current[0], end=current[1], label="named", source_text="named"),
                              False, None, ("named",), ((0, 5),))
    return _stated_base(analysis, period)


@pytest.mark.parametrize(("current", "bracket", "rule"), [
    ((D(2025, 11, 1), D(2025, 12, 1)), (D(2025, 10, 1), D(2025, 11, 1)), "previous_period"),
    ((D(2025, 10, 1), D(2026, 1, 1)), (D(2025, 7, 1), D(2025, 10, 1)), "previous_period"),
    ((D(2025, 10, 1), D(2026, 1, 1)), (D(2024, 10, 1), D(2025, 1, 1)), "same_period_last_year"),
    # (a bracket naming only the year the base lies in restates it: "same quarter last year (2025)")
    ((D(2026, 1, 1), D(2026, 4, 1)), (D(2025, 1, 1), D(2026, 1, 1)), "same_period_last_year"),
    ((D(2026, 1, 1), D(2026, 4, 1)), (D(2025, 1, 1), D(2026, 1, 1)), "previous_period"),
])
def test_the_relative_base_is_taken_from_the_period_compared(
        current: tuple[dt.date, dt.date], bracket: tuple[dt.date, dt.date], rule: str) -> None:
    analysis, period = _weighed(current, bracket, rule)
    comparison = analysis.comparison  # type: ignore[attr-defined]
    assert comparison is not None and comparison.compare_to == rule and comparison.base is None
    assert not period.ambiguous  # type: ignore[attr-defined]


@pytest.mark.parametrize(("current", "bracket", "rule"), [
    # "Q1 2026 vs previous quarter (Q3 2025)": the bracket contradicts the base (Q4 2025)
    ((D(2026, 1, 1), D(2026, 4, 1)), (D(2025, 7, 1), D(2025, 10, 1)), "previous_period"),
    ((D(2025, 11, 1), D(2025, 12, 1)), (D(2025, 9, 1), D(2025, 10, 1)), "previous_period"),
    # "Q1 2026 vs same quarter last year (Q2 2025)", "(2024)"
    ((D(2026, 1, 1), D(2026, 4, 1)), (D(2025, 4, 1), D(2025, 7, 1)), "same_period_last_year"),
    ((D(2026, 1, 1), D(2026, 4, 1)), (D(2024, 1, 1), D(2025, 1, 1)), "same_period_last_year"),
])
def test_a_bracket_contradicting_the_base_is_asked_never_swapped(
        current: tuple[dt.date, dt.date], bracket: tuple[dt.date, dt.date], rule: str) -> None:
    analysis, period = _weighed(current, bracket, rule)
    comparison = analysis.comparison  # type: ignore[attr-defined]
    assert comparison is not None and comparison.base is None and comparison.compare_to == rule
    assert period.ambiguous  # type: ignore[attr-defined]
    # both periods are named in the question back
    assert bracket[0].isoformat() in period.reason and current[0].isoformat() in period.reason  # type: ignore


@pytest.mark.parametrize(("current", "base", "bracket"), [
    ("11/2025", "compared to last month", "(Oct'25)"), ("02/2026", "compared to last month", "(JAN 2026)"),
    ("Q4 2025", "QoQ", "(Jul to Sep 2025)"), ("Nov-25", "vs prev month", "(Oct 2025)"),
])
def test_the_bracket_is_no_second_period(current: str, base: str, bracket: str) -> None:
    asked = f"Company A spend {current} {base} {bracket} - change in EUR and %"
    question = read_notation(asked, as_of=AS_OF) or asked
    _, _, hidden, _ = parse_comparison(question, AS_OF)
    masked = "".join(" " if any(s <= i < e for s, e in hidden) else c for i, c in enumerate(question))
    named = resolve_period(read_notation(current, as_of=AS_OF) or current, AS_OF).time_range
    read = resolve_period(masked, AS_OF)
    assert named is not None and read.time_range is not None and not read.ambiguous
    assert (read.time_range.start, read.time_range.end) == (named.start, named.end)


# --- a period after a measure word is no grouping ---------------------------------------------------------------------
@pytest.mark.parametrize(("measure", "period"), list(itertools.product(
    ("per unit", "per piece", "by spend"), ("year-to-date", "quarter-to-date", "month-to-date"))))
def test_a_hyphenated_period_after_a_measure_is_no_grouping(measure: str, period: str) -> None:
    from router.reading import parse_breakdown

    assert parse_breakdown(f"what is PRD-100 costing {measure} {period} (Company A)").unknown == ()


def test_a_noun_after_a_measure_word_is_still_a_grouping() -> None:
    from router.reading import parse_breakdown

    assert parse_breakdown("Company A spend per unit type").unknown == ("unit type",)


# --- the system's own restatements of a period read back exactly -----------------------------------------------------
def _generated_periods() -> list[tuple[dt.date, dt.date]]:
    days = [D(2025, 1, 1) + dt.timedelta(days=n) for n in range(0, 520, 37)]
    return [(a, a + dt.timedelta(days=length)) for a in days for length in (2, 13, 28, 31, 45, 92)]


@pytest.mark.parametrize(("start", "end"), _generated_periods())
def test_the_systems_restatements_read_back_exactly(start: dt.date, end: dt.date) -> None:
    # every form the system writes a period back in (compound parts, net change, open amounts, price bases): a
    # "between <iso> and <iso>" with the last day in was read with the end out ("15 Jan to 14 Feb" restated as
    # "between 2026-01-15 and 2026-02-13", one day short)
    from router.net_change import _period_words
    from router.open_amount import up_to

    last = end - dt.timedelta(days=1)
    for said in (_period_words(start, end, None), f"from {start.isoformat()} to before {end.isoformat()}",
                 f"from {start.isoformat()} through {last.isoformat()}"):
        read = resolve_period(f"Company A spend {said}", AS_OF)
        assert read.time_range is not None and not read.ambiguous, said
        assert (read.time_range.start, read.time_range.end) == (start, end), said
    opened = resolve_period(up_to("open spend Company A", last), AS_OF)
    assert opened.time_range is not None and opened.time_range.end == end


@pytest.mark.parametrize("period", [
    "from 15 Jan 2026 to 14 Feb 2026", "from 2026-01-15 to before 2026-02-14", "between 15.01.2026 and 13.02.2026",
])
def test_a_compound_part_restates_the_range_the_first_part_read(period: str) -> None:
    from router.compound import split_asks
    from router.reader import read
    from tests.unit.test_router_status_counts import AS_OF as COUNTS_AS_OF
    from tests.unit.test_router_status_counts import GAZETTEER, METRICS

    question = f"Company A spend {period} by supplier, plus number of Company A suppliers"
    question = read_notation(question, as_of=COUNTS_AS_OF) or question
    parts = split_asks(question, lambda t: read(t, GAZETTEER, COUNTS_AS_OF, METRICS))
    assert len(parts) == 2, parts
    ranges = [resolve_period(p.question, COUNTS_AS_OF).time_range for p in parts]
    assert all(r is not None for r in ranges)
    assert len({(r.start, r.end) for r in ranges if r is not None}) == 1, [p.question for p in parts]
