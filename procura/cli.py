"""The ``procura`` command line: one entry point, one group per area.

This module sits in the core but imports no area: the areas' commands are named as strings below and imported
when the CLI starts, so the layer order (README, "Layers") holds for the code while ``procura`` lists every
command. Nothing imports this module (an import-linter contract).
"""

from __future__ import annotations

import importlib
import sys
import time

import click
import psycopg

from procura.cli_support import ProcuraGroup
from procura.progress import echo_progress
from procura.settings import Settings, get_settings, redact_url


@click.group(cls=ProcuraGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="procura")
def main() -> None:
    """Procura: exact, lexical, vector, governed-SQL and graph answers for procurement and finance data."""


@main.group(cls=ProcuraGroup)
def db() -> None:
    """Provision and inspect the Postgres 17 + pgvector + AGE server."""


def _admin_connect(settings: Settings) -> psycopg.Connection:
    return psycopg.connect(settings.admin_url, autocommit=True)


@db.command("up")
@click.option("--migrate/--no-migrate", default=True, show_default=True, help="Apply pending migrations.")
def db_up(migrate: bool) -> None:
    """Provision (idempotently) and start the server, create the database, print its URL."""
    from procura.db.migrate import migrate as run_migrations
    from procura.db.provision import LocalServer, ensure_database

    settings = get_settings()
    started = time.monotonic()
    if settings.managed_server:
        LocalServer(settings, echo_progress).up()
    else:
        echo_progress(f"using the server at {redact_url(settings.admin_url)} (DATABASE_URL)")
        ensure_database(settings, echo_progress)
    if migrate:
        with _admin_connect(settings) as conn:
            applied = run_migrations(conn, settings, echo_progress)
        echo_progress(f"{len(applied)} migration(s) applied")
    echo_progress(f"database ready in {time.monotonic() - started:.1f}s")
    click.echo(redact_url(settings.admin_url))


@db.command("migrate")
def db_migrate() -> None:
    """Apply pending SQL migrations, one transaction each."""
    from procura.db.migrate import migrate as run_migrations

    settings = get_settings()
    with _admin_connect(settings) as conn:
        applied = run_migrations(conn, settings, echo_progress)
    click.echo(f"{len(applied)} migration(s) applied")


@db.command("status")
def db_status() -> None:
    """Show mode, URL, running state, version, extensions and migrations."""
    from procura.db.migrate import applied_versions, discover
    from procura.db.provision import server_status

    settings = get_settings()
    status = server_status(settings)
    click.echo(f"mode:        {status.mode}")
    click.echo(f"url:         {status.url}")
    click.echo(f"running:     {'yes' if status.running else 'no'}")
    if status.root_dir:
        click.echo(f"root:        {status.root_dir}")
    if status.data_dir:
        click.echo(f"data:        {status.data_dir}")
    if status.version:
        click.echo(f"version:     {status.version}")
        click.echo("extensions:  " + ", ".join(f"{k} {v}" for k, v in sorted(status.extensions.items())))
        with _admin_connect(settings) as conn:
            applied = applied_versions(conn)
        click.echo(f"migrations:  {len(applied)} of {len(discover())} applied")


@db.command("down")
def db_down() -> None:
    """Stop the project's own server (the data stays)."""
    from procura.db.provision import LocalServer

    settings = get_settings()
    LocalServer(settings, echo_progress).stop()
    click.echo("stopped")


@db.command("reset")
@click.option("--yes", is_flag=True, help="Confirm that all data of the local server is deleted.")
def db_reset(yes: bool) -> None:
    """Delete the local server's data directory and start from scratch."""
    from procura.db.migrate import migrate as run_migrations
    from procura.db.provision import LocalServer

    if not yes:
        raise click.UsageError("reset deletes every database of the local server; pass --yes to confirm")
    settings = get_settings()
    LocalServer(settings, echo_progress).reset()
    with _admin_connect(settings) as conn:
        run_migrations(conn, settings, echo_progress)
    click.echo(redact_url(settings.admin_url))


@db.command("url")
@click.option(
    "--role",
    type=click.Choice(["admin", "owner", "app", "bi"]),
    default="admin",
    show_default=True,
    help="Which login role the URL is for.",
)
@click.option("--show-password", is_flag=True, help="Print the password instead of ***.")
def db_url(role: str, show_password: bool) -> None:
    """Print the connection URL (e.g. for psql); BI tools get a login of their own from `procura bi`."""
    if role == "bi":
        raise click.UsageError(
            "procura_bi is the group of the per-tenant BI logins and cannot log in; create a login with "
            "`procura bi create-login --tenant T NAME` (it prints its URL once)"
        )
    settings = get_settings()
    url = {"admin": settings.admin_url, "owner": settings.owner_url, "app": settings.app_url}[role]
    click.echo(url if show_password else redact_url(url))


# Areas that live in their own packages register here; a missing optional area must not break the CLI.
_SUBCOMMANDS = (
    "jobs.cli:demo",
    "procura.bi_cli:bi",
    "ingest.cli:ingest",
    "ingest.cli:reconcile",
    "expectations.cli:validate",
    "procura.transform:transform",
    "semantic.cli:metrics",
    "api.cli:serve",
    "api.cli:keys",
    "graph.cli:graph",
    "retrieval.cli:search",
    "router.cli:ask",
    "router.cli:mcp",
    "evaluation.cli:eval_command",
)


# Commands of a higher layer that join a group of a lower one: (group, "module:command").
_GROUP_SUBCOMMANDS = (
    ("graph", "evaluation.cli:graph_resolution"),
)


def _load(spec: str) -> click.Command | None:
    module_name, attr = spec.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            return None
        raise
    command: click.Command = getattr(module, attr)
    return command


def _register_subcommands() -> None:
    for spec in _SUBCOMMANDS:
        command = _load(spec)
        if command is not None:
            main.add_command(command)
    for group_name, spec in _GROUP_SUBCOMMANDS:
        group, command = main.commands.get(group_name), _load(spec)
        if isinstance(group, click.Group) and command is not None:
            group.add_command(command)


_register_subcommands()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
