"""Tenant-scoped transactions for the serving role, and the one factory of connection pools.

Row-level security reads the tenant from ``app.tenant_id``; this module is the only place that sets it, and
it takes the value from an :class:`AuthContext`, which only authentication code creates (API keys, the MCP
host's key), never from request text. The tenant is bound per transaction (``set_config(..., true)``), never per
connection, so a pooled connection carries no tenant between requests.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import psycopg
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from procura.errors import AuthorizationError
from procura.settings import APP_ROLE, BI_ROLE

TENANT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_SERVING_ROLES = frozenset({APP_ROLE, BI_ROLE})
#: The ``search_path`` Apache AGE's Cypher needs: its transform resolves the operators it generates (``=`` and
#: ``@>`` on agtype) by unqualified name, so without ``ag_catalog`` on the path ``WHERE n.id = $x`` fails.
AGE_SEARCH_PATH = 'ag_catalog, "$user", public'

_log = logging.getLogger(__name__)
# Connections opened by an AGE pool (their session starts with AGE_SEARCH_PATH); weak, so closed ones drop out.
_AGE_SESSIONS: weakref.WeakSet[psycopg.Connection] = weakref.WeakSet()


@dataclass(frozen=True)
class AuthContext:
    """Who is asking, for which tenant, with which scopes; created by authentication only."""

    tenant_id: str
    principal_id: str
    scopes: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if not TENANT_ID_PATTERN.match(self.tenant_id):
            raise AuthorizationError(f"invalid tenant id {self.tenant_id!r}")
        if not self.principal_id:
            raise AuthorizationError("principal_id must not be empty")

    def has_scope(self, scope: str) -> bool:
        """True when the principal was granted ``scope``."""
        return scope in self.scopes


def idle_autocommit(conn: psycopg.Connection) -> bool:
    """Whether ``conn`` is in autocommit mode and not inside a transaction: what a statement that may not run in a
    transaction block needs (VACUUM, CREATE INDEX CONCURRENTLY), and a statement that must not leave a setting in
    an open transaction."""
    return conn.autocommit and conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


@contextmanager
def tenant_transaction(
    conn: psycopg.Connection,
    ctx: AuthContext,
    *,
    read_only: bool = True,
    statement_timeout_ms: int | None = None,
) -> Iterator[psycopg.Connection]:
    """Open a transaction on ``conn`` scoped to ``ctx.tenant_id``.

    The connection must be logged in as the serving role ``procura_app`` (BI logins are bound to their tenant in
    the database and may not call ``app.begin_tenant_scope``, migration 0031): RLS does not apply
    to superusers or to roles with BYPASSRLS, so running tenant-scoped reads as any other role would be a silent
    isolation failure.

    Args:
        conn: a connection of the serving role, idle (autocommit connections are idle between transactions).
        ctx: the authenticated context; its tenant becomes ``app.tenant_id`` for this transaction only.
        read_only: start the transaction READ ONLY (the default for every analytical route).
        statement_timeout_ms: optional ``statement_timeout`` local to this transaction.
    """
    if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        # Design note: inside an outer transaction our transaction() would only be a savepoint, and the tenant
        # setting would outlive it until the outer transaction ends.
        raise AuthorizationError("tenant_transaction needs a connection that is not inside a transaction")
    with conn.transaction():
        try:
            conn.execute(*scope_statement(ctx, read_only=read_only, statement_timeout_ms=statement_timeout_ms))
        except psycopg.errors.InsufficientPrivilege as exc:
            raise AuthorizationError(str(exc.diag.message_primary or exc)) from exc
        yield conn


def scope_statement(
    ctx: AuthContext, *, read_only: bool = True, statement_timeout_ms: int | None = None
) -> tuple[str, tuple[object, ...]]:
    """The one statement that scopes the current transaction to ``ctx.tenant_id``: read-only mode, tenant and
    statement timeout, all local to the transaction.

    The role check happens on the server (``app.begin_tenant_scope``, migration 0009) and raises
    ``insufficient_privilege`` there, so a client may pipeline this statement with its query: when the check
    fails the server skips everything up to the pipeline's sync, and the query never runs.
    """
    timeout = f"{int(statement_timeout_ms)}ms" if statement_timeout_ms is not None else None
    return (
        "select app.begin_tenant_scope(%s::text, %s::boolean, %s::text)",
        (ctx.tenant_id, read_only, timeout),
    )


def _lost(conn: psycopg.Connection | psycopg.AsyncConnection) -> bool:
    # What psycopg_pool itself tests before it discards a returned connection (closed, or the server went away).
    return conn.pgconn.transaction_status == TransactionStatus.UNKNOWN


class _Pool(ConnectionPool):
    """A pool that, when a connection comes back lost, checks its idle connections at once.

    Design note: a server restart or ``pg_terminate_backend`` kills every connection of the pool, but psycopg_pool
    only learns that one connection at a time, when a request fails on it: each idle connection then costs one
    request a 503. Checking the idle ones when the first comes back lost (an empty statement each, only on that
    path) replaces them all, so the request after the first 503 gets a working connection.
    """

    def putconn(self, conn: psycopg.Connection) -> None:
        lost = _lost(conn)
        super().putconn(conn)
        if lost and not self.closed:
            self.check()


class _AsyncPool(AsyncConnectionPool):
    """:class:`_Pool`'s check of the idle connections after a lost one, for the asyncio pool."""

    async def putconn(self, conn: psycopg.AsyncConnection) -> None:
        lost = _lost(conn)
        await super().putconn(conn)
        if lost and not self.closed:
            await self.check()


def is_age_session(conn: psycopg.Connection) -> bool:
    """True when ``conn`` came from a pool opened with ``age=True``: its session already has AGE's search path,
    so a Cypher call needs no setup statement (``graph.age.prepare_age_transaction`` sends none)."""
    return conn in _AGE_SESSIONS


def open_pool(
    conninfo: str,
    *,
    name: str,
    application_name: str | None = None,
    min_size: int = 1,
    max_size: int = 8,
    timeout: float = 30.0,
    age: bool = False,
    open: bool = True,
) -> ConnectionPool:
    """The one way Procura opens a connection pool: autocommit connections whose per-connection setup runs once,
    when the pool opens each connection, and never on a request's path.

    * ``configure``: registers pgvector's types (``vector``, ``halfvec``, ``sparsevec``), as pgvector-python
      documents for pools; a database without the extension is logged, not fatal (the API must start and report
      not-ready rather than refuse to start).
    * ``age=True`` (pools whose requests run Cypher): the session starts with :data:`AGE_SEARCH_PATH`. It is
      sent as a startup option, so it is the session's default value and survives the reset below. ``LOAD
      'age'`` is not sent: the server preloads AGE (``shared_preload_libraries``), and LOAD is refused to
      non-superusers anyway.
    * No ``reset``: the tenant needs none, being bound per transaction (``set_config(..., true)`` in
      ``app.begin_tenant_scope``, migration 0009; :func:`tenant_transaction` and the pipelined graph tools), as
      are every other setting Procura makes (plan cache mode, HNSW/IVFFlat scans, statement timeout), and the
      pool rolls back a connection returned inside a transaction, synchronously. Design note: with a ``reset``
      callback psycopg_pool hands every returned connection to a worker thread, and that hand-off, not the
      ``RESET ALL`` it sent, cost the graph tool 6-10 ms per call on the shared 2-core machine (the benchmark's
      ``age_tool`` against ``age_held``; with a client-side-only reset the gap stayed, without a reset it went,
      measured). A session-level ``SET`` a caller makes therefore stays on its connection; nothing in Procura
      makes one.
    * A connection returned lost makes the pool check its idle ones (:class:`_Pool`): after an outage one request
      gets a 503, not one per pooled connection.
    * ``check`` (run in the caller's thread at checkout, no statement): the client-side transaction
      characteristics go back to autocommit, read-write, default isolation, so a caller that changed them on
      its checkout leaves nothing for the next.

    Args:
        conninfo: the role's connection URL (``settings.app_url`` for the serving side).
        name: the pool's name in logs.
        application_name: shown in ``pg_stat_activity``; default ``name``.
        min_size, max_size, timeout: as psycopg_pool's (``timeout``: seconds a caller waits for a connection).
        age: give every connection AGE's search path (see above).
        open: open the pool now (and wait for ``min_size`` connections); with False the caller opens it, e.g.
            ``pool.open(wait=False)`` so a server starts while the database is down.
    """
    kwargs: dict[str, object] = {"autocommit": True, "application_name": application_name or name}
    if age:
        kwargs["options"] = "-c search_path=" + AGE_SEARCH_PATH.replace(" ", "")
    pool = _Pool(
        conninfo,
        kwargs=kwargs,
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        name=name,
        configure=_configure_age if age else _configure,
        check=_restore_client_state,
        open=False,
    )
    if open:
        pool.open(wait=True)
    return pool


def open_async_pool(
    conninfo: str, *, name: str, min_size: int = 1, max_size: int = 8, timeout: float = 30.0
) -> AsyncConnectionPool:
    """An asyncio pool of autocommit connections, not yet opened (``await pool.open(wait=False)`` inside the
    running event loop, as psycopg_pool requires): the pool an async route awaits its queries on.

    As :func:`open_pool`'s: no ``reset`` (everything Procura sets is transaction-local), the client-side
    transaction characteristics restored at checkout. No ``configure``: its one user, the metric query route,
    reads no vector or graph values (no pgvector types, no AGE search path).
    """
    return _AsyncPool(
        conninfo,
        kwargs={"autocommit": True, "application_name": name},
        min_size=min_size,
        max_size=max_size,
        timeout=timeout,
        name=name,
        check=_arestore_client_state,
        open=False,
    )


async def _arestore_client_state(conn: psycopg.AsyncConnection) -> None:
    # As _restore_client_state (no round trip: the setters of an idle connection only change client state).
    if not conn.autocommit:
        await conn.set_autocommit(True)
    if conn.read_only is not None:
        await conn.set_read_only(None)
    if conn.isolation_level is not None:
        await conn.set_isolation_level(None)
    if conn.deferrable is not None:
        await conn.set_deferrable(None)


def _configure(conn: psycopg.Connection) -> None:
    from pgvector.psycopg import register_vector

    try:
        register_vector(conn)
    except psycopg.ProgrammingError as exc:  # the database has no pgvector extension (yet)
        _log.warning("pgvector types not registered on a new connection: %s", exc)


def _configure_age(conn: psycopg.Connection) -> None:
    _configure(conn)
    _AGE_SESSIONS.add(conn)


def _restore_client_state(conn: psycopg.Connection) -> None:
    # Client-side attributes only (psycopg sends them with the next BEGIN): no round trip at checkout. Each is
    # set only when it differs, since a setter on an idle connection still takes the connection's lock.
    if not conn.autocommit:
        conn.autocommit = True
    if conn.read_only is not None:
        conn.read_only = None
    if conn.isolation_level is not None:
        conn.isolation_level = None
    if conn.deferrable is not None:
        conn.deferrable = None
