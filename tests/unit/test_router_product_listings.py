"""Products bought listings whose buyer, supplier or goods sit elsewhere than "which products did X buy from Y"
(router/listings.py): the supplier before the buyer, the buyer between the noun and the verb, the goods or supplier
between the noun and the buyer, a buyer set before a verbless question. Each is read as the spend by product with
every constraint kept (never the catalogue's products); suppliers and catalogue questions are not read so."""

from __future__ import annotations

import itertools

import pytest

from router.listings import read_purchase_listing

_BUYERS = ("company b", "Alpenland", "Kestrel Lebensmittel")
_SUPPLIERS = ("gamma controls", "Beta Trading", "Zeta")
_PERIODS = ("in 2025", "since jan 26", "in H2 25", "in Q1 2026")
_FRAMES = (
    ("products bought from {s} by {b} {p}", "spend of {b} with {s} {p}, by product"),
    ("products bought from {s} by {b}, {p}", "spend of {b} with {s}, {p}, by product"),
    ("products {b} bought from {s} {p}", "spend of {b} with {s} {p}, by product"),
    ("items {b} ordered from {s} {p}", "spend of {b} with {s} {p}, by product"),
    ("which products from {s} did {b} buy {p}", "spend of {b} with {s} {p}, by product"),
    ("which products in control equipment did {b} buy {p}", "spend of {b} on control equipment {p}, by product"),
    ("{b}: which products from {s} {p}", "{b}: spend with {s} {p}, by product"),
)


@pytest.mark.parametrize(("question", "expected"), [
    (f.format(b=b, s=s, p=p), e.format(b=b, s=s, p=p))
    for (f, e), b, s, p in itertools.product(_FRAMES, _BUYERS, _SUPPLIERS, _PERIODS)][::4])
def test_product_listings_read_as_spend_by_product(question: str, expected: str) -> None:
    assert read_purchase_listing(question) == expected


@pytest.mark.parametrize("question", [
    "Vendors we bought from at Xenon in 2025",
    "which products in control equipment does Gamma supply",
    "which products from Zeta are in the catalog",
    "how many products bought from Zeta by company b in 2025",
])
def test_other_questions_are_not_product_listings_of_these_shapes(question: str) -> None:
    read = read_purchase_listing(question)
    assert read is None or not read.endswith(", by product"), (question, read)


@pytest.mark.parametrize(("supplier", "verb", "group"), list(itertools.product(
    ("Helix Reagents", "Beta Trading", "Gamma Controls"), ("sells in", "supplies in", "offers under"),
    ("lab consumables", "control equipment"))))
def test_what_a_supplier_sells_in_a_group_is_the_catalogue(supplier: str, verb: str, group: str) -> None:
    from router.catalog_asks import read_catalog_ask

    assert read_catalog_ask(f"What {supplier} {verb} {group}?") == (
        f"which products does {supplier} sell in {group}")
    assert read_catalog_ask(f"what did {supplier} buy in {group}") is None


@pytest.mark.parametrize(("question", "expected"), [
    # the buyer of a passive listing is no breakdown by company: the rows were dropped, the products summed
    ("products bought from Zeta by Company A in Q1 2026", "spend of Company A with Zeta in Q1 2026, by product"),
    ("items ordered from Beta Trading by company b since jan 26",
     "spend of company b with Beta Trading since jan 26, by product"),
    # a grouping the listing names itself still wins over the implied one
    ("what did Company A buy in March 2026, split by product group",
     "spend of Company A in March 2026, split by product group"),
])
def test_a_passive_listings_buyer_is_no_grouping_of_its_own(question: str, expected: str) -> None:
    assert read_purchase_listing(question) == expected
