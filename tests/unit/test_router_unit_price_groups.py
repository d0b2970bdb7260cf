"""Unit-price rankings within a group and product groups named as lists, unions and exclusions (the slot grammar of
``evaluation/probes_unit_prices.py``, bounded): the plan's governed call, never a spend ranking in place of a
price ranking, never a group of a union silently dropped."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from router.entities import Company, Gazetteer, Product, ProductGroup
from router.german import read_german
from router.price_rankings import METRIC
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, METRICS, SUPPLIERS

GROUPS = [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
          ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
          ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"), ProductGroup("PG-LOG", "Data Loggers", "PG-MON"),
          ProductGroup("PG-CTRL", "Control Equipment"), ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"),
          ProductGroup("PG-CAB-ACC", "Cabinet Accessories", "PG-CAB"), ProductGroup("PG-CONS", "Consumables")]
GAZETTEER = replace(Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    GROUPS, [("Temperaturfühler", "PG-TEMP"), ("Drucksensoren", "PG-PRES")],
    [Product("PRD-482", "Differential pressure sensor DP-10"), Product("PRD-611", "Monitoring controller MC-4"),
     Product("PRD-650", "Buffer solution pH 7 (1 l)")],
), product_group_of={"PRD-482": frozenset({"PG-PRES"}), "PRD-650": frozenset({"PG-CONS"})})


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _call(question: str) -> dict[str, Any]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"] or [
        {"metric": s.tool, "parameters": dict(s.arguments)} for s in result.execution_plan
        if s.tool.startswith("finance.") or s.tool == "catalog.unit_price"]
    assert calls, (question, result.execution_plan)
    return calls[0]


_GROUP_WORDS = {"PG-PRES": ("pressure sensors", "Pressure Sensors"), "PG-SENS": ("sensors",),
                "PG-CTRL": ("control equipment",)}
_PERIODS = (("in 2025", "2025-01-01", "2026-01-01"), ("in Q1 2026", "2026-01-01", "2026-04-01"),
            ("in H2 2025", "2025-07-01", "2026-01-01"))
_FRAMES = (  # (frame, rank_by, direction)
    ("{g}: cheapest supplier per unit {p}", "supplier", "asc"),
    ("rank {g} products by avg unit price, cheapest first, {p}", "product", "asc"),
    ("{g}: per-unit price ranking of products {p}, high to low", "product", "desc"),
    ("rank suppliers of {g} by avg unit price {p}", "supplier", "desc"),
    ("most expensive {g} product per piece {p}", "product", "desc"),
    ("{g} products by EUR/unit {p}, low to high", "product", "asc"),
    ("who's cheaper per unit on {g}, Beta or Gamma? {p}", "supplier", "asc"),
)


@pytest.mark.parametrize(("frame", "group", "period"),
                         list(itertools.product(_FRAMES, sorted(_GROUP_WORDS), _PERIODS))[::2])
def test_unit_price_ranking_is_the_price_metric(frame: tuple[str, str, str], group: str,
                                                period: tuple[str, str, str]) -> None:
    text, by, direction = frame
    question = text.format(g=_GROUP_WORDS[group][0], p=period[0])
    call = _call(question)
    assert call["metric"] == METRIC, question  # a price ranking, never a spend ranking
    p = call["parameters"]
    assert (p["rank_by"], p["direction"]) == (by, direction), question
    assert p["product_group_ids"] == list(GAZETTEER.subgroups(group))
    assert (p["start_date"], p["end_date"]) == period[1:]
    if "Beta or Gamma" in text:
        assert sorted(p["supplier_ids"]) == ["SUP-18", "SUP-27"]


def test_german_unit_price_ranking() -> None:
    call = _call("welcher Drucksensor war im Q1 2026 am teuersten pro Stück?")  # route() reads the German
    assert call["metric"] == METRIC and call["parameters"]["direction"] == "desc"


@pytest.mark.parametrize(("question", "groups", "excluded"), [
    ("monitoring products (sensors + loggers) Company A in Q1 2026", "PG-MON", None),
    ("Company A spend on sensors in 2025 (pressure sensors & temperature sensors)", "PG-SENS", None),
    ("control equipment (cabinets) Company B in 2025", "PG-CTRL", None),
    ("cabinet accessories + cabinets, Company A, Q1 2026", "PG-CAB", None),
    ("cabinets & cabinet accessories for Company A in 2025", "PG-CAB", None),
    ("Company A spend on Control Equipment excluding cabinets, Q3 2025", "PG-CTRL", "PG-CAB"),
    ("Company B spend on sensors without pressure sensors in 2025", "PG-SENS", "PG-PRES"),
])
def test_group_lists_unions_and_exclusions(question: str, groups: str, excluded: str | None) -> None:
    p = _call(question)["parameters"]
    assert sorted(p["product_group_ids"]) == sorted(GAZETTEER.subgroups(groups)), question
    assert sorted(p.get("exclude_product_group_ids") or ()) == sorted(GAZETTEER.subgroups(excluded) if excluded
                                                                      else ()), question


def test_product_with_its_own_group_is_no_second_filter() -> None:
    call = _call("avg unit price PRD-482 pressure sensor, Company A, Q1 2026")
    assert call["metric"] == "catalog.average_unit_price" and call["parameters"]["product_code"] == "PRD-482"


def test_german_group_synonym_kept() -> None:
    assert "Temperaturfühler" in (read_german("Temperaturfühler Ausgaben Company A im Q4 2025",
                                              keep=["Temperaturfühler"]) or "")
    assert "temperature probe" in (read_german("Temperaturfühler Ausgaben Company A im Q4 2025") or "")


_NO_GROUP_FRAMES = (  # (frame, direction, limit): products ranked by their own unit price, no group named
    ("which products have the highest average unit price for {c} {p}", "desc", None),
    ("which products have the highest average unit price for {c} {p} top three", "desc", 3),
    ("cheapest products per unit for {c} {p}", "asc", None),
    ("top 2 most expensive products per unit for {c} {p}", "desc", 2),
    ("rank {c}'s products by unit price {p}, low to high", "asc", None),
)


@pytest.mark.parametrize(("frame", "direction", "limit"), _NO_GROUP_FRAMES)
def test_a_product_price_ranking_without_a_group_ranks_every_product_by_price(
        frame: str, direction: str, limit: int | None) -> None:
    # a price word without a group used to fall through to the spend ranking: another question's figure
    for (company, company_id), (phrase, start, end) in itertools.product(
            (("Company A", "COMP-A"), ("COMP-B", "COMP-B")), _PERIODS):
        question = frame.format(c=company, p=phrase)
        result = _routed(question)
        assert not result.requires_clarification, (question, result.clarification_question)
        call = _call(question)
        assert call["metric"] == METRIC, question
        params = call["parameters"]
        assert params["rank_by"] == "product" and params["direction"] == direction, question
        assert "product_group_ids" not in params, question
        assert (params["company_id"], params["start_date"], params["end_date"]) == (company_id, start, end), question
        hits = [h for h in result.rule_hits if h.startswith("unit_price_ranking:")]
        assert hits and (hits[0].endswith(f":top{limit}") if limit else ":top" not in hits[0]), (question, hits)


def test_a_supplier_price_ranking_without_a_group_is_never_a_spend_ranking() -> None:
    # a supplier's average over every product it sold mixes unlike units: never ranked without a group or product
    result = _routed("which supplier has the lowest unit price for Company A in 2025")
    calls = [s.arguments for s in result.execution_plan if s.tool == "metrics.query"]
    assert result.requires_clarification or all(c.get("metric") == METRIC for c in calls), result.execution_plan
