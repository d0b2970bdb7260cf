"""Postgres restarted while the API is under load: requests fail cleanly (503), the API recovers by itself, and
nothing that was acknowledged is lost.

The shared server (port 54329) is never touched: this test initdb's a SECOND cluster of its own, from the same
Postgres 17 + AGE binaries the project provisions (inside the same Debian root when the host is older), on a
free port, and removes it afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from procura.db.migrate import migrate
from procura.db.provision import PG_MAJOR, ensure_database, host_is_debian13_or_newer
from procura.settings import Settings
from tests.reliability.conftest import free_port, serving

pytestmark = pytest.mark.integration

BIN = f"/usr/lib/postgresql/{PG_MAJOR}/bin"
CONCURRENCY = 6
LOAD_S = 34.0
OUTAGE_S = 6.0
RESTART_AT_S = 6.0
RECOVERY_S = 10.0


class SecondCluster:
    """A throwaway Postgres cluster next to the project's own (same binaries, other data dir and port)."""

    def __init__(self, base: Settings, name: str) -> None:
        self.native = host_is_debian13_or_newer()
        self.root = base.root_dir
        self.port = free_port()
        # next to the project's own data dir (LocalServer's layout), as the server sees it and as the host does
        self.inside = str(base.home / "pg" / name) if self.native else f"/var/lib/procura/{name}"
        self.host_dir = Path(self.inside) if self.native else self.root / self.inside.lstrip("/")
        self.settings = base.model_copy(update={"pg_port": self.port, "db_name": "procura"})

    def _as_postgres(self, command: str) -> list[str]:
        if self.native:
            return ["runuser", "-u", "postgres", "--", "sh", "-c", command]
        return ["chroot", str(self.root), "su", "postgres", "-s", "/bin/sh", "-c", command]

    def _run(self, argv: list[str]) -> None:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)}: {proc.stdout}{proc.stderr}")

    def _chown(self) -> None:
        if self.native:
            self._run(["chown", "-R", "postgres:postgres", str(self.host_dir)])
        else:
            self._run(["chroot", str(self.root), "chown", "-R", "postgres:postgres", self.inside])

    def init(self) -> None:
        self.host_dir.mkdir(parents=True, exist_ok=True)
        (self.host_dir / "pw").write_text(self.settings.superuser_password.get_secret_value() + "\n")
        self._chown()
        data = shlex.quote(f"{self.inside}/data")
        self._run(self._as_postgres(
            f"{BIN}/initdb -D {data} -U postgres --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust "
            f"--auth-host=scram-sha-256 --pwfile={shlex.quote(self.inside + '/pw')} >/dev/null"))
        with (self.host_dir / "data" / "postgresql.auto.conf").open("a") as conf:
            conf.write("\n".join([
                "listen_addresses = '127.0.0.1'", f"port = {self.port}", "unix_socket_directories = '/tmp'",
                "shared_preload_libraries = 'age'", "max_connections = 60", "shared_buffers = '64MB'",
                "fsync = off", "synchronous_commit = off", "",
            ]))
        self._chown()

    def pg_ctl(self, action: str, *extra: str) -> None:
        data = shlex.quote(f"{self.inside}/data")
        log = shlex.quote(f"{self.inside}/server.log")
        self._run(self._as_postgres(f"{BIN}/pg_ctl -D {data} -l {log} -w -t 60 {' '.join(extra)} {action}"))

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError):  # already stopped
            self.pg_ctl("stop", "-m", "immediate")
        shutil.rmtree(self.host_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(settings: Settings) -> Iterator[SecondCluster]:
    if not settings.managed_server:
        pytest.fail("the restart test needs the project's own server binaries (DATABASE_URL is set)")
    second = SecondCluster(settings, f"reliability-{settings.database_name}")
    try:
        second.init()
        second.pg_ctl("start")
        ensure_database(second.settings)
        with psycopg.connect(second.settings.admin_url, autocommit=True) as conn:
            migrate(conn, second.settings)
        yield second
    finally:
        second.remove()


async def _drive(url: str, headers: dict[str, str], body: dict[str, Any], cluster: SecondCluster,
                 timeline: list[tuple[float, float, int | str]],
                 ready: list[tuple[float, float, int | str]]) -> dict[str, float]:
    started = time.monotonic()
    marks: dict[str, float] = {}

    async def worker(client: httpx.AsyncClient) -> None:
        while time.monotonic() - started < LOAD_S:
            t = time.monotonic() - started
            try:
                response = await client.post(f"{url}/v1/metrics/finance.company_spend/query", json=body,
                                             headers=headers)
                status: int | str = response.status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            timeline.append((t, time.monotonic() - started, status))
            await asyncio.sleep(0.02)

    async def restarter() -> None:
        await asyncio.sleep(RESTART_AT_S)
        marks["stop"] = time.monotonic() - started
        await asyncio.to_thread(cluster.pg_ctl, "stop", "-m", "fast")
        await asyncio.sleep(OUTAGE_S)  # longer than any client or readiness timeout: an outage, not a blip
        marks["start"] = time.monotonic() - started
        await asyncio.to_thread(cluster.pg_ctl, "start")
        marks["up"] = time.monotonic() - started

    async def readiness(client: httpx.AsyncClient) -> None:
        while time.monotonic() - started < LOAD_S:
            t = time.monotonic() - started
            try:
                status: int | str = (await client.get(f"{url}/readyz")).status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            ready.append((t, time.monotonic() - started, status))
            await asyncio.sleep(0.25)

    limits = httpx.Limits(max_connections=CONCURRENCY)
    async with httpx.AsyncClient(timeout=httpx.Timeout(20.0), limits=limits) as client, \
            httpx.AsyncClient(timeout=httpx.Timeout(20.0)) as probe:
        await asyncio.gather(restarter(), readiness(probe), *(worker(client) for _ in range(CONCURRENCY)))
    return marks


@dataclass(frozen=True)
class RestartRun:
    """Every request of the load, /readyz's answers, and when the database went down and came back."""

    marks: dict[str, float]
    timeline: list[tuple[float, float, int | str]]
    readyz: list[tuple[float, float, int | str]]
    ready_after: int
    audited: int

    def statuses(self) -> Counter[int | str]:
        return Counter(s for _, _, s in self.timeline)

    def during(self) -> list[int | str]:
        """Statuses of every request in flight at any moment between the stop and the restart."""
        return [s for t0, t1, s in self.timeline if t0 < self.marks["up"] and t1 > self.marks["stop"]]


@pytest.fixture(scope="module")
def restart_run(cluster: SecondCluster, tmp_path_factory: pytest.TempPathFactory) -> RestartRun:
    from api.main import create_app
    from procura.auth import create_key
    from procura.transform import build_marts
    from semantic.loader import load_registry
    from semantic.schema import load_manifest

    tmp_path = tmp_path_factory.mktemp("restart")
    build_marts(cluster.settings, target_path=tmp_path / "target", log_path=tmp_path / "logs")
    with psycopg.connect(cluster.settings.owner_url, autocommit=True) as conn:
        key = create_key(conn, tenant_id="tenant-42", scopes=("invoice:aggregate", "procurement:read"),
                         rate_limit_per_minute=1_000_000)
    registry = load_registry(load_manifest(tmp_path / "target" / "manifest.json"))
    headers = {"Authorization": f"Bearer {key.key}"}
    body = {"parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}}
    timeline: list[tuple[float, float, int | str]] = []
    readyz: list[tuple[float, float, int | str]] = []
    with serving(create_app(cluster.settings, registry=registry)) as server:
        marks = asyncio.run(_drive(server.url, headers, body, cluster, timeline, readyz))
        ready = httpx.get(f"{server.url}/readyz", timeout=10)
    with psycopg.connect(cluster.settings.owner_url) as conn:
        audited = conn.execute("select count(*) from app.audit_log where key_id = %s and outcome <> 'error'",
                               (key.key_id,)).fetchone()[0]  # type: ignore[index]
    run = RestartRun(marks, timeline, readyz, ready.status_code, int(audited))
    slowest = max(end - begin for begin, end, _ in timeline)
    print(f"\n[reliability] restart marks {marks}; responses {dict(run.statuses())}; during the outage "
          f"{dict(Counter(run.during()))}; slowest request {slowest:.1f}s")
    return run


def test_api_recovers_by_itself_after_a_postgres_restart(restart_run: RestartRun) -> None:
    run = restart_run
    before = [s for t0, t1, s in run.timeline if t1 < run.marks["stop"]]
    after = [s for t0, _, s in run.timeline if t0 > run.marks["up"] + RECOVERY_S]
    slowest = max(end - begin for begin, end, _ in run.timeline)
    assert before and set(before) == {200}, Counter(before)
    assert run.during(), "no request was in flight while the database was down"
    assert slowest < 20, f"a request hung for {slowest:.1f}s"
    assert not [s for s in run.statuses() if isinstance(s, str)], f"broken connections: {dict(run.statuses())}"
    # a probe that starts during the outage may wait for the pool and finish after the restart (then 200)
    probes = [s for t0, _, s in run.readyz if run.marks["stop"] + 0.5 < t0 < run.marks["start"]]
    assert 503 in probes and set(probes) <= {200, 503}, f"/readyz probes during the outage: {Counter(probes)}"
    assert after and set(after) == {200}, f"the API did not recover by itself: {Counter(after)}"
    assert run.ready_after == 200


def test_nothing_acknowledged_is_lost(restart_run: RestartRun) -> None:
    ok = restart_run.statuses()[200]
    assert restart_run.audited >= ok, f"acknowledged queries lost from the audit log: {restart_run.audited} < {ok}"


def test_requests_during_the_outage_fail_cleanly_with_503(restart_run: RestartRun) -> None:
    statuses = restart_run.statuses()
    assert set(statuses) <= {200, 503}, (
        f"requests must succeed or fail cleanly with 503, never 500: {dict(statuses)}; during the outage "
        f"{dict(Counter(restart_run.during()))}")
