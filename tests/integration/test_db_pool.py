"""The one pool factory: per-connection setup once (pgvector types, AGE's search path), sessions reset on return,
the tenant bound per transaction only, and the graph tools answering the same on a pooled connection."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from graph.sync import sync_tenant_graph
from graph.tools import FindProductsRequest, find_products
from procura.db.session import AGE_SEARCH_PATH, AuthContext, is_age_session, open_pool, tenant_transaction
from procura.demo.masterdata import TENANT_42
from procura.settings import Settings
from tests.conftest import unique_tenant
from tests.integration.test_graph_support import load_tenant

pytestmark = pytest.mark.integration


@pytest.fixture
def pool(settings: Settings) -> Iterator[ConnectionPool]:
    # one connection, so every checkout sees what the previous one left behind
    with open_pool(settings.app_url, name="test-pool", min_size=1, max_size=1, age=True) as opened:
        yield opened


def _settled(pool: ConnectionPool) -> None:
    # the reset runs in a pool worker after the connection is returned; wait until it is back
    deadline = time.monotonic() + 5
    while pool.get_stats().get("pool_available", 0) < 1 and time.monotonic() < deadline:
        time.sleep(0.01)


def test_pooled_connections_come_with_pgvector_types_and_ages_search_path(pool: ConnectionPool) -> None:
    with pool.connection() as conn:
        assert conn.adapters.types.get("vector") is not None
        assert is_age_session(conn)
        assert conn.autocommit
        row = conn.execute("select current_setting('search_path')").fetchone()
        assert row is not None and row[0].replace(" ", "") == AGE_SEARCH_PATH.replace(" ", "")


def test_a_pool_without_age_leaves_the_search_path_alone(settings: Settings) -> None:
    with open_pool(settings.app_url, name="test-plain", max_size=1) as plain, plain.connection() as conn:
        assert conn.adapters.types.get("vector") is not None
        assert not is_age_session(conn)
        row = conn.execute("select current_setting('search_path')").fetchone()
        assert row is not None and "ag_catalog" not in row[0]


def test_session_settings_and_the_tenant_do_not_outlive_a_checkout(pool: ConnectionPool) -> None:
    ctx = AuthContext(unique_tenant("pool"), "analyst")
    with pool.connection() as conn:
        with tenant_transaction(conn, ctx):
            row = conn.execute("select current_setting('app.tenant_id', true)").fetchone()
            assert row is not None and row[0] == ctx.tenant_id
        conn.execute("set work_mem = '77kB'")
        conn.read_only = True
    _settled(pool)
    with pool.connection() as conn:
        row = conn.execute(
            "select current_setting('app.tenant_id', true), current_setting('work_mem'), "
            "current_setting('search_path')"
        ).fetchone()
        assert row is not None
        assert not row[0]  # no tenant on the connection: it was bound to the transaction only
        assert row[1] != "77kB"  # the caller's SET was reset
        assert "ag_catalog" in row[2]  # AGE's search path is the session's default, and stays
        assert conn.read_only is None and conn.autocommit


def test_graph_tools_answer_the_same_on_a_pooled_connection(
    settings: Settings, pool: ConnectionPool, app_conn: psycopg.Connection
) -> None:
    tenant = unique_tenant("pool42")
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        load_tenant(admin, tenant, TENANT_42)
    with psycopg.connect(settings.owner_url) as owner:
        sync_tenant_graph(owner, tenant)
        owner.commit()
    ctx = AuthContext(tenant, "analyst")
    request = FindProductsRequest(supplier_ids=("SUP-18", "SUP-27", "SUP-31"), group_name="Monitoring Products")
    with pool.connection() as conn:
        pooled = find_products(conn, ctx, request)
        # the transaction-local search path of a connection from elsewhere is not needed here
        row = conn.execute("select current_setting('search_path')").fetchone()
        assert row is not None and "ag_catalog" in row[0]
    assert pooled == find_products(app_conn, ctx, request)
    assert set(pooled.product_codes) == {"PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-611", "PRD-612"}
