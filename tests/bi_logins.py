"""Per-tenant BI logins for tests: created with a unique name (roles are shared by every database of the server)
and dropped afterwards, so parallel test runs never collide."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql

from procura.bi import BiLoginError, CreatedLogin, create_login, drop_login
from procura.settings import Settings


def unique_login_name(prefix: str = "bi_test") -> str:
    """A login name no other test run uses."""
    return f"{prefix}_{secrets.token_hex(5)}"


@contextmanager
def temporary_bi_login(settings: Settings, tenant_id: str, *, name: str | None = None) -> Iterator[CreatedLogin]:
    """A BI login bound to ``tenant_id`` in ``settings``' database, dropped on exit (if a test has not already)."""
    name = name or unique_login_name()
    with psycopg.connect(settings.admin_url, autocommit=True) as conn:
        created = create_login(conn, settings, name=name, tenant_id=tenant_id)
    try:
        yield created
    finally:
        with psycopg.connect(settings.admin_url, autocommit=True) as conn:
            try:
                drop_login(conn, settings, name)
            except BiLoginError:
                # the test removed the binding itself: drop what is left of the role
                remove_role(conn, settings, name)


def remove_role(conn: psycopg.Connection, settings: Settings, name: str) -> None:
    """Drop a role that may have lost its binding (CONNECT on the database is its only privilege)."""
    if conn.execute("select from pg_roles where rolname = %s", (name,)).fetchone() is None:
        return
    role, database = sql.Identifier(name), sql.Identifier(settings.database_name)
    conn.execute(sql.SQL("revoke connect on database {} from {}").format(database, role))
    conn.execute(sql.SQL("drop role {}").format(role))
