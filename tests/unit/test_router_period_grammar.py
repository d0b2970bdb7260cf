"""Ranges of period atoms in several languages, single atoms in German and numeric notation, the tenant's date order
and the invariant that every date-like token is consumed (router/period_grammar.py, router/period_leftovers.py,
router/date_order.py)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.date_order import date_order, implied_order
from router.month_years import with_years
from router.period_grammar import read_period_grammar, read_ranges
from router.period_leftovers import unconsumed_date_token
from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 16)


def _read(question: str, order: str | None = None) -> tuple[dt.date, dt.date] | None:
    resolved = resolve_period(read_period_grammar(question, order), AS_OF)  # type: ignore[arg-type]
    if resolved.time_range is None:
        return None
    return resolved.time_range.start, resolved.time_range.end


#: Atoms as (how it is written at the start, how at the end, its first day, its end exclusive, whether a unit).
_ATOMS = {
    "dotted day": ("2.3.2026", "14.04.26", dt.date(2026, 3, 2), dt.date(2026, 4, 14), False),
    "dotted month": ("02.2026", "4.2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1), True),
    "slashed month": ("2/2026", "04/2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1), True),
    "German month": ("Februar 2026", "April 2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1), True),
    "French month": ("février 2026", "avril 2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1), True),
    "Italian month": ("febbraio 2026", "aprile 2026", dt.date(2026, 2, 1), dt.date(2026, 5, 1), True),
    "German quarter": ("4. Qu. 2025", "1. Quartal 2026", dt.date(2025, 10, 1), dt.date(2026, 4, 1), True),
}
#: Range words: (opening, middle, whether an end day is included as written) per language.
_WORDS = {
    "de bis": ("", "bis", True),
    "de von bis": ("von", "bis", True),
    "de bis einschl.": ("vom", "bis einschl.", True),
    "de zw. und": ("zw.", "und", True),
    "de zwischen und": ("zwischen", "und", True),
    "fr du au": ("du", "au", True),
    "fr entre et": ("entre", "et", True),
    "nl van tot en met": ("van", "tot en met", True),
    "es de a": ("desde", "hasta", True),
    "de bis ausschl.": ("von", "bis ausschl.", False),
}


#: Every range word with every other atom (each atom still meets half of the words), to keep the file fast.
_PAIRS = [(atom, word) for (i, atom), (j, word) in itertools.product(enumerate(_ATOMS), enumerate(_WORDS))
          if (i + j) % 2 == 0]


@pytest.mark.parametrize(("atom", "word"), _PAIRS)
def test_a_range_of_atoms_is_read_whole_in_every_language(atom: str, word: str) -> None:
    first, last, start, end, unit = _ATOMS[atom]
    opening, middle, included = _WORDS[word]
    question = f"Spend of Company B {opening} {first} {middle} {last} please".replace("  ", " ")
    if unit:
        # a unit at the end ends where it ends; "bis ausschl. April" leaves it out
        expected_end = end if included else _unit_start(last, end)
    else:
        expected_end = end + dt.timedelta(days=1) if included else end
    assert _read(question) == (start, expected_end)


def _unit_start(written: str, end: dt.date) -> dt.date:
    """The first day of the end atom (a month or a quarter) whose exclusive end is ``end``."""
    months = 3 if "Qu" in written else 1
    month = end.month - months
    return dt.date(end.year + (month - 1) // 12, (month - 1) % 12 + 1, 1)


@pytest.mark.parametrize("mark", ["incl", "inclusive", "(incl.)", "einschl."])
def test_an_incl_mark_after_a_dashed_range_includes_the_end_day(mark: str) -> None:
    assert _read(f"co b spend 3/11-20/12/25 {mark}") == (dt.date(2025, 11, 3), dt.date(2025, 12, 21))


@pytest.mark.parametrize("now", ["today", "heute", "now", "aujourd'hui"])
@pytest.mark.parametrize("middle", ["-", "bis", "to", "jusqu'à"])
def test_a_range_to_today_runs_to_the_as_of_date(now: str, middle: str) -> None:
    assert _read(f"top suppliers of Company C, Aug 2025 {middle} {now}") == (dt.date(2025, 8, 1),
                                                                           AS_OF + dt.timedelta(days=1))


def test_an_atom_without_its_year_takes_the_other_ends() -> None:
    assert _read("Ausgaben zw. 3.11. und 20.1.2026") == (dt.date(2025, 11, 3), dt.date(2026, 1, 21))
    assert _read("spend Oct - Dec 25 please") == (dt.date(2025, 10, 1), dt.date(2026, 1, 1))


@pytest.mark.parametrize(("written", "expected"), [
    ("Anzahl Rechnungen 09.2025", (dt.date(2025, 9, 1), dt.date(2025, 10, 1))),
    ("Ausgaben 4. Qu. 2025", (dt.date(2025, 10, 1), dt.date(2026, 1, 1))),
    ("Ausgaben 1.Qu 26", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("Ausgaben 1. HJ 2026", (dt.date(2026, 1, 1), dt.date(2026, 7, 1))),
    ("Ausgaben am 3.2.26", (dt.date(2026, 2, 3), dt.date(2026, 2, 4))),
    ("spend for the full year 24", (dt.date(2024, 1, 1), dt.date(2025, 1, 1))),
    ("spend prev quarter", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("spend prev. month", (dt.date(2026, 4, 1), dt.date(2026, 5, 1))),
])
def test_single_atoms_in_german_and_numeric_notation(written: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(written) == expected


def test_an_amount_or_a_document_number_is_no_atom() -> None:
    assert read_period_grammar("invoices of 1.2025 EUR and CN-2025-0501") == "invoices of 1.2025 EUR and CN-2025-0501"


def test_a_gloss_placing_the_period_in_a_year_keeps_the_period() -> None:
    # "(last year)" around Q2 2025 as of May 2026: it places the quarter, it is no second period
    assert _read("spend Q2 2025 (last year)") == (dt.date(2025, 4, 1), dt.date(2025, 7, 1))
    assert _read("spend FY2025 (Aug-Dec 25)") == (dt.date(2025, 8, 1), dt.date(2026, 1, 1))


#: A period and a date-like token written beside it, and where the token goes.
_NOISE = [("H1 2026", "(Aug)", "after"), ("March 2026", "- today", "after"), ("Q4 2025", "/ Q1", "after"),
          ("2025", "3. Qu.", "before"), ("Q1 2026", "- Feb", "after"), ("2026", "Okt.", "before"),
          ("August 2025", "bis heute", "after")]


@pytest.mark.parametrize(("period", "noise", "where"), _NOISE)
@pytest.mark.parametrize("frame", ["Company A spend {} please", "how much did we pay Beta {}?", "{}"])
def test_a_date_like_token_left_beside_the_period_is_named_back(period: str, noise: str, where: str,
                                                                frame: str) -> None:
    words = f"{noise} {period}" if where == "before" else f"{period} {noise}"
    question = frame.format(words)
    resolved = resolve_period(question, AS_OF)
    token = noise.split()[-1].strip("()")
    assert resolved.time_range is None and resolved.ambiguous, question
    assert token.split(".")[0] in (resolved.reason or ""), resolved.reason


@pytest.mark.parametrize("period", ["Q3 2025", "2026", "March 2026", "FY2025"])
def test_a_dotted_day_no_reader_takes_is_named_back_but_an_approval_date_is_not(period: str) -> None:
    question = f"spend in {period}, see 15.02.2026"
    spans = ((9, 9 + len(period)),)
    assert unconsumed_date_token(question, spans) == ("15.02.2026", (len(question) - 10, len(question)))
    for context in ("their approval only starts", "valid to", "as at", "the agreement became effective on"):
        assert unconsumed_date_token(f"spend in {period}, {context} 15.02.2026", spans) is None


@pytest.mark.parametrize(("names", "order"), [
    (["Kestrel Lebensmittel GmbH", "Alpenland Logistik AG"], "day_first"),
    (["Orbis Packaging S.A.", "Helix Reagents Ltd"], "day_first"),
    (["Acme Inc.", "Beta LLC"], "month_first"),
    (["Company A", "Company B"], None),
    (["Acme Inc.", "Beta GmbH"], None),
])
def test_the_date_order_the_companies_legal_forms_imply(names: list[str], order: str | None) -> None:
    assert implied_order(names) == order


def test_a_configured_order_wins_over_the_data() -> None:
    assert date_order("t", ["Beta GmbH"], {"t": "month_first"}, "ask") == "month_first"
    assert date_order("t", ["Company A"], {}, "day_first") == "day_first"
    assert date_order("t", ["Company A"], {}, "ask") is None


@pytest.mark.parametrize(("order", "expected"), [
    ("day_first", (dt.date(2026, 3, 2), dt.date(2026, 3, 3))),
    ("month_first", (dt.date(2026, 2, 3), dt.date(2026, 2, 4))),
    (None, None),
])
def test_a_slashed_day_is_read_in_the_tenants_order_or_asked(order: str | None, expected: object) -> None:
    assert _read("approved vendors of Company A on 02/03/2026", order) == expected


def test_a_question_that_settles_the_order_wins_over_the_tenants() -> None:
    # (a dash between two days includes the end day)
    assert _read("spend 02/03/2026 - 25/03/2026", "month_first") == (dt.date(2026, 3, 2), dt.date(2026, 3, 26))


@pytest.mark.parametrize(("written", "as_of", "expected"), [
    # the probes: a dash between two days, slashed or dotted, the year on the last day only
    ("Company A spend 1/2-15/3/26", dt.date(2026, 3, 31), (dt.date(2026, 2, 1), dt.date(2026, 3, 16))),
    ("Company A spend 1.2.-15.3.26", dt.date(2026, 3, 31), (dt.date(2026, 2, 1), dt.date(2026, 3, 16))),
    ("Company A spend 2 to 3 March 2026", dt.date(2026, 3, 31), (dt.date(2026, 3, 2), dt.date(2026, 3, 4))),
    # variants: "to" between numeric days, a full year on both days, month first settled by a part above 12
    ("co b spend from 1.2.2026 to 15.4.2026", AS_OF, (dt.date(2026, 2, 1), dt.date(2026, 4, 16))),
    ("co a spend 1/11-15/12/25 incl", dt.date(2026, 3, 26), (dt.date(2025, 11, 1), dt.date(2025, 12, 16))),
    ("co a 20.12.-13.01.2026", dt.date(2026, 3, 26), (dt.date(2025, 12, 20), dt.date(2026, 1, 14))),
    ("co a 11/1-12/15/2025", dt.date(2026, 3, 26), (dt.date(2025, 11, 1), dt.date(2025, 12, 16))),
])
def test_a_dash_or_to_between_two_days_includes_the_end_day(written: str, as_of: dt.date,
                                                            expected: tuple[dt.date, dt.date]) -> None:
    # one reader of day ranges (this module): never the end day dropped by one reading and kept by another
    resolved = resolve_period(read_period_grammar(written), as_of)
    assert resolved.time_range is not None, written
    assert (resolved.time_range.start, resolved.time_range.end) == expected, written


def test_an_article_is_read_only_after_an_opening_word() -> None:
    # "co a 1/2-15/3/26": the "a" of the company stays; "desde el 5 de enero" drops its "el"
    assert read_period_grammar("co a 1/2-15/3/26").startswith("co a from 2026-02-01")
    assert "el" not in read_period_grammar("spend desde el 5.1.2026 hasta el 20.2.2026").split()


def test_month_years_reads_no_day_range() -> None:
    # the duplicate slashed-range parser is gone: router/month_years.py writes years after month words only
    assert with_years("co a spend 1/2-15/3/26", dt.date(2026, 3, 31), ()) is None
    assert with_years("co a spend 1.2.-15.3.26", dt.date(2026, 3, 31), ()) is None


@pytest.mark.parametrize(("written", "expected"), [
    ("spend desde el 5 de enero de 2026 hasta el 20 de febrero de 2026", (dt.date(2026, 1, 5), dt.date(2026, 2, 21))),
    ("spesa dal 3 marzo 2026 al 15 aprile 2026", (dt.date(2026, 3, 3), dt.date(2026, 4, 16))),
    ("dépenses du 2 février au 16 mars 2026", (dt.date(2026, 2, 2), dt.date(2026, 3, 17))),
    ("dépenses T4 2025 jusqu'à aujourd'hui", (dt.date(2025, 10, 1), AS_OF + dt.timedelta(days=1))),
    ("spend from 2025-08 to 2025-10", (dt.date(2025, 8, 1), dt.date(2025, 11, 1))),
    ("spend WHERE invoice_date BETWEEN '2025-08-01' AND '2025-10-31'", (dt.date(2025, 8, 1), dt.date(2025, 11, 1))),
])
def test_ranges_with_days_in_words_articles_and_iso_months(written: str, expected: tuple[dt.date, dt.date]) -> None:
    assert _read(written) == expected


@pytest.mark.parametrize(("written", "expected"), [
    ("Kestrel spend mois dernier", (dt.date(2026, 4, 1), dt.date(2026, 5, 1))),
    ("Kestrel spend le trimestre précédent", (dt.date(2026, 1, 1), dt.date(2026, 4, 1))),
    ("Kestrel spend la semaine dernière", (dt.date(2026, 5, 4), dt.date(2026, 5, 11))),
])
def test_french_relative_words_in_an_english_question(written: str, expected: tuple[dt.date, dt.date]) -> None:
    from router.period_words import period_words

    resolved = resolve_period(period_words(written), AS_OF)
    assert resolved.time_range is not None
    assert (resolved.time_range.start, resolved.time_range.end) == expected


def test_words_that_only_look_like_a_range_are_left() -> None:
    for text in ("von 3 bis 5 Rechnungen", "invoices of 1.2025 EUR", "Q1 10 largest invoices", "PRD-482 bis PRD-490",
                 "factures T1-2026", "spend Jan - 2026", "H2-2025 bis heute"[:7]):
        assert read_period_grammar(text) == text


def test_a_slashed_day_with_a_two_digit_year_is_read_in_the_order_the_question_settles() -> None:
    assert _read("spend since 21/11/25") == (dt.date(2025, 11, 21), AS_OF + dt.timedelta(days=1))
    assert _read("spend on 04/05/26") is None  # (both orders are days: asked)


def test_an_email_header_date_is_no_period_token() -> None:
    question = "Date: 12.05.2026 Dear team, spend in Q1 2026"
    assert unconsumed_date_token(question, ((question.index("Q1"), len(question)),)) is None


@pytest.mark.parametrize("noise", ["Projekt P-2025-17", "INV-2025-0503", "PRD-2025", "CN-2025-0501"])
def test_codes_holding_a_year_are_no_date_tokens(noise: str) -> None:
    question = f"spend Q1 2026 {noise}"
    assert unconsumed_date_token(question, ((6, 13),)) is None


def test_today_restated_by_its_date_is_consumed() -> None:
    question = "approved vendors of Company B as of today (15 May 2026)"
    assert unconsumed_date_token(question, ((question.index("15"), len(question) - 1),)) is None
    assert unconsumed_date_token("spend March 2026 - today", ((6, 16),)) == ("today", (19, 24))


@pytest.mark.parametrize("written", ["spend so far (from 01.02.2026)", "spend to date (since Feb 2026)",
                                     "Ausgaben bisher (ab 1.2.26)", "spend until now (starting 2026-02-01)"])
def test_a_period_to_date_glossed_by_its_start_runs_from_it(written: str) -> None:
    assert _read(written) == (dt.date(2026, 2, 1), AS_OF + dt.timedelta(days=1))


@pytest.mark.parametrize(("period", "gloss"), [("Q4 2025 - Q1 2026", "(oct→mars)"), ("Q3 2025", "(Jul-Sep)"),
                                               ("H2 2025", "(Jul)"), ("Q1", "(2026)"), ("MTD", "May")])
def test_a_gloss_of_months_or_the_year_inside_the_period_restates_it(period: str, gloss: str) -> None:
    assert resolve_period(f"weakest month {period} {gloss}?", AS_OF).time_range is not None


@pytest.mark.parametrize("question", [
    "Company A spend H1 2026 (Aug) please", "Company A spend Q1 2026 - Feb please",  # the probes
    "Company B spend H2 2025 (Feb)?", "spend of Beta Q3 2025 - Oct",  # variants: a month outside the period
])
def test_a_month_beside_a_period_read_is_no_second_period(question: str) -> None:
    # one owner per span: the leftover rule names the month back; router/month_years.py adds no year to it
    resolved = resolve_period(question, AS_OF)
    assert resolved.time_range is None and resolved.ambiguous, question
    assert "more than one period" not in (resolved.reason or ""), resolved.reason


@pytest.mark.parametrize("question", ["Company A spend broken down by month Q4 2025 -> Q1 2026",
                                      "Company B spend split by quarter 2024 → 2025, broken down please",
                                      "Company C spend monthly, drill down 10/2025 -> 12/2025"])
def test_an_arrow_beside_a_breakdown_word_is_a_range_never_a_change(question: str) -> None:
    # "broken down" / "drill down" name no change: the arrow is a range read whole, split by its grain
    read = read_ranges(question)
    assert "->" not in read and "→" not in read and " vs " not in read, read
    assert "from " in read and " through " in read, read


@pytest.mark.parametrize(("question", "read"), [
    ("Company A spend 2024 -> 2025 delta", "Company A spend 2025 vs 2024 delta"),
    ("Company A spend Q4 2025 → Q1 2026, up or down?", "Company A spend Q1 2026 vs Q4 2025, up or down?"),
    ("% Company B H1 2025 -> H2 2025", "% Company B H2 2025 vs H1 2025")])
def test_an_arrow_with_a_change_noun_is_the_current_period_vs_the_base(question: str, read: str) -> None:
    assert read_ranges(question) == read
