"""Fiscal period numbers ("P04 FY26", "FY25 M8", "P10-P12 FY25", "P12 2025") are one month or a run of months of
the fiscal year, never the whole year around them; a period number left unread is named back (the period-coverage
invariant); "per P" / "by period" is the month grain. Slots vary: the mark (P, M, period), zero padding, the
year's spelling and side, the run's glue, the frame around it, the fiscal-year start."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest

from router.breakdown_words import read_breakdown_words
from router.date_tokens import unread_date_tokens
from router.fiscal_periods import fiscal_period_range
from router.periods import resolve_period

AS_OF = dt.date(2026, 6, 15)
MARKS = ("P{n:02d}", "P{n}", "M{n}", "m{n:02d}", "period {n}", "fiscal month {n}")
YEARS = (("FY25", 2025), ("FY2025", 2025), ("fy 25", 2025), ("FY'26", 2026), ("fiscal 2026", 2026), ("2025", 2025))
FRAMES = ("what did Orion Tools spend {p}?", "{p}: top 3 vendors of Helio Works", "invoice count for Vega AG in {p}",
          "net spend Lyra Foods ({p}), excl VAT", "approved suppliers of Nova Ltd {p}")


def _month(year: int, number: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, number, 1)
    return start, dt.date(year + number // 12, number % 12 + 1, 1)


# (an M number beside a plain year is no period number: "cable glands M12 2025", test below)
@pytest.mark.parametrize("mark,year,frame,number,after", random.Random(47).sample(
    [c for c in itertools.product(MARKS, YEARS, FRAMES, range(1, 13), (True, False))
     if not (c[0].lower().startswith("m") and c[1][0].isdigit())], 20))
def test_one_period_number_is_that_month(mark: str, year: tuple[str, int], frame: str, number: int,
                                         after: bool) -> None:
    part = mark.format(n=number)
    words = f"{part} {year[0]}" if after else f"{year[0]} {part}"
    got = resolve_period(frame.format(p=words), AS_OF)
    assert got.time_range is not None, got.reason
    assert (got.time_range.start, got.time_range.end) == _month(year[1], number)


@pytest.mark.parametrize("words,start,end", [
    ("P10-P12 FY25", dt.date(2025, 10, 1), dt.date(2026, 1, 1)),
    ("P10-12 FY25", dt.date(2025, 10, 1), dt.date(2026, 1, 1)),
    ("FY26 P01–P03", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("M1 to M3 of FY2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("FY25 P07..P09", dt.date(2025, 7, 1), dt.date(2025, 10, 1)),
    ("P02 through P04 2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1)),
])
def test_a_run_of_period_numbers_is_their_months(words: str, start: dt.date, end: dt.date) -> None:
    got = resolve_period(FRAMES[len(words) % len(FRAMES)].format(p=words), AS_OF)
    assert got.time_range is not None and (got.time_range.start, got.time_range.end) == (start, end)


@pytest.mark.parametrize("start_month", [1, 4, 7, 10])
@pytest.mark.parametrize("number", [1, 6, 12])
def test_periods_count_from_the_fiscal_year_start(start_month: int, number: int) -> None:
    got = resolve_period(f"spend of Kappa GmbH P{number:02d} FY26", AS_OF, fiscal_start_month=start_month)
    year_start = dt.date(2026, 1, 1) if start_month == 1 else dt.date(2025, start_month, 1)
    index = year_start.year * 12 + year_start.month - 1 + number - 1
    assert got.time_range is not None
    assert got.time_range.start == dt.date(index // 12, index % 12 + 1, 1)
    whole = fiscal_period_range(2026, 1, 12, start_month, "P01-P12 FY26")
    assert (whole.start, whole.end) == (year_start, dt.date(year_start.year + 1, year_start.month, 1))


@pytest.mark.parametrize("words", ["P13 FY25", "M0 FY26", "P12-P10 FY25", "period 14 of FY2025"])
def test_a_number_no_year_has_is_asked_about(words: str) -> None:
    got = resolve_period(f"what did Orion Tools spend {words}?", AS_OF)
    assert got.time_range is None and got.ambiguous


@pytest.mark.parametrize("question,token", [
    ("Orion spend P03 and P04 FY26", "P03"),
    ("Orion spend FY25 P07 and M8", "M8"),
    ("Orion spend P5 for Vega in 2025", "P5"),
    ("spend in 2025 for Lyra, P11 only", "P11"),
])
def test_a_period_number_left_unread_is_named(question: str, token: str) -> None:
    got = resolve_period(question, AS_OF)
    assert got.time_range is None and got.ambiguous and token in " ".join(got.mentions)


@pytest.mark.parametrize("question", [
    "Company A spend on cable glands M12 2025",  # review probe: was December 2025
    "Company A spend on M10, 2025",  # review probe: was October 2025
    "Vega spend 2025 M6 screws",
    "Lyra spend on M8 2026 hex bolts",
])
def test_an_m_size_beside_a_plain_year_is_no_fiscal_month(question: str) -> None:
    # "M12" beside a plain year is as often a thread or gland size: never one month of that year, silently (the
    # year with the size named is asked about); "P12 2025" and "FY25 M8" are the controllers' notation
    got = resolve_period(question, AS_OF)
    if got.time_range is not None:
        assert (got.time_range.end - got.time_range.start).days > 31, got.time_range
    else:
        assert got.ambiguous


@pytest.mark.parametrize("words,year", [("FY25 M8", 2025), ("M8 FY25", 2025), ("fiscal 2025 M8", 2025),
                                        ("M8 of FY2026", 2026), ("P08 2025", 2025), ("2026 P8", 2026)])
def test_an_m_number_with_a_fiscal_year_word_is_that_month(words: str, year: int) -> None:
    got = resolve_period(f"what did Orion Tools spend {words}?", AS_OF)
    assert got.time_range is not None and (got.time_range.start, got.time_range.end) == _month(year, 8)


@pytest.mark.parametrize("question", ["M8 bolts bought by Vega in 2025", "spend Q3 2025 for Lyra",
                                      "Orion P&L spend 2025"])
def test_other_letters_and_numbers_are_no_period_number(question: str) -> None:
    got = resolve_period(question, AS_OF)
    assert got.time_range is not None and not got.ambiguous


@pytest.mark.parametrize("grain", ["per P", "by period", "by fiscal month", "per period"])
@pytest.mark.parametrize("before", ["Helio Works spend FY25 Q3", "Vega Q4 2025 spend"])
def test_the_period_grain_is_the_month(grain: str, before: str) -> None:
    assert read_breakdown_words(f"{before} {grain}") == f"{before} by month"


def test_a_period_named_by_number_is_no_grain() -> None:
    assert read_breakdown_words("Helio Works spend by period 7 FY25") is None


@pytest.mark.parametrize("token", ["2025-10", "202510", "10/2025", "Q3/25", "3Q25", "2025Q3", "H2-25", "P07",
                                   "P10-P12", "2026-03-15"])
@pytest.mark.parametrize("frame", ["spend of Vega {t} please", "{t}: Lyra invoices", "Orion (see {t}) total"])
def test_a_date_token_no_reading_consumed_is_left(token: str, frame: str) -> None:
    text = frame.format(t=token)
    at = text.index(token)
    assert unread_date_tokens(text, [(0, at)]) == [(token, (at, at + len(token)))]
    assert unread_date_tokens(text, [(at, at + len(token))]) == []


@pytest.mark.parametrize("text", ["invoice INV-2025-0503 of Vega", "amount 1.202.510,00 EUR", "code PRD-202510",
                                  "Vega spend 2025", "P&L of Orion", "Vega M8 bolts", "part no. 2025-ABC"])
def test_codes_amounts_and_bare_years_are_no_date_tokens(text: str) -> None:
    assert unread_date_tokens(text, []) == []


@pytest.mark.parametrize("frame,year,month", [("n_invoices where company=vega and period={t}", 2025, 10),
                                               ("list invoices | Orion | {t}", 2026, 3),
                                               ('{{"company": "Lyra", "period": "{t}"}}', 2024, 12),
                                               ("Vega spend {t}", 2026, 1)])
def test_the_iso_basic_month_is_that_month(frame: str, year: int, month: int) -> None:
    got = resolve_period(frame.format(t=f"{year}{month:02d}"), AS_OF)
    assert got.time_range is not None and (got.time_range.start, got.time_range.end) == _month(year, month)


@pytest.mark.parametrize("text", ["invoices over 202512", "invoices above 202512 EUR", "amount>202510",
                                  "order 2025131 of Vega"])
def test_six_digit_amounts_are_no_month(text: str) -> None:
    got = resolve_period(text, AS_OF)
    assert got.time_range is None or got.time_range.end - got.time_range.start > dt.timedelta(days=40)


@pytest.mark.parametrize("key,value", [("plant_id", "'P02'"), ("cost_center", "P07"), ("line", '"P11"'),
                                       ("site_code:", "P03")])
def test_the_value_of_a_key_naming_no_time_is_no_date_token(key: str, value: str) -> None:
    text = f"Vega spend 2025-H2, filter {key} = {value}" if not key.endswith(":") else f"Vega 2025-H2 {key} {value}"
    assert unread_date_tokens(text, []) == [] or all(t[0] == "2025-H2" for t in unread_date_tokens(text, []))
    got = resolve_period(text, AS_OF)
    assert got.time_range is not None and got.time_range.label == "2025-H2"


@pytest.mark.parametrize("key", ["period", "fiscal_period", "month"])
def test_the_value_of_a_time_key_is_a_date_token(key: str) -> None:
    assert unread_date_tokens(f"Vega spend {key}=P07", []) == [("P07", (len(f"Vega spend {key}="),
                                                                        len(f"Vega spend {key}=P07")))]


JUNE_2026 = (dt.date(2026, 6, 1), dt.date(2026, 7, 1))
YEAR_2025 = (dt.date(2025, 1, 1), dt.date(2026, 1, 1))


@pytest.mark.parametrize("text,period,left", [
    ("suppliers of Vega from Feb. to June 2026", JUNE_2026, "Feb"),
    ("Orion: février à juin 2026", JUNE_2026, "février"),
    ("Lyra spend Feb in Q3 2025", (dt.date(2025, 7, 1), dt.date(2025, 10, 1)), "Feb"),
    ("Vega październik, spend in 2025 June", YEAR_2025, None),
    ("Vega spend last year (2025)", YEAR_2025, None),
    ("Vega spend two months ago (june)", JUNE_2026, None),
    ("Vega spend in June, dated in Q4 but posted 2026", JUNE_2026, None),
    ("Vega spend over 2026 EUR in June 2026", JUNE_2026, None),
])
def test_a_year_or_month_word_outside_the_period_read_is_left(text: str, period: tuple[dt.date, dt.date],
                                                               left: str | None) -> None:
    got = [t for t, _ in unread_date_tokens(text, [], period)]
    if left is None:
        assert got == []
    else:
        assert got and got[0].startswith(left)


@pytest.mark.parametrize("word", ["gen", "mag", "sty", "ott", "may", "march"])
def test_month_words_that_are_everyday_words_are_no_tokens(word: str) -> None:
    assert unread_date_tokens(f"Vega spend {word} list June 2026", [], JUNE_2026) == []


@pytest.mark.parametrize("words", ["Periode 7 GJ 2025", "P07 des Geschäftsjahres 2025", "période 07 de l'exercice 2025",
                                   "periodo 7 del ejercicio 2025", "periodo 7 dell'esercizio 2025",
                                   "P07 boekjaar 2025", "P7 räkenskapsår 2025", "okres 7 roku obrotowego 2025",
                                   "kausi 7 tilikausi 2025", "regnskabsår 2025 P07"])
def test_period_numbers_in_other_languages(words: str) -> None:
    got = resolve_period(f"Vega: {words}", AS_OF)
    assert got.time_range is not None and (got.time_range.start, got.time_range.end) == _month(2025, 7)


@pytest.mark.parametrize("text", ["Company A spend in FY2025 M12 connector set excluded",
                                  "FY26 M8 cable gland kit spend", "fiscal 2025 M20 hex bolts for Orion"])
def test_an_m_number_starting_a_noun_phrase_is_a_size_not_a_fiscal_month(text: str) -> None:
    # "M12 connector set" is a product's size or thread: read as the fiscal month it would narrow the year silently
    from router.fiscal_periods import FISCAL_PERIOD
    assert FISCAL_PERIOD.search(text) is None, text


@pytest.mark.parametrize("text", ["FY25 M8 spend for Orion", "ex-VAT burn FY25 M8 - Orion", "FY26 M2 approved list"])
def test_an_m_number_before_a_period_word_stays_a_fiscal_month(text: str) -> None:
    from router.fiscal_periods import FISCAL_PERIOD
    assert FISCAL_PERIOD.search(text) is not None, text
