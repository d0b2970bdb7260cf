"""The ``procura`` command line: one entry point, one group per area.

This module sits in the core but imports no area: the areas' commands are named as strings below and imported
when one is invoked (all of them for ``--help``), so the layer order (README, "Layers") holds for the code while
``procura`` lists every command. Nothing imports this module (an import-linter contract).
"""

from __future__ import annotations

import importlib
import sys
import time
from typing import TYPE_CHECKING

import click

from procura.cli_support import ProcuraGroup
from procura.progress import echo_progress

if TYPE_CHECKING:
    import psycopg

    from procura.settings import Settings


# The driver and the settings model load when a command needs them: a remote `procura ask` needs neither.
def get_settings() -> Settings:
    from procura.settings import get_settings as settings

    return settings()


def redact_url(url: str) -> str:
    from procura.settings import redact_url as redact

    return redact(url)


class _AreaGroup(ProcuraGroup):
    """The top-level group: an area's commands are imported when one of them is invoked (or all are listed).

    Design note: importing every area at start-up (demo generator, BI, expectations, API, graph, ...) cost
    ~0.35 s of CPU on every command, most of a remote ``procura ask``; the invoked command needs only its own.
    """

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            _register_subcommands(cmd_name)
            command = super().get_command(ctx, cmd_name)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        _register_subcommands()
        return super().list_commands(ctx)


@click.group(cls=_AreaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="procura")
def main() -> None:
    """Procura: exact, lexical, vector, governed-SQL and graph answers for procurement and finance data."""


@main.group(cls=ProcuraGroup)
def db() -> None:
    """Provision and inspect the Postgres 17 + pgvector + AGE server."""


def _admin_connect(settings: Settings) -> psycopg.Connection:
    import psycopg

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


def _register_subcommands(name: str | None = None) -> None:
    """Register the areas' commands: all of them, or (``name``) the one a spec's attribute names, e.g. ``ask`` for
    ``router.cli:ask`` and ``eval`` for ``evaluation.cli:eval_command``; all of them when no spec names it."""
    specs: tuple[str, ...] = _SUBCOMMANDS
    if name is not None:
        specs = tuple(s for s in _SUBCOMMANDS if s.split(":")[1].removesuffix("_command") == name) or _SUBCOMMANDS
    for spec in specs:
        if spec in _REGISTERED:
            continue
        command = _load(spec)
        _REGISTERED.add(spec)
        if command is not None:
            main.add_command(command)
    for group_name, spec in _GROUP_SUBCOMMANDS:
        group = main.commands.get(group_name)
        if isinstance(group, click.Group) and spec not in _REGISTERED:
            command = _load(spec)
            _REGISTERED.add(spec)
            if command is not None:
                group.add_command(command)
    if name is not None and name not in main.commands and specs != _SUBCOMMANDS:
        _register_subcommands()  # a command named unlike its attribute: load them all


_REGISTERED: set[str] = set()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
