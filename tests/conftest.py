"""Shared fixtures: a fresh database per test run on the real Postgres 17 + pgvector + AGE server.

Database-free tests (``tests/unit``) never touch these fixtures; integration tests get a database created for
this run only, migrated from scratch, and dropped at the end.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from evaluation.world import DemoWorld, release_test_world, world_for_tests
from procura.bi import CreatedLogin
from procura.db.migrate import migrate
from procura.db.provision import LocalServer, drop_database, ensure_database
from procura.settings import Settings, get_settings
from tests.bi_logins import temporary_bi_login

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist (``make test`` runs ``-n 2``) every test outside tests/unit is one unit of work, run by
    one worker in collection order: those tests share the session's databases and some of them restart or
    reconfigure the server, which another worker's test must not see. The unit tier never touches the server, so
    the other worker takes it test by test in parallel."""
    from xdist.scheduler import LoadScopeScheduling

    class TierScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid if nodeid.startswith("tests/unit/") else "database"

    return TierScheduling(config, log)


@pytest.fixture(scope="session")
def base_settings() -> Settings:
    """Settings of the server under test (the project's own, or DATABASE_URL)."""
    settings = get_settings()
    if settings.managed_server:
        LocalServer(settings).up()
    return settings


@pytest.fixture(scope="session")
def settings(base_settings: Settings) -> Iterator[Settings]:
    """Settings pointing at a database created for this test run and dropped after it."""
    name = f"procura_test_{os.getpid()}_{secrets.token_hex(3)}"
    test_settings = base_settings.with_database(name)
    ensure_database(test_settings)
    with psycopg.connect(test_settings.admin_url, autocommit=True) as conn:
        migrate(conn, test_settings)
    yield test_settings
    drop_database(base_settings, name)


@pytest.fixture(scope="session")
def demo_world(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoWorld]:
    """The demo corpus of all three tenants ingested, validated and built into marts, in a database of its own:
    built once per session and shared by every suite that only reads it (metrics seed, reliability, security)."""
    yield world_for_tests(settings, tmp_path_factory.mktemp("demo-world"))
    release_test_world(settings)


@pytest.fixture
def admin_conn(settings: Settings) -> Iterator[psycopg.Connection]:
    """A superuser connection (setup only: superusers bypass RLS, so never assert isolation through it)."""
    with psycopg.connect(settings.admin_url, autocommit=True) as conn:
        yield conn


@pytest.fixture
def app_conn(settings: Settings) -> Iterator[psycopg.Connection]:
    """An autocommit connection logged in as procura_app."""
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        yield conn


@pytest.fixture(scope="session")
def bi_login(settings: Settings) -> Iterator[CreatedLogin]:
    """A per-tenant BI login (member of procura_bi) of the session's database, bound to a tenant of its own."""
    with temporary_bi_login(settings, unique_tenant("bi")) as created:
        yield created


@pytest.fixture
def bi_conn(bi_login: CreatedLogin) -> Iterator[psycopg.Connection]:
    """An autocommit connection logged in as a per-tenant BI login."""
    with psycopg.connect(bi_login.url, autocommit=True) as conn:
        yield conn


def unique_tenant(prefix: str = "t") -> str:
    """A tenant id no other test uses, so tests that write stay isolated from each other."""
    return f"{prefix}-{secrets.token_hex(4)}"
