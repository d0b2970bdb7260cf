"""Slot-aware unknown names (router/name_slots.py): an unread name asks back only where it fills a constraint slot.

A made-up word in a framing segment (a header or trailer cut off by a dash, colon or brackets) is named on a
PARTIAL answer; the same word after a cue, before a spend noun or as a spend object is still asked about. An
organisation-unit noun beside a resolved company is that company; beside an unknown name it stays asked about.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.entities import Company, Gazetteer, ProductGroup
from router.name_slots import ORG_UNIT_NOUNS, company_units, framing, generic_goods, glossed
from router.reader import read
from router.unapplied_limits import unapplied_limits

AS_OF = dt.date(2026, 5, 15)
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Alpenland Logistik AG", "EUR"), Company("COMP-K", "Kestrel Lebensmittel GmbH", "EUR")],
    [("SUP-40", "Orbis Packaging AG"), ("SUP-18", "Northwind Sensors Ltd")],
    [("Orbis Packaging", "SUP-40"), ("Northwind Sensors", "SUP-18")],
    [ProductGroup("PG-PACK", "Packaging"), ProductGroup("PG-SENS", "Sensors")],
)
MADE_UP = ("Zorbix", "Quillon", "Vantrex", "Morvel", "Plexa")
SMALL = settings(max_examples=10, deadline=None, derandomize=True, database=None)


def _asked(question: str) -> list[str]:
    return [u.text for u in read(question, GAZETTEER, AS_OF).not_understood if u.kind in ("name", "category")]


@given(st.sampled_from(MADE_UP), st.sampled_from([
    "Re the {w} deck — {q}", "Quick one for the {w} pack: {q}", "{q} — need by {w} pls",
    "{q} (for the {w} board memo)", "Pour le comité {w} de demain : {q}", "{q} - voor het {w} overleg graag",
]), st.sampled_from(["Kestrel spend Q4 2025", "Alpenland Logistik AG spend in March 2026",
                     "how many invoices did Kestrel book in Q3 2025"]))
@SMALL
def test_a_made_up_word_in_framing_is_named_not_asked(word: str, frame: str, ask: str) -> None:
    question = frame.format(w=word, q=ask)
    reading = read(question, GAZETTEER, AS_OF)
    assert word not in [u.text for u in reading.not_understood], question
    assert any(word in u.text for u in reading.unslotted), question
    assert reading.entities.company_id in ("COMP-A", "COMP-K")


@given(st.sampled_from(MADE_UP), st.sampled_from([
    "spend with {w} Metal at Kestrel Q4 2025", "{w} Metal spend Kestrel Q4 2025", "Kestrel spend on {w} Q4 2025",
    "Re the Q-review deck — Kestrel spend with {w} Q4 2025", "Kestrel Q4 2025 spend — only {w} pls",
    "Kestrel spend Q4 2025 — excluding the {w} line pls", "{w} site spend in Q4 2025",
    "Kestrel spend Q1 2026: what went to {w} Ltd?", "Kestrel Q1 2026 — chez le fournisseur {w} svp",
]))
@SMALL
def test_a_made_up_word_in_a_constraint_slot_is_still_asked(word: str, frame: str) -> None:
    question = frame.format(w=word)
    assert any(word in t for t in _asked(question)), question


def test_framing_needs_a_separator_and_prose() -> None:
    assert _asked("Re the Zorbix deck Alpenland spend Q1 2026") == ["Zorbix"]  # one segment: asked
    assert framing("Company A — hydraulics?", 12, 22, [(0, 9)]) is False  # a bare noun is a constraint
    assert framing("Company A spend — just the Zorbix line", 27, 33, [(0, 9)]) is False  # a restriction word


@given(st.sampled_from(["site", "plant", "shop", "branch", "Werk", "usine", "vestiging", "zakład"]),
       st.sampled_from(["what did {c} {u} spend in Q4 2025", "what did {u} {c} spend in Q4 2025",
                        "{c} {u}'s spend in Q4 2025", "{c} {u}: spend in Q4 2025"]),
       st.sampled_from(["Kestrel", "alpenland", "COMP-A"]))
@settings(max_examples=16, deadline=None, derandomize=True, database=None)
def test_an_organisation_unit_beside_a_company_is_that_company(unit: str, frame: str, company: str) -> None:
    question = frame.format(c=company, u=unit)
    reading = read(question, GAZETTEER, AS_OF)
    assert reading.entities.company_id in ("COMP-A", "COMP-K"), question
    assert not [u for u in reading.not_understood if unit.lower() in u.text.lower()], question


def test_an_organisation_unit_beside_an_unknown_name_is_asked() -> None:
    assert _asked("what did Brno site spend in Q4 2025") == ["Brno site"]
    assert company_units("what did Brno site spend", []) == ()
    assert {"site", "plant", "shop", "branch", "werk", "usine"} <= ORG_UNIT_NOUNS


@pytest.mark.parametrize("noun", ["office", "offices", "store", "stores", "warehouse", "depot", "works", "units",
                                  "unit", "facilities", "premises"])
def test_a_noun_that_can_name_what_was_bought_is_no_organisation_unit(noun: str) -> None:
    # "office spend" may be office supplies, "warehouse costs" a cost category: never the whole company silently
    assert noun not in ORG_UNIT_NOUNS
    if not noun.startswith("unit"):  # ("units" is the units measure, read as such)
        assert _asked(f"Kestrel {noun} costs Q4 2025") or _asked(f"Kestrel {noun} spend Q4 2025")
    assert company_units(f"Kestrel {noun} spend Q4 2025", [(0, 7)]) == ()


def test_a_unit_read_as_the_company_is_said_in_the_restatement() -> None:
    reading = read("alpenland site spend Q4 2025", GAZETTEER, AS_OF)
    assert reading.unit_reads == (("site", "Alpenland Logistik AG"),)


@pytest.mark.parametrize("frame", ["Kestrel spend Q4 2025 ({n})", "Kestrel spend Q4 2025 - {n}",
                                   "{n} — Kestrel spend Q4 2025", "Kestrel spend Q4 2025: {n}"])
@pytest.mark.parametrize("name", ["Nordwind Pumpen Service", "Zorbix Metal GmbH", "Quillon Vantrex AG",
                                  "Plexa Morvel Industrial"])
def test_an_unknown_name_after_the_ask_is_never_framing(frame: str, name: str) -> None:
    question = frame.format(n=name)
    reading = read(question, GAZETTEER, AS_OF)
    assert not reading.unslotted, question  # never named as framing on a figure presented as partial
    assert any(t in name for t in _asked(question)), question  # asked about (a part may match a known name)


def test_no_site_limit_beside_a_company() -> None:
    text = "alpenland site spend Feb 2026 split by supplier"
    assert [x.words for x in unapplied_limits(text)] == ["alpenland site"]
    assert unapplied_limits(text, units=company_units(text, [(0, 9)])) == ()
    assert [x.words for x in unapplied_limits("spend for plant Graz in 2025", units=())] == ["plant Graz"]


@pytest.mark.parametrize("goods", ["stuff", "things", "Zeug", "trucs"])
def test_everyday_goods_name_everything_bought(goods: str) -> None:
    assert generic_goods(goods) and not generic_goods(f"{goods} toner")
    assert goods not in _asked(f"how much {goods} did Kestrel buy in Q4 2025")


def test_a_gloss_read_in_brackets_is_named_not_asked() -> None:
    question = "Kestrel invoices before Christmas (1-24 Dec 2025)"
    reading = read(question, GAZETTEER, AS_OF)
    assert [u.text for u in reading.unslotted] == ["Christmas"] and not reading.not_understood
    assert glossed("Foo (Orbis)", 3, [(5, 10)]) and not glossed("Foo (Orbis Zorbix)", 3, [(5, 10)])


@pytest.mark.parametrize(("question", "company"), [("Alpenland Logistics spend with Orbis Q4 2025", "COMP-A"),
                                                   ("Kestrel Lebensmitteln spend Q4 2025", "COMP-K")])
def test_a_company_name_word_in_another_form_is_the_company(question: str, company: str) -> None:
    reading = read(question, GAZETTEER, AS_OF)
    assert reading.entities.company_id == company and not reading.not_understood


def test_another_word_after_a_company_is_still_asked() -> None:
    assert _asked("Alpenland Transport spend Q1 2026") == ["Transport"]


@pytest.mark.parametrize("slip", ["teh", "wich", "adn"])
def test_a_slip_of_a_function_word_is_grammar_but_a_capitalised_name_is_asked(slip: str) -> None:
    assert slip not in _asked(f"What was {slip} total for Kestrel in Q4 2025?")
    assert _asked(f"What did Kestrel spend with {slip.title()} Ltd in 2025") == [f"{slip.title()} Ltd"]


@pytest.mark.parametrize(("question", "named"), [("Kestrel office furniture spend in 2025", "office furniture"),
                                                 ("alpenland shop fittings spend in 2025", "shop fittings")])
def test_a_unit_noun_that_modifies_another_noun_is_what_was_bought(question: str, named: str) -> None:
    assert _asked(question) == [named]


@pytest.mark.parametrize("noun", ["bill", "bills", "cost", "spend"])
def test_the_object_of_a_bill_is_a_slot(noun: str) -> None:
    assert read(f"What was the {noun} for sensors at Kestrel in Q4 2025?", GAZETTEER, AS_OF).entities.product_group_id \
        == "PG-SENS"
    assert _asked(f"What was teh {noun} for zorblax at Kestrel in Q4 2025?") == ["zorblax"]


@pytest.mark.parametrize("question", ["Alpenland Logistik AG spend Q1 2026 with grupo bom",
                                      "Alpenland Logistik AG spend Q1 2026 from grupo bom",
                                      "Kestrel spend in March 2026 chez grand compte"])
def test_plain_words_in_a_name_slot_are_asked_not_named(question: str) -> None:
    # after "with / con / chez" the words fill the supplier's slot: a name candidate whatever their class, never a
    # PARTIAL total over every supplier
    slot = question.split(" with ")[-1].split(" from ")[-1].split(" con ")[-1].split(" chez ")[-1]
    assert _asked(question) == [slot], read(question, GAZETTEER, AS_OF).not_understood
