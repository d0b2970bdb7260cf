"""The metric service: the one code path behind the HTTP API and ``procura metrics``.

It looks the metric up, checks the principal's scope, binds parameters, picks the allow-listed variant and the
relation that answers it (the lines or a covering rollup, :mod:`semantic.rollups`), runs it for the principal's
tenant, and writes one audit row whatever the outcome (an answered query's in its own statement).

Example:
    >>> service = MetricService(registry, statement_timeout_ms=5000, row_cap=10_000)  # doctest: +SKIP
    >>> with pool.connection() as conn:  # doctest: +SKIP
    ...     result = service.query(conn, principal_ctx, "finance.aggregate_spend", {"company_id": "COMP-A", ...})
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import psycopg

from procura.db.session import AuthContext
from procura.settings import Settings
from semantic import audit
from semantic.currencies import check_currency
from semantic.errors import (
    MetricExecutionError,
    ParameterError,
    ScopeError,
)
from semantic.execute import MetricResult, run
from semantic.loader import Metric, MetricRegistry
from semantic.model import METRIC_NAME
from semantic.params import bind, check_partition
from semantic.rollups import RelationPlanner

log = logging.getLogger(__name__)
_METRIC_NAME = re.compile(METRIC_NAME)

def _audit_name(name: str) -> str:
    """The metric name for the audit log: as asked when it is a well-formed name, else a hash of it (so the
    log never stores arbitrary caller text)."""
    if _METRIC_NAME.match(name):
        return name
    return "invalid:" + audit.hash_value(name)[:16]


class MetricService:
    """Catalog and query operations over a loaded :class:`MetricRegistry`."""

    def __init__(self, registry: MetricRegistry, *, statement_timeout_ms: int, row_cap: int) -> None:
        self.registry = registry
        self.statement_timeout_ms = statement_timeout_ms
        self.row_cap = row_cap
        #: The relation-selection step: which governed relation (the lines or a rollup) answers a query.
        self.relations = RelationPlanner()

    @classmethod
    def from_settings(cls, registry: MetricRegistry, settings: Settings) -> MetricService:
        """A service with the statement timeout and row cap from settings."""
        return cls(registry, statement_timeout_ms=settings.statement_timeout_ms, row_cap=settings.row_cap)

    def catalog(self) -> list[Metric]:
        """Every metric, by name."""
        return sorted(self.registry, key=lambda m: m.name)

    def describe(self, name: str) -> Metric:
        """One metric.

        Raises:
            UnknownMetricError: no such metric.
        """
        return self.registry.get(name)

    def query(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        *,
        group_by: Sequence[str] = (),
        grain: str | None = None,
        route: Literal["api", "cli"] = "api",
        key_id: str | None = None,
        from_text: bool = False,
    ) -> MetricResult:
        """Run metric ``name`` for ``ctx``'s tenant and audit it.

        Args:
            conn: a serving-role connection in autocommit mode (used for the query and the audit row).
            ctx: the authenticated context (tenant, principal, scopes).
            name: the metric's name.
            parameters: the caller's parameter values.
            group_by: allow-listed dimensions to group by.
            grain: allow-listed time grain.
            route: where the request came from, for the audit log.
            key_id: the API key's public id, for the audit log.
            from_text: values are command-line strings (see :func:`semantic.params.bind`).

        Raises:
            UnknownMetricError, ScopeError, ParameterError, MetricTimeoutError, MetricExecutionError.
        """
        started = time.perf_counter()
        # Hashed lazily: a query refused before binding audits the values as sent, a bound one its bound values.
        hashes: Mapping[str, str] | None = None
        entry: dict[str, Any] = {"metric": _audit_name(name), "route": route, "key_id": key_id, "grain": None}
        try:
            metric = self.registry.get(name)
            if not ctx.has_scope(metric.definition.scope):
                raise ScopeError(f"metric {metric.name}", metric.definition.scope)
            if isinstance(group_by, str):
                raise ParameterError("group_by", "must be a list of dimension names")
            query = metric.variant(tuple(group_by), grain)
            entry["group_by"], entry["grain"] = query.variant.group_by, query.variant.grain
            params = bind(metric.definition.parameters, parameters, metric.definition.constraints,
                          from_text=from_text, offset=metric.definition.period_offset)  # fmt: skip
            check_partition(metric.definition.partition, query.variant.group_by, params.values)
            check_currency(metric.definition.currency_parameter, params.values)
            hashes = audit.hash_parameters(params.values)
            query = self.relations.select(
                metric.definition, query, params.values, metric.schema, self.relations.sizes(conn)
            )
            # Design note: the success row is written by the query's own statement, in the same pipelined
            # transaction (one network round trip, and a failed audit fails the query); only a refused or
            # failed query is audited separately below.
            pending = audit.AuditRecord(
                metric=entry["metric"], outcome="ok", duration_ms=0.0, route=route, key_id=key_id,
                parameter_hashes=hashes, group_by=tuple(entry["group_by"]), grain=entry["grain"],
            )  # fmt: skip
            result = run(
                conn,
                ctx,
                metric,
                query,
                params,
                statement_timeout_ms=self.statement_timeout_ms,
                row_cap=self.row_cap,
                audit_entry=pending,
            )
        except Exception as exc:
            outcome, code = audit.outcome_of(exc)
            self._audit(conn, ctx, entry, hashes or audit.hash_parameters(parameters), started, outcome=outcome,
                        error_code=code)  # fmt: skip
            raise
        return result

    def record_rejection(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        name: str,
        *,
        error_code: str,
        route: Literal["api", "cli"] = "api",
        key_id: str | None = None,
    ) -> None:
        """Audit a query the caller's front end refused before it reached :meth:`query` (e.g. a tenant_id in
        the request body), so that such attempts are on record too."""
        entry = {"metric": _audit_name(name), "route": route, "key_id": key_id, "grain": None}
        self._audit(conn, ctx, entry, {}, time.perf_counter(), outcome="rejected", error_code=error_code)

    def _audit(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        entry: Mapping[str, Any],
        hashes: Mapping[str, str],
        started: float,
        *,
        outcome: audit.Outcome,
        row_count: int | None = None,
        error_code: str | None = None,
    ) -> None:
        record = audit.AuditRecord(
            metric=entry["metric"],
            outcome=outcome,
            duration_ms=(time.perf_counter() - started) * 1000,
            route=entry["route"],
            key_id=entry["key_id"],
            parameter_hashes=hashes,
            group_by=tuple(entry.get("group_by", ())),
            grain=entry["grain"],
            row_count=row_count,
            error_code=error_code,
        )
        try:
            audit.record(conn, ctx, record)
        except psycopg.Error as exc:
            # Design note: fail closed. A query whose audit row cannot be written is not answered.
            log.error("audit write failed for %s: %s", entry["metric"], exc)
            raise MetricExecutionError("the query could not be audited; no result is returned") from exc
