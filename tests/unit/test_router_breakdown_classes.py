"""Breakdowns, shares, statuses, exclusions, amount comparators and German wording (no database).

One suite per failure class found by ``evaluation/probes_breakdown.py`` (training seeds): each generated question
is routed in memory and its governed call compared with the call its slot values mean, or, where no governed
metric serves a constraint (a breakdown by cost centre, a cancelled or disputed status), the clarification must
name it. Group names with "und" / "&", German fractions and number words, "across suppliers", "upwards of",
"more than or equal to", "ausgenommen", ordinal dots of German periods.
"""

from __future__ import annotations

import itertools
import random
from decimal import Decimal
from typing import Any

import pytest

from router.compound import _segments
from router.entities import Company, Gazetteer, ProductGroup, find_mentions, fold
from router.german import german_fractions, read_german
from router.reading import excluded_status, parse_amounts, parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS, SUPPLIERS

SEED = 29
CABL = ProductGroup("PG-CABL", "Cables and Connectors", "PG-CONS")
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    [*GROUPS, CABL],
    [("Kabel und Stecker", "PG-CABL"), ("Kabel und Steckverbinder", "PG-CABL"), ("Drucksensoren", "PG-PRES"),
     ("Steuerungstechnik", "PG-CTRL")],
)
COMPANIES = ("Company A", "company a", "COMP-A")
SUPPLIER_SPELLINGS = {"SUP-18": ("Supplier Beta", "Beta", "BETA SUPPLIES"), "SUP-27": ("Gamma Controls", "Gamma"),
                      "SUP-60": ("Supplier Iota", "Iota")}
#: German periods and the half-open range they mean (as of 2026-05-15).
PERIODS_DE = (("im 1. Quartal 2026", "2026-01-01", "2026-04-01"), ("im 2. Halbjahr 2025", "2025-07-01", "2026-01-01"),
              ("im Jahr 2025", "2025-01-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"),
              ("im 4. Quartal 2025", "2025-10-01", "2026-01-01"))
PERIODS_EN = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
              ("last year", "2025-01-01", "2026-01-01"))


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _call(question: str) -> tuple[str, dict[str, Any], list[str], str | None]:
    """The governed call of the question's plan: (metric, parameters, group_by, grain)."""
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    for step in result.execution_plan:
        if step.tool == "metrics.query":
            a = step.arguments
            return a["metric"], dict(a["parameters"]), list(a.get("group_by") or []), a.get("grain")
        if step.tool.startswith("finance."):
            args = dict(step.arguments)
            return step.tool, args, list(args.get("group_by") or []), args.get("grain")
    raise AssertionError((question, [s.tool for s in result.execution_plan]))


def _clarifies(question: str, *words: str) -> None:
    result = _routed(question)
    text = (result.clarification_question or "").lower()
    assert result.requires_clarification and any(w.lower() in text for w in words), (question, text)


# --- German group names with "und" / "&" ------------------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["Kabel und Stecker", "Kabel & Stecker", "Kabel und Steckverbinder",
                                      "Kabel & Steckverbinder", "Cables & Connectors", "cables and connectors",
                                      "Kabel and Stecker"])
def test_and_and_ampersand_are_one_word_in_names(spelling: str) -> None:
    groups = find_mentions(f"spend of Company A on {spelling} in Q1 2026", GAZETTEER).product_groups
    assert [m.candidates for m in groups] == [("PG-CABL",)], (spelling, groups)
    assert fold("&") == fold("und") == "and"


@pytest.mark.parametrize(("frame", "period"), list(itertools.product(
    ["Ausgaben von {c} für {g} {p}", "Wie viel hat {c} {p} für {g} ausgegeben?", "Ausgaben von {c} {p} ohne {g}"],
    PERIODS_DE)))
def test_german_group_names_with_und_keep_the_filter(frame: str, period: tuple[str, str, str]) -> None:
    for g in ("Kabel und Stecker", "Kabel & Steckverbinder"):
        question = frame.format(c="Company A", g=g, p=period[0])
        _, params, _, _ = _call(question)
        key = "exclude_product_group_ids" if "ohne" in frame else "product_group_ids"
        assert params.get(key) == ["PG-CABL"], (question, read_german(question), params)
        assert (params["start_date"], params["end_date"]) == period[1:], (question, params)


# --- breakdowns --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("phrase", "dims", "grain"), [
    ("across suppliers", ("supplier_id",), None), ("across all vendors", ("supplier_id",), None),
    ("across product groups", ("product_group_id",), None), ("split per supplier", ("supplier_id",), None),
    ("broken out by supplier", ("supplier_id",), None), ("broken out by month", (), "month"),
    ("split by supplier and month", ("supplier_id",), "month"), ("on a quarterly basis", (), "quarter"),
    ("per product group", ("product_group_id",), None), ("quarter by quarter", (), "quarter"),
])
def test_breakdown_phrases_map_to_the_allow_list(phrase: str, dims: tuple[str, ...], grain: str | None) -> None:
    read = parse_breakdown(f"Company A spend in 2025 {phrase}")
    # the phrase reads "product group"; its level (top-level without a level word) is the reader's
    lexical = tuple("product_group_id" if d == "top_product_group_id" else d for d in dims)
    assert (read.group_by, read.grain, read.unknown) == (lexical, grain, ()), read
    rng = random.Random(SEED)
    for company in COMPANIES:
        period = rng.choice(PERIODS_EN)
        _, params, group_by, got_grain = _call(f"{company} spend {period[0]} {phrase}")
        assert (tuple(group_by), got_grain) == (dims, grain), (phrase, group_by, got_grain)
        assert (params["start_date"], params["end_date"]) == period[1:]


@pytest.mark.parametrize(("german", "dims", "grain"), [
    ("nach Quartalen", (), "quarter"), ("pro Quartal", (), "quarter"), ("quartalsweise", (), "quarter"),
    ("nach Monaten", (), "month"), ("aufgeschlüsselt nach Monat", (), "month"),
    ("aufgeteilt nach Lieferanten", ("supplier_id",), None), ("pro Warengruppe", ("product_group_id",), None),
    ("nach Hauptwarengruppen", ("top_product_group_id",), None),
    ("nach Warengruppe (oberste Ebene)", ("top_product_group_id",), None),
    ("nach Produkt", ("product_code",), None),
])
def test_german_breakdowns(german: str, dims: tuple[str, ...], grain: str | None) -> None:
    for period in PERIODS_DE:
        question = f"Wie viel hat Company A {period[0]} ausgegeben, {german}?"
        _, params, group_by, got_grain = _call(question)
        assert (tuple(group_by), got_grain) == (dims, grain), (question, read_german(question))
        assert (params["start_date"], params["end_date"]) == period[1:], (question, read_german(question))


@pytest.mark.parametrize(("question", "word"), [
    ("Company A spend in Q1 2026 broken down by cost center", "cost center"),
    ("Company A spend in Q1 2026 per buyer", "buyer"), ("Company A spend in 2025 split by plant", "plant"),
    ("Ausgaben von Company A im Jahr 2025 nach Kostenstelle", "cost center"),
    ("Ausgaben von Company A im Jahr 2025 nach Region", "region"),
])
def test_a_breakdown_no_metric_offers_is_named(question: str, word: str) -> None:
    _clarifies(question, word)


# --- shares ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "metric", "extra"), [
    ("What percentage of Company A's spend with Beta in Q1 2026 was Pressure Sensors?",
     "finance.product_group_share", {"product_group_ids": ["PG-PRES", "PG-PRES-WL"], "supplier_ids": ["SUP-18"]}),
    ("What % of Company A's Pressure Sensors spend in Q1 2026 went to Beta?",
     "finance.supplier_share", {"product_group_ids": ["PG-PRES", "PG-PRES-WL"], "supplier_ids": ["SUP-18"]}),
    ("Did Beta get more than a quarter of Company A's spend in Q1 2026?", "finance.supplier_share",
     {"supplier_ids": ["SUP-18"]}),
    ("Was Pressure Sensors over half of Company A's spend in Q1 2026?", "finance.product_group_share",
     {"product_group_ids": ["PG-PRES", "PG-PRES-WL"]}),
    ("War der Anteil von Drucksensoren an den Ausgaben von Company A im 1. Quartal 2026 über die Hälfte?",
     "finance.product_group_share", {"product_group_ids": ["PG-PRES", "PG-PRES-WL"]}),
    ("Hat Beta mehr als zwei Drittel der Ausgaben von Company A im 1. Quartal 2026 bekommen?",
     "finance.supplier_share", {"supplier_ids": ["SUP-18"]}),
    ("War der Anteil von Steuerungstechnik an den Ausgaben von Company A im 1. Quartal 2026 über 10 %?",
     "finance.product_group_share", {}),
    ("Welchen Anteil hatte Kabel & Stecker an den Ausgaben von Company A im 1. Quartal 2026 in Prozent?",
     "finance.product_group_share", {"product_group_ids": ["PG-CABL"]}),
])
def test_shares_with_fractions_and_their_part(question: str, metric: str, extra: dict[str, Any]) -> None:
    got, params, _, _ = _call(question)
    assert got == metric, (question, got, params)
    assert (params["start_date"], params["end_date"]) == ("2026-01-01", "2026-04-01"), params
    for key, value in extra.items():
        assert sorted(params.get(key) or []) == sorted(value), (question, key, params)


def test_how_much_of_the_spend_from_a_date_is_no_share() -> None:
    _, params, _, _ = _call("How much of Company A's spend from 2025-07-01 to 2025-12-31 is open?")
    assert params.get("invoice_statuses") == ["posted"], params


# --- statuses ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("german", "status"), [("bezahlten", ["paid"]), ("offenen", ["posted"]),
                                                ("unbezahlten", ["posted"]), ("beglichenen", ["paid"])])
def test_german_statuses_filter_the_total(german: str, status: list[str]) -> None:
    for period in PERIODS_DE[:3]:
        question = f"Wie viel haben {german} Rechnungen von Beta bei Company A {period[0]} betragen?"
        _, params, _, _ = _call(question)
        assert params.get("invoice_statuses") == status and params.get("supplier_ids") == ["SUP-18"], (
            question, read_german(question), params)


@pytest.mark.parametrize(("question", "words"), [
    ("Summe der strittigen Rechnungen von Company A im 1. Quartal 2026", ("disputed",)),
])
def test_statuses_no_figure_counts_are_named(question: str, words: tuple[str, ...]) -> None:
    _clarifies(question, *words)


@pytest.mark.parametrize("question", ["How much of Company A's spend in H1 2025 is canceled?",
                                      "Summe der stornierten Rechnungen von Company A im letzten Quartal"])
def test_cancelled_totals_are_served_over_cancelled_documents(question: str) -> None:
    # Asked for by name: the governed metric over exactly the cancelled documents, labelled (never spend).
    metric, params, _, _ = _call(question)
    assert metric == "finance.cancelled_draft_invoices" and params["invoice_statuses"] == ["cancelled"], params


@pytest.mark.parametrize("question", ["How much of Company A's spend since March is draft?",
                                      "Summe der Rechnungsentwürfe von Company A im 1. Quartal 2026"])
def test_draft_totals_are_served_over_drafts(question: str) -> None:
    # The marts hold drafts and the spend metric takes the status: the total over drafts, labelled as drafts.
    _, params, _, _ = _call(question)
    assert params.get("invoice_statuses") == ["draft"], (question, params)


@pytest.mark.parametrize(("text", "status"), [("spend is cancelled", "cancelled"),
                                              ("the spend was voided", "cancelled"), ("our spend is draft", "draft"),
                                              ("spend that is paid", None)])
def test_a_status_as_the_predicate(text: str, status: str | None) -> None:
    assert excluded_status(text) == status


# --- exclusions --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cue", ["ausgenommen", "exklusive", "ohne", "außer"])
def test_german_exclusion_words_exclude(cue: str) -> None:
    for spelling in ("Beta", "Supplier Iota"):
        sid = "SUP-18" if spelling == "Beta" else "SUP-60"
        question = f"Wie viel hat Company A im 1. Quartal 2026 {cue} {spelling} ausgegeben?"
        _, params, _, _ = _call(question)
        assert params.get("exclude_supplier_ids") == [sid] and not params.get("supplier_ids"), (
            question, read_german(question), params)
        assert (params["start_date"], params["end_date"]) == ("2026-01-01", "2026-04-01"), params


@pytest.mark.parametrize("question", [
    "What did company b spend with suppliers but excluding gamma last quarter?",
    "Company B spend other than Gamma last year",
    "company b spend other than Control Equipment last year",
])
def test_other_than_and_but_excluding_are_exclusions(question: str) -> None:
    _, params, _, _ = _call(question)
    assert params.get("exclude_supplier_ids") == ["SUP-27"] or params.get("exclude_product_group_ids"), params
    assert "compare_to" not in params, params


# --- amounts -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("phrase", "value", "direction", "inclusive"), [
    ("of more than or equal to €10,000", "10000", "above", True),
    ("greater than or equal to 5k EUR", "5000", "above", True), ("upwards of €20k", "20000", "above", True),
    ("in excess of EUR 25,000", "25000", "above", False), ("of less than or equal to €3,000", "3000", "below", True),
    ("of no more than €2,000", "2000", "below", True), ("of at least EUR 15,000", "15000", "above", True),
    ("over half a million euros", "500000", "above", False),
    ("over a quarter of a million EUR", "250000", "above", False),
    ("above one and a half million EUR", "1500000", "above", False),
])
def test_comparators_and_fractions_of_amounts(phrase: str, value: str, direction: str, inclusive: bool) -> None:
    (amount,) = parse_amounts(f"Company A invoices {phrase} in 2025")
    assert (amount.value, amount.comparator, amount.inclusive) == (Decimal(value), direction, inclusive), amount


def test_a_percentage_is_no_amount() -> None:
    assert parse_amounts("share over 10 % of the spend") == ()
    assert parse_amounts("more than 25 percent of spend") == ()


@pytest.mark.parametrize(("german", "threshold", "direction", "upper"), [
    ("über 10.000 €", "10000.00", "above", None), ("über zehntausend Euro", "10000.00", "above", None),
    ("von mindestens 5.000 EUR", "5000.00", "above", None), ("unter 1,5 Tsd. €", "1500.00", "below", None),
    ("über 1,5 Mio. €", "1500000.00", "above", None), ("von höchstens 2.500 €", "2500.00", "below", None),
    ("zwischen 5.000 € und 20.000 €", "5000.00", "above", "20000.00"),
    ("über eine halbe Million Euro", "500000.00", "above", None),
    ("über eine Viertelmillion Euro", "250000.00", "above", None),
])
def test_german_amounts(german: str, threshold: str, direction: str, upper: str | None) -> None:
    for period in PERIODS_DE:
        question = f"Welche Rechnungen {german} hatte Company A {period[0]}?"
        result = _routed(question)
        assert not result.requires_clarification, (question, read_german(question), result.clarification_question)
        step = next(s for s in result.execution_plan if "threshold" in str(s.arguments))
        args = step.arguments.get("parameters", step.arguments)
        assert Decimal(str(args["threshold"])) == Decimal(threshold), (question, args)
        assert args.get("direction", "above") == direction, (question, args)
        assert (Decimal(str(args["upper_threshold"])) if args.get("upper_threshold") else None) == (
            Decimal(upper) if upper else None), (question, args)
        assert (args["start_date"], args["end_date"]) == period[1:], (question, args)


def test_german_fractions_are_read_before_number_words() -> None:
    assert german_fractions("über eine halbe Million Euro") == "über 0.5 million Euro"
    assert german_fractions("mehr als ein Viertel der Ausgaben") == "mehr als a quarter der Ausgaben"
    assert "between 5.000 € and 20.000 €" in (read_german("Rechnungen zwischen 5.000 € und 20.000 € 2025") or "")


@pytest.mark.parametrize("question", ["Wie viel hat Company A im 2. Halbjahr 2025 ausgegeben, nach Monaten?",
                                      "Wie viel hat Company A im 1. Quartal 2026 ohne Gamma und Delta ausgegeben?"])
def test_a_german_ordinal_dot_is_no_sentence_end(question: str) -> None:
    assert len(_segments(question)) == 1, _segments(question)


def test_a_german_half_year_with_a_grain() -> None:
    _, params, _, grain = _call("Wie viel hat Company A im 2. Halbjahr 2025 ausgegeben, nach Monaten?")
    assert (params["start_date"], params["end_date"], grain) == ("2025-07-01", "2026-01-01", "month"), params
