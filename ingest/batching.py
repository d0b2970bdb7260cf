"""Batching and embedding: parsed documents in single-tenant batches, and each batch's vectors.

Embedding runs on a worker thread while the previous batch is written (see :class:`ingest.pipeline.Pipeline`):
:func:`embed` touches the model only, never the connection; :func:`reusable_vectors` (on the run's thread) finds
stored vectors of identical embedder inputs so an amendment re-encodes only what changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

from ingest.embedder import Embedder
from ingest.models import ParsedDocument
from ingest.parsers import parse_item
from ingest.plan import Plan
from ingest.retry import RetryPolicy, StageFailed, run_stage
from ingest.sources import SourceItem

if TYPE_CHECKING:
    import numpy as np

    from ingest.dead_letters import DeadLetters
    from ingest.pipeline import IngestOptions


@dataclass
class EmbedResult:
    """A batch's vectors by embedder-input hash, and how many were encoded or reused."""

    vectors: dict[str, np.ndarray]
    encoded: int
    reused: int


def batches(items: Iterable[SourceItem], options: IngestOptions, dead_letters: DeadLetters
            ) -> Iterator[list[ParsedDocument]]:
    """Parsed documents in single-tenant batches (bounded by documents and chunks, one version of a document
    per batch); a source that cannot be read or parsed is dead-lettered."""
    batch: list[ParsedDocument] = []
    chunk_count = 0
    for item in items:
        if item.error is not None:
            dead_letters.item(item, "source", item.error, 1)
            continue
        try:
            doc = parse_item(item, options.chunker)
        except Exception as exc:  # IngestError for bad input; anything else is a parser bug, same treatment
            dead_letters.item(item, "parse", exc, 1)
            continue
        if batch and (
            doc.tenant_id != batch[0].tenant_id
            or len(batch) >= options.batch_documents
            or chunk_count + len(doc.chunks) > options.batch_chunks
            or any(d.document_id == doc.document_id for d in batch)
        ):
            yield batch
            batch, chunk_count = [], 0
        batch.append(doc)
        chunk_count += len(doc.chunks)
    if batch:
        yield batch


def embed(embedder: Embedder, plans: list[Plan], reusable: dict[str, np.ndarray], retry: RetryPolicy
          ) -> EmbedResult:
    """Vectors by embedder-input hash: stored ones where the same input was embedded before, else encoded
    (each distinct input once)."""
    wanted = [c for p in plans if p.action in ("write", "backfill") for c in p.doc.chunks]
    if not wanted:
        return EmbedResult({}, 0, 0)
    unique: dict[str, str] = {}
    for chunk in wanted:
        if chunk.input_hash not in reusable:
            unique.setdefault(chunk.input_hash, chunk.embedding_text)
    hashes = list(unique)
    texts = [unique[h] for h in hashes]

    def encode() -> np.ndarray:
        return embedder.embed_documents(texts)

    vectors, _ = run_stage("embed", encode, retry)
    by_hash = dict(reusable)
    by_hash.update(zip(hashes, vectors, strict=True))
    return EmbedResult(by_hash, len(texts), len({c.input_hash for c in wanted} & set(reusable)))

def reusable_vectors(conn: psycopg.Connection, plans: list[Plan], embedding_config_id: str,
                     retry: RetryPolicy) -> dict[str, np.ndarray]:
    """Stored vectors of this config for identical embedder inputs (e.g. unchanged clauses of an amendment)."""
    hashes = sorted({c.input_hash for p in plans if p.action in ("write", "backfill") for c in p.doc.chunks})
    if not hashes:
        return {}

    def read() -> list[Any]:
        return conn.execute(
            "select distinct on (input_hash) input_hash, embedding from ingest.embeddings "
            "where tenant_id = %s and embedding_config_id = %s and input_hash = any(%s)",
            (plans[0].doc.tenant_id, embedding_config_id, hashes),
        ).fetchall()

    try:
        rows, _ = run_stage("plan", read, retry, conn=conn)
    except StageFailed:
        return {}  # reuse is an optimisation: encode everything instead
    return {str(h): v for h, v in rows}
