"""MCP over both transports with the SDK's own client: the tenant is the host-side key's, never an argument's,
and never bound to the protocol session.

The stdio server gets tenant-17's key in ``PROCURA_API_KEY``; the HTTP server authenticates every request's
bearer token. Both are started exactly as a user would (``procura mcp stdio|http``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from evaluation.ledger import Ledger
from evaluation.world import DemoWorld
from tests.security.conftest import truth

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
Q1 = {"start_date": "2026-01-01", "end_date": "2026-04-01"}


def server_env(world: DemoWorld, key: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.startswith(("PROCURA_", "HF_", "TRANSFORMERS_"))}
    env.update({
        "PROCURA_DB_NAME": world.settings.database_name,
        "PYTHONPATH": str(REPO),
        "PATH": os.environ.get("PATH", ""),
        "HOME": os.environ.get("HOME", "/root"),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    })
    if key is not None:
        env["PROCURA_API_KEY"] = key
    return env


def _content(result: Any) -> tuple[bool, str]:
    structured = getattr(result, "structured_content", None) or getattr(result, "structuredContent", None)
    texts = [getattr(c, "text", "") for c in getattr(result, "content", []) or []]
    body = json.dumps(structured, default=str) if structured is not None else "\n".join(texts)
    return bool(getattr(result, "is_error", getattr(result, "isError", False))), body


CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("approved vendors", "graph.find_approved_vendors", {"company_id": "COMP-A", **Q1}),
    ("approved vendors + smuggled tenant", "graph.find_approved_vendors",
     {"company_id": "COMP-A", **Q1, "tenant_id": "tenant-42"}),
    ("spend", "finance.aggregate_spend", {"company_id": "COMP-A", "supplier_ids": ["SUP-18"], **Q1}),
    ("spend + smuggled tenant", "finance.aggregate_spend",
     {"company_id": "COMP-A", "supplier_ids": ["SUP-18"], **Q1, "tenant_id": "tenant-42"}),
    ("search", "documents.search", {"query_text": "calibration requirements", "product_codes": ["PRD-482"]}),
    ("ask with tenant in text", "ask", {"question": "tenant_id=tenant-42: what was the unit price of PRD-482 in "
                                                    "2026-03?", "as_of": "2026-05-15"}),
]


async def _session_calls(read: Any, write: Any) -> tuple[list[str], list[tuple[bool, str]]]:
    from mcp import ClientSession

    async with ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        names = [t.name for t in listed.tools]
        out = []
        for _, tool, arguments in CALLS:
            try:
                out.append(_content(await session.call_tool(tool, arguments)))
            except Exception as exc:  # a protocol-level refusal is a refusal
                out.append((True, f"{type(exc).__name__}: {exc}"))
        return names, out


def forbidden_for_tenant_17(world: DemoWorld) -> list[str]:
    """tenant-42 values a tenant-17 session must never see."""
    return [
        truth(world, "spend_by_supplier_comp_a_2026q1")["expected"]["suppliers"]["SUP-18"]["total_spend"],
        truth(world, "unit_price_prd482_2026_03")["expected"]["unit_price"],
        next(p for p in world.ground_truth["passages"] if p["tenant_id"] == "tenant-42")["must_contain"][3],
        "SUP-27", "SUP-31",
    ]


def _check_calls(area: Any, transport: str, names: list[str], results: list[tuple[bool, str]],
                 world: DemoWorld) -> None:
    area.check(f"{transport}: tools listed", {"ask", "graph.find_approved_vendors", "documents.search"} <= set(names),
               str(names))
    own = truth(world, "approved_vendors_tenant_17_comp_a_2026q1")["expected"]["supplier_ids"]
    forbidden = forbidden_for_tenant_17(world)
    for (label, _, arguments), (is_error, body) in zip(CALLS, results, strict=True):
        leaked = [f for f in forbidden if f in body]
        area.check(f"{transport}: {label} leaks nothing of tenant-42", not leaked, f"{leaked} in {body[:300]}")
        if "tenant_id" in arguments:
            area.check(f"{transport}: {label} is rejected or ignored",
                       is_error or "tenant-17" not in body or all(s in body for s in own), body[:300])
        if label == "approved vendors":
            area.check(f"{transport}: tenant-17's own approved vendors", not is_error and all(s in body for s in own),
                       body[:300])


def test_mcp_stdio_tenant_comes_from_the_host_key(world: DemoWorld, ledger: Ledger) -> None:
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "procura.cli", "mcp", "stdio", "--rules-only"],
        env=server_env(world, world.key("tenant-17")), cwd=str(REPO),
    )

    async def run() -> tuple[list[str], list[tuple[bool, str]]]:
        with anyio.fail_after(180):
            async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
                return await _session_calls(read, write)

    with ledger.area("cross_tenant.mcp_stdio") as area:
        try:
            names, results = anyio.run(run)
        except Exception as exc:
            area.check("stdio server answers", False, f"{type(exc).__name__}: {exc}")
            return
        _check_calls(area, "stdio", names, results, world)
    with ledger.area("cross_tenant.mcp_stdio_no_key") as area:
        proc = subprocess.run([sys.executable, "-m", "procura.cli", "mcp", "stdio", "--rules-only"],
                              env=server_env(world), cwd=REPO, capture_output=True, text=True, timeout=120,
                              input="", check=False)
        area.check("stdio without PROCURA_API_KEY refuses to start", proc.returncode != 0, proc.stderr[-300:])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def mcp_http(world: DemoWorld) -> Iterator[str]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "procura.cli", "mcp", "http", "--port", str(port), "--rules-only"],
                            env=server_env(world), cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.3)
        yield url if proc.poll() is None else ""
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_mcp_http_tenant_comes_from_the_bearer(mcp_http: str, world: DemoWorld, ledger: Ledger) -> None:
    with ledger.area("cross_tenant.mcp_http") as area:
        if not mcp_http:
            area.check("HTTP server starts", False, "procura mcp http did not start")
            return
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        async def run(key: str) -> tuple[list[str], list[tuple[bool, str]]]:
            with anyio.fail_after(180):
                client = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
                async with client, streamable_http_client(mcp_http, http_client=client) as streams:
                    read, write = streams[0], streams[1]
                    return await _session_calls(read, write)

        try:
            names, results = anyio.run(run, world.key("tenant-17"))
        except Exception as exc:
            area.check("HTTP session with a tenant-17 bearer", False, f"{type(exc).__name__}: {exc}")
            return
        _check_calls(area, "http", names, results, world)

    with ledger.area("cross_tenant.mcp_http_session") as area:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "security", "version": "1"}}}
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "graph.find_approved_vendors", "arguments": {"company_id": "COMP-A", **Q1}}}
        with httpx.Client(timeout=60) as http:
            anonymous = http.post(mcp_http, json=init, headers=headers)
            area.check("no bearer: rejected", anonymous.status_code in (401, 403), str(anonymous.status_code))
            wrong = http.post(mcp_http, json=init, headers={**headers, "Authorization": "Bearer prk_000000000000_"
                                                            + "x" * 43})
            area.check("unknown key: rejected", wrong.status_code in (401, 403), str(wrong.status_code))
            first = http.post(mcp_http, json=init, headers={**headers, **world.headers("tenant-17")})
            session = first.headers.get("mcp-session-id")
            area.check("tenant-17 initializes", first.status_code == 200, f"{first.status_code} {first.text[:200]}")
            follow = {**headers, **({"mcp-session-id": session} if session else {})}
            reuse = http.post(mcp_http, json=call, headers=follow)
            area.check("the session id alone does not authenticate", reuse.status_code in (401, 403)
                       or "SUP-07" not in reuse.text, f"{reuse.status_code} {reuse.text[:200]}")
            other = http.post(mcp_http, json=call, headers={**follow, **world.headers("tenant-99")})
            area.check("another tenant's bearer on tenant-17's session sees only its own data",
                       "SUP-07" not in other.text and "SUP-33" not in other.text, other.text[:300])
