"""Traces: what the router decided and what every tool did, stored per tenant (``app.traces``,
``app.trace_steps``, ``app.runs``) and read back by the same tenant only (RLS, ``procura_app``)."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

import psycopg
from pydantic import BaseModel, ConfigDict

from procura.db.session import AuthContext, tenant_transaction
from router.errors import TraceNotFoundError


def to_json(value: Any) -> Any:
    """JSON-able form of pydantic models, dates, decimals and tuples (decimals as strings)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_json(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


@dataclass
class TraceRecorder:
    """Collects the ordered events of one ask in memory until :meth:`TraceStore.finish` writes them."""

    trace_id: uuid.UUID = field(default_factory=uuid.uuid4)
    events: list[tuple[str, str | None, dict[str, Any]]] = field(default_factory=list)

    def add(self, kind: str, payload: dict[str, Any], step_id: str | None = None) -> None:
        """Record one event (payload made JSON-able now, so later mutation cannot change the record)."""
        self.events.append((kind, step_id, to_json(payload)))


class TraceStore:
    """Writes and reads traces as the serving role, inside tenant transactions."""

    def start(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        recorder: TraceRecorder,
        *,
        interface: str,
        question: str,
        as_of: dt.date,
        routing: dict[str, Any],
    ) -> None:
        """Insert the trace row (status ``running``) so run rows can reference it."""
        with tenant_transaction(conn, ctx, read_only=False):
            conn.execute(
                """
                insert into app.traces (tenant_id, trace_id, principal_id, interface, question, as_of, status, routing)
                values (%s, %s, %s, %s, %s, %s, 'running', %s)
                """,
                (ctx.tenant_id, recorder.trace_id, ctx.principal_id, interface, question, as_of, json.dumps(routing)),
            )

    def record_attempt(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        *,
        run_id: uuid.UUID,
        trace_id: uuid.UUID,
        step_id: str,
        attempt: int,
        tool: str,
        status: str,
        arguments: Any,
        result: Any,
        error: str | None,
        duration_ms: float,
    ) -> None:
        """Persist one attempt of one plan step (the intermediate result of the run)."""
        with tenant_transaction(conn, ctx, read_only=False):
            conn.execute(
                """
                insert into app.runs (tenant_id, run_id, trace_id, step_id, attempt, tool, status, arguments, result,
                                      error, duration_ms)
                values (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                """,
                (
                    ctx.tenant_id, run_id, trace_id, step_id, attempt, tool, status,
                    json.dumps(to_json(arguments)), json.dumps(to_json(result)) if result is not None else None,
                    error, round(duration_ms, 3),
                ),
            )

    def finish(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        recorder: TraceRecorder,
        *,
        status: str,
        workflow: str,
        answer: dict[str, Any],
        duration_ms: float,
    ) -> None:
        """Write the events and the outcome in one transaction."""
        with tenant_transaction(conn, ctx, read_only=False), conn.cursor() as cur:
            cur.executemany(
                "insert into app.trace_steps (tenant_id, trace_id, seq, kind, step_id, payload) "
                "values (%s, %s, %s, %s, %s, %s)",
                [
                    (ctx.tenant_id, recorder.trace_id, seq, kind, step_id, json.dumps(payload))
                    for seq, (kind, step_id, payload) in enumerate(recorder.events, start=1)
                ],
            )
            cur.execute(
                """
                update app.traces set status = %s, workflow = %s, answer = %s, finished_at = now(), duration_ms = %s
                where tenant_id = %s and trace_id = %s
                """,
                (status, workflow, json.dumps(to_json(answer)), round(duration_ms, 3), ctx.tenant_id,
                 recorder.trace_id),
            )

    def read(
        self, conn: psycopg.Connection, ctx: AuthContext, trace_id: str, *, any_principal: bool = False
    ) -> TraceView:
        """The trace with its events and run rows, for ``ctx``'s tenant only, and ``ctx``'s principal only unless
        ``any_principal`` (an auditor's read).

        Raises:
            TraceNotFoundError: malformed id, or no such trace for this tenant (the same answer, so ids of other
                tenants cannot be probed).
        """
        try:
            key = uuid.UUID(trace_id)
        except ValueError as exc:
            raise TraceNotFoundError(f"trace {trace_id[:64]!r} not found") from exc
        with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=5000):
            row = conn.execute(
                """
                select trace_id, principal_id, interface, question, as_of, status, workflow, routing, answer,
                       created_at, finished_at, duration_ms
                from app.traces where trace_id = %s and (principal_id = %s or %s)
                """,
                (key, ctx.principal_id, any_principal),
            ).fetchone()
            if row is None:
                raise TraceNotFoundError(f"trace {trace_id!r} not found")
            steps = conn.execute(
                "select seq, kind, step_id, payload from app.trace_steps where trace_id = %s order by seq", (key,)
            ).fetchall()
            runs = conn.execute(
                """
                select run_id, step_id, attempt, tool, status, arguments, result, error, duration_ms
                from app.runs where trace_id = %s order by started_at, step_id, attempt
                """,
                (key,),
            ).fetchall()
        return TraceView(
            trace_id=str(row[0]),
            principal_id=row[1],
            interface=row[2],
            question=row[3],
            as_of=row[4],
            status=row[5],
            workflow=row[6],
            routing=row[7],
            answer=row[8],
            created_at=row[9],
            finished_at=row[10],
            duration_ms=float(row[11]) if row[11] is not None else None,
            events=[TraceEvent(seq=s[0], kind=s[1], step_id=s[2], payload=s[3]) for s in steps],
            runs=[
                RunRow(run_id=str(r[0]), step_id=r[1], attempt=r[2], tool=r[3], status=r[4], arguments=r[5],
                       result=r[6], error=r[7], duration_ms=float(r[8]))
                for r in runs
            ],
        )


class TraceEvent(BaseModel):
    """One ordered event of a trace."""

    model_config = ConfigDict(frozen=True)

    seq: int
    kind: str
    step_id: str | None
    payload: Any


class RunRow(BaseModel):
    """One attempt of one plan step, with its intermediate result."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    step_id: str
    attempt: int
    tool: str
    status: str
    arguments: Any
    result: Any
    error: str | None
    duration_ms: float


class TraceView(BaseModel):
    """A stored trace as ``GET /v1/traces/{id}`` returns it."""

    model_config = ConfigDict(frozen=True)

    trace_id: str
    principal_id: str
    interface: str
    question: str
    as_of: dt.date
    status: str
    workflow: str | None
    routing: Any
    answer: Any
    created_at: dt.datetime
    finished_at: dt.datetime | None
    duration_ms: float | None
    events: list[TraceEvent]
    runs: list[RunRow]
