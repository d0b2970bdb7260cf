"""``procura ingest ...`` and ``procura reconcile``.

``procura ingest PATH`` is short for ``procura ingest run PATH``. Commands connect as ``procura_owner`` (the
pipeline role); heavy imports (torch via the embedder) happen inside the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    import psycopg

    from ingest.pipeline import IngestProgress, IngestReport


@contextmanager
def _owner_connection() -> Iterator[psycopg.Connection]:
    import psycopg

    from procura.settings import get_settings

    with psycopg.connect(get_settings().owner_url, autocommit=True) as conn:
        yield conn


class _DefaultRunGroup(click.Group):
    """A group whose first argument, when it is not a subcommand, is the PATH of ``run``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = ["run", *args]
        return super().parse_args(ctx, args)


@contextmanager
def _progress(quiet: bool) -> Iterator[Callable[[IngestProgress], None] | None]:
    """The pipeline's progress callback: a bar of documents (count, rate, ETA) on a terminal, a line per batch
    otherwise; None with ``--quiet`` (nothing to show, and the sources are not counted)."""
    from procura.progress import progress_bar

    if quiet:
        yield None
        return
    with progress_bar("ingest", unit="docs") as bar:
        yield lambda p: bar.update(p.documents, total=p.total, line=str(p))


def _summary(report: IngestReport) -> None:
    click.echo(
        f"documents: {report.documents}  published: {report.published}  unchanged: {report.skipped}  "
        f"backfilled: {report.backfilled}  stale: {report.stale}  dead-lettered: {report.dead_lettered}"
    )
    click.echo(
        f"chunks: {report.chunks}  rows: {report.rows}  identifiers: {report.identifiers}  "
        f"embeddings: {report.embeddings} ({report.encoded_texts} encoded, {report.reused_vectors} reused, "
        f"config {report.embedding_config_id})"
    )
    for name, counts in sorted(report.writer_counts.items()):
        click.echo(f"{name}: " + ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items())))
    for index in report.tenant_indexes:
        if index.error:
            click.echo(f"vector index {index.name} for {index.tenant_id}: not built ({index.error}); its searches "
                       "use the shared index until a later run builds it")
        else:
            click.echo(f"vector index {index.name}: built for {index.tenant_id} ({index.vectors} vectors, "
                       f"{index.build_s:.1f}s)")
    if report.vacuumed:
        click.echo(f"vacuumed: {', '.join(report.vacuumed)}")
    click.echo(f"elapsed: {report.elapsed_s:.1f}s  rate: {report.docs_per_s:.1f} docs/s, "
               f"{report.chunks_per_s:.1f} chunks/s")
    for outcome in report.outcomes:
        if outcome.action == "stale":
            reverts = f" (would revert to v{outcome.document_version})" if outcome.document_version else ""
            click.echo(f"stale {outcome.tenant_id} {outcome.document_id}{reverts} {outcome.source_uri}: "
                       f"{outcome.error}")
        if outcome.action == "dead_lettered":
            click.echo(f"dead letter #{outcome.dead_letter_id} [{outcome.stage}] {outcome.source_uri}: {outcome.error}")


@click.group("ingest", cls=_DefaultRunGroup, context_settings={"help_option_names": ["-h", "--help"]})
def ingest() -> None:
    """Ingest source documents into every representation (versioned, idempotent).

    `procura ingest PATH [--tenant T]` is short for `procura ingest run PATH`.
    """


@ingest.command("run")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.option("--tenant", help="Tenant of files outside tenants/<tenant_id>/; limits a corpus root to one tenant.")
@click.option("--quiet", is_flag=True, help="No progress lines.")
@click.option("--writers/--no-writers", default=True, show_default=True,
              help="Run registered representation writers (e.g. the graph) besides the built-in stores.")
def run(path: Path, tenant: str | None, quiet: bool, writers: bool) -> None:
    """Ingest a file or folder (corpus root, tenant folder, single files)."""
    from ingest.pipeline import IngestOptions, ingest_path
    from procura.settings import get_settings

    options = IngestOptions(max_source_bytes=get_settings().ingest_max_source_bytes)
    with _owner_connection() as conn, _progress(quiet) as progress:
        report = ingest_path(conn, path, tenant=tenant, progress=progress, writers=None if writers else (),
                             options=options)
    _summary(report)
    if report.dead_lettered:
        raise SystemExit(2)


@ingest.command("replay")
@click.option("--tenant", help="Only this tenant's dead letters.")
@click.option("--id", "ids", type=int, multiple=True, help="Only these dead letters (repeatable).")
@click.option("--quiet", is_flag=True, help="No progress lines.")
def replay(tenant: str | None, ids: tuple[int, ...], quiet: bool) -> None:
    """Re-run unresolved dead letters through the same handlers as live ingestion."""
    from ingest.pipeline import replay_dead_letters

    with _owner_connection() as conn, _progress(quiet) as progress:
        report = replay_dead_letters(conn, tenant=tenant, ids=ids, progress=progress)
    _summary(report)
    if report.dead_lettered:
        raise SystemExit(2)


@ingest.command("delete")
@click.argument("document_id")
@click.option("--tenant", required=True, help="The document's tenant.")
def delete(document_id: str, tenant: str) -> None:
    """Tombstone a document: it disappears from every store at once."""
    from ingest.pipeline import delete_document

    with _owner_connection() as conn:
        ref = delete_document(conn, tenant, document_id)
    if ref is None:
        click.echo(f"{tenant} {document_id}: already deleted or never published")
    else:
        click.echo(f"{tenant} {document_id}: deleted (was v{ref.document_version})")


def _actor() -> str:
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):
        return "cli:unknown"


@ingest.command("rollback")
@click.argument("document_id")
@click.option("--tenant", required=True, help="The document's tenant.")
@click.option("--to-version", "to_version", type=int, required=True, help="The older version to publish again.")
@click.option("--reason", required=True, help="Why (recorded in ingest.registry_events).")
def rollback(document_id: str, tenant: str, to_version: int, reason: str) -> None:
    """Publish an older version of a document again (audited; ingestion itself never moves back)."""
    from ingest.pipeline import rollback_document

    with _owner_connection() as conn:
        report = rollback_document(conn, tenant, document_id, to_version, reason=reason, actor=_actor())
    click.echo(f"{tenant} {document_id}: v{report.outcomes[0].document_version} is active again (rolled back)")


@ingest.command("move")
@click.argument("document_id")
@click.argument("source", type=click.Path(path_type=Path))
@click.option("--tenant", required=True, help="The document's tenant.")
@click.option("--reason", required=True, help="Why (recorded in ingest.registry_events).")
def move(document_id: str, source: Path, tenant: str, reason: str) -> None:
    """Give a document another source path (audited), so a file there may publish new versions of it."""
    from ingest.pipeline import move_document

    with _owner_connection() as conn:
        previous = move_document(conn, tenant, document_id, source, reason=reason, actor=_actor())
    click.echo(f"{tenant} {document_id}: source {previous} -> {source.resolve()}")


@ingest.command("dead-letters")
@click.option("--tenant", help="Only this tenant.")
def dead_letters(tenant: str | None) -> None:
    """List unresolved dead letters."""
    from ingest.registry import unresolved_dead_letters

    with _owner_connection() as conn:
        letters = unresolved_dead_letters(conn, tenant_id=tenant)
    for letter in letters:
        click.echo(f"#{letter.dead_letter_id} {letter.tenant_id} [{letter.stage}] x{letter.attempts} "
                   f"{letter.source_uri}: {letter.error_class}: {letter.error_message}")
    click.echo(f"{len(letters)} unresolved")


@ingest.command("embedding-configs")
def embedding_configs() -> None:
    """List embedding configurations (the active one is marked *)."""
    with _owner_connection() as conn:
        rows = conn.execute(
            "select embedding_config_id, model, revision, dimension, normalization, similarity, is_active "
            "from ingest.embedding_configs order by created_at"
        ).fetchall()
    for config_id, model, revision, dimension, normalization, similarity, active in rows:
        click.echo(f"{'*' if active else ' '} {config_id}  {model}@{revision}  dim={dimension} "
                   f"norm={normalization} sim={similarity}")


@ingest.command("activate-embedding-config")
@click.argument("config_id")
def activate_embedding_config(config_id: str) -> None:
    """Switch the active embedding config atomically (backfill its vectors first: ingest with that embedder)."""
    from ingest.registry import activate_embedding_config as activate

    with _owner_connection() as conn:
        activate(conn, config_id)
    click.echo(f"active embedding config: {config_id}")


@click.command("reconcile", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--tenant", help="Only this tenant.")
@click.option("--source", type=click.Path(exists=True, path_type=Path),
              help="Corpus root or folder to compare the registry with.")
@click.option("--repair", is_flag=True, help="Re-ingest missing/stale documents, rewrite drifted stores.")
@click.option("--writers/--no-writers", default=True, show_default=True,
              help="Also check registered representation writers (e.g. the graph).")
def reconcile(tenant: str | None, source: Path | None, repair: bool, writers: bool) -> None:
    """Compare sources, the document registry and every store; report (and --repair) drift.

    Exits 1 when drift remains.
    """
    from ingest.reconcile import reconcile as run_reconcile

    with _owner_connection() as conn, _progress(False) as progress:
        report = run_reconcile(conn, tenant=tenant, source=source, repair=repair, writers=None if writers else (),
                               progress=progress)
    for drift in report.drifts:
        click.echo(str(drift))
    click.echo(f"checked {report.documents_checked} active documents, {report.sources_checked} sources: "
               f"{len(report.drifts)} finding(s), {len(report.unrepaired)} unrepaired")
    if not report.ok:
        raise SystemExit(1)
