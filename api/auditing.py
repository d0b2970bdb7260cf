"""The audit row of an HTTP call, as one dependency shared by the search and ask routes.

Every call through these routes leaves one ``app.audit_log`` row, whatever its outcome, and fails closed: a call
whose row cannot be written is not answered. :data:`AuditDep` hands the route a :class:`RequestAudit` for the
authenticated principal; the route records its outcome before it answers (:meth:`RequestAudit.record`), or says
that the call writes the row itself in its own transaction (:meth:`RequestAudit.written_by_call`: a metric query
writes it in the same pipelined statement, one network round trip). When the route raises before either, the
dependency records the failure on the way out (best effort: the caller gets the original error either way), except
when the database itself is gone. The metric query route does not take it: the metric service writes the row of
every outcome itself (:mod:`semantic.service`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

import psycopg
from fastapi import Depends
from fastapi.concurrency import run_in_threadpool
from psycopg_pool import ConnectionPool

from api.deps import PoolDep, PrincipalDep
from procura.auth import Principal
from procura.errors import AuditWriteError, is_database_unavailable
from semantic import audit

log = logging.getLogger(__name__)


@dataclass
class RequestAudit:
    """The audit of one call: who, through which route, since when, and whether its row is written yet."""

    pool: ConnectionPool
    principal: Principal
    name: str = "request"
    started: float = field(default_factory=time.perf_counter)
    parameter_hashes: Mapping[str, str] = field(default_factory=dict)
    done: bool = False

    def describe(self, name: str, parameters: Mapping[str, Any]) -> None:
        """Name the call (``search``, ``ask``) and its parameters (stored as keyed hashes only)."""
        self.name = name
        self.parameter_hashes = audit.hash_parameters(parameters)

    def written_by_call(self) -> None:
        """The call writes its own row (the metric service, in the query's transaction); nothing is added here."""
        self.done = True

    def record(self, outcome: audit.Outcome, *, row_count: int | None = None, error_code: str | None = None) -> None:
        """Write the row now, in a tenant transaction of its own.

        Raises:
            AuditWriteError: the row could not be written; the call's result must be withheld.
        """
        self.done = True
        entry = audit.AuditRecord(
            metric=self.name,
            outcome=outcome,
            duration_ms=(time.perf_counter() - self.started) * 1000,
            route="api",
            key_id=self.principal.key_id,
            parameter_hashes=self.parameter_hashes,
            row_count=row_count,
            error_code=error_code,
        )
        try:
            with self.pool.connection() as conn:
                audit.record(conn, self.principal.context, entry)
        except psycopg.Error as exc:
            log.error("audit write failed for %s: %s", self.name, type(exc).__name__)
            raise AuditWriteError(f"the {self.name} call could not be audited; no result is returned") from exc


async def get_audit(pool: PoolDep, principal: PrincipalDep) -> AsyncIterator[RequestAudit]:
    """The call's :class:`RequestAudit`; a failure the route did not record is recorded on the way out.

    Design note: ``async`` so that the answered path costs no thread-pool hop; only the failure path, which
    writes, runs in the thread pool.
    """
    entry = RequestAudit(pool=pool, principal=principal)
    try:
        yield entry
    except Exception as exc:
        if not entry.done and not is_database_unavailable(exc):
            outcome, code = audit.outcome_of(exc)
            with contextlib.suppress(AuditWriteError):  # logged by record(); the caller gets the original error
                await run_in_threadpool(entry.record, outcome, error_code=code)
        raise


AuditDep = Annotated[RequestAudit, Depends(get_audit)]
