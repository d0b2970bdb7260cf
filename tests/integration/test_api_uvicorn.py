"""The API served by uvicorn on loopback, called over real TCP with httpx; plus readiness when the database is
unreachable."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from api.main import create_app
from procura.settings import Settings
from semantic.loader import MetricRegistry, load_registry
from semantic.testing import TwoTenants, build_governed_marts, remove_two_tenants, seed_two_tenants

pytestmark = pytest.mark.integration

SEED = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482", "PRD-619"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}


@pytest.fixture(scope="module")
def registry(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> MetricRegistry:
    return load_registry(build_governed_marts(settings, tmp_path_factory.mktemp("dbt")).schema)


@pytest.fixture(scope="module")
def world(settings: Settings, registry: MetricRegistry) -> Iterator[TwoTenants]:
    data = seed_two_tenants(settings, "uv")
    yield data
    remove_two_tenants(settings, data)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def base_url(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> Iterator[str]:
    port = _free_port()
    config = uvicorn.Config(create_app(settings, registry=registry), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive(), "uvicorn exited during start-up"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_query_over_tcp_returns_the_tenants_total(base_url: str, world: TwoTenants) -> None:
    with httpx.Client(base_url=base_url, timeout=10) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        assert http.get("/readyz").json()["database"] is True
        headers = {"Authorization": f"Bearer {world.keys['a']}"}
        response = http.post("/v1/metrics/finance.aggregate_spend/query", json={"parameters": SEED}, headers=headers)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "application/json"
        row = response.json()["rows"][0]
        assert row["values"] == {"total_spend": "3728.81", "matched_line_count": 4}
        b = http.post(
            "/v1/metrics/finance.aggregate_spend/query",
            json={"parameters": SEED},
            headers={"Authorization": f"Bearer {world.keys['b']}"},
        )
        assert b.json()["rows"][0]["values"]["total_spend"] == "999999.00"
        unauthorized = http.post("/v1/metrics/finance.aggregate_spend/query", json={"parameters": SEED})
        assert unauthorized.status_code == 401
        assert unauthorized.json()["error"]["code"] == "unauthenticated"


def test_readyz_is_503_when_the_database_is_unreachable(settings: Settings, registry: MetricRegistry) -> None:
    unreachable = settings.model_copy(update={"database_url": f"postgresql://nobody:x@127.0.0.1:{_free_port()}/none"})
    with TestClient(create_app(unreachable, registry=registry)) as client:
        assert client.get("/healthz").status_code == 200
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["status"] == "not_ready" and response.json()["database"] is False
