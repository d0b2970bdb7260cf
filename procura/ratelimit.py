"""Per-key rate limiting: a token bucket per API key, in process memory.

Design note: the state lives in the process, not the database. Writing a counter row per request would cost a
transaction (and a WAL flush) on the hot path of every query. The budget is per key and per process: run N
workers and a key gets up to N times its budget; put a shared limiter in front when that matters.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from procura.errors import RateLimitedError


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Token buckets keyed by API key id: capacity = the key's per-minute limit, refilled continuously."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000) -> None:
        self._clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()
        self._max_keys = max_keys

    def check(self, key_id: str, per_minute: int) -> None:
        """Take one token from ``key_id``'s bucket.

        Raises:
            RateLimitedError: the bucket is empty; ``retry_after_s`` says when one token will be back.
        """
        now = self._clock()
        rate = per_minute / 60.0
        with self._lock:
            bucket = self._buckets.get(key_id)
            if bucket is None:
                if len(self._buckets) >= self._max_keys:
                    self._buckets.clear()  # bounded memory; a reset only ever grants, never denies
                bucket = self._buckets[key_id] = _Bucket(tokens=float(per_minute), updated=now)
            bucket.tokens = min(float(per_minute), bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            if bucket.tokens < 1.0:
                raise RateLimitedError(max(1, math.ceil((1.0 - bucket.tokens) / rate)))
            bucket.tokens -= 1.0
