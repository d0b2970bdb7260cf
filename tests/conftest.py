"""Shared fixtures: a fresh database per test run on the real Postgres 17 + pgvector + AGE server.

Database-free tests (``tests/unit``) never touch these fixtures; integration tests get a database created for
this run only, migrated from scratch, and dropped at the end.
"""

from __future__ import annotations

import functools
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

import procura.db.migrate
from evaluation.world import DemoWorld, release_test_world, world_for_tests
from procura.bi import CreatedLogin
from procura.db.provision import LocalServer, drop_database, ensure_database
from procura.settings import Settings, get_settings
from tests.bi_logins import temporary_bi_login

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


#: Database test modules the second xdist worker may run, longest first, while the first worker runs every other
#: database module in collection order (the serial group). Each xdist worker is a pytest session of its own, so a
#: module listed here gets that worker's session database (migrated once per worker, a few seconds) and builds
#: every session fixture it uses again there: only modules whose expensive fixtures are their own (a database of
#: their own, or session fixtures that no serial module needs) belong here, or the move costs more than it saves.
#: None of them may change anything server-wide that another module sees: no restart or stop of the shared server,
#: no ALTER SYSTEM / pg_reload_conf / server settings, no role or database with a fixed name (roles, BI logins and
#: databases are named per run or per test; migrations of the shared roles are serialized, see
#: ``_migrate_one_at_a_time``). ``_server_unchanged`` fails any database module during which the server was
#: restarted or reconfigured, so breaking this rule fails loudly instead of flaking. A module not listed stays in
#: the serial group: that is always safe, only slower. tests/reliability/test_postgres_restart.py stays there
#: although its cluster is its own: its outage and recovery windows are timed, and next to another database
#: module (rather than the CPU-only unit tier it has always run beside) they failed on a loaded machine. The
#: tests/integration/test_retrieval_* modules stay there too: test_retrieval_search's document lookup reads
#: marts.validated_invoice_lines, which only the serial modules before it build into the session database (in a
#: session database of its own it fails with "relation does not exist").
CONCURRENT_MODULES: dict[str, str] = {
    "tests/integration/test_incremental_marts.py": "a fresh database of its own",
    "tests/integration/test_dbt_project.py": "a fresh database of its own (dbt build, dbt docs)",
    "tests/integration/test_expectations_landing.py": "a fresh database of its own",
    "tests/integration/test_api_outage.py": "terminates only its own API connections to its worker's database",
    "tests/integration/test_metric_rollups.py": "a fresh database of its own",
    "tests/integration/test_graph_pipeline.py": "its own corpus, a tenant of its own",
    "tests/integration/test_bi_isolation.py": "a fresh database of its own; BI logins named per run",
    "tests/integration/test_marts_policy.py": "a fresh database of its own",
    "tests/integration/test_tenant_blast_radius.py": "a fresh database of its own (the embedder: once per worker)",
}

SERIAL_SCOPE = "database"


def _scope_of(nodeid: str) -> str:
    """The xdist work unit of a test: one per unit test, one per listed module, one for all other database tests."""
    if nodeid.startswith("tests/unit/"):
        return nodeid
    module = nodeid.split("::", 1)[0]
    return module if module in CONCURRENT_MODULES else SERIAL_SCOPE


def pytest_configure(config: pytest.Config) -> None:
    missing = [path for path in CONCURRENT_MODULES if not (config.rootpath / path).is_file()]
    if missing:
        raise pytest.UsageError(f"tests/conftest.py CONCURRENT_MODULES names modules that do not exist: {missing}")


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under pytest-xdist (``make test`` runs ``-n 2``) the database tests not in CONCURRENT_MODULES are one unit of
    work, run by one worker in collection order: those tests share the session's databases and fixtures. The other
    worker first takes the modules of CONCURRENT_MODULES (each a unit, longest first), then the unit tier test by
    test; whichever worker is free takes what is left, so neither idles while the other has a long queue."""
    from xdist.scheduler import LoadScopeScheduling

    class TierScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope_of(nodeid)

        def schedule(self) -> None:
            """LoadScopeScheduling.schedule, but in our order instead of by size: the serial group first (the
            critical path), then the listed modules in their listed order, then the unit tier in collection order."""
            assert self.collection_is_completed
            if self.collection is not None:
                for node in self.nodes:
                    self._reschedule(node)
                return
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = list(next(iter(self.registered_collections.values())))
            if not self.collection:
                return
            units: dict[str, dict[str, bool]] = {}
            for nodeid in self.collection:
                units.setdefault(_scope_of(nodeid), {})[nodeid] = False
            rank = {SERIAL_SCOPE: 0, **{module: i + 1 for i, module in enumerate(CONCURRENT_MODULES)}}
            for scope in sorted(units, key=lambda scope: rank.get(scope, len(rank))):
                self.workqueue[scope] = units[scope]
            for _ in range(len(self.nodes) - len(self.workqueue)):
                unused, _assigned = self.assigned_work.popitem()
                unused.shutdown()
            for node in self.nodes:
                self._assign_work_unit(node)
            for node in self.nodes:  # a worker runs a test once it holds the next one: give it two units (#277)
                self._reschedule(node)
            if not self.workqueue:
                for node in self.nodes:
                    node.shutdown()

    return TierScheduling(config, log)


@contextmanager
def server_lock(settings: Settings, name: str) -> Iterator[None]:
    """A lock of the whole server (an advisory lock in its ``postgres`` database; advisory locks of the migrated
    databases themselves are per database), held by this process until the block ends."""
    with psycopg.connect(settings.maintenance_url(), autocommit=True) as conn:
        conn.execute("select pg_advisory_lock(hashtext(%s))", (f"procura-tests:{name}",))
        yield


def _migrate_one_at_a_time(migrate: Callable[..., Any]) -> Callable[..., Any]:
    """Migrations alter the cluster-wide roles (passwords, the BI group): two of them at once in different databases
    of one server can fail with "tuple concurrently updated". The two xdist workers migrate their own databases at
    the same time, so every migration of the test run (session, module and world databases) takes the server lock."""

    @functools.wraps(migrate)
    def locked(admin_conn: psycopg.Connection, settings: Settings, *args: Any, **kwargs: Any) -> Any:
        with server_lock(settings, "migrate"):
            return migrate(admin_conn, settings, *args, **kwargs)

    locked.__wrapped_unlocked__ = migrate  # type: ignore[attr-defined]
    return locked


if not hasattr(procura.db.migrate.migrate, "__wrapped_unlocked__"):
    # before any test module or other conftest imports it (evaluation.world imports it when it is called)
    procura.db.migrate.migrate = _migrate_one_at_a_time(procura.db.migrate.migrate)
migrate = procura.db.migrate.migrate


def _server_fingerprint(settings: Settings) -> tuple[Any, ...]:
    with psycopg.connect(settings.maintenance_url(), autocommit=True) as conn:
        row = conn.execute("select pg_postmaster_start_time(), pg_conf_load_time()").fetchone()
        files = conn.execute("select md5(coalesce(string_agg(concat_ws('|', sourcefile, name, setting, applied),"
                             " ',' order by sourcefile, seqno), '')) from pg_file_settings").fetchone()
    return (*(row or ()), *(files or ()))


@pytest.fixture(autouse=True, scope="module")
def _server_unchanged(request: pytest.FixtureRequest) -> Iterator[None]:
    """Under xdist the two workers run database modules at the same time (CONCURRENT_MODULES): fail the module
    during which the shared server was restarted or reconfigured, whichever worker did it, instead of flaking."""
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) < 2 or "tests/unit/" in request.path.as_posix():
        yield
        return
    base: Settings = request.getfixturevalue("base_settings")
    before = _server_fingerprint(base)
    yield
    after = _server_fingerprint(base)
    if after != before:
        pytest.fail(
            f"the shared Postgres server was restarted or reconfigured while {request.path.name} ran "
            f"(postmaster start, config load, config files: {before} -> {after}). Under `pytest -n 2` the other "
            "worker runs database modules at the same time (tests/conftest.py CONCURRENT_MODULES): a test that "
            "restarts or reconfigures the shared server must use a server of its own (see "
            "tests/reliability/test_postgres_restart.py) or get a phase of its own in the scheduler."
        )


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
