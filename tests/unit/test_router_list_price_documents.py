"""Two silent-wrong classes (no database, no model): seeded, bounded generators varying the slot.

* A question about what an agreement, contract, manual or clause says of the list price (its increases,
  adjustments, "laut Vertrag", "Preisanpassung") is a document question: never the catalogue's list price read
  (a figure with no agreement text), never the "list price beside another figure" clarification. The catalogue's
  price of a product ("what is the list price of X") stays that read.
* "which <qualifier> products did X buy": a qualifier no group, product or supplier name stands for ("new",
  "expensive", "cheap") is named in a clarification, never echoed in "read as" and dropped from the spend by
  product; a known group ("monitoring", "pressure sensor") still narrows the listing.
"""

from __future__ import annotations

import random

from router.list_prices import about_document, asks_list_price
from router.listings import goods_qualifiers, unknown_qualifiers
from tests.unit.test_router_catalog_approvals import GAZETTEER, N, args, routed, tools

PRODUCTS = ("PRD-482", "PRD-510", "PRD-600", "the Differential pressure sensor DPS-482", "the flow sensor FS-50")
SUPPLIERS = ("Supplier Beta", "Supplier Gamma", "Beta Supplies GmbH", "Supplier Zeta")
DOCUMENT_FRAMES = (
    "What do the agreements say about list price increases for {p}?",
    "What does the contract with {s} say about list price adjustments for {p}?",
    "How often may {s} raise the list price under its agreement?",
    "How often may {s} raise the catalogue list price of {p} under its contract?",
    "Which clause governs changes to the list price of {p}?",
    "Can {s} increase the catalog price of {p} under the framework agreement?",
    "Does the manual mention the list price of {p}?",
    "Is {s} allowed to change list prices during the term of the agreement?",
    "What notice does {s} have to give before a list price increase?",
    "Was sagt der Vertrag mit {s} zur Preisanpassung des Listenpreises für {p}?",
    "Wie oft darf {s} den Listenpreis erhöhen?",
    "Listenpreis {p} laut Vertrag mit {s}?",
    "Darf {s} laut Rahmenvertrag die Listenpreise von {p} anpassen?",
)
CATALOGUE_FRAMES = ("What is the list price of {p}?", "catalog list price of {p}", "Listenpreis {p} laut Katalog?",
                    "list price {p}", "Katalogpreis {p}?")


def test_document_questions_about_the_list_price_are_never_the_catalogue_read() -> None:
    rng = random.Random(23)
    for _ in range(N * 2):
        question = rng.choice(DOCUMENT_FRAMES).format(p=rng.choice(PRODUCTS), s=rng.choice(SUPPLIERS))
        result = routed(question)
        assert result.workflow != "catalog_list_price", (question, result.interpretation)
        assert "catalog.list_price" not in tools(result), question
        assert not any(r.startswith("list price:") for r in result.clarification_reasons), (
            question, result.clarification_question)
        # a document route or a clarification of the question's own words, never a figure
        assert not any(t.startswith(("finance.", "metrics.")) for t in tools(result)), (question, tools(result))


def test_the_reported_document_questions_search_the_documents() -> None:
    increases = routed("What do the agreements say about list price increases for PRD-482?")
    assert not asks_list_price("What do the agreements say about list price increases for PRD-482?")
    assert "documents.search" in tools(increases), (increases.workflow, increases.clarification_question)
    raises = routed("How often may Supplier Beta raise the list price under its agreement?")
    assert raises.workflow == "document_answer" and "documents.search" in tools(raises), (
        raises.workflow, raises.clarification_question)


def test_the_catalogue_list_price_of_a_product_is_still_the_catalogue_read() -> None:
    rng = random.Random(29)
    for _ in range(N):
        code = rng.choice(("PRD-482", "PRD-510", "PRD-600"))
        question = rng.choice(CATALOGUE_FRAMES).format(p=code)
        assert not about_document(question), question
        result = routed(question)
        assert result.workflow == "catalog_list_price", (question, result.workflow, result.clarification_question)
        assert args(result, "catalog.list_price") == {"product_codes": [code]}, question


QUALIFIERS = ("new", "expensive", "cheap", "cheapest-looking", "premium", "neue", "obsolete", "seasonal")
LISTING_FRAMES = ("Which {q} products did {c} buy in {t}?", "which {q} items has {c} bought since {t}?",
                  "Company B: which {q} products did we buy from Supplier Beta in {t}?",
                  "What {q} articles did {c} actually purchase in {t}?",
                  "which {q} monitoring products did {c} buy in {t}?")
PERIODS = ("Q1 2026", "March 2026", "2025", "H2 2025")


def test_unknown_qualifiers_of_a_goods_listing_are_asked_never_dropped() -> None:
    rng = random.Random(31)
    for _ in range(N * 2):
        qualifier = rng.choice(QUALIFIERS)
        question = rng.choice(LISTING_FRAMES).format(q=qualifier, c=rng.choice(("Company A", "Company B")),
                                                     t=rng.choice(PERIODS))
        result = routed(question)
        assert result.requires_clarification and not result.execution_plan, (question, result.workflow)
        assert qualifier.split("-")[0].lower() in (result.clarification_question or "").lower(), (
            question, result.clarification_question)


def test_known_goods_still_narrow_the_listing() -> None:
    rng = random.Random(37)
    for _ in range(N):
        goods = rng.choice(("monitoring", "sensor", "pressure sensor", "Monitoring", "packaging"))
        question = f"which {goods} products did Company A buy in {rng.choice(PERIODS)}?"
        result = routed(question)
        assert not result.requires_clarification, (question, result.clarification_question)
        assert result.entities.product_group_id is not None, (question, result.entities)


def test_qualifier_helpers_keep_neutral_words_and_known_names() -> None:
    vocabulary = [g.group_name for g in GAZETTEER.product_groups] + ["Supplier Beta"]
    assert goods_qualifiers("Which products did Company A buy in Q1 2026?") == ()
    assert goods_qualifiers("which of our catalog products did Company A buy in Q1 2026?") == ()
    assert unknown_qualifiers("Which new sensor products did Co A buy in May 2026?", vocabulary) == ("new",)
    assert unknown_qualifiers("Which sensor products did Co A buy in May 2026?", vocabulary) == ()
    assert unknown_qualifiers("Which Beta products did Co A buy in May 2026?", vocabulary) == ()
    assert unknown_qualifiers("Which monitoring products did Co A buy in May 2026?", vocabulary) == ()
