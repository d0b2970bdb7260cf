"""Provisioning of Postgres 17 + pgvector + Apache AGE, on the host or inside a Debian 13 root.

Debian 13 ships ``postgresql-17``, ``postgresql-17-pgvector`` and ``postgresql-17-age``. On older hosts
(Debian 12 here) the packages do not exist, so Procura builds a Debian 13 root with ``mmdebstrap`` under its
home folder and runs ``initdb``/``pg_ctl`` inside it with ``chroot``; the server listens on 127.0.0.1 on a port
of its own, so the host's network namespace reaches it directly.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from procura.errors import ServerError
from procura.settings import Settings, redact_url

PG_MAJOR = 17
PACKAGES = ("postgresql-17", "postgresql-17-pgvector", "postgresql-17-age")
REQUIRED_EXTENSIONS = ("vector", "age")
MIN_SERVER_VERSION_NUM = 160000
_BIN = f"/usr/lib/postgresql/{PG_MAJOR}/bin"
_CHROOT_DATA = "/var/lib/procura/pgdata"
_READY_MARKER = ".procura-root-ready"

Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    return None


@dataclass(frozen=True)
class ServerStatus:
    """What ``procura db status`` reports."""

    mode: str
    url: str
    running: bool
    version: str | None
    extensions: dict[str, str]
    data_dir: str | None
    root_dir: str | None


def host_is_debian13_or_newer(os_release: Path = Path("/etc/os-release")) -> bool:
    """True when the host can install the Postgres 17 packages natively."""
    try:
        fields = dict(
            line.split("=", 1) for line in os_release.read_text().splitlines() if "=" in line
        )
    except OSError:
        return False
    if fields.get("ID", "").strip('"') != "debian":
        return False
    version = fields.get("VERSION_ID", "0").strip('"')
    return version.isdigit() and int(version) >= 13


class LocalServer:
    """The project's own server: build, initialise, start, stop and reset it idempotently."""

    def __init__(self, settings: Settings, progress: Progress = _quiet) -> None:
        if not settings.managed_server:
            raise ServerError("DATABASE_URL is set: the server is user-managed, not provisioned by Procura")
        self._settings = settings
        self._progress = progress
        self._native = host_is_debian13_or_newer()

    # -- layout -------------------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return "native" if self._native else "chroot"

    @property
    def root(self) -> Path:
        return self._settings.root_dir

    @property
    def data_dir(self) -> str:
        """The data directory as the server sees it."""
        if self._native:
            return str(self._settings.home / "pg" / "data")
        return _CHROOT_DATA

    @property
    def host_data_dir(self) -> Path:
        """The data directory as seen from the host."""
        if self._native:
            return Path(self.data_dir)
        return self.root / _CHROOT_DATA.lstrip("/")

    def _postgres_cmd(self, command: str) -> list[str]:
        if self._native:
            return ["runuser", "-u", "postgres", "--", "sh", "-c", command]
        return ["chroot", str(self.root), "su", "postgres", "-s", "/bin/sh", "-c", command]

    def _run(self, argv: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(list(argv), capture_output=True, text=True, check=False)
        if check and proc.returncode != 0:
            raise ServerError(
                f"command failed ({proc.returncode}): {' '.join(argv)}\n{proc.stdout}{proc.stderr}".strip()
            )
        return proc

    def psql_argv(self) -> list[str]:
        """A real ``psql`` client of the same major version (used by the BI tests)."""
        if self._native:
            return [f"{_BIN}/psql"]
        return ["chroot", str(self.root), f"{_BIN}/psql"]

    # -- binaries -----------------------------------------------------------------------------------------
    def ensure_binaries(self) -> None:
        """Install the Debian packages natively, or build the Debian 13 root once."""
        if self._native:
            if Path(f"{_BIN}/postgres").exists() and Path(f"/usr/lib/postgresql/{PG_MAJOR}/lib/age.so").exists():
                return
            self._require_root("install the Postgres 17 packages")
            self._progress("installing " + " ".join(PACKAGES))
            self._run(["apt-get", "update", "-qq"])
            self._run(["apt-get", "install", "-y", "-qq", *PACKAGES])
            return
        if (self.root / _READY_MARKER).exists():
            return
        self._require_root("build a Debian 13 root with mmdebstrap and chroot into it")
        if shutil.which("mmdebstrap") is None:
            self._progress("installing mmdebstrap")
            self._run(["apt-get", "update", "-qq"])
            self._run(["apt-get", "install", "-y", "-qq", "mmdebstrap"])
        building = self.root.with_name(self.root.name + ".building")
        if building.exists():
            shutil.rmtree(building)
        building.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        self._progress(f"building a Debian 13 root with {', '.join(PACKAGES)} in {self.root} (about 30 s)")
        argv = ["mmdebstrap", "--variant=apt", "--include=" + ",".join(PACKAGES), "trixie", str(building)]
        if self._settings.debian_mirror:
            argv.append(self._settings.debian_mirror)
        self._run(argv)
        (building / _READY_MARKER).write_text(f"built in {time.monotonic() - started:.1f}s\n")
        if self.root.exists():
            shutil.rmtree(self.root)
        building.rename(self.root)
        self._progress(f"root ready in {time.monotonic() - started:.1f}s")

    @staticmethod
    def _require_root(action: str) -> None:
        if os.geteuid() != 0:
            raise ServerError(
                f"Procura needs root to {action}; run as root, or point DATABASE_URL at your own "
                "Postgres >= 16 with the vector and age extensions"
            )

    # -- cluster ------------------------------------------------------------------------------------------
    def ensure_cluster(self) -> None:
        """Run initdb once and write the server configuration."""
        if (self.host_data_dir / "PG_VERSION").exists():
            return
        self._progress(f"initdb {self.data_dir}")
        self.host_data_dir.mkdir(parents=True, exist_ok=True)
        pwfile = self.host_data_dir.parent / ".pwfile"
        pwfile.write_text(self._settings.superuser_password.get_secret_value() + "\n")
        self._chown_postgres(self.host_data_dir.parent)
        server_pwfile = str(Path(self.data_dir).parent / ".pwfile")
        try:
            self._run(
                self._postgres_cmd(
                    f"{_BIN}/initdb -D {shlex.quote(self.data_dir)} -U postgres --encoding=UTF8 "
                    f"--locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 "
                    f"--pwfile={shlex.quote(server_pwfile)}"
                )
            )
        finally:
            pwfile.unlink(missing_ok=True)
        conf = self.host_data_dir / "postgresql.auto.conf"
        conf.write_text(
            conf.read_text()
            + "\n".join(
                [
                    "listen_addresses = '127.0.0.1'",
                    f"port = {self._settings.pg_port}",
                    "unix_socket_directories = '/tmp'",
                    "shared_preload_libraries = 'age'",
                    "max_connections = 200",
                    "shared_buffers = '512MB'",
                    "maintenance_work_mem = '512MB'",
                    "fsync = on",
                    "",
                ]
            )
        )
        self._chown_postgres(self.host_data_dir)

    def _chown_postgres(self, path: Path) -> None:
        owner = "postgres:postgres"
        if self._native:
            self._run(["chown", "-R", owner, str(path)])
        else:
            inside = "/" + str(path.relative_to(self.root))
            self._run(["chroot", str(self.root), "chown", "-R", owner, inside])

    def is_running(self) -> bool:
        proc = self._run(
            self._postgres_cmd(f"{_BIN}/pg_ctl -D {shlex.quote(self.data_dir)} status"), check=False
        )
        return proc.returncode == 0

    def start(self) -> None:
        if self.is_running():
            return
        if _port_in_use(self._settings.pg_host, self._settings.pg_port):
            raise ServerError(
                f"port {self._settings.pg_port} on {self._settings.pg_host} is taken by another process; "
                "set PROCURA_PG_PORT to a free port"
            )
        self._progress(f"starting Postgres {PG_MAJOR} on {self._settings.pg_host}:{self._settings.pg_port}")
        log = str(Path(self.data_dir).parent / "postgres.log")
        self._run(
            self._postgres_cmd(
                f"{_BIN}/pg_ctl -D {shlex.quote(self.data_dir)} -l {shlex.quote(log)} -w -t 60 start"
            )
        )

    def stop(self) -> None:
        if not self.is_running():
            return
        self._progress("stopping Postgres")
        self._run(self._postgres_cmd(f"{_BIN}/pg_ctl -D {shlex.quote(self.data_dir)} -m fast -w stop"))

    def up(self) -> str:
        """Everything needed for a working database; returns the admin URL."""
        self.ensure_binaries()
        self.ensure_cluster()
        self.start()
        ensure_database(self._settings, self._progress)
        return self._settings.admin_url

    def reset(self) -> str:
        """Stop the server, delete its data directory (the root stays) and bring it up again."""
        self.stop()
        if self.host_data_dir.exists():
            shutil.rmtree(self.host_data_dir)
        return self.up()


def _port_in_use(host: str, port: int) -> bool:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def wait_until_ready(url: str, timeout_s: float = 30.0) -> None:
    """Poll until the server accepts connections."""
    deadline = time.monotonic() + timeout_s
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with psycopg.connect(url, connect_timeout=3):
                return
        except psycopg.OperationalError as exc:
            last = exc
            time.sleep(0.3)
    raise ServerError(f"server at {redact_url(url)} not reachable after {timeout_s:.0f}s: {last}")


def check_server(conn: psycopg.Connection) -> dict[str, str]:
    """Check version and extensions of a server; returns installed extension versions.

    Raises:
        ServerError: naming what is missing and how to install it.
    """
    version_num = int(conn.execute("show server_version_num").fetchone()[0])  # type: ignore[index]
    if version_num < MIN_SERVER_VERSION_NUM:
        raise ServerError(
            f"Postgres {version_num // 10000} is too old: Procura needs 16 or newer "
            f"(Debian 13: apt-get install {' '.join(PACKAGES)})"
        )
    rows = conn.execute("select name, default_version from pg_available_extensions").fetchall()
    available: dict[str, str | None] = dict(rows)
    missing = [name for name in REQUIRED_EXTENSIONS if name not in available]
    if missing:
        hints = {
            "vector": "pgvector (Debian: postgresql-17-pgvector; source: github.com/pgvector/pgvector)",
            "age": "Apache AGE (Debian: postgresql-17-age; source: github.com/apache/age)",
        }
        raise ServerError(
            "the server lacks the extension(s) "
            + ", ".join(missing)
            + "; install "
            + "; ".join(hints[m] for m in missing)
            + " and add 'age' to shared_preload_libraries"
        )
    return {str(k): str(v) for k, v in available.items() if k in REQUIRED_EXTENSIONS}


def ensure_database(settings: Settings, progress: Progress = _quiet) -> None:
    """Create the database (if missing) and the extensions in it, as the admin role."""
    wait_until_ready(settings.maintenance_url())
    with psycopg.connect(settings.maintenance_url(), autocommit=True) as conn:
        check_server(conn)
        exists = conn.execute(
            "select 1 from pg_database where datname = %s", (settings.database_name,)
        ).fetchone()
        if exists is None:
            progress(f"creating database {settings.database_name}")
            conn.execute(sql.SQL("create database {}").format(sql.Identifier(settings.database_name)))
    with psycopg.connect(settings.admin_url, autocommit=True) as conn:
        for extension in REQUIRED_EXTENSIONS:
            conn.execute(sql.SQL("create extension if not exists {}").format(sql.Identifier(extension)))


def drop_database(settings: Settings, db_name: str) -> None:
    """Drop a database of the same server, closing its connections first."""
    with psycopg.connect(settings.maintenance_url(), autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(db_name)))


def server_status(settings: Settings) -> ServerStatus:
    """Describe the server without changing anything."""
    server = LocalServer(settings) if settings.managed_server else None
    running = server.is_running() if server is not None else True
    version: str | None = None
    extensions: dict[str, str] = {}
    if running:
        try:
            with psycopg.connect(settings.admin_url, connect_timeout=3) as conn:
                version = str(conn.execute("show server_version").fetchone()[0])  # type: ignore[index]
                extensions = dict(conn.execute("select extname, extversion from pg_extension").fetchall())
        except psycopg.OperationalError:
            running = False
    return ServerStatus(
        mode=server.mode if server is not None else "external",
        url=redact_url(settings.admin_url),
        running=running,
        version=version,
        extensions=extensions,
        data_dir=str(server.host_data_dir) if server is not None else None,
        root_dir=str(server.root) if server is not None and server.mode == "chroot" else None,
    )


def psql_argv(settings: Settings) -> list[str]:
    """The argv prefix of a real psql client that can reach the configured server."""
    if settings.managed_server:
        return LocalServer(settings).psql_argv()
    found = shutil.which("psql")
    if found is None:
        raise ServerError("psql is not on PATH (Debian: apt-get install postgresql-client)")
    return [found]
