"""The audit trail of metric queries: one ``app.audit_log`` row per query, whatever its outcome.

Rows carry parameter names and keyed hashes (HMAC-SHA256 with the server secret) of their values, never the
values: an auditor can tell that two queries asked the same thing without the log becoming a copy of what was
asked, and a company id, a date or a currency cannot be recovered by hashing guesses without the key. The
serving role appends rows only through ``app.record_audit()`` inside a tenant transaction, which takes the
row's tenant from the transaction (no INSERT, UPDATE or DELETE on the table, no tenant argument), and reads them
back only as a principal holding the ``tenant:admin`` scope of the same tenant (row-level security).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

import psycopg

from procura.db.pipeline import aexecute_pipelined
from procura.db.session import AuthContext, idle_autocommit, scope_statement, tenant_transaction
from procura.errors import ProcuraError
from procura.keyed import keyed_hex, server_key
from semantic.params import to_json_value

Route = Literal["api", "cli", "mcp"]
Outcome = Literal["ok", "partial", "no_data", "rejected", "forbidden", "not_found", "timeout", "error"]

#: The audit outcome of a refused call, by the HTTP status its error carries (anything else: ``error``).
_OUTCOME_BY_STATUS: dict[int, Outcome] = {403: "forbidden", 404: "not_found", 422: "rejected", 504: "timeout"}


def outcome_of(exc: BaseException) -> tuple[Outcome, str]:
    """The outcome and code a failed call's audit row gets: read from the error family, as the HTTP answer is."""
    if isinstance(exc, ProcuraError) and exc.error_code != "internal_error":
        return _OUTCOME_BY_STATUS.get(exc.http_status, "error"), exc.error_code
    return "error", "internal_error"


ADMIN_SCOPE = "tenant:admin"
_MAX_NAMES = 50
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


@dataclass(frozen=True)
class AuditRecord:
    """What one query leaves in the audit log."""

    metric: str
    outcome: Outcome
    duration_ms: float
    route: Route = "api"
    key_id: str | None = None
    parameter_hashes: Mapping[str, str] = field(default_factory=dict)
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    row_count: int | None = None
    error_code: str | None = None


#: The interface a call came through, when it is not the caller's default (set by the MCP server around a call).
_INTERFACE: ContextVar[tuple[Route, str | None] | None] = ContextVar("procura_audit_interface", default=None)


@contextmanager
def interface(route: Route, key_id: str | None) -> Iterator[None]:
    """Label every audit row written in this context (this thread) with ``route`` and ``key_id``.

    Design note: the tools below an interface (router.tools, the metric service) pass ``route="api"``; the MCP
    server wraps its calls in this instead of threading a route argument through every tool.
    """
    token = _INTERFACE.set((route, key_id))
    try:
        yield
    finally:
        _INTERFACE.reset(token)


def hash_value(value: Any) -> str:
    """Keyed hash (HMAC-SHA256, server secret) of a value's canonical JSON (sorted keys, no spaces; dates ISO,
    decimals as strings)."""
    try:
        # Design note: the same few values (a company, a date range, a status list) are hashed on every call of a
        # dashboard; a bound value is a str, date, Decimal, int, bool, None or a tuple of them, and its repr (with
        # its type's name and the key) tells apart the values whose JSON differs (True and 1, "1" and 1).
        return _cached_hash(server_key(), type(value).__name__, repr(value), value)
    except TypeError:  # unhashable (a list or dict sent before binding)
        return _hash(value)


def _hash(value: Any) -> str:
    canonical = json.dumps(to_json_value(value), sort_keys=True, separators=(",", ":"), default=str)
    return keyed_hex("audit-parameter", canonical)


@functools.lru_cache(maxsize=4096)
def _cached_hash(key: bytes, type_name: str, text: str, value: Any) -> str:
    canonical = json.dumps(to_json_value(value), sort_keys=True, separators=(",", ":"), default=str)
    return keyed_hex("audit-parameter", canonical, key)


def hash_parameters(values: Mapping[str, Any]) -> dict[str, str]:
    """Name -> value hash for up to 50 parameters; a name that is not an identifier is itself hashed."""
    return {label: hash_value(values[key]) for key, label in _labels(tuple(values), server_key())}


@functools.lru_cache(maxsize=1024)
def _labels(names: tuple[Any, ...], key: bytes) -> tuple[tuple[Any, str], ...]:
    # Which names are logged and under which label: the same few name sets (a metric's parameters) every call.
    labelled = []
    for name in sorted(names, key=str)[:_MAX_NAMES]:
        text = str(name)
        labelled.append((name, text if _NAME.match(text) else "invalid:" + _hash_with(key, text)[:16]))
    return tuple(labelled)


def _hash_with(key: bytes, value: Any) -> str:
    canonical = json.dumps(to_json_value(value), sort_keys=True, separators=(",", ":"), default=str)
    return keyed_hex("audit-parameter", canonical, key)


#: The call that appends one row (the tenant comes from the transaction; see migration 0042).
RECORD_SQL = (
    "select app.record_audit(%s::text, %s::text, %s::text, %s::text, %s::jsonb, %s::text[], %s::text,"
    " %s::integer, %s::numeric, %s::text, %s::text)"
)


def effective_route(entry: AuditRecord) -> tuple[Route, str | None]:
    """The route and key id a row is written with (an :func:`interface` overrides the caller's)."""
    override = _INTERFACE.get()
    if override is not None:
        return override[0], entry.key_id or override[1]
    return entry.route, entry.key_id


def record(conn: psycopg.Connection, ctx: AuthContext, entry: AuditRecord) -> None:
    """Append one audit row for ``ctx``'s tenant and principal.

    A tenant transaction and ``app.record_audit()``: the serving role cannot write the table directly, and the
    row's tenant is the transaction's. The row is written before the caller gets its answer (a failed write
    fails the query), but its commit does not wait for the WAL flush; see migration 0011 for that trade-off.

    Args:
        conn: an idle serving-role connection in autocommit mode.
        ctx: the authenticated context the query ran under.
        entry: what to record (route and key id are overridden inside :func:`interface`).
    """
    statement, values = RECORD_SQL, _record_values(entry, ctx)
    if idle_autocommit(conn):
        with tenant_transaction(conn, ctx, read_only=False):
            conn.execute(statement, values)
        return
    # A caller's open transaction (a refused query audits on the connection it was given): the tenant is set
    # for this one call and the previous value put back, so nothing outlives the audit row.
    previous = conn.execute("select current_setting('app.tenant_id', true)").fetchone()
    conn.execute("select set_config('app.tenant_id', %s, true)", (ctx.tenant_id,))
    conn.execute(statement, values)
    conn.execute("select set_config('app.tenant_id', %s, true)", (previous[0] if previous else None,))


async def arecord(conn: psycopg.AsyncConnection, ctx: AuthContext, entry: AuditRecord) -> None:
    """:func:`record` on an idle asyncio connection in autocommit mode: the tenant scope and the row in one
    pipelined round trip (:func:`procura.db.pipeline.aexecute_pipelined`)."""
    scope = scope_statement(ctx, read_only=False)
    await aexecute_pipelined(conn, [scope, (RECORD_SQL, _record_values(entry, ctx))])


def _record_values(entry: AuditRecord, ctx: AuthContext) -> tuple[Any, ...]:
    route, key_id = effective_route(entry)
    return (
        ctx.principal_id,
        key_id,
        route,
        entry.metric[:200],
        json.dumps(dict(entry.parameter_hashes)),
        list(entry.group_by),
        entry.grain,
        entry.row_count,
        Decimal(str(round(entry.duration_ms, 3))),
        entry.outcome,
        entry.error_code,
    )


@dataclass(frozen=True)
class AuditEntry:
    """One audit row as read back by a tenant admin."""

    audit_id: int
    occurred_at: dt.datetime
    principal_id: str
    key_id: str | None
    route: str
    metric: str
    parameter_hashes: Mapping[str, str]
    group_by: tuple[str, ...]
    grain: str | None
    row_count: int | None
    duration_ms: float
    outcome: str
    error_code: str | None


def read(conn: psycopg.Connection, ctx: AuthContext, *, limit: int = 100) -> list[AuditEntry]:
    """The tenant's most recent audit rows, newest first.

    The database decides visibility: the row-level policy shows rows only to the same tenant and only when
    the transaction's scopes include ``tenant:admin``; for anyone else the list is empty.
    """
    limit = max(1, min(int(limit), 1000))
    with tenant_transaction(conn, ctx, read_only=True):
        conn.execute("select set_config('app.principal_scopes', %s, true)", (",".join(sorted(ctx.scopes)),))
        rows = conn.execute(
            """
            select audit_id, occurred_at, principal_id, key_id, route, metric, parameter_hashes, group_by,
                   grain, row_count, duration_ms, outcome, error_code
            from app.audit_log
            order by occurred_at desc, audit_id desc
            limit %s
            """,
            (limit,),
        ).fetchall()
    return [
        AuditEntry(
            audit_id=r[0],
            occurred_at=r[1],
            principal_id=r[2],
            key_id=r[3],
            route=r[4],
            metric=r[5],
            parameter_hashes=r[6],
            group_by=tuple(r[7]),
            grain=r[8],
            row_count=r[9],
            duration_ms=float(r[10]),
            outcome=r[11],
            error_code=r[12],
        )
        for r in rows
    ]
