"""The company of a product figure: a unit price or the units of one product, asked in a tenant of several
companies without naming one, is asked about, like spend.

A product's unit price and its units bought are governed with the company optional (no company: every company of
the tenant, bounded by row-level security), so "what does PRD-482 cost us per unit in Q4", "how many control
cabinets did we buy in November" were answered for all companies together, presented as if that were the
asker's company's figure: "us", "we" name one company the reading cannot tell. The governed rule for spend, units
and counts is to ask which company unless the question says all of them ("all entities", "all cos",
"group-wide", "both companies"); this invariant applies the same rule to the product figures, checked on the plan
as built (every route that plans a product figure passes here), never on the words of one phrasing.

Rankings and comparisons of several products or suppliers by unit price ("which is cheaper per unit, PRD-600 or
PRD-482") stay tenant-wide: they compare prices, and the company adds nothing to which one is cheaper.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from router.contract import PlanStep

#: Governed figures of one product (its unit price, its lowest or highest or latest price, its units bought).
PRODUCT_FIGURES = frozenset({"catalog.average_unit_price", "catalog.unit_price", "catalog.unit_price_range",
                             "catalog.document_currency_unit_price", "finance.units_purchased"})
#: Figures that compare products or suppliers: a plan holding one is no single product figure.
COMPARED_FIGURES = frozenset({"catalog.unit_price_ranking"})


def _calls(step: PlanStep) -> Iterable[tuple[str, Mapping[str, Any]]]:
    """The (metric, parameters) governed calls of a plan step: a metric tool itself, or a ``metrics.query``."""
    args = step.arguments
    if isinstance(args.get("metric"), str):
        params = args.get("parameters")
        yield args["metric"], params if isinstance(params, Mapping) else {}
    else:
        yield str(step.tool), args


def unscoped_product_figure(steps: Iterable[PlanStep]) -> bool:
    """Whether the plan computes a figure of a named product without any company (and compares nothing).

    >>> avg = PlanStep(step_id="s1", tool="metrics.query", arguments={"metric": "catalog.average_unit_price",
    ...                "parameters": {"product_code": "PRD-1", "start_date": "2025-01-01"}})
    >>> unscoped_product_figure([avg])
    True
    >>> scoped = PlanStep(step_id="s1", tool="catalog.unit_price", arguments={"product_code": "PRD-1",
    ...                   "month": "2025-11", "company_id": "COMP-A"})
    >>> unscoped_product_figure([scoped])
    False
    """
    calls = [c for step in steps for c in _calls(step)]
    if any(metric in COMPARED_FIGURES for metric, _ in calls):
        return False
    product_calls = [p for metric, p in calls if metric in PRODUCT_FIGURES and p.get("product_code")]
    # two products' prices side by side compare them ("PRD-655 / PRD-650 unit prices"): no single product figure
    products = {str(p["product_code"]) for p in product_calls}
    return len(products) == 1 and all(not p.get("company_id") for p in product_calls)


def company_question(company_names: Iterable[str], offer: str) -> str:
    """The clarification asked: which company, the known ones listed (``offer``: the all-companies option)."""
    return (f"Which company do you mean? A product's unit price and units are figures of one company. Known "
            f"companies: {', '.join(company_names)}.{offer}")


__all__ = ["COMPARED_FIGURES", "PRODUCT_FIGURES", "company_question", "unscoped_product_figure"]
