"""The shipped metric registry over the unit snapshot, loaded once per test process.

A fresh load validates and compiles every template (seconds, and more on a loaded machine); the tests that only
read the shipped registry share this one instead of each paying for a load of their own. Tests that must see a
load happen (the cache, a broken definition) call :func:`semantic.loader.load_registry` themselves.
"""

from __future__ import annotations

import functools
from pathlib import Path

from semantic.loader import MetricRegistry, load_registry
from semantic.schema import GovernedSchema, load_snapshot

SNAPSHOT = Path(__file__).parent / "fixtures" / "semantic" / "schema.json"


@functools.cache
def unit_schema() -> GovernedSchema:
    """The governed schema recorded from dbt's artifacts (tests/unit/fixtures/semantic/schema.json)."""
    return load_snapshot(SNAPSHOT)


@functools.cache
def shipped_registry() -> MetricRegistry:
    """The shipped domain files and dbt metrics loaded without a cache (read it; never change it)."""
    return load_registry(unit_schema())
