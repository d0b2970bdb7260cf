"""Every path a credential can reach (issue 17's "Why" list, one test per case): AGE functions, the catalog,
request limits, unstorable text, trace scopes, MCP admission and audit, keyed audit hashes, the audit tenant,
failed-login throttling and unknown currencies.

Isolation cases connect as the real serving roles over TCP (RLS does not apply to superusers or owners).
"""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
import time
import uuid
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from evaluation.world import ADMIN_SCOPES, FULL_SCOPES, DemoWorld
from graph.age import drop_graph, ensure_graph, graph_name_for_tenant
from procura.auth import create_key, revoke_key
from procura.db.session import AuthContext, tenant_transaction
from procura.settings import Settings
from tests.conftest import unique_tenant
from tests.security.conftest import error_shape_ok
from tests.security.test_mcp import REPO, server_env

pytestmark = pytest.mark.integration

OWN, OTHER = "tenant-42", "tenant-17"
SPEND = "/v1/metrics/finance.company_spend/query"
Q1 = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}

#: AGE functions that name a graph (or read one by an id): only these may stay executable by a serving role,
#: and each is checked against another tenant's graph below.
ALLOWED_GRAPH_FUNCTIONS = {
    "ag_catalog.cypher(name,cstring,ag_catalog.agtype)",
    "ag_catalog.age_vle(ag_catalog.agtype,ag_catalog.agtype,ag_catalog.agtype,ag_catalog.agtype,ag_catalog.agtype,"
    "ag_catalog.agtype,ag_catalog.agtype,ag_catalog.agtype)",
    "ag_catalog._label_name(oid,ag_catalog.graphid)",
    # Value constructors and type input: their cstring is a label or literal text; they look no graph up.
    "ag_catalog._agtype_build_vertex(ag_catalog.graphid,cstring,ag_catalog.agtype)",
    "ag_catalog._agtype_build_edge(ag_catalog.graphid,ag_catalog.graphid,ag_catalog.graphid,cstring,"
    "ag_catalog.agtype)",
    "ag_catalog.agtype_in(cstring)",
    "ag_catalog.graphid_in(cstring)",
}
#: Functions taking agtype only that still resolve a graph by name (from AGE's source: they look the graph up).
_AGTYPE_GRAPH_READERS = ("age_vle", "age_startnode", "age_endnode", "age_vertex_stats", "age_delete_global_graphs")


def _key(world: DemoWorld, tenant: str, scopes: tuple[str, ...], *, principal: str | None = None,
         per_minute: int = 600) -> tuple[str, str]:
    with psycopg.connect(world.settings.owner_url, autocommit=True) as conn:
        created = create_key(conn, tenant_id=tenant, scopes=scopes, principal_id=principal,
                             rate_limit_per_minute=per_minute)
    return created.key, created.key_id


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _graph_functions(conn: psycopg.Connection, role_sql: str) -> set[str]:
    """Every ag_catalog function the role can execute whose signature can name a graph."""
    rows = conn.execute(
        f"""
        select p.oid::regprocedure::text, p.proname, p.proargtypes::regtype[]::text[]
        from pg_proc p
        where p.pronamespace = 'ag_catalog'::regnamespace
          and has_function_privilege({role_sql}, p.oid, 'EXECUTE')
          and has_schema_privilege({role_sql}, 'ag_catalog', 'USAGE')
        """
    ).fetchall()
    return {
        sig.replace(", ", ",") for sig, name, args in rows
        if name in _AGTYPE_GRAPH_READERS or any(a in ("name", "cstring", "oid") for a in args)
    }


def _vertex_id(world: DemoWorld, tenant: str, label: str) -> int:
    graph = graph_name_for_tenant(tenant).value
    with psycopg.connect(world.settings.admin_url, autocommit=True) as conn:
        row = conn.execute(f'select id::text::bigint from "{graph}"."{label}" limit 1').fetchone()
    assert row is not None, f"{tenant} has no {label} vertex in the demo world"
    return int(row[0])


# --- AGE ------------------------------------------------------------------------------------------------------


def test_age_vle_returns_nothing_from_another_tenants_graph(world: DemoWorld) -> None:
    victim = graph_name_for_tenant(OTHER).value
    start = _vertex_id(world, OTHER, "Company")
    call = (
        "select ag_catalog.age_materialize_vle_path(edges) from ag_catalog.age_vle("
        "%s::ag_catalog.agtype, %s::ag_catalog.agtype, null, "
        "'{\"id\": 0, \"label\": \"\", \"end_id\": 0, \"start_id\": 0, \"properties\": {}}::edge'::ag_catalog.agtype,"
        " '1'::ag_catalog.agtype, '3'::ag_catalog.agtype, '1'::ag_catalog.agtype, '0'::ag_catalog.agtype) as edges"
    )
    vertex = str(start)  # a guessable id, as an attacker would pass it
    with psycopg.connect(world.settings.app_url, autocommit=True) as conn:
        # No tenant at all, then the attacker's own tenant: neither reads the victim's graph.
        assert conn.execute(call, (json.dumps(victim), vertex)).fetchall() == []
        with tenant_transaction(conn, AuthContext(OWN, "attacker")):
            assert conn.execute(call, (json.dumps(victim), vertex)).fetchall() == []
        # The guard is not an outage: the owner of that graph still gets its paths.
        with tenant_transaction(conn, AuthContext(OTHER, "owner-tenant")):
            assert conn.execute(call, (json.dumps(victim), vertex)).fetchall() != []
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select * from ag_catalog.age_vle_unguarded(null, null, null, null, null, null, null, null)")


def test_every_age_function_a_serving_role_can_execute_is_tenant_safe(
    world: DemoWorld, bi_conn: psycopg.Connection
) -> None:
    victim = graph_name_for_tenant(OTHER)
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        app_functions = _graph_functions(admin, "'procura_app'")
        bi_role = bi_conn.execute("select current_user").fetchone()
        assert bi_role is not None
        bi_functions = _graph_functions(admin, psycopg.sql.Literal(bi_role[0]).as_string(admin))
        graph_oid = admin.execute("select graphid from ag_catalog.ag_graph where name = %s",
                                  (victim.value,)).fetchone()
    assert app_functions <= ALLOWED_GRAPH_FUNCTIONS, sorted(app_functions - ALLOWED_GRAPH_FUNCTIONS)
    assert bi_functions <= ALLOWED_GRAPH_FUNCTIONS, sorted(bi_functions - ALLOWED_GRAPH_FUNCTIONS)
    assert graph_oid is not None
    start = _vertex_id(world, OTHER, "Supplier")
    with psycopg.connect(world.settings.app_url, autocommit=True) as conn, \
            tenant_transaction(conn, AuthContext(OWN, "attacker")):
        conn.execute("select set_config('search_path', 'ag_catalog, public', true)")
        # cypher(): row-level security on the victim's label tables.
        rows = conn.execute(
            f"select * from ag_catalog.cypher('{victim.value}', $$ MATCH (n) RETURN n $$) as (n ag_catalog.agtype)"
        ).fetchall()
        assert rows == []
        # _label_name(): a label name (the same schema for every tenant), never data.
        label = conn.execute("select ag_catalog._label_name(%s, %s::ag_catalog.agtype::ag_catalog.graphid)::text",
                             (graph_oid[0], str(start))).fetchone()
        assert label == ("Supplier",)
    # Everything revoked stays revoked for the serving role (a regression would show up in the set above too).
    with psycopg.connect(world.settings.app_url, autocommit=True) as conn:
        for call in (
            f"select ag_catalog.age_startnode('\"{victim.value}\"', '1')",
            f"select ag_catalog.age_vertex_stats('\"{victim.value}\"', '1')",
            f"select ag_catalog.drop_graph('{victim.value}', true)",
            f"select ag_catalog.load_labels_from_file('{victim.value}', 'Company', '/etc/passwd', true)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(call)


# --- the catalog ----------------------------------------------------------------------------------------------


def _catalog_leaks(conn: psycopg.Connection, tenants: list[str]) -> list[str]:
    texts = conn.execute(
        """
        select 'schema ' || nspname from pg_namespace
        union all
        select 'policy ' || polname || ': ' || coalesce(pg_get_expr(polqual, polrelid), '') || ' '
               || coalesce(pg_get_expr(polwithcheck, polrelid), '') from pg_policy
        union all
        select 'view ' || schemaname || '.' || viewname || ': ' || coalesce(definition, '') from pg_views
        union all
        select 'function ' || proname || ': ' || coalesce(prosrc, '') from pg_proc
        where pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
        """
    ).fetchall()
    spellings = set(tenants) | {t.replace("-", "_") for t in tenants}
    return sorted(text for (text,) in texts if any(s in text for s in spellings))


def test_catalog_reveals_no_tenant_ids_to_serving_roles(
    world: DemoWorld, settings: Settings, app_conn: psycopg.Connection, bi_conn: psycopg.Connection
) -> None:
    # The demo world's tenants, seen by procura_app in the world's database.
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        tenants = [t for (t,) in admin.execute("select tenant_id from graph.tenant_graphs").fetchall()]
    assert OTHER in tenants and OWN in tenants
    with psycopg.connect(world.settings.app_url, autocommit=True) as app:
        assert _catalog_leaks(app, tenants) == []
    # A graph provisioned in the session's database, seen by both serving roles' fixtures there.
    tenant = unique_tenant("cat")
    with psycopg.connect(settings.owner_url) as owner:
        ensure_graph(owner, tenant)
        owner.commit()
    try:
        assert _catalog_leaks(app_conn, [tenant]) == []
        assert _catalog_leaks(bi_conn, [tenant]) == []
    finally:
        with psycopg.connect(settings.owner_url) as owner:
            drop_graph(owner, tenant)
            owner.commit()


def test_index_definitions_reveal_no_tenant_ids(world: DemoWorld) -> None:
    # a tenant's own vector indexes (IVFFlat and HNSW) are named after and filtered on its keyed index key
    from ingest.vector_index import ensure_tenant_index, tenant_index_name

    with psycopg.connect(world.settings.owner_url, autocommit=True) as owner:
        built = ensure_tenant_index(owner, OTHER, min_vectors=1)
    assert built is not None and built.error is None
    try:
        with psycopg.connect(world.settings.app_url, autocommit=True) as app:
            rows = app.execute("select indexname || ' ' || indexdef from pg_indexes").fetchall()
        assert any(tenant_index_name(OTHER) in r for (r,) in rows)
        assert [r for (r,) in rows if OTHER in r or OTHER.replace("-", "_") in r] == []
    finally:
        if built is not None and built.created:
            with psycopg.connect(world.settings.owner_url, autocommit=True) as owner:
                owner.execute(f"drop index concurrently if exists ingest.{tenant_index_name(OTHER)}")


# --- request limits and text ----------------------------------------------------------------------------------


def test_oversized_body_is_413_without_parsing(client: TestClient, world: DemoWorld) -> None:
    body = b'{"parameters": {"company_id": "' + b"A" * (2 * 1024 * 1024) + b'"}}'
    started = time.perf_counter()
    response = client.post(SPEND, content=body, headers={**world.headers(OWN), "Content-Type": "application/json"})
    assert response.status_code == 413 and error_shape_ok(response)
    assert response.json()["error"]["code"] == "body_too_large"
    assert time.perf_counter() - started < 5


def test_error_bodies_echo_only_a_bounded_prefix(client: TestClient, world: DemoWorld) -> None:
    huge = "X" * 200_000
    cases = [
        client.post(SPEND, json={"parameters": {**Q1, "company_id": huge}}, headers=world.headers(OWN)),
        client.post("/v1/metrics/" + huge[:5000] + "/query", json={"parameters": Q1}, headers=world.headers(OWN)),
        client.post(SPEND, json={"parameters": {**Q1, huge[:50_000]: 1}}, headers=world.headers(OWN)),
        client.get("/v1/traces/" + huge[:5000], headers=world.headers(OWN)),
        client.post("/v1/search", json={"query_text": huge}, headers=world.headers(OWN)),
    ]
    for response in cases:
        assert 400 <= response.status_code < 500 and error_shape_ok(response), response.text[:300]
        assert len(response.content) < 1024, (response.status_code, len(response.content))


@pytest.mark.parametrize("text", ["calib\u0000ration", "calib\ud800ration"], ids=["nul", "lone-surrogate"])
def test_nul_and_lone_surrogate_are_422_and_the_api_keeps_working(
    client: TestClient, world: DemoWorld, text: str
) -> None:
    # json.dumps escapes both as \\u sequences, exactly as a client library sends them.
    payloads = [
        ("/v1/search", {"query_text": "calibration", "filters": {"phrases": [text]}}),
        ("/v1/search", {"query_text": text}),
        (SPEND, {"parameters": {**Q1, "company_id": text}}),
        ("/v1/ask", {"question": text}),
    ]
    for path, payload in payloads:
        response = client.post(path, content=json.dumps(payload), headers={
            **world.headers(OWN), "Content-Type": "application/json"})
        assert response.status_code == 422 and error_shape_ok(response), (path, response.status_code, response.text)
    assert client.get("/v1/audit?limit=1%00", headers=world.headers(OWN, ADMIN_SCOPES)).status_code == 422
    fine = client.post(SPEND, json={"parameters": Q1}, headers=world.headers(OWN))
    assert fine.status_code == 200, fine.text[:300]


# --- traces ---------------------------------------------------------------------------------------------------


def test_traces_need_a_scope_and_belong_to_their_principal(client: TestClient, world: DemoWorld) -> None:
    owner_key, _ = _key(world, OWN, FULL_SCOPES, principal="trace-owner")
    stranger_key, _ = _key(world, OWN, FULL_SCOPES, principal="trace-stranger")
    unrelated_key, _ = _key(world, OWN, ("invoice:aggregate",), principal="trace-owner")
    auditor_key, _ = _key(world, OWN, ADMIN_SCOPES, principal="trace-auditor")
    foreign_auditor, _ = _key(world, OTHER, ADMIN_SCOPES, principal="trace-owner")
    trace_id = uuid.uuid4()
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        admin.execute(
            "insert into app.traces (tenant_id, trace_id, principal_id, interface, question, as_of, status, routing)"
            " values (%s, %s, 'trace-owner', 'test', 'q', '2026-05-15', 'answered', '{}')", (OWN, trace_id))
    path = f"/v1/traces/{trace_id}"
    assert client.get(path, headers=_bearer(owner_key)).status_code == 200
    assert client.get(path, headers=_bearer(unrelated_key)).status_code == 403
    assert client.get(path, headers=_bearer(stranger_key)).status_code == 404
    assert client.get(path, headers=_bearer(auditor_key)).status_code == 200
    assert client.get(path, headers=_bearer(foreign_auditor)).status_code == 404


# --- MCP ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mcp_http(world: DemoWorld) -> Any:
    """The streamable-HTTP MCP app exactly as ``procura mcp http`` serves it, in process."""
    from router.cli import http_app
    from router.runtime import RouterRuntime

    runtime = RouterRuntime.open(world.settings, registry=world.registry(), use_classifier=False)
    try:
        # The SDK's DNS-rebinding protection accepts local hosts only, as `procura mcp http` binds by default.
        with TestClient(http_app(runtime), base_url="http://127.0.0.1:8765",
                        raise_server_exceptions=False) as mcp_client:
            yield mcp_client
    finally:
        runtime.close()


def _rpc(mcp_client: TestClient, key: str, method: str, params: dict[str, Any] | None = None) -> Any:
    return mcp_client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}},
                           headers={**_bearer(key), "Accept": "application/json, text/event-stream"})


def test_mcp_http_applies_the_per_key_rate_limit(mcp_http: TestClient, world: DemoWorld) -> None:
    key, _ = _key(world, OWN, FULL_SCOPES, per_minute=5)
    statuses = [_rpc(mcp_http, key, "tools/list").status_code for _ in range(8)]
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3, statuses


def test_mcp_calls_are_audited_with_their_own_label(mcp_http: TestClient, world: DemoWorld) -> None:
    key, key_id = _key(world, OWN, FULL_SCOPES)
    response = _rpc(mcp_http, key, "tools/call", {"name": "finance.aggregate_spend", "arguments": {
        **Q1, "supplier_ids": ["SUP-18"]}})
    assert response.status_code == 200, response.text[:300]
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        routes = admin.execute("select distinct route from app.audit_log where key_id = %s", (key_id,)).fetchall()
    assert routes == [("mcp",)]


def _stdio(world: DemoWorld, key: str, *args: str, calls: int = 1, pause_s: float = 0.0,
           between: Any = None) -> list[bool]:
    """Run ``procura mcp stdio``, call approved vendors ``calls`` times (``between`` runs before the last)."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    errors: list[bool] = []

    async def main() -> None:
        params = StdioServerParameters(command=sys.executable, args=["-m", "procura.cli", "mcp", "stdio",
                                                                     "--rules-only", *args],
                                       env=server_env(world, key), cwd=str(REPO))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for i in range(calls):
                if i == calls - 1 and between is not None:
                    between()
                    await anyio.sleep(pause_s)
                result = await session.call_tool("graph.find_approved_vendors", {
                    "company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"})
                errors.append(bool(result.is_error))

    anyio.run(main)
    return errors


def test_mcp_stdio_stops_serving_a_revoked_key_within_seconds(world: DemoWorld) -> None:
    key, key_id = _key(world, OWN, FULL_SCOPES)

    def revoke() -> None:
        with psycopg.connect(world.settings.owner_url, autocommit=True) as conn:
            revoke_key(conn, key_id)

    errors = _stdio(world, key, calls=2, pause_s=6.0, between=revoke)
    assert errors == [False, True]


def test_mcp_stdio_refuses_a_tenant_that_disagrees_with_the_key(world: DemoWorld) -> None:
    key, _ = _key(world, OTHER, FULL_SCOPES)
    done = subprocess.run([sys.executable, "-m", "procura.cli", "mcp", "stdio", "--rules-only", "--tenant", OWN],
                          env=server_env(world, key), cwd=str(REPO), input="", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "does not match" in done.stderr


# --- audit ----------------------------------------------------------------------------------------------------


def test_audit_parameter_hashes_are_keyed(client: TestClient, world: DemoWorld) -> None:
    key, key_id = _key(world, OWN, FULL_SCOPES)
    assert client.post(SPEND, json={"parameters": Q1}, headers=_bearer(key)).status_code == 200
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        row = admin.execute("select parameter_hashes from app.audit_log where key_id = %s", (key_id,)).fetchone()
    assert row is not None
    hashes = row[0]
    plain = hashlib.sha256(json.dumps("COMP-A").encode()).hexdigest()
    assert hashes["company_id"] != plain and len(hashes["company_id"]) == 64
    assert hashes["reporting_currency"] != hashlib.sha256(b'"EUR"').hexdigest()


def test_audit_rows_take_their_tenant_from_the_transaction(world: DemoWorld) -> None:
    marker = f"sec-{uuid.uuid4().hex[:8]}"
    args = (marker, None, "api", "forged", "{}", [], None, None, 1, "ok", None)
    call = ("select app.record_audit(%s::text, %s::text, %s::text, %s::text, %s::jsonb, %s::text[], %s::text,"
            " %s::integer, %s::numeric, %s::text, %s::text)")
    with psycopg.connect(world.settings.app_url, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select app.record_metric_audit('tenant-17', 'x', null, 'api', 'forged', '{}', '{}', null,"
                         " null, 1, 'ok', null)")
        with pytest.raises(psycopg.errors.InvalidParameterValue):
            conn.execute(call, args)
        with tenant_transaction(conn, AuthContext(OWN, marker), read_only=False):
            conn.execute(call, args)
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        rows = admin.execute("select tenant_id from app.audit_log where principal_id = %s", (marker,)).fetchall()
    assert rows == [(OWN,)]


def test_failed_authentication_is_throttled_per_source_and_logged(
    world: DemoWorld, caplog: pytest.LogCaptureFixture
) -> None:
    good = world.headers(OWN)
    with TestClient(world.create_app(failed_auth_per_minute=5), raise_server_exceptions=False) as fresh, \
            caplog.at_level(logging.WARNING, logger="procura.access"):
        bad = {"Authorization": "Bearer prk_000000000000_" + "A" * 43}
        statuses = [fresh.post(SPEND, json={"parameters": Q1}, headers=bad).status_code for _ in range(7)]
        assert statuses[:5] == [401] * 5 and statuses[5:] == [429, 429], statuses
        # Throttled by source: even a valid key from that source waits (a guesser cannot interleave).
        assert fresh.post(SPEND, json={"parameters": Q1}, headers=good).status_code == 429
    assert sum("authentication failed" in r.getMessage() for r in caplog.records) >= 5
    assert "A" * 43 not in caplog.text


def test_unknown_reporting_currency_is_422(client: TestClient, world: DemoWorld) -> None:
    response = client.post(SPEND, json={"parameters": {**Q1, "reporting_currency": "XYZ"}},
                           headers=world.headers(OWN))
    assert response.status_code == 422 and error_shape_ok(response), response.text[:300]
    assert response.json()["error"]["parameter"] == "reporting_currency"

