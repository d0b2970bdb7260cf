"""Issue-22 edge cases through ``ask``, ``POST /v1/ask`` and MCP (``ask`` and ``query_metric``), on the real
database, each checked against an independent calculation.

The demo world has no line before 2025, so hand-placed lines of tenant-42's Company A in 2023 make the edge cases
exact and known: 2023-Q2 has an empty base quarter (2023-Q1) and a tie at rank 1 (SUP-18 and SUP-27, one in USD
converted beside them); 2023-Q3 has SUP-35 whose credit note outweighs its invoice (negative spend); SUP-31 has
no line at all in 2023 (excluding it changes nothing). The expected figures are computed here in plain Python
from the rows written (sign, tax and rate written out, rounded once), never by the metric layer. The lines are
removed (and the rollups rebuilt) when the module ends.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from procura.settings import Settings
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

D = Decimal
Q2 = (dt.date(2023, 4, 1), dt.date(2023, 7, 1))
Q3 = (dt.date(2023, 7, 1), dt.date(2023, 10, 1))
_ONE = D("1.00000000")


def _rows() -> list[dict[str, Any]]:
    from semantic.testing import line

    rows: list[dict[str, Any]] = []

    def add(number: str, supplier: str, day: dt.date, net: Decimal, kind: str = "invoice",
            fx: Decimal = _ONE, currency: str = "EUR", product: str = "PRD-482", group: str = "PG-PRES") -> None:
        rows.append(line(SEED_TENANT, number, 1, company_id="COMP-A", supplier_id=supplier, product_code=product,
                         product_group_id=group, invoice_date=day, document_type=kind, currency=currency,
                         fx_rate_to_reporting_currency=fx, line_net_amount=net,
                         line_tax_amount=(net * D("0.19")).quantize(D("0.01")), quantity=D("2.0000"),
                         invoice_status="paid"))

    add("EDGE-2023-01", "SUP-18", dt.date(2023, 4, 12), D("1000.00"))
    add("EDGE-2023-02", "SUP-27", dt.date(2023, 5, 3), D("600.00"))
    add("EDGE-2023-03", "SUP-27", dt.date(2023, 6, 20), D("400.00"))
    add("EDGE-2023-04", "SUP-22", dt.date(2023, 5, 17), D("500.00"), fx=D("0.91000000"), currency="USD",
        product="PRD-510", group="PG-FLOW")
    add("EDGE-2023-05", "SUP-35", dt.date(2023, 7, 5), D("200.00"), product="PRD-530")
    add("EDGE-2023-06", "SUP-35", dt.date(2023, 8, 9), D("700.00"), kind="credit_note", product="PRD-530")
    add("EDGE-2023-07", "SUP-18", dt.date(2023, 9, 1), D("300.00"))
    return rows


def _spend(rows: list[dict[str, Any]], period: tuple[dt.date, dt.date], supplier: str | None = None,
           exclude: str | None = None) -> str:
    """The accounting policy written out: sum of sign * (net + tax) * rate, rounded half up to cents once."""
    total = D(0)
    for r in rows:
        if not period[0] <= r["invoice_date"] < period[1]:
            continue
        if (supplier and r["supplier_id"] != supplier) or (exclude and r["supplier_id"] == exclude):
            continue
        sign = -1 if r["document_type"] == "credit_note" else 1
        total += sign * (r["line_net_amount"] + r["line_tax_amount"]) * r["fx_rate_to_reporting_currency"]
    return str(total.quantize(D("0.01"), rounding=ROUND_HALF_UP))


@pytest.fixture(scope="module")
def edge(settings: Settings, world: World) -> Iterator[list[dict[str, Any]]]:
    from semantic.testing import insert_lines, refresh_rollups

    rows = _rows()
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        before = admin.execute("select count(*) from marts.validated_invoice_lines where tenant_id = %s and "
                               "invoice_date < '2025-01-01'", (SEED_TENANT,)).fetchone()
        assert before is not None and before[0] == 0, "the demo world should have no line before 2025"
        insert_lines(admin, rows)
    try:
        yield rows
    finally:
        with psycopg.connect(settings.admin_url, autocommit=True) as admin:
            admin.execute("delete from marts.validated_invoice_lines where tenant_id = %s and line_id = any(%s)",
                          (SEED_TENANT, [r["line_id"] for r in rows]))
            refresh_rollups(admin, [SEED_TENANT])


@pytest.fixture(scope="module")
def client(settings: Settings, world: World, edge: list[dict[str, Any]]) -> Iterator[tuple[TestClient, str]]:
    from api.main import create_app
    from api.routes.ask import router as ask_router
    from procura.auth import create_key

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        key = create_key(owner, tenant_id=SEED_TENANT, scopes=["procurement:read", "invoice:aggregate"],
                         principal_id="edge-cases@tests", rate_limit_per_minute=100_000).key
    app = create_app(settings, registry=world.registry)
    if not any(getattr(r, "path", "") == "/v1/ask" for r in app.routes):
        app.include_router(ask_router)
    app.state.ask_service = world.service
    with TestClient(app) as test_client:
        yield test_client, key


#: (question, what the answer must show) for each edge case; checked through every interface below.
_CASES = {
    "empty_base": "How did Company A's spend in Q2 2023 compare with the previous quarter?",
    "tie": "Who was Company A's top supplier in Q2 2023?",
    "excluded_without_lines": "How much did Company A spend in Q2 2023 excluding Supplier Delta?",
    "negative": "How much did Company A spend with Zeta Sensorik in Q3 2023?",
    "compound_tie": "What are the payment terms of Company A's biggest supplier in Q2 2023, and what did we spend "
                    "with it?",
}


def _check(case: str, answer: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    result, text = answer["result"], answer["text"]
    if case == "empty_base":
        assert result["comparison"] == "no_base_data" and result["change_percent"] is None, text
        assert result["total_spend"] == _spend(rows, Q2) and result["base_line_count"] == 0, text
        assert "no validated invoice line" in text and "not 0 %" in text
    elif case == "tie":
        tied = sorted((r["supplier_id"], r["total_spend"]) for r in result["rows"])
        assert tied == [("SUP-18", _spend(rows, Q2, "SUP-18")), ("SUP-27", _spend(rows, Q2, "SUP-27"))], text
        assert all(r["rank"] == 1 and r["tie_count"] == 2 for r in result["rows"]) and "tied" in text, text
    elif case == "excluded_without_lines":
        assert result["total_spend"] == _spend(rows, Q2, exclude="SUP-31") == _spend(rows, Q2), text
        assert answer["status"] == "answered" and "SUP-31" in text
    elif case == "negative":
        expected = _spend(rows, Q3, "SUP-35")
        assert expected.startswith("-") and result["total_spend"] == expected, text
        assert answer["status"] == "answered"
    elif case == "compound_tie":
        # Both tied suppliers, each with its own figure; no agreement approves either in 2023, said per supplier.
        assert [(s["supplier_id"], s["total_spend"]) for s in result["suppliers"]] == [
            ("SUP-18", _spend(rows, Q2, "SUP-18")), ("SUP-27", _spend(rows, Q2, "SUP-27"))], text
        assert answer["status"] == "partial" and text.startswith("PARTIAL RESULT"), text
        assert "approves SUP-18" in text and "approves SUP-27" in text and "a tie" in text


@pytest.mark.parametrize("case", sorted(_CASES))
def test_edge_cases_through_ask(world: World, app_conn: psycopg.Connection, edge: list[dict[str, Any]],
                                case: str) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), _CASES[case], as_of=AS_OF, interface="test")
    _check(case, out.answer.model_dump(mode="json"), edge)


def test_edge_cases_through_the_api(client: tuple[TestClient, str], edge: list[dict[str, Any]]) -> None:
    test_client, key = client
    for case, question in _CASES.items():
        response = test_client.post("/v1/ask", json={"question": question, "as_of": str(AS_OF)},
                                    headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 200, response.text
        _check(case, response.json()["answer"], edge)
    # The metric API itself: the tie, the negative total and the empty base, against the same calculation.
    p = {"company_id": "COMP-A", "start_date": Q2[0].isoformat(), "end_date": Q2[1].isoformat()}
    ranked = test_client.post("/v1/metrics/finance.spend_ranking/query", headers={"Authorization": f"Bearer {key}"},
                              json={"parameters": {**p, "limit": 1}, "group_by": ["supplier_id"]}).json()
    assert [(r["values"]["supplier_id"], r["values"]["total_spend"]) for r in ranked["rows"]] == [
        ("SUP-18", _spend(edge, Q2, "SUP-18")), ("SUP-27", _spend(edge, Q2, "SUP-27"))]
    bottom = test_client.post("/v1/metrics/finance.spend_ranking/query", headers={"Authorization": f"Bearer {key}"},
                              json={"parameters": {**p, "start_date": Q3[0].isoformat(),
                                                   "end_date": Q3[1].isoformat(), "limit": 1,
                                                   "direction": "bottom"},
                                    "group_by": ["supplier_id"]}).json()
    assert [(r["values"]["supplier_id"], r["values"]["total_spend"]) for r in bottom["rows"]] == [
        ("SUP-35", _spend(edge, Q3, "SUP-35"))]


def test_edge_cases_through_mcp(settings: Settings, world: World, edge: list[dict[str, Any]]) -> None:
    import json
    from types import SimpleNamespace

    import anyio
    from mcp import Client
    from psycopg_pool import ConnectionPool

    from procura.db.session import AuthContext
    from router.mcp_server import build_server
    from router.tools import ToolEnv

    auth = AuthContext(tenant_id=SEED_TENANT, principal_id="mcp-edge@tests",
                       scopes=frozenset({"invoice:aggregate", "procurement:read"}))
    p = {"company_id": "COMP-A", "start_date": Q2[0].isoformat(), "end_date": Q2[1].isoformat()}
    with ConnectionPool(settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True) as pool:
        services = SimpleNamespace(pool=pool, ask_service=world.service,
                                   env=ToolEnv(metric_service=world.service.env.metric_service))
        server = build_server(services, fixed_auth=auth)

        async def main() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            async with Client(server) as client:
                answers = {}
                for case, question in _CASES.items():
                    got = await client.call_tool("ask", {"question": question, "as_of": str(AS_OF)})
                    answers[case] = got.structured_content or json.loads(got.content[0].text)
                compared = await client.call_tool("query_metric", {"metric": "finance.spend_comparison",
                                                                   "parameters": p})
                excluded = await client.call_tool("query_metric", {
                    "metric": "finance.company_spend", "parameters": {**p, "exclude_supplier_ids": ["SUP-31"]}})
                return (answers, compared.structured_content or json.loads(compared.content[0].text),
                        excluded.structured_content or json.loads(excluded.content[0].text))

        answers, compared, excluded = anyio.run(main)
    for case, body in answers.items():
        _check(case, body.get("answer", body), edge)
    assert compared["values"]["comparison"] == "no_base_data" and compared["values"]["change_percent"] is None
    assert excluded["values"]["total_spend"] == _spend(edge, Q2)
