"""What an ingestion run reports: one outcome per source item, counters, and the run's ledger of both."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from ingest.vector_index import TenantIndex
from ingest.writers import StoreStats


@dataclass(frozen=True)
class DocumentOutcome:
    """What happened to one source item."""

    tenant_id: str
    source_uri: str
    document_id: str | None
    action: str  # published | skipped | backfilled | stale | dead_lettered
    document_version: int | None = None
    stage: str | None = None
    error: str | None = None
    dead_letter_id: int | None = None


@dataclass(frozen=True)
class IngestProgress:
    """Counters of a run so far (passed to the ``progress`` callback after every batch)."""

    documents: int
    published: int
    skipped: int
    dead_lettered: int
    chunks: int
    rows: int
    elapsed_s: float
    writer_counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    #: documents the run expects (from a count of the sources), when known: the progress bar's total
    total: int | None = None

    def __str__(self) -> str:
        rate = self.documents / self.elapsed_s if self.elapsed_s > 0 else 0.0
        chunk_rate = self.chunks / self.elapsed_s if self.elapsed_s > 0 else 0.0
        writers = "".join(
            f", {name}: " + ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()))
            for name, counts in sorted(self.writer_counts.items())
        )
        return (
            f"{self.documents} documents ({self.published} published, {self.skipped} unchanged, "
            f"{self.dead_lettered} dead-lettered), {self.chunks} chunks, {self.rows} rows{writers}, "
            f"{self.elapsed_s:.1f}s, {rate:.1f} docs/s, {chunk_rate:.1f} chunks/s"
        )


@dataclass(frozen=True)
class IngestReport:
    """The result of one run.

    ``chunks``/``rows``/``identifiers``/``embeddings`` count what published and backfilled versions hold;
    ``encoded_texts`` is how many texts the embedder actually encoded (the rest reused stored vectors).
    """

    documents: int
    published: int
    skipped: int
    backfilled: int
    dead_lettered: int
    chunks: int
    rows: int
    identifiers: int
    embeddings: int
    encoded_texts: int
    reused_vectors: int
    elapsed_s: float
    embedding_config_id: str
    outcomes: tuple[DocumentOutcome, ...]
    #: rows per writer and table/kind written by published versions (e.g. ``{"graph": {"edges": 12}}``)
    writer_counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    #: per-tenant HNSW indexes this run built, or tried to build and could not (``error``; see
    #: :mod:`ingest.vector_index`)
    tenant_indexes: tuple[TenantIndex, ...] = ()
    #: tables vacuumed after the run because a writer wrote rows to them (see
    #: :func:`ingest.writers.tables_to_vacuum`)
    vacuumed: tuple[str, ...] = ()
    #: sources older than the active version of their document: reported, never published (outcome ``stale``:
    #: ``document_version`` is the version the content would have reverted to, when the registry holds it)
    stale: int = 0

    @property
    def docs_per_s(self) -> float:
        return self.documents / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def chunks_per_s(self) -> float:
        return self.chunks / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def progress(self) -> IngestProgress:
        return IngestProgress(self.documents, self.published + self.backfilled, self.skipped, self.dead_lettered,
                              self.chunks, self.rows, self.elapsed_s, self.writer_counts)


class RunLedger:
    """The outcomes and counters of one run so far; the progress callback sees them after every batch."""

    def __init__(self, embedding_config_id: str, progress: Callable[[IngestProgress], None] | None = None,
                 total: int | None = None) -> None:
        self.embedding_config_id = embedding_config_id
        self.progress = progress
        self.total = total
        self.outcomes: list[DocumentOutcome] = []
        self.writer_counts: dict[str, dict[str, int]] = {}
        self.counts = {"chunks": 0, "rows": 0, "identifiers": 0, "embeddings": 0, "encoded": 0, "reused": 0}
        self.started = time.monotonic()

    def record(self, outcome: DocumentOutcome) -> None:
        self.outcomes.append(outcome)

    def count(self, action: str, expected: Mapping[str, StoreStats], embedding_store: str,
              writers: tuple[str, ...]) -> None:
        """Add a published (``write``) or backfilled document's rows to the counters."""
        if action == "write":
            self.counts["chunks"] += expected["chunks"].total()
            self.counts["rows"] += expected["landing"].total()
            self.counts["identifiers"] += expected["identifiers"].total()
        self.counts["embeddings"] += expected[embedding_store].total()
        if action == "write":
            for writer in writers:
                totals = self.writer_counts.setdefault(writer, {})
                for kind, count in expected[writer].counts.items():
                    totals[kind] = totals.get(kind, 0) + count

    def report(self) -> IngestReport:
        actions = [o.action for o in self.outcomes]
        return IngestReport(
            documents=len(self.outcomes),
            published=actions.count("published"),
            skipped=actions.count("skipped"),
            backfilled=actions.count("backfilled"),
            dead_lettered=actions.count("dead_lettered"),
            chunks=self.counts["chunks"],
            rows=self.counts["rows"],
            identifiers=self.counts["identifiers"],
            embeddings=self.counts["embeddings"],
            encoded_texts=self.counts["encoded"],
            reused_vectors=self.counts["reused"],
            elapsed_s=time.monotonic() - self.started,
            embedding_config_id=self.embedding_config_id,
            outcomes=tuple(self.outcomes),
            stale=actions.count("stale"),
            writer_counts={name: dict(counts) for name, counts in self.writer_counts.items()},
        )

    def emit(self) -> None:
        """Tell the progress callback (if any) where the run stands."""
        if self.progress is not None:
            self.progress(replace(self.report().progress(), total=self.total))
