"""Bounded exponential backoff for transient failures of one pipeline stage."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import psycopg

from ingest.errors import TransientIngestError

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """``max_attempts`` tries per stage; the delay doubles from ``base_delay_s`` up to ``max_delay_s``."""

    max_attempts: int = 3
    base_delay_s: float = 0.05
    max_delay_s: float = 2.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        return min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))


# Internal control flow between stages; never shown to users, so not part of the IngestError family.
class StageFailed(Exception):
    """A stage gave up: carries the stage, the attempts made and the last error (never shown to users)."""

    def __init__(self, stage: str, attempts: int, cause: BaseException) -> None:
        super().__init__(f"{stage} failed after {attempts} attempt(s): {cause}")
        self.stage = stage
        self.attempts = attempts
        self.cause = cause


def is_transient(exc: BaseException) -> bool:
    """Worth retrying: our own transient error, or a driver OperationalError (deadlock, serialization failure,
    lock or statement timeout, a dropped connection the caller may replace)."""
    return isinstance(exc, TransientIngestError | psycopg.OperationalError)


def run_stage(
    stage: str,
    fn: Callable[[], T],
    policy: RetryPolicy,
    *,
    conn: psycopg.Connection | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> tuple[T, int]:
    """Run ``fn`` with retries for transient errors; returns its result and the attempts it took.

    Raises:
        StageFailed: a permanent error, or transient errors on every attempt.
        psycopg.OperationalError: the connection itself is broken (nothing can be retried or recorded on it).
    """
    attempt = 0
    while True:
        attempt += 1
        try:
            return fn(), attempt
        except Exception as exc:
            if conn is not None and conn.broken:
                raise
            if not is_transient(exc) or attempt >= policy.max_attempts:
                raise StageFailed(stage, attempt, exc) from exc
            sleep(policy.delay(attempt))
