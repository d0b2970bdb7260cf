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
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal, TypeVar

import psycopg

from procura.db.pipeline import Dumped, dump
from procura.db.session import AuthContext
from procura.keyed import server_key
from procura.settings import Settings
from semantic import audit
from semantic.compile import CompiledQuery
from semantic.currencies import check_currency
from semantic.errors import (
    MetricExecutionError,
    ParameterError,
    ScopeError,
)
from semantic.execute import MetricResult, arun, arun_json, call_statements, run
from semantic.loader import Metric, MetricRegistry
from semantic.model import METRIC_NAME
from semantic.params import BoundParameters, bind, check_one_of, check_partition
from semantic.rollups import RelationPlanner

log = logging.getLogger(__name__)
_METRIC_NAME = re.compile(METRIC_NAME)
#: What :meth:`MetricService._acall` answers: a :class:`MetricResult` or its JSON bytes.
_Answer = TypeVar("_Answer")


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
        #: Checked and bound requests by what was asked (see :meth:`_bound`).
        self._bound_requests: dict[Hashable, _Bound] = {}
        #: The relation chosen for a bound request: (relation sizes, planner, compiled variant, the answer).
        self._selected: dict[Hashable, tuple[Mapping[str, float], RelationPlanner, CompiledQuery, CompiledQuery]] = {}
        #: The dumped statements of a bound request for one caller (see :meth:`_dumped`).
        self._dumped_calls: dict[Hashable, Dumped] = {}

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
        call = _Call(name, route, key_id)
        try:
            sizes = self.relations.sizes(conn)
            metric, query, params, entry, dumped = self._prepare(conn, call, ctx, name, parameters, group_by, grain,
                                                                 from_text, sizes)  # fmt: skip
            return run(conn, ctx, metric, query, params, statement_timeout_ms=self.statement_timeout_ms,
                       row_cap=self.row_cap, audit_entry=entry, dumped=dumped)  # fmt: skip
        except Exception as exc:
            self._audit(conn, ctx, call.failed(exc, parameters))
            raise

    async def aquery(
        self,
        conn: psycopg.AsyncConnection,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        *,
        group_by: Sequence[str] = (),
        grain: str | None = None,
        route: Literal["api", "cli"] = "api",
        key_id: str | None = None,
    ) -> MetricResult:
        """:meth:`query` on an asyncio connection: the same checks, statements, audit rows and result.

        Design note: the HTTP route awaits this instead of running :meth:`query` in a worker thread; the hop
        into AnyIO's thread pool and back cost two thread wake-ups per request (bench/metric_api.py).
        """
        return await self._acall(arun, conn, ctx, name, parameters, group_by, grain, route, key_id)

    async def aquery_json(
        self,
        conn: psycopg.AsyncConnection,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        *,
        group_by: Sequence[str] = (),
        grain: str | None = None,
        route: Literal["api", "cli"] = "api",
        key_id: str | None = None,
    ) -> bytes:
        """:meth:`aquery` with the answer as the JSON of its :class:`MetricResult`
        (:func:`semantic.execute.shape_json`): the same checks, statements and audit rows."""
        return await self._acall(arun_json, conn, ctx, name, parameters, group_by, grain, route, key_id)

    async def _acall(
        self,
        runner: Callable[..., Awaitable[_Answer]],
        conn: psycopg.AsyncConnection,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        group_by: Sequence[str],
        grain: str | None,
        route: Literal["api", "cli"],
        key_id: str | None,
    ) -> _Answer:
        """:meth:`aquery` and :meth:`aquery_json`: the same checks and audit rows around ``runner``
        (:func:`semantic.execute.arun` or :func:`semantic.execute.arun_json`)."""
        call = _Call(name, route, key_id)
        try:
            sizes = await self.relations.asizes(conn)
            metric, query, params, entry, dumped = self._prepare(conn, call, ctx, name, parameters, group_by, grain,
                                                                 False, sizes)  # fmt: skip
            return await runner(conn, ctx, metric, query, params, statement_timeout_ms=self.statement_timeout_ms,
                                row_cap=self.row_cap, audit_entry=entry, dumped=dumped)  # fmt: skip
        except Exception as exc:
            await self._aaudit(conn, ctx, call.failed(exc, parameters))
            raise

    def _prepare(
        self,
        conn: psycopg.Connection | psycopg.AsyncConnection,
        call: _Call,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        group_by: Sequence[str],
        grain: str | None,
        from_text: bool,
        sizes: Mapping[str, float],
    ) -> tuple[Metric, CompiledQuery, BoundParameters, audit.AuditRecord, Dumped]:
        """Everything a call does before its one round trip, shared by the sync and async paths (no I/O): the
        checked and bound request, the relation that answers, the pending audit row and the dumped statements."""
        metric, query, params, key = self._plan(call, ctx, name, parameters, group_by, grain, from_text, sizes)
        entry = call.pending()
        return metric, query, params, entry, self._dumped(conn, ctx, metric, query, params, entry, key)

    def _plan(
        self,
        call: _Call,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        group_by: Sequence[str],
        grain: str | None,
        from_text: bool,
        sizes: Mapping[str, float],
    ) -> tuple[Metric, CompiledQuery, BoundParameters, Hashable | None]:
        """Look up, check and bind (no I/O): the metric, the query that answers, its values and the request's
        key (``None`` when it has none; see :func:`_request_key`)."""
        key = _request_key(name, parameters, group_by, grain, from_text)
        bound = self._bound_requests.get(key) if key is not None else None
        if bound is None:
            bound = self._bound(call, ctx, name, parameters, group_by, grain, from_text)
            if key is not None:
                if len(self._bound_requests) >= _BOUND_MAX:
                    self._bound_requests.clear()
                self._bound_requests[key] = bound
        metric, query, params, hashes = bound
        # The scope is the caller's, checked on every call (a cached request was bound for someone else too).
        if not ctx.has_scope(metric.definition.scope):
            raise ScopeError(f"metric {metric.name}", metric.definition.scope)
        call.group_by, call.grain, call.hashes = query.variant.group_by, query.variant.grain, hashes
        # The choice is a pure function of the request and the relation sizes (read again once a minute, a new
        # mapping each time): kept while both are the same.
        selected = self._selected.get(key) if key is not None else None
        if selected is not None and selected[0] is sizes and selected[1] is self.relations and selected[2] is query:
            return metric, selected[3], params, key
        chosen = self.relations.select(metric.definition, query, params.values, metric.schema, sizes)
        if key is not None:
            if len(self._selected) >= _BOUND_MAX:
                self._selected.clear()
            self._selected[key] = (sizes, self.relations, query, chosen)
        return metric, chosen, params, key

    def _dumped(
        self,
        conn: psycopg.Connection | psycopg.AsyncConnection,
        ctx: AuthContext,
        metric: Metric,
        query: CompiledQuery,
        params: BoundParameters,
        entry: audit.AuditRecord,
        key: Hashable | None,
    ) -> Dumped:
        """The call's statements (:func:`semantic.execute.call_statements`), dumped; kept per request key and
        everything else they are made of: the tenant, principal, route and key id of the audit row, the relation
        that answers, the timeout, the row cap and the connection's encoding.

        Design note: after binding, dumping the call's two statements and 18 values was most of the service's
        own client CPU per call (docs/benchmarks.md, "Metric API, seventh pass"). The scope statement carries the
        tenant, so an entry only ever serves calls of that tenant; nothing of a refused call is kept.
        """
        route, key_id = audit.effective_route(entry)
        full = None
        if key is not None:
            full = (key, query.relation, query.sql, ctx.tenant_id, ctx.principal_id, route, key_id,
                    self.statement_timeout_ms, self.row_cap, _client_encoding(conn))  # fmt: skip
            found = self._dumped_calls.get(full)
            if found is not None:
                return found
        made = dump(conn, call_statements(ctx, metric, query, params, self.statement_timeout_ms, self.row_cap, entry))
        if full is not None:
            if len(self._dumped_calls) >= _BOUND_MAX:
                self._dumped_calls.clear()
            self._dumped_calls[full] = made
        return made

    def _bound(
        self,
        call: _Call,
        ctx: AuthContext,
        name: str,
        parameters: Mapping[str, Any],
        group_by: Sequence[str],
        grain: str | None,
        from_text: bool,
    ) -> _Bound:
        """The checks and binding that depend only on what was asked (the metric, its values, grouping and grain):
        pure functions of the request and the loaded registry, so :meth:`_plan` keeps their answer per request.

        Design note: a dashboard sends the same few requests again and again; binding, the checks and the audit
        hashes were most of the service's own CPU per call (docs/benchmarks.md, "Metric API, sixth pass"). Only
        answers are kept, never errors, and the caller's scope is checked on every call in :meth:`_plan`.
        """
        metric = self.registry.get(name)
        if not ctx.has_scope(metric.definition.scope):
            raise ScopeError(f"metric {metric.name}", metric.definition.scope)
        if isinstance(group_by, str):
            raise ParameterError("group_by", "must be a list of dimension names")
        query = metric.variant(tuple(group_by), grain)
        call.group_by, call.grain = query.variant.group_by, query.variant.grain
        params = bind(metric.definition.parameters, parameters, metric.definition.constraints,
                      from_text=from_text, offset=metric.definition.period_offset)  # fmt: skip
        check_partition(metric.definition.partition, query.variant.group_by, params.values)
        check_one_of(metric.definition.one_of, params.values)
        check_currency(metric.definition.currency_parameter, params.values)
        hashes = MappingProxyType(audit.hash_parameters(params.values))
        return metric, query, params, hashes

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
        call = _Call(name, route, key_id)
        self._audit(conn, ctx, call.record(outcome="rejected", hashes={}, error_code=error_code))

    async def arecord_rejection(
        self,
        conn: psycopg.AsyncConnection,
        ctx: AuthContext,
        name: str,
        *,
        error_code: str,
        route: Literal["api", "cli"] = "api",
        key_id: str | None = None,
    ) -> None:
        """:meth:`record_rejection` on an asyncio connection."""
        call = _Call(name, route, key_id)
        await self._aaudit(conn, ctx, call.record(outcome="rejected", hashes={}, error_code=error_code))

    @staticmethod
    def _audit(conn: psycopg.Connection, ctx: AuthContext, record: audit.AuditRecord) -> None:
        try:
            audit.record(conn, ctx, record)
        except psycopg.Error as exc:
            # Design note: fail closed. A query whose audit row cannot be written is not answered.
            log.error("audit write failed for %s: %s", record.metric, exc)
            raise MetricExecutionError("the query could not be audited; no result is returned") from exc

    @staticmethod
    async def _aaudit(conn: psycopg.AsyncConnection, ctx: AuthContext, record: audit.AuditRecord) -> None:
        try:
            await audit.arecord(conn, ctx, record)
        except psycopg.Error as exc:
            log.error("audit write failed for %s: %s", record.metric, exc)
            raise MetricExecutionError("the query could not be audited; no result is returned") from exc


#: A checked and bound request: the metric, its compiled variant (before relation selection), the bound values
#: and their audit hashes.
_Bound = tuple[Metric, CompiledQuery, BoundParameters, Mapping[str, str]]


def _client_encoding(conn: psycopg.Connection | psycopg.AsyncConnection) -> bytes | None:
    """The connection's client encoding as the server reports it (``b"UTF8"``): one entry of the dumped calls'
    key. Design note: read from libpq directly; ``conn.info.encoding`` builds a ConnectionInfo and looks the
    Python codec up on every access (0.9 us against about 0.1 us here), and this runs on every metric call.
    The same server name always maps to the same codec, so the key separates exactly what it did."""
    return conn.pgconn.parameter_status(b"client_encoding")


#: Bound requests kept per service; the whole memo is dropped when full (the same few requests recur).
_BOUND_MAX = 2048


def _request_key(
    name: str, parameters: Mapping[str, Any], group_by: Sequence[str], grain: str | None, from_text: bool
) -> Hashable | None:
    """What a request asks, as a hashable key that tells apart every two requests binding could tell apart, or
    ``None`` when it has no such key (then nothing is kept).

    Every scalar is keyed with its type (``True``, ``1`` and ``1.0`` are equal in Python but not to
    :func:`semantic.params.bind`), lists and tuples with their kind, mappings by their sorted items.
    """
    if isinstance(group_by, str) or not isinstance(name, str) or (grain is not None and not isinstance(grain, str)):
        return None
    try:
        # the server key too: the audit hashes are keyed with it
        values = _flat(parameters)
        if values is None:
            values = _frozen(parameters)
        return (name, values, tuple(_frozen(g) for g in group_by), grain, from_text, server_key())
    except (TypeError, _Unkeyable):
        return None


def _flat(parameters: Mapping[str, Any]) -> Hashable | None:
    """:func:`_frozen` of the common request in one step: a dict of text keys whose values are scalars or lists of
    strings (``None`` for anything else). Tagged ``"flat"`` where the general form has ``dict``, so the two are
    never equal; each value keyed with its type as there."""
    if type(parameters) is not dict:
        return None
    items = []
    for key, value in parameters.items():
        kind = type(value)
        if type(key) is not str:
            return None
        if kind in _SCALARS:
            items.append((key, kind, value))
        elif kind is list and all(type(v) is str for v in value):
            items.append((key, list, tuple(value)))
        else:
            return None
    # the keys of a dict are distinct, so sorting compares keys only
    items.sort()
    return ("flat", tuple(items))


class _Unkeyable(Exception):
    """A value the request key does not take (nesting too deep, an unexpected type)."""


_SCALARS = (str, int, float, bool, type(None))


def _frozen(value: Any, depth: int = 0) -> Hashable:
    if depth > 8:
        raise _Unkeyable
    kind = type(value)
    if kind in _SCALARS:
        return (kind, value)
    if kind is list or kind is tuple:
        if all(type(v) is str for v in value):
            # the common case (ids, codes, statuses) in one step; three parts, so never equal to the general form
            return (kind, str, tuple(value))
        return (kind, tuple(_frozen(v, depth + 1) for v in value))
    if isinstance(value, Mapping):
        # sorted by key text and type; a mapping with keys of mixed types raises TypeError (not kept)
        return (dict, tuple(sorted((_frozen(k, depth + 1), _frozen(v, depth + 1)) for k, v in value.items())))
    raise _Unkeyable


class _Call:
    """What one call's audit row says, filled in as the call gets checked and bound."""

    __slots__ = ("grain", "group_by", "hashes", "key_id", "metric", "route", "started")

    def __init__(self, name: str, route: Literal["api", "cli"], key_id: str | None) -> None:
        self.started = time.perf_counter()
        self.metric = _audit_name(name)
        self.route: Literal["api", "cli"] = route
        self.key_id = key_id
        self.group_by: tuple[str, ...] = ()
        self.grain: str | None = None
        # Hashed once bound: a query refused before binding audits the values as sent, a bound one its bound values.
        self.hashes: Mapping[str, str] | None = None

    def pending(self) -> audit.AuditRecord:
        """The success row the query's own statement writes (row count and outcome filled in by the server).

        Design note: the success row is written by the query's own statement, in the same pipelined transaction
        (one network round trip, and a failed audit fails the query); only a refused or failed query is audited
        separately.
        """
        return self.record(outcome="ok", hashes=self.hashes or {}, duration_ms=0.0)

    def failed(self, exc: BaseException, parameters: Mapping[str, Any]) -> audit.AuditRecord:
        """The row of a call that raised ``exc``."""
        outcome, code = audit.outcome_of(exc)
        return self.record(outcome=outcome, hashes=self.hashes or audit.hash_parameters(parameters), error_code=code)

    def record(
        self,
        *,
        outcome: audit.Outcome,
        hashes: Mapping[str, str],
        error_code: str | None = None,
        duration_ms: float | None = None,
    ) -> audit.AuditRecord:
        return audit.AuditRecord(
            metric=self.metric,
            outcome=outcome,
            duration_ms=(time.perf_counter() - self.started) * 1000 if duration_ms is None else duration_ms,
            route=self.route,
            key_id=self.key_id,
            parameter_hashes=hashes,
            group_by=self.group_by,
            grain=self.grain,
            error_code=error_code,
        )
