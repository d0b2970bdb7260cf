"""Units bought of a product or a product group (the quantity class): "qty", "how many ... bought / took / billed",
"boxes of", "units" asked for a product (by code, catalogue name or model name) or a group, a company or all
companies, any period, with or without a supplier. The plan is the governed quantity (``catalog.average_unit_price``'s
``quantity`` for one product; ``finance.spend_ranking`` by product, units, summed for a group whose products share
one unit of measure), never spend in its place; a group of products counted in different units is asked about."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from router.entities import Company, Gazetteer, Product, ProductGroup
from router.routing import RouterInputs, route
from router.unit_prices import AVERAGE_METRIC, RANKING_METRIC
from tests.unit.test_router_analysis import AS_OF, CTX, METRICS, SUPPLIERS

GROUPS = [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-MCTL", "Monitoring Controllers", "PG-MON"),
          ProductGroup("PG-CTRL", "Control Equipment"), ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"),
          ProductGroup("PG-CRT", "Crates"), ProductGroup("PG-PAPER", "Paper Products")]
GAZETTEER = replace(Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    GROUPS, [],
    [Product("PRD-611", "Monitoring controller MC-4"), Product("PRD-612", "Monitoring controller MC-8"),
     Product("PRD-701", "Control cabinet 800x600"), Product("PRD-705", "Cabinet climate kit"),
     Product("PRD-900", "Euro crate 600x400"), Product("PRD-910", "A4 copy paper 80g"),
     Product("PRD-510", "Flow sensor FS-50")],
), product_group_of={"PRD-611": frozenset({"PG-MCTL"}), "PRD-612": frozenset({"PG-MCTL"}),
                     "PRD-701": frozenset({"PG-CAB"}), "PRD-705": frozenset({"PG-CAB"}),
                     "PRD-900": frozenset({"PG-CRT"}), "PRD-910": frozenset({"PG-PAPER"})},
   units_of_measure={"PRD-611": frozenset({"EA"}), "PRD-612": frozenset({"EA"}), "PRD-701": frozenset({"EA"}),
                     "PRD-705": frozenset({"SET"}), "PRD-900": frozenset({"EA"}), "PRD-910": frozenset({"BOX"}),
                     "PRD-510": frozenset({"EA"})})

#: (how the product is said, its code)
_PRODUCTS = (("PRD-510", "PRD-510"), ("flow sensors FS-50", "PRD-510"), ("A4 copy paper", "PRD-910"),
             ("euro crates", "PRD-900"), ("crates", "PRD-900"))
_COMPANIES = (("company a", "COMP-A"), ("Company B", "COMP-B"))
_PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
            ("2025", "2025-01-01", "2026-01-01"))
_FRAMES = ("qty of {x} bought by {c} {p}", "{x} bought by {c} {p} - how many?", "how many {x} did {c} take {p}",
           "{c}: {x} qty {p}", "how many boxes of {x} for {c} {p}", "{x} units {c} {p}",
           "how many {x} were billed to {c} {p}")


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _call(question: str) -> dict[str, Any]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"]
    assert calls, (question, result.workflow, result.execution_plan)
    return calls[0]


_CASES = [(f.format(x=x, c=c, p=p), code, cid, start, end)
          for (f, (x, code), (c, cid), (p, start, end)) in itertools.product(_FRAMES, _PRODUCTS, _COMPANIES, _PERIODS)]


@pytest.mark.parametrize(("question", "code", "company", "start", "end"), _CASES[::3])
def test_units_of_one_product_are_its_governed_quantity(question: str, code: str, company: str, start: str,
                                                        end: str) -> None:
    call = _call(question)
    assert call["metric"] == AVERAGE_METRIC, question
    params = call["parameters"]
    assert (params["product_code"], params.get("company_id"), params["start_date"], params["end_date"]) == (
        code, company, start, end), question


@pytest.mark.parametrize("question", ["how many monitoring controllers did Company B buy in 2025",
                                      "qty monitoring controllers company a Q1 2026",
                                      "Company B monitoring controllers: units, H2 2025"])
def test_units_of_a_group_of_one_unit_of_measure_are_summed_per_product(question: str) -> None:
    call = _call(question)
    assert call["metric"] == RANKING_METRIC and call["group_by"] == ["product_code"], question
    assert call["parameters"]["product_group_ids"] == ["PG-MCTL"] and call["parameters"]["order_by"] == "units"


@pytest.mark.parametrize("question", ["qty control cabinets company a Q1 2026",
                                      "how many units of control cabinets did Company B buy in 2025"])
def test_units_of_a_group_in_different_units_of_measure_are_asked_about(question: str) -> None:
    result = _routed(question)
    assert result.requires_clarification and "different units of measure" in (result.clarification_question or "")


def test_units_with_a_supplier_keep_the_supplier() -> None:
    supplier = next(iter(SUPPLIERS))
    name = SUPPLIERS[supplier][0]
    call = _call(f"qty of PRD-510 bought by Company A from {name} in Q1 2026")
    assert call["metric"] == AVERAGE_METRIC and call["parameters"]["supplier_ids"] == [supplier]


@pytest.mark.parametrize("question", ["how many invoices did Company A get for PRD-510 in Q1 2026",
                                      "Company A spend on crates in Q1 2026",
                                      "how many suppliers did Company A buy monitoring controllers from in 2025"])
def test_counts_and_spend_are_not_read_as_units(question: str) -> None:
    result = _routed(question)
    metrics = [s.arguments.get("metric") for s in result.execution_plan if s.tool == "metrics.query"]
    assert AVERAGE_METRIC not in metrics and "unit_price" not in result.workflow, (question, result.workflow)
