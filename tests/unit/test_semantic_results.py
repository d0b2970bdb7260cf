"""Result shaping (pure): money as strings rounded half away from zero, zero vs no data, partial coverage,
provenance caps, policy and currency. Database-free: rows are given as the database would return them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from semantic.execute import present, shape
from semantic.loader import MetricRegistry
from semantic.model import OutputSpec
from semantic.params import bind
from tests.unit.shipped import shipped_registry

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
SEED = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return shipped_registry()  # one load per test process: these tests only read it


def _shape(registry: MetricRegistry, rows: list[tuple[object, ...]], group_by: list[str] | None = None):  # type: ignore[no-untyped-def]
    metric = registry.get("finance.aggregate_spend")
    query = metric.variant(group_by or [])
    params = bind(metric.definition.parameters, SEED, metric.definition.constraints)
    return shape(metric, query, params, rows, truncated=False, duration_ms=1.0)


def test_money_is_a_string_rounded_half_away_from_zero() -> None:
    money = OutputSpec(type="money", description="m")
    assert present(money, Decimal("12.345")) == "12.35"
    assert present(money, Decimal("-12.345")) == "-12.35"
    assert present(money, Decimal("0")) == "0.00"
    assert present(money, Decimal("1234567890.004999999")) == "1234567890.00"
    price = OutputSpec(type="decimal", scale=4, description="p")
    assert present(price, Decimal("190.00005")) == "190.0001"
    assert present(money, None) is None


def test_complete_result_carries_currency_policy_and_provenance(registry: MetricRegistry) -> None:
    row = (Decimal("2261.00000000"), 2, ["inv-1-line-01", "inv-2-line-01"], 2, ["SUP-18", "SUP-27"])
    result = _shape(registry, [row])
    assert result.status == "complete"
    assert result.currency == "EUR"
    assert result.rows[0].values == {"total_spend": "2261.00", "matched_line_count": 2}
    assert result.matched_line_count == 2
    assert result.rows[0].provenance is not None
    assert result.rows[0].provenance.source_line_ids == ("inv-1-line-01", "inv-2-line-01")
    assert result.policy["statuses_counted"] == ["posted", "paid"]
    assert "credit notes count negative" in result.policy["sign_rule"]
    assert [c.unit for c in result.columns if c.name == "total_spend"] == ["EUR"]
    assert result.coverage is not None and result.coverage.missing == ()


def test_zero_total_with_lines_is_not_no_data(registry: MetricRegistry) -> None:
    row = (Decimal("0E-8"), 2, ["inv-1-line-01", "cn-1-line-01"], 2, ["SUP-18", "SUP-27"])
    result = _shape(registry, [row])
    assert result.status == "complete"
    assert result.rows[0].values["total_spend"] == "0.00"


def test_no_matching_lines_is_no_data(registry: MetricRegistry) -> None:
    result = _shape(registry, [(Decimal(0), 0, None, 0, None)])
    assert result.status == "no_data"
    assert result.rows == ()
    assert result.matched_line_count == 0
    grouped = _shape(registry, [], group_by=["supplier_id"])
    assert grouped.status == "no_data"


def test_missing_requested_supplier_makes_the_result_partial(registry: MetricRegistry) -> None:
    row = (Decimal("100"), 1, ["inv-1-line-01"], 1, ["SUP-18"])
    result = _shape(registry, [row])
    assert result.status == "partial"
    assert result.coverage is not None
    assert result.coverage.calculated == ("SUP-18",)
    assert result.coverage.missing == ("SUP-27",)


def test_provenance_is_capped_with_the_full_count(registry: MetricRegistry) -> None:
    ids = [f"inv-{i}-line-01" for i in range(100)]
    result = _shape(registry, [(Decimal("1"), 250, ids, 250, ["SUP-18", "SUP-27"])])
    provenance = result.rows[0].provenance
    assert provenance is not None
    assert len(provenance.source_line_ids) == 100
    assert provenance.source_line_count == 250
    assert provenance.truncated is True


def test_grouped_rows_carry_their_dimension_values(registry: MetricRegistry) -> None:
    rows = [
        ("SUP-18", Decimal("10.005"), 1, ["a"], 1, ["SUP-18"]),
        ("SUP-27", Decimal("-3.333"), 2, ["b", "c"], 2, ["SUP-27"]),
    ]
    result = _shape(registry, rows, group_by=["supplier_id"])
    assert [r.values for r in result.rows] == [
        {"supplier_id": "SUP-18", "total_spend": "10.01", "matched_line_count": 1},
        {"supplier_id": "SUP-27", "total_spend": "-3.33", "matched_line_count": 2},
    ]
    assert result.matched_line_count == 3
    assert result.status == "complete"


@pytest.mark.parametrize(
    ("sql", "one"),
    [
        ("select sum(x) as s, count(*) as n from t where y = 1", True),
        ("select (array_agg(x order by x))[1:3] as ids, count(*) as n from t", True),
        ("select r.s, (select max(z) from u) as m from (select sum(x) as s from t) as r", True),
        ("select sum(x) as s from t group by y", False),
        ("select sum(x) as s from t having sum(x) > 0", False),
        ("select x from t", False),
        ("select sum(x) over () as s from t", False),
        ("select sum(x) as s, unnest(array[1, 2]) as u from t", False),
        ("select r.s from (select sum(x) as s from t) as r where r.s > 0", False),
        ("select r.s from (select sum(x) as s from t group by y) as r", False),
    ],
)
def test_one_row_queries_are_recognized_from_their_tree(sql: str, one: bool) -> None:
    # Only a query that always yields exactly one row may carry its audit call in its select list.
    import sqlglot

    from semantic.execute import _one_row

    assert _one_row(sqlglot.parse_one(sql, read="postgres")) is one
