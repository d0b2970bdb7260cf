"""The FP&A measures of semantic/finance.yml (finance.spend_projection, finance.average_invoice_value) through the
metric API, against the independent calculation of :mod:`tests.integration.test_metric_shapes` over its seeded
world: the exact line sums multiplied / divided and rounded once, to the cent."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.integration import test_metric_shapes as shapes
from tests.integration.test_metric_shapes import (
    COMPANIES,
    EXAMPLES,
    MONTHS,
    QUARTERS,
    SUPPLIERS,
    World,
    matching,
    money,
    spend,
    subsets,
)

#: the seeded world of the shape tests (module fixtures, built once for this module)
registry = shapes.registry
world = shapes.world

pytestmark = pytest.mark.integration
#: Whole-month base periods: one month, a quarter, a half-year.
BASES = (*MONTHS, *QUARTERS, (dt.date(2025, 7, 1), dt.date(2026, 1, 1)), (dt.date(2026, 1, 1), dt.date(2026, 7, 1)))


def _months(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + end.month - start.month


@EXAMPLES
@given(period=st.sampled_from(BASES), company=st.sampled_from((*COMPANIES, None)),
       horizon=st.sampled_from((1, 3, 6, 12)), excluded=st.one_of(st.none(), subsets(SUPPLIERS)))
def test_spend_projection_is_the_exact_sum_times_horizon_over_months(
        world: World, period: tuple[dt.date, dt.date], company: str | None, horizon: int,
        excluded: list[str] | None) -> None:
    p: dict[str, Any] = {"start_date": period[0].isoformat(), "end_date": period[1].isoformat(),
                         **({"company_id": company} if company else {}),
                         **({"exclude_supplier_ids": excluded} if excluded else {})}
    result = world.query("finance.spend_projection", {**p, "horizon_months": horizon})
    lines = matching(world.rows, p)
    if not lines:
        assert result["status"] == "no_data" and not result["rows"]
        return
    total = sum(map(spend, lines), Decimal(0))
    months = _months(*period)
    got = result["rows"][0]["values"]
    assert got["total_spend"] == money(total) and got["months"] == months and got["line_count"] == len(lines)
    assert got["monthly_run_rate"] == money(total / months)
    assert got["projected_spend"] == money(total * horizon / months), (p, horizon)


def test_a_projection_over_a_period_of_partial_months_has_no_figure(world: World) -> None:
    got = world.query("finance.spend_projection", {"company_id": "COMP-A", "start_date": "2026-02-10",
                                                   "end_date": "2026-03-17", "horizon_months": 12})["rows"][0]["values"]
    assert got["projected_spend"] is None and got["months"] is None and got["total_spend"] is not None


@EXAMPLES
@given(period=st.sampled_from(BASES), company=st.sampled_from((*COMPANIES, None)),
       suppliers=st.one_of(st.none(), subsets(SUPPLIERS)))
def test_average_invoice_value_is_the_invoices_exact_sum_over_their_number(
        world: World, period: tuple[dt.date, dt.date], company: str | None, suppliers: list[str] | None) -> None:
    p: dict[str, Any] = {"start_date": period[0].isoformat(), "end_date": period[1].isoformat(),
                         **({"company_id": company} if company else {}),
                         **({"supplier_ids": suppliers} if suppliers else {})}
    result = world.query("finance.average_invoice_value", p)
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for r in matching(world.rows, {**p, "document_types": ["invoice"]}):  # credit notes are no invoices
        totals[r["invoice_number"]] += spend(r)
    if not totals:
        assert result["status"] == "no_data"
        return
    got = result["rows"][0]["values"]
    assert got["invoice_count"] == len(totals)
    assert got["average_invoice_value"] == money(sum(totals.values(), Decimal(0)) / len(totals)), p
