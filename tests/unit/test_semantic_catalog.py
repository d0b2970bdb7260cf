"""The shipped metric catalog (semantic/*.yml): loads against the governed schema snapshot, compiles to the
recorded SQL, keeps the seed's calculation, and exposes JSON Schemas. Database-free."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from semantic.errors import MetricDefinitionError, ParameterError, UnknownMetricError
from semantic.loader import METRICS_DIR, MetricRegistry, load_registry
from semantic.schema import GovernedSchema, load_manifest, load_snapshot

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
COMPILED = FIXTURES / "compiled"
REQUIRED = {
    "finance.aggregate_spend",
    "finance.company_spend",
    "finance.units_purchased",
    "finance.tax_total",
    "finance.invoices_above_threshold",
    "catalog.unit_price",
}


@pytest.fixture(scope="module")
def schema() -> GovernedSchema:
    return load_snapshot(FIXTURES / "schema.json")


@pytest.fixture(scope="module")
def registry(schema: GovernedSchema) -> MetricRegistry:
    return load_registry(schema)


def test_catalog_has_the_required_metrics(registry: MetricRegistry) -> None:
    assert {m.name for m in registry} >= REQUIRED
    assert {p.name for p in METRICS_DIR.glob("*.yml")} == {"finance.yml", "catalog.yml"}


@pytest.mark.parametrize("path", sorted(COMPILED.glob("*.sql")), ids=lambda p: p.stem)
def test_compiled_sql_matches_the_recorded_sql(path: Path, registry: MetricRegistry) -> None:
    name, _, rest = path.name.removesuffix(".sql").partition("__")
    variant, _, dialect = rest.partition(".")
    parts = variant.split("__") if variant else []
    grains = {"day", "week", "month", "quarter", "year"}
    grain = next((p for p in parts if p in grains), None)
    dims = [p for p in parts if p not in grains]
    compiled = registry.get(name).variant(dims, grain).to_dialect(dialect or "postgres")
    assert compiled.strip() == path.read_text().strip()


def test_aggregate_spend_keeps_the_seed_calculation(registry: MetricRegistry) -> None:
    sql = registry.get("finance.aggregate_spend").variant().sql
    # The policy (sign * (net + tax) * fx, cancelled and duplicates excluded) is applied once, by dbt, in the
    # columns spend_reporting_amount and is_counted; the template only sums them.
    assert 'SUM("validated_invoice_lines"."spend_reporting_amount")' in sql
    assert '"validated_invoice_lines"."is_counted"' in sql
    assert "credit_note" not in sql and "fx_rate_to_reporting_currency" not in sql
    assert '"validated_invoice_lines"."invoice_date" >= CAST(%(start_date)s AS DATE)' in sql
    assert '"validated_invoice_lines"."invoice_date" < CAST(%(end_date)s AS DATE)' in sql
    assert 'COUNT(*) AS "matched_line_count"' in sql


def test_json_schema_describes_types_defaults_and_bounds(registry: MetricRegistry) -> None:
    schema = registry.get("finance.aggregate_spend").parameters_schema
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"company_id", "supplier_ids", "start_date", "end_date"}
    statuses = schema["properties"]["invoice_statuses"]
    assert statuses["default"] == ["posted", "paid"]
    assert statuses["items"]["enum"] == ["draft", "posted", "paid"]  # never counted: a 422, not "no data"
    assert schema["properties"]["start_date"]["format"] == "date"
    threshold = registry.get("finance.invoices_above_threshold").parameters_schema["properties"]["threshold"]
    assert threshold["type"] == ["string", "integer"]
    assert threshold["minimum"] == 0 and threshold["maximum"] == 1_000_000_000_000
    json.dumps(dict(schema))  # JSON-serializable as served by the API


def test_variant_rejects_unknown_dimension_and_grain(registry: MetricRegistry) -> None:
    metric = registry.get("finance.aggregate_spend")
    with pytest.raises(ParameterError, match="unknown dimension 'tenant_id'") as caught:
        metric.variant(["tenant_id"])
    assert caught.value.parameter == "group_by"
    with pytest.raises(ParameterError, match="unknown grain 'hour'"):
        metric.variant([], "hour")
    with pytest.raises(ParameterError, match="at most 2 dimension"):
        metric.variant(["supplier_id", "product_code", "product_group_id"])
    with pytest.raises(ParameterError, match="repeated"):
        metric.variant(["supplier_id", "supplier_id"])
    with pytest.raises(UnknownMetricError):
        registry.get("finance.nope")


def test_describe_never_contains_sql(registry: MetricRegistry) -> None:
    for metric in registry:
        text = json.dumps(metric.describe()).lower()
        assert "select" not in text and "marts.validated_invoice_lines where" not in text


def test_a_governed_column_missing_from_the_schema_fails_the_load(schema: GovernedSchema) -> None:
    relations = {k: dict(v) for k, v in schema.relations.items()}
    del relations["marts.validated_invoice_lines"]["spend_reporting_amount"]
    shrunk = GovernedSchema.from_mapping(relations, source="test")
    with pytest.raises(MetricDefinitionError, match="spend_reporting_amount"):
        load_registry(shrunk)


def test_schema_loader_reads_a_dbt_manifest(tmp_path: Path) -> None:
    manifest = {
        "metadata": {"dbt_version": "1.11.0"},
        "nodes": {
            "model.procura.validated_invoice_lines": {
                "resource_type": "model",
                "name": "validated_invoice_lines",
                "schema": "marts",
                "alias": "validated_invoice_lines",
                "columns": {
                    "line_id": {"name": "line_id", "data_type": "text"},
                    "quantity": {"name": "quantity", "data_type": "numeric(18,4)"},
                },
            },
            "model.procura.stg_invoice_lines": {
                "resource_type": "model",
                "name": "stg_invoice_lines",
                "schema": "staging",
                "columns": {"line_id": {"name": "line_id", "data_type": "text"}},
            },
        },
    }
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    schema = load_manifest(path)
    assert dict(schema.relations) == {"marts.validated_invoice_lines": {"line_id": "text", "quantity": "numeric(18,4)"}}
    assert schema.source == "dbt 1.11.0 manifest"


def test_snapshot_matches_the_dbt_manifest_when_one_exists() -> None:
    """The unit fixture is generated from dbt's artifacts; if the real manifest is around, they must agree."""
    manifest = Path(__file__).resolve().parents[2] / "target" / "manifest.json"
    if not manifest.exists():
        pytest.skip("no target/manifest.json (run `dbt parse`)")
    live = load_manifest(manifest)
    snapshot = load_snapshot(FIXTURES / "schema.json")
    for relation in ("marts.validated_invoice_lines", "marts.product_group_hierarchy"):
        assert dict(snapshot.relations[relation]) == dict(live.relations[relation]), relation
