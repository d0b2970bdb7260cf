"""A product's manual asked for by name or code (router/manual_asks.py): an existence ask, the product's words cut."""

from __future__ import annotations

import pytest

from router.manual_asks import manual_ask, manual_id, manual_note, manual_question

NOUNS = ("manual", "datasheet", "data sheet", "spec sheet", "user guide", "handbook", "Datenblatt",
         "Bedienungsanleitung", "fiche technique", "scheda tecnica", "handleiding", "ficha técnica")
FRAMES = ("do we have the {noun} of {product}?", "is there a {noun} for {product}", "pls send the {noun} for "
          "{product}, thanks", "{noun} for {product} on file?", "could you share the {noun} (pdf) of {product}?")
PRODUCTS = ("the pallet wrapper 3000", "prd77", "Kopierpapier A4", "nitrile gloves size L")


@pytest.mark.parametrize("noun", NOUNS)
@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize("product", PRODUCTS)
def test_manual_named_after_the_noun(noun: str, frame: str, product: str) -> None:
    asked = manual_ask(frame.format(noun=noun, product=product))
    assert asked is not None
    assert asked.product_text == product.removeprefix("the ")


@pytest.mark.parametrize("text,product", [
    ("any nitrile gloves datasheet?", "nitrile gloves"),
    ("can you forward the PRD-123 user guide please", "PRD-123"),
    ("Haben wir das Kompressor Handbuch?", "Kompressor"),
])
def test_manual_named_before_the_noun(text: str, product: str) -> None:
    asked = manual_ask(text)
    assert asked is not None and asked.product_text == product


@pytest.mark.parametrize("text", [
    "what operating temperature does the PRD-123 manual state?",       # a fact of the manual
    "maximum torque per the datasheet of the wrench set",              # a fact (unit word)
    "spend on the items the manual covers in March",                   # a figure
    "invoices for PRD-123 mentioned in the handbook",                  # other documents
    "list price of the pallet wrapper per its datasheet",              # a price
    "manual invoices of Company B last quarter",                       # "manual" as an adjective of invoices
    "total spend with Beta in 2025",                                   # no manual at all
    "what does the supply agreement say about the handbook of rules",  # an agreement's clause
])
def test_not_a_manual_ask(text: str) -> None:
    assert manual_ask(text) is None


def test_lookup_words() -> None:
    assert manual_id("PRD-4410") == "manual-prd-4410"
    assert manual_question(["manual-prd-1", "manual-prd-2"]) == \
        "Is there document manual-prd-1 and document manual-prd-2?"
    assert "Read as: the manual (datasheet) of PRD-1 (Valve), PRD-2." in manual_note("x", [("PRD-1", "Valve"),
                                                                                         ("PRD-2", "")])


# -- a compound question about a missing document (router/missing_documents.py) ----------------------------------
from router.missing_documents import NO_ASK, set_aside_note, sole_not_found  # noqa: E402


@pytest.mark.parametrize("outcomes,expected", [
    ([("not_found", ()), ("clarification", (NO_ASK,))], 0),
    ([("clarification", (NO_ASK,)), ("not_found", ())], 1),
    ([("clarification", (NO_ASK,)), ("not_found", ()), ("clarification", (NO_ASK,))], 1),
    ([("not_found", ()), ("answered", ())], None),                             # another part is answered
    ([("not_found", ()), ("clarification", ("period: which period?",))], None),  # a real question asked back
    ([("not_found", ()), ("clarification", (NO_ASK, "unknown name 'Zeta'"))], None),
    ([("not_found", ())], None),                                               # not compound
    ([("not_found", ()), ("not_found", ())], None),                            # each missing document said
])
def test_sole_not_found(outcomes: list[tuple[str, tuple[str, ...]]], expected: int | None) -> None:
    assert sole_not_found(outcomes) == expected


def test_set_aside_note_keeps_sources_last() -> None:
    text = set_aside_note("Not found: no invoice X. Sources: a, b.", ["supplier claims payment is due"])
    assert text.endswith("Sources: a, b.") and "'supplier claims payment is due'" in text
