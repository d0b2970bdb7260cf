"""Tenant-scoped transactions for the serving role.

Row-level security reads the tenant from ``app.tenant_id``; this module is the only place that sets it, and
it takes the value from an :class:`AuthContext`, which only authentication code creates (API keys, the MCP
host's key), never from request text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import psycopg

from procura.errors import AuthorizationError
from procura.settings import APP_ROLE, BI_ROLE

TENANT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_SERVING_ROLES = frozenset({APP_ROLE, BI_ROLE})


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
