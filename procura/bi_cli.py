"""``procura bi``: create, list, rotate and drop the per-tenant BI logins (see :mod:`procura.bi`)."""

from __future__ import annotations

import sys

import click
import psycopg

from procura.bi import (
    DEFAULT_CONNECTION_LIMIT,
    DEFAULT_STATEMENT_TIMEOUT_MS,
    CreatedLogin,
    LoginDefaults,
    create_login,
    drop_login,
    list_logins,
    rotate_login,
)
from procura.cli_support import ProcuraGroup
from procura.progress import echo_progress
from procura.settings import get_settings


@click.group("bi", cls=ProcuraGroup)
def bi() -> None:
    """BI tool logins: one per tenant, bound to it in the database (admin only)."""


def _admin() -> psycopg.Connection:
    return psycopg.connect(get_settings().admin_url, autocommit=True)


def _read_password(password_stdin: bool) -> str | None:
    if not password_stdin:
        return None
    return sys.stdin.readline().rstrip("\r\n")


def _print_url(created: CreatedLogin, verb: str) -> None:
    echo_progress(f"{verb} BI login {created.name} for tenant {created.tenant_id}; the URL below carries its "
                  "password and is shown only now")
    click.echo(created.url)


@bi.command("create-login")
@click.option("--tenant", required=True, help="The tenant every session of the login sees.")
@click.option("--password-stdin", is_flag=True, help="Read the password from stdin (default: a random one).")
@click.option("--statement-timeout-ms", type=int, default=DEFAULT_STATEMENT_TIMEOUT_MS, show_default=True,
              help="Default statement_timeout of the login's sessions.")
@click.option("--connection-limit", type=int, default=DEFAULT_CONNECTION_LIMIT, show_default=True,
              help="Concurrent sessions the login may open.")
@click.argument("name")
def bi_create_login(
    tenant: str, password_stdin: bool, statement_timeout_ms: int, connection_limit: int, name: str
) -> None:
    """Create login NAME for one tenant and print its connection URL once (stdout: the URL only)."""
    defaults = LoginDefaults(statement_timeout_ms=statement_timeout_ms, connection_limit=connection_limit)
    password = _read_password(password_stdin)
    with _admin() as conn:
        created = create_login(conn, get_settings(), name=name, tenant_id=tenant, password=password,
                               defaults=defaults)
    _print_url(created, "created")


@bi.command("list")
def bi_list() -> None:
    """List the BI logins of the database (names, tenants, dates; never passwords)."""
    with _admin() as conn:
        logins = list_logins(conn)
    for login in logins:
        rotated = f"rotated {login.rotated_at:%Y-%m-%d %H:%M}" if login.rotated_at else "never rotated"
        state = "active" if login.can_login else "no-login"
        click.echo(f"{login.name}  {login.tenant_id}  {state}  limit {login.connection_limit}  "
                   f"created {login.created_at:%Y-%m-%d %H:%M}  {rotated}")


@bi.command("rotate")
@click.option("--password-stdin", is_flag=True, help="Read the new password from stdin (default: a random one).")
@click.argument("name")
def bi_rotate(password_stdin: bool, name: str) -> None:
    """Give login NAME a new password and print its new URL once (open sessions keep running)."""
    password = _read_password(password_stdin)
    with _admin() as conn:
        created = rotate_login(conn, get_settings(), name, password=password)
    _print_url(created, "rotated")


@bi.command("drop")
@click.argument("name")
def bi_drop(name: str) -> None:
    """Drop login NAME, its tenant binding and its open sessions."""
    with _admin() as conn:
        tenant = drop_login(conn, get_settings(), name)
    click.echo(f"dropped BI login {name} (tenant {tenant})")
