"""The database goes away under the API: every route answers a clean 503 with Retry-After, never a 500.

Two outages, neither touching the shared server: the API's own connections of this run's database are
terminated by the server (``pg_terminate_backend``: what a restart does to connections that are mid-use), and
an app whose database port has nothing listening (the server is down). A statement timeout stays a 504 and a
plain SQL error stays a 500: only connection-level failures are outages.
"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import errors as pg_errors
from psycopg_pool import PoolTimeout

from api.main import create_app
from procura.auth import create_key
from procura.errors import DATABASE_RETRY_AFTER_S, is_database_unavailable
from procura.settings import Settings
from semantic.errors import MetricExecutionError
from semantic.loader import MetricRegistry, load_registry
from semantic.schema import discover
from tests.conftest import unique_tenant

pytestmark = pytest.mark.integration

SCOPES = ("invoice:aggregate", "procurement:read", "tenant:admin")
#: One call per route family: (method, path, JSON body or None). The metric query is refused (a parameter is
#: missing) so that it needs no dbt build; the refusal is audited, which is the statement that meets the outage.
CALLS: dict[str, tuple[str, str, dict[str, Any] | None]] = {
    "metrics": ("POST", "/v1/metrics/finance.company_spend/query", {"parameters": {"company_id": "COMP-A"}}),
    "metric_query": (
        "POST",
        "/v1/metrics/finance.company_spend/query",
        {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
    ),
    "search": ("POST", "/v1/search", {"query_text": "calibration", "retrieval_modes": ["exact", "bm25"]}),
    "ask": ("POST", "/v1/ask", {"question": "What is PRD-482?", "as_of": "2026-05-15"}),
    "traces": ("GET", f"/v1/traces/{uuid.UUID(int=1)}", None),
    "audit": ("GET", "/v1/audit", None),
}


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return load_registry(discover())


@pytest.fixture(scope="module")
def key(settings: Settings) -> str:
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        return create_key(conn, tenant_id=unique_tenant("outage"), scopes=SCOPES, rate_limit_per_minute=100_000).key


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _call(client: TestClient, label: str, key: str) -> Any:
    method, path, body = CALLS[label]
    return client.request(method, path, json=body, headers={"Authorization": f"Bearer {key}"})


def _assert_unavailable(response: Any, label: str) -> None:
    assert response.status_code == 503, f"{label}: {response.status_code} {response.text[:300]}"
    assert response.headers.get("retry-after") == str(DATABASE_RETRY_AFTER_S), (label, dict(response.headers))
    assert response.json() == {
        "error": {
            "code": "database_unavailable",
            "message": "the database is not available; retry later",
            "parameter": None,
        }
    }, label


def _terminate_api_connections(settings: Settings) -> int:
    with psycopg.connect(settings.admin_url, autocommit=True) as conn:
        row = conn.execute(
            "select count(pg_terminate_backend(pid)) from pg_stat_activity "
            "where datname = %s and application_name = 'procura-api'",
            (settings.database_name,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.fixture(scope="module")
def client(settings: Settings, registry: MetricRegistry) -> Iterator[TestClient]:
    # the key is looked up once and then reused, so the failing statement is the route's own, not the lookup
    app = create_app(settings, registry=registry, auth_cache_ttl_s=3600)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def _call_timed(client: TestClient, label: str, key: str) -> tuple[Any, float]:
    started = time.perf_counter()
    response = _call(client, label, key)
    return response, time.perf_counter() - started


@pytest.mark.parametrize("label", list(CALLS))
def test_connections_lost_mid_use_are_503_then_the_api_recovers(
    client: TestClient, settings: Settings, key: str, label: str
) -> None:
    # a metric query that runs and an answered question need the dbt marts (not built here), so "before" and
    # "after" are checked with a call that needs none; the outage meets their first statement either way
    probe = {"metric_query": "metrics", "ask": "audit"}.get(label, label)
    # The previous case's outage killed the connections of both pools (the metric route's asyncio pool and the
    # other routes' pool); a pool learns it when a request fails on one: that request is answered 503, the pool
    # then checks its other idle connections, and the next request gets a working one. No waiting, no retry loop.
    warm = _call(client, probe, key)
    if warm.status_code == 503:
        warm = _call(client, probe, key)
    assert warm.status_code < 500, f"{probe} before the outage: {warm.status_code} {warm.text[:300]}"
    assert _terminate_api_connections(settings) >= 1
    _assert_unavailable(_call(client, label, key), label)
    again, seconds = _call_timed(client, probe, key)
    assert again.status_code == warm.status_code, f"{probe} after the outage: {again.status_code} {again.text[:300]}"
    # generous for the shared machine: the call opens a connection, nothing more (14 s when it loaded a model)
    assert seconds < 3, f"{probe}: the first call after the outage took {seconds:.1f} s"


def test_a_search_without_the_vector_mode_loads_no_model(
    settings: Settings, registry: MetricRegistry, key: str
) -> None:
    # The first search of a process loaded the query embedder (5-14 s here) whatever its modes, which is what made
    # the first search after an outage slow; only a vector search needs it.
    app = create_app(settings, registry=registry, auth_cache_ttl_s=3600)
    with TestClient(app, raise_server_exceptions=False) as fresh:
        response, seconds = _call_timed(fresh, "search", key)
        assert response.status_code == 200, response.text[:300]
        assert getattr(app.state, "embedder", None) is None
        assert seconds < 3, f"the first exact + BM25 search took {seconds:.1f} s"


def test_a_database_that_is_down_is_503_on_every_route_and_not_ready(
    settings: Settings, registry: MetricRegistry, key: str
) -> None:
    down = settings.model_copy(update={"pg_port": _free_port()})
    app = create_app(down, registry=registry, pool_timeout_s=0.5)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["database"] is False
        for label in CALLS:
            _assert_unavailable(_call(client, label, key), label)


def _raised(exc: BaseException, wrapper: type[Exception]) -> BaseException:
    try:
        try:
            raise exc
        except BaseException as inner:
            raise wrapper("wrapped") from inner
    except Exception as outer:
        return outer


def test_only_connection_failures_count_as_an_outage() -> None:
    lost = psycopg.OperationalError("server closed the connection unexpectedly")
    assert is_database_unavailable(lost)
    assert is_database_unavailable(_raised(pg_errors.AdminShutdown(), MetricExecutionError))
    assert is_database_unavailable(_raised(pg_errors.CannotConnectNow(), RuntimeError))
    assert is_database_unavailable(PoolTimeout("no connection in 10 s"))
    assert not is_database_unavailable(pg_errors.QueryCanceled())
    assert not is_database_unavailable(_raised(pg_errors.UndefinedTable(), MetricExecutionError))
    assert not is_database_unavailable(ValueError("no database involved"))
