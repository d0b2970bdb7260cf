"""The BM25 store as an ingestion :class:`~ingest.writers.RepresentationWriter`.

For every chunk of a document version the writer stores its analyzed length (``retrieval.bm25_chunks``) and one
posting per distinct term with its frequency (``retrieval.bm25_postings``), plus one row per version with the
version's contribution to the collection statistics (``retrieval.bm25_documents``), and the block-max summary
of the postings (``retrieval.bm25_blocks``, migration 0050) that top-k pruning and the document frequencies
read. Rows are immutable per version: publishing needs no update (the ``retrieval.active_bm25_*`` views follow
``ingest.documents.active_version``), superseded versions are purged by the pipeline, deleted documents lose
their rows in :meth:`Bm25Writer.on_delete`.

Register it with the pipeline through ``ingest.writers.PLUGIN_SPECS`` (``"retrieval.bm25_writer:create_writer"``)
or :func:`ingest.writers.register_writer`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from ingest.hashing import rows_checksum
from ingest.models import ParsedDocument
from ingest.writers import StoreStats, VersionRef
from retrieval.analyzer import ANALYZER_ID, analyze

POSTINGS = "retrieval.bm25_postings"
CHUNKS = "retrieval.bm25_chunks"
DOCUMENTS = "retrieval.bm25_documents"
BLOCKS = "retrieval.bm25_blocks"
#: chunks per block of retrieval.bm25_blocks (consecutive chunks of one version, the backfill of migration 0050
#: groups them the same way)
BLOCK_SIZE = 32

_REF = "tenant_id = %s and document_id = %s and document_version = %s"


def _params(ref: VersionRef) -> tuple[str, str, int]:
    return (ref.tenant_id, ref.document_id, ref.document_version)


def _single(row: tuple[Any, ...] | None) -> int:
    if row is None:
        raise RuntimeError("bm25: the version's statistics row was not returned by its insert")
    return int(row[0])


class Bm25Writer:
    """Writes the BM25 postings, chunk lengths and per-version statistics of every document with chunks."""

    name = "bm25"
    #: Part of every document's config fingerprint: a new analyzer re-versions documents on the next run.
    version = f"bm25-1/{ANALYZER_ID}"
    #: scoring reads the postings' primary key alone (index-only), which needs the visibility map set
    vacuum_tables = (POSTINGS, BLOCKS)

    @staticmethod
    def rows(doc: ParsedDocument) -> tuple[list[tuple[str, int]], list[tuple[str, str, int, int]]]:
        """(chunk id, length) per chunk and (chunk id, term, tf, chunk length) per posting, for ``doc``."""
        chunks: list[tuple[str, int]] = []
        postings: list[tuple[str, str, int, int]] = []
        for chunk in doc.chunks:
            analyzed = analyze(chunk.text)
            chunks.append((chunk.chunk_id, analyzed.length))
            for term, tf in sorted(analyzed.term_frequencies().items()):
                postings.append((chunk.chunk_id, term, tf, analyzed.length))
        return chunks, postings

    @staticmethod
    def blocks(
        postings: Sequence[tuple[str, str, int, int]], chunk_keys: dict[str, int]
    ) -> list[tuple[str, int, int, int, int, int, int]]:
        """(term, block_no, first chunk_key, last chunk_key, df, max tf, min length) per block and term: blocks of
        :data:`BLOCK_SIZE` consecutive chunks of the version, by chunk_key."""
        position = {key: i for i, key in enumerate(sorted(chunk_keys.values()))}
        grouped: dict[tuple[str, int], list[tuple[int, int, int]]] = {}
        for chunk_id, term, tf, length in postings:
            key = chunk_keys[chunk_id]
            grouped.setdefault((term, position[key] // BLOCK_SIZE), []).append((key, tf, length))
        return [(term, block, min(k for k, _, _ in rows), max(k for k, _, _ in rows), len(rows),
                 max(tf for _, tf, _ in rows), min(length for _, _, length in rows))
                for (term, block), rows in sorted(grouped.items())]

    @staticmethod
    def _stats(
        documents: Iterable[Sequence[Any]], chunks: Iterable[Sequence[Any]], postings: Iterable[Sequence[Any]],
        wrong_blocks: int = 0,
    ) -> StoreStats:
        # Design note: blocks are derived from the postings, so the recorded stats leave them out (versions staged
        # before migration 0050 recorded none); verify adds a blocks entry only when they disagree with the
        # postings, which then shows as drift
        tables = {DOCUMENTS: list(documents), CHUNKS: list(chunks), POSTINGS: list(postings)}
        counts = {table: len(rows) for table, rows in tables.items() if rows}
        if wrong_blocks:
            counts[BLOCKS] = wrong_blocks
        checksum = rows_checksum((table, *row) for table, rows in tables.items() for row in rows)
        return StoreStats(counts, checksum)

    def write(self, conn: psycopg.Connection, doc: ParsedDocument, version: int) -> StoreStats:
        """Write the rows of ``doc`` under the staged ``version`` (COPY: a large manual has thousands of postings)."""
        chunks, postings = self.rows(doc)
        key = (doc.tenant_id, doc.document_id, version)
        document_row = (ANALYZER_ID, len(chunks), sum(length for _, length in chunks))
        blocks: list[tuple[str, int, int, int, int, int, int]] = []
        with conn.cursor() as cur:
            cur.execute(
                "insert into retrieval.bm25_documents (tenant_id, document_id, document_version, analyzer, "
                "chunk_count, total_length) values (%s, %s, %s, %s, %s, %s) returning doc_key",
                (*key, *document_row),
            )
            doc_key = _single(cur.fetchone())
            if chunks:
                with cur.copy(
                    "copy retrieval.bm25_chunks (tenant_id, document_id, document_version, chunk_id, chunk_length) "
                    "from stdin"
                ) as copy:
                    for chunk_row in chunks:
                        copy.write_row((*key, *chunk_row))
            if postings:
                # the integer keys scoring groups by (migration 0022), assigned by the database to the rows above
                keyed = cur.execute(f"select chunk_id, chunk_key from {CHUNKS} where {_REF}", key).fetchall()
                chunk_keys: dict[str, int] = dict(keyed)
                with cur.copy(
                    "copy retrieval.bm25_postings (tenant_id, document_id, document_version, chunk_id, term, tf, "
                    "chunk_length, doc_key, chunk_key) from stdin"
                ) as copy:
                    for posting in postings:
                        copy.write_row((*key, *posting, doc_key, chunk_keys[posting[0]]))
                blocks = self.blocks(postings, chunk_keys)
                with cur.copy(
                    "copy retrieval.bm25_blocks (tenant_id, document_id, document_version, doc_key, term, block_no, "
                    "first_chunk_key, last_chunk_key, df, max_tf, min_length) from stdin"
                ) as copy:
                    for block in blocks:
                        copy.write_row((*key, doc_key, *block))
        return self._stats([document_row], chunks, postings)

    def verify(self, conn: psycopg.Connection, ref: VersionRef) -> StoreStats:
        """Recount and checksum what is stored for ``ref``, the same way :meth:`write` computed it."""
        documents = conn.execute(
            f"select analyzer, chunk_count, total_length from retrieval.bm25_documents where {_REF}", _params(ref)
        ).fetchall()
        chunks = conn.execute(
            f"select chunk_id, chunk_length from retrieval.bm25_chunks where {_REF}", _params(ref)
        ).fetchall()
        # a posting counts only when its integer keys name its own chunk and version, which scoring relies on
        postings = conn.execute(
            "select p.chunk_id, p.term, p.tf, p.chunk_length, p.chunk_key from retrieval.bm25_postings p "
            "join retrieval.bm25_chunks c on c.chunk_key = p.chunk_key and c.tenant_id = p.tenant_id "
            "and c.document_id = p.document_id and c.document_version = p.document_version and c.chunk_id = p.chunk_id "
            "join retrieval.bm25_documents d on d.doc_key = p.doc_key and d.tenant_id = p.tenant_id "
            "and d.document_id = p.document_id and d.document_version = p.document_version "
            "where p.tenant_id = %s and p.document_id = %s and p.document_version = %s",
            _params(ref),
        ).fetchall()
        stored = conn.execute(
            "select term, block_no, first_chunk_key, last_chunk_key, df, max_tf, min_length "
            f"from retrieval.bm25_blocks where {_REF}",
            _params(ref),
        ).fetchall()
        # positions count every chunk of the version, also those without postings (as write and migration 0050 do)
        keyed = conn.execute(f"select chunk_id, chunk_key from {CHUNKS} where {_REF}", _params(ref)).fetchall()
        all_keys: dict[str, int] = dict(keyed)
        expected = self.blocks([(c, t, tf, n) for c, t, tf, n, _ in postings], all_keys) if postings else []
        wrong = len({tuple(b) for b in stored} ^ set(expected))
        return self._stats(documents, chunks, [row[:4] for row in postings], wrong)

    def purge(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """Delete every row of ``ref``."""
        for table in (BLOCKS, POSTINGS, CHUNKS, DOCUMENTS):
            conn.execute(f"delete from {table} where {_REF}", _params(ref))

    def on_publish(self, conn: psycopg.Connection, ref: VersionRef, previous_version: int | None) -> None:
        """Nothing to switch: the ``retrieval.active_bm25_*`` views follow the registry's active version."""

    def on_delete(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """A deleted document leaves the index (and with it the tenant's collection statistics)."""
        self.purge(conn, ref)


def create_writer() -> Bm25Writer:
    """The factory ``ingest.writers.PLUGIN_SPECS`` names: ``retrieval.bm25_writer:create_writer``."""
    return Bm25Writer()
