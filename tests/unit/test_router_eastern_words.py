"""Words of Central and Eastern European and Turkish writers, read as families (router/foreign_words.py,
period_family.py, period_words.py, reading.py), document ids written loosely (retrieval/documents.py), metric-shaped
questions without a company (router/metric_shape.py) and follow-ups that reshape an earlier answer (followups.py).

Metamorphic: each slot (the grouping, the threshold side and its amount, the month, the quarter unit and its
number, the separator of an id) is varied over the members of its family, around other names and numbers; the
reading must be the English the readers know. Database-free.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.documents import spelled_document_ids
from router.entities import Company, Gazetteer, ProductGroup
from router.followups import context_reference
from router.foreign_words import BY_DIMENSION, read_foreign_words
from router.notation import read_notation
from router.period_family import (
    SINCE_YEAR_START,
    UNIT_FIRST_HALVES,
    UNIT_FIRST_QUARTERS,
    read_period_family,
)
from router.period_grammar import INCLUDED_WORDS
from router.period_words import ALL_MONTHS
from router.reading import parse_amounts
from tests.unit.test_router_metric_shape_k7 import _route

GAZETTEER = Gazetteer.build(
    [Company("COMP-M", "Marmara Gida AS", "EUR"), Company("COMP-W", "Wisla Chemia SA", "EUR")],
    [("SUP-41", "Dunaj Instruments"), ("SUP-42", "Karpaty Cables")],
    [("dunaj", "SUP-41"), ("karpaty", "SUP-42")],
    [ProductGroup("PG-TS", "Temperature Sensors"), ProductGroup("PG-CC", "Control Cabinets")],
)


def _read(question: str) -> str:
    reading = read_foreign_words(question, GAZETTEER)
    return reading.text if reading is not None else question


# --- groupings, thresholds, ranks, counts ------------------------------------------------------------------------

@pytest.mark.parametrize(("dimension", "phrase"), [(d, p) for d, ps in BY_DIMENSION.items() for p in ps[::3]])
@pytest.mark.parametrize("company", ["Wisla Chemia", "Marmara Gida AS"])
def test_by_dimension_is_read_as_english(dimension: str, phrase: str, company: str) -> None:
    assert f"by {dimension}" in _read(f"{company} spend {phrase} Q3 2025")


@pytest.mark.parametrize("word", ["powyżej", "powyzej", "ponad", "peste", "nad"])
@pytest.mark.parametrize("amount", ["5 000,00 EUR", "12.500 €", "3K", "7 tys. EUR"])
def test_above_before_the_amount(word: str, amount: str) -> None:
    assert f"above {amount}" in _read(f"faktury {word} {amount} Wisla Chemia 03.2026")


@pytest.mark.parametrize(("word", "side"), [("üstü", "above"), ("üzeri", "above"), ("üzerindeki", "above"),
                                            ("altında", "below"), ("alti", "below")])
@pytest.mark.parametrize("amount", ["500 €", "0,02 mln EUR", "15 bin EUR", "2.750,50 EUR"])
def test_threshold_after_the_amount_puts_the_noun_first(word: str, side: str, amount: str) -> None:
    assert _read(f"Marmara 2025 {amount} {word} faturalar") == f"Marmara 2025 invoices {side} {amount}"


@pytest.mark.parametrize(("typed", "value"), [("7 tys. EUR", 7000), ("0,05 mln EUR", 50000), ("15 bin TL", 15000),
                                              ("3 tis. Kč", 3000), ("2 mii lei", 2000), ("1,5 mld", 1_500_000_000)])
def test_multiplier_words_scale_the_amount(typed: str, value: int) -> None:
    assert [a.value for a in parse_amounts(f"above {typed}")] == [value]


@pytest.mark.parametrize("word", INCLUDED_WORDS)
@pytest.mark.parametrize("dash", [" - ", "–", " do "])
def test_inclusive_after_a_range_end_is_the_grammars(word: str, dash: str) -> None:
    assert read_notation(f"Wisla 01.02.2026{dash}20.03.2026 {word} spend", []) == \
        "Wisla from 2026-02-01 through 2026-03-20 spend"


def test_a_date_before_an_amount_lends_it_no_digits() -> None:
    # "till 2025-08-27 500 €" (the day written out by the notation) is 500 EUR, never "27 500"
    assert _read("Marmara till 2025-08-27 500 € üstü faturalar") == "Marmara till 2025-08-27 invoices above 500 €"
    assert [a.value for a in parse_amounts("through 2025-08-27 500 EUR")] == [500]


@pytest.mark.parametrize("word", ["bigger", "more", "less", "higher"])
def test_then_for_than_before_an_amount(word: str) -> None:
    assert f"{word} than 15k EUR" in _read(f"invoices {word} then 15k EUR Wisla Q4'25")
    assert "then" in _read(f"{word} spend then Q4 2025 Wisla")


def test_a_generic_head_of_another_group_is_no_match() -> None:
    gazetteer = Gazetteer.build([Company("COMP-M", "Marmara Gida AS", "EUR")], [], [],
                                [ProductGroup("PG-LAB", "Laboratory Equipment"),
                                 ProductGroup("PG-LABC", "Lab Consumables")])
    # "laboratory supplies": neither the equipment nor surely the consumables, named back by the reader
    assert read_foreign_words("materiały laboratoryjne Marmara 4/2026", gazetteer) is None


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("typed", ["top{n} dostawców", "en büyük {n} tedarikçi", "top{n} furnizori"])
def test_top_n_suppliers(n: int, typed: str) -> None:
    assert f"top {n} suppliers" in _read(f"{typed.format(n=n)} Wisla Chemia 07.2025")


@pytest.mark.parametrize("typed", ["kaç fatura", "ile faktur (how many invoices)", "kolik faktur"])
def test_how_many_invoices(typed: str) -> None:
    assert _read(f"{typed} Marmara 01.2026").startswith("how many invoices")


@pytest.mark.parametrize(("typed", "read"), [("mükerrer faturalar", "duplicate invoices"),
                                             ("onaylı tedarikçiler", "approved suppliers"),
                                             ("toplam harcama", "total spend"),
                                             ("w zakupach", "in total spend")])
def test_task_words(typed: str, read: str) -> None:
    assert read in _read(f"Wisla Chemia {typed} Q1 2026")


def test_percent_of_all_spend_is_a_share_of_the_named_group() -> None:
    assert _read("czujniki temperatury procent from all spend Wisla 11.2025") == \
        "Temperature Sensors share of all spend Wisla 11.2025"


def test_a_share_word_glossed_is_the_share() -> None:
    assert _read("udział (share) Karpaty w zakupach Wisla Chemia 2025").startswith("share of Karpaty in total spend")


# --- periods ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("unit", UNIT_FIRST_QUARTERS)
@pytest.mark.parametrize(("number", "q"), [("1", 1), ("IV", 4), ("3", 3)])
@pytest.mark.parametrize("year", ["/2025", " 2025"])
def test_quarter_unit_before_its_number(unit: str, number: str, q: int, year: str) -> None:
    typed = f"spend {unit}{number}{year}" if unit == "kw" else f"spend {unit} {number}{year}"
    expected = f"spend Q{q} 2025"
    if unit == "kw" and (number == "IV" or year == " 2025"):
        expected = typed  # "kw" is a quarter only in its shape: a digit touching it and the year after a slash
    assert read_period_family(typed) == expected


@pytest.mark.parametrize("unit", UNIT_FIRST_HALVES)
@pytest.mark.parametrize(("number", "h"), [("1", 1), ("II", 2)])
def test_half_unit_before_its_number(unit: str, number: str, h: int) -> None:
    assert read_period_family(f"Wisla {unit} {number} 2026 spend") == f"Wisla H{h} 2026 spend"


@pytest.mark.parametrize("typed", ["KW 14 2025", "KW 4 2025", "KW 11/2026 invoices", "Quartal 3/2025 spend",
                                   "trimestrul 5 2025"])
def test_calendar_weeks_and_other_readers_notations_stay(typed: str) -> None:
    assert read_period_family(typed) == typed


@pytest.mark.parametrize("arrow", ["->", "→", "=>", " --> "])
@pytest.mark.parametrize(("a", "b"), [("Q4 2025", "Q1 2026"), ("2024", "2025"), ("H1 2025", "H2 2025")])
def test_an_arrow_between_periods_of_a_change_is_current_vs_base(arrow: str, a: str, b: str) -> None:
    # (one arrow rule, the period grammar's: the family leaves the arrow as typed)
    assert read_period_family(f"Wisla spend change {a}{arrow}{b}") == f"Wisla spend change {a}{arrow}{b}"
    step = _route(f"Company A spend change {a}{arrow}{b}").execution_plan[0].arguments
    assert step["metric"] == "finance.spend_comparison"
    assert step["parameters"]["compare_to"] == "previous_period"


@pytest.mark.parametrize(("word", "month"), [("lystopad", 11), ("hruden", 12), ("veresen", 9), ("lyutyi", 2),
                                             ("zhovten'", 10), ("sichnia", 1), ("kviten", 4), ("noyabr", 11),
                                             ("szeptember", 9), ("május", 5)])
def test_transliterated_month_families(word: str, month: int) -> None:
    assert ALL_MONTHS[word] == month


@pytest.mark.parametrize("phrase", SINCE_YEAR_START)
def test_since_the_start_of_the_year_is_the_year_to_date(phrase: str) -> None:
    assert read_period_family(f"Marmara {phrase} spend") == "Marmara year to date spend"


# --- document ids written loosely --------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(year=st.integers(2019, 2030), month=st.integers(1, 12), sep=st.sampled_from([" ", "_", ".", "-"]),
       noun=st.sampled_from(["agreement", "contract", "agmt"]), lead=st.sampled_from(["open ", "mate open ", ""]))
def test_agreement_ids_in_every_separator_are_one_id(year: int, month: int, sep: str, noun: str, lead: str) -> None:
    assert spelled_document_ids(f"{lead}{noun}{sep if sep != '-' else ' '}{year}{sep}{month:02d} pls") == \
        (f"agreement-{year}-{month:02d}",)


@pytest.mark.parametrize("typed", ["agreement 2025 spend", "agreement 2025 11.5 EUR", "contract 2025 11,5"])
def test_a_year_with_an_amount_is_no_agreement_id(typed: str) -> None:
    assert spelled_document_ids(typed) == ()


# --- a metric without a company; follow-ups without context --------------------------------------------------------

@pytest.mark.parametrize("question", [
    "what's our MoM change Apr-26 vs Mar-26?",
    "our QoQ delta Q1 2026 vs Q4 2025?",
    "which vendors did not bill us in H2 2025?",
    "how much did we pay in 03/2026",
])
def test_a_figure_of_a_period_without_a_company_asks_the_company(question: str) -> None:
    # (the metric-shape suite's router: a classifier that proposes passages, the case the rule decides)
    result = _route(question)
    assert result.requires_clarification
    assert result.workflow not in {"identifier_lookup", "document_answer"}


@pytest.mark.parametrize("question", ["what does the agreement say about payment in Q1 2026?",
                                      "which invoices mention calibration in March 2026"])
def test_document_questions_with_a_period_are_no_metric(question: str) -> None:
    result = _route(question)
    assert not any(r.startswith("passages:") for r in result.clarification_reasons)


@pytest.mark.parametrize("question", ["how does that compare then", "and how do those compare?",
                                      "ok now do that as a 3 month rolling avg", "show me this by supplier pls",
                                      "did it change much?"])
def test_follow_ups_without_context_are_named(question: str) -> None:
    assert context_reference(question) is not None


@pytest.mark.parametrize("question", ["How does Wisla spend in Q1 2026 compare to Q4 2025?",
                                      "compare Marmara Q1 2026 with Q4 2025"])
def test_whole_questions_are_no_follow_ups(question: str) -> None:
    assert context_reference(question, names_an_entity=True) is None
