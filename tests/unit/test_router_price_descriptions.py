"""Unit prices and price changes of a product named by a description (router/described_products.py,
router/price_words.py, router/price_asks.py), varied over their slots: the product's words in another order, with
small words between them, cut short or glued to a number; the price asked as an average paid, a bare "price", a
change in many wordings; periods in either order; a company named. And the other side: a group's name stays the
group, a model code one digit off is no product, a price asked for no product asks the product back (naming a
word the catalogue does not know), a document's passage about prices is no price."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.compound import split_asks
from router.described_products import FILLERS, catalogue, described_products, parts
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.price_asks import asks_unit_price
from router.price_words import asks_price, price_change_spans
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, FAST, METRICS, SUPPLIERS

GROUPS = [ProductGroup("PG-PUMP", "Pumps"), ProductGroup("PG-PUMP-SP", "Pump Spare Parts", "PG-PUMP"),
          ProductGroup("PG-TEMP", "Temperature Sensors"), ProductGroup("PG-REAG", "Reagents"),
          ProductGroup("PG-OFF", "Office Supplies"), ProductGroup("PG-SHIP", "Logistics"),
          ProductGroup("PG-SAFE", "Safety Equipment"), ProductGroup("PG-MOT", "Motors")]
PRODUCTS = [Product("PRD-101", "Hydraulic pump seal kit"), Product("PRD-102", "Surface temperature sensor ST-3"),
            Product("PRD-103", "Buffer solution pH 4 (500 ml)"), Product("PRD-104", "Printer toner black (cartridge)"),
            Product("PRD-105", "Courier delivery per parcel"), Product("PRD-106", "Safety goggles (pair)"),
            Product("PRD-107", "Gear motor 0.5 kW"), Product("PRD-108", "PT500 immersion probe"),
            Product("PRD-109", "Pump impeller 80 mm"), Product("PRD-110", "Socket wrench set")]
GAZETTEER: Gazetteer = replace(Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases], GROUPS, [], PRODUCTS),
    product_group_of={"PRD-101": frozenset({"PG-PUMP-SP"}), "PRD-102": frozenset({"PG-TEMP"}),
                      "PRD-103": frozenset({"PG-REAG"}), "PRD-104": frozenset({"PG-OFF"}),
                      "PRD-105": frozenset({"PG-SHIP"}), "PRD-106": frozenset({"PG-SAFE"}),
                      "PRD-107": frozenset({"PG-MOT"}), "PRD-108": frozenset({"PG-TEMP"}),
                      "PRD-109": frozenset({"PG-PUMP-SP"}), "PRD-110": frozenset({"PG-PUMP-SP"})})
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)

#: Descriptions of each product that are not its catalogue name as written.
DESCRIBED = {
    "PRD-101": ("seal kit for the hydraulic pump", "hydraulic pump seal kits", "pump seal kit, hydraulic"),
    "PRD-102": ("surface temp sensor", "temp sensor surface", "the sensor for surface temperature"),
    "PRD-103": ("pH4 buffer solution", "buffer solution pH4", "buffer solution pH 4 500 ml"),
    "PRD-104": ("black toner for the printer", "printer toner black cartridge", "black printer toner"),
    "PRD-105": ("courier delivery per parcel", "parcel courier delivery", "courier delivery"),
    "PRD-106": ("pair of safety goggles", "safety goggles", "goggles safety"),
    "PRD-107": ("gear motor 0.5kW", "the motor gear", "gear motors"),
    "PRD-109": ("impeller for the pump", "80 mm pump impeller", "pump impellers"),
    "PRD-110": ("socket wrenches", "set of socket wrenches", "the wrench set for sockets"),
}
_CASES = [(code, d) for code, ds in DESCRIBED.items() for d in ds]
_AVERAGE_FRAMES = ("Company A avg unit price of the {d} in Q1 2026",
                   "{d} - what are we paying on avg, Company A, Q1 2026", "Company A: {d} avg cost Q1 2026",
                   "what did Company A pay per unit for the {d} in Q1 2026?", "Company A {d} price Q1 2026")


def _table() -> Any:
    return catalogue(tuple((p.product_code, p.product_name) for p in PRODUCTS), tuple(g.group_name for g in GROUPS))


@pytest.mark.parametrize(("code", "described"), _CASES)
def test_a_description_names_its_product(code: str, described: str) -> None:
    found = described_products(f"{described} in Q1", _table())
    assert [d.codes for d in found] == [(code,)], described


_REQUIRED = {"PRD-101": "hydraulic pump seal kit", "PRD-104": "printer toner black", "PRD-106": "safety goggles",
             "PRD-109": "pump impeller", "PRD-103": "buffer solution ph 4"}


@settings(FAST, max_examples=12)
@given(code=st.sampled_from(sorted(_REQUIRED)), data=st.data())
def test_any_order_with_small_words_between_names_the_product(code: str, data: Any) -> None:
    """Metamorphic: the name's words shuffled, a small word between any two, a period after: the same product."""
    words = data.draw(st.permutations(_REQUIRED[code].split()))
    fillers = data.draw(st.lists(st.sampled_from([*sorted(FILLERS - {"a", "per"}), ""]), min_size=len(words),
                                 max_size=len(words)))
    text = " ".join(f"{w} {f}".strip() for w, f in zip(words, fillers, strict=True))
    found = described_products(f"Company A {text} Q1 2026", _table())
    assert [d.codes for d in found] == [(code,)], text


@pytest.mark.parametrize("words", ["pumps", "pump spare parts", "temperature sensors", "sensors temperature",
                                   "safety equipment", "motors"])
def test_a_group_name_in_any_order_stays_the_group(words: str) -> None:
    assert described_products(f"{words} spend in Q1", _table()) == []


def test_digits_are_compared_whole() -> None:
    assert parts("pH7 PT500 0.5kW") == ("ph", "7", "pt", "500", "0", "5", "kw")
    assert [d.codes for d in described_products("PT5000 immersion probe", _table())] == [("PRD-108",)]
    # ("immersion probe" is the product's name without its code; the other code beside it is asked about)
    reading = read("Company A avg unit price PT5000 immersion probe Q1 2026", GAZETTEER, AS_OF)
    assert any("PT5000" in p for p in reading.entity_problems), reading.entity_problems


@pytest.mark.parametrize(("frame", "case"), list(zip(_AVERAGE_FRAMES, _CASES[::5], strict=False)))
def test_average_price_of_a_described_product(frame: str, case: tuple[str, str]) -> None:
    code, described = case
    question = frame.format(d=described)
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"]
    assert calls and calls[0]["metric"] == "catalog.average_unit_price", (question, result.execution_plan)
    params = calls[0]["parameters"]
    assert (params["product_codes"] if "product_codes" in params else [params["product_code"]]) == [code], question
    assert (params["start_date"], params["end_date"]) == ("2026-01-01", "2026-04-01"), question


@pytest.mark.parametrize(("template", "case"), [("list price {d}?", _CASES[1]),
                                                ("what's the catalogue price for the {d}", _CASES[8])])
def test_list_price_of_a_described_product(template: str, case: tuple[str, str]) -> None:
    code, described = case
    question = template.format(d=described)
    result = route(question, INPUTS)
    assert result.workflow == "catalog_list_price", (question, result.clarification_question)
    assert tuple(result.entities.product_codes) == (code,), question


@pytest.mark.parametrize("question", ["list price of the PT5000 probe?",
                                      "catalogue price of the PT501 immersion probe"])
def test_a_model_code_one_digit_off_is_no_product(question: str) -> None:
    result = route(question, INPUTS)
    assert result.requires_clarification, (question, result.execution_plan)  # never the PT500's price
    assert "PT50" in (result.clarification_question or ""), result.clarification_question  # the code named back


# -- price changes: two average-price parts, the later period current ----------------------------------------------
_CHANGE_FRAMES = ("{d} - price increase {a} vs {b}, Company A?",
                  "did the {d} get more expensive? Company A, {a} vs {b}",
                  "Company A {d}: unit price {a} vs {b}, how much did it change",
                  "{d} price trend {a} -> {b} Company A",
                  "has Beta lowered the price of the {d}? Company A {a} vs {b}",
                  "Company A - are we paying less per unit for the {d} in {a} than in {b}?",
                  "price development of the {d} for Company A: {a} compared with {b}")
_PAIRS = (("Q1 2026", "Q4 2025", ("2026-01-01", "2026-04-01"), ("2025-10-01", "2026-01-01")),
          ("H2 2025", "Q1 2026", ("2026-01-01", "2026-04-01"), ("2025-07-01", "2026-01-01")),
          ("Q3 2025", "Q1 2026", ("2026-01-01", "2026-04-01"), ("2025-07-01", "2025-10-01")))


def _read_part(text: str) -> Any:
    return read(text, GAZETTEER, AS_OF)


@pytest.mark.parametrize(("frame", "case", "pair"),
                         list(zip(_CHANGE_FRAMES, _CASES[1::3], itertools.cycle(_PAIRS), strict=False)))
def test_price_change_of_a_described_product(frame: str, case: tuple[str, str], pair: tuple[Any, ...]) -> None:
    code, described = case
    first, second, current, base = pair
    question = frame.format(d=described, a=first, b=second)
    parts = split_asks(question, _read_part)
    assert [p.role for p in parts] == ["current", "base"], (question, parts)
    now, then = (p.question for p in parts)
    assert code in now and code in then, (question, now)
    assert f"from {current[0]} to before {current[1]}" in now, (question, now)
    assert f"from {base[0]} to before {base[1]}" in then, (question, then)
    assert "Company A" in now, question  # the company named is kept


# -- no product: asked back, never a spend change ------------------------------------------------------------------
_NO_PRODUCT = ("did we get it cheaper in Q1 2026 than in Q4 2025 for Company A?",
               "Company B - is the unit price going up or down quarter on quarter in 2026?",
               "Company A: are we paying more per unit now than in H2 2025?",
               "did Beta raise its prices for Company B? Q1 2026 vs Q4 2025")


@pytest.mark.parametrize("question", _NO_PRODUCT)
def test_a_price_change_without_a_product_asks_the_product(question: str) -> None:
    assert asks_unit_price(question), question
    result = route(question, INPUTS)
    assert result.requires_clarification, (question, result.execution_plan)
    assert "product" in (result.clarification_question or "").lower(), (question, result.clarification_question)


@pytest.mark.parametrize(("question", "unknown"), [("Company A: cheapest vendor for spatulas in Q1 2026", "spatulas"),
                                                   ("Company B - unit price of the widgets Q1 2026 vs Q4 2025",
                                                    "widgets")])
def test_an_unknown_thing_priced_is_named_back(question: str, unknown: str) -> None:
    result = route(question, INPUTS)
    assert result.requires_clarification and unknown in (result.clarification_question or ""), (
        question, result.clarification_question)


def test_a_group_price_change_asks_which_product() -> None:
    result = route("Company A pump spare parts avg unit price Q1 2026 vs Q4 2025", INPUTS)
    assert result.requires_clarification, result.execution_plan  # never one period's ranking of the group
    assert "PRD-101" in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("question", ["what does the agreement with Beta say about price increases?",
                                      "may Beta raise the price of the gear motor under its contract?"])
def test_a_document_about_prices_is_no_price(question: str) -> None:
    assert not price_change_spans(question) and not asks_price(question) and not asks_unit_price(question)
    result = route(question, INPUTS)
    assert "price:product_asked" not in result.rule_hits, question


# -- one period named: the period before, "from A to before B" its two ends, a base alone asks the other ---------------
@pytest.mark.parametrize(("question", "current", "base"), [
    ("Company A: did the {d} get more expensive in Q1 2026?", "2026-01-01 to before 2026-04-01",
     "2025-10-01 to before 2026-01-01"),
    ("Company B - {d}: price increase in H2 2025?", "2025-07-01 to before 2026-01-01",
     "2025-01-01 to before 2025-07-01"),
    ("Company A: price change of the {d} between Q3 2025 and Q1 2026", "2026-01-01 to before 2026-04-01",
     "2025-07-01 to before 2025-10-01")])
def test_a_change_with_one_period_or_its_ends(question: str, current: str, base: str) -> None:
    text = question.format(d=DESCRIBED["PRD-107"][0])
    parts = split_asks(text, _read_part)
    assert [p.role for p in parts] == ["current", "base"], (text, parts)
    assert f"from {current}" in parts[0].question and f"from {base}" in parts[1].question, (text, parts)


def test_a_base_period_alone_asks_the_other_period() -> None:
    question = f"Company A: is the {DESCRIBED['PRD-106'][0]} cheaper now than in H2 2025?"
    assert split_asks(question, _read_part) == ()
    result = route(question, INPUTS)
    assert result.requires_clarification and "period" in (result.clarification_question or ""), result


def test_suppliers_compared_are_no_second_period() -> None:
    result = route("Company A gear motor unit price Beta vs Gamma Q1 2026", INPUTS)
    assert "price:second_period_asked" not in result.rule_hits, result.clarification_question
