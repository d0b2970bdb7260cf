"""``procura validate``: run the landing suites, quarantine failing document versions, print the report."""

from __future__ import annotations

import json
from datetime import datetime

import click


@click.command("validate")
@click.option("--tenant", default=None, help="Only this tenant's documents (default: every tenant).")
@click.option("--dry-run", is_flag=True, help="Report only; do not write ingest.quarantine.")
@click.option(
    "--earliest",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default="2000-01-01",
    show_default=True,
    help="Earliest plausible business date.",
)
@click.option(
    "--latest",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default="2100-01-01",
    show_default=True,
    help="First implausible business date (exclusive).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--strict", is_flag=True, help="Exit with status 1 when any document version failed.")
def validate(
    tenant: str | None, dry_run: bool, earliest: datetime, latest: datetime, as_json: bool, strict: bool
) -> None:
    """Validate landing data with Great Expectations before dbt; failing versions are quarantined."""
    import psycopg

    from expectations.runner import validate_landing
    from expectations.suites import DateWindow
    from procura.progress import echo_progress
    from procura.settings import get_settings

    try:
        window = DateWindow(earliest.date(), latest.date())
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--earliest/--latest") from exc
    settings = get_settings()
    echo_progress(f"validating landing data of database {settings.database_name}")
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        report = validate_landing(
            conn, tenant=tenant, window=window, quarantine=not dry_run, progress=echo_progress
        )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(report.format_text())
    if strict and not report.success:
        raise click.ClickException(f"{len(report.quarantined_batches)} document version(s) failed validation")
