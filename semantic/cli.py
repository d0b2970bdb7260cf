"""``procura metrics list|describe|query|compile``: the semantic layer from the command line.

``query`` goes through the same service as the API (scope check, bound parameters, tenant transaction with
its audit row); it authenticates with an API key, so the tenant comes from the key here too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from procura.cli_support import ProcuraGroup


def _registry(target_dir: Path | None) -> Any:
    from semantic.loader import load_registry
    from semantic.schema import DEFAULT_TARGET_DIR, discover

    return load_registry(discover(target_dir or DEFAULT_TARGET_DIR))


def _split(text: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (text or "").split(",") if part.strip())


_target_option = click.option(
    "--target-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="dbt target folder with manifest.json/catalog.json (default: target/ of the project).",
)


@click.group("metrics", cls=ProcuraGroup)
def metrics() -> None:
    """Named, governed metrics: list, describe, compile and query them."""


@metrics.command("list")
@_target_option
def list_metrics(target_dir: Path | None) -> None:
    """List the metrics with their scope and description."""
    registry = _registry(target_dir)
    for metric in sorted(registry, key=lambda m: m.name):
        d = metric.definition
        click.echo(f"{d.name:<36} {d.scope:<20} {d.description.splitlines()[0][:90]}")


@metrics.command("describe")
@click.argument("name")
@_target_option
def describe(name: str, target_dir: Path | None) -> None:
    """Print a metric's interface as JSON: parameters (JSON Schema), dimensions, grains, outputs, policy."""
    metric = _registry(target_dir).get(name)
    click.echo(json.dumps(metric.describe(), indent=2))


@metrics.command("compile")
@click.argument("name")
@click.option(
    "--dialect",
    type=click.Choice(["postgres", "snowflake", "bigquery", "duckdb"]),
    default="postgres",
    show_default=True,
    help="Transpile the compiled template with sqlglot.",
)
@click.option("--group-by", default=None, help="Comma-separated allow-listed dimensions.")
@click.option("--grain", default=None, help="Allow-listed time grain (day, week, month, quarter, year).")
@_target_option
def compile_metric(name: str, dialect: str, group_by: str | None, grain: str | None, target_dir: Path | None) -> None:
    """Show the SQL a metric runs (placeholders, never values), optionally in another dialect."""
    metric = _registry(target_dir).get(name)
    click.echo(metric.variant(_split(group_by), grain).to_dialect(dialect))


@metrics.command("query")
@click.argument("name")
@click.option("--param", "params", multiple=True, metavar="K=V", help="Parameter value; lists comma-separated.")
@click.option("--group-by", default=None, help="Comma-separated allow-listed dimensions.")
@click.option("--grain", default=None, help="Allow-listed time grain.")
@click.option("--key", envvar="PROCURA_API_KEY", required=True, help="API key (or PROCURA_API_KEY).")
@_target_option
def query(
    name: str, params: tuple[str, ...], group_by: str | None, grain: str | None, key: str, target_dir: Path | None
) -> None:
    """Run a metric for the key's tenant and print the result as JSON."""
    import psycopg

    from procura.auth import authenticate
    from procura.settings import get_settings
    from semantic.service import MetricService

    values: dict[str, str] = {}
    for item in params:
        pname, sep, value = item.partition("=")
        if not sep or not pname.strip():
            raise click.BadParameter(f"{item!r} is not K=V", param_hint="--param")
        if pname.strip() in values:
            raise click.BadParameter(f"{pname.strip()} given twice", param_hint="--param")
        values[pname.strip()] = value
    settings = get_settings()
    service = MetricService.from_settings(_registry(target_dir), settings)
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        principal = authenticate(conn, key)
        result = service.query(
            conn,
            principal.context,
            name,
            values,
            group_by=_split(group_by),
            grain=grain,
            route="cli",
            key_id=principal.key_id,
            from_text=True,
        )
    click.echo(result.model_dump_json(indent=2))
