"""Exclusions written after the name, longer exclusion cues, abbreviated group names, and category-like noun
phrases that map to nothing (named back, never answered with the company total); no database.

The classes and their slot grammars are those of :mod:`evaluation.probes_exclusions`; these tests pin each cue
and noun-phrase place with the in-memory gazetteer of :mod:`tests.unit.test_router_analysis`.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.entities import Company, Gazetteer, ProductGroup, group_abbreviations
from router.reader import noun_phrases, postfix_excluded, read
from tests.unit.test_router_analysis import FAST, GAZETTEER, SHORT, call, routed

SENS = ["PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]
PRES = ["PG-PRES", "PG-PRES-WL"]
CTRL = ["PG-CAB", "PG-CTRL"]
_POST = ("{x} excluded", "with {x} excluded", "{x} left out", "leave {x} out", "leaving {x} out",
         "{x} not included", "with {x} taken out", "{x} removed", "{x} aside", "without counting {x}",
         "{x} not counted", "leave out {x}", "take out {x}", "{x} ignored")
_PRE = ("excluding", "but not counting", "if we ignore", "leaving aside", "disregarding", "without counting",
        "but not including", "setting aside", "w/o", "excl.", "not counting", "except for")


@pytest.mark.parametrize("cue", _POST + tuple(f"{c} {{x}}" for c in _PRE))
def test_a_group_left_out_by_any_cue_is_excluded(cue: str) -> None:
    metric, params, _ = call(f"Company B spend in H2 2025, {cue.format(x='control equipment')}")
    assert metric == "finance.company_spend"
    assert params["exclude_product_group_ids"] == CTRL and "product_group_ids" not in params, params


@pytest.mark.parametrize("cue", _POST + tuple(f"{c} {{x}}" for c in _PRE))
def test_a_supplier_left_out_by_any_cue_is_excluded(cue: str) -> None:
    _, params, _ = call(f"Company A spend in 2025 {cue.format(x='Supplier Delta')}")
    assert params["exclude_supplier_ids"] == ["SUP-31"] and "supplier_ids" not in params, params


@pytest.mark.parametrize("cue", ("{x} excluded", "leave {x} out", "but not counting {x}", "if we ignore {x}"))
def test_a_subgroup_left_out_of_its_group(cue: str) -> None:
    _, params, _ = call(f"Company A sensors spend Q3 2025 {cue.format(x='pressure sensors')}")
    assert params["product_group_ids"] == SENS and params["exclude_product_group_ids"] == PRES, params


def test_a_ranking_leaves_out_the_supplier_after_if_we_ignore() -> None:
    metric, params, group_by = call("Company A's top 2 suppliers in 2025 if we ignore Gamma")
    assert metric == "finance.spend_ranking" and group_by == ["supplier_id"]
    assert params["exclude_supplier_ids"] == ["SUP-27"] and "supplier_ids" not in params, params


def test_a_list_before_the_cue_is_left_out_whole() -> None:
    _, params, _ = call("Company A spend in 2025 with Beta and Delta excluded")
    assert sorted(params["exclude_supplier_ids"]) == ["SUP-18", "SUP-31"], params


def test_postfix_cue_needs_its_name_right_before() -> None:
    text = "leave Beta and Gamma out, Delta stays"
    spans = [(6, 10), (15, 20), (27, 32)]
    assert postfix_excluded(text, spans) == {(6, 10), (15, 20)}
    # "out" alone is no cue ("Beta's sensors sold out"); a verb of leaving must stand before the names
    assert postfix_excluded("Beta out of stock", [(0, 4)]) == set()


@pytest.mark.parametrize(("question", "named"), [
    ("Company A spend on office furniture in 2025", "office furniture"),
    ("Company A office furniture spend in 2025", "office furniture"),
    ("Company A's catering spend in Q1 2026", "catering"),
    ("How much did Company B spend on sensor software in Q1 2026?", "sensor software"),
    ("Company A spend in March 2026 on printer toner", "printer toner"),
    ("Total welding supplies spend for Company A in 2025", "welding supplies"),
    ("Company A spend in 2025 on IT hardware", "IT hardware"),
    ("company b consumables storage spend since March", "consumables storage"),
    # a speech transcript writes the acronym lowercase: "it" before a noun is no pronoun
    ("how much did company a spend on it hardware in 2025", "it hardware"),
    ("how much did company b spend on it equipment last year", "it equipment"),
])
def test_an_unknown_noun_phrase_is_named_never_the_total(question: str, named: str) -> None:
    result = routed(question)
    assert result.requires_clarification and not result.execution_plan, result.execution_plan
    assert named in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("question", [
    "how much did Company A spend on it in 2025", "what did Company A spend on it with Beta in Q1 2026",
    "Company A total spend in 2025", "Company A supplier spend in 2025", "Company A's overall spend in Q1 2026",
    "Company A procurement spend in 2025", "Company A sensors spend in 2025", "Company A spend on sensors in 2025",
    "Company A spend in Q1 2026 on control equipment", "Company A consumables spend last quarter",
    "Company A's temp sensors spend in 2025", "Company A spend with Beta in 2025, asap",
    "Company A spend on sensors and control equipment in 2025",
])
def test_vocabulary_and_known_groups_are_no_unknown_noun(question: str) -> None:
    result = routed(question)
    assert "I do not know" not in (result.clarification_question or ""), result.clarification_question


def test_a_verb_after_a_group_is_no_noun_of_it() -> None:
    # "hold" follows the group but is not in the place of a purchased thing
    question = "Which certificates must the supplier of Sensors hold, and what did Company A spend in Q1 2026?"
    assert "Sensors hold" not in (routed(question).clarification_question or "")


def test_noun_phrases_join_a_group_word_and_stop_at_read_spans() -> None:
    text = "Company A spend on office furniture in 2025"
    residual = " " * 9 + text[9:19] + " " * 6 + text[25:36] + " " * 7
    assert noun_phrases(text, residual, [(19, 25)], [(0, 9), (19, 25), (36, 43)]) == [(19, 35, "office furniture")]


@given(st.sampled_from(sorted(SHORT)), st.sampled_from(("excluded", "left out", "aside", "ignored")))
@FAST
def test_every_short_name_before_a_postfix_cue_is_excluded(sid: str, cue: str) -> None:
    reading = read(f"Company A spend in 2025, {SHORT[sid]} {cue}", GAZETTEER, dt.date(2026, 5, 15))
    assert reading.excluded_supplier_ids == (sid,) and not reading.entities.supplier_ids


def test_abbreviated_group_names() -> None:
    gazetteer = Gazetteer.build([Company("COMP-X", "Xenon Pharma AG", "EUR")], [], [],
                                [ProductGroup("PG-LAB", "Laboratory Equipment"),
                                 ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB")])
    reading = read("Xenon's lab equipment spend in 2025", gazetteer, dt.date(2026, 5, 15))
    assert reading.entities.product_group_id == "PG-LAB" and not reading.not_understood
    # the cut word never stands for the group alone, and a full spelling of another group stays that group's
    abbreviations = group_abbreviations(gazetteer)
    assert ("lab",) not in abbreviations and ("lab", "consumable") not in abbreviations


@pytest.mark.parametrize(("spelling", "sid"), [("Iota Cable", "SUP-60"), ("Epsilon Instruments", "SUP-22"),
                                               ("Gamma Control Systems", "SUP-27")])
def test_a_supplier_named_by_the_start_of_its_trade_name_is_one_name(spelling: str, sid: str) -> None:
    reading = read(f"How many invoices did Company A get from {spelling} in 2025?", GAZETTEER, dt.date(2026, 5, 15))
    assert reading.entities.supplier_ids == (sid,) and not reading.not_understood, reading.not_understood


_LAB = Gazetteer.build([Company("COMP-X", "Xenon Pharma AG", "EUR")], [("SUP-93", "Gamma Labortechnik AG")], [],
                       [ProductGroup("PG-LAB", "Laboratory Equipment"),
                        ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB"), ProductGroup("PG-OFF", "Office")],
                       [("Laborgeräte", "PG-LAB"), ("Laborverbrauchsmaterial", "PG-LABC"), ("Bürobedarf", "PG-OFF"),
                        ("Büro", "PG-OFF")])


@pytest.mark.parametrize(("word", "gid"), [("Laborbedarf", "PG-LAB"), ("Labormaterial", "PG-LAB"),
                                           ("Büromaterial", "PG-OFF"), ("Laborverbrauchsmaterial", "PG-LABC")])
def test_german_supply_words_read_as_their_group(word: str, gid: str) -> None:
    reading = read(f"Xenon {word} spend in 2025", _LAB, dt.date(2026, 5, 15))
    assert reading.entities.product_group_id == gid and not reading.not_understood, reading.not_understood


def test_a_group_word_inside_a_supplier_name_is_the_supplier() -> None:
    reading = read("Xenon spend with Gamma Labortechnik in 2025", _LAB, dt.date(2026, 5, 15))
    assert reading.entities.supplier_ids == ("SUP-93",) and reading.entities.product_group_id is None


def test_a_german_ranking_by_spend_is_read_whole() -> None:
    metric, params, group_by = call("Die 3 größten Lieferanten von Company A nach Ausgaben im letzten Quartal")
    assert metric == "finance.spend_ranking" and group_by == ["supplier_id"] and params["limit"] == 3, params


def test_a_currency_after_a_read_product_is_no_object() -> None:
    question = "Company A: cheapest unit price we were invoiced for PRD-482 on a EUR invoice in 2025"
    assert "I do not know" not in (routed(question).clarification_question or "")


def test_a_restated_excluded_group_is_left_out_with_it() -> None:
    _, params, _ = call("Company B spend in Q1 2026, take out control equipment (Control Equipment)")
    assert params["exclude_product_group_ids"] == CTRL and "product_group_ids" not in params, params


@pytest.mark.parametrize(("question", "named"), [
    ("Company A calibration training spend in H1 2025 please", "calibration training"),
    ("Company A calibration software spend in 2025", "calibration software"),
])
def test_a_vocabulary_noun_stays_in_the_phrase_it_names(question: str, named: str) -> None:
    assert named in (routed(question).clarification_question or "")


def test_a_courtesy_word_after_a_postfix_cue_is_no_target() -> None:
    _, params, _ = call("Company A's top 2 suppliers in H1 2025 Gamma Control Systems excluded please")
    assert params["exclude_supplier_ids"] == ["SUP-27"], params


@pytest.mark.parametrize("question", ["Company A sensor repairs spend in 2025", "Company A spend on sensor maintenance"
                                      " in 2025", "How much did Company A spend on consumables services in 2025?"])
def test_an_activity_noun_after_a_group_is_another_noun(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification and "I do not know" in (result.clarification_question or ""), (
        result.clarification_question)


@pytest.mark.parametrize("question", ["Company A sensors equipment spend in 2025", "Company A spend on consumables "
                                      "supplies in 2025"])
def test_a_goods_noun_after_a_group_is_the_group(question: str) -> None:
    assert "I do not know" not in (routed(question).clarification_question or "")


def test_a_postfix_cue_after_a_restated_name_leaves_both_out() -> None:
    _, params, _ = call("What was Company B's spend Q1 2026 control equipment (Control Equipment) aside?")
    assert params["exclude_product_group_ids"] == CTRL and "product_group_ids" not in params, params


@pytest.mark.parametrize("cue", ("except", "except for", "excluding", "other than", "but not", "apart from", "excl.",
                                 "without", "not counting", "leaving out"))
@pytest.mark.parametrize(("group", "group_ids"), [("monitoring products", ["PG-MON", *SENS]), ("sensors", SENS)])
def test_a_supplier_right_after_a_group_and_a_cue_is_left_out(cue: str, group: str, group_ids: list[str]) -> None:
    # the cue follows the group's name, yet its target is the supplier after it: never a supplier filter
    _, params, _ = call(f"Company A spend in 2025 on {group} {cue} Supplier Delta")
    assert params["exclude_supplier_ids"] == ["SUP-31"] and "supplier_ids" not in params, params
    assert sorted(params["product_group_ids"]) == sorted(group_ids), params
