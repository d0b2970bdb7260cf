"""Running a compiled metric query for one tenant and shaping its typed result.

The query runs on a connection of the serving role in a transaction scoped by
:func:`procura.db.session.scope_statement`: ``app.tenant_id`` from the authenticated context (row-level security
does the tenant filtering), ``statement_timeout`` and a row cap; READ ONLY unless the statement also writes the
call's audit row (:func:`audited_sql`). Values are bound by psycopg; the SQL text is the one compiled at load.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any, Literal

import psycopg
from psycopg import errors as pg_errors
from pydantic import BaseModel, ConfigDict
from sqlglot import exp

from procura.db.pipeline import (
    Dumped,
    Statement,
    TextRows,
    aexecute_pipelined,
    aexecute_pipelined_text,
    dump,
    execute_pipelined,
)
from procura.db.session import AuthContext, scope_statement
from procura.errors import AuthorizationError
from semantic import audit
from semantic.audit import AuditRecord
from semantic.compile import COVERAGE, PERIOD, SOURCE_COUNT, SOURCE_IDS, CompiledQuery
from semantic.errors import MetricExecutionError, MetricTimeoutError
from semantic.loader import Metric
from semantic.model import OutputSpec, parameter_ref
from semantic.params import BoundParameters
from semantic.rollups import LINES

log = logging.getLogger(__name__)
#: The start of the server's message when a transaction is scoped on a role other than the serving roles.
_ROLE_CHECK = "tenant transactions must run as"

Status = Literal["complete", "partial", "no_data"]
JsonScalar = str | int | bool | None


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ColumnInfo(_Frozen):
    """One column of the result: its role, type and unit."""

    name: str
    kind: Literal["dimension", "period", "output"]
    type: str
    unit: str | None = None


class Provenance(_Frozen):
    """The source records behind one row: up to ``cap`` ids, with the full count."""

    source_line_ids: tuple[str, ...]
    source_line_count: int
    truncated: bool


class Coverage(_Frozen):
    """Which requested keys contributed data; a non-empty ``missing`` makes the result partial."""

    parameter: str
    requested: tuple[str, ...]
    calculated: tuple[str, ...]
    missing: tuple[str, ...]


class ResultRow(_Frozen):
    """One result row: typed values (money and decimals as strings) and its provenance."""

    values: dict[str, JsonScalar]
    provenance: Provenance | None = None


class MetricResult(_Frozen):
    """The typed answer of one metric query.

    ``status`` is ``no_data`` when nothing matched (a total of ``"0.00"`` with ``complete`` means matched lines
    summing to zero), ``partial`` when some requested keys (see ``coverage``) had no data.
    """

    metric: str
    status: Status
    parameters: dict[str, Any]
    group_by: tuple[str, ...]
    grain: str | None
    currency: str | None
    policy: dict[str, Any]
    columns: tuple[ColumnInfo, ...]
    rows: tuple[ResultRow, ...]
    row_count: int
    truncated: bool
    matched_line_count: int | None
    coverage: Coverage | None
    duration_ms: float
    #: The governed relation the numbers were computed from: the lines or a rollup of them.
    answered_from: str = ""


#: audited_sql's text per (metric, compiled SQL, row cap): built once, not on every call (bounded: the compiled
#: variants and relations of a registry are finite; a new registry brings new keys).
_AUDITED_SQL: dict[tuple[str, str, int], str] = {}
_AUDITED_SQL_MAX = 4096


def audited_sql(metric: Metric, query: CompiledQuery, row_cap: int) -> str:
    """``query`` with its audit row written by the same statement (psycopg text, ``%(_audit_*)s`` values).

    The query's rows are materialized, the audit row is appended through ``app.record_audit()`` with the row
    count and outcome computed from them by the rules of :func:`shape` (an ungrouped aggregate over no lines
    is no data; requested coverage keys without rows make it partial), and the rows come back in order with
    two extra columns: ``_present`` (NULL when there were none) and ``_ord``. If the audit call fails, the
    statement fails and no row reaches the caller.
    """
    key = (metric.name, query.sql, int(row_cap))
    text = _AUDITED_SQL.get(key)
    if text is None:
        text = _audited_sql(metric, query, row_cap)
        if len(_AUDITED_SQL) >= _AUDITED_SQL_MAX:
            _AUDITED_SQL.clear()
        _AUDITED_SQL[key] = text
    return text


def _audited_sql(metric: Metric, query: CompiledQuery, row_cap: int) -> str:
    definition = metric.definition
    match = next((n for n, o in definition.outputs.items() if o.role == "match_count"), None)
    ungrouped = not query.variant.group_by and query.variant.grain is None
    if ungrouped and row_cap >= 1 and _one_row(query.tree):
        return _audited_one_row(metric, query, match)
    kept = f"_ord <= {int(row_cap)}"
    if match is not None and ungrouped:
        kept += f" and {match} <> 0"
    missing = "false"
    if definition.coverage is not None:
        requested = f"cast(%({definition.coverage.parameter})s as text[])"
        missing = (
            f"exists (select 1 from unnest(coalesce({requested}, '{{}}')) as k where k <> all(coalesce("
            f"(select array_agg(c) from result, unnest({COVERAGE}) as c where {kept}), '{{}}')))"
        )
    return (
        "with result as materialized (select q.*, 1 as _present, row_number() over () as _ord"
        f" from ({query.sql}) as q),"
        f" counted as materialized (select count(*) filter (where {kept}) as n from result),"
        " audited as materialized (select app.record_audit(%(_audit_principal)s::text, %(_audit_key)s::text,"
        " %(_audit_route)s::text, %(_audit_metric)s::text, %(_audit_hashes)s::jsonb, %(_audit_group_by)s::text[],"
        " %(_audit_grain)s::text, (select n from counted)::integer,"
        " (extract(epoch from clock_timestamp() - now()) * 1000)::numeric(12, 3),"
        f" case when (select n from counted) = 0 then 'no_data' when {missing} then 'partial' else 'ok' end,"
        " null::text) as done)"
        " select result.* from audited left join result on true order by result._ord"
    )


def _one_row(tree: exp.Expression) -> bool:
    """Whether a compiled query always yields exactly one row: an aggregate over any rows without GROUP BY,
    HAVING or a set-returning function beside its aggregates, or a plain projection of such a query (the rollup
    rewrite's outer select). Anything else takes the general form."""
    if not isinstance(tree, exp.Select) or tree.args.get("group") or tree.args.get("having"):
        return False
    if tree.args.get("distinct") or tree.args.get("offset") or not tree.expressions:
        return False
    projections = [p.unalias() for p in tree.expressions]
    outside_subqueries = [n for p in projections for n in p.walk(prune=lambda n: isinstance(n, exp.Subquery))]
    # a set-returning function or a window function gives a row per input row, aggregate or not
    if any(isinstance(n, exp.Unnest | exp.Explode | exp.Window) for n in outside_subqueries):
        return False
    if all(p.find(exp.AggFunc) is not None for p in projections):
        return True
    source = tree.args.get("from") or tree.args.get("from_")
    inner = source.this if source is not None else None
    if not isinstance(inner, exp.Subquery) or tree.args.get("joins") or tree.args.get("where"):
        return False
    return _one_row(inner.this) and not any(isinstance(n, exp.AggFunc) for n in outside_subqueries)


def _audited_one_row(metric: Metric, query: CompiledQuery, match: str | None) -> str:
    """:func:`audited_sql` for a query that yields exactly one row (:func:`_one_row`): the audit call is made
    once, in the select list of that row, instead of over a materialized result.

    Design note: the general form materializes the result, numbers its rows, counts them and joins the audit
    call back; for the one row of an ungrouped aggregate that is work for nothing (bench/metric_api.py's
    seed-like question measured it). A LEFT JOIN from a one-row relation keeps the call (and so the audit row,
    with outcome no_data) even if the query returned no row; the outcome rules are :func:`_audited_sql`'s.
    """
    definition = metric.definition
    kept = 'r."_present" is not null'
    if match is not None:
        kept += f' and r."{match}" <> 0'
    kept = f"coalesce({kept}, false)"
    missing = "false"
    if definition.coverage is not None:
        requested = f"cast(%({definition.coverage.parameter})s as text[])"
        missing = (
            f"exists (select 1 from unnest(coalesce({requested}, '{{}}')) as k where k <> all(coalesce("
            f"case when {kept} then r.\"{COVERAGE}\" end, '{{}}')))"
        )
    return (
        "select r.*, app.record_audit(%(_audit_principal)s::text, %(_audit_key)s::text, %(_audit_route)s::text,"
        " %(_audit_metric)s::text, %(_audit_hashes)s::jsonb, %(_audit_group_by)s::text[], %(_audit_grain)s::text,"
        f" (case when {kept} then 1 else 0 end)::integer,"
        " (extract(epoch from clock_timestamp() - now()) * 1000)::numeric(12, 3),"
        f" case when not {kept} then 'no_data' when {missing} then 'partial' else 'ok' end, null::text) as \"_ord\""
        f' from (select 1) as "_one" left join lateral (select q.*, 1 as "_present" from ({query.sql}) as q) as r'
        " on true"
    )


def run(
    conn: psycopg.Connection,
    ctx: AuthContext,
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    *,
    statement_timeout_ms: int,
    row_cap: int,
    audit_entry: AuditRecord | None = None,
    dumped: Dumped | None = None,
) -> MetricResult:
    """Execute ``query`` for ``ctx``'s tenant and return the typed result.

    Args:
        conn: a ``procura_app`` connection in autocommit mode, not in a transaction.
        ctx: the authenticated context; its tenant is the only tenant the query can see.
        metric: the loaded metric (output types, policy, provenance and coverage settings).
        query: the compiled variant to run.
        params: bound parameter values.
        statement_timeout_ms: ``statement_timeout`` for this transaction.
        row_cap: at most this many rows are returned; ``truncated`` says when more existed.
        audit_entry: when given, the audit row is written by the query's own statement, in the same pipelined
            transaction (one network round trip; a failed audit fails the query). That transaction is then not
            READ ONLY: the serving role holds SELECT on the marts and may append audit rows through
            ``app.record_audit()``, nothing else, and templates are validated read-only.
        dumped: the call's statements as :func:`call_statements` made them for these same arguments, dumped
            (:func:`procura.db.pipeline.dump`); built here when not given.

    Raises:
        MetricTimeoutError: the statement timeout cancelled the query.
        MetricExecutionError: any other database failure (logged with details; the message is generic).
    """
    started = time.perf_counter()
    dumped = _prepared(conn, ctx, metric, query, params, statement_timeout_ms, row_cap, audit_entry, dumped)
    try:
        raw_rows: list[Any] = execute_pipelined(conn, dumped)
    except psycopg.Error as exc:
        raise _failure(exc, metric, statement_timeout_ms) from exc
    return _finish(metric, query, params, raw_rows, started, row_cap, audited=audit_entry is not None)


async def arun(
    conn: psycopg.AsyncConnection,
    ctx: AuthContext,
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    *,
    statement_timeout_ms: int,
    row_cap: int,
    audit_entry: AuditRecord | None = None,
    dumped: Dumped | None = None,
) -> MetricResult:
    """:func:`run` on an asyncio connection (the same statements, checks and result)."""
    started = time.perf_counter()
    dumped = _prepared(conn, ctx, metric, query, params, statement_timeout_ms, row_cap, audit_entry, dumped)
    try:
        raw_rows: list[Any] = await aexecute_pipelined(conn, dumped)
    except psycopg.Error as exc:
        raise _failure(exc, metric, statement_timeout_ms) from exc
    return _finish(metric, query, params, raw_rows, started, row_cap, audited=audit_entry is not None)


async def arun_json(
    conn: psycopg.AsyncConnection,
    ctx: AuthContext,
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    *,
    statement_timeout_ms: int,
    row_cap: int,
    audit_entry: AuditRecord | None = None,
    dumped: Dumped | None = None,
) -> bytes:
    """:func:`arun`, with the answer as the JSON of its :class:`MetricResult` (what ``model_dump_json`` gives, up
    to the formatting of numbers) instead of the model: the HTTP route's path (:func:`shape_json`)."""
    started = time.perf_counter()
    dumped = _prepared(conn, ctx, metric, query, params, statement_timeout_ms, row_cap, audit_entry, dumped)
    try:
        answer = await aexecute_pipelined_text(conn, dumped)
    except psycopg.Error as exc:
        raise _failure(exc, metric, statement_timeout_ms) from exc
    before, after = _answer_json(metric, query, params, answer, row_cap, audited=audit_entry is not None)
    # float's repr is the JSON text json.dumps writes for a finite float (shape_json's)
    return before + repr(round((time.perf_counter() - started) * 1000, 3)).encode() + after


#: What _answer_json made of the last answer of a bound request, by the answer's bytes: per (metric, query, bound
#: values, row cap, audited) objects, the objects, the rows' bytes and the JSON before and after the duration.
_ANSWERS: dict[
    tuple[int, int, int, int, bool],
    tuple[Metric, CompiledQuery, BoundParameters, tuple[tuple[bytes | None, ...], ...], tuple[bytes, bytes]],
] = {}
#: Answers of more rows than this are shaped on every call (comparing and keeping them is not worth it).
_ANSWER_ROWS_MAX = 64


def _answer_json(
    metric: Metric, query: CompiledQuery, params: BoundParameters, answer: TextRows, row_cap: int, *, audited: bool
) -> tuple[bytes, bytes]:
    """:func:`shape_json`'s answer for ``answer``'s rows, before and after its duration.

    Design note: the JSON is a pure function of the request (the bound objects the service keeps per request)
    and the rows; rows that arrive as the same bytes as the request's previous answer load to the same values, so
    their JSON is the one made then. The rows are read from the database on every call (and the audit row
    written); only loading and shaping equal bytes again is skipped, which was most of the route's own Python per
    call (docs/benchmarks.md, "Metric API, eighth pass").
    """
    if answer.ntuples > _ANSWER_ROWS_MAX:
        rows, truncated = _answer_rows(answer.load(), row_cap, audited=audited)
        return _json_parts(metric, query, params, rows, truncated=truncated)
    values = answer.values()
    key = (id(metric), id(query), id(params), row_cap, audited)
    found = _ANSWERS.get(key)
    if (found is not None and found[0] is metric and found[1] is query and found[2] is params
            and found[3] == values):  # fmt: skip
        return found[4]
    rows, truncated = _answer_rows(answer.load(), row_cap, audited=audited)
    parts = _json_parts(metric, query, params, rows, truncated=truncated)
    if len(_ANSWERS) >= _COLUMNS_MAX:
        _ANSWERS.clear()
    _ANSWERS[key] = (metric, query, params, values, parts)
    return parts


def _prepared(
    conn: psycopg.Connection | psycopg.AsyncConnection,
    ctx: AuthContext,
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    statement_timeout_ms: int,
    row_cap: int,
    audit_entry: AuditRecord | None,
    dumped: Dumped | None,
) -> Dumped:
    """What :func:`run`, :func:`arun` and :func:`arun_json` do before their one round trip (no I/O): check the
    connection is idle and dump the call's statements unless the caller already has them."""
    _check_idle(conn)
    if dumped is not None:
        return dumped
    return dump(conn, call_statements(ctx, metric, query, params, statement_timeout_ms, row_cap, audit_entry))


def _answer_rows(raw_rows: list[Any], row_cap: int, *, audited: bool) -> tuple[list[Any], bool]:
    """The query's own rows, capped, and whether more existed."""
    if audited:
        # the two trailing columns of audited_sql; one all-NULL row when the query had none
        raw_rows = [row[:-2] for row in raw_rows if row[-2] is not None]
    return raw_rows[:row_cap], len(raw_rows) > row_cap


def _check_idle(conn: psycopg.Connection | psycopg.AsyncConnection) -> None:
    # Design note: libpq's status read directly; conn.info.transaction_status builds a ConnectionInfo and an enum
    # on every access (1.6 us against 0.03 us here), and this runs on every metric call.
    if not conn.autocommit or conn.pgconn.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        # Design note: the scope below lives in the call's implicit transaction; inside an open transaction it
        # would outlive this query.
        raise MetricExecutionError("metric queries need an autocommit connection that is not in a transaction")


def call_statements(
    ctx: AuthContext,
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    statement_timeout_ms: int,
    row_cap: int,
    audit_entry: AuditRecord | None,
) -> list[Statement]:
    """The call's two statements: the tenant scope, then the (audited) query with its values."""
    bind = params.for_binding()
    bind["_row_limit"] = row_cap + 1
    sql_text = query.sql
    if audit_entry is not None:
        sql_text = audited_sql(metric, query, row_cap)
        route, key_id = audit.effective_route(audit_entry)
        bind.update(
            _audit_principal=ctx.principal_id,
            _audit_key=key_id,
            _audit_route=route,
            _audit_metric=audit_entry.metric[:200],
            _audit_hashes=json.dumps(dict(audit_entry.parameter_hashes)),
            _audit_group_by=list(audit_entry.group_by),
            _audit_grain=audit_entry.grain,
        )
    scope_sql, scope_params = scope_statement(
        ctx, read_only=audit_entry is None, statement_timeout_ms=statement_timeout_ms
    )
    if query.relation != LINES:
        scope_sql += ", pg_catalog.set_config('plan_cache_mode', 'force_custom_plan', true)"
    # Design note: one network round trip, and no BEGIN or COMMIT. In the extended query protocol every
    # statement up to a Sync runs in one implicit transaction, and execute_pipelined sends both statements and
    # its only Sync in one write: the scope's transaction-local settings (tenant, timeout, READ ONLY unless the
    # statement writes the audit row) hold for the query and end at that Sync, committed or rolled back. A
    # failed scope check makes the server skip the query.
    # Both are server-side prepared statements (parsed and analyzed once per connection). A query answered from a
    # rollup is planned for its own values on every execution (the scope sets plan_cache_mode to
    # force_custom_plan for this transaction): at 200k lines the three-year question on the monthly rollup was
    # about 20% slower under plan_cache_mode=auto. A query over the lines keeps Postgres's default (custom plans
    # for the first five executions, then the generic plan where it costs no more): the marts keep no column
    # statistics (migration 0030), so a custom plan of the lines query is the same index scan, and planning it
    # again cost about 0.4-0.5 ms of backend CPU per call on the seed-like question (bench/metric_api.py), what
    # psycopg's own prepared statements (the raw reference) do not pay.
    return [(scope_sql, scope_params), (sql_text, bind)]


def _failure(exc: psycopg.Error, metric: Metric, statement_timeout_ms: int) -> Exception:
    """The error of the metric family a database failure becomes (the details are logged, not returned)."""
    if isinstance(exc, pg_errors.InsufficientPrivilege) and _ROLE_CHECK in str(exc):
        return AuthorizationError(str(exc.diag.message_primary))
    if isinstance(exc, pg_errors.QueryCanceled):
        return MetricTimeoutError(f"metric {metric.name} exceeded the statement timeout of {statement_timeout_ms} ms")
    log.error("metric %s failed: %s: %s", metric.name, type(exc).__name__, exc)
    return MetricExecutionError(f"metric {metric.name} failed in the database")


def _finish(
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    raw_rows: list[Any],
    started: float,
    row_cap: int,
    *,
    audited: bool,
) -> MetricResult:
    rows, truncated = _answer_rows(raw_rows, row_cap, audited=audited)
    duration_ms = (time.perf_counter() - started) * 1000
    return shape(metric, query, params, rows, truncated=truncated, duration_ms=duration_ms)


@dataclass(frozen=True)
class _ShapePlan:
    """What :func:`shape` needs of one metric and compiled query, worked out once: column positions, the output
    presenters and the policy's parameter references. Nothing in it depends on a request's values."""

    dims: tuple[tuple[str, int], ...]
    period: int | None
    outputs: tuple[tuple[str, int, Callable[[Any], JsonScalar]], ...]
    match: int | None
    ids: int | None
    count: int | None
    coverage: int | None
    ungrouped: bool
    policy: tuple[tuple[str, str | None, str], ...]


#: _shape_plan's answer per (metric object, relation, variant); see _columns for why keyed by the object's id.
_SHAPE_PLANS: dict[tuple[int, str, Any], tuple[Metric, CompiledQuery, _ShapePlan]] = {}


def _shape_plan(metric: Metric, query: CompiledQuery) -> _ShapePlan:
    key = (id(metric), query.relation, query.variant)
    found = _SHAPE_PLANS.get(key)
    if found is not None and found[0] is metric and found[1].columns == query.columns:
        return found[2]
    definition = metric.definition
    index = {name: i for i, name in enumerate(query.columns)}
    match_column = next((n for n, o in definition.outputs.items() if o.role == "match_count"), None)
    plan = _ShapePlan(
        dims=tuple((dim, index[dim]) for dim in query.variant.group_by),
        period=index[PERIOD] if query.variant.grain is not None else None,
        outputs=tuple((name, index[name], presenter(spec)) for name, spec in definition.outputs.items()),
        match=index[match_column] if match_column else None,
        ids=index[SOURCE_IDS] if definition.provenance is not None else None,
        count=index[SOURCE_COUNT] if definition.provenance is not None else None,
        coverage=index[COVERAGE] if definition.coverage is not None else None,
        ungrouped=not query.variant.group_by and query.variant.grain is None,
        policy=tuple((k, parameter_ref(text), text) for k, text in definition.policy.items()),
    )
    if len(_SHAPE_PLANS) >= _COLUMNS_MAX:
        _SHAPE_PLANS.clear()
    _SHAPE_PLANS[key] = (metric, query, plan)
    return plan


def _shaped(
    plan: _ShapePlan, metric: Metric, params: BoundParameters, raw_rows: Sequence[Sequence[Any]]
) -> tuple[list[tuple[dict[str, JsonScalar], tuple[tuple[str, ...], int] | None]], Status, Coverage | None, int]:
    """The rows (values, provenance ids and count), status, coverage and matched total of a result."""
    definition = metric.definition
    rows: list[tuple[dict[str, JsonScalar], tuple[tuple[str, ...], int] | None]] = []
    covered: set[str] = set()
    matched_total = 0
    for raw in raw_rows:
        match_count = int(raw[plan.match]) if plan.match is not None else None
        # An ungrouped aggregate always returns one row; with zero matched lines it is "no data", not a row.
        if match_count == 0 and plan.ungrouped:
            continue
        matched_total += match_count or 0
        row_values: dict[str, JsonScalar] = {dim: _scalar(raw[i]) for dim, i in plan.dims}
        if plan.period is not None:
            row_values[PERIOD] = _scalar(raw[plan.period])
        for name, i, show in plan.outputs:
            row_values[name] = show(raw[i])
        provenance = None
        if plan.ids is not None and plan.count is not None:
            provenance = (tuple(map(str, raw[plan.ids] or ())), int(raw[plan.count]))
        if plan.coverage is not None:
            covered.update(map(str, raw[plan.coverage] or ()))
        rows.append((row_values, provenance))

    coverage = None
    status: Status = "complete" if rows else "no_data"
    if definition.coverage is not None:
        requested = tuple(params.values[definition.coverage.parameter] or ())
        calculated = tuple(k for k in requested if k in covered)
        missing = tuple(k for k in requested if k not in covered)
        coverage = Coverage.model_construct(
            parameter=definition.coverage.parameter, requested=requested, calculated=calculated, missing=missing
        )
        if rows and missing:
            status = "partial"
    return rows, status, coverage, matched_total


def shape(
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    raw_rows: Sequence[Sequence[Any]],
    *,
    truncated: bool,
    duration_ms: float,
) -> MetricResult:
    """Turn database rows into a :class:`MetricResult` (pure; no database)."""
    definition = metric.definition
    values = params.values
    plan = _shape_plan(metric, query)
    shaped, status, coverage, matched_total = _shaped(plan, metric, params, raw_rows)
    rows = tuple(
        ResultRow.model_construct(
            values=row_values,
            provenance=None
            if provenance is None
            else Provenance.model_construct(
                source_line_ids=provenance[0],
                source_line_count=provenance[1],
                truncated=provenance[1] > len(provenance[0]),
            ),
        )
        for row_values, provenance in shaped
    )
    # Design note: model_construct, not validation: every value here was typed by this function (rows from the
    # database, parameters already bound), and this runs on every call.
    echo = params.as_json()
    return MetricResult.model_construct(
        metric=definition.name,
        status=status,
        parameters=echo,
        group_by=query.variant.group_by,
        grain=query.variant.grain,
        currency=str(values[definition.currency_parameter]) if definition.currency_parameter else None,
        policy={k: echo[ref] if ref is not None else text for k, ref, text in plan.policy},
        columns=_columns(metric, query, values),
        rows=rows,
        row_count=len(rows),
        truncated=truncated,
        matched_line_count=matched_total if plan.match is not None else None,
        coverage=coverage,
        duration_ms=round(duration_ms, 3),
        answered_from=query.relation,
    )


#: JSON text as pydantic-core writes a model's: no spaces, UTF-8 (not \u-escaped).
_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


@dataclass(frozen=True)
class _JsonFrame:
    """The parts of a result's JSON that depend only on the metric, the compiled query and the bound values."""

    head: bytes  # up to the status
    middle: bytes  # from the parameters up to the rows
    tail: bytes  # the relation that answered, to the end


#: _json_frame's answer per (metric, query, bound values) objects: a dashboard's bound requests are kept by the
#: service, so the same objects come back on every call (the entry keeps them alive; see _columns).
_FRAMES: dict[tuple[int, int, int], tuple[Metric, CompiledQuery, BoundParameters, _JsonFrame]] = {}


def _json_frame(metric: Metric, query: CompiledQuery, params: BoundParameters, plan: _ShapePlan) -> _JsonFrame:
    key = (id(metric), id(query), id(params))
    found = _FRAMES.get(key)
    if found is not None and found[0] is metric and found[1] is query and found[2] is params:
        return found[3]
    definition = metric.definition
    values = params.values
    echo = params.as_json()
    currency = str(values[definition.currency_parameter]) if definition.currency_parameter else None
    columns = [c.model_dump(mode="json") for c in _columns(metric, query, values)]
    policy = {k: echo[ref] if ref is not None else text for k, ref, text in plan.policy}
    middle = (
        f',"parameters":{_json(echo)},"group_by":{_json(list(query.variant.group_by))},'
        f'"grain":{_json(query.variant.grain)},"currency":{_json(currency)},"policy":{_json(policy)},'
        f'"columns":{_json(columns)},"rows":'
    )
    frame = _JsonFrame(
        head=f'{{"metric":{_json(definition.name)},"status":'.encode(),
        middle=middle.encode(),
        tail=f',"answered_from":{_json(query.relation)}}}'.encode(),
    )
    if len(_FRAMES) >= _COLUMNS_MAX:
        _FRAMES.clear()
    _FRAMES[key] = (metric, query, params, frame)
    return frame


def shape_json(
    metric: Metric,
    query: CompiledQuery,
    params: BoundParameters,
    raw_rows: Sequence[Sequence[Any]],
    *,
    truncated: bool,
    duration_ms: float,
) -> bytes:
    """:func:`shape`'s result as JSON, without building the models: the same keys in the same order and the same
    values (``json.loads`` of both is equal; tests/unit/test_semantic_execute_json.py).

    Design note: the HTTP route's answer is these bytes; building the four kinds of models and serializing them
    was most of shaping's cost per call, and its frame (parameters, policy, columns) is the same on every call of
    a dashboard's request. The documented response model (api.models.MetricQueryResponse) is unchanged.
    """
    before, after = _json_parts(metric, query, params, raw_rows, truncated=truncated)
    return before + _json(round(duration_ms, 3)).encode() + after


def _json_parts(
    metric: Metric, query: CompiledQuery, params: BoundParameters, raw_rows: Sequence[Sequence[Any]], *, truncated: bool
) -> tuple[bytes, bytes]:
    """:func:`shape_json`'s bytes before and after the duration's value."""
    plan = _shape_plan(metric, query)
    shaped, status, coverage, matched_total = _shaped(plan, metric, params, raw_rows)
    frame = _json_frame(metric, query, params, plan)
    rows = [
        {
            "values": row_values,
            "provenance": None
            if provenance is None
            else {
                "source_line_ids": provenance[0],
                "source_line_count": provenance[1],
                "truncated": provenance[1] > len(provenance[0]),
            },
        }
        for row_values, provenance in shaped
    ]
    cover = None
    if coverage is not None:
        cover = {"parameter": coverage.parameter, "requested": coverage.requested, "calculated": coverage.calculated,
                 "missing": coverage.missing}  # fmt: skip
    matched = matched_total if plan.match is not None else None
    rest = (
        f',"row_count":{len(rows)},"truncated":{_json(truncated)},"matched_line_count":{_json(matched)},'
        f'"coverage":{_json(cover)},"duration_ms":'
    )
    before = b"".join((frame.head, b'"', status.encode(), b'"', frame.middle, _json(rows).encode(), rest.encode()))
    return before, frame.tail


def presenter(spec: OutputSpec) -> Callable[[Any], JsonScalar]:
    """:func:`present` for one output spec, with its rounding step worked out once."""
    if spec.type == "money" or (spec.type in ("decimal", "quantity") and spec.scale is not None):
        # the same step as present()'s: money to its scale (2 when none or 0 is given), decimals to theirs
        places = (spec.scale or 2) if spec.type == "money" else spec.scale
        assert places is not None
        step = Decimal(1).scaleb(-places)

        def rounded(value: Any) -> JsonScalar:
            if value is None:
                return None
            number = value if type(value) is Decimal else Decimal(value)
            return str(number.quantize(step, rounding=ROUND_HALF_UP))

        return rounded
    return partial(present, spec)


def present(spec: OutputSpec, value: Any) -> JsonScalar:
    """One output value as JSON: money rounded half away from zero to 2 places and other decimals to their
    scale, both as strings; integers as ints; dates ISO; ``None`` stays ``None``."""
    if value is None:
        return None
    if spec.type == "money":
        return str(Decimal(value).quantize(Decimal(1).scaleb(-(spec.scale or 2)), rounding=ROUND_HALF_UP))
    if spec.type in ("decimal", "quantity"):
        number = Decimal(value)
        if spec.scale is not None:
            number = number.quantize(Decimal(1).scaleb(-spec.scale), rounding=ROUND_HALF_UP)
        return str(number)
    if spec.type == "integer":
        return int(value)
    return _scalar(value)


def _scalar(value: Any) -> JsonScalar:
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return str(value)


#: _columns' answer per (metric object, variant, output units): the same few on every call of a dashboard.
_COLUMNS: dict[tuple[int, Any, tuple[str | None, ...]], tuple[Metric, tuple[ColumnInfo, ...]]] = {}
_COLUMNS_MAX = 4096


def _columns(metric: Metric, query: CompiledQuery, values: Mapping[str, Any]) -> tuple[ColumnInfo, ...]:
    definition = metric.definition
    units: list[str | None] = []
    for spec in definition.outputs.values():
        ref = parameter_ref(spec.unit)
        units.append(str(values[ref]) if ref is not None and values.get(ref) is not None else spec.unit)
    # Design note: keyed by the metric object's id, kept alive by the entry itself (a registry reloaded with a
    # changed definition brings new objects, so an old entry can never answer for a new definition).
    key = (id(metric), query.variant, tuple(units))
    found = _COLUMNS.get(key)
    if found is not None and found[0] is metric:
        return found[1]
    columns = [ColumnInfo(name=d, kind="dimension", type=definition.dimensions[d].type) for d in query.variant.group_by]
    if query.variant.grain is not None:
        columns.append(ColumnInfo(name=PERIOD, kind="period", type="date"))
    for (name, spec), unit in zip(definition.outputs.items(), units, strict=True):
        columns.append(ColumnInfo(name=name, kind="output", type=spec.type, unit=unit))
    built = tuple(columns)
    if len(_COLUMNS) >= _COLUMNS_MAX:
        _COLUMNS.clear()
    _COLUMNS[key] = (metric, built)
    return built
