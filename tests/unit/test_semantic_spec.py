"""Metrics defined in dbt's semantic spec: config.meta.procura is validated, templates are generated from the
measures, filters and binds, and mistakes name the dbt metric and the field. Database-free: dbt's semantic
manifest comes from the unit snapshot (tests/unit/fixtures/semantic/schema.json).

The tests that read the shipped registry share one load (tests.unit.shipped). A broken definition is loaded with the
broken dbt metric first in the manifest and domain files that keep their header (domain, owner) but no listings:
the load fails on that metric without first validating every other template, which it would pass anyway."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from semantic.errors import MetricDefinitionError
from semantic.loader import METRICS_DIR, MetricRegistry, load_registry
from semantic.schema import GovernedSchema, load_semantic_manifest
from tests.unit.shipped import shipped_registry, unit_schema

#: dbt metric -> the name Procura serves it under.
SERVED = {
    "aggregate_spend": "finance.aggregate_spend",
    "company_spend": "finance.company_spend",
    "units_purchased": "finance.units_purchased",
    "tax_total": "finance.tax_total",
    "unit_price": "catalog.unit_price",
}


@pytest.fixture(scope="module")
def schema() -> GovernedSchema:
    return unit_schema()


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    """The shipped registry, loaded once: these tests only read it."""
    return shipped_registry()


@pytest.fixture(scope="module")
def headers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped domain files with their header lines (domain, owner: the dbt metrics' default owners) only."""
    out = tmp_path_factory.mktemp("headers")
    for path in METRICS_DIR.glob("*.yml"):
        head = path.read_text().split("\nmetrics:")[0]
        assert "\ndomain: " in head
        (out / path.name).write_text(head + "\nmetrics: []\n")
    return out


def _load_broken(schema: GovernedSchema, semantic: dict[str, Any], name: str, headers: Path) -> None:
    """Load ``semantic`` with the dbt metric ``name`` moved to the front (dbt keeps no order of its own)."""
    semantic["metrics"] = sorted(semantic["metrics"], key=lambda m: m["name"] != name)
    load_registry(_with_semantic(schema, semantic), headers)


def _with_semantic(schema: GovernedSchema, semantic: dict[str, Any]) -> GovernedSchema:
    return GovernedSchema.from_mapping(schema.relations, source=schema.source, semantic=semantic)


def _metric(semantic: dict[str, Any], name: str) -> dict[str, Any]:
    return next(m for m in semantic["metrics"] if m["name"] == name)


def test_every_dbt_metric_with_procura_meta_is_served_under_its_name(
    schema: GovernedSchema, registry: MetricRegistry
) -> None:
    assert schema.semantic is not None
    for dbt_name, served in SERVED.items():
        assert _metric(dict(schema.semantic), dbt_name)["config"]["meta"]["procura"]["name"] == served
        assert served in {m.name for m in registry}
    # net_purchases has no config.meta.procura: it is a building block (unit_price's numerator), not served
    assert "net_purchases" not in {m.name.split(".")[1] for m in registry}


def test_templates_sum_the_measures_under_the_metric_filter(registry: MetricRegistry) -> None:
    spend = registry.get("finance.aggregate_spend").definition
    assert "coalesce(sum(spend_reporting_amount), 0) as total_spend" in spend.sql
    assert "where is_counted" in spend.sql and "supplier_id = any(:supplier_ids)" in spend.sql
    assert "(:product_codes is null or product_code = any(:product_codes))" in spend.sql
    assert list(spend.outputs) == ["total_spend", "matched_line_count"]
    assert spend.owner == "finance-analytics" and spend.scope == "invoice:aggregate"
    assert spend.time_dimension is not None and spend.time_dimension.expr == "invoice_date"
    price = registry.get("catalog.unit_price").definition
    assert "round(sum(net_reporting_amount) / nullif(sum(signed_quantity), 0), 4) as unit_price" in price.sql
    assert "invoice_date >= :month and invoice_date < :month + interval '1 month'" in price.sql
    assert list(price.outputs) == ["unit_price", "quantity", "matched_line_count"]
    assert price.owner == "procurement-analytics"


#: The one listing whose subject is the policy's own flag: the documents dbt flagged as replicated duplicates. It
#: reads ``is_duplicate`` as computed (``where is_duplicate``) and sums no amount, so nothing is re-derived.
_FLAG_LISTINGS = {"finance.duplicate_invoices": "where is_duplicate"}


def test_no_template_rederives_the_accounting_policy(registry: MetricRegistry) -> None:
    for metric in registry:
        sql = metric.definition.sql.lower()
        assert "credit_note" not in sql and "fx_rate_to_reporting_currency" not in sql, metric.name
        flag = _FLAG_LISTINGS.get(metric.name)
        if flag is not None:
            assert sql.count("is_duplicate") == 1 and flag in sql and "is_cancelled" not in sql, metric.name
            assert "spend_reporting_amount" not in sql and "is_counted" not in sql, metric.name
            continue
        assert "is_cancelled" not in sql and "is_duplicate" not in sql, metric.name


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m["config"]["meta"]["procura"]["parameters"]["company_id"].pop("bind"),
         r"aggregate_spend \(dbt metric\): config\.meta\.procura: .*'company_id' has no bind"),
        (lambda m: m["config"]["meta"]["procura"]["parameters"]["company_id"]["bind"].update(dimension="colour"),
         r"aggregate_spend \(dbt metric\): parameter 'company_id' binds: 'colour' is not a dimension"),
        (lambda m: m["config"]["meta"]["procura"].update(scope="everything"),
         r"aggregate_spend \(dbt metric\): config\.meta\.procura\.scope"),
        (lambda m: m["config"]["meta"]["procura"].update(group_by=["tenant_color"]),
         r"aggregate_spend \(dbt metric\): group_by: 'tenant_color' is not a dimension"),
        (lambda m: m["config"]["meta"]["procura"].update(bogus=1),
         r"aggregate_spend \(dbt metric\): config\.meta\.procura\.bogus: Extra inputs"),
        (lambda m: m.update(filter={"where_filters": [{"where_sql_template": "{{ Entity('company') }} = 'x'"}]}),
         r"aggregate_spend \(dbt metric\): filter of 'aggregate_spend': only"),
        (lambda m: m["config"]["meta"]["procura"]["parameters"]["company_id"].update(type="colour"),
         r"aggregate_spend \(dbt metric\): config\.meta\.procura\.parameters\.company_id\.type"),
    ],
    ids=["missing-bind", "unknown-bind-dimension", "bad-scope", "unknown-group-by", "unknown-field",
         "unsupported-filter", "bad-type"],
)
def test_a_broken_procura_meta_names_the_dbt_metric_and_the_field(
    schema: GovernedSchema, headers: Path, edit: Any, message: str
) -> None:
    semantic = copy.deepcopy(dict(schema.semantic or {}))
    edit(_metric(semantic, "aggregate_spend"))
    with pytest.raises(MetricDefinitionError, match=message):
        _load_broken(schema, semantic, "aggregate_spend", headers)


def test_a_measure_column_missing_from_the_contract_fails_the_load(schema: GovernedSchema) -> None:
    relations = {k: dict(v) for k, v in schema.relations.items()}
    del relations["marts.validated_invoice_lines"]["signed_quantity"]
    shrunk = GovernedSchema.from_mapping(relations, source="test", semantic=schema.semantic)
    with pytest.raises(MetricDefinitionError, match="signed_quantity"):
        load_registry(shrunk)


def test_without_a_semantic_manifest_the_load_says_how_to_get_one(schema: GovernedSchema, tmp_path: Path) -> None:
    with pytest.raises(MetricDefinitionError, match="run `dbt parse`"):
        load_registry(GovernedSchema.from_mapping(schema.relations, source="test"))
    assert load_semantic_manifest(tmp_path) is None
    (tmp_path / "semantic_manifest.json").write_text(json.dumps({"metrics": []}))
    with pytest.raises(Exception, match="not a dbt semantic manifest"):
        load_semantic_manifest(tmp_path)


def _without_database(node: dict[str, Any]) -> dict[str, Any]:
    if "relation_name" in node and "schema_name" in node:
        return {k: v for k, v in node.items() if k not in ("database", "relation_name")}
    return node


def test_snapshot_semantic_manifest_matches_dbt_when_one_exists(schema: GovernedSchema) -> None:
    """The unit snapshot's semantic part is generated from dbt's; if a parse is around, they must agree."""
    target = Path(__file__).resolve().parents[2] / "target"
    live = load_semantic_manifest(target)
    if live is None:
        pytest.skip("no target/semantic_manifest.json (run `dbt parse`)")
    assert schema.semantic is not None
    # dbt writes metrics and semantic models in no fixed order, and adds keys (saved queries, project
    # configuration) the loader never reads: compare what the snapshot holds, by name.
    # The database name in a relation is the one the last parse or build ran against (a scorer's or a test's
    # database): not part of the semantic definitions the snapshot records.
    ours = json.loads(json.dumps(dict(schema.semantic)), object_hook=_without_database)
    theirs = json.loads(json.dumps(live), object_hook=_without_database)
    for key, items in ours.items():
        assert sorted(theirs[key], key=lambda item: item["name"]) == sorted(items, key=lambda item: item["name"]), key


@pytest.mark.parametrize(
    ("name", "edit", "message"),
    [
        ("spend_ranking", lambda m: m["config"]["meta"]["procura"].update(grains=["month"]),
         r"spend_ranking \(dbt metric\): config\.meta\.procura: .*a ranking has no grains"),
        ("supplier_share_of_spend", lambda m: m["config"]["meta"]["procura"].pop("share"),
         r"supplier_share_of_spend \(dbt metric\): config\.meta\.procura: .*the share block goes with shape"),
        ("supplier_share_of_spend", lambda m: m["config"]["meta"]["procura"].update(share={"numerator": ["colour"]}),
         r"share\.numerator names undeclared parameter 'colour'"),
        ("spend_comparison", lambda m: m["config"]["meta"]["procura"].update(shape="aggregate"),
         r"spend_comparison \(dbt metric\): config\.meta\.procura: .*the comparison block goes with shape"),
        ("document_spend", lambda m: m["config"]["meta"]["procura"].update(
            partition={"parameter": "document_currency", "dimension": "product_code"}),
         r"partition dimension 'product_code' is not an allow-listed dimension"),
    ],
    ids=["ranking-grain", "share-without-block", "share-unknown-numerator", "comparison-block-without-shape",
         "partition-not-groupable"],
)
def test_a_broken_shape_names_the_dbt_metric_and_the_reason(
    schema: GovernedSchema, headers: Path, name: str, edit: Any, message: str
) -> None:
    semantic = copy.deepcopy(dict(schema.semantic or {}))
    edit(_metric(semantic, name))
    with pytest.raises(MetricDefinitionError, match=message):
        _load_broken(schema, semantic, name, headers)


def test_ranking_and_comparison_generate_their_own_bounded_parameters(registry: MetricRegistry) -> None:
    ranking = registry.get("finance.spend_ranking").definition
    assert ranking.parameters["limit"].maximum == 100 and ranking.parameters["limit"].minimum == 1
    assert ranking.parameters["order_by"].allowed_values == ("total_spend", "net_spend", "units",
                                                              "matched_line_count")
    assert ranking.min_group_by == ranking.max_group_by == 1 and ranking.time_dimension is None
    comparison = registry.get("finance.spend_comparison").definition
    assert comparison.parameters["compare_to"].allowed_values == ("previous_period", "same_period_last_year",
                                                                  "custom")
    assert "base_start_date" in comparison.sql and "compare_to" not in comparison.sql
