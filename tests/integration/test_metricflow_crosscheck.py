"""MetricFlow as an independent second compiler: every metric Procura serves from dbt's semantic spec is also
compiled by MetricFlow (dbt-metricflow, a dev dependency) from the same ``semantic_manifest.json``, run in the
same tenant transaction as the serving role (RLS applies), and must give the API's answer to the cent.

MetricFlow only plans here (its SQL is executed by psycopg), so no dbt adapter connection is involved. The
parameter binds of ``config.meta.procura`` become MetricFlow where-filters on the same dimensions.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator, Mapping
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from procura.db.session import AuthContext, tenant_transaction
from procura.settings import Settings
from semantic.loader import MetricRegistry, load_registry
from semantic.testing import TwoTenants, build_governed_marts, remove_two_tenants, seed_two_tenants

pytestmark = pytest.mark.integration

mf_engine = pytest.importorskip("metricflow.engine.metricflow_engine", reason="dbt-metricflow is a dev dependency")

#: Sample parameters per served metric (every served metric must have one: a new metric needs a sample here).
SAMPLES: Mapping[str, list[dict[str, Any]]] = {
    "finance.aggregate_spend": [
        {"parameters": {"company_id": "COMP-A", "supplier_ids": ["SUP-18", "SUP-27"],
                        "product_codes": ["PRD-482", "PRD-619"], "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        {"parameters": {"company_id": "COMP-A", "supplier_ids": ["SUP-18", "SUP-27", "SUP-40"],
                        "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "invoice_statuses": ["posted", "paid", "draft"]},
         "group_by": ["supplier_id"], "grain": "month"},
    ],
    "finance.company_spend": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["supplier_id"]},
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "supplier_ids": ["SUP-18", "SUP-27"], "document_types": ["credit_note"]}},
    ],
    "finance.units_purchased": [
        {"parameters": {"supplier_id": "SUP-18", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
    ],
    "finance.tax_total": [
        {"parameters": {"invoice_numbers": ["INV-2026-0148", "INV-2026-0201"]}},
    ],
    "finance.net_spend": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        {"parameters": {"start_date": "2026-01-01", "end_date": "2026-04-01", "document_types": ["credit_note"]},
         "group_by": ["supplier_id"]},
    ],
    "finance.period_tax": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "supplier_ids": ["SUP-18", "SUP-27"]}},
        {"parameters": {"start_date": "2026-01-01", "end_date": "2026-04-01"}, "group_by": ["company_id"]},
    ],
    "catalog.unit_price": [
        {"parameters": {"product_code": "PRD-482", "month": "2026-02"}},
    ],
    "finance.document_currency_spend": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["currency"]},
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "document_currency": "EUR", "exclude_supplier_ids": ["SUP-40", "SUP-99"]},
         "group_by": ["supplier_id"]},
    ],
    "finance.invoice_count": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["supplier_id"], "grain": "month"},
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "document_types": ["invoice"], "exclude_supplier_ids": ["SUP-99"],
                        "invoice_statuses": ["posted"]}},
    ],
    "catalog.average_unit_price": [
        {"parameters": {"product_code": "PRD-482", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["supplier_id"]},
    ],
    "finance.supplier_count": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "document_types": ["invoice"]}, "grain": "month"},
    ],
    "finance.product_count": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        {"parameters": {"company_id": "COMP-A", "start_date": "2025-01-01", "end_date": "2026-04-01",
                        "supplier_ids": ["SUP-18", "SUP-27"]}, "grain": "quarter"},
    ],
    "catalog.unit_price_range": [
        {"parameters": {"product_code": "PRD-482", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["supplier_id"]},
    ],
    "finance.invoice_line_count": [
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"},
         "group_by": ["product_group_id"], "grain": "month"},
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "document_types": ["invoice"], "exclude_supplier_ids": ["SUP-99"],
                        "invoice_statuses": ["posted"]}},
    ],
    "catalog.document_currency_unit_price": [
        {"parameters": {"product_code": "PRD-482", "start_date": "2025-01-01", "end_date": "2026-04-01"},
         "group_by": ["currency"]},
        {"parameters": {"product_code": "PRD-482", "start_date": "2025-01-01", "end_date": "2026-04-01",
                        "document_currency": "EUR"}, "group_by": ["supplier_id"]},
    ],
}
#: Metrics of the share, comparison and ranking shapes: MetricFlow has no runtime numerator filter, offset
#: base period or cut, so tests/integration/test_metric_shapes_crosscheck.py composes them from MetricFlow
#: queries of the plain metric instead.
COMPOSED = {"finance.supplier_share", "finance.product_group_share", "finance.currency_share",
            "finance.spend_comparison",
            "finance.spend_ranking", "finance.largest_invoices"}


class _PlanOnly:
    """MetricFlow's SqlClient for planning Postgres SQL; execution goes through psycopg in the test."""

    def __init__(self) -> None:
        from metricflow.protocols.sql_client import SqlEngine
        from metricflow.sql.render.postgres import PostgresSQLSqlPlanRenderer

        self.sql_engine_type = SqlEngine.POSTGRES
        self.sql_plan_renderer = PostgresSQLSqlPlanRenderer()

    def render_bind_parameter_key(self, bind_parameter_key: str) -> str:
        return f"%({bind_parameter_key})s"

    def query(self, *_: object, **__: object) -> Any:
        raise NotImplementedError("planning only")

    execute = dry_run = query

    def close(self) -> None:
        return None


@pytest.fixture(scope="module")
def built(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> tuple[MetricRegistry, Path]:
    marts = build_governed_marts(settings, tmp_path_factory.mktemp("dbt"))
    return load_registry(marts.schema), marts.target_dir / "semantic_manifest.json"


@pytest.fixture(scope="module")
def world(settings: Settings, built: tuple[MetricRegistry, Path]) -> Iterator[TwoTenants]:
    data = seed_two_tenants(settings, "mf")
    yield data
    remove_two_tenants(settings, data)


@pytest.fixture(scope="module")
def client(settings: Settings, built: tuple[MetricRegistry, Path], world: TwoTenants) -> Iterator[TestClient]:
    with TestClient(create_app(settings, registry=built[0])) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def engine(built: tuple[MetricRegistry, Path]) -> Any:
    from metricflow_semantics.model.dbt_manifest_parser import parse_manifest_from_dbt_generated_manifest
    from metricflow_semantics.model.semantic_manifest_lookup import SemanticManifestLookup

    manifest = parse_manifest_from_dbt_generated_manifest(manifest_json_string=built[1].read_text())
    return mf_engine.MetricFlowEngine(SemanticManifestLookup(manifest), _PlanOnly())


def _served(manifest_path: Path) -> dict[str, dict[str, Any]]:
    """Procura name -> the dbt metric (with its config.meta.procura)."""
    metrics = json.loads(manifest_path.read_text())["metrics"]
    return {
        m["config"]["meta"]["procura"]["name"]: m
        for m in metrics
        if (m.get("config") or {}).get("meta", {}).get("procura")
    }


def _literal(value: Any) -> str:
    # Sample values are fixed test constants matching the parameters' patterns (no quotes in them).
    assert "'" not in str(value)
    return f"'{value}'"


def _where(meta: Mapping[str, Any], entity: str, values: Mapping[str, Any], tenant: str) -> list[str]:
    """The bound parameters as MetricFlow where-filters on the dimensions they bind to."""
    where = [f"{{{{ Dimension('{entity}__tenant_id') }}}} = {_literal(tenant)}"]
    for name, value in values.items():
        if value is None:
            continue
        bind = meta["parameters"][name]["bind"]
        dim, op = bind["dimension"], bind["op"]
        if op in ("gte", "lt", "month"):
            ref = f"{{{{ TimeDimension('{entity}__{dim}', 'day') }}}}"
            start = dt.date.fromisoformat(f"{value}-01" if op == "month" else str(value))
            if op == "gte":
                where.append(f"{ref} >= {_literal(start)}")
            elif op == "lt":
                where.append(f"{ref} < {_literal(start)}")
            else:
                following = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
                where += [f"{ref} >= {_literal(start)}", f"{ref} < {_literal(following)}"]
        elif op == "in":
            where.append(f"{{{{ Dimension('{entity}__{dim}') }}}} in ({', '.join(_literal(v) for v in value)})")
        elif op == "not_in":
            column = f"{{{{ Dimension('{entity}__{dim}') }}}}"
            where.append(f"({column} is null or {column} not in ({', '.join(_literal(v) for v in value)}))")
        else:
            where.append(f"{{{{ Dimension('{entity}__{dim}') }}}} = {_literal(value)}")
    return where


def _run(settings: Settings, tenant: str, sql: str) -> list[dict[str, Any]]:
    with psycopg.connect(settings.app_url) as conn, tenant_transaction(
        conn, AuthContext(tenant_id=tenant, principal_id="metricflow-crosscheck")
    ):
        cur = conn.execute(sql)  # MetricFlow's SQL; every value in it is a fixed sample constant above
        names = [c.name for c in cur.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cur.fetchall()]


def _quantize(value: Any, output: Mapping[str, Any]) -> str | None:
    if value is None:
        return None
    scale = output.get("scale")
    if scale is None:
        scale = 2 if output["type"] == "money" else 0
    exact = value if isinstance(value, Decimal) else Decimal(repr(value))
    return str(exact.quantize(Decimal(1).scaleb(-scale), rounding=ROUND_HALF_UP))


#: Metrics over a mart dbt derives from the lines (this module writes the lines without dbt, so the derived mart stays
#: empty here): tests/integration/test_ask_statuses.py compares them with the governed lines directly.
DERIVED = {"finance.cancelled_draft_invoices"}


def test_every_served_metric_has_a_sample(built: tuple[MetricRegistry, Path]) -> None:
    assert set(_served(built[1])) == set(SAMPLES) | COMPOSED | DERIVED


@pytest.mark.parametrize(
    ("name", "index"), [(n, i) for n, cases in SAMPLES.items() for i in range(len(cases))], ids=str
)
def test_metricflow_and_the_api_agree_to_the_cent(
    name: str, index: int, settings: Settings, built: tuple[MetricRegistry, Path], world: TwoTenants,
    client: TestClient, engine: Any,
) -> None:
    registry, manifest_path = built
    dbt_metric = _served(manifest_path)[name]
    meta = dbt_metric["config"]["meta"]["procura"]
    body = SAMPLES[name][index]
    response = client.post(f"/v1/metrics/{name}/query", json=body,
                           headers={"Authorization": f"Bearer {world.keys['a']}"})
    assert response.status_code == 200, response.text
    api_rows = response.json()["rows"]

    definition = registry.get(name).definition
    bound = {k: v for k, v in registry.get(name).definition.parameters.items()}
    values = {p: body["parameters"].get(p, spec.default) for p, spec in bound.items()}
    entity = "invoice_line"
    # output column -> dbt metric whose value it is; the match count is MetricFlow's counted_invoice_lines
    outputs = {meta["value"]["name"]: dbt_metric["name"]}
    outputs.update({out: spec["metric"] for out, spec in (meta.get("also") or {}).items()})
    outputs["matched_line_count"] = "counted_invoice_lines"
    group_by = [f"{entity}__{d}" for d in body.get("group_by", ())]
    if body.get("grain"):
        group_by.append(f"{entity}__{definition.time_dimension.expr}__{body['grain']}")  # type: ignore[union-attr]
    request = mf_engine.MetricFlowQueryRequest.create(
        metric_names=sorted(set(outputs.values())),
        group_by_names=group_by or None,
        where_constraints=_where(meta, entity, values, world.tenant_a),
    )
    sql = engine.explain(request).sql_statement.sql
    mf_rows = _run(settings, world.tenant_a, sql)

    def key(row: Mapping[str, Any], names: list[str]) -> tuple[str, ...]:
        # MetricFlow's time buckets are timestamps, Procura's period_start a date
        return tuple(str(v.date() if isinstance(v, dt.datetime) else v) for v in (row[n] for n in names))

    api_by_key = {
        key(r["values"], [*body.get("group_by", ()), *(["period_start"] if body.get("grain") else [])]): r["values"]
        for r in api_rows
    }
    mf_by_key = {key(r, group_by): r for r in mf_rows}
    if not group_by:  # MetricFlow answers one row even when nothing matched (count 0): so does the API
        assert len(mf_rows) == len(api_rows) == 1
    assert sorted(api_by_key) == sorted(mf_by_key), (api_by_key, mf_by_key)
    assert api_by_key, "the sample matches no data: pick one that does"
    for row_key, api_values in api_by_key.items():
        mf_row = mf_by_key[row_key]
        for output, metric in outputs.items():
            spec = definition.outputs[output].model_dump()
            mf_value = mf_row[metric]
            if output == "matched_line_count" or spec["type"] == "integer":  # counts: 0 over no rows
                assert int(api_values[output]) == int(mf_value or 0), (name, row_key)
                continue
            if spec["type"] in ("money", "quantity") and mf_value is None:
                mf_value = Decimal(0)  # MetricFlow's SUM over no rows is NULL; Procura reports 0 with count 0
            assert api_values[output] == _quantize(mf_value, spec), (name, row_key, output, mf_value)
