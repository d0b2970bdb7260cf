"""Period notation families (router/period_grammar.py, router/period_words.py, router/periods.py).

Metamorphic: two period atoms joined by any range sign or word of the table ("..", "→", "to and with", "t/m",
"till och med", "od ... do") resolve to the one range "from A through B"; a quarter, half or month written in
another language, word order or notation ("the quarter third of 2025", "2025 second half year", "3. kvartal
2025", "drugie półrocze 2025", "mars 26") resolves to its English wording; relative and to-date words of other
languages resolve to the English relative period. A numbered part whose unit word no table knows, beside a year,
is asked about, never read as the whole year. Slots vary over notations, languages, years, months and frames.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from router.german import read_german
from router.notation import read_notation
from router.period_words import unread_part_word
from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 20)
SEED = 47
_FRAMES = ("what did Company A spend in {p}?", "Kestrel total spend {p}", "{p}: invoices of Beta, how much",
           "count of invoices per supplier, company b, {p}", "spend with Orbis over {p} pls")
_EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December")


def _read(question: str, as_of: dt.date = AS_OF) -> tuple[dt.date, dt.date] | None:
    text = read_notation(question) or question
    text = read_german(text) or text
    resolved = resolve_period(text, as_of)
    if resolved.ambiguous or resolved.time_range is None:
        return None
    return resolved.time_range.start, resolved.time_range.end


def _month(year: int, month: int) -> tuple[dt.date, dt.date]:
    return dt.date(year, month, 1), dt.date(year + month // 12, month % 12 + 1, 1)


def _months_between(rng: random.Random) -> tuple[tuple[int, int], tuple[int, int]]:
    start = rng.randrange(2024 * 12, 2026 * 12 - 6)
    end = start + rng.randrange(1, 9)
    return (start // 12, start % 12 + 1), (end // 12, end % 12 + 1)


# --- ranges: two atoms and a range sign or word are one range -------------------------------------------------

_MONTH_ATOMS = (lambda y, m: f"{y}-{m:02d}", lambda y, m: f"{_EN_MONTHS[m - 1]} {y}",
                lambda y, m: f"{m}/{y}")
_CONNECTORS = ("..", "...", "→", " → ", " to and with ", " up to and with ", " t/m ", " till och med ",
               " til og med ", " tot en met ")


def _month_range_cases() -> list[tuple[str, tuple[dt.date, dt.date]]]:
    rng = random.Random(SEED)
    cases = []
    for connector in _CONNECTORS:
        for _ in range(2):
            (ya, ma), (yb, mb) = _months_between(rng)
            atom = rng.choice(_MONTH_ATOMS)
            period = f"{atom(ya, ma)}{connector}{atom(yb, mb)}"
            cases.append((rng.choice(_FRAMES).format(p=period), (dt.date(ya, ma, 1), _month(yb, mb)[1])))
    return cases


@pytest.mark.parametrize(("question", "expected"), _month_range_cases())
def test_month_atoms_joined_by_any_range_word_are_one_range(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question) == expected


@pytest.mark.parametrize("connector", ["..", "→", " thru ", " to and with "])
@pytest.mark.parametrize(("a", "b", "expected"), [
    ("2025-Q2", "2025-Q4", (dt.date(2025, 4, 1), dt.date(2026, 1, 1))),
    ("2024Q4", "2025Q1", (dt.date(2024, 10, 1), dt.date(2025, 4, 1))),
    ("Q2-2025", "Q1-2026", (dt.date(2025, 4, 1), dt.date(2026, 4, 1))),
    ("2025-H1", "2025-H2", (dt.date(2025, 1, 1), dt.date(2026, 1, 1))),
])
def test_quarter_atoms_in_query_notation_joined_are_one_range(connector: str, a: str, b: str,
                                                              expected: tuple[dt.date, dt.date]) -> None:
    assert _read(f"rank suppliers by spend, comp b, {a}{connector}{b}") == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("spend od lutego do kwietnia 2026", (dt.date(2026, 2, 1), dt.date(2026, 5, 1))),
    ("spend från februari till och med april 2026", (dt.date(2026, 2, 1), dt.date(2026, 5, 1))),
    ("spend fra marts til og med maj 2026", (dt.date(2026, 3, 1), dt.date(2026, 6, 1))),
    ("spend between the month of November 2025 and 02/2026", (dt.date(2025, 11, 1), dt.date(2026, 3, 1))),
    ("volume entre le mois de novembre 2025 et 02/2026 inclus", (dt.date(2025, 11, 1), dt.date(2026, 3, 1))),
    ("monthly spend Feb→May 2026", (dt.date(2026, 2, 1), dt.date(2026, 6, 1))),
])
def test_ranges_in_other_languages_and_signs(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question, dt.date(2026, 6, 15)) == expected


@pytest.mark.parametrize("start", ["1er février", "1 February", "février", "February"])
@pytest.mark.parametrize("glue", [("depuis le", "jusqu'à aujourd'hui"), ("from", "till today"),
                                  ("from", "until now")])
def test_a_start_without_year_up_to_today_is_the_latest_such_start(start: str, glue: tuple[str, str]) -> None:
    opening, now = glue
    if opening == "from" and start.startswith(("1er", "f")):
        opening = "depuis le" if start.startswith("1er") else "depuis"
    question = f"total company a {opening} {start} {now}"
    assert _read(question) == (dt.date(2026, 2, 1), AS_OF + dt.timedelta(days=1))


# --- parts of a year in other words and orders ----------------------------------------------------------------

_ORDINAL_WORDS = {1: ("first", "pierwszy", "första", "første", "ensimmäinen"),
                  2: ("second", "drugi", "andra", "anden", "toinen"),
                  3: ("third", "trzeci", "tredje", "kolmas"),
                  4: ("fourth", "czwarty", "fjärde", "fjerde", "neljäs")}
_QUARTER_UNITS = ("kvartal", "kwartał", "kwartal", "kvartalet", "kvartaali", "neljännes")
_HALF_UNITS = ("halvår", "półrocze", "polrocze", "half year", "half-year")


def _part_cases() -> list[tuple[str, tuple[dt.date, dt.date]]]:
    rng = random.Random(SEED + 1)
    cases = []
    for _ in range(16):
        half = rng.random() < 0.35
        number = rng.randint(1, 2 if half else 4)
        unit = rng.choice(_HALF_UNITS if half else _QUARTER_UNITS)
        year = rng.choice((2024, 2025))
        word = rng.choice(_ORDINAL_WORDS[number])
        months = 6 if half else 3
        start = dt.date(year, months * number - months + 1, 1)
        end = dt.date(year + (start.month + months - 1) // 12, (start.month + months - 1) % 12 + 1, 1)
        form = rng.choice((f"{word} {unit} {year}", f"the {unit} {word} of {year}", f"{year} {word} {unit}",
                           f"{number}. {unit} {year}", f"{number} {unit} {year}", f"in {year} {word} {unit}"))
        cases.append((rng.choice(_FRAMES).format(p=form), (start, end)))
    return cases


@pytest.mark.parametrize(("question", "expected"), _part_cases())
def test_parts_of_a_year_in_any_order_and_language(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question) == expected


@pytest.mark.parametrize("question", ["group by quarter first, then supplier", "sort by half second column",
                                      "top 3 suppliers 2025 by quarter"])
def test_unit_and_ordinal_without_a_year_are_no_part(question: str) -> None:
    text = read_notation(question) or question
    assert "Q1" not in text and "H2" not in text and "Q3" not in text


# --- months in more languages ---------------------------------------------------------------------------------

_MONTHS = {"pl": ("styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień", "wrzesień",
                  "październik", "listopad", "grudzień"),
           "pl_ascii": ("styczen", "lutego", "marca", "kwiecien", "maja", "czerwca", "lipca", "sierpien", "wrzesien",
                        "pazdziernik", "listopada", "grudzien"),
           "sv": ("januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
                  "november", "december"),
           "fi": ("tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuussa", "kesäkuu", "heinäkuu", "elokuu",
                  "syyskuu", "lokakuun", "marraskuu", "joulukuu"),
           "no": ("januar", "februar", "mars", "april", "mai", "juni", "juli", "august", "september", "oktober",
                  "november", "desember")}


def _month_cases() -> list[tuple[str, tuple[dt.date, dt.date]]]:
    rng = random.Random(SEED + 2)
    cases = []
    for language, words in _MONTHS.items():
        for _ in range(2):
            month = rng.randint(1, 12)
            year = rng.choice((2024, 2025))
            cases.append((rng.choice(_FRAMES).format(p=f"{words[month - 1]} {year}") + f" [{language}]",
                          _month(year, month)))
    return cases


@pytest.mark.parametrize(("question", "expected"), _month_cases())
def test_month_words_of_more_languages_with_their_year(question: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(question.rsplit(" [", 1)[0]) == expected


@pytest.mark.parametrize(("word", "month", "yy"), [("mars", 3, 24), ("avr.", 4, 25), ("mai", 5, 25), ("juil.", 7, 24),
                                                   ("sept.", 9, 25), ("nov.", 11, 24), ("déc.", 12, 25),
                                                   ("kwiecień", 4, 24), ("okt", 10, 25)])
def test_month_word_with_a_two_digit_year(word: str, month: int, yy: int) -> None:
    assert _read(f"total des avoirs Cie B pour {word} {yy} ?") == _month(2000 + yy, month)
    assert _read(f"Ypsilon {word} {yy}: combien en EUR ?") == _month(2000 + yy, month)


@pytest.mark.parametrize("question", ["mars 26 invoices over 20 EUR", "mai 25 %"])
def test_month_word_before_an_amount_or_count_is_no_year(question: str) -> None:
    text = read_notation(question) or question
    assert "2026" not in text and "2025" not in text


# --- relative periods and periods to date ---------------------------------------------------------------------

_LAST = ("last", "förra", "forrige", "ubiegły", "zeszły", "viime", "sidste")
_UNITS = {"quarter": ("kvartal", "kwartał", "kvartalet"), "month": ("månad", "måned", "miesiąc"),
          "year": ("år", "rok")}


@pytest.mark.parametrize("unit", sorted(_UNITS))
def test_last_unit_in_other_languages(unit: str) -> None:
    expected = _read(f"spend company a last {unit}")
    assert expected is not None
    rng = random.Random(f"{SEED}{unit}")
    for last in _LAST:
        assert _read(f"how much spent company a {last} {rng.choice(_UNITS[unit])}?") == expected


@pytest.mark.parametrize(("form", "unit"), [("the {u} before this one", "month"),
                                           ("the {u} before the current one", "quarter"),
                                           ("last calendar {u}", "month"), ("the {u} just before this one", "year")])
def test_the_unit_before_this_one_is_the_last_unit(form: str, unit: str) -> None:
    assert _read(f"spend Company C {form.format(u=unit)}") == _read(f"spend Company C last {unit}")


@pytest.mark.parametrize("question", ["spend since new year till today", "spend since the new year",
                                      "how many invoices since New Year's Day until now",
                                      "dépenses depuis le début de l'année", "cumul de l'année chez Cie A",
                                      "spend od początku roku", "spend sedan årets början"])
def test_year_to_date_words(question: str) -> None:
    assert _read(question) == (dt.date(2026, 1, 1), AS_OF + dt.timedelta(days=1))


@pytest.mark.parametrize("question", ["dépenses Cie A ce mois-ci jusqu'ici", "total du mois en cours à date",
                                      "spend this month so far", "ce mois ci jusqu'à présent"])
def test_month_to_date_words(question: str) -> None:
    assert _read(question) == (dt.date(2026, 5, 1), AS_OF + dt.timedelta(days=1))


@pytest.mark.parametrize(("code", "unit"), [("LM", "month"), ("LQ", "quarter"), ("LY", "year")])
def test_capital_codes_of_the_last_unit(code: str, unit: str) -> None:
    assert _read(f"what did kestrel get invoiced {code} (EUR)?") == _read(f"spend last {unit}")
    assert "last" not in (read_notation(f"spend with {code.lower()} logistics") or "")


@pytest.mark.parametrize("code", ["LM", "LQ", "LY"])
@pytest.mark.parametrize("name", ["Kestrel {}:", "kestrel {}:", "Delta Paper {}", "ACME {}", "kestrel {} GmbH"])
def test_a_code_after_a_name_is_its_initials(code: str, name: str) -> None:
    # "Kestrel LM" is Kestrel Lebensmittel: no second period beside the one written
    assert "last" not in (read_notation(name.format(code) + " spend 11/2025 vs. 10/2025") or "")


@pytest.mark.parametrize("head", ["all time to", "all periods thru", "all time up to", "ever -"])
def test_everything_up_to_a_day(head: str) -> None:
    found = _read(f"sum(units) of PRD-123, company A, {head} 2026-03-31")
    assert found is not None and found[1] == dt.date(2026, 4, 1) and found[0] < dt.date(2000, 1, 1)


@pytest.mark.parametrize("remark", ["(jul-dec data only)", "(jul-dec is all we have)", "(H2 is what we have)"])
@pytest.mark.parametrize("period", ["FY2025", "2025"])
def test_a_coverage_remark_is_no_second_period(period: str, remark: str) -> None:
    assert _read(f"vat total for kestrel, {period} {remark}") == (dt.date(2025, 1, 1), dt.date(2026, 1, 1))


# --- the invariant: a part word no table knows is asked about -------------------------------------------------

@pytest.mark.parametrize(("word", "number"), [("kvartil", "2."), ("kwartil", "3"), ("polroku", "1st"),
                                             ("puolivuosi", "2"), ("semestr", "1."), ("cuatrimestre", "2"),
                                             ("trimestr", "3rd"), ("quartier", "2")])
def test_an_unknown_part_word_beside_a_year_is_asked_about(word: str, number: str) -> None:
    question = f"Company B spend {number} {word} 2025"
    assert unread_part_word(question) is not None
    resolved = resolve_period(read_notation(question) or question, AS_OF)
    assert resolved.ambiguous and resolved.time_range is None


@pytest.mark.parametrize("question", ["top 3 suppliers 2025", "the 2 helix invoices 2025", "spend 3 quarters 2025",
                                      "first 2 sensors 2025"])
def test_counted_things_beside_a_year_are_no_part(question: str) -> None:
    assert unread_part_word(question) is None


@pytest.mark.parametrize("question", ["Company A spend on the top 3 polymers 2025",
                                      "Company A spend on 3 semiconductors 2025", "Company B spend 2 quality 2025",
                                      "spend on the 3 triggers 2025", "the 2 quartz 2025"])
def test_words_only_beginning_like_a_part_word_are_no_part(question: str) -> None:
    # a stem shared with "półrocze", "quarter", "trimestre" or "semestre" is no part of a year: such a word is a
    # counted thing or a catalogue name, and asking about "3 polymers 2025" as a period would be wrong
    assert unread_part_word(question) is None


@pytest.mark.parametrize(("question", "unit"), [("montant ce mois ci pour Kestrel (so far)", "month"),
                                                ("spend this quarter for Xenon, to date?", "quarter"),
                                                ("invoices this year at Company B (to date)", "year")])
def test_a_so_far_set_apart_bounds_the_current_unit(question: str, unit: str) -> None:
    assert _read(question) == _read(f"spend this {unit} so far")


@pytest.mark.parametrize("tail", [", EUR thx", "?", " by supplier", ". thanks"])
def test_full_year_with_two_digits_before_punctuation(tail: str) -> None:
    assert _read(f"invoiced per legal entity full year 24{tail}") == (dt.date(2024, 1, 1), dt.date(2025, 1, 1))


@pytest.mark.parametrize(("period", "expected"), [
    ("[2025-10-01, 2026-01-01)", (dt.date(2025, 10, 1), dt.date(2026, 1, 1))),
    ("[2025-10-01, 2025-12-31]", (dt.date(2025, 10, 1), dt.date(2026, 1, 1))),
    ("[2025-10, 2025-12]", (dt.date(2025, 10, 1), dt.date(2026, 1, 1))),
    ("Q4'24–Q1'25", (dt.date(2024, 10, 1), dt.date(2025, 4, 1))),
    ("2024/10-2025/03", (dt.date(2024, 10, 1), dt.date(2025, 4, 1))),
    ("October 2024 until and including March 2025", (dt.date(2024, 10, 1), dt.date(2025, 4, 1))),
    ("lokakuu 2024 - maaliskuu 2025", (dt.date(2024, 10, 1), dt.date(2025, 4, 1))),
])
def test_interval_dash_and_including_notations(period: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(f"rank suppliers by spend, company c, {period}") == expected


@pytest.mark.parametrize(("phrase", "english"), [("i fjol", "last year"), ("i år", "this year"),
                                                 ("w zeszłym miesiącu", "last month"),
                                                 ("w ubiegłym kwartale", "last quarter"),
                                                 ("viime kuussa", "last month")])
def test_relative_phrases_with_their_case_endings(phrase: str, english: str) -> None:
    assert _read(f"how much did Xenon spend {phrase}?") == _read(f"how much did Xenon spend {english}?")
