"""The flat error family of the ``procura`` core package: server, migrations, authentication, admission.

Every error class of every area says how it fails over HTTP: ``http_status`` and a stable ``error_code`` (class
attributes), ``parameter`` (the request field at fault, if any) and ``headers``. One exception handler in
:mod:`api.main` turns any of them into ``{"error": {"code", "message", "parameter"}}`` for every route; a class that
keeps the defaults (500, ``internal_error``) is answered without its message, which is logged instead.
"""

from __future__ import annotations

from typing import ClassVar


class ProcuraError(Exception):
    """Base of every error Procura raises on purpose; its message is meant for the user."""

    #: HTTP status of a request that fails with this error.
    http_status: ClassVar[int] = 500
    #: Stable machine-readable code (the ``error.code`` of the response body).
    error_code: ClassVar[str] = "internal_error"
    #: The request field at fault (``error.parameter``), when there is one.
    parameter: str | None = None

    @property
    def headers(self) -> dict[str, str]:
        """Response headers the failure asks for (``Retry-After``, ``WWW-Authenticate``)."""
        return {}


class ServerError(ProcuraError):
    """The Postgres server cannot be provisioned, started, reached, or lacks a required capability."""


class MigrationError(ProcuraError):
    """A migration is malformed, was changed after being applied, or failed."""


class AuthorizationError(ProcuraError):
    """An operation was attempted without a valid authenticated context."""


class AuthenticationError(ProcuraError):
    """No API key, a malformed key, or a key that is unknown, revoked or expired (HTTP 401)."""

    http_status = 401
    error_code = "unauthenticated"

    @property
    def headers(self) -> dict[str, str]:
        return {"WWW-Authenticate": "Bearer"}


class RateLimitedError(ProcuraError):
    """The key exceeded its per-minute request budget (HTTP 429).

    Attributes:
        retry_after_s: whole seconds until the next request would be admitted.
    """

    http_status = 429
    error_code = "rate_limited"

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"rate limit exceeded; retry after {retry_after_s} s")
        self.retry_after_s = retry_after_s

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class TenantInRequestError(ProcuraError):
    """The request tried to name a tenant; the tenant comes only from the API key (HTTP 422)."""

    http_status = 422
    error_code = "tenant_in_request"
    parameter = "tenant_id"

    def __init__(self, location: str) -> None:
        super().__init__(f"{location}: tenant_id is not accepted in requests; the tenant comes from the API key")
        self.location = location


class KeyManagementError(ProcuraError):
    """An API key cannot be created or revoked as asked (bad tenant, scopes, principal or unknown key)."""


class AuditWriteError(ProcuraError):
    """A call's audit row could not be written, so its result is withheld (HTTP 500, or 503 when the database
    connection was lost: see :func:`is_database_unavailable`)."""

    error_code = "database_error"


#: Seconds a client is asked to wait (``Retry-After``) when the database is down or restarting.
DATABASE_RETRY_AFTER_S = 5

#: SQLSTATEs that mean the connection, not the statement, failed: connection exceptions (class 08), the server
#: shutting down or crashing, not accepting connections yet, out of connection slots, or an idle session ended.
_CONNECTION_SQLSTATES = frozenset({"57P01", "57P02", "57P03", "57P05", "53300"})


def _connection_level(exc: BaseException) -> bool:
    from psycopg import OperationalError
    from psycopg import errors as pg_errors

    if not isinstance(exc, OperationalError) or isinstance(exc, pg_errors.QueryCanceled | pg_errors.PipelineAborted):
        return False
    state = exc.sqlstate
    # No SQLSTATE: the failure is client-side (connection refused, closed or lost mid-query; the pool timed out
    # waiting for a connection or is closed), never a statement the server rejected.
    return state is None or state.startswith("08") or state in _CONNECTION_SQLSTATES


def is_database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc``, or an error it was raised from, is a lost or unavailable database connection.

    Other areas wrap database errors in their own (``MetricExecutionError`` from psycopg's
    ``OperationalError``, an audit failure from the broken connection, ...), so the explicit cause chain is
    followed, and the implicit context unless it was suppressed. A statement timeout (``QueryCanceled``) is not
    an outage: the statement failed, the database did not.

    >>> import psycopg
    >>> is_database_unavailable(RuntimeError("no database involved"))
    False
    >>> try:
    ...     try:
    ...         raise psycopg.OperationalError("server closed the connection unexpectedly")
    ...     except psycopg.OperationalError as lost:
    ...         raise ValueError("the metric failed in the database") from lost
    ... except ValueError as wrapped:
    ...     is_database_unavailable(wrapped)
    True
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if _connection_level(current):
            return True
        seen.add(id(current))
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    return False
