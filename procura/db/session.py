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


@contextmanager
def tenant_transaction(
    conn: psycopg.Connection,
    ctx: AuthContext,
    *,
    read_only: bool = True,
    statement_timeout_ms: int | None = None,
) -> Iterator[psycopg.Connection]:
    """Open a transaction on ``conn`` scoped to ``ctx.tenant_id``.

    The connection must be logged in as a serving role (``procura_app`` or ``procura_bi``): RLS does not apply
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
    timeout = f"{int(statement_timeout_ms)}ms" if statement_timeout_ms is not None else None
    with conn.transaction():
        # One round trip: who we are, read-only mode, tenant and timeout, all local to this transaction. If the
        # role check fails, raising rolls the settings back with the transaction.
        row = conn.execute(
            """
            select current_user,
                   set_config('transaction_read_only', %(read_only)s, true),
                   set_config('app.tenant_id', %(tenant)s, true),
                   case when %(timeout)s::text is not null
                        then set_config('statement_timeout', %(timeout)s, true) end
            """,
            {"read_only": "on" if read_only else "off", "tenant": ctx.tenant_id, "timeout": timeout},
        ).fetchone()
        if row is None or row[0] not in _SERVING_ROLES:
            raise AuthorizationError(
                f"tenant transactions must run as {APP_ROLE} or {BI_ROLE}, not {row[0] if row else None!r}"
            )
        yield conn
