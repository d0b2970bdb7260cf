"""Product-level asks (no database, no model): product names typed short, unit-price and units wording, product
lists, and the company of a product figure.

* a product named by its specification or model code with its head noun ("A4 paper", "pt-100 probe"), by a joined
  compound of two name words ("coldroom", "flowmeter", "eurocrates"), by a word cut short with or without a dot
  ("press.", "compr.") or a contraction's plural ("ctrls"); an unknown specification names nothing;
* "spend / cost per unit|piece|ea" of a product is its average unit price; "highest price per unit" stays the
  extreme; "number of <product> bought" counts units; "unit price on the most recent <product> invoice" is the
  latest price;
* "bought off <supplier>" is "bought from"; "does <supplier> carry any <goods>" is the supplier's catalogue;
* "comp 7kw" (a rating after "comp") is no company id;
* a unit price or units of one product with no company in a tenant of several companies is the tenant's figure,
  stated as all companies; two products' prices compared stay tenant-wide too.

The slots are varied with seeded generators (other names, codes, units, positions), never the training questions.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from procura.db.session import AuthContext
from router.catalog_relations import read_catalog_relation
from router.contract import PlanStep, RoutingResult
from router.described_products import catalogue, described_products
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.per_item import priced_per_item
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.rules import find_identifiers
from router.tools import TOOLS
from router.unit_prices import _LATEST, _UNITS
from router.vocabulary import normalise
from semantic.loader import load_registry
from semantic.schema import load_snapshot

RNG = random.Random(4045)
HEADS = ("probe", "gauge", "valve", "sensor", "cabinet", "logger", "meter", "pump", "filter", "switch")
MODIFIERS = ("thermal", "vacuum", "digital", "pressure", "rotary", "compact", "industrial", "ceramic")


def _code() -> tuple[str, str]:
    """A model code as the catalogue writes it and as a buyer types it (case, hyphen moved or left out)."""
    letters = "".join(RNG.choice("ABCDEFGHKLMPRSTVX") for _ in range(RNG.randint(1, 3)))
    digits = str(RNG.randint(2, 999))
    written = f"{letters}{digits}" if RNG.random() < 0.5 else f"{letters}-{digits}"
    typed = RNG.choice((f"{letters.lower()}-{digits}", f"{letters.lower()}{digits}", f"{letters} {digits}"))
    return written, typed


@pytest.mark.parametrize("seed", range(8))
def test_model_code_with_head_noun_names_the_product(seed: int) -> None:
    RNG.seed(seed)
    written, typed = _code()
    head, other_head = RNG.sample(HEADS, 2)
    name = f"{written} {RNG.choice(MODIFIERS)} {head}" if RNG.random() < 0.5 else \
        f"{RNG.choice(MODIFIERS).title()} {head} {written}"
    table = catalogue((("PRD-100", name), ("PRD-200", f"{RNG.choice(MODIFIERS).title()} {other_head}")), ())
    found = described_products(f"what did we pay for the {typed} {head}s last month", table)
    assert [d.codes for d in found] == [("PRD-100",)], (name, typed)
    # another code of the same head noun names nothing (digits are compared whole)
    wrong = typed.rstrip("0123456789") + str(int(re.findall(r"\d+", typed)[-1]) + 1)
    assert not [d for d in described_products(f"price of the {wrong} {head}", table) if "PRD-100" in d.codes]


@pytest.mark.parametrize(("name", "typed"), [
    ("Copy paper A3 (box)", "A3 paper"), ("Label rolls 70x30", "70x30 labels"), ("Hose clamp set M16", "M16 clamps"),
    ("Pallet 1200x800", "1200x800 pallets"), ("Fan heater 3 kW", "3kw heater"),
])
def test_specification_with_head_noun(name: str, typed: str) -> None:
    table = catalogue((("PRD-1", name), ("PRD-2", "Envelope C5 (pack)")), ())
    assert [d.codes for d in described_products(f"list price of {typed}?", table)] == [("PRD-1",)]


@pytest.mark.parametrize(("name", "typed"), [
    ("Cold-room pressure switch", "coldroom press. switch"), ("Thermal mass flow meter", "thermal mass flowmeter"),
    ("Euro crate 600x400", "eurocrates"), ("Dish washer tablets", "dishwasher tablets"),
    ("Compressor valve kit", "compr. valve kits"), ("Buffer solution pH 4", "buffer soln pH4"),
    ("Monitoring controller", "monitoring ctrls"),
])
def test_joined_compounds_cut_words_and_contractions(name: str, typed: str) -> None:
    table = catalogue((("PRD-7", name), ("PRD-8", "Safety gloves (pair)")), ())
    for frame in ("{p} spend in May", "how many {p} did we buy", "unit cost of {p} at Company A"):
        assert [d.codes for d in described_products(frame.format(p=typed), table)] == [("PRD-7",)], frame


def test_unknown_product_names_nothing() -> None:
    table = catalogue((("PRD-9", "Office chair"), ("PRD-10", "Copy paper A4 (box)")), ())
    assert described_products("how much did we spend on 27in monitors in Feb", table) == []
    assert described_products("A5 paper price", table) == []


@pytest.mark.parametrize(("text", "priced"), [
    ("what did Company A spend per unit on {p} in March", True), ("what does {p} cost us per piece in Q1", True),
    ("{p} costing per unit year-to-date", True), ("what did we pay per ea for {p}", True),
    ("what was the highest price per unit we were billed for {p}", False),
    ("lowest cost per unit of {p} in 2025", False), ("{p} spend per month in 2025", False),
    ("spend on {p} per supplier", False),
])
def test_spend_or_cost_per_unit_is_the_unit_price(text: str, priced: bool) -> None:
    for product in ("the vacuum gauge", "PRD-123", "label rolls"):
        q = text.format(p=product)
        start = q.index(product)
        assert (priced_per_item(q, [(start, start + len(product))]) is not None) is priced, q


@pytest.mark.parametrize("text", [
    "number of #### bought in Q3", "# of #### purchased by Company B", "count of #### received in 2025",
    "Company A - number of #### #### (####) bought dec 25", "how many pcs of #### went to Company B"])
def test_units_wording(text: str) -> None:
    assert _UNITS.search(text), text


@pytest.mark.parametrize("text", ["number of invoices received in Q3", "number of suppliers we bought from"])
def test_counts_of_documents_are_no_units(text: str) -> None:
    found = _UNITS.search(text)
    assert found is None or ("bought" not in found.group(0) and "received" not in found.group(0))


@pytest.mark.parametrize("text", [
    "unit price on the most recent #### invoice for Company B", "price of our last #### #### bill",
    "cost on the latest #### delivery"])
def test_price_on_the_latest_document_is_the_latest_price(text: str) -> None:
    assert _LATEST.search(text), text


@pytest.mark.parametrize(("verb", "off"), [("bought", "off"), ("ordered", "off of"), ("buy", "off")])
def test_bought_off_is_bought_from(verb: str, off: str) -> None:
    assert f"{verb} from Acme" in normalise(f"list of articles Company A {verb} {off} Acme in Q1").text


@pytest.mark.parametrize(("supplier", "goods"), [("Acme Tools", "torque wrenches"), ("Zeta", "lab gear"),
                                                  ("NORDIC PRÄZISION", "pressure sensor")])
def test_does_supplier_carry_any_goods(supplier: str, goods: str) -> None:
    for frame in ("does {s} carry any {g}?", "does {s} stock any {g}", "can {s} supply any {g}?"):
        ask = read_catalog_relation(frame.format(s=supplier, g=goods))
        assert ask is not None and ask.kind == "products" and ask.supplier == supplier and ask.group == goods


@pytest.mark.parametrize("rating", ["7kw", "11 kw", "230v", "1l", "400mm"])
def test_a_rating_after_comp_is_no_company_id(rating: str) -> None:
    assert find_identifiers(f"list price of the scroll comp {rating}?").company_ids == ()


@pytest.mark.parametrize(("typed", "company"), [("comp a", "COMP-A"), ("COMP-K", "COMP-K"), ("comp_x", "COMP-X")])
def test_company_ids_still_read(typed: str, company: str) -> None:
    assert find_identifiers(f"spend of {typed} in March").company_ids == (company,)


def _step(metric: str, **params: object) -> PlanStep:
    return PlanStep(step_id="s", tool="metrics.query", arguments={"metric": metric, "parameters": params})


AS_OF = dt.date(2026, 4, 30)
CTX = AuthContext("tenant-1", "buyer-1", frozenset({"procurement:read", "invoice:aggregate"}))
REGISTRY = load_registry(load_snapshot(Path(__file__).parent / "fixtures" / "semantic" / "schema.json"))
METRICS = catalog_metrics(REGISTRY)
CATALOG = catalog_metrics(REGISTRY, exclude=frozenset(TOOLS))
TWO = Gazetteer.build([Company("COMP-N", "Nordwerk AG", "EUR"), Company("COMP-S", "Suedhof GmbH", "EUR")],
                      [("SUP-1", "Acme Tools")], [], [ProductGroup("PG-T", "Tools")],
                      products=[Product("PRD-310", "Torque wrench set"), Product("PRD-320", "Vacuum gauge VG-3")])


def routed(question: str) -> RoutingResult:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=TWO, metrics=METRICS, catalog=CATALOG))


@pytest.mark.parametrize("question", [
    "what does PRD-310 cost us per unit in Q1 2026?", "avg price we get on the VG-3 vacuum gauge, FY 2025",
    "how many torque wrench sets did we buy in 11/2025?"])
def test_product_figure_without_company_is_the_tenants(question: str) -> None:
    # "what does X cost us": the group's price over every company, stated as such (most writers read it so; an
    # ask-back here would be a needless clarification)
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)


@pytest.mark.parametrize("question", [
    "what does PRD-310 cost per unit in Q1 2026, all companies together?",
    "avg unit price of PRD-320 group-wide in FY 2025", "how many PRD-310 did Nordwerk buy in 11/2025?"])
def test_product_figure_with_company_or_all_is_answered(question: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)


@pytest.mark.parametrize(("question", "unknown"), [
    ("how much did Nordwerk spend on 27in monitors in Feb 2026?", "27in monitors"),
    ("which 500ml bottles do we have in the catalog?", "500ml bottles"),
    ("units of 40 mm hoses bought by Suedhof in 2025", "40 mm hoses"),
])
def test_a_product_of_an_unknown_specification_is_asked_by_name(question: str, unknown: str) -> None:
    result = routed(question)
    assert result.requires_clarification and unknown in (result.clarification_question or ""), question


@pytest.mark.parametrize("question", ["Nordwerk spend Q1 2026 in EUR", "Nordwerk spend 2026 v 2025",
                                      "Nordwerk invoices between EUR 1,000 and EUR 10,000 in November 2025"])
def test_amounts_years_and_versus_are_no_specification(question: str) -> None:
    assert "catalogue product has that specification" not in (routed(question).clarification_question or "")


def test_price_slash_unit_is_a_price_word() -> None:
    from router.price_rankings import _PRICE

    for said in ("by price/unit", "cost / piece", "price/ea"):
        assert _PRICE.search(f"tools: cheapest 2 vendors {said} H2 2025"), said


@pytest.mark.parametrize("noun", ["item codes", "product codes", "article numbers", "part nos", "material ids"])
def test_product_code_nouns_list_the_products_bought(noun: str) -> None:
    from router.listings import read_purchase_listing

    for buyer, period in (("Nordwerk", "in Q1 2026"), ("COMP-S", "in Nov 2025-Feb 2026")):
        assert read_purchase_listing(f"which {noun} did {buyer} buy {period}") == f"spend of {buyer} {period}, " \
            "by product"


def test_a_period_word_keeps_the_average_price() -> None:
    q = "what did Company A spend per unit on PRD-123 last quarter"
    assert priced_per_item(q, [(q.index("PRD-123"), q.index("PRD-123") + 7)]) is not None
    q = "what did Company A pay per unit for PRD-123 most recently"
    assert priced_per_item(q, [(q.index("PRD-123"), q.index("PRD-123") + 7)]) is None
