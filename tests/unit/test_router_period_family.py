"""The period notation family (router/period_family.py): every order, separator, script and language of one period
reads as that period, and a part no calendar has is named back, never read as its year alone."""

from __future__ import annotations

import datetime as dt

import pytest

from router.notation import read_notation
from router.period_family import read_family_months, read_period_family
from router.periods import resolve_period
from router.romance import read_romance

AS_OF = dt.date(2026, 5, 15)


def _period(question: str, order: str | None = "day_first") -> tuple[dt.date, dt.date] | None:
    text = read_notation(question, ("Company A",), None, order, AS_OF) or question  # type: ignore[arg-type]
    # ("T3 2025", "2S 2025": the French and Spanish reader's codes, read after the notation as the router does)
    text = read_romance(text) or text
    resolved = resolve_period(text, AS_OF)
    if resolved.ambiguous or resolved.time_range is None:
        return None
    return resolved.time_range.start, resolved.time_range.end


Q3_2025 = (dt.date(2025, 7, 1), dt.date(2025, 10, 1))
H2_2025 = (dt.date(2025, 7, 1), dt.date(2026, 1, 1))


@pytest.mark.parametrize("written", [
    "2025 3Q", "3Q 2025", "3Q25", "3Q-2025", "3T 2025", "T3 2025", "2025 3T", "3º trimestre de 2025",
    "3er trimestre 2025", "3° tri 2025", "3. Quartal 2025", "III kwartał 2025", "III trimestre 2025",
    "2025年第3四半期", "２０２５年第３四半期", "3rd quarter of 2025", "2025, 3. kvartal",
])
def test_a_quarter_in_any_order_and_script_is_that_quarter(written: str) -> None:
    assert _period(f"buyer cost Company A {written}, total please") == Q3_2025


@pytest.mark.parametrize("written", [
    "2S 2025", "S2 2025", "2025 2S", "2H25", "2. Halbjahr 2025", "2º semestre de 2025", "2e semestre 2025",
    "II półrocze 2025", "2025年下半期", "2025年下期", "2nd half-year 2025",
])
def test_a_half_in_any_order_and_script_is_that_half(written: str) -> None:
    assert _period(f"outlay of Company A in {written}?") == H2_2025


@pytest.mark.parametrize(("written", "period"), [
    ("2025.10", (dt.date(2025, 10, 1), dt.date(2025, 11, 1))),
    ("2025/10", (dt.date(2025, 10, 1), dt.date(2025, 11, 1))),
    ("2025年10月", (dt.date(2025, 10, 1), dt.date(2025, 11, 1))),
    ("２０２５年１０月", (dt.date(2025, 10, 1), dt.date(2025, 11, 1))),
    ("2025.10.07", (dt.date(2025, 10, 7), dt.date(2025, 10, 8))),
    ("2025/10/07", (dt.date(2025, 10, 7), dt.date(2025, 10, 8))),
    ("2025年10月7日", (dt.date(2025, 10, 7), dt.date(2025, 10, 8))),
    ("leden 2026", (dt.date(2026, 1, 1), dt.date(2026, 2, 1))),
    ("ianuarie 2026", (dt.date(2026, 1, 1), dt.date(2026, 2, 1))),
    ("ocak 2026", (dt.date(2026, 1, 1), dt.date(2026, 2, 1))),
    ("CY25", (dt.date(2025, 1, 1), dt.date(2026, 1, 1))),
])
def test_year_first_months_and_days_and_month_words(written: str, period: tuple[dt.date, dt.date]) -> None:
    assert _period(f"Company A spend {written}") == period


@pytest.mark.parametrize("connector", ["~", "～", "〜", " ~ ", "-", " a ", " bis ", " do ", " až ", " până ",
                                       " hasta "])
@pytest.mark.parametrize(("first", "last"), [("2025/08", "2025/11"), ("2025.08", "2025.11"), ("aug/25", "nov/25"),
                                             ("08.2025", "11.2025")])
def test_a_range_of_months_with_any_connector_is_read_whole(connector: str, first: str, last: str) -> None:
    assert _period(f"Company A spend {first}{connector}{last}") == (dt.date(2025, 8, 1), dt.date(2025, 12, 1))


@pytest.mark.parametrize("written", ["2025年8月～11月", "2025 8~11月", "2025年8月〜2025年11月", "08/25-11/25 incl.",
                                     "2025/08/01 ~ 2025/11/30", "Ağustos 2025'ten Kasım 2025'e kadar"])
def test_cjk_and_short_month_ranges(written: str) -> None:
    assert _period(f"freight cost Company A {written}") == (dt.date(2025, 8, 1), dt.date(2025, 12, 1))


@pytest.mark.parametrize(("written", "fiscal"), [
    ("no ano até agora", False), ("en el año hasta hoy", False), ("dieses Jahr bis heute", False),
    ("w tym roku do dziś", False), ("del ejercicio hasta hoy", True), ("de l'exercice jusqu'à aujourd'hui", True),
    ("this year so far", False),
])
def test_to_date_phrases_of_the_languages(written: str, fiscal: bool) -> None:
    text = read_period_family(f"Company A gasto {written}")
    assert ("fiscal year to date" in text) == fiscal
    assert "year to date" in text or "so far" in text


def test_from_a_year_first_day_until_today() -> None:
    assert _period("credit notes Company A from 2026/01/05 until today") == (dt.date(2026, 1, 5), dt.date(2026, 5, 16))


@pytest.mark.parametrize("written", ["5Q 2025", "2025 7T", "3S 2025", "2025 3S"])
def test_a_part_no_calendar_has_is_never_its_year_alone(written: str) -> None:
    assert _period(f"Company A spend {written}") is None


@pytest.mark.parametrize("text", [
    "invoices over 2025.10 EUR", "EUR 2025.10 total", "top 3 suppliers 2025", "invoices above 1k 2025",
    "Q1 2026 vs Q4 2025", "2 suppliers in 2025", "part no. 2025.1 Company A",
])
def test_amounts_counts_and_the_readers_own_notation_stay_as_typed(text: str) -> None:
    assert read_family_months(read_period_family(text, "day_first", AS_OF), AS_OF) == text


def test_a_month_first_tenants_days_are_no_month_range() -> None:
    assert read_period_family("spend 07/25-07/28", "month_first", AS_OF) == "spend 07/25-07/28"


@pytest.mark.parametrize("connector", ["-", "–", "~", "～", " to ", " a ", " bis "])
@pytest.mark.parametrize(("first", "last"), [("Aug", "Nov"), ("August", "November"), ("agosto", "noviembre"),
                                             ("août", "novembre"), ("sierpień", "listopad")])
@pytest.mark.parametrize("bracket", [False, True])
def test_month_words_after_their_year(connector: str, first: str, last: str, bracket: bool) -> None:
    months = f"({first}{connector}{last})" if bracket else f"{first}{connector}{last}"
    assert _period(f"Company A spend for 2025 {months} please") == (dt.date(2025, 8, 1), dt.date(2025, 12, 1))


def test_a_year_then_months_so_far_runs_to_the_as_of_date() -> None:
    assert _period("Company A spend 2026 Apr–May so far") == (dt.date(2026, 4, 1), dt.date(2026, 5, 16))


@pytest.mark.parametrize("text", ["spend 2025 dec 15", "spend 2025 may 2026"])
def test_a_year_then_a_month_and_another_number_is_not_guessed(text: str) -> None:
    assert _period(text) is None


@pytest.mark.parametrize("connector", [" ~ ", "～", " - ", " to "])
def test_two_year_first_months_make_one_range(connector: str) -> None:
    assert _period(f"approved vendors of Company A for 2025 Nov{connector}2026 Mar?") == (
        dt.date(2025, 11, 1), dt.date(2026, 4, 1))


@pytest.mark.parametrize("written", ["2026/01~03", "2026.01 ~ 03", "2026/1~3月", "2026.1〜3月", "2026/01 to 03"])
def test_a_year_first_month_range_with_its_end_month_alone(written: str) -> None:
    assert _period(f"Company A spend {written}") == (dt.date(2026, 1, 1), dt.date(2026, 4, 1))
