"""The unused-span invariant (router/unused_spans.py): a digit token, a period token or a breakdown phrase the
answer did not use is named or asked about, never dropped; one the plan used passes."""

from __future__ import annotations

import datetime as dt

import pytest

from router.unused_spans import (
    counted_phrase,
    figure_kinds,
    plan_counts,
    plan_periods,
    unplanned_breakdown,
    unplanned_comparison,
    unplanned_percent,
    unused_digit_tokens,
)

D = dt.date


def _span(text: str, part: str) -> tuple[int, int]:
    start = text.index(part)
    return start, start + len(part)


# --- digit tokens ---------------------------------------------------------------------------------------------------

#: (question, the part a reader consumed, the period the plan computes, the token named back)
PARTLY_READ = [
    ("Nordwind outlay for 2024.08 please", "for 2024", (D(2024, 1, 1), D(2025, 1, 1)), "2024.08"),
    ("Nordwind outlay in 2027 3Q", "in 2027", (D(2027, 1, 1), D(2028, 1, 1)), "3Q"),
    ("Nordwind outlay in 3Q 2027", "2027", (D(2027, 1, 1), D(2028, 1, 1)), "3Q"),
    ("gastos de Nordwind no 2º tri de 2024", "de 2024", (D(2024, 1, 1), D(2025, 1, 1)), "2º"),
    ("Nordwind 2024/05/01 ~ 2024/06/30 total", "2024", (D(2024, 1, 1), D(2025, 1, 1)), "2024/05/01"),
    ("Nordwind outlay ２０２４年 2H", "２０２４年", (D(2024, 1, 1), D(2025, 1, 1)), "2H"),
]


@pytest.mark.parametrize(("text", "read", "period", "named"), PARTLY_READ)
def test_a_token_the_plan_did_not_use_is_named(text: str, read: str, period: tuple[D, D], named: str) -> None:
    found = unused_digit_tokens(text, [_span(text, "Nordwind"), _span(text, read)], periods=[period])
    assert named in found


#: (question, the period the plan computes): every digit token is the plan's period as written.
USED = [
    ("Nordwind outlay 2024/05/01 ~ 2024/06/30", (D(2024, 5, 1), D(2024, 7, 1))),
    ("Nordwind outlay 2024.05～2024.06", (D(2024, 5, 1), D(2024, 7, 1))),
    ("Nordwind outlay 05/2024-06/2024", (D(2024, 5, 1), D(2024, 7, 1))),
    ("Nordwind outlay 2024 5~6月", (D(2024, 5, 1), D(2024, 7, 1))),
    ("Nordwind outlay 3T 2027", (D(2027, 7, 1), D(2027, 10, 1))),
    ("Nordwind outlay 2H/2024", (D(2024, 7, 1), D(2025, 1, 1))),
    ("Nordwind outlay last-6m", (D(2024, 1, 1), D(2024, 7, 1))),
    ("Nordwind outlay 2024.10", (D(2024, 10, 1), D(2024, 11, 1))),
    ("Nordwind outlay from 2024/07/01 to 2024/12/31 (both days included)", (D(2024, 7, 1), D(2025, 1, 1))),
]


@pytest.mark.parametrize(("text", "period"), USED)
def test_a_token_the_plan_used_passes(text: str, period: tuple[D, D]) -> None:
    assert unused_digit_tokens(text, [_span(text, "Nordwind")], periods=[period]) == ()


@pytest.mark.parametrize("year", [2023, 2024, 2031])
@pytest.mark.parametrize("quarter", [1, 2, 3, 4])
@pytest.mark.parametrize("shape", ["{y} {q}Q", "{q}Q{y}", "{y}年 {q}Q", "{q}T {y}", "Q{q}/{y}"])
def test_a_quarter_is_read_or_named_whatever_its_notation(year: int, quarter: int, shape: str) -> None:
    """Metamorphic: the same quarter in any notation passes against its quarter and is named against its year."""
    text = f"Nordwind outlay {shape.format(y=year, q=quarter)}"
    own = (D(year, 3 * quarter - 2, 1), D(year + (quarter == 4), (3 * quarter) % 12 + 1, 1))
    whole = (D(year, 1, 1), D(year + 1, 1, 1))
    assert unused_digit_tokens(text, [], periods=[own]) == ()
    assert unused_digit_tokens(text, [], periods=[whole]) != ()


def test_consumed_digits_and_unchecked_sentences_pass() -> None:
    text = "Nordwind outlay for Q3 2027"
    assert unused_digit_tokens(text, [_span(text, "Nordwind"), _span(text, "Q3 2027")]) == ()
    text = "Deck page 9 is mine. Nordwind outlay for Q3 2027?"
    checked = [_span(text, "Nordwind outlay for Q3 2027?")]
    assert unused_digit_tokens(text, [_span(text, "Q3 2027")], checked) == ()


def test_a_bare_number_is_a_count_the_plan_holds_or_is_named() -> None:
    text = "los 4 proveedores con mayor gasto de Nordwind"
    assert unused_digit_tokens(text, [], counts=frozenset({4})) == ()
    assert unused_digit_tokens(text, [], counts=frozenset({10})) == ("4",)


def test_plan_counts_and_periods_are_read_from_the_argument_trees() -> None:
    steps = [{"company_id": "C-1", "limit": 5},
             {"metric": "m", "parameters": {"start_date": "2024-01-01", "end_date": "2024-04-01",
                                            "supplier_ids": ["S-1", "S-2"]}}]
    assert plan_periods(steps) == ((D(2024, 1, 1), D(2024, 4, 1)),)
    assert plan_counts(steps, 3) == frozenset({5, 2})
    assert 3 in plan_counts([{"start_date": "2024-01-01"}], 3)  # no company named: every company of the tenant


# --- breakdown phrases ----------------------------------------------------------------------------------------------

TOTAL = [("finance.company_spend", {"start_date": "2024-01-01", "end_date": "2024-04-01"})]
GROUPED = [("finance.company_spend", {"start_date": "2024-01-01", "group_by": ["supplier_id"]})]


@pytest.mark.parametrize("phrase", ["by level-1 category", "by L1 category", "por proveedor", "par fournisseur",
                                    "je Lieferant", "per vendor", "pro Monat", "by main category"])
def test_a_breakdown_no_reader_took_is_asked_about(phrase: str) -> None:
    text = f"Nordwind Q1 2024 outlay {phrase}"
    said = unplanned_breakdown(text, [_span(text, "Nordwind"), _span(text, "Q1 2024")], "spend", TOTAL)
    assert said == phrase


@pytest.mark.parametrize("text", ["Nordwind Q1 2024 outlay por favor", "Nordwind Q1 2024 outlay, by the way",
                                  "Nordwind Q1 2024 average outlay per month", "outlay paid by Nordwind in Q1 2024"])
def test_no_breakdown_or_a_name_passes(text: str) -> None:
    assert unplanned_breakdown(text, [_span(text, "Nordwind")], "spend", TOTAL) is None


def test_a_planned_or_consumed_breakdown_passes() -> None:
    text = "Nordwind Q1 2024 outlay by vendor"
    assert unplanned_breakdown(text, [], "spend", GROUPED) is None
    assert unplanned_breakdown(text, [_span(text, "by vendor")], "spend", TOTAL) is None
    assert unplanned_breakdown(text, [], "approved_vendors", TOTAL) is None  # a list, no aggregate


# --- the writer's guess at the answer --------------------------------------------------------------------------------

COUNT = [("metrics.query", {"metric": "finance.invoice_count"})]
CHANGE = [("finance.spend_comparison", {})]
AMOUNT = [("finance.aggregate_spend", {})]


@pytest.mark.parametrize(("text", "steps"), [
    ("#docs Nordwind May 2024 = 6? please verify", COUNT),
    ("the note says 12 bills for Nordwind in May 2024, right?", COUNT),
    ("Nordwind outlay up 31% June vs May 2024, true?", CHANGE),
    ("Nordwind outlay down 9 percent June vs May 2024, true?", CHANGE),
    ("Nordwind outlay down ~9 % June vs May 2024, true?", CHANGE),
])
def test_a_number_of_the_planned_figures_kind_is_a_guess(text: str, steps: list) -> None:
    consumed = [_span(text, "Nordwind"), _span(text, "May 2024")]
    assert unused_digit_tokens(text, consumed, kinds=figure_kinds(steps)) == ()


@pytest.mark.parametrize("text", ["Nordwind outlay up 31% June vs May 2024", "#docs Nordwind May 2024 = 6?"])
def test_a_number_of_another_kind_is_named(text: str) -> None:
    assert unused_digit_tokens(text, [_span(text, "Nordwind"), _span(text, "May 2024")],
                               kinds=figure_kinds(AMOUNT)) != ()


# --- comparison cues -------------------------------------------------------------------------------------------------

ONE_TOTAL = [("entity.resolve_company", {}), ("finance.aggregate_spend", {"supplier_ids": ["S-1", "S-2"]})]


@pytest.mark.parametrize(("text", "cue"), [
    ("how much more did Nordwind buy from Ostwind than from Sudwind", "more ... than"),
    ("quanto a mais Nordwind comprou da Ostwind do que da Sudwind", "mais ... do que"),
    ("cuánto más gastó Nordwind con Ostwind que con Sudwind", "más ... que"),
    ("wie viel mehr hat Nordwind bei Ostwind als bei Sudwind gekauft", "mehr ... als"),
    ("Nordwind outlay Ostwind vs Sudwind", "vs"),
])
def test_a_comparison_no_reader_took_is_asked_about(text: str, cue: str) -> None:
    assert unplanned_comparison(text, [_span(text, "Nordwind")], "spend", ONE_TOTAL) == cue


def test_a_comparison_read_or_planned_passes() -> None:
    text = "how much more did Nordwind buy from Ostwind than from Sudwind"
    assert unplanned_comparison(text, [_span(text, "more"), _span(text, "than")], "spend", ONE_TOTAL) is None
    assert unplanned_comparison(text, [], "spend", [("finance.spend_comparison", {})]) is None
    assert unplanned_comparison(text, [], "spend", [("finance.aggregate_spend", {}),
                                                    ("finance.aggregate_spend", {})]) is None
    assert unplanned_comparison("Nordwind outlay 2024", [], "spend", ONE_TOTAL) is None


@pytest.mark.parametrize("month", [("oct", 10), ("okt", 10), ("out", 10), ("ago", 8), ("aug", 8), ("dic", 12),
                                   ("dez", 12), ("janvier", 1), ("enero", 1)])
@pytest.mark.parametrize("glue", ["/", "-", ".", "'"])
def test_a_month_word_beside_its_year_is_checked_against_the_plan(month: tuple[str, int], glue: str) -> None:
    """Metamorphic: a month word and a two-digit year in one token pass against that month, are named against the
    year when the month is neither of its ends."""
    word, number = month
    text = f"Nordwind outlay {word}{glue}24"
    own = (D(2024, number, 1), D(2024 + (number == 12), number % 12 + 1, 1))
    assert unused_digit_tokens(text, [], periods=[own]) == ()
    if number not in (1, 12):
        assert unused_digit_tokens(text, [], periods=[(D(2024, 1, 1), D(2025, 1, 1))]) == (f"{word}{glue}24",)


# --- percent cues ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["Nordwind freight: what % of the total, Q1 2024?",
                                  "Nordwind freight wie viel Prozent vom Gesamt, Q1 2024?",
                                  "Nordwind freight quel pourcentage du total, Q1 2024?"])
def test_a_percent_asked_beside_another_figure_is_named(text: str) -> None:
    assert unplanned_percent(text, [_span(text, "Nordwind")], [("catalog.unit_price", {})]) is not None
    assert unplanned_percent(text, [], [("finance.product_group_share", {})]) is None
    assert unplanned_percent(text, [], [("entity.resolve_company", {})]) is None  # no figure planned


@pytest.mark.parametrize(("text", "phrase"), [("Nordwind: 3 produtos com maior gasto em 2024", "3 produtos"),
                                              ("Nordwind 4 vendors highest outlay 2024", "4 vendors"),
                                              ("Nordwind: die 2 Lieferanten mit dem meisten Umsatz", "2 Lieferanten")])
def test_a_count_of_things_beside_one_total_is_asked_about(text: str, phrase: str) -> None:
    token = phrase.split()[0]
    assert counted_phrase(text, (token,), "spend", TOTAL) == phrase
    assert counted_phrase(text, (), "spend", TOTAL) is None  # the count was read
    assert counted_phrase(text, (token,), "approved_vendors", TOTAL) is None  # a list, no total


@pytest.mark.parametrize("level", ["L1 category", "level 1 group", "L2 category"])
def test_a_dimension_level_is_accounted_by_the_planned_grouping(level: str) -> None:
    text = f"Nordwind Q1 2024: {level} breakdown"
    consumed = [_span(text, "Nordwind"), _span(text, "Q1 2024")]
    assert unused_digit_tokens(text, consumed, grouped=True) == ()
    assert unused_digit_tokens(text, consumed, grouped=False) != ()


@pytest.mark.parametrize("text", ["Nordwind pivot by main category (level 2 only), Q1 2024",
                                  "Nordwind: 3 only, Q1 2024"])
def test_a_level_or_a_word_of_grammar_after_a_number_is_no_count_of_things(text: str) -> None:
    token = "2" if "level 2" in text else "3"
    assert counted_phrase(text, (token,), "spend", TOTAL) is None
    assert counted_phrase("Nordwind: 3 produtos, Q1 2024", ("3",), "spend", GROUPED) is None  # rows are given
