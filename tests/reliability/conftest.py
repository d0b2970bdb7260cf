"""Fixtures of the reliability suite: throwaway databases, a small corpus, the shared demo world, a server thread.

Every test here runs the product as a user would (the ``procura`` CLI in a subprocess, the API under uvicorn on
loopback) and bounds its own time; the whole suite stays within a few minutes on two cores.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from evaluation.world import DemoWorld
from procura.db.migrate import migrate
from procura.db.provision import drop_database, ensure_database
from procura.settings import REPO_ROOT, Settings

#: Seed of the random kill points (printed by the test; set it to replay a run).
SEED_ENV = "PROCURA_RELIABILITY_SEED"


@pytest.fixture(scope="session")
def world(demo_world: DemoWorld) -> DemoWorld:
    """The session's demo world (tests/conftest.py: shared with the security suite and the metrics seed)."""
    return demo_world


@pytest.fixture(scope="session")
def rng() -> random.Random:
    seed = int(os.environ.get(SEED_ENV) or time.time_ns() % 1_000_000)
    print(f"\n[reliability] {SEED_ENV}={seed}")
    return random.Random(seed)


@contextmanager
def scratch_database(base: Settings, label: str) -> Iterator[Settings]:
    """A migrated database of the shared server that exists for the block only."""
    name = f"procura_rel_{label}_{os.getpid()}"
    settings = base.with_database(name)
    drop_database(base, name)
    ensure_database(settings)
    with psycopg.connect(settings.admin_url, autocommit=True) as conn:
        migrate(conn, settings)
    try:
        yield settings
    finally:
        drop_database(base, name)


def small_corpus(source: Path, target: Path, tenant: str = "tenant-99", invoices: int = 4) -> Path:
    """A copy of one tenant's master data, one agreement, one manual and a few invoices (fast to ingest)."""
    src = source / "tenants" / tenant
    dst = target / "tenants" / tenant
    for name in ("companies.json", "suppliers.json", "catalog/product_groups.json", "catalog/products.csv"):
        (dst / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / name, dst / name)
    for folder in ("agreements", "manuals"):
        (dst / folder).mkdir(parents=True, exist_ok=True)
        first = sorted((src / folder).glob("*.md"))[0]
        shutil.copy2(first, dst / folder / first.name)
    chosen = sorted((src / "invoices").rglob("*.json"))[:invoices]
    for path in chosen:
        out = dst / path.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, out)
    return target


def procura_env(settings: Settings, **extra: str) -> dict[str, str]:
    """Environment of a ``procura`` subprocess aimed at ``settings``' database."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PROCURA_DB_NAME": settings.database_name, "PROCURA_PG_PORT": str(settings.pg_port)}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerThread:
    """An ASGI app under uvicorn on loopback, in a thread of this process (stopped by :meth:`stop`)."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, name="procura-api-under-test", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 30) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@contextmanager
def serving(app: Any) -> Iterator[ServerThread]:
    server = ServerThread(app).start()
    try:
        yield server
    finally:
        server.stop()


__all__ = ["REPO_ROOT", "ServerThread", "free_port", "procura_env", "scratch_database", "serving", "small_corpus"]
