"""Adding a metric is one YAML edit: a copy of the dbt project gets one more dbt metric (with its
config.meta.procura) beside the mart, `dbt parse` lists it, and with no Python change it is served by the API
with its own request schema in the OpenAPI document, and listed, described and callable over MCP."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from procura.settings import REPO_ROOT, Settings
from semantic.loader import MetricRegistry, load_registry
from semantic.schema import load_manifest
from semantic.testing import TwoTenants, build_governed_marts, expected_spend, remove_two_tenants, seed_two_tenants

pytestmark = pytest.mark.integration

#: The one edit: a dbt metric appended to models/marts/validated_invoice_lines.yml.
NEW_METRIC = """
  - name: draft_spend
    label: Draft spend
    description: Spend of one company's draft invoices in a half-open period, in the reporting currency.
    type: simple
    type_params: {measure: spend_reporting_amount}
    filter: "{{ Dimension('invoice_line__is_counted') }} and {{ Dimension('invoice_line__invoice_status') }} = 'draft'"
    config:
      meta:
        procura:
          name: finance.draft_spend
          scope: invoice:aggregate
          value: {name: draft_spend, type: money, unit: '{reporting_currency}', description: Spend of the drafts.}
          parameters:
            company_id:
              type: string
              required: true
              description: Canonical company id.
              pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'
              bind: {dimension: company_id, op: eq}
            start_date: {type: date, required: true, description: First day., bind: {dimension: invoice_date, op: gte}}
            end_date: {type: date, required: true, description: Day after., bind: {dimension: invoice_date, op: lt}}
            reporting_currency:
              type: string
              default: EUR
              pattern: '^[A-Z]{3}$'
              description: Reporting currency.
              bind: {dimension: reporting_currency, op: eq}
          constraints: [{less_than: [start_date, end_date]}]
          group_by: [supplier_id]
          currency_parameter: reporting_currency
          provenance: {column: line_id, cap: 100}
          policy: {exclusions: only draft invoices; cancelled and replicated duplicates excluded}
          synonyms: [draft spend, spend on drafts]
"""
PARAMETERS = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the dbt project with the one edit, parsed by dbt (no database needed)."""
    root = tmp_path_factory.mktemp("project")
    for name in ("dbt_project.yml", "profiles.yml", "packages.yml"):
        shutil.copy(REPO_ROOT / name, root / name)
    for folder in ("models", "macros", "data_tests"):
        shutil.copytree(REPO_ROOT / folder, root / folder)
    with (root / "models" / "marts" / "validated_invoice_lines.yml").open("a") as spec:
        spec.write(NEW_METRIC)
    dbt = Path(sys.executable).with_name("dbt")
    common = ["--project-dir", str(root), "--profiles-dir", str(root), "--target-path", str(root / "target"),
              "--log-path", str(root / "logs"), "--no-send-anonymous-usage-stats", "--quiet"]
    # `dbt ls` parses the project and writes target/manifest.json as `dbt parse` does: one dbt start, not two
    listed = subprocess.run([str(dbt), "ls", "--resource-type", "metric", *common], check=True, timeout=300,
                            cwd=root, capture_output=True, text=True).stdout.split()
    assert "metric:procura.draft_spend" in listed and "metric:procura.aggregate_spend" in listed
    return root


@pytest.fixture(scope="module")
def registry(settings: Settings, project: Path, tmp_path_factory: pytest.TempPathFactory) -> MetricRegistry:
    build_governed_marts(settings, tmp_path_factory.mktemp("dbt"))  # the marts themselves are unchanged
    return load_registry(load_manifest(project / "target" / "manifest.json"))


@pytest.fixture(scope="module")
def world(settings: Settings, registry: MetricRegistry) -> Iterator[TwoTenants]:
    data = seed_two_tenants(settings, "yml")
    yield data
    remove_two_tenants(settings, data)


@pytest.fixture(scope="module")
def client(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> Iterator[TestClient]:
    with TestClient(create_app(settings, registry=registry)) as test_client:
        yield test_client


def _expected(world: TwoTenants) -> Decimal:
    return expected_spend(
        r for r in world.rows_a
        if r["company_id"] == "COMP-A" and r["invoice_status"] == "draft" and not r["is_duplicate"]
        and "2026-01-01" <= r["invoice_date"].isoformat() < "2026-04-01"
    )


def test_the_new_metric_is_served_by_the_api(client: TestClient, world: TwoTenants) -> None:
    headers = {"Authorization": f"Bearer {world.keys['a']}"}
    listed = {m["name"] for m in client.get("/v1/metrics", headers=headers).json()["metrics"]}
    assert "finance.draft_spend" in listed
    response = client.post("/v1/metrics/finance.draft_spend/query", json={"parameters": PARAMETERS}, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    expected = _expected(world)
    assert body["rows"][0]["values"]["matched_line_count"] > 0, "the fixture has a draft in the period"
    assert Decimal(body["rows"][0]["values"]["draft_spend"]) == expected.quantize(Decimal("0.01"))
    assert body["currency"] == "EUR"


def test_the_openapi_document_shows_its_request_schema(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schema = spec["components"]["schemas"]["MetricQuery.finance.draft_spend"]
    assert set(schema["properties"]["parameters"]["required"]) == {"company_id", "start_date", "end_date"}
    assert schema["properties"]["group_by"]["items"]["enum"] == ["supplier_id"]
    body = spec["paths"]["/v1/metrics/finance.draft_spend/query"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"]
    assert ref == "#/components/schemas/MetricQuery.finance.draft_spend"
    assert "/v1/metrics/finance.aggregate_spend/query" in spec["paths"]


def test_the_new_metric_is_listed_and_callable_over_mcp(
    settings: Settings, registry: MetricRegistry, world: TwoTenants
) -> None:
    import anyio
    from mcp import Client
    from psycopg_pool import ConnectionPool

    from procura.db.session import AuthContext
    from router.mcp_server import build_server
    from router.tools import ToolEnv
    from semantic.service import MetricService

    auth = AuthContext(tenant_id=world.tenant_a, principal_id="mcp@tests", scopes=frozenset({"invoice:aggregate"}))
    with ConnectionPool(settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True) as pool:
        services = SimpleNamespace(
            pool=pool, ask_service=None, env=ToolEnv(metric_service=MetricService.from_settings(registry, settings))
        )
        server = build_server(services, fixed_auth=auth)

        async def main() -> dict[str, Any]:
            async with Client(server) as client:
                tools = {t.name for t in (await client.list_tools()).tools}
                listed = await client.call_tool("list_metrics", {})
                dims = await client.call_tool("get_dimensions", {"metrics": ["finance.draft_spend"]})
                queried = await client.call_tool(
                    "query_metric", {"metric": "finance.draft_spend", "parameters": PARAMETERS})
                refused = await client.call_tool(
                    "query_metric", {"metric": "catalog.unit_price", "parameters": {"product_code": "PRD-482",
                                                                                  "month": "2026-02"}})
                return {"tools": tools, "listed": listed, "dims": dims, "queried": queried, "refused": refused}

        out = anyio.run(main)
    assert {"list_metrics", "get_dimensions", "query_metric"} <= out["tools"]

    def data(result: Any) -> dict[str, Any]:
        assert not result.is_error, result.content
        return result.structured_content or json.loads(result.content[0].text)

    names = [m["name"] for m in data(out["listed"])["metrics"]]
    assert "finance.draft_spend" in names and "catalog.unit_price" not in names  # needs procurement:read
    assert data(out["dims"])["metrics"][0]["dimensions"] == {
        "supplier_id": {"type": "string", "description": "Canonical supplier id."}}
    queried = data(out["queried"])
    assert Decimal(queried["values"]["draft_spend"]) == _expected(world).quantize(Decimal("0.01"))
    assert out["refused"].is_error and "requires scope" in out["refused"].content[0].text


def test_the_new_metric_is_answered_by_ask(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> None:
    """``ask`` finds the metric by its synonym, fills its parameters from the reading and answers with the
    governed figure: the planner, completeness check and composer read the catalog, no per-metric branch."""
    import datetime as dt

    import psycopg

    from procura.db.session import AuthContext
    from router.answer import compose
    from router.entities import Company, Gazetteer
    from router.executor import Executor, KnownEntities
    from router.reading import catalog_metrics
    from router.routing import RouterInputs, route
    from router.tools import TOOLS, ToolEnv
    from router.traces import TraceRecorder, TraceStore
    from semantic.service import MetricService

    catalog = catalog_metrics(registry, exclude=frozenset(TOOLS))
    assert "finance.draft_spend" in [m.name for m in catalog]
    auth = AuthContext(tenant_id=world.tenant_a, principal_id="ask@tests",
                       scopes=frozenset({"invoice:aggregate", "procurement:read"}))
    gazetteer = Gazetteer.build([Company("COMP-A", "Company A", "EUR")], [], [], [])
    inputs = RouterInputs(ctx=auth, as_of=dt.date(2026, 5, 15), gazetteer=gazetteer, catalog=catalog)
    routing = route("What was the draft spend of Company A in Q1 2026?", inputs)
    assert routing.workflow == "metric", routing.clarification_question
    assert [s.tool for s in routing.execution_plan] == ["metrics.query", "validation.check_completeness"]
    env = ToolEnv(metric_service=MetricService.from_settings(registry, settings))
    store, recorder = TraceStore(), TraceRecorder()
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        store.start(conn, auth, recorder, interface="test", question=routing.question, as_of=routing.as_of,
                    routing=routing.model_dump(mode="json", by_alias=True))
        run = Executor(env, store).execute(conn, auth, routing.execution_plan, recorder,
                                           KnownEntities(frozenset({"COMP-A"}), frozenset()))
    answer = compose(routing, run)
    expected = _expected(world)
    assert answer.status == "answered", answer.text
    assert Decimal(answer.result["draft_spend"]) == expected.quantize(Decimal("0.01"))
    # A constraint the metric cannot take (a supplier) is a clarification naming it, not a silent drop.
    named = route("Draft spend of Company A with SUP-18 in Q1 2026?",
                  RouterInputs(ctx=auth, as_of=dt.date(2026, 5, 15),
                               gazetteer=Gazetteer.build([Company("COMP-A", "Company A", "EUR")],
                                                         [("SUP-18", "Supplier Beta")], [], []), catalog=catalog))
    assert named.requires_clarification and "supplier" in (named.clarification_question or "")
