"""Period phrases of everyday speech (router/period_phrases.py): units just gone, relative fiscal years, spans of N
units from a day in any notation, starts up to today, bracket glosses, slash lists and the complete-month
convention of trailing windows. Phrasings are this file's own; slots (count, unit word, language, day notation,
position, as-of date) are varied so that a rule matching only one string fails."""

from __future__ import annotations

import datetime as dt

import pytest

from router.notation import read_notation
from router.period_phrases import fiscal_year_ending, read_period_phrases
from router.periods import resolve_period

D = dt.date
FRAMES = ("Company B spend {p}", "{p}: invoices of Company A", "how many invoices did Ypsilon get {p}, thanks",
          "top 3 suppliers for Company C {p}?")


def _range(question: str, as_of: dt.date) -> tuple[dt.date, dt.date] | None:
    # (the notation pipeline the router runs: the period grammar settles slashed days before these phrases)
    resolved = resolve_period(read_notation(question, (), as_of=as_of) or question, as_of)
    if resolved.time_range is None or resolved.ambiguous:
        return None
    return resolved.time_range.start, resolved.time_range.end


# --- just gone ---------------------------------------------------------------------------------------------------
_JUST = ("just gone", "just passed", "just ended", "that's just gone")
_UNITS = (("quarter", D(2025, 11, 3), (D(2025, 7, 1), D(2025, 10, 1))),
          ("month", D(2026, 2, 14), (D(2026, 1, 1), D(2026, 2, 1))),
          ("year", D(2026, 6, 30), (D(2025, 1, 1), D(2026, 1, 1))))


# (each slot rotates through its values, so every frame, word and unit is met without the full product)
@pytest.mark.parametrize(("frame", "unit", "word", "as_of", "expected"), [
    (FRAMES[i % 4], *_UNITS[i % 3][:1], _JUST[i % 4], *_UNITS[i % 3][1:]) for i in range(6)])
def test_a_unit_just_gone_is_the_last_complete_one(frame: str, unit: str, word: str, as_of: dt.date,
                                                   expected: tuple[dt.date, dt.date]) -> None:
    assert _range(frame.format(p=f"the {unit} {word}"), as_of) == expected


@pytest.mark.parametrize(("part", "as_of", "expected"), [
    ("Q3", D(2025, 10, 20), (D(2025, 7, 1), D(2025, 10, 1))),
    ("Q3", D(2025, 8, 20), (D(2024, 7, 1), D(2024, 10, 1))),  # Q3 2025 is still running: the one before ended
    ("H1", D(2026, 7, 2), (D(2026, 1, 1), D(2026, 7, 1))),
    ("October", D(2025, 11, 9), (D(2025, 10, 1), D(2025, 11, 1))),
    ("October", D(2025, 10, 9), (D(2024, 10, 1), D(2024, 11, 1))),
])
def test_a_numbered_part_just_gone_is_the_latest_that_ended(part: str, as_of: dt.date,
                                                            expected: tuple[dt.date, dt.date]) -> None:
    assert _range(f"spend at Company B {part} just gone", as_of) == expected


# --- fiscal years named relatively -------------------------------------------------------------------------------
_FISCAL = [(w, s) for s, ws in ((-1, ("last financial year", "last fin year", "previous FY", "last FY",
                                     "prior fiscal year", "the financial year just gone")),
                                (0, ("this financial year", "current FY"))) for w in ws]


@pytest.mark.parametrize(("words", "shift", "start_month"), [(*_FISCAL[i], (1, 4, 7)[i % 3]) for i in range(8)])
def test_a_relative_fiscal_year_counts_from_the_configured_start(words: str, shift: int, start_month: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCURA_FISCAL_YEAR_START_MONTH", str(start_month))
    as_of = D(2026, 5, 20)
    ends_in = fiscal_year_ending(as_of, start_month) + shift
    first = D(ends_in, 1, 1) if start_month == 1 else D(ends_in - 1, start_month, 1)
    last = D(first.year + 1, first.month, 1)
    assert _range(f"total VAT of Company A {words} pls", as_of) == (first, last)


@pytest.mark.parametrize("words", ["this financial year so far", "this FY to date", "this fiscal year until today"])
def test_this_fiscal_year_so_far_runs_to_the_as_of_date(words: str) -> None:
    as_of = D(2026, 3, 3)
    assert _range(f"invoice count Company C {words}", as_of) == (D(2026, 1, 1), D(2026, 3, 4))


# --- N units from a day ------------------------------------------------------------------------------------------
SPANS = [("the 2 weeks", 14), ("the fortnight", 14), ("a fortnight", 14), ("3 weeks", 21), ("the 10 days", 10),
         ("two weeks", 14), ("the week", 7), ("14 dni", 14), ("2 Wochen", 14), ("3 semanas", 21)]
DAYS = [("18.10.2025", D(2025, 10, 18)), ("18/10/25", D(2025, 10, 18)), ("2025-10-18", D(2025, 10, 18)),
        ("18 Oct 2025", D(2025, 10, 18)), ("October 18, 2025", D(2025, 10, 18)), ("18th of October", D(2025, 10, 18)),
        ("18 oct", D(2025, 10, 18))]


OPENERS = ("from", "starting", "beginning", "commencing", "starting on")


@pytest.mark.parametrize("i", range(14))
def test_a_span_from_a_day_is_never_the_day_alone(i: int) -> None:
    (words, length), (written, first) = SPANS[i % len(SPANS)], DAYS[i % len(DAYS)]
    question = FRAMES[i % len(FRAMES)].format(p=f"{words} {OPENERS[i % len(OPENERS)]} {written}")
    assert _range(question, D(2026, 2, 1)) == (first, first + dt.timedelta(days=length)), question


def test_a_span_after_a_day_starts_the_day_after_and_months_keep_the_day() -> None:
    as_of = D(2026, 6, 1)
    assert _range("spend the 2 weeks after 8.3.2026", as_of) == (D(2026, 3, 9), D(2026, 3, 23))
    assert _range("spend the 3 months from 15 Jan 2026", as_of) == (D(2026, 1, 15), D(2026, 4, 15))


@pytest.mark.parametrize("question", ["Company A spend by month from 1 Jan 2026 to 31 Mar 2026",
                                      "spend per week from 2026-01-05 through 2026-02-01"])
def test_a_breakdown_unit_before_a_range_is_no_span(question: str) -> None:
    assert read_period_phrases(question, D(2026, 5, 1)) == question


# --- up to today -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("phrase", ["from 01.01 to today", "since 1 Jan till today", "from 1st January until now",
                                    "since begin of year till today", "from the beginning of year to today",
                                    "since year start till today"])
def test_a_start_up_to_today_runs_to_the_as_of_date(phrase: str) -> None:
    frame = FRAMES[len(phrase) % len(FRAMES)]
    assert _range(frame.format(p=phrase), D(2026, 4, 11)) == (D(2026, 1, 1), D(2026, 4, 12)), frame


# --- trailing windows: the complete months before the as-of month ------------------------------------------------
_TRAILING = [("TTM", 12), ("LTM", 12), ("L12M", 12), ("T6M", 6), ("L3M", 3), ("trailing 6 months", 6),
             ("trailing three months, full months only", 3), ("trailing 6 months (full months)", 6),
             ("LTM (last twelve full months)", 12), ("T6M (last 6 complete months)", 6),
             ("rolling 12 months (complete months)", 12),
             ("T3M (full months)", 3)]
_AS_OFS = (D(2026, 1, 31), D(2025, 12, 31), D(2026, 4, 30), D(2026, 3, 18))


@pytest.mark.parametrize(("phrase", "months", "as_of"), [(*t, _AS_OFS[i % 4]) for i, t in enumerate(_TRAILING)])
def test_trailing_month_windows_are_complete_months(phrase: str, months: int, as_of: dt.date) -> None:
    end = as_of.replace(day=1)
    index = end.year * 12 + end.month - 1 - months
    assert _range(f"Company B {phrase} spend", as_of) == (D(index // 12, index % 12 + 1, 1), end)


@pytest.mark.parametrize("phrase", ["last 60 days rolling", "past 60 days running"])
def test_rolling_after_a_day_window_is_that_window(phrase: str) -> None:
    as_of = D(2026, 5, 15)
    assert _range(f"company c, {phrase}", as_of) == (D(2026, 3, 17), D(2026, 5, 16))


# --- glosses, lists, comparisons, month numbers ------------------------------------------------------------------
@pytest.mark.parametrize(("question", "expected"), [
    ("Kestrel MTD (May so far)", (D(2026, 5, 1), D(2026, 5, 16))),
    ("Gamma @ Company A, monthly trend FY25/26 (from 2025-07-01 through 2026-04-30)", (D(2025, 7, 1), D(2026, 5, 1))),
    ("which quarter was highest, Q3 25 / Q4 25 / Q1 26?", (D(2025, 7, 1), D(2026, 4, 1))),
    ("company C spend M11 2025", (D(2025, 11, 1), D(2025, 12, 1))),
    ("company C spend M3/2026", (D(2026, 3, 1), D(2026, 4, 1))),
])
def test_glosses_lists_and_month_numbers(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _range(question, D(2026, 5, 15)) == expected


def test_a_period_over_another_is_a_comparison() -> None:
    assert read_period_phrases("Company A Q4 2025 over Q3 2025, how much more", D(2026, 4, 1)) == (
        "Company A Q4 2025 vs Q3 2025, how much more")
    amounts = "invoices over 5000 EUR in Q4 2025"
    assert read_period_phrases(amounts, D(2026, 4, 1)) == amounts


@pytest.mark.parametrize("question", ["cable glands M12 connector set", "spend on M8 bolts 2025 pls",
                                      "Company A spend on cable glands M12 2025", "spend on M10 2025 nuts"])
def test_a_thread_size_is_no_month(question: str) -> None:
    resolved = resolve_period(read_period_phrases(question, D(2026, 5, 15)), D(2026, 5, 15))
    assert resolved.time_range is None or resolved.time_range.label == "2025"


@pytest.mark.parametrize(("question", "kept"), [
    ("Company B spend Q1 just gone by top level category", "by top level category"),
    ("invoice count Company A this FY to date cheers", "to date cheers"),
    ("Company A spend trailing three months, full months only by supplier", "months by supplier"),
])
def test_the_words_after_a_phrase_stay(question: str, kept: str) -> None:
    # (a breakdown or a sign-off after the phrase is the question's own: never eaten with the period)
    assert kept in read_period_phrases(question, D(2026, 4, 24))


# --- the invariants: a duration before one day, a unit named but unread ------------------------------------------
@pytest.mark.parametrize("question", ["spend the 2 weeks thereafter 18 Oct 2025",
                                      "invoices 10 days around 3 March 2026",
                                      "Company B spend a fortnight beyond 1 Feb 2026"])
def test_a_duration_before_a_day_read_alone_is_named_back(question: str) -> None:
    resolved = resolve_period(question, D(2026, 5, 1))
    assert resolved.ambiguous and resolved.time_range is None, resolved


@pytest.mark.parametrize("question", ["duplicate invoices the quarter ahead of the audit", "spend this fortnight",
                                      "invoice count the financial year of the merger"])
def test_a_unit_named_as_the_period_but_unread_is_asked_about(question: str) -> None:
    resolved = resolve_period(question, D(2026, 5, 1))
    assert resolved.ambiguous and resolved.reason and "as a period" in resolved.reason


@pytest.mark.parametrize("question", ["which quarter had the most spend for Company A", "spend per quarter, Company B",
                                      "and the quarter before?", "who were the approved vendors for that quarter"])
def test_a_unit_as_a_grain_or_an_ask_is_no_period(question: str) -> None:
    assert not resolve_period(question, D(2026, 5, 1)).ambiguous


@pytest.mark.parametrize(("phrase", "expected"), [
    ("the quarter gone by", (D(2026, 1, 1), D(2026, 4, 1))), ("last fortnight", (D(2026, 3, 28), D(2026, 4, 11))),
    ("the past 2 fortnights", (D(2026, 3, 14), D(2026, 4, 11))), ("the month that was", (D(2026, 3, 1), D(2026, 4, 1))),
    ("the 3 weeks since 8 Oct 2025", (D(2025, 10, 8), D(2025, 10, 29)))])
def test_more_members_of_the_families(phrase: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _range(f"Company A spend {phrase}, thanks", D(2026, 4, 10)) == expected


@pytest.mark.parametrize("phrase", ["el ejercicio pasado", "l'exercice dernier", "vorig boekjaar",
                                    "förra räkenskapsåret", "last fin. yr"])
@pytest.mark.parametrize("start_month", [1, 7])
def test_a_previous_fiscal_year_in_other_languages(phrase: str, start_month: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCURA_FISCAL_YEAR_START_MONTH", str(start_month))
    as_of = D(2026, 8, 3)
    ends_in = fiscal_year_ending(as_of, start_month) - 1
    first = D(ends_in, 1, 1) if start_month == 1 else D(ends_in - 1, start_month, 1)
    assert _range(f"Company A spend {phrase}", as_of) == (first, D(first.year + 1, first.month, 1))


@pytest.mark.parametrize("question", ["Company B: which was the strongest quarter, Q3-25, Q4-25 or Q1-26",
                                      "what was the weakest month - Oct 2025, Nov 2025 or Dec 2025?",
                                      "which quarter had the most spend, Q3 2025 / Q4 2025 / Q1 2026"])
def test_periods_offered_to_choose_from_are_one_span(question: str) -> None:
    got = _range(question, D(2026, 5, 15))
    assert got is not None and got[0] < got[1] - dt.timedelta(days=60), got


def test_two_periods_joined_by_or_without_a_choice_stay_two() -> None:
    assert _range("Company A spend Q3 2025 or Q4 2025?", D(2026, 5, 15)) is None


@pytest.mark.parametrize("phrase", ["ytd (calendar)", "YTD (calendar year)", "year to date (calendar)"])
def test_a_calendar_note_after_ytd_is_the_year_to_date(phrase: str) -> None:
    assert _range(f"Company B {phrase} pls", D(2026, 2, 25)) == (D(2026, 1, 1), D(2026, 2, 26))


@pytest.mark.parametrize("count", [2, 6, 12])
def test_a_rolling_month_window_ends_at_the_as_of_date_whatever_its_count(count: int) -> None:
    as_of = D(2026, 3, 18)
    got = _range(f"Company A spend rolling {count} months", as_of)
    assert got is not None and got[1] == as_of + dt.timedelta(days=1)


@pytest.mark.parametrize(("phrase", "as_of", "start"), [
    ("total spend last 3 months rolling for Company A", D(2026, 3, 15), D(2025, 12, 16)),
    ("Company B spend past 6 months running", D(2026, 5, 20), D(2025, 11, 21)),
    ("company c, previous 2 months rolling, spend?", D(2026, 4, 10), D(2026, 2, 11))])
def test_rolling_after_a_month_window_still_ends_at_the_as_of_date(phrase: str, as_of: dt.date,
                                                                   start: dt.date) -> None:
    # the word after the window is kept as a rolling window, not dropped to the whole months before the as-of month
    assert _range(phrase, as_of) == (start, as_of + dt.timedelta(days=1))


def test_trailing_after_a_month_window_is_still_whole_months() -> None:
    assert _range("Company B spend last 3 months trailing", D(2026, 3, 15)) == (D(2025, 12, 1), D(2026, 3, 1))


@pytest.mark.parametrize("question", ["Company A, the 2 weeks from 1.5", "Kestrel spend, 3 days from 2.5 please",
                                      "Company B prices over EUR from 1.5 to today"])
def test_a_yearless_dotted_pair_without_its_range_or_beside_an_amount_is_no_day(question: str) -> None:
    # "1.5" may be an amount: a year-less d.m is a day only after an opener and before a range word to today
    assert _range(question, D(2026, 5, 20)) is None


def test_a_yearless_dotted_day_from_an_opener_to_today_is_a_day() -> None:
    assert _range("Company A spend from 15.3 to today", D(2026, 5, 20)) == (D(2026, 3, 15), D(2026, 5, 21))
