"""The MCP server through the SDK's own client over stdio and streamable HTTP: tool schemas, ``ask``, and a
tenant fixed by host-side authentication (never by tool arguments)."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from procura.settings import REPO_ROOT, Settings
from tests.integration.conftest_ask import OTHER_TENANT, SEED_TENANT, World, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

TOOLS = {"ask", "entity.resolve_company", "graph.find_approved_vendors", "catalog.find_products",
         "finance.aggregate_spend", "documents.search"}
# By id: both tenants have a COMP-A (with different names and vendors), so the same question gets each its own.
VENDORS = "Which suppliers are approved vendors of COMP-A in 2026-Q1?"
SEED_VENDORS = ["SUP-18", "SUP-27", "SUP-31"]
OTHER_VENDORS = ["SUP-07", "SUP-18", "SUP-33"]


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    data = result.structured_content
    if data is None:
        data = json.loads(result.content[0].text)
    return data  # type: ignore[no-any-return]


async def _exercise(client: Any) -> dict[str, Any]:
    listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    assert set(tools) >= TOOLS
    for tool in tools.values():
        assert tool.input_schema["type"] == "object" and tool.output_schema is not None, tool.name
        assert "tenant_id" not in json.dumps(tool.input_schema), tool.name
    asked = _structured(await client.call_tool("ask", {"question": VENDORS, "as_of": "2026-05-15"}))
    # An argument naming another tenant changes nothing: the tenant is the host's.
    smuggled = await client.call_tool("graph.find_approved_vendors", {
        "company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "tenant_id": OTHER_TENANT})
    return {"ask": asked, "smuggled": smuggled}


def test_stdio_transport(settings: Settings, world: World) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    env = {
        "PROCURA_DB_NAME": settings.database_name,
        "PROCURA_HOME": str(settings.home),
        "PROCURA_MCP_TENANT": SEED_TENANT,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "PYTHONPATH": str(REPO_ROOT),
    }
    env.update({k: v for k, v in os.environ.items() if k.startswith("PROCURA_") and k not in env
                and k != "PROCURA_API_KEY"})
    params = StdioServerParameters(
        command=sys.executable, args=["-c", "from router.cli import mcp; mcp(['stdio'])"], env=env, cwd=REPO_ROOT
    )

    async def main() -> dict[str, Any]:
        async with Client(params, read_timeout_seconds=120) as client:
            return await _exercise(client)

    out = anyio.run(main)
    assert out["ask"]["status"] == "answered"
    assert out["ask"]["result"]["supplier_ids"] == SEED_VENDORS
    assert [step["tool"] for step in out["ask"]["plan"]][:2] == ["entity.resolve_company",
                                                                 "graph.find_approved_vendors"]
    smuggled = out["smuggled"]
    if not smuggled.is_error:  # extra arguments are ignored or refused; either way tenant-42's data only
        assert _structured(smuggled)["supplier_ids"] == SEED_VENDORS


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def http_server(settings: Settings, world: World) -> Iterator[tuple[str, dict[str, str]]]:
    import psycopg
    import uvicorn
    from psycopg_pool import ConnectionPool

    from procura.auth import create_key
    from router.cli import http_app
    from router.runtime import RouterRuntime

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        keys = {t: create_key(owner, tenant_id=t, scopes=["procurement:read", "invoice:aggregate"]).key
                for t in (SEED_TENANT, OTHER_TENANT)}
    pool = ConnectionPool(settings.app_url, min_size=1, max_size=4, kwargs={"autocommit": True}, open=True)
    runtime = RouterRuntime(pool=pool, ask_service=world.service, env=world.service.env)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(http_app(runtime), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp", keys
    server.should_exit = True
    thread.join(10)
    pool.close()


def _http_client(url: str, key: str | None) -> Any:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=120)),
                  read_timeout_seconds=120)


def test_streamable_http_transport(http_server: tuple[str, dict[str, str]]) -> None:
    url, keys = http_server

    async def main(key: str) -> dict[str, Any]:
        async with _http_client(url, key) as client:
            return await _exercise(client)

    seed = anyio.run(main, keys[SEED_TENANT])
    other = anyio.run(main, keys[OTHER_TENANT])
    assert seed["ask"]["result"]["supplier_ids"] == SEED_VENDORS
    assert other["ask"]["result"]["supplier_ids"] == OTHER_VENDORS
    assert "SUP-27" not in other["ask"]["text"] and "agreement-2026-04" not in other["ask"]["text"]
    assert _structured(other["smuggled"])["supplier_ids"] == OTHER_VENDORS if not other["smuggled"].is_error else True


def test_streamable_http_refuses_requests_without_a_key(http_server: tuple[str, dict[str, str]]) -> None:
    import httpx2

    url, _ = http_server
    response = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Accept": "application/json, text/event-stream"})
    assert response.status_code == 401
    bad = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                      headers={"Authorization": "Bearer prk_000000000000_" + "x" * 43,
                               "Accept": "application/json, text/event-stream"})
    assert bad.status_code == 401
