"""Fixture-driven template tests: every valid template compiles to its recorded SQL, every ``__invalid`` one
is rejected at load with the metric's name and the recorded reason. Database-free."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from semantic.errors import MetricDefinitionError, SemanticError
from semantic.loader import load_metric
from semantic.schema import GovernedSchema, load_snapshot

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
VALID = sorted((FIXTURES / "valid").glob("*.yml"))
INVALID = sorted((FIXTURES / "__invalid").glob("*.yml"))


@pytest.fixture(scope="module")
def schema() -> GovernedSchema:
    return load_snapshot(FIXTURES / "schema.json")


def _load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text())


def test_fixture_sets_are_not_empty() -> None:
    assert len(VALID) >= 4
    assert len(INVALID) >= 25


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_template_compiles_to_recorded_sql(path: Path, schema: GovernedSchema) -> None:
    fixture = _load(path)
    metric = load_metric(fixture["metric"], schema)
    assert fixture["cases"], "a valid fixture records at least one compiled query"
    for case in fixture["cases"]:
        query = metric.variant(case.get("group_by", []), case.get("grain"))
        compiled = query.to_dialect(case.get("dialect", "postgres"))
        assert compiled.strip() == case["sql"].strip(), f"{path.name} {case.get('group_by')} {case.get('grain')}"


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_template_is_rejected_with_name_and_reason(path: Path, schema: GovernedSchema) -> None:
    fixture = _load(path)
    with pytest.raises(MetricDefinitionError) as caught:
        load_metric(fixture["metric"], schema)
    error = caught.value
    assert fixture["error"] in error.reason, f"{path.name}: got {error.reason!r}"
    assert error.metric == fixture["metric"]["name"]
    assert str(error).startswith(f"metric {fixture['metric']['name']}: ")
    # One flat family: every load-time failure is a SemanticError, never a raw sqlglot/pydantic exception.
    assert isinstance(error, SemanticError)


def test_postgres_sql_binds_values_only_through_placeholders(schema: GovernedSchema) -> None:
    metric = load_metric(_load(FIXTURES / "valid" / "seed_aggregate_spend.yml")["metric"], schema)
    sql = metric.variant().sql
    for name in ("company_id", "supplier_ids", "product_codes", "invoice_statuses", "start_date", "end_date"):
        assert f"%({name})s" in sql
    assert ":company_id" not in sql
    assert "'posted'" not in sql, "statuses are a bound parameter, not literals in the SQL"


def test_percent_literal_is_escaped_for_psycopg(schema: GovernedSchema) -> None:
    metric = load_metric(_load(FIXTURES / "valid" / "percent_and_optional.yml")["metric"], schema)
    assert "LIKE 'PRD-%%'" in metric.variant().sql
    # Other dialects are not psycopg: the literal stays as written.
    assert "LIKE 'PRD-%'" in metric.variant().to_dialect("duckdb")


def test_every_grain_and_dimension_combination_is_allowed_and_compiles(schema: GovernedSchema) -> None:
    metric = load_metric(_load(FIXTURES / "valid" / "grouped_spend.yml")["metric"], schema, eager=True)
    # 2 dimensions, max 2 at once -> 4 subsets; grains: none, month, quarter -> 3.
    assert len(metric.allowed_variants()) == 12
    assert all(metric.compiled(v).sql.startswith("SELECT") for v in metric.allowed_variants())
    assert metric.variant(["product_group_id", "supplier_id"], "month") is metric.variant(
        ["supplier_id", "product_group_id"], "month"
    )


def test_unsupported_dialect_is_refused(schema: GovernedSchema) -> None:
    metric = load_metric(_load(FIXTURES / "valid" / "cte_join_hierarchy.yml")["metric"], schema)
    with pytest.raises(ValueError, match="unsupported dialect"):
        metric.variant().to_dialect("oracle")
