"""The one pool factory: per-connection setup once (pgvector types, AGE's search path), client settings restored
at checkout, the tenant bound per transaction only, and the graph tools answering the same on a pooled connection."""

from __future__ import annotations

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


def test_the_tenant_and_the_client_settings_do_not_outlive_a_checkout(pool: ConnectionPool) -> None:
    ctx = AuthContext(unique_tenant("pool"), "analyst")
    with pool.connection() as conn:
        with tenant_transaction(conn, ctx):
            row = conn.execute("select current_setting('app.tenant_id', true)").fetchone()
            assert row is not None and row[0] == ctx.tenant_id
        conn.read_only = True
        conn.autocommit = False
        conn.execute("select 1")  # returned inside a transaction: the pool rolls it back
    # returned synchronously (no reset callback, so no worker): the one connection is there at once
    assert pool.get_stats().get("pool_available", 0) == 1
    with pool.connection() as conn:
        row = conn.execute("select current_setting('app.tenant_id', true), current_setting('search_path')").fetchone()
        assert row is not None
        assert not row[0]  # no tenant on the connection: it was bound to the transaction only
        assert "ag_catalog" in row[1]  # AGE's search path is the session's default, and stays
        assert conn.read_only is None and conn.autocommit  # restored at checkout, client-side
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


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
