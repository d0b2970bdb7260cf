"""End to end on the demo corpus: generate -> ingest -> validate -> dbt build -> POST the metric API, and every
ground-truth question of the seed tenant answered by a metric equals the independent ground truth (computed by
plain-Python Decimal arithmetic from the corpus files).

Runs on the session's demo world, a database of its own that no other test writes before this module reads it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from evaluation.world import DemoWorld
from semantic.loader import load_registry
from semantic.schema import load_manifest

pytestmark = pytest.mark.integration

SEED_TENANT = "tenant-42"
SEED_QUESTION = "seed_monitoring_spend_2026q1"


@dataclass(frozen=True)
class Seeded:
    client: TestClient
    key: str
    questions: tuple[dict[str, Any], ...]


@pytest.fixture(scope="module")
def seeded(demo_world: DemoWorld) -> Iterator[Seeded]:
    # The session's demo world (tests/conftest.py): the whole corpus generated, ingested (then its later arrivals),
    # validated and built by dbt into a database no other test writes first; other tenants' rows and the seed
    # tenant's agreements and manuals change none of these answers (the marts are per tenant and line-based).
    assert demo_world.problems == [], demo_world.problems
    key = demo_world.key(SEED_TENANT, ("invoice:aggregate", "procurement:read"))
    registry = load_registry(load_manifest(demo_world.target_dir / "manifest.json"))
    questions = tuple(q for q in demo_world.ground_truth["questions"] if q["tenant_id"] == SEED_TENANT)
    with TestClient(create_app(demo_world.settings, registry=registry)) as client:
        yield Seeded(client=client, key=key, questions=questions)


def _query(seeded: Seeded, metric: str, parameters: dict[str, Any], **extra: Any) -> dict[str, Any]:
    response = seeded.client.post(
        f"/v1/metrics/{metric}/query",
        json={"parameters": {k: v for k, v in parameters.items() if v is not None}, **extra},
        headers={"Authorization": f"Bearer {seeded.key}"},
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def _of_kind(seeded: Seeded, kind: str) -> list[dict[str, Any]]:
    found = [q for q in seeded.questions if q["kind"] == kind]
    assert found, f"the ground truth has no {kind} question for {SEED_TENANT}"
    return found


def test_seed_total_for_company_a_2026q1_equals_the_ground_truth(seeded: Seeded) -> None:
    question = next(q for q in seeded.questions if q["name"] == SEED_QUESTION)
    p, expected = question["parameters"], question["expected"]
    parameters = {k: p[k] for k in ("company_id", "supplier_ids", "product_codes", "start_date", "end_date",
                                    "invoice_statuses", "reporting_currency")}  # fmt: skip
    result = _query(seeded, "finance.aggregate_spend", parameters)
    row = result["rows"][0]
    assert row["values"]["total_spend"] == expected["total_spend"]
    assert isinstance(row["values"]["total_spend"], str)
    assert row["values"]["matched_line_count"] == expected["matched_line_count"]
    assert result["status"] == expected["status"] == "complete"
    assert result["currency"] == expected["currency"]
    provenance = row["provenance"]
    assert provenance["source_line_count"] == len(expected["source_line_ids"])
    assert provenance["source_line_ids"] == sorted(expected["source_line_ids"])[:100]
    assert result["coverage"]["missing"] == expected["missing_supplier_ids"]


def test_every_aggregate_spend_question(seeded: Seeded) -> None:
    for question in _of_kind(seeded, "aggregate_spend"):
        p, expected = question["parameters"], question["expected"]
        parameters = {k: p.get(k) for k in ("company_id", "supplier_ids", "product_codes", "start_date",
                                              "end_date", "invoice_statuses", "reporting_currency")}  # fmt: skip
        result = _query(seeded, "finance.aggregate_spend", parameters)
        assert result["status"] == expected["status"], question["name"]
        assert result["matched_line_count"] == expected["matched_line_count"], question["name"]
        if expected["status"] != "no_data":
            assert result["rows"][0]["values"]["total_spend"] == expected["total_spend"], question["name"]
            assert result["coverage"]["missing"] == expected["missing_supplier_ids"], question["name"]


def test_tax_unit_price_units_and_threshold_questions(seeded: Seeded) -> None:
    for question in _of_kind(seeded, "tax_total"):
        p, expected = question["parameters"], question["expected"]
        result = _query(
            seeded,
            "finance.tax_total",
            {k: p[k] for k in ("company_id", "invoice_numbers", "invoice_statuses", "reporting_currency")},
        )
        assert result["rows"][0]["values"]["total_tax"] == expected["total_tax"], question["name"]
        assert result["matched_line_count"] == expected["matched_line_count"], question["name"]
    for question in _of_kind(seeded, "unit_price"):
        p, expected = question["parameters"], question["expected"]
        parameters = {
            "company_id": p["company_id"],
            "product_code": p["product_code"],
            "month": p["start_date"][:7],
            "invoice_statuses": p["invoice_statuses"],
            "reporting_currency": p["reporting_currency"],
        }
        result = _query(seeded, "catalog.unit_price", parameters)
        assert result["rows"][0]["values"]["unit_price"] == expected["unit_price"], question["name"]
        assert Decimal(result["rows"][0]["values"]["quantity"]) == Decimal(expected["quantity"])
    for question in _of_kind(seeded, "units_purchased"):
        p, expected = question["parameters"], question["expected"]
        result = _query(seeded, "finance.units_purchased", p)
        assert Decimal(result["rows"][0]["values"]["units_purchased"]) == Decimal(expected["units"]), question["name"]
        by_product = _query(seeded, "finance.units_purchased", p, group_by=["product_code"])
        assert {r["values"]["product_code"]: Decimal(r["values"]["units_purchased"]) for r in by_product["rows"]} == {
            k: Decimal(v) for k, v in expected["units_by_product"].items()
        }
    for question in _of_kind(seeded, "invoices_above_threshold"):
        p, expected = question["parameters"], question["expected"]
        parameters = {k: p[k] for k in ("company_id", "threshold", "start_date", "end_date", "invoice_statuses",
                                        "reporting_currency")}  # fmt: skip
        result = _query(seeded, "finance.invoices_above_threshold", parameters)
        got = {r["values"]["invoice_number"]: r["values"]["grand_total"] for r in result["rows"]}
        assert sorted(got) == expected["invoice_numbers"], question["name"]
        assert got == expected["invoice_totals"], question["name"]


def test_spend_by_supplier_questions(seeded: Seeded) -> None:
    for question in _of_kind(seeded, "spend_by_supplier"):
        p, expected = question["parameters"], question["expected"]
        result = _query(seeded, "finance.company_spend", p, group_by=["supplier_id"])
        got = {r["values"]["supplier_id"]: r["values"]["total_spend"] for r in result["rows"]}
        assert got == {s: v["total_spend"] for s, v in expected["suppliers"].items()}, question["name"]
        assert result["matched_line_count"] == expected["matched_line_count"], question["name"]


def test_seed_total_over_mcp_by_the_catalog_tool_and_the_named_tool(seeded: Seeded) -> None:
    """The seed answer through MCP: query_metric (generated from the catalog) and finance.aggregate_spend."""
    from types import SimpleNamespace

    import anyio
    from mcp import Client
    from psycopg_pool import ConnectionPool

    from procura.db.session import AuthContext
    from router.mcp_server import build_server
    from router.tools import ToolEnv

    question = next(q for q in seeded.questions if q["name"] == SEED_QUESTION)
    p, expected = question["parameters"], question["expected"]
    parameters = {k: p[k] for k in ("company_id", "supplier_ids", "product_codes", "start_date", "end_date")}
    app_state: Any = seeded.client.app.state  # type: ignore[attr-defined]
    auth = AuthContext(tenant_id=SEED_TENANT, principal_id="mcp@tests",
                       scopes=frozenset({"invoice:aggregate", "procurement:read"}))
    with ConnectionPool(app_state.settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True},
                        open=True) as pool:
        services = SimpleNamespace(pool=pool, ask_service=None, env=ToolEnv(metric_service=app_state.service))
        server = build_server(services, fixed_auth=auth)

        async def main() -> tuple[Any, Any]:
            async with Client(server) as client:
                generic = await client.call_tool("query_metric",
                                                 {"metric": "finance.aggregate_spend", "parameters": parameters})
                named = await client.call_tool("finance.aggregate_spend", parameters)
                return generic, named

        generic, named = anyio.run(main)
    for result in (generic, named):
        assert not result.is_error, result.content
    generic_data = generic.structured_content or json.loads(generic.content[0].text)
    named_data = named.structured_content or json.loads(named.content[0].text)
    assert generic_data["values"]["total_spend"] == named_data["total_spend"] == expected["total_spend"] == "83452.74"
    assert generic_data["currency"] == named_data["currency"] == "EUR"
