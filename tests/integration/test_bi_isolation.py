"""BI access under RLS, as the per-tenant BI logins (psycopg, the real psql client, SQLAlchemy) over TCP: a login
sees exactly its tenant's rows in every mart whatever the session tries in order to switch tenants, nothing when
no tenant is bound, and nothing outside the marts; statistics and plans show no other tenant's values."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass

import psycopg
import pytest
from psycopg import sql
from pydantic import SecretStr

from procura.bi import CreatedLogin
from procura.db.provision import psql_argv
from procura.settings import Settings
from procura.transform import build_marts
from tests.bi_logins import temporary_bi_login
from tests.conftest import unique_tenant
from tests.support.database import fresh_database
from tests.support.scenario import seed_tenant_a, seed_tenant_b

pytestmark = pytest.mark.integration

MARTS = (
    "validated_invoice_lines",
    "invoice_line_exceptions",
    "dim_companies",
    "dim_suppliers",
    "dim_supplier_aliases",
    "dim_products",
    "dim_product_groups",
    "product_group_hierarchy",
    "vendor_approvals",
    "fx_rates",
    "dim_product_group_synonyms",
    "spend_daily_rollup",
    "spend_monthly_rollup",
    "cancelled_draft_invoice_lines",
    "payment_terms",
)
FORBIDDEN = (
    "landing.invoice_lines",
    "landing.suppliers",
    "staging.stg_invoice_lines",
    "intermediate.int_invoice_lines_enriched",
    "ingest.documents",
    "ingest.quarantine",
)
# Every schema of the database except the marts and the system catalogs: a BI login reads no relation in any.
OTHER_SCHEMAS = (
    "app", "ingest", "landing", "staging", "intermediate", "retrieval", "graph", "procura_meta", "ag_catalog",
)


@dataclass(frozen=True)
class Warehouse:
    settings: Settings
    tenant_a: str
    tenant_b: str
    tenant_c: str  # no login: only the statistics could tell anything about it
    owner_counts: dict[tuple[str, str], int]
    logins: dict[str, CreatedLogin]  # by tenant, plus "unbound": a login whose binding was removed

    def expected(self, tenant: str) -> dict[str, tuple[int, int]]:
        """Rows per mart and foreign rows (always 0) a login of ``tenant`` must see."""
        return {mart: (self.owner_counts.get((mart, tenant), 0), 0) for mart in MARTS}


@pytest.fixture(scope="module")
def warehouse(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warehouse]:
    with fresh_database(base_settings, "bi") as settings, ExitStack() as logins:
        tenant_a, tenant_b, tenant_c = unique_tenant("ta"), unique_tenant("tb"), unique_tenant("tc")
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            seed_tenant_a(conn, tenant_a)
            seed_tenant_b(conn, tenant_b)
            # a third customer with A's volume, whose row counts the statistics would reveal
            seed_tenant_a(conn, tenant_c)
        work = tmp_path_factory.mktemp("dbt")
        build_marts(settings, target_path=work / "target", log_path=work / "logs")
        # the owner (BYPASSRLS) sees every tenant: the reference counts a login must reproduce for its tenant
        counts: dict[tuple[str, str], int] = {}
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            for mart in MARTS:
                query = sql.SQL("select tenant_id, count(*) from marts.{} group by tenant_id").format(
                    sql.Identifier(mart)
                )
                for tenant, n in conn.execute(query):
                    counts[(mart, tenant)] = n
                # statistics as fresh as they get: anything they held would show in pg_stats and EXPLAIN
                conn.execute(sql.SQL("analyze marts.{}").format(sql.Identifier(mart)))
        by_tenant = {t: logins.enter_context(temporary_bi_login(settings, t)) for t in (tenant_a, tenant_b)}
        unbound = logins.enter_context(temporary_bi_login(settings, tenant_a))
        with psycopg.connect(settings.admin_url, autocommit=True) as conn:
            conn.execute("delete from app.bi_logins where role_name = %s", (unbound.name,))
        yield Warehouse(settings, tenant_a, tenant_b, tenant_c, counts, {**by_tenant, "unbound": unbound})


def _mart_counts(conn: psycopg.Connection, own: str) -> dict[str, tuple[int, int]]:
    query = sql.SQL(" union all ").join(
        sql.SQL("select {}, count(*), count(*) filter (where tenant_id <> {}) from marts.{}").format(
            sql.Literal(mart), sql.Literal(own), sql.Identifier(mart)
        )
        for mart in MARTS
    )
    return {str(m): (int(total), int(foreign)) for m, total, foreign in conn.execute(query).fetchall()}


def test_each_login_sees_exactly_its_tenants_rows_in_every_mart(warehouse: Warehouse) -> None:
    for tenant in (warehouse.tenant_a, warehouse.tenant_b):
        with psycopg.connect(warehouse.logins[tenant].url) as conn:
            assert conn.execute("select current_user").fetchone() == (warehouse.logins[tenant].name,)
            assert _mart_counts(conn, tenant) == warehouse.expected(tenant)
    # tenant A has data in every mart and B in some, so the isolation above was not vacuous
    assert all(warehouse.owner_counts[(mart, warehouse.tenant_a)] > 0 for mart in MARTS)
    assert sum(warehouse.owner_counts.get((mart, warehouse.tenant_b), 0) for mart in MARTS) > 0


@dataclass(frozen=True)
class Attack:
    """Statements a BI session runs to read another tenant (errors are expected and ignored), or connection
    options; afterwards the session counts every mart."""

    statements: tuple[str, ...] = ()
    options: str | None = None
    in_transaction: bool = False


ATTACKS = {
    "set": Attack(("set app.tenant_id = '{other}'",)),
    "set_config_session": Attack(("select set_config('app.tenant_id', '{other}', false)",)),
    "set_local_in_transaction": Attack(("set local app.tenant_id = '{other}'",), in_transaction=True),
    "set_config_local_in_transaction": Attack(
        ("select set_config('app.tenant_id', '{other}', true)",), in_transaction=True
    ),
    "begin_tenant_scope": Attack(("select app.begin_tenant_scope('{other}', true, null)",)),
    "begin_tenant_scope_in_transaction": Attack(
        ("select app.begin_tenant_scope('{other}', true, null)",), in_transaction=True
    ),
    "set_role_group": Attack(("set role procura_bi", "set app.tenant_id = '{other}'")),
    "set_role_app": Attack(("set role procura_app", "set app.tenant_id = '{other}'")),
    "set_role_owner": Attack(("set role procura_owner",)),
    "set_config_role": Attack(("select set_config('role', 'procura_app', false)", "set app.tenant_id = '{other}'")),
    "reset_role": Attack(("set app.tenant_id = '{other}'", "reset role")),
    "set_session_authorization": Attack(("set session authorization procura_app", "set app.tenant_id = '{other}'")),
    "reset_session_authorization": Attack(("set app.tenant_id = '{other}'", "reset session authorization")),
    "set_is_superuser": Attack(("set is_superuser = on", "set app.tenant_id = '{other}'")),
    "options_tenant": Attack(options="-c app.tenant_id={other}"),
    "options_role": Attack(options="-c role=procura_app -c app.tenant_id={other}"),
    "options_session_authorization": Attack(options="-c session_authorization=procura_app"),
    "search_path": Attack(("set search_path = pg_temp, app, public, pg_catalog, marts",
                           "set app.tenant_id = '{other}'")),
    "shadow_current_setting": Attack((
        "set default_transaction_read_only = off",
        "create function pg_temp.current_setting(text, boolean) returns text language sql "
        "as $$ select '{other}' $$",
        "set search_path = pg_temp, marts",
    )),
    "binding_function": Attack(
        ("select set_config('app.tenant_id', app.bi_session_tenant(false, '{other}'), false)",)
    ),
    "own_role_default": Attack(("alter role current_user set app.tenant_id = '{other}'",
                                "set app.tenant_id = '{other}'")),
    "discard_all": Attack(("set app.tenant_id = '{other}'", "discard all")),
    "row_security_off": Attack(("set row_security = off",)),
}


def _attack(conn: psycopg.Connection, attack: Attack, other: str) -> None:
    for statement in attack.statements:
        try:
            conn.execute(statement.replace("{other}", other))
        except psycopg.errors.Error:
            if conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
                conn.execute("rollback")
                if attack.in_transaction:
                    conn.execute("begin")


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("name", list(ATTACKS))
def test_tenant_switch_attempts_show_no_foreign_row_in_any_mart(warehouse: Warehouse, name: str, side: str) -> None:
    own, other = (warehouse.tenant_a, warehouse.tenant_b) if side == "a" else (warehouse.tenant_b, warehouse.tenant_a)
    attack = ATTACKS[name]
    url = warehouse.logins[own].url
    options = attack.options.replace("{other}", other) if attack.options else None
    try:
        conn = psycopg.connect(url, autocommit=True, **({"options": options} if options else {}))
    except psycopg.OperationalError as exc:
        # the server refused the connection outright (e.g. SET ROLE in the startup packet): nothing was read
        assert "permission denied" in str(exc), exc
        return
    with conn:
        if attack.in_transaction:
            conn.execute("begin")
        _attack(conn, attack, other)
        try:
            seen = _mart_counts(conn, own)
        except psycopg.errors.InsufficientPrivilege as exc:
            # row_security = off makes a query under a policy fail instead of skipping the policy
            assert name == "row_security_off", exc
            return
        assert conn.execute("select app.current_tenant_id()").fetchone() == (own,)
    assert seen == warehouse.expected(own)
    if name == "own_role_default":
        with psycopg.connect(url) as again:
            assert _mart_counts(again, own) == warehouse.expected(own)


def test_a_login_whose_binding_was_removed_sees_nothing(warehouse: Warehouse) -> None:
    with psycopg.connect(warehouse.logins["unbound"].url, autocommit=True) as conn:
        assert _mart_counts(conn, "-") == {mart: (0, 0) for mart in MARTS}
        conn.execute("select set_config('app.tenant_id', %s, false)", (warehouse.tenant_a,))
        assert _mart_counts(conn, "-") == {mart: (0, 0) for mart in MARTS}
        assert conn.execute("select app.current_tenant_id()").fetchone() == (None,)


def test_the_group_role_itself_sees_nothing_and_cannot_log_in(warehouse: Warehouse) -> None:
    # Design note: procura_bi cannot log in (NOLOGIN, and no CONNECT on this database); to see what the group
    # itself would read, a superuser session takes its identity with SET ROLE (RLS then applies to it).
    with psycopg.connect(warehouse.settings.admin_url, autocommit=True) as conn:
        conn.execute("set role procura_bi")
        conn.execute("select set_config('app.tenant_id', %s, false)", (warehouse.tenant_a,))
        assert _mart_counts(conn, "-") == {mart: (0, 0) for mart in MARTS}
    # the shared login's former local password: refused (no LOGIN, or no CONNECT here while the role keeps LOGIN
    # for a database of the server migrated before 0031)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(warehouse.settings.login_url("procura_bi", SecretStr("procura-local-bi"))).close()


@pytest.mark.parametrize("relation", FORBIDDEN)
def test_login_cannot_read_below_the_marts(warehouse: Warehouse, relation: str) -> None:
    schema, table = relation.split(".")
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url) as conn, pytest.raises(
        psycopg.errors.InsufficientPrivilege
    ):
        conn.execute(sql.SQL("select count(*) from {}.{}").format(sql.Identifier(schema), sql.Identifier(table)))


@pytest.mark.parametrize("schema", OTHER_SCHEMAS)
def test_login_reads_no_relation_of_any_other_schema(warehouse: Warehouse, schema: str) -> None:
    with psycopg.connect(warehouse.settings.admin_url) as conn:
        relations = [r[0] for r in conn.execute(
            "select c.relname from pg_class c where c.relnamespace = %s::regnamespace "
            "and c.relkind in ('r', 'v', 'm', 'p', 'f', 'S')", (schema,)).fetchall()]
    assert relations, schema
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url, autocommit=True) as conn:
        for relation in relations:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(sql.SQL("select * from {}.{} limit 1").format(
                    sql.Identifier(schema), sql.Identifier(relation)))


def test_privileges_are_select_on_the_marts_and_nothing_else(warehouse: Warehouse) -> None:
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url) as conn:
        granted = conn.execute(
            """
            select n.nspname, c.relname, p.privilege
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER'])
                as p(privilege)
            where c.relkind in ('r', 'v', 'm', 'p', 'f')
              and n.nspname not in ('pg_catalog', 'information_schema')
              and has_table_privilege(c.oid, p.privilege)
            """
        ).fetchall()
        grantable = conn.execute(
            "select count(*) from pg_class c where c.relnamespace = 'marts'::regnamespace "
            "and has_table_privilege(c.oid, 'SELECT WITH GRANT OPTION')"
        ).fetchone()
        column_grants = conn.execute(
            """
            select n.nspname || '.' || c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname not in ('pg_catalog', 'information_schema', 'marts') and c.relkind in ('r', 'v', 'm', 'p')
              and has_any_column_privilege(c.oid, 'SELECT, INSERT, UPDATE, REFERENCES')
            """
        ).fetchall()
        create_schemas = conn.execute(
            "select nspname from pg_namespace where has_schema_privilege(oid, 'CREATE')"
        ).fetchall()
        database = conn.execute(
            "select has_database_privilege(current_database(), 'CREATE'), "
            "has_database_privilege(current_database(), 'TEMPORARY')"
        ).fetchone()
        roles = dict(conn.execute(
            """
            select r.rolname, (pg_has_role(r.oid, 'SET'), pg_has_role(r.oid, 'USAGE'))::text
            from pg_roles r where r.rolname in ('procura_app', 'procura_owner', 'procura_bi')
            """
        ).fetchall())
        privileged = conn.execute(
            "select count(*) from pg_roles where (rolsuper or rolbypassrls or rolcreaterole) "
            "and (pg_has_role(oid, 'SET') or pg_has_role(oid, 'USAGE'))"
        ).fetchone()
        definers = conn.execute(
            """
            select p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where p.prosecdef and n.nspname not in ('pg_catalog', 'information_schema')
              and has_function_privilege(p.oid, 'EXECUTE') and has_schema_privilege(n.oid, 'USAGE')
            """
        ).fetchall()
        attrs = conn.execute(
            "select rolsuper, rolbypassrls, rolcreaterole, rolcreatedb, rolreplication "
            "from pg_roles where rolname = current_user"
        ).fetchone()
    assert {(s, r) for s, r, p in granted} == {("marts", m) for m in MARTS}
    assert {p for _, _, p in granted} == {"SELECT"}
    assert grantable == (0,)
    assert column_grants == []
    assert create_schemas == []
    assert database == (False, False)
    # USAGE of procura_bi (its SELECT on the marts) without the right to SET ROLE to it; nothing of the others
    assert roles == {"procura_bi": "(f,t)", "procura_app": "(f,f)", "procura_owner": "(f,f)"}
    assert privileged == (0,)
    assert [d for (d,) in definers] == ["app.bi_session_tenant(boolean,text)"]
    assert attrs == (False, False, False, False, False)


CREATE_ATTEMPTS = (
    "create table marts.x (tenant_id text)",
    "create view marts.v as select 1 as one",
    "create table public.x (tenant_id text)",
    "create temporary table x (tenant_id text)",
    "create schema x",
    "create function public.f() returns int language sql as $$ select 1 $$",
    "create function pg_temp.f() returns int language sql as $$ select 1 $$",
    "create index on marts.validated_invoice_lines (tenant_id)",
)
WRITE_ATTEMPTS = (
    "insert into marts.dim_companies (tenant_id) values ('x')",
    "update marts.validated_invoice_lines set tenant_id = tenant_id",
    "delete from marts.validated_invoice_lines",
    "truncate marts.validated_invoice_lines",
    "alter table marts.validated_invoice_lines disable row level security",
    "drop table marts.fx_rates",
    "comment on table marts.fx_rates is 'x'",
    "select lo_create(0)",
    "select lo_from_bytea(0, 'x')",
    "select pg_advisory_lock(1)",
    "select pg_try_advisory_xact_lock(1)",
    "select count(*) from pg_locks",
    "select pg_blocking_pids(pg_backend_pid())",
)


@pytest.mark.parametrize("statement", CREATE_ATTEMPTS + WRITE_ATTEMPTS)
def test_login_cannot_create_or_write_even_with_read_only_off(warehouse: Warehouse, statement: str) -> None:
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url, autocommit=True) as conn:
        with pytest.raises((psycopg.errors.ReadOnlySqlTransaction, psycopg.errors.InsufficientPrivilege)):
            conn.execute(statement)
        conn.execute("set default_transaction_read_only = off")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)


def test_login_session_defaults(warehouse: Warehouse) -> None:
    login = warehouse.logins[warehouse.tenant_a]
    with psycopg.connect(login.url) as conn:
        settings = conn.execute(
            "select current_setting('default_transaction_read_only'), current_setting('search_path'), "
            "current_setting('statement_timeout'), rolconnlimit from pg_roles where rolname = current_user"
        ).fetchone()
        # unqualified names resolve in marts
        total = conn.execute("select count(*) from validated_invoice_lines").fetchone()
    assert settings == ("on", "marts", "30s", 5)
    assert total == (warehouse.owner_counts[("validated_invoice_lines", warehouse.tenant_a)],)


def test_statistics_show_no_values(warehouse: Warehouse) -> None:
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url, autocommit=True) as conn:
        # ANALYZE of a table one may not maintain is skipped with a warning (it would find nothing to collect)
        conn.execute("analyze marts.validated_invoice_lines")
        for view in ("pg_stats", "pg_stats_ext", "pg_stats_ext_exprs"):
            query = sql.SQL("select count(*) from pg_catalog.{} where schemaname = 'marts'").format(
                sql.Identifier(view))
            assert conn.execute(query).fetchone() == (0,), view
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select count(*) from pg_catalog.pg_statistic")
    # and the server holds none to leak: the marts keep no column statistics (migration 0030)
    with psycopg.connect(warehouse.settings.admin_url) as conn:
        held = conn.execute(
            "select count(*) from pg_statistic s join pg_class c on c.oid = s.starelid "
            "where c.relnamespace = 'marts'::regnamespace"
        ).fetchone()
    assert held == (0,)


def _estimate(conn: psycopg.Connection, table: str, column: str, value: str) -> float:
    query = sql.SQL("explain (format json) select * from marts.{} where {} = {}").format(
        sql.Identifier(table), sql.Identifier(column), sql.Literal(value)
    )
    plan = conn.execute(query).fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    return float(plan[0]["Plan"]["Plan Rows"])


def test_planner_estimates_reveal_nothing_about_another_tenant(warehouse: Warehouse) -> None:
    # With column statistics, `EXPLAIN select ... where tenant_id = 'C'` would estimate tenant C's row count, and
    # `where column = value` how often the other tenants have the value: text = is leakproof, so the planner uses
    # the statistics of all tenants' rows even under row-level security. Probes: tenant C (A's volume) in every
    # mart, and the most frequent value of B that A does not have in every text column.
    probes: list[tuple[str, str, str, int]] = []
    with psycopg.connect(warehouse.settings.owner_url) as conn:
        for table, column in conn.execute(
            "select table_name, column_name from information_schema.columns "
            "where table_schema = 'marts' and data_type = 'text' order by 1, 2"
        ).fetchall():
            if column == "tenant_id":
                expected = warehouse.owner_counts.get((table, warehouse.tenant_c), 0)
                probes.append((table, column, warehouse.tenant_c, expected))
                continue
            query = sql.SQL(
                "select {c}, count(*) from marts.{t} where tenant_id = %s and {c} is not null "
                "and {c} not in (select {c} from marts.{t} where tenant_id = %s and {c} is not null) "
                "group by 1 order by 2 desc limit 1"
            ).format(c=sql.Identifier(column), t=sql.Identifier(table))
            row = conn.execute(query, (warehouse.tenant_b, warehouse.tenant_a)).fetchone()
            if row is not None:
                probes.append((table, column, str(row[0]), int(row[1])))
    assert len(probes) >= 3, probes
    with psycopg.connect(warehouse.logins[warehouse.tenant_a].url) as conn:
        leaks = [
            (table, column, count)
            for table, column, value, count in probes
            if _estimate(conn, table, column, value) != _estimate(conn, table, column, "no such value")
        ]
    assert leaks == []
    # Control: the same probe on a copy of a mart that keeps its statistics does show the other tenant.
    table, column, value, _ = max(probes, key=lambda p: p[3])
    control = sql.Identifier("bi_stats_control")
    with psycopg.connect(warehouse.settings.owner_url, autocommit=True) as owner:
        owner.execute(sql.SQL("create table marts.{} as select * from marts.{}").format(
            control, sql.Identifier(table)))
        try:
            owner.execute("call app.apply_tenant_isolation('marts.bi_stats_control')")
            owner.execute(sql.SQL("analyze marts.{}").format(control))
            with psycopg.connect(warehouse.logins[warehouse.tenant_a].url) as conn:
                leaked = _estimate(conn, "bi_stats_control", column, value)
                baseline = _estimate(conn, "bi_stats_control", column, "no such value")
        finally:
            owner.execute(sql.SQL("drop table marts.{}").format(control))
    assert leaked > baseline, (table, column, leaked, baseline)


def test_login_sees_no_other_session(warehouse: Warehouse) -> None:
    marker = "secret-marker-of-tenant-b"
    with psycopg.connect(warehouse.logins[warehouse.tenant_b].url, autocommit=True) as other:
        other.execute(sql.SQL("select {}").format(sql.Literal(marker)))
        with psycopg.connect(warehouse.logins[warehouse.tenant_a].url, autocommit=True) as conn:
            for query in (
                "select query from pg_stat_activity",
                "select * from pg_stat_get_activity(null)",
                "select pg_stat_get_backend_userid(b) from pg_stat_get_backend_idset() as b",
                "select * from pg_stat_ssl",
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(query)


def _psql(settings: Settings, url: str, command: str) -> subprocess.CompletedProcess[str]:
    argv = [*psql_argv(settings), url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", command]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def test_psql_login_sees_only_its_tenant_whatever_it_sets(warehouse: Warehouse) -> None:
    tenant, other = warehouse.tenant_a, warehouse.tenant_b
    selects = " union all ".join(
        f"select '{mart}', count(*), count(*) filter (where tenant_id <> '{tenant}') from {mart}" for mart in MARTS
    )
    proc = _psql(warehouse.settings, warehouse.logins[tenant].url, f"set app.tenant_id = '{other}'; {selects}")
    assert proc.returncode == 0, proc.stderr
    seen = {}
    for line in proc.stdout.strip().splitlines():
        mart, total, foreign = line.split("|")
        seen[mart] = (int(total), int(foreign))
    assert seen == warehouse.expected(tenant)


def test_psql_unbound_login_sees_nothing_and_landing_is_denied(warehouse: Warehouse) -> None:
    selects = " + ".join(f"(select count(*) from marts.{mart})" for mart in MARTS)
    unbound = warehouse.logins["unbound"]
    proc = _psql(warehouse.settings, unbound.url, f"set app.tenant_id = '{warehouse.tenant_a}'; "
                                                  f"select current_user, {selects}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{unbound.name}|0"
    denied = _psql(warehouse.settings, warehouse.logins[warehouse.tenant_a].url, "select * from landing.invoice_lines")
    assert denied.returncode != 0
    assert "permission denied" in denied.stderr


def test_sqlalchemy_with_psycopg_reads_the_marts_and_their_documentation(warehouse: Warehouse) -> None:
    import sqlalchemy as sa

    login = warehouse.logins[warehouse.tenant_a]
    # Superset and most Python BI tools take the URL with the driver named in the scheme
    engine = sa.create_engine(login.url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("select tenant_id, count(*) from validated_invoice_lines group by 1")).all()
        inspector = sa.inspect(engine)
        tables = set(inspector.get_table_names(schema="marts"))
        columns = inspector.get_columns("validated_invoice_lines", schema="marts")
        table_comment = inspector.get_table_comment("validated_invoice_lines", schema="marts")
    finally:
        engine.dispose()
    assert [tuple(r) for r in rows] == [(warehouse.tenant_a, warehouse.owner_counts[
        ("validated_invoice_lines", warehouse.tenant_a)])]
    assert tables == set(MARTS)
    # every column carries its dbt description (persist_docs), which BI catalogs show next to the field
    assert [c["name"] for c in columns if not c.get("comment")] == []
    assert table_comment["text"]
