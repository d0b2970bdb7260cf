"""Versioned SQL migrations: numbered files, a migrations table, one transaction each, safe to re-run.

A file ``NNNN_name.sql`` runs as the owner role (so every object it creates is owned by ``procura_owner``)
unless its first line is ``-- procura: run-as admin`` (roles, database grants).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from procura.errors import MigrationError
from procura.settings import APP_ROLE, OWNER_ROLE, Settings

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_ADMIN_MARKER = "-- procura: run-as admin"
_LOCK_KEY = 0x70726F63  # "proc": serialises concurrent `procura db migrate` runs


@dataclass(frozen=True)
class Migration:
    """One migration file."""

    version: int
    name: str
    sql: str
    checksum: str
    run_as_admin: bool


def discover(directory: Path = MIGRATIONS_DIR) -> tuple[Migration, ...]:
    """All migration files, ordered by version; duplicate versions are errors.

    Gaps are allowed: areas of the code base own number ranges (e.g. 0010-0014 the API, 0015-0019 the graph)
    so that work in parallel never collides on a number.
    """
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"{path.name}: migration files are named NNNN_lower_snake.sql")
        text = path.read_text()
        found.append(
            Migration(
                version=int(match.group(1)),
                name=match.group(2),
                sql=text,
                checksum=hashlib.sha256(text.encode()).hexdigest(),
                run_as_admin=text.startswith(_ADMIN_MARKER),
            )
        )
    versions = [m.version for m in found]
    duplicates = sorted({v for v in versions if versions.count(v) > 1})
    if duplicates:
        raise MigrationError("duplicate migration version(s): " + ", ".join(f"{v:04d}" for v in duplicates))
    return tuple(found)


def _ensure_table(conn: psycopg.Connection) -> None:
    conn.execute("create schema if not exists procura_meta")
    conn.execute(
        """
        create table if not exists procura_meta.schema_migrations (
            version    integer primary key,
            name       text        not null,
            checksum   text        not null,
            applied_at timestamptz not null default now()
        )
        """
    )


def applied_versions(conn: psycopg.Connection) -> dict[int, str]:
    """Applied migration versions and their checksums (empty before the first migration)."""
    exists = conn.execute("select to_regclass('procura_meta.schema_migrations')").fetchone()
    if exists is None or exists[0] is None:
        return {}
    return dict(conn.execute("select version, checksum from procura_meta.schema_migrations").fetchall())


def pending(conn: psycopg.Connection, migrations: tuple[Migration, ...] | None = None) -> list[Migration]:
    """Migrations not yet applied; raises if an applied file was edited afterwards."""
    migrations = discover() if migrations is None else migrations
    applied = applied_versions(conn)
    for migration in migrations:
        checksum = applied.get(migration.version)
        if checksum is not None and checksum != migration.checksum:
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name} changed after it was applied; "
                "add a new migration instead of editing an applied one"
            )
    return [m for m in migrations if m.version not in applied]


def migrate(
    admin_conn: psycopg.Connection,
    settings: Settings,
    progress: Callable[[str], None] = lambda _: None,
) -> list[Migration]:
    """Apply pending migrations (each in its own transaction) and set the role passwords.

    Args:
        admin_conn: a superuser connection to the target database, in autocommit mode.
        settings: source of the role passwords.
        progress: receives one line per applied migration.

    Returns:
        The migrations applied by this call (empty when everything was current).
    """
    if not admin_conn.autocommit:
        raise MigrationError("migrate() needs an autocommit connection; it manages its own transactions")
    with admin_conn.transaction():
        _ensure_table(admin_conn)
    done: list[Migration] = []
    for migration in discover():
        with admin_conn.transaction():
            admin_conn.execute("select pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
            if migration.version in applied_versions(admin_conn):
                continue
            pending(admin_conn)
            if not migration.run_as_admin:
                admin_conn.execute(sql.SQL("set local role {}").format(sql.Identifier(OWNER_ROLE)))
            try:
                admin_conn.execute(migration.sql.encode())
            except psycopg.Error as exc:
                raise MigrationError(f"migration {migration.version:04d}_{migration.name} failed: {exc}") from exc
            admin_conn.execute("reset role")
            admin_conn.execute(
                "insert into procura_meta.schema_migrations (version, name, checksum) values (%s, %s, %s)",
                (migration.version, migration.name, migration.checksum),
            )
        progress(f"applied {migration.version:04d}_{migration.name}")
        done.append(migration)
    pending(admin_conn)
    set_role_passwords(admin_conn, settings)
    return done


def set_role_passwords(admin_conn: psycopg.Connection, settings: Settings) -> None:
    """Give the login roles the passwords from settings (roles are cluster-wide, passwords too), and retire the
    shared BI login once no database of the server lets it connect (migration 0031)."""
    for role, secret in (
        (OWNER_ROLE, settings.owner_password),
        (APP_ROLE, settings.app_password),
    ):
        admin_conn.execute(
            sql.SQL("alter role {} with login password {}").format(
                sql.Identifier(role), sql.Literal(secret.get_secret_value())
            )
        )
    # Design note: BI tools log in as per-tenant logins (procura.bi); procura_bi is their NOLOGIN group. It keeps
    # LOGIN only while a database migrated before 0031 still grants it CONNECT, so that database keeps working.
    admin_conn.execute(
        """
        do $$
        begin
            if exists (select from pg_roles where rolname = 'procura_bi' and rolcanlogin)
               and not exists (
                   select from pg_database as d, aclexplode(d.datacl) as a
                   where a.grantee = 'procura_bi'::regrole and a.privilege_type = 'CONNECT')
            then
                alter role procura_bi nologin password null;
            end if;
        end
        $$
        """
    )
