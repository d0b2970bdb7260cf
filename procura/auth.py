"""API keys: creation (shown once), hashing, authentication into an :class:`AuthContext`.

A key looks like ``prk_<key id>_<secret>``: the 12-hex key id is public (listings, audit), the secret is 256
random bits. Only ``sha256(key)`` is stored; a high-entropy secret needs no slow hash, and a fast one keeps
authentication a single index probe. Authentication runs ``app.authenticate_api_key()``, a SECURITY DEFINER
function, because the tenant is not known before the key is checked.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import psycopg

from procura.db.session import TENANT_ID_PATTERN, AuthContext
from procura.errors import AuthenticationError, KeyManagementError

KEY_PREFIX = "prk"
_KEY = re.compile(r"^prk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
SCOPE_PATTERN = re.compile(r"^[a-z][a-z0-9_-]{0,40}:[a-z][a-z0-9_-]{0,40}$")
PRINCIPAL_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9@._:-]{0,199}$")
#: Scopes the metric API checks (other areas may define more; any ``resource:action`` is accepted).
KNOWN_SCOPES = frozenset({"invoice:aggregate", "procurement:read", "tenant:admin"})


@dataclass(frozen=True)
class Principal:
    """An authenticated API key: the context the database sees, plus the key's id and request budget."""

    context: AuthContext
    key_id: str
    rate_limit_per_minute: int


@dataclass(frozen=True)
class CreatedKey:
    """A newly created key. ``key`` is the only copy of the secret; it is not stored anywhere."""

    key: str
    key_id: str
    tenant_id: str
    principal_id: str
    scopes: tuple[str, ...]
    rate_limit_per_minute: int
    expires_at: dt.datetime | None


def hash_key(key: str) -> str:
    """The stored form of a key: hex sha256 of its UTF-8 text."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> tuple[str, str]:
    """A fresh ``(key_id, key)`` pair from the OS's CSPRNG."""
    key_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    return key_id, f"{KEY_PREFIX}_{key_id}_{secret}"


def parse_scopes(text: str | Iterable[str]) -> tuple[str, ...]:
    """Comma-separated (or iterable) ``resource:action`` scopes, sorted and unique.

    Raises:
        KeyManagementError: no scope, or a malformed one.
    """
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text) if s.strip()]
    if not items:
        raise KeyManagementError("scopes: at least one scope is required")
    for scope in items:
        if not SCOPE_PATTERN.match(scope):
            raise KeyManagementError(f"scopes: {scope!r} is not a scope (resource:action)")
    return tuple(sorted(set(items)))


def create_key(
    conn: psycopg.Connection,
    *,
    tenant_id: str,
    scopes: Iterable[str],
    principal_id: str | None = None,
    rate_limit_per_minute: int = 600,
    expires_at: dt.datetime | None = None,
) -> CreatedKey:
    """Create and store a key; returns it (the only time the secret exists outside the caller's hands).

    Args:
        conn: a connection of the owner role (key administration is an operator task, not a serving one).
        tenant_id: the tenant every request with this key is scoped to.
        scopes: e.g. ``("invoice:aggregate", "procurement:read")``.
        principal_id: who the key represents (default ``key-<key id>``).
        rate_limit_per_minute: the key's request budget.
        expires_at: optional expiry (timezone-aware).

    Raises:
        KeyManagementError: invalid tenant, principal, scopes or limit.
    """
    if not TENANT_ID_PATTERN.match(tenant_id):
        raise KeyManagementError(f"tenant: {tenant_id!r} is not a tenant id (lowercase letters, digits, '-')")
    scope_tuple = parse_scopes(list(scopes))
    if not 1 <= rate_limit_per_minute <= 1_000_000:
        raise KeyManagementError("rate limit: must be between 1 and 1000000 requests per minute")
    if expires_at is not None and expires_at.tzinfo is None:
        raise KeyManagementError("expires_at: must be timezone-aware")
    key_id, key = new_key()
    principal = principal_id if principal_id is not None else f"key-{key_id}"
    if not PRINCIPAL_PATTERN.match(principal):
        raise KeyManagementError(f"principal: {principal!r} is not a principal id (letters, digits, @._:-)")
    with conn.transaction():
        conn.execute(
            """
            insert into app.api_keys
                (key_id, key_hash, tenant_id, principal_id, scopes, rate_limit_per_minute, expires_at)
            values (%s, %s, %s, %s, %s, %s, %s)
            """,
            (key_id, hash_key(key), tenant_id, principal, list(scope_tuple), rate_limit_per_minute, expires_at),
        )
    return CreatedKey(
        key=key,
        key_id=key_id,
        tenant_id=tenant_id,
        principal_id=principal,
        scopes=scope_tuple,
        rate_limit_per_minute=rate_limit_per_minute,
        expires_at=expires_at,
    )


def revoke_key(conn: psycopg.Connection, key_id: str) -> None:
    """Revoke a key by its public id (owner role). Requests with it fail with 401 from then on.

    Raises:
        KeyManagementError: no active key has that id.
    """
    with conn.transaction():
        cur = conn.execute(
            "update app.api_keys set revoked_at = now() where key_id = %s and revoked_at is null", (key_id,)
        )
        if cur.rowcount != 1:
            raise KeyManagementError(f"key {key_id!r}: no active key with that id")


def authenticate(conn: psycopg.Connection, key: str | None) -> Principal:
    """The principal of a bearer key.

    Args:
        conn: a ``procura_app`` connection in autocommit mode.
        key: the presented key (``None`` when no credentials were sent).

    Raises:
        AuthenticationError: missing, malformed, unknown, revoked or expired key (one message for the last
            three, so that responses do not tell which keys exist).
    """
    if not key:
        raise AuthenticationError("missing bearer API key")
    if not _KEY.match(key):
        raise AuthenticationError("malformed API key")
    row = conn.execute(
        "select key_id, tenant_id, principal_id, scopes, rate_limit_per_minute from app.authenticate_api_key(%s)",
        (hash_key(key),),
    ).fetchone()
    if row is None:
        raise AuthenticationError("invalid, revoked or expired API key")
    key_id, tenant_id, principal_id, scopes, limit = row
    return Principal(
        context=AuthContext(tenant_id=tenant_id, principal_id=principal_id, scopes=frozenset(scopes)),
        key_id=key_id,
        rate_limit_per_minute=int(limit),
    )


class PrincipalCache:
    """Recently authenticated keys, by key hash, for ``ttl_s`` seconds (0 disables caching).

    Design note: authenticating every request costs a pool checkout and a database round trip, a large share
    of a metric query's own time. Caching successful lookups briefly trades that for revocation taking effect
    within ``ttl_s`` seconds in a running API process. Failures are never cached.
    """

    def __init__(self, ttl_s: float = 5.0, max_entries: int = 10_000, clock: Callable[[], float] = time.monotonic):
        self._ttl_s = ttl_s
        self._max = max_entries
        self._clock = clock
        self._entries: dict[str, tuple[float, Principal]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> Principal | None:
        """The cached principal of a presented key, if still fresh."""
        if self._ttl_s <= 0:
            return None
        digest = hash_key(key)
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                return None
            if entry[0] <= self._clock():
                del self._entries[digest]
                return None
            return entry[1]

    def put(self, key: str, principal: Principal) -> None:
        """Remember a successful authentication."""
        if self._ttl_s <= 0:
            return
        with self._lock:
            if len(self._entries) >= self._max:
                self._entries.clear()
            self._entries[hash_key(key)] = (self._clock() + self._ttl_s, principal)
