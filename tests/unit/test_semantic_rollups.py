"""Relation selection without a database: which rollups can answer a compiled query, and which one does."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from semantic.loader import MetricRegistry
from semantic.params import bind
from semantic.rollups import LINES, RelationPlanner
from tests.unit.shipped import shipped_registry

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
MONTHLY, DAILY = "marts.spend_monthly_rollup", "marts.spend_daily_rollup"


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return shipped_registry()  # one load per test process: these tests only read it


def _relations(registry: MetricRegistry, name: str, group_by: tuple[str, ...] = (), grain: str | None = None) -> list:
    metric = registry.get(name)
    query = metric.variant(group_by, grain)
    return [c.rollup.relation for c in RelationPlanner().candidates(metric.definition, query, registry.schema)]


def test_the_rollups_that_can_answer_each_shape(registry: MetricRegistry) -> None:
    assert _relations(registry, "finance.aggregate_spend") == [MONTHLY, DAILY]
    assert _relations(registry, "finance.aggregate_spend", ("supplier_id",), "quarter") == [MONTHLY, DAILY]
    # a week or a product group cannot be told apart in the monthly rollup
    assert _relations(registry, "finance.aggregate_spend", (), "week") == [DAILY]
    assert _relations(registry, "finance.aggregate_spend", ("product_group_id",)) == [DAILY]
    assert _relations(registry, "catalog.unit_price") == [DAILY]  # filters one product
    # invoice numbers are in no rollup; a listing is not an aggregate
    assert _relations(registry, "finance.tax_total") == []
    assert _relations(registry, "finance.invoices_above_threshold") == []


def test_a_request_is_covered_only_by_what_it_leaves_unset_and_whole_months(registry: MetricRegistry) -> None:
    metric = registry.get("finance.aggregate_spend")
    query = metric.variant()
    monthly, daily = RelationPlanner().candidates(metric.definition, query, registry.schema)
    assert monthly.requires_null == {"product_codes"}
    assert monthly.month_starts == {"start_date", "end_date"}
    base = {"company_id": "COMP-A", "supplier_ids": ["SUP-18"], "start_date": "2026-01-01", "end_date": "2026-04-01"}
    params = bind(metric.definition.parameters, base, metric.definition.constraints)
    assert monthly.covers(params.values) and daily.covers(params.values)
    for change in ({"start_date": "2026-01-02"}, {"product_codes": ["PRD-482"]}):
        other = bind(metric.definition.parameters, {**base, **change}, metric.definition.constraints)
        assert not monthly.covers(other.values) and daily.covers(other.values)
    assert params.values["start_date"] == dt.date(2026, 1, 1)


def test_the_smallest_covering_rollup_answers_unless_the_lines_are_not_much_larger(registry: MetricRegistry) -> None:
    metric = registry.get("finance.aggregate_spend")
    query = metric.variant(("supplier_id",), "month")
    base = {"company_id": "COMP-A", "supplier_ids": ["SUP-18"], "start_date": "2026-01-01", "end_date": "2026-04-01"}
    params = bind(metric.definition.parameters, base, metric.definition.constraints)
    planner = RelationPlanner()

    def chosen(sizes: dict[str, float], values: dict = params.values) -> str:
        return planner.select(metric.definition, query, values, registry.schema, sizes).relation

    assert chosen({}) == MONTHLY  # sizes unknown: the smallest covering rollup
    assert chosen({LINES: 1_000_000, MONTHLY: 20_000, DAILY: 900_000}) == MONTHLY
    assert chosen({LINES: 100_000, MONTHLY: 30_000, DAILY: 90_000}) == LINES  # not 4x smaller
    product = bind(metric.definition.parameters, {**base, "product_codes": ["PRD-482"]}, metric.definition.constraints)
    # only the daily rollup covers a product filter; as large as the lines, it leaves the query to them
    assert chosen({LINES: 1_000_000, MONTHLY: 20_000, DAILY: 900_000}, product.values) == LINES
    assert chosen({LINES: 1_000_000, MONTHLY: 20_000, DAILY: 100_000}, product.values) == DAILY


def test_a_rollup_query_keeps_the_result_columns_and_takes_ids_from_the_rollup(registry: MetricRegistry) -> None:
    metric = registry.get("finance.aggregate_spend")
    query = metric.variant(("supplier_id",), "month")
    monthly = RelationPlanner().candidates(metric.definition, query, registry.schema)[0]
    assert monthly.query.columns == query.columns and monthly.query.variant == query.variant
    assert monthly.query.relation == MONTHLY and query.relation == LINES
    sql = monthly.query.sql
    assert '"marts"."spend_monthly_rollup"' in sql and '"marts"."validated_invoice_lines"' not in sql
    assert 'UNNEST(rr."first_line_ids")' in sql
    assert 'SUM("spend_monthly_rollup"."line_count")' in sql
    assert "LIMIT 100" in sql and "%(_row_limit)s" in sql
    # The filters run once (the matched rows, materialized); the provenance fetches its id arrays by row location.
    assert sql.count("%(company_id)s") == 1 and sql.count("%(start_date)s") == 1
    assert "AS MATERIALIZED" in sql and "f.ctid = ANY(ARRAY(" in sql


def test_the_rollup_models_render_with_the_project_macros() -> None:
    # What refresh_rollups runs for lines written without dbt: the model file rendered with macros/*.sql.
    import sqlglot

    from semantic.testing import rollup_model_sql

    for name, date in (("spend_daily_rollup", "invoice_date"), ("spend_monthly_rollup", "invoice_month")):
        body = rollup_model_sql(name)
        assert "{{" not in body and "{%" not in body, name
        tree = sqlglot.parse_one(body, read="postgres")
        grouped = next(s for s in tree.find_all(sqlglot.exp.Select) if s.args.get("group"))
        assert [c.alias_or_name for c in grouped.expressions][-8:] == [
            date, "spend_reporting_amount", "net_reporting_amount", "tax_reporting_amount", "signed_quantity",
            "line_count", "first_line_ids", "first_line_id",
        ], name  # fmt: skip
