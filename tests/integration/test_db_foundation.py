"""The foundation's guarantees, checked on the real server: extensions, roles, RLS on every tenant table."""

from __future__ import annotations

import psycopg
import pytest

from procura.db.migrate import discover, migrate, pending
from procura.db.provision import check_server
from procura.db.session import AuthContext, tenant_transaction
from procura.errors import AuthorizationError
from procura.settings import Settings
from tests.conftest import unique_tenant

SERVING_ROLES = ("procura_app", "procura_bi")


def test_server_is_postgres17_with_pgvector_08_and_age_15(admin_conn: psycopg.Connection) -> None:
    available = check_server(admin_conn)
    installed = dict(admin_conn.execute("select extname, extversion from pg_extension").fetchall())
    assert int(admin_conn.execute("show server_version_num").fetchone()[0]) >= 170000
    assert installed["vector"].startswith("0.8")
    assert installed["age"].startswith("1.5")
    assert set(available) == {"vector", "age"}
    preload = admin_conn.execute("show shared_preload_libraries").fetchone()[0]
    assert "age" in preload


@pytest.mark.parametrize("role", SERVING_ROLES)
def test_serving_roles_are_not_superuser_bypassrls_or_owner(admin_conn: psycopg.Connection, role: str) -> None:
    attrs = admin_conn.execute(
        "select rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolcanlogin from pg_roles where rolname = %s",
        (role,),
    ).fetchone()
    # procura_bi is the NOLOGIN group of the BI logins; it keeps LOGIN while an older database of the shared
    # server still needs it (migration 0031), so only procura_app's LOGIN is asserted here.
    assert attrs[:4] == (False, False, False, False)
    assert attrs[4] or role == "procura_bi"
    owned = admin_conn.execute(
        """
        select count(*) from pg_class c join pg_roles r on r.oid = c.relowner
        where r.rolname = %s and c.relkind in ('r', 'v', 'm', 'p', 'f')
        """,
        (role,),
    ).fetchone()[0]
    owned_schemas = admin_conn.execute(
        "select count(*) from pg_namespace n join pg_roles r on r.oid = n.nspowner where r.rolname = %s", (role,)
    ).fetchone()[0]
    assert owned == 0
    assert owned_schemas == 0


def test_every_tenant_scoped_table_has_forced_rls_and_a_tenant_policy(admin_conn: psycopg.Connection) -> None:
    rows = admin_conn.execute(
        """
        select c.oid::regclass::text, c.relrowsecurity, c.relforcerowsecurity,
               (select count(*) from pg_policy p where p.polrelid = c.oid
                 and pg_get_expr(p.polqual, p.polrelid) like '%%current_tenant_id()%%')
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
        """
    ).fetchall()
    assert len(rows) >= 13, rows
    unprotected = [name for name, enabled, forced, policies in rows if not (enabled and forced and policies)]
    assert unprotected == []


def test_migrations_rerun_is_a_no_op(settings: Settings, admin_conn: psycopg.Connection) -> None:
    assert pending(admin_conn) == []
    assert migrate(admin_conn, settings) == []
    count = admin_conn.execute("select count(*) from procura_meta.schema_migrations").fetchone()[0]
    assert count == len(discover())


def _insert_company(admin_conn: psycopg.Connection, tenant: str, company_id: str) -> None:
    admin_conn.execute(
        """
        insert into landing.companies (tenant_id, document_id, document_version, content_hash,
                                       company_id, company_name, reporting_currency)
        values (%s, 'companies', 1, 'sha256:' || repeat('0', 64), %s, %s, 'EUR')
        """,
        (tenant, company_id, company_id.title()),
    )


def test_tenant_transaction_sees_only_its_tenant(admin_conn: psycopg.Connection, app_conn: psycopg.Connection) -> None:
    tenant_a, tenant_b = unique_tenant("a"), unique_tenant("b")
    _insert_company(admin_conn, tenant_a, "COMP-A")
    _insert_company(admin_conn, tenant_b, "COMP-B")
    admin_conn.execute("grant select on landing.companies to procura_app")
    try:
        ctx = AuthContext(tenant_id=tenant_a, principal_id="user-1", scopes=frozenset({"procurement:read"}))
        with tenant_transaction(app_conn, ctx) as conn:
            seen = conn.execute("select tenant_id, company_id from landing.companies").fetchall()
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction), conn.transaction():
                conn.execute("delete from landing.companies")
        assert seen == [(tenant_a, "COMP-A")]
        with app_conn.transaction():
            nothing = app_conn.execute("select count(*) from landing.companies").fetchone()[0]
        assert nothing == 0
    finally:
        admin_conn.execute("revoke select on landing.companies from procura_app")


def test_tenant_transaction_refuses_a_role_that_bypasses_rls(admin_conn: psycopg.Connection) -> None:
    ctx = AuthContext(tenant_id="tenant-42", principal_id="user-1")
    with (
        pytest.raises(AuthorizationError, match="must run as procura_app or procura_bi"),
        tenant_transaction(admin_conn, ctx),
    ):
        pass


def test_a_tenant_id_cannot_be_smuggled_through_the_context() -> None:
    with pytest.raises(AuthorizationError, match="invalid tenant id"):
        AuthContext(tenant_id="tenant-42' or '1'='1", principal_id="user-1")
