"""``procura transform``: build the governed marts with dbt (models, contracts, data tests and unit tests).

dbt runs in-process through :class:`dbt.cli.main.dbtRunner` as the pipeline role ``procura_owner`` (the only role
that may write the staging, intermediate and marts schemas). The dbt project is the repository root; its
``profiles.yml`` reads the connection from ``DBT_PROCURA_*`` variables, which this module sets from Procura's
settings for the duration of one dbt invocation, so there is exactly one source of connection truth.

Example:
    >>> from procura.settings import get_settings
    >>> result = build_marts(get_settings())  # doctest: +SKIP
    >>> result.success, result.counts()  # doctest: +SKIP
    (True, {'success': 24, 'pass': 60})
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import click

from procura.errors import ProcuraError
from procura.settings import REPO_ROOT, Settings, get_settings

#: The dbt project (dbt_project.yml, profiles.yml, models/, macros/, data_tests/).
DBT_PROJECT_DIR = REPO_ROOT
_FX_RATE_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
# dbt keeps process-global state (flags, adapter registry, invocation context): one invocation at a time.
_DBT_LOCK = threading.Lock()
_FAILED_STATUSES = frozenset({"error", "fail", "runtime error"})

Progress = Callable[[str], None]


class TransformError(ProcuraError):
    """dbt could not run, or a model, data test or unit test of the build failed."""


@dataclass(frozen=True)
class NodeOutcome:
    """What happened to one dbt node (model, data test or unit test) in an invocation."""

    unique_id: str
    resource_type: str
    name: str
    status: str
    message: str | None
    failures: int | None
    elapsed_s: float

    @property
    def failed(self) -> bool:
        """True for an errored model or a failing test."""
        return self.status in _FAILED_STATUSES


@dataclass(frozen=True)
class TransformResult:
    """The outcome of one dbt invocation."""

    command: str
    success: bool
    nodes: tuple[NodeOutcome, ...]
    elapsed_s: float
    target_path: Path
    #: relations described in catalog.json (``docs generate`` only)
    catalog_relations: int = 0

    def counts(self) -> dict[str, int]:
        """Number of nodes per status (``success``, ``pass``, ``fail``, ``error``, ``skipped``, ``warn``)."""
        counts: dict[str, int] = {}
        for node in self.nodes:
            # on-run-start hooks are operations, not models or tests; they only count when they fail
            if node.resource_type == "operation" and not node.failed:
                continue
            counts[node.status] = counts.get(node.status, 0) + 1
        return counts

    def failed(self) -> tuple[NodeOutcome, ...]:
        """The nodes that errored or failed."""
        return tuple(node for node in self.nodes if node.failed)

    def summary(self) -> str:
        """One line, e.g. ``build: ok, 24 success, 60 pass in 9.1s``."""
        parts = ", ".join(f"{n} {status}" for status, n in sorted(self.counts().items()))
        if self.catalog_relations:
            parts = f"{self.catalog_relations} relations in the catalog"
        return f"{self.command}: {'ok' if self.success else 'FAILED'}, {parts or 'no nodes'} in {self.elapsed_s:.1f}s"


def dbt_environment(settings: Settings) -> dict[str, str]:
    """The ``DBT_PROCURA_*`` variables ``profiles.yml`` reads: the owner role's connection from settings."""
    parts = urlsplit(settings.owner_url)
    if parts.hostname is None or parts.username is None or parts.password is None:
        raise TransformError("settings.owner_url lacks host, user or password; cannot configure dbt")
    return {
        "DBT_PROCURA_HOST": parts.hostname,
        "DBT_PROCURA_PORT": str(parts.port or 5432),
        "DBT_PROCURA_DBNAME": settings.database_name,
        "DBT_PROCURA_USER": unquote(parts.username),
        # DBT_ENV_SECRET_ variables are scrubbed from dbt's logs and artifacts.
        "DBT_ENV_SECRET_PROCURA_PASSWORD": unquote(parts.password),
    }


def dbt_vars(settings: Settings) -> dict[str, str]:
    """The dbt vars taken from settings (the FX rate type of the accounting policy)."""
    if not _FX_RATE_TYPE.match(settings.fx_rate_type):
        raise TransformError(
            f"fx_rate_type {settings.fx_rate_type!r} is not a rate type name (lowercase letters, digits, _)"
        )
    return {"fx_rate_type": settings.fx_rate_type}


def build_marts(
    settings: Settings,
    select: Sequence[str] | str | None = None,
    *,
    progress: Progress | None = None,
    target_path: Path | None = None,
    log_path: Path | None = None,
    check: bool = True,
) -> TransformResult:
    """Run ``dbt build``: models, contracts, data tests and unit tests, in DAG order, as ``procura_owner``.

    Args:
        settings: connection and FX settings; dbt connects to ``settings.database_name`` as the owner role.
        select: optional dbt selection (e.g. ``"+validated_invoice_lines"``); default everything.
        progress: receives one line per finished node.
        target_path: where dbt writes manifest.json, run_results.json and compiled SQL (default ``target/``
            of the project; give a separate folder to runs that must not disturb each other).
        log_path: where dbt writes dbt.log (default ``logs/`` of the project).
        check: raise :class:`TransformError` when any node fails (default); with ``False`` the failing result
            is returned.

    Returns:
        Per-node outcomes and totals.

    Raises:
        TransformError: dbt could not run, or (with ``check``) a model or test failed.
    """
    args = ["build"]
    if select:
        args += ["--select", *([select] if isinstance(select, str) else list(select))]
    result = _invoke(settings, args, progress=progress, target_path=target_path, log_path=log_path, check=False)
    drifted = [node.name for node in result.failed() if _SCHEMA_DRIFT in (node.message or "")]
    if drifted:
        # Design note: an upgrade that adds a column to an incremental mart (its contract changed) cannot be
        # applied incrementally: the rows already built lack the new column's values, and appending it as NULL
        # would serve wrong figures. Those marts and everything built from them are rebuilt whole, once.
        if progress is not None:
            progress(f"schema of {', '.join(drifted)} changed: rebuilding it whole (--full-refresh)")
        refresh = ["build", "--full-refresh", "--select", *(f"{name}+" for name in drifted)]
        result = _invoke(settings, refresh, progress=progress, target_path=target_path, log_path=log_path,
                         check=False)
        if result.success and select:
            result = _invoke(settings, args, progress=progress, target_path=target_path, log_path=log_path,
                             check=False)
    if check and not result.success:
        _raise_failed(result)
    return result


def generate_docs(
    settings: Settings,
    *,
    progress: Progress | None = None,
    target_path: Path | None = None,
    log_path: Path | None = None,
) -> TransformResult:
    """Run ``dbt docs generate`` (catalog.json and index.html in the target folder)."""
    return _invoke(
        settings, ["docs", "generate"], progress=progress, target_path=target_path, log_path=log_path, check=True
    )


def _invoke(
    settings: Settings,
    args: list[str],
    *,
    progress: Progress | None,
    target_path: Path | None,
    log_path: Path | None,
    check: bool,
) -> TransformResult:
    from dbt.cli.main import dbtRunner

    target = (target_path or DBT_PROJECT_DIR / "target").resolve()
    logs = (log_path or DBT_PROJECT_DIR / "logs").resolve()
    argv = [
        *args,
        "--project-dir", str(DBT_PROJECT_DIR),
        "--profiles-dir", str(DBT_PROJECT_DIR),
        "--target-path", str(target),
        "--log-path", str(logs),
        "--vars", json.dumps(dbt_vars(settings)),
        # dbt's own console output is replaced by the progress callback; errors still print.
        "--quiet",
        "--no-use-colors",
        "--no-send-anonymous-usage-stats",
        "--no-version-check",
    ]
    command = " ".join(args)
    callbacks = [_progress_callback(progress)] if progress is not None else []
    started = time.monotonic()
    with _DBT_LOCK, _environment(dbt_environment(settings)):
        outcome = dbtRunner(callbacks=callbacks).invoke(argv)
    elapsed = time.monotonic() - started
    if outcome.exception is not None:
        raise TransformError(f"dbt {command} could not run: {outcome.exception}")
    nodes = tuple(_node_outcomes(outcome.result))
    catalog = getattr(outcome.result, "nodes", None)
    result = TransformResult(
        command=command,
        success=bool(outcome.success),
        nodes=nodes,
        elapsed_s=elapsed,
        target_path=target,
        catalog_relations=len(catalog) if isinstance(catalog, dict) else 0,
    )
    if check and not result.success:
        _raise_failed(result)
    return result


#: What dbt says when an incremental model's columns no longer match the relation it built before.
_SCHEMA_DRIFT = "schemas on this incremental model are out of sync"


def _raise_failed(result: TransformResult) -> None:
    details = "; ".join(f"{n.resource_type} {n.name}: {n.status} ({n.message})" for n in result.failed()[:10])
    raise TransformError(f"dbt {result.command} failed: {details or result.summary()}")


@contextlib.contextmanager
def _environment(values: Mapping[str, str]) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def _node_outcomes(result: Any) -> Iterator[NodeOutcome]:
    for item in getattr(result, "results", None) or ():
        node = item.node
        yield NodeOutcome(
            unique_id=node.unique_id,
            resource_type=str(node.resource_type),
            name=node.name,
            status=str(item.status),
            message=item.message,
            failures=item.failures,
            elapsed_s=float(item.execution_time or 0.0),
        )


def _progress_callback(progress: Progress) -> Callable[[Any], None]:
    def on_event(event: Any) -> None:
        if event.info.name != "NodeFinished":
            return
        info = event.data.node_info
        run = event.data.run_result
        failures = f", {run.num_failures} failing rows" if run.num_failures else ""
        progress(
            f"{run.status:<7} {info.resource_type:<9} {info.node_name} ({run.execution_time:.2f}s{failures})"
        )

    return on_event


@click.command("transform")
@click.option("--select", "-s", "select", multiple=True, help="dbt selection (repeatable); default: everything.")
@click.option("--docs", "docs", is_flag=True, help="Also run `dbt docs generate` after a successful build.")
@click.option("--docs-only", is_flag=True, help="Only run `dbt docs generate`.")
@click.option(
    "--target-path",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where dbt writes its artifacts (default: target/ of the project).",
)
def transform(select: tuple[str, ...], docs: bool, docs_only: bool, target_path: Path | None) -> None:
    """Build the governed marts with dbt: models, contracts, data tests and unit tests."""
    from procura.progress import echo_progress

    settings = get_settings()
    if not docs_only:
        echo_progress(f"dbt build on database {settings.database_name} as procura_owner")
        result = build_marts(
            settings, list(select) or None, progress=echo_progress, target_path=target_path, check=False
        )
        click.echo(result.summary())
        if not result.success:
            for node in result.failed():
                click.echo(f"  {node.status}: {node.resource_type} {node.name}: {node.message}", err=True)
            raise click.ClickException("dbt build failed")
    if docs or docs_only:
        echo_progress("dbt docs generate")
        docs_result = generate_docs(settings, progress=echo_progress, target_path=target_path)
        click.echo(f"{docs_result.summary()}; docs in {docs_result.target_path}")
