"""One admission path for every interface (REST, MCP over HTTP, MCP over stdio): authenticate a key, throttle
failed attempts per source, spend one unit of the key's rate budget.

Design note: the interfaces used to authenticate each in their own way, and only REST applied the rate limit;
a check that lives in one place cannot be forgotten by the next transport. Revocation takes effect within the
principal cache's TTL (seconds) on every interface, because every call goes through :meth:`Access.admit`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from procura.auth import Principal, PrincipalCache
from procura.errors import AuthenticationError, RateLimitedError
from procura.ratelimit import RateLimiter

log = logging.getLogger(__name__)

#: Failed authentications a source may make per minute before it is answered 429 without a lookup.
FAILED_AUTH_PER_MINUTE = 20


class FailureThrottle:
    """Failed authentications per source (client address, or the transport's name), in a sliding minute."""

    def __init__(
        self, per_minute: int = FAILED_AUTH_PER_MINUTE, clock: Callable[[], float] = time.monotonic,
        max_sources: int = 100_000,
    ) -> None:
        self._per_minute = per_minute
        self._clock = clock
        self._max = max_sources
        self._failures: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def check(self, source: str) -> None:
        """Raise :class:`RateLimitedError` while ``source`` is over its failure budget."""
        now = self._clock()
        with self._lock:
            recent = [t for t in self._failures.get(source, ()) if t > now - 60.0]
            if recent:
                self._failures[source] = recent
            else:
                self._failures.pop(source, None)
            if len(recent) >= self._per_minute:
                raise RateLimitedError(max(1, math.ceil(recent[0] + 60.0 - now)))

    def record(self, source: str) -> None:
        """Count one failed authentication of ``source``."""
        with self._lock:
            if len(self._failures) >= self._max:
                self._failures.clear()  # bounded memory; a reset only ever admits, never refuses
            self._failures.setdefault(source, []).append(self._clock())


class Access:
    """Authentication, failed-attempt throttling and the per-key rate limit, shared by all interfaces.

    Args:
        lookup: key -> :class:`Principal` from the database (raises :class:`AuthenticationError`).
        cache: recently authenticated keys.
        limiter: per-key token buckets.
        failures: failed attempts per source.
    """

    def __init__(
        self,
        lookup: Callable[[str | None], Principal],
        cache: PrincipalCache | None = None,
        limiter: RateLimiter | None = None,
        failures: FailureThrottle | None = None,
    ) -> None:
        self.lookup = lookup
        self.cache = cache or PrincipalCache()
        self.limiter = limiter or RateLimiter()
        self.failures = failures or FailureThrottle()

    def cached(self, key: str | None, source: str) -> Principal | None:
        """The throttle check, then a cached principal (no I/O; safe on an event loop)."""
        self.failures.check(source)
        return self.cache.get(key) if key else None

    def authenticate(self, key: str | None, source: str) -> Principal:
        """Look the key up (blocking I/O); a failure is counted against ``source`` and logged."""
        try:
            principal = self.lookup(key)
        except AuthenticationError as exc:
            self.failures.record(source)
            # The key itself is never logged; its public id only when it is well formed.
            key_id = key.split("_")[1] if key and key.count("_") >= 2 else "-"
            log.warning("authentication failed: source=%s key_id=%s reason=%s", source, key_id[:12], exc)
            raise
        if key:
            self.cache.put(key, principal)
        return principal

    def spend(self, principal: Principal) -> Principal:
        """Take one unit of the key's rate budget (raises :class:`RateLimitedError`)."""
        self.limiter.check(principal.key_id, principal.rate_limit_per_minute)
        return principal

    def admit(self, key: str | None, source: str) -> Principal:
        """All three steps (blocking): what a transport without an event-loop split calls per request."""
        principal = self.cached(key, source)
        if principal is None:
            principal = self.authenticate(key, source)
        return self.spend(principal)
