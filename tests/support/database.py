"""A database of its own for a test module: the marts are rebuilt for *all* tenants of a database, so tests that
run dbt must not share the session database with other areas' fixtures (whose landing rows are not ours)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from procura.db.migrate import migrate
from procura.db.provision import drop_database, ensure_database
from procura.settings import Settings


@contextmanager
def fresh_database(base: Settings, prefix: str) -> Iterator[Settings]:
    """Create and migrate ``procura_test_<prefix>_<hex>``; drop it afterwards."""
    name = f"procura_test_{prefix}_{secrets.token_hex(3)}"
    settings = base.with_database(name)
    ensure_database(settings)
    try:
        with psycopg.connect(settings.admin_url, autocommit=True) as conn:
            migrate(conn, settings)
        yield settings
    finally:
        drop_database(base, name)
