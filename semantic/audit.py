"""The audit trail of metric queries: one ``app.audit_log`` row per query, whatever its outcome.

Rows carry parameter names and sha256 hashes of their values, never the values: an auditor can tell that two
queries asked the same thing without the log becoming a copy of what was asked. The serving role appends rows
only through ``app.record_metric_audit()`` (no INSERT, UPDATE or DELETE on the table) and reads them back only
as a principal holding the ``tenant:admin`` scope of the same tenant (row-level security).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

import psycopg

from procura.db.session import AuthContext, tenant_transaction
from semantic.params import to_json_value

Outcome = Literal["ok", "partial", "no_data", "rejected", "forbidden", "not_found", "timeout", "error"]
ADMIN_SCOPE = "tenant:admin"
_MAX_NAMES = 50
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


@dataclass(frozen=True)
class AuditRecord:
    """What one query leaves in the audit log."""

    metric: str
    outcome: Outcome
    duration_ms: float
    route: Literal["api", "cli"] = "api"
    key_id: str | None = None
    parameter_hashes: Mapping[str, str] = field(default_factory=dict)
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    row_count: int | None = None
    error_code: str | None = None


def hash_value(value: Any) -> str:
    """sha256 of a value's canonical JSON (sorted keys, no spaces; dates ISO, decimals as strings)."""
    canonical = json.dumps(to_json_value(value), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def hash_parameters(values: Mapping[str, Any]) -> dict[str, str]:
    """Name -> value hash for up to 50 parameters; a name that is not an identifier is itself hashed."""
    hashed: dict[str, str] = {}
    for key in sorted(values, key=str)[:_MAX_NAMES]:
        name = str(key)
        label = name if _NAME.match(name) else "invalid:" + hash_value(name)[:16]
        hashed[label] = hash_value(values[key])
    return hashed


def record(conn: psycopg.Connection, ctx: AuthContext, entry: AuditRecord) -> None:
    """Append one audit row for ``ctx``'s tenant and principal.

    One statement, ``app.record_metric_audit()``: the serving role cannot write the table directly. The row is
    written before the caller gets its answer (a failed write fails the query), but its commit does not wait
    for the WAL flush; see migration 0011 for that trade-off.

    Args:
        conn: a serving-role connection in autocommit mode (the call is its own transaction).
        ctx: the authenticated context the query ran under.
        entry: what to record.
    """
    conn.execute(
        "select app.record_metric_audit(%s::text, %s::text, %s::text, %s::text, %s::text, %s::jsonb, %s::text[],"
        " %s::text, %s::integer, %s::numeric, %s::text, %s::text)",
        (
            ctx.tenant_id,
            ctx.principal_id,
            entry.key_id,
            entry.route,
            entry.metric[:200],
            json.dumps(dict(entry.parameter_hashes)),
            list(entry.group_by),
            entry.grain,
            entry.row_count,
            Decimal(str(round(entry.duration_ms, 3))),
            entry.outcome,
            entry.error_code,
        ),
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
