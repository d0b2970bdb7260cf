"""Periods in Italian, Dutch, Portuguese and Spanish words, numeric and spoken forms (router/period_words.py,
router/spoken.py, router/periods.py).

Metamorphic: a period written with another language's month, ordinal, unit or relative word, another glue ("de",
"del", "van", "/"), another day notation or said aloud resolves to the same range as its English wording; a month
word no table knows is asked about by name, never read as the year beside it (a silent whole-year figure).
Slots vary over languages, months, days, years, ordinals, units and frames; a seeded bounded sample.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from router.german import read_german
from router.notation import read_notation
from router.period_words import period_words, read_period_words, unread_month_word
from router.periods import resolve_period
from router.spoken import spoken_forms

AS_OF = dt.date(2026, 5, 20)
SEED = 39
_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
       "November", "December")
_IT = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
       "novembre", "dicembre")
_NL = ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
       "november", "december")
_PT = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
       "novembro", "dezembro")
_ES = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
       "noviembre", "diciembre")
_LANGUAGES = {"it": _IT, "nl": _NL, "pt": _PT, "es": _ES}
#: How each language glues a month to its year and a day to its month.
_MONTH_YEAR = {"it": ("{m} {y}", "{m} del {y}", "{m}/{y}", "{m} '{yy}"), "nl": ("{m} {y}", "{m} '{yy}"),
               "pt": ("{m} de {y}", "{m}/{y}", "{m} {y}"), "es": ("{m} de {y}", "{m} {y}", "{m}/{y}")}
_DAY_MONTH_YEAR = {"it": ("{d} {m} {y}",), "nl": ("{d} {m} {y}",), "pt": ("{d} de {m} de {y}", "{d} {m} {y}"),
                   "es": ("{d} de {m} de {y}", "{d} {m} {y}")}
_FRAMES = ("what did Company A spend in {p}?", "Kestrel total spend {p}", "money spent {p} - Alpenland ??",
           "how much did we pay at Xenon in {p} pls", "{p}: invoices of Beta, how much in total")


def _read(question: str) -> tuple[dt.date, dt.date] | None:
    """The range the router reads: the notation pass (which writes the period words), the German pass (which reads
    the month words Dutch shares with German: "juni", "juli", "oktober"), then the period reader."""
    text = read_notation(question) or question
    text = read_german(text) or text
    resolved = resolve_period(text, AS_OF)
    if resolved.ambiguous or resolved.time_range is None:
        return None
    return resolved.time_range.start, resolved.time_range.end


def _month(year: int, month: int) -> tuple[dt.date, dt.date]:
    end = dt.date(year + month // 12, month % 12 + 1, 1)
    return dt.date(year, month, 1), end


def _month_cases(n: int) -> list[tuple[str, tuple[dt.date, dt.date]]]:
    rng = random.Random(SEED)
    out = []
    while len(out) < n:
        language = rng.choice(sorted(_LANGUAGES))
        year = rng.choice((2025, 2026))
        month = rng.randint(1, 12) if year == 2025 else rng.randint(1, 4)
        word = _LANGUAGES[language][month - 1]
        word = word.title() if rng.random() < 0.3 else word
        form = rng.choice(_MONTH_YEAR[language])
        period = form.format(m=word, y=year, yy=str(year)[2:])
        out.append((rng.choice(_FRAMES).format(p=period), _month(year, month)))
    return out


@pytest.mark.parametrize(("question", "expected"), _month_cases(20), ids=lambda v: str(v)[:50])
def test_a_month_in_another_language_is_that_month(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question) == expected, (question, read_notation(question))


def _day_range_cases(n: int) -> list[tuple[str, tuple[dt.date, dt.date]]]:
    """Ranges whose two ends use different notations: words of any language, a slashed or dotted day-first day."""
    rng = random.Random(SEED * 3)
    out = []
    while len(out) < n:
        language = rng.choice(sorted(_LANGUAGES))
        first = dt.date(2025, rng.randint(7, 12), rng.randint(1, 28))
        last = first + dt.timedelta(days=rng.randint(20, 120))
        worded = rng.choice(_DAY_MONTH_YEAR[language])
        a = worded.format(d=first.day, m=_LANGUAGES[language][first.month - 1], y=first.year)
        b = rng.choice((f"{last.day:02d}/{last.month:02d}/{last.year}", f"{last.day}/{last.month}/{last.year}",
                        worded.format(d=last.day, m=_LANGUAGES[language][last.month - 1], y=last.year)))
        a, b = (a, b) if rng.random() < 0.5 else (f"{first.day:02d}/{first.month:02d}/{first.year}", b)
        if "/" in a and "/" in b:
            b = worded.format(d=last.day, m=_LANGUAGES[language][last.month - 1], y=last.year)
        out.append((rng.choice(_FRAMES).format(p=f"{a} - {b}"), (first, last)))
    return out


@pytest.mark.parametrize(("question", "expected"), _day_range_cases(14), ids=lambda v: str(v)[:60])
def test_a_range_with_mixed_notations_is_read_whole(question: str, expected: tuple[dt.date, dt.date]) -> None:
    read = _read(question)
    if read_period_words(question) is None:
        # no word of another language ("december" is Dutch and English): a slashed day's order is unsettled, so the
        # range is asked about, never one end of it alone
        assert read is None or read[0] == expected[0], (question, read)
        return
    assert read is not None, (question, read_notation(question))
    # both ends read: never one day of it, a month or the year around it (the end may be included or not)
    assert read[0] == expected[0] and read[1] in (expected[1], expected[1] + dt.timedelta(days=1)), (
        question, read_notation(question), read)


_QUARTER_WORDS = {
    "it": ("{o} trimestre {y}", "{o} trimestre del {y}", "trimestre {n}/{y}", "trimestre {n} {y}",
           "{n}º trimestre {y}"),
    "nl": ("{o} kwartaal {y}", "{o} kwartaal van {y}", "kwartaal {n} {y}", "{n}e kwartaal {y}", "Kwartaal {n}/{y}"),
    "pt": ("{o} trimestre de {y}", "{n}º trimestre de {y}", "trimestre {n}/{y}", "{n}° trimestre {y}"),
    "es": ("{o} trimestre de {y}", "{n}º trimestre {y}", "trimestre {n}-{y}"),
}
_QUARTER_ORDINALS = {"it": ("primo", "secondo", "terzo", "quarto"), "nl": ("eerste", "tweede", "derde", "vierde"),
                     "pt": ("primeiro", "segundo", "terceiro", "quarto"), "es": ("primer", "segundo", "tercer",
                                                                                  "cuarto")}
_HALF_WORDS = {"it": ("{o} semestre {y}", "semestre {n} {y}"), "nl": ("{o} halfjaar {y}", "{o} helft van {y}"),
               "pt": ("{o} semestre de {y}", "{n}º semestre de {y}"), "es": ("{o} semestre de {y}",)}
_HALF_ORDINALS = {"it": ("primo", "secondo"), "nl": ("eerste", "tweede"), "pt": ("primeiro", "segundo"),
                  "es": ("primer", "segundo")}


@pytest.mark.parametrize("i", range(16))
def test_a_quarter_or_half_in_another_language_is_that_part(i: int) -> None:
    rng = random.Random(SEED * 5 + i)
    language = rng.choice(sorted(_LANGUAGES))
    year = rng.choice((2025, 2026))
    if i % 3:
        n = rng.randint(1, 4) if year == 2025 else 1
        period = rng.choice(_QUARTER_WORDS[language]).format(o=_QUARTER_ORDINALS[language][n - 1], n=n, y=year)
        expected = (dt.date(year, 3 * n - 2, 1), dt.date(year + (n == 4), (3 * n) % 12 + 1, 1))
    else:
        n = rng.randint(1, 2) if year == 2025 else 1
        period = rng.choice(_HALF_WORDS[language]).format(o=_HALF_ORDINALS[language][n - 1], n=n, y=year)
        expected = (dt.date(year, 6 * n - 5, 1), dt.date(year + (n == 2), (6 * n) % 12 + 1, 1))
    question = rng.choice(_FRAMES).format(p=period)
    assert _read(question) == expected, (question, read_notation(question))


@pytest.mark.parametrize(("question", "expected"), [
    ("Company A spend quarter 1/2026", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("who did Alpenland pay the most in half 2-2025", (dt.date(2025, 7, 1), dt.date(2026, 1, 1))),
    ("total money spent Xenon 3-2026", (dt.date(2026, 3, 1), dt.date(2026, 4, 1))),
    ("hi, spend 11-2025 - Kestrel", (dt.date(2025, 11, 1), dt.date(2025, 12, 1))),
    ("Kestrel feb/mar/apr 26 totals per month", (dt.date(2026, 2, 1), dt.date(2026, 5, 1))),
    ("Kestrel jan/feb 2026", (dt.date(2026, 1, 1), dt.date(2026, 3, 1))),
])
def test_numeric_forms_are_the_part_they_write(question: str, expected: tuple[dt.date, dt.date]) -> None:
    # "quarter 1/2026" is the first quarter, never January (the "1/2026" read alone as a month)
    assert _read(question) == expected, (question, read_notation(question))


@pytest.mark.parametrize(("foreign", "english"), [
    ("Company A: spend this kwartaal so far?", "Company A: spend this quarter so far?"),
    ("Company A spesa del mese scorso", "Company A spend last month"),
    ("Company B uitgaven vorige maand", "Company B spend last month"),
    ("Company B uitgaven vorig jaar", "Company B spend last year"),
    ("quanto abbiamo speso l'anno scorso con Beta", "how much did we spend last year with Beta"),
    ("Xenon gasto o mês passado", "Xenon spend last month"),
    ("Xenon gasto el año pasado", "Xenon spend last year"),
    ("Alpenland spend questo trimestre finora", "Alpenland spend this quarter so far"),
    ("Alpenland spend deze maand tot nu toe", "Alpenland spend this month so far"),
    ("Alpenland spend este trimestre até agora", "Alpenland spend this quarter so far"),
])
def test_a_relative_period_in_another_language_is_the_english_one(foreign: str, english: str) -> None:
    assert _read(foreign) == _read(english) is not None, (foreign, read_notation(foreign))


@pytest.mark.parametrize(("question", "base"), [
    ("did Xenon spend more or less in settembre '25 than il mese prima?", "the month before"),
    ("did Xenon spend more or less in september 2025 than de maand ervoor?", "the month before"),
    ("did Xenon spend more or less in setembro de 2025 than o mês anterior?", "the month before"),
    ("did Xenon spend more or less in settembre 2025 than il mese precedente?", "the month before"),
])
def test_the_month_before_in_another_language_is_written_in_english(question: str, base: str) -> None:
    text = period_words(question)
    assert base in text and "september" in text.casefold(), text


@pytest.mark.parametrize(("question", "expected"), [
    ("uitgaven van januari tot en met maart 2026", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("spesa da gennaio a marzo 2026", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("gasto de janeiro a março de 2026", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("spesa gennaio - marzo 2026", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
])
def test_a_month_range_in_another_language_is_that_range(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question) == expected, (question, read_notation(question))


@pytest.mark.parametrize("period", ["22 settembte 2025", "dezmbro/2025", "ottobr '25", "15 de dezmbro de 2025",
                                    "3 januarie 2026", "maarch 2026"])
def test_a_month_word_no_table_knows_is_asked_about_never_the_year(period: str) -> None:
    question = f"Kestrel total spend {period} - 11 March 2026"
    text = read_notation(question) or question
    resolved = resolve_period(text, AS_OF)
    assert resolved.time_range is None and resolved.ambiguous, (question, resolved)
    assert any(period.split()[0] in m for m in resolved.mentions), resolved
    assert unread_month_word(text) is not None


@pytest.mark.parametrize("question", [
    "Company A spend in Q1 2026", "money out 2025 with set 2025", "Marco spent 5 in 2025",
    "half 2 pallets and quarter 3 boxes in 2025", "from 03/05/2025 to 04/02/2025", "Company B spend last month",
    "Kestrel total spend 22 March 2026", "top 5 suppliers 2025",
])
def test_english_and_prose_stay_as_typed(question: str) -> None:
    assert read_period_words(question) is None


@pytest.mark.parametrize(("said", "written"), [
    ("what did kestrel spend in q for twenty twenty five", "Q4 2025"),
    ("kestrel q four twenty five versus q four twenty four", "Q4 2025 versus Q4 2024"),
    ("alpen land q four versus q three twenty six in euro", "Q4 versus Q3 2026"),
    ("kestrel total spend h two twenty five", "H2 2025"),
    ("spend q to twenty twenty six", "Q2 2026"),
])
def test_a_said_quarter_or_half_keeps_its_year(said: str, written: str) -> None:
    assert written in spoken_forms(said), spoken_forms(said)


@pytest.mark.parametrize("said", ["q for the team", "Q4 twenty five thousand euros", "h two twenty five invoices"])
def test_said_numbers_that_are_no_year_stay_numbers(said: str) -> None:
    assert "2025" not in spoken_forms(said), spoken_forms(said)


@pytest.mark.parametrize(("question", "expected"), [
    ("Company B total for monitoring products in 7/11/2025 - 9/1/2026", (dt.date(2025, 11, 7), dt.date(2026, 1, 9))),
    ("spend 1/2/2026 - 5/3/2026", (dt.date(2026, 2, 1), dt.date(2026, 3, 5))),
    ("spend 1/5/2026 - 3/6/2026", (dt.date(2026, 1, 5), dt.date(2026, 3, 6))),
])
def test_slashed_ranges_one_order_keeps_on_file_are_that_order(question: str,
                                                               expected: tuple[dt.date, dt.date]) -> None:
    # in the other order a day falls after the as-of date: a day no invoice carries yet
    resolved = resolve_period(question, dt.date(2026, 3, 30))
    assert resolved.time_range is not None, resolved
    assert (resolved.time_range.start, resolved.time_range.end) == expected
