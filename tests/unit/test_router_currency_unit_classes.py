"""Currency and unit-price classes found by ``evaluation/probes_currency.py`` (``--frames more``), no database.

Each class is generated from slot grammars over the demo tenant's vocabulary (procura/demo/masterdata.py, its
products included) and routed in memory; the governed call must be the one the slot values mean:

* one invoice currency with the reporting currency beside it ("CHF-invoiced spend, original currency + EUR") is
  ``finance.document_currency_spend`` with ``document_currency``, never a clarification about a conversion;
* "how much of X's spend was invoiced in GBP" is that amount (no share); "what fraction ... was billed in CHF"
  is the share of that currency: two parts, the currency's invoices and the whole spend;
* "invoices only" / "excluding credit notes" on a unit price is ``document_types [invoice]`` (also for one
  calendar month); "(EUR invoices)" filters the reporting currency's invoices of the lowest/highest price;
* a product named by its catalogue name survives an exclusion cue about something else;
* "how many X did we buy (and at what average price)" is the product's quantity;
* "price per set / metre / box" names the unit, not a breakdown; German product nouns resolve the product.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from procura.db.session import AuthContext
from procura.demo.masterdata import GROUP_SYNONYMS_DE, TENANT_42
from router.compound import split_asks
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.german import read_german
from router.reader import read
from router.routing import RouterInputs, route
from router.unit_prices import _count
from tests.unit.test_router_analysis import METRICS

SEED = 47
AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst", frozenset({"procurement:read", "invoice:aggregate"}))
GAZETTEER = Gazetteer.build(
    [Company(c.company_id, c.company_name, c.reporting_currency) for c in TENANT_42.companies],
    [(s.supplier_id, s.supplier_name) for s in TENANT_42.suppliers],
    [(a, s.supplier_id) for s in TENANT_42.suppliers for a in s.aliases],
    [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in TENANT_42.groups],
    [(syn, g.product_group_id) for g in TENANT_42.groups for syn in GROUP_SYNONYMS_DE.get(g.group_name, ())],
    [Product(p.product_code, p.product_name) for p in TENANT_42.products],
)
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
CURRENCIES = {"USD": ("USD", "US dollars", "$"), "GBP": ("GBP", "pounds", "£"), "CHF": ("CHF", "Swiss francs")}
COMPANIES = {"COMP-A": ("Company A", "COMP-A"), "COMP-B": ("Company B", "company b")}
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
           ("in H2 2025", "2025-07-01", "2026-01-01"), ("last quarter", "2026-01-01", "2026-04-01"))
PRODUCTS = {"PRD-482": ("PRD-482", "Differential pressure sensor DPS-482"), "PRD-510": ("PRD-510", "Flow sensor FS-50"),
            "PRD-840": ("PRD-840", "Torque wrench set"), "PRD-701": ("PRD-701", "Control cabinet 800x600")}


def _step(question: str) -> tuple[str, dict[str, Any], list[str]]:
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    return step.arguments["metric"], step.arguments["parameters"], list(step.arguments["group_by"])


def _draws(n: int, offset: int) -> list[tuple[str, str, str, str, tuple[str, str, str], str, str]]:
    rng = random.Random(SEED + offset)
    out = []
    for _ in range(n):
        cid = rng.choice(sorted(COMPANIES))
        code = rng.choice(sorted(CURRENCIES))
        prd = rng.choice(sorted(PRODUCTS))
        out.append((cid, rng.choice(COMPANIES[cid]), code, rng.choice(CURRENCIES[code]), rng.choice(PERIODS), prd,
                    rng.choice(PRODUCTS[prd])))
    return out


_BESIDE = ("{code}-invoiced spend at {c} {p}, original currency + EUR", "{c} spend on {code} invoices {p}, in {code} "
           "and EUR", "{c} spend invoiced in {code} {p}, both {code} and EUR", "{c}: {code}-billed spend {p} (original "
           "currency and EUR)")


@pytest.mark.parametrize(("cid", "c", "code", "w", "period", "prd", "name"), _draws(8, 1))
def test_one_invoice_currency_beside_the_reporting_currency(cid: str, c: str, code: str, w: str,
                                                            period: tuple[str, str, str], prd: str, name: str) -> None:
    question = random.Random(cid + code + period[0]).choice(_BESIDE).format(c=c, code=code, p=period[0])
    metric, params, group_by = _step(question)
    assert metric == "finance.document_currency_spend", (question, metric)
    assert params["document_currency"] == code and params["company_id"] == cid and group_by == [], (question, params)
    assert (params["start_date"], params["end_date"]) == period[1:]


@pytest.mark.parametrize(("cid", "c", "code", "w", "period", "prd", "name"), _draws(8, 2))
def test_how_much_of_the_spend_was_invoiced_in_a_currency_is_an_amount(
        cid: str, c: str, code: str, w: str, period: tuple[str, str, str], prd: str, name: str) -> None:
    supplier = random.Random(code + cid).choice((None, "SUP-18"))
    question = (f"How much of {c}'s spend with Beta {period[0]} was invoiced in {w}?" if supplier else
                f"How much of {c}'s spend {period[0]} was billed in {w}?")
    metric, params, _ = _step(question)
    assert metric == "finance.document_currency_spend" and params["document_currency"] == code, (question, params)
    assert params.get("supplier_ids") == ([supplier] if supplier else None), (question, params)


@pytest.mark.parametrize("question", [
    "What fraction of Company A's spend in 2025 was billed in pounds?",
    "Company B: what portion of spend in Q1 2026 was invoiced in USD?",
    "What percentage of Company A's spend last quarter was billed in Swiss francs?",
    "Welcher Anteil der Ausgaben von Company A im ersten Quartal 2026 wurde in Dollar abgerechnet?",
    "Anteil der GBP-Rechnungen an den Ausgaben von Company B 2025",
])
def test_a_currency_share_is_the_currency_part_and_the_whole(question: str) -> None:
    assert split_asks(question, lambda text: read(read_german(text) or text, GAZETTEER, AS_OF)) == ()
    metric, params, _ = _step(question)
    assert metric == "finance.currency_share" and len(params["document_currencies"]) == 1, (question, params)


_ONLY = ("{c}'s average unit price for {n} {p}, invoices only (ignore credit notes)",
         "average unit price of {n} {p} for {c}, excluding credit notes", "{c} avg unit price {n} {p} - invoices only",
         "{c} avg unit price {n} in March 2026 - invoices only")


@pytest.mark.parametrize(("cid", "c", "code", "w", "period", "prd", "name"), _draws(10, 3))
def test_invoices_only_unit_price_leaves_credit_notes_out(cid: str, c: str, code: str, w: str,
                                                          period: tuple[str, str, str], prd: str, name: str) -> None:
    question = random.Random(cid + prd + period[0]).choice(_ONLY).format(c=c, n=name, p=period[0])
    metric, params, _ = _step(question)
    assert metric == "catalog.average_unit_price", (question, metric)
    assert params["product_code"] == prd and params["document_types"] == ["invoice"], (question, params)


@pytest.mark.parametrize(("word", "output"), [("lowest", "range"), ("highest", "range")])
def test_eur_invoices_filter_the_price_range(word: str, output: str) -> None:
    result = route(f"What was the {word} unit price Company A was charged for PRD-482 (EUR invoices) in H2 2025?",
                   INPUTS)
    assert not result.requires_clarification, result.clarification_question
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == "catalog.unit_price_range"
    assert step.arguments["parameters"]["document_currency"] == "EUR"


def test_a_non_reporting_currency_extreme_is_still_asked_about() -> None:
    result = route("lowest unit price of PRD-482 for Company A in 2025 in USD", INPUTS)
    assert result.requires_clarification


@pytest.mark.parametrize(("cid", "c", "code", "w", "period", "prd", "name"), _draws(8, 4))
def test_how_many_of_a_product_is_its_quantity(cid: str, c: str, code: str, w: str, period: tuple[str, str, str],
                                               prd: str, name: str) -> None:
    question = f"{c}: how many {name} did we buy {period[0]}?"
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert any(h.startswith("unit_price:units") for h in result.rule_hits), (question, result.rule_hits)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == "catalog.average_unit_price"
    assert step.arguments["parameters"]["product_code"] == prd


def test_a_quantity_is_stated_as_a_count() -> None:
    assert (_count("26.0000"), _count("580.5000"), _count("3")) == ("26", "580.5", "3")


@pytest.mark.parametrize(("phrase", "prd"), [
    ("average price per set for Torque wrench set", "PRD-840"), ("avg cost per metre of PRD-820", "PRD-820"),
    ("what did we pay per set for PRD-840", "PRD-840"), ("average price per controller of PRD-611", "PRD-611"),
    ("average price per box of PRD-482", "PRD-482"), ("what did we pay per m for Control cable 5x1.5 mm2", "PRD-820"),
])
def test_a_price_per_unit_of_measure_is_a_unit_price(phrase: str, prd: str) -> None:
    metric, params, group_by = _step(f"Company A: {phrase} in 2025")
    assert metric == "catalog.average_unit_price" and params["product_code"] == prd and group_by == [], phrase


@pytest.mark.parametrize(("german", "prd"), [
    ("Drehmomentschlüsselsatz", "PRD-840"), ("Differenzdrucksensor DPS-482", "PRD-482"),
    ("Schaltschrank 800x600", "PRD-701"), ("Durchflusssensor FS-50", "PRD-510"), ("Steuerkabel 5x1.5 mm2", "PRD-820"),
])
def test_german_product_nouns_name_the_product(german: str, prd: str) -> None:
    metric, params, _ = _step(f"Durchschnittlicher Stückpreis für {german} bei Company A im Jahr 2025")
    assert metric == "catalog.average_unit_price" and params["product_code"] == prd, (german, params)


def test_a_group_synonym_is_not_translated_as_a_product() -> None:
    assert read_german("Ausgaben von Company A für Drucksensoren im 1. Quartal 2026") == \
        "spend of Company A on Drucksensoren in Q1 2026"


def test_an_excluded_product_is_left_out_not_dropped() -> None:
    result = route("Company B spend in 2025 excluding Flow sensor FS-50", INPUTS)
    assert not result.requires_clarification, result.clarification_question
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert step.arguments["parameters"]["exclude_product_codes"] == ["PRD-510"], step.arguments


@pytest.mark.parametrize("question", [
    "Average unit price of Monitoring controller MC-8 and of PRD-701 for Company C in 2025",
    "Company A: compare the unit prices of PRD-482 and Flow sensor FS-50 in 2025",
])
def test_two_products_get_a_unit_price_each(question: str) -> None:
    parts = split_asks(question, lambda text: read(text, GAZETTEER, AS_OF))
    assert len(parts) == 2 and all("average unit price of PRD-" in p.question for p in parts), parts
