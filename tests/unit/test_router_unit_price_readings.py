"""Unit-price readings that were answered with the wrong figure or asked back (blind23/24's unit_price,
price_change, price_compare classes), bounded and seeded over their slots: the extreme word glossed by a second
one ("best (lowest) unit price": the lowest line price, never the average), the catalogue named as a list price's
source ("per catalog": no breakdown), ranges of whole years ("2025-26", "2025-2026", "2025 to 2026"), a tail that
only asks the size of the change or how to show the ranking ("- how much did it move?", "? rank all"), and a
product group whose catalogue holds one product ("crates: avg unit price")."""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import replace
from typing import Any

import pytest

from router.compound import split_asks
from router.entities import Gazetteer, Product
from router.list_prices import asks_list_price
from router.periods import resolve_period
from router.reader import read
from router.routing import RouterInputs, route
from router.unit_prices import price_request
from tests.unit.test_router_analysis import AS_OF, CTX, METRICS
from tests.unit.test_router_unit_price_groups import GAZETTEER as GROUPS_GAZETTEER

#: PG-CONS holds one catalogue product (PRD-650), PG-CTRL none, PG-SENS two once PRD-470 is added.
GAZETTEER: Gazetteer = replace(
    GROUPS_GAZETTEER,
    products=(*GROUPS_GAZETTEER.products, Product("PRD-470", "Temperature probe TP-1")),
    product_group_of={**GROUPS_GAZETTEER.product_group_of, "PRD-470": frozenset({"PG-TEMP"})})
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
PERIODS = (("in 2025", "2025-01-01", "2026-01-01"), ("in Q1 2026", "2026-01-01", "2026-04-01"),
           ("in H2 2025", "2025-07-01", "2026-01-01"))
PRODUCTS = (("PRD-482", "PRD-482"), ("PRD-611", "PRD-611"))


def _call(question: str) -> dict[str, Any]:
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"]
    assert calls, (question, result.execution_plan)
    return calls[0]


# -- "best (lowest) unit price": the extreme line price ----------------------------------------------------------
_GLOSSED = (("best (lowest) unit price of {p} {w}", "low"), ("lowest (best) unit price on {p} {w}", "low"),
            ("min./lowest price paid for {p} {w}", "low"), ("cheapest (min) price per unit of {p} {w}", "low"),
            ("highest (max) unit price of {p} {w}", "high"), ("max/peak price paid per unit for {p} {w}", "high"))


@pytest.mark.parametrize(("frame", "product", "period"), list(itertools.product(_GLOSSED, PRODUCTS, PERIODS)))
def test_glossed_extreme_is_the_line_price_range(frame: tuple[str, str], product: tuple[str, str],
                                                 period: tuple[str, str, str]) -> None:
    text, direction = frame
    question = text.format(p=product[0], w=period[0]) + " for Company B"
    req = price_request(read(question, GAZETTEER, AS_OF))
    assert req is not None and (req.kind, req.direction) == ("range", direction), question
    call = _call(question)
    assert call["metric"] == "catalog.unit_price_range", question  # never the average in its place
    p = call["parameters"]
    assert (p["product_code"], p["start_date"], p["end_date"]) == (product[1], *period[1:])


# -- "list price of X per catalog": the source, not a breakdown ----------------------------------------------------
@pytest.mark.parametrize(("source", "code"), list(itertools.product(
    ("per catalog", "per the catalogue", "according to our catalog", "as per catalogue", "from the catalog",
     "as stated in the catalogue"), ("PRD-482", "PRD-650"))))
def test_the_catalogue_named_as_source_is_the_list_price(source: str, code: str) -> None:
    question = f"list price of {code} {source}?"
    assert asks_list_price(question)
    result = route(question, INPUTS)
    assert result.workflow == "catalog_list_price", (question, result.clarification_question)
    assert [s.arguments["product_codes"] for s in result.execution_plan if s.tool == "catalog.list_price"] == [[code]]


def test_a_breakdown_of_a_list_price_is_still_asked_about() -> None:
    result = route("list price of PRD-482 per supplier?", INPUTS)
    assert result.requires_clarification and "supplier" in (result.clarification_question or "")


# -- "2025-26", "2025-2026", "2025 to 2026": whole calendar years --------------------------------------------------
_SPANS = ("{a}-{b}", "{a}–{b}", "{a} - {b}", "{a}-{bb}", "from {a} to {b}", "{a} to {b}", "{a} through {b}")


@pytest.mark.parametrize(("form", "first", "years"), list(itertools.product(_SPANS, (2023, 2024, 2025), (1, 2))))
def test_a_range_of_years_is_the_calendar_years_through_the_second(form: str, first: int, years: int) -> None:
    last = first + years
    words = form.format(a=first, b=last, bb=str(last)[2:])
    resolved = resolve_period(f"cheapest supplier per unit for sensors in {words}", dt.date(2026, 5, 20))
    tr = resolved.time_range
    assert tr is not None and not resolved.ambiguous, words
    assert (tr.start, tr.end) == (dt.date(first, 1, 1), dt.date(last + 1, 1, 1)), words


@pytest.mark.parametrize("words", ("2025-26", "2025-2026", "2025–26"))
def test_a_two_year_span_may_be_a_fiscal_year_when_it_is_not_the_calendars(words: str) -> None:
    resolved = resolve_period(f"spend {words}", dt.date(2026, 5, 20), 4)
    assert resolved.time_range is None and resolved.ambiguous and "fiscal year" in (resolved.reason or "")


@pytest.mark.parametrize(("words", "start", "end"), (
    ("2025-12", dt.date(2025, 12, 1), dt.date(2026, 1, 1)), ("on 2025-11-03", dt.date(2025, 11, 3),
                                                           dt.date(2025, 11, 4))))
def test_iso_months_and_days_are_not_year_ranges(words: str, start: dt.date, end: dt.date) -> None:
    tr = resolve_period(f"spend {words}", dt.date(2026, 5, 20)).time_range
    assert tr is not None and (tr.start, tr.end) == (start, end)


def test_year_spans_route_to_the_price_ranking() -> None:
    for words in ("2024-25", "2024-2025", "from 2024 to 2025"):
        call = _call(f"which sensor supplier is cheapest per unit, {words} overall? rank all")
        assert call["metric"] == "catalog.unit_price_ranking"
        assert (call["parameters"]["start_date"], call["parameters"]["end_date"]) == ("2024-01-01", "2026-01-01")


# -- tails that belong to the part before ------------------------------------------------------------------------
def _parts(question: str) -> tuple[Any, ...]:
    return split_asks(question, lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS))


_CHANGE_TAILS = ("how much did it move?", "by how much did it change?", "how much has the price moved",
                 "what's the difference?", "% change?", "up or down?")


@pytest.mark.parametrize(("tail", "product", "pair"), list(itertools.product(
    _CHANGE_TAILS, PRODUCTS, (("q1 26", "q4 25"), ("Q1 2026", "Q3 2025"), ("H2 2025", "H1 2025")))))
def test_the_size_of_a_price_change_is_the_comparison_itself(tail: str, product: tuple[str, str],
                                                             pair: tuple[str, str]) -> None:
    question = f"unit price {product[0]} {pair[0]} vs {pair[1]} - {tail}"
    parts = _parts(question)
    assert [p.role for p in parts] == ["current", "base"], question  # one change, both periods
    assert all(product[1] in p.question for p in parts)


@pytest.mark.parametrize("tail", ("rank all", "rank them all", "full ranking pls", "sorted", "top 3"))
def test_a_ranking_instruction_is_the_ranking_itself(tail: str) -> None:
    assert _parts(f"which sensor supplier is cheapest per unit in 2025? {tail}") == ()


# -- a product group of one catalogue product ----------------------------------------------------------------------
@pytest.mark.parametrize(("frame", "period"), list(itertools.product(
    ("consumables: avg unit price {w}, Company B", "average unit price of consumables at Company B {w}",
     "Company A consumables unit price {w}"), PERIODS)))
def test_a_group_of_one_product_is_that_products_price(frame: str, period: tuple[str, str, str]) -> None:
    question = frame.format(w=period[0])
    call = _call(question)
    assert call["metric"] == "catalog.average_unit_price"
    p = call["parameters"]
    assert (p["product_code"], p["start_date"], p["end_date"]) == ("PRD-650", *period[1:])
    assert "PRD-650" in (route(question, INPUTS).interpretation or "")  # the reading says which product


def test_a_group_of_several_products_is_asked_about_naming_them() -> None:
    result = route("avg unit price of sensors in 2025", INPUTS)
    assert result.requires_clarification
    assert "PRD-482" in (result.clarification_question or "") and "PRD-470" in (result.clarification_question or "")


def test_a_ranking_within_a_group_of_one_product_stays_a_ranking() -> None:
    call = _call("rank consumables products by avg unit price in 2025")
    assert call["metric"] == "catalog.unit_price_ranking"


def test_a_range_of_years_beside_a_comparison_of_suppliers_is_the_period() -> None:
    for words in ("2024-25", "2024-2025"):
        resolved = resolve_period(f"sensors: Beta vs Zeta, which is cheaper per unit in {words}?", dt.date(2026, 5, 20))
        assert resolved.time_range is not None
        assert (resolved.time_range.start, resolved.time_range.end) == (dt.date(2024, 1, 1), dt.date(2026, 1, 1))


@pytest.mark.parametrize("words", ("in 2026 until 27 January 2026", "in 2025 to 15 March 2025", "2025 through 28 Feb"))
def test_a_year_then_a_day_is_no_range_of_years(words: str) -> None:
    tr = resolve_period(f"spend {words}", dt.date(2026, 5, 20)).time_range
    assert tr is None or tr.end <= dt.date(2026, 5, 21), words  # never a range into a later year read from the day
