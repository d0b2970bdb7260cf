"""The versioned publication protocol: parse, plan, embed, stage, verify, publish (the orchestrator).

For every document: compute its content hash; if the same content with the same configuration is already the
active version (and has vectors of the embedder's config) nothing happens. Otherwise the document's rows are
written under a version that is not served (``staged``), read back and compared with the expected counts and
checksums per store, and only then published in one transaction that moves ``ingest.documents.active_version``,
supersedes the old version and purges its rows. Readers that follow the active version (the ``retrieval.*``
views, dbt's staging) therefore see the old document or the new one, never a mix.

Documents travel in single-tenant batches: one transaction stages a whole batch and one publishes it, with one
statement per table, and the next batch is embedded on a worker thread while the current one is written. A
batch that fails is retried (transient errors) and then split into single documents, so one bad document is
dead-lettered without holding back the others.

The steps live along the flow: :mod:`ingest.batching` (parse into batches, embed), :mod:`ingest.plan` (what
each document needs), :mod:`ingest.publication` (stage, verify, publish), :mod:`ingest.dead_letters` (failures),
:mod:`ingest.outcomes` (the report); :class:`Pipeline` sequences them. Document lifecycle operations (delete,
rollback, move) are in :mod:`ingest.lifecycle`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

import psycopg
from psycopg import sql

from ingest.batching import EmbedResult, batches, embed, reusable_vectors
from ingest.chunker import ChunkerConfig
from ingest.dead_letters import DeadLetters
from ingest.embedder import Embedder, get_default_embedder
from ingest.errors import IngestError
from ingest.lifecycle import delete_document, move_document, rollback_document
from ingest.outcomes import DocumentOutcome, IngestProgress, IngestReport, RunLedger
from ingest.plan import Plan, Planner, config_fingerprint, identity_problem, judge_arrival
from ingest.publication import Publisher, describe_drift
from ingest.registry import ensure_embedding_config, unresolved_dead_letters
from ingest.retry import RetryPolicy, StageFailed
from ingest.sources import DEFAULT_MAX_SOURCE_BYTES, SourceItem, count_items, iter_items, kind_of_uri, read_item
from ingest.stores import BuiltinStore, ChunkStore, EmbeddingStore, IdentifierStore, LandingStore
from ingest.vector_index import MIN_VECTORS, TenantIndex, ensure_tenant_index
from ingest.writers import RepresentationWriter, check_writer, discover_writers, tables_to_vacuum
from procura.db.session import TENANT_ID_PATTERN, idle_autocommit

__all__ = [
    "DocumentOutcome", "IngestOptions", "IngestProgress", "IngestReport", "Pipeline", "config_fingerprint",
    "delete_document", "describe_drift", "identity_problem", "ingest_path", "judge_arrival", "move_document",
    "replay_dead_letters", "rollback_document",
]


@dataclass(frozen=True)
class IngestOptions:
    """Tuning of one run; the chunker config is part of every document's config fingerprint."""

    chunker: ChunkerConfig = field(default_factory=ChunkerConfig)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    batch_documents: int = 64
    batch_chunks: int = 512
    #: a tenant that holds at least this many vectors after the run gets its own HNSW index (see
    #: :mod:`ingest.vector_index`); None never builds one
    tenant_index_min_vectors: int | None = MIN_VECTORS
    #: size limit of one source (a file, or one line of a JSONL batch); larger ones are dead-lettered unread
    max_source_bytes: int = DEFAULT_MAX_SOURCE_BYTES


class Pipeline:
    """One ingestion run on one ``procura_owner`` connection (autocommit; the pipeline owns transactions)."""

    def __init__(
        self,
        conn: psycopg.Connection,
        *,
        embedder: Embedder | None = None,
        writers: Sequence[RepresentationWriter] | None = None,
        options: IngestOptions | None = None,
        progress: Callable[[IngestProgress], None] | None = None,
        rollback: frozenset[tuple[str, str]] = frozenset(),
    ) -> None:
        if not conn.autocommit:
            raise IngestError("the ingestion connection must be in autocommit mode; the pipeline manages its "
                              "own transactions")
        # (tenant, document) keys an audited rollback may move back (:func:`ingest.lifecycle.rollback_document`)
        self.rollback = rollback
        self.conn = conn
        self.embedder = embedder if embedder is not None else get_default_embedder()
        self.writers = tuple(check_writer(w) for w in (discover_writers() if writers is None else writers))
        self.options = options or IngestOptions()
        self.progress = progress
        self.embedding_store = EmbeddingStore(self.embedder.config.embedding_config_id)
        self.builtin: tuple[BuiltinStore, ...] = (LandingStore(), ChunkStore(), IdentifierStore())
        self._start(None)
        from pgvector.psycopg import register_vector

        register_vector(conn)

    def _start(self, total: int | None) -> None:
        """A fresh ledger, and the steps that report into it."""
        self.ledger = RunLedger(self.embedding_store.config_id, self.progress, total)
        self.dead_letters = DeadLetters(self.conn, self.ledger.record)
        self.planner = Planner(self.conn, chunker=self.options.chunker, retry=self.options.retry,
                               writers=self.writers, embedding_store=self.embedding_store.name,
                               rollback=self.rollback, dead_letters=self.dead_letters)
        self.publisher = Publisher(self.conn, embedder=self.embedder, writers=self.writers, builtin=self.builtin,
                                   embedding_store=self.embedding_store, chunker=self.options.chunker,
                                   retry=self.options.retry, judge=self.planner.judge,
                                   dead_letters=self.dead_letters)

    def run(self, items: Iterable[SourceItem], *, total: int | None = None) -> IngestReport:
        """Ingest every item; failures become dead letters, never exceptions (except a broken connection).

        ``total`` (how many items there are, when known) is passed on to the progress callback.
        """
        self._start(total)
        ensure_embedding_config(self.conn, self.embedder.config)
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="procura-embed")
        inflight: tuple[list[Plan], Future[EmbedResult]] | None = None
        try:
            for batch in batches(items, self.options, self.dead_letters):
                keys = {(d.tenant_id, d.document_id) for d in batch}
                if inflight is not None and keys & {p.key for p in inflight[0]}:
                    # the same document twice in a row: its first version must be published before planning
                    self._finish(*inflight)
                    inflight = None
                plans = self.planner.plan(batch)
                reusable = reusable_vectors(self.conn, plans, self.embedding_store.config_id, self.options.retry)
                # the next batch is embedded on the worker thread while this one is written
                future = executor.submit(embed, self.embedder, plans, reusable, self.options.retry)
                if inflight is not None:
                    self._finish(*inflight)
                inflight = (plans, future)
            if inflight is not None:
                self._finish(*inflight)
        finally:
            executor.shutdown(wait=True)
        return replace(self.ledger.report(), tenant_indexes=self._ensure_tenant_indexes(),
                       vacuumed=self._vacuum_written())

    def _finish(self, plans: list[Plan], future: Future[EmbedResult]) -> None:
        if not plans:
            return
        for plan in plans:
            if plan.action == "refused":
                assert plan.error is not None
                self.dead_letters.doc(plan.doc, "plan", plan.error, 1)
            elif plan.action == "stale":
                self._record_stale(plan)
        plans = [p for p in plans if p.action not in ("refused", "stale")]
        if not plans:
            self.ledger.emit()
            return
        for plan in plans:
            if plan.action == "skip":
                self.ledger.record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                                                   "skipped", plan.version))
        skipped = [p for p in plans if p.action == "skip"]
        if skipped:
            self.dead_letters.resolve(skipped, self.options.retry)
        work = [p for p in plans if p.action != "skip"]
        if not work:
            self.ledger.emit()
            return
        try:
            embedded = future.result()
        except StageFailed as failure:
            for plan in work:
                self.dead_letters.doc(plan.doc, failure.stage, failure.cause, failure.attempts)
            self.ledger.emit()
            return
        self.ledger.counts["encoded"] += embedded.encoded
        self.ledger.counts["reused"] += embedded.reused
        for plan in work:
            plan.vectors = {c.chunk_id: embedded.vectors[c.input_hash] for c in plan.doc.chunks}
        staged = self.publisher.each("stage", work, self.publisher.stage_tx)
        for plan in staged:
            if plan.action == "skip":
                self.ledger.record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                                                   "skipped", plan.version))
            elif plan.action == "stale":
                self._record_stale(plan)
        verified = self.publisher.verify([p for p in staged if p.action not in ("skip", "stale")])
        writes = [p for p in verified if p.action == "write"]
        published = self.publisher.each("publish", writes, self.publisher.publish_tx)
        for plan in [*published, *(p for p in verified if p.action == "backfill")]:
            self.ledger.count(plan.action, plan.expected, self.embedding_store.name,
                              tuple(w.name for w in self.publisher.applicable(plan.doc)))
            self.ledger.record(DocumentOutcome(
                plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                "published" if plan.action == "write" else "backfilled", plan.version,
            ))
        self.ledger.emit()

    def _record_stale(self, plan: Plan) -> None:
        assert plan.stale is not None
        self.ledger.record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id, "stale",
                                           plan.stale.reverts_to, "plan",
                                           f"stale: {plan.stale.reason}; not published"))

    def _ensure_tenant_indexes(self) -> tuple[TenantIndex, ...]:
        """Build the index of every tenant of this run that holds at least the threshold's vectors and has none
        (also when nothing changed: re-running ingestion is how a database from before per-tenant indexes gets
        them)."""
        minimum = self.options.tenant_index_min_vectors
        if minimum is None:
            return ()
        tenants = sorted({o.tenant_id for o in self.ledger.outcomes if TENANT_ID_PATTERN.match(o.tenant_id)})
        built = [ensure_tenant_index(self.conn, tenant, min_vectors=minimum) for tenant in tenants]
        return tuple(index for index in built if index is not None and (index.created or index.error))

    def _vacuum_written(self) -> tuple[str, ...]:
        """VACUUM (ANALYZE) the tables writers asked for, when this run wrote rows to them. VACUUM cannot run in a
        transaction block: on a connection that is not in autocommit mode this is left to autovacuum."""
        if not idle_autocommit(self.conn):
            return ()
        done: list[str] = []
        for writer in self.writers:
            written = self.ledger.writer_counts.get(writer.name, {})
            for table in tables_to_vacuum(writer):
                if written.get(table) and table not in done:
                    self.conn.execute(sql.SQL("vacuum (analyze) {}").format(sql.Identifier(*table.split("."))))
                    done.append(table)
        return tuple(done)


# -- entry points -------------------------------------------------------------------------------------------


def ingest_path(
    conn: psycopg.Connection,
    path: Path,
    *,
    tenant: str | None = None,
    embedder: Embedder | None = None,
    progress: Callable[[IngestProgress], None] | None = None,
    writers: Sequence[RepresentationWriter] | None = None,
    options: IngestOptions | None = None,
) -> IngestReport:
    """Ingest a file or folder (a corpus root, a tenant folder, or single files with ``tenant``).

    Args:
        conn: a ``procura_owner`` connection in autocommit mode.
        path: what to ingest; ``tenants/<tenant_id>/`` in the path names the tenant.
        tenant: the tenant of files outside that layout; restricts a corpus root to one tenant.
        embedder: defaults to the process-wide MiniLM embedder.
        progress: called after every batch.
        writers: representation writers besides the built-in stores; default: :func:`discover_writers`.
        options: chunker, retry and batch settings.

    Returns:
        What happened to every document; failures are dead letters, not exceptions.
    """
    if not Path(path).exists():
        raise IngestError(f"{path}: no such file or directory")
    pipeline = Pipeline(conn, embedder=embedder, writers=writers, options=options, progress=progress)
    total = count_items(Path(path), tenant=tenant) if progress is not None else None
    return pipeline.run(iter_items(Path(path), tenant=tenant, max_bytes=pipeline.options.max_source_bytes),
                        total=total)


def replay_dead_letters(
    conn: psycopg.Connection,
    *,
    tenant: str | None = None,
    ids: Sequence[int] = (),
    embedder: Embedder | None = None,
    writers: Sequence[RepresentationWriter] | None = None,
    options: IngestOptions | None = None,
    progress: Callable[[IngestProgress], None] | None = None,
) -> IngestReport:
    """Re-run unresolved dead letters through the same handlers as live ingestion.

    The current source is used when it still exists (a fixed file is picked up), else the stored payload.
    Success resolves the letter; another failure adds its attempts to the same letter.
    """
    letters = unresolved_dead_letters(conn, tenant_id=tenant, ids=ids)
    items: list[SourceItem] = []
    for letter in letters:
        item = read_item(letter.source_uri, letter.tenant_id,
                         max_bytes=(options or IngestOptions()).max_source_bytes)
        if item is None and letter.payload is not None:
            item = SourceItem(letter.tenant_id, letter.source_uri, kind_of_uri(letter.source_uri), letter.payload)
        if item is not None:
            items.append(item)
    pipeline = Pipeline(conn, embedder=embedder, writers=writers, options=options, progress=progress)
    return pipeline.run(items, total=len(items))

