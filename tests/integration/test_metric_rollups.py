"""Governed rollups answer exactly what the lines answer.

A database of this module's own: the marts are built by dbt (empty), synthetic validated lines with credit
notes, foreign-currency lines, every status and duplicates are written for two tenants, and the rollups are
rebuilt from them by dbt. Hypothesis then draws metrics, parameters (month-aligned periods and arbitrary days,
missing suppliers, unknown companies, product filters), groupings and grains, and the answer from every rollup
that covers the request equals the answer from the lines: values to the cent, counts, coverage, status and the
capped provenance ids. Queries run as procura_app under row-level security.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bench.metric_api import _SYNTHETIC_SQL
from procura.db.session import AuthContext, idle_autocommit
from procura.settings import Settings
from procura.transform import _invoke, build_marts
from semantic import audit
from semantic.errors import MetricExecutionError, ScopeError
from semantic.execute import MetricResult, run
from semantic.loader import Metric, MetricRegistry, load_registry
from semantic.params import BoundParameters, bind
from semantic.rollups import LINES, RelationPlanner
from semantic.schema import load_manifest
from semantic.service import MetricService
from tests.conftest import unique_tenant
from tests.support.database import fresh_database

pytestmark = pytest.mark.integration

ROLLED = ("finance.aggregate_spend", "finance.company_spend", "finance.units_purchased", "catalog.unit_price")
PLANNER = RelationPlanner()


@dataclass(frozen=True)
class Built:
    settings: Settings
    registry: MetricRegistry
    tenant: str
    other: str


@pytest.fixture(scope="module")
def built(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with fresh_database(base_settings, "rollups") as db:
        work = tmp_path_factory.mktemp("dbt")
        build_marts(db, target_path=work / "target", log_path=work / "logs")
        tenant, other = unique_tenant("ru"), unique_tenant("rv")
        with psycopg.connect(db.admin_url, autocommit=True) as admin:
            admin.execute(_SYNTHETIC_SQL, {"tenant": tenant, "lines": 4000})
            admin.execute(_SYNTHETIC_SQL, {"tenant": other, "lines": 1500})
        # The lines bypassed dbt (no change records): the rollups are rebuilt whole from them, as dbt would.
        _invoke(db, ["build", "--full-refresh", "--select", "spend_daily_rollup", "spend_monthly_rollup"],
                progress=None, target_path=work / "target", log_path=work / "logs", check=True)  # fmt: skip
        registry = load_registry(load_manifest(work / "target" / "manifest.json"))
        yield Built(db, registry, tenant, other)


@pytest.fixture(scope="module")
def app(built: Built) -> Iterator[psycopg.Connection]:
    with psycopg.connect(built.settings.app_url, autocommit=True) as conn:
        yield conn


def _run(conn: psycopg.Connection, tenant: str, metric: Metric, query: Any, params: Any) -> MetricResult:
    ctx = AuthContext(tenant_id=tenant, principal_id="rollup-test")
    return run(conn, ctx, metric, query, params, statement_timeout_ms=10_000, row_cap=10_000)


_MONTHS = [dt.date(2023, 11, 1) + dt.timedelta(days=31 * i) for i in range(40)]
_month_starts = st.sampled_from([d.replace(day=1) for d in _MONTHS])
_days = st.dates(min_value=dt.date(2023, 12, 1), max_value=dt.date(2027, 1, 31))


@st.composite
def _request(draw: st.DrawFn, registry: MetricRegistry) -> tuple[str, dict[str, Any], tuple[str, ...], str | None]:
    metric = registry.get(draw(st.sampled_from(ROLLED)))
    definition = metric.definition
    aligned = draw(st.booleans())
    start, end = sorted(draw(st.lists(_month_starts if aligned else _days, min_size=2, max_size=2, unique=True)))
    # SUP-18..77 exist (SUP-n sells PRD-(482 + 10 (n - 18)) .. +9); the others make a result partial.
    supplier_numbers = draw(st.lists(st.integers(15, 80), min_size=1, max_size=8, unique=True))
    products = [f"PRD-{482 + 10 * (n - 18) + k}" for n in supplier_numbers for k in range(10)]
    candidates: dict[str, Any] = {
        "company_id": draw(st.sampled_from(["COMP-A", "COMP-B", "COMP-C", "COMP-A", "COMP-Z"])),
        "supplier_ids": [f"SUP-{n}" for n in supplier_numbers],
        "supplier_id": f"SUP-{supplier_numbers[0]}",
        "product_codes": draw(st.none() | st.lists(st.sampled_from(products), min_size=1, max_size=12, unique=True)),
        "product_code": draw(st.sampled_from(products)),
        "invoice_statuses": draw(
            st.lists(st.sampled_from(["draft", "posted", "paid"]), min_size=1, max_size=3, unique=True)
        ),
        "reporting_currency": draw(st.sampled_from(["EUR"] * 9 + ["USD"])),
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
        "month": start.strftime("%Y-%m"),
        # The synthetic lines have groups PG-0..PG-11 (none absent); PG-99 has no lines.
        "exclude_supplier_ids": [f"SUP-{n}" for n in draw(st.lists(st.integers(15, 80), min_size=1, max_size=4))],
        "product_group_ids": draw(
            st.lists(st.sampled_from([f"PG-{n}" for n in (*range(12), 99)]), min_size=1, max_size=4, unique=True)
        ),
        "exclude_product_group_ids": draw(
            st.lists(st.sampled_from([f"PG-{n}" for n in (*range(12), 99)]), min_size=1, max_size=4, unique=True)
        ),
        "document_types": draw(st.sampled_from([["invoice"], ["credit_note"], ["invoice", "credit_note"]])),
    }
    parameters = {}
    for name, spec in definition.parameters.items():
        if name in candidates and (spec.required or draw(st.booleans())):
            parameters[name] = candidates[name]
    parameters = {k: v for k, v in parameters.items() if v is not None}
    dims = list(definition.dimensions)
    chosen = draw(st.lists(st.sampled_from(dims), max_size=definition.max_group_by, unique=True)) if dims else []
    group_by = tuple(d for d in dims if d in chosen)
    grains = [None, *(definition.time_dimension.grains if definition.time_dimension else ())]
    return metric.name, parameters, group_by, draw(st.sampled_from(grains))


def _comparable(result: MetricResult) -> dict[str, Any]:
    return result.model_dump(exclude={"duration_ms", "answered_from"})


def test_rollups_are_built_under_row_level_security(built: Built, app: psycopg.Connection) -> None:
    with psycopg.connect(built.settings.admin_url) as admin:
        forced = admin.execute(
            "select relname, relrowsecurity, relforcerowsecurity from pg_class "
            "where relname in ('spend_daily_rollup', 'spend_monthly_rollup') order by relname"
        ).fetchall()
        lines = admin.execute(
            "select (select count(*) from marts.validated_invoice_lines),"
            " (select sum(line_count) from marts.spend_daily_rollup),"
            " (select sum(line_count) from marts.spend_monthly_rollup)"
        ).fetchone()
    assert forced == [("spend_daily_rollup", True, True), ("spend_monthly_rollup", True, True)]
    assert lines == (5500, 5500, 5500)
    # procura_app without a tenant sees nothing; with one, that tenant's rows only.
    assert app.execute("select count(*) from marts.spend_monthly_rollup").fetchone() == (0,)


def test_the_three_year_company_query_is_answered_from_the_monthly_rollup(
    built: Built, app: psycopg.Connection
) -> None:
    metric = built.registry.get("finance.company_spend")
    query = metric.variant(("supplier_id",), "quarter")
    params = bind(
        metric.definition.parameters,
        {"company_id": "COMP-A", "start_date": "2024-01-01", "end_date": "2027-01-01"},
        metric.definition.constraints,
    )
    answering = _answering(built, metric, query, params)
    assert answering.relation == "marts.spend_monthly_rollup"
    rolled, lines = _run(app, built.tenant, metric, answering, params), _run(app, built.tenant, metric, query, params)
    assert rolled.answered_from == "marts.spend_monthly_rollup"
    assert lines.answered_from == "marts.validated_invoice_lines"
    assert _comparable(rolled) == _comparable(lines)
    assert rolled.rows and all(r.provenance and r.provenance.source_line_ids for r in rolled.rows)
    # A period that is not whole months, or a product filter, cannot be answered from the monthly rollup.
    days = bind(metric.definition.parameters, {"company_id": "COMP-A", "start_date": "2024-01-02",
                                               "end_date": "2027-01-01"}, metric.definition.constraints)  # fmt: skip
    assert _answering(built, metric, query, days).relation == "marts.spend_daily_rollup"
    weekly = metric.variant((), "week")
    assert _answering(built, metric, weekly, params).relation == "marts.spend_daily_rollup"
    # A rollup about as large as the lines leaves the query to the lines (the provenance reads them anyway).
    sizes = {LINES: 1000.0, "marts.spend_monthly_rollup": 400.0, "marts.spend_daily_rollup": 900.0}
    chosen = PLANNER.select(metric.definition, query, params.values, built.registry.schema, sizes)
    assert chosen.relation == LINES
    sizes[LINES] = 10_000.0
    chosen = PLANNER.select(metric.definition, query, params.values, built.registry.schema, sizes)
    assert chosen.relation == "marts.spend_monthly_rollup"


def test_line_queries_may_reuse_a_generic_plan_and_rollup_queries_never(built: Built) -> None:
    # execute._statements: re-planning the audited lines query on every call cost 0.4-0.5 ms of backend CPU on the
    # seed-like question, so only a rollup's query forces a custom plan (a generic one measured slower there).
    metric = built.registry.get("finance.company_spend")
    query = metric.variant(("supplier_id",), "quarter")
    params = bind(
        metric.definition.parameters,
        {"company_id": "COMP-A", "start_date": "2024-01-01", "end_date": "2027-01-01"},
        metric.definition.constraints,
    )
    rolled = _answering(built, metric, query, params)
    assert rolled.relation == "marts.spend_monthly_rollup" and query.relation == LINES
    with psycopg.connect(built.settings.app_url, autocommit=True) as conn:
        for _ in range(8):  # Postgres plans the first five executions of a prepared statement for their values
            _run(conn, built.tenant, metric, query, params)
            _run(conn, built.tenant, metric, rolled, params)
        plans = {
            ("rollup" if "spend_monthly_rollup" in text else "lines"): (generic, custom)
            for text, generic, custom in conn.execute(
                "select statement, generic_plans, custom_plans from pg_prepared_statements"
                " where statement like '%\"marts\".%'"
            ).fetchall()
        }
    assert len(plans) == 2 and plans["rollup"] == (0, 8), plans
    assert plans["lines"][0] >= 1, plans


def _answering(built: Built, metric: Metric, query: Any, params: BoundParameters) -> Any:
    """The planner's choice when the sizes are unknown: the smallest covering rollup."""
    return PLANNER.select(metric.definition, query, params.values, built.registry.schema, {})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_rollup_answer_equals_the_line_answer(built: Built, app: psycopg.Connection, data: st.DataObject) -> None:
    name, parameters, group_by, grain = data.draw(_request(built.registry))
    metric = built.registry.get(name)
    query = metric.variant(group_by, grain)
    params = bind(metric.definition.parameters, parameters, metric.definition.constraints)
    tenant = data.draw(st.sampled_from([built.tenant, built.other]))
    lines = _run(app, tenant, metric, query, params)
    covering = [
        c for c in PLANNER.candidates(metric.definition, query, built.registry.schema) if c.covers(params.values)
    ]
    event(f"{len(covering)} covering rollup(s) / {lines.status}")
    for candidate in covering:
        rolled = _run(app, tenant, metric, candidate.query, params)
        assert rolled.answered_from == candidate.rollup.relation
        assert _comparable(rolled) == _comparable(lines), (candidate.rollup.relation, parameters, group_by, grain)


# -- one round trip, still fail-closed ------------------------------------------------------------------------


def _audit_rows(built: Built, principal: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(built.settings.admin_url) as admin:
        return admin.execute(
            "select tenant_id, route, metric, outcome, row_count from app.audit_log where principal_id = %s"
            " order by audit_id",
            (principal,),
        ).fetchall()


def _syncs(trace: Path) -> int:
    """Sync messages the client sent (libpq's protocol trace): one per network round trip of a pipeline."""
    return sum(1 for line in trace.read_text().splitlines() if "\tF\t" in line and "\tSync" in line)


def test_a_metric_call_is_one_round_trip_with_its_audit_row(
    built: Built, app: psycopg.Connection, tmp_path: Path
) -> None:
    service = MetricService(built.registry, statement_timeout_ms=10_000, row_cap=10_000)
    principal = unique_tenant("audit")
    ctx = AuthContext(tenant_id=built.tenant, principal_id=principal, scopes=frozenset({"invoice:aggregate"}))
    answered = {"company_id": "COMP-A", "start_date": "2024-01-01", "end_date": "2025-01-01"}
    service.relations.sizes(app)  # read once a minute; not part of this call
    trace = tmp_path / "trace.txt"
    with trace.open("w") as sink:
        app.pgconn.trace(sink.fileno())
        try:
            result = service.query(app, ctx, "finance.company_spend", answered, group_by=["supplier_id"])
        finally:
            app.pgconn.untrace()
    assert result.status == "complete" and result.rows
    assert _syncs(trace) == 1
    empty = service.query(app, ctx, "finance.company_spend", {**answered, "company_id": "COMP-Z"})
    assert empty.status == "no_data"
    rows = _audit_rows(built, principal)
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        (built.tenant, "api", "finance.company_spend", "ok"),
        (built.tenant, "api", "finance.company_spend", "no_data"),
    ]
    assert rows[0][4] == result.row_count and rows[1][4] == 0


def test_one_row_questions_audit_ok_partial_and_no_data_from_their_own_row(
    built: Built, app: psycopg.Connection
) -> None:
    """An ungrouped question's audit call sits in the select list of its one row (execute._audited_one_row):
    the row count and outcome follow the same rules as the general form, from the lines and from a rollup."""
    service = MetricService(built.registry, statement_timeout_ms=10_000, row_cap=10_000)
    principal = unique_tenant("one-row")
    ctx = AuthContext(tenant_id=built.tenant, principal_id=principal, scopes=frozenset({"invoice:aggregate"}))
    base = {"company_id": "COMP-A", "supplier_ids": ["SUP-18", "SUP-27"], "start_date": "2024-01-01",
            "end_date": "2025-01-01"}  # fmt: skip
    asked = [
        base,  # month starts: a rollup may answer
        {**base, "supplier_ids": ["SUP-18", "SUP-99"]},  # SUP-99 has no lines: partial
        {**base, "start_date": "2024-01-02"},  # not a month start: the monthly rollup cannot answer
        {**base, "company_id": "COMP-Z"},  # nothing matches
    ]
    results = [service.query(app, ctx, "finance.aggregate_spend", p) for p in asked]
    assert [r.status for r in results] == ["complete", "partial", "complete", "no_data"]
    assert results[2].answered_from != "marts.spend_monthly_rollup"
    rows = _audit_rows(built, principal)
    assert [(r[3], r[4]) for r in rows] == [("ok", 1), ("partial", 1), ("ok", 1), ("no_data", 0)]
    assert idle_autocommit(app)


def test_a_failed_audit_fails_the_request(built: Built, app: psycopg.Connection) -> None:
    service = MetricService(built.registry, statement_timeout_ms=10_000, row_cap=10_000)
    principal = unique_tenant("audit")
    ctx = AuthContext(tenant_id=built.tenant, principal_id=principal, scopes=frozenset({"invoice:aggregate"}))
    parameters = {"company_id": "COMP-A", "start_date": "2024-01-01", "end_date": "2025-01-01"}
    # The database refuses the row (a route outside the audit log's check constraint): no answer, no row.
    with audit.interface("bogus", "key-x"), pytest.raises(MetricExecutionError):  # type: ignore[arg-type]
        service.query(app, ctx, "finance.company_spend", parameters)
    assert _audit_rows(built, principal) == []
    assert idle_autocommit(app)  # the connection is clean for the next request


def test_kept_statements_serve_only_their_own_tenant_principal_and_route(built: Built, app: psycopg.Connection) -> None:
    """The service keeps a request's dumped statements (the tenant scope and the audited query) per caller: the
    same request from another tenant, principal or route is scoped and audited as that caller, sync and async,
    and its answer is that tenant's (no lines: no data)."""
    service = MetricService(built.registry, statement_timeout_ms=10_000, row_cap=10_000)
    principal = unique_tenant("kept")
    other_tenant = unique_tenant("kept-other")
    asked = {"company_id": "COMP-A", "supplier_ids": ["SUP-18"], "start_date": "2024-01-01", "end_date": "2025-01-01"}
    ctx = AuthContext(tenant_id=built.tenant, principal_id=principal, scopes=frozenset({"invoice:aggregate"}))
    elsewhere = replace(ctx, tenant_id=other_tenant)
    answers = [service.query(app, ctx, "finance.aggregate_spend", asked) for _ in range(2)]
    answers.append(service.query(app, elsewhere, "finance.aggregate_spend", asked))
    answers.append(service.query(app, ctx, "finance.aggregate_spend", asked, route="cli"))

    async def scenario() -> bytes:
        async with await psycopg.AsyncConnection.connect(built.settings.app_url, autocommit=True) as conn:
            await service.aquery_json(conn, ctx, "finance.aggregate_spend", asked)
            return await service.aquery_json(conn, elsewhere, "finance.aggregate_spend", asked)

    elsewhere_json = asyncio.run(scenario())
    assert [a.status for a in answers] == ["complete", "complete", "no_data", "complete"]
    assert b'"status":"no_data"' in elsewhere_json
    with psycopg.connect(built.settings.admin_url) as admin:
        rows = admin.execute(
            "select tenant_id, route, outcome from app.audit_log where principal_id = %s order by audit_id",
            (principal,),
        ).fetchall()
    ours, theirs = (built.tenant, "api", "ok"), (other_tenant, "api", "no_data")
    assert rows == [ours, ours, theirs, (built.tenant, "cli", "ok"), ours, theirs]


# -- the serving role writes nothing but audit rows -----------------------------------------------------------

#: Append-only observability tables the ask route writes its traces to (migrations 0025-0027); no business data.
TRACE_TABLES = frozenset({"app.traces", "app.trace_steps", "app.runs"})


def test_the_serving_role_cannot_write_any_table_over_tcp(built: Built) -> None:
    """Attacked as the serving role over TCP, inside a metric transaction's scope (which is not READ ONLY since
    it writes the audit row): every INSERT, UPDATE, DELETE and TRUNCATE on every relation is refused; the only
    write grant is INSERT on the trace tables (row-level security keeps those rows in the caller's tenant), and
    audit rows go in only through app.record_audit(), for the transaction's tenant."""
    with psycopg.connect(built.settings.admin_url) as admin:
        relations = admin.execute(
            "select n.nspname || '.' || c.relname, c.relkind, "
            " (select a.attname from pg_attribute as a where a.attrelid = c.oid and a.attnum > 0"
            "  and not a.attisdropped and a.attidentity = '' and a.attgenerated = '' order by a.attnum limit 1)"
            " from pg_class as c join pg_namespace as n on n.oid = c.relnamespace"
            " where c.relkind in ('r', 'p', 'v', 'm', 'f')"
            " and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')"
            " and n.nspname not like 'pg_temp%%' order by 1"
        ).fetchall()
    assert any(name == "marts.spend_monthly_rollup" for name, _, _ in relations)
    allowed: set[tuple[str, str]] = set()
    with psycopg.connect(built.settings.app_url) as conn:
        assert conn.info.host == "127.0.0.1"
        for name, kind, column in relations:
            target = ".".join(f'"{part}"' for part in name.split(".", 1))
            attacks = {
                "insert": f"insert into {target} default values",
                "update": f'update {target} set "{column}" = "{column}" where false',
                "delete": f"delete from {target} where false",
            }
            if kind in ("r", "p"):
                attacks["truncate"] = f"truncate {target}"
            for verb, statement in attacks.items():
                try:
                    with conn.transaction():
                        conn.execute("select app.begin_tenant_scope(%s, false, '5s')", (built.tenant,))
                        conn.execute(statement)  # type: ignore[arg-type]  # built from catalog names
                        raise _Rollback
                except _Rollback:
                    allowed.add((name, verb))
                except psycopg.errors.InsufficientPrivilege:
                    continue
                except psycopg.Error:
                    # On a table the privilege check came first and passed (a constraint stopped the row). A view
                    # that is not auto-updatable is refused by the rewriter before any privilege check, so the
                    # catalog's answer below is what covers views.
                    if kind != "v":
                        allowed.add((name, verb))
        # The audit function writes the transaction's tenant, whatever the caller claims elsewhere.
        with conn.transaction():
            conn.execute("select app.begin_tenant_scope(%s, false, '5s')", (built.tenant,))
            conn.execute(
                "select app.record_audit('attacker', null, 'api', 'x.y', '{}'::jsonb, '{}', null, 0, 0, 'ok', null)"
            )
    # Every attack was refused with insufficient_privilege: by the grants, or on the trace tables (the one INSERT
    # the role holds, below) by their row-level security check, since the row is not the transaction's tenant's.
    assert allowed == set()
    with psycopg.connect(built.settings.admin_url) as admin:
        granted = admin.execute(
            "select n.nspname || '.' || c.relname, p.privilege_type"
            " from pg_class as c join pg_namespace as n on n.oid = c.relnamespace"
            " cross join lateral (values ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE')) as p(privilege_type)"
            " where c.relkind in ('r', 'p', 'v', 'm', 'f')"
            " and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')"
            " and has_table_privilege('procura_app', c.oid, p.privilege_type)"
        ).fetchall()
    assert set(granted) == {(t, "INSERT") for t in TRACE_TABLES}
    with psycopg.connect(built.settings.admin_url) as admin:
        written = admin.execute("select tenant_id from app.audit_log where principal_id = 'attacker'").fetchall()
    assert written == [(built.tenant,)]


class _Rollback(Exception):
    """A statement the serving role was allowed to run; its transaction is rolled back."""


def test_the_async_service_answers_and_audits_as_the_sync_one(built: Built, app: psycopg.Connection) -> None:
    """MetricService.aquery (the HTTP route's path): the same answer, one audit row per outcome, and a failed
    audit fails the request."""
    service = MetricService(built.registry, statement_timeout_ms=10_000, row_cap=10_000)
    principal = unique_tenant("async")
    ctx = AuthContext(tenant_id=built.tenant, principal_id=principal, scopes=frozenset({"invoice:aggregate"}))
    answered = {"company_id": "COMP-A", "start_date": "2024-01-01", "end_date": "2025-01-01"}
    expected = service.query(app, ctx, "finance.company_spend", answered, group_by=["supplier_id"])

    async def scenario() -> tuple[Any, ...]:
        async with await psycopg.AsyncConnection.connect(built.settings.app_url, autocommit=True) as conn:
            result = await service.aquery(conn, ctx, "finance.company_spend", answered, group_by=["supplier_id"])
            empty = await service.aquery(conn, ctx, "finance.company_spend", {**answered, "company_id": "COMP-Z"})
            with pytest.raises(ScopeError):
                await service.aquery(conn, replace(ctx, scopes=frozenset()), "finance.company_spend", answered)
            with audit.interface("bogus", "key-x"), pytest.raises(MetricExecutionError):  # type: ignore[arg-type]
                await service.aquery(conn, ctx, "finance.company_spend", answered)
            await service.arecord_rejection(conn, ctx, "finance.company_spend", error_code="tenant_in_request")
            assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
            return result, empty

    result, empty = asyncio.run(scenario())
    assert result.rows == expected.rows and result.status == "complete"
    assert empty.status == "no_data"
    rows = _audit_rows(built, principal)
    assert [(r[3], r[4]) for r in rows] == [
        ("ok", expected.row_count),  # the sync call
        ("ok", result.row_count),
        ("no_data", 0),
        ("forbidden", None),
        ("rejected", None),  # the tenant in the request; the failed audit left no row
    ]
