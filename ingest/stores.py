"""The built-in stores of a document version: landing rows, chunks, identifiers and embeddings.

They follow the :class:`~ingest.writers.RepresentationWriter` life cycle but work on many documents per
statement (one ``executemany`` per table for a whole batch), which is what keeps ingestion close to the raw
embedding rate. Expected stats are computed from the Python values before writing; ``verify_many`` reads the
rows back and computes the same stats, so a lossy write (rounding, truncation, a missing row) is caught before
the version is served.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import psycopg
from psycopg import sql

from ingest.hashing import lines_checksum, row_line, rows_checksum
from ingest.models import ParsedDocument
from ingest.writers import StoreStats, VersionRef

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Staged:
    """A document with the version it is written under and its vectors (by chunk id) for one config."""

    doc: ParsedDocument
    version: int
    vectors: Mapping[str, np.ndarray] = field(default_factory=dict)

    @property
    def ref(self) -> VersionRef:
        return VersionRef(self.doc.tenant_id, self.doc.document_id, self.version)


class BuiltinStore(Protocol):
    """A store the pipeline writes for many documents at once."""

    name: str

    def expected(self, staged: Staged) -> StoreStats: ...

    def write_many(self, conn: psycopg.Connection, staged: Sequence[Staged]) -> None: ...

    def verify_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> dict[VersionRef, StoreStats]: ...

    def purge_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None: ...


REF_FILTER = sql.SQL(
    "(tenant_id, document_id, document_version) in "
    "(select * from unnest({}::text[], {}::text[], {}::int[]))"
).format(sql.Placeholder(), sql.Placeholder(), sql.Placeholder())


def copy_rows(conn: psycopg.Connection, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Bulk insert with COPY (an order of magnitude faster than row inserts for thousands of FX rates)."""
    if not rows:
        return
    statement = sql.SQL("copy {} ({}) from stdin").format(
        sql.SQL(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    with conn.cursor() as cur, cur.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)


def purge_embeddings(conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None:
    """Delete the vectors of ``refs`` for every embedding config."""
    conn.execute(sql.SQL("delete from ingest.embeddings where {}").format(REF_FILTER), ref_params(refs))


def ref_params(refs: Sequence[VersionRef]) -> tuple[list[str], list[str], list[int]]:
    return ([r.tenant_id for r in refs], [r.document_id for r in refs], [r.document_version for r in refs])


def _group(rows: Sequence[Sequence[Any]]) -> dict[VersionRef, list[Sequence[Any]]]:
    """Rows whose first three values are (tenant, document, version), grouped by ref, key columns dropped."""
    grouped: dict[VersionRef, list[Sequence[Any]]] = {}
    for row in rows:
        grouped.setdefault(VersionRef(row[0], row[1], row[2]), []).append(row[3:])
    return grouped


@dataclass(frozen=True)
class _Table:
    name: str
    records: str  # attribute of Records
    columns: tuple[str, ...]


# Column order here is the checksum's value order; landing shapes are migration 0004's (synonyms: 0150's,
# payment terms: 0600's).
LANDING_TABLES: tuple[_Table, ...] = (
    _Table("landing.companies", "companies", ("company_id", "company_name", "reporting_currency")),
    _Table("landing.suppliers", "suppliers", ("supplier_id", "supplier_name", "country", "contact_email", "iban")),
    _Table("landing.supplier_aliases", "supplier_aliases", ("supplier_id", "alias", "alias_normalized")),
    _Table("landing.product_groups", "product_groups", ("product_group_id", "group_name", "parent_group_id")),
    _Table("landing.product_group_synonyms", "product_group_synonyms", ("product_group_id", "language", "synonym")),
    _Table("landing.products", "products", ("product_code", "product_name", "product_group_id", "supplier_id",
                                            "unit_of_measure", "list_price", "currency")),
    _Table("landing.fx_rates", "fx_rates", ("rate_date", "from_currency", "to_currency", "rate_type", "rate")),
    _Table("landing.vendor_approvals", "vendor_approvals", (
        "approval_id", "agreement_id", "company_id", "supplier_id", "supplier_name", "scope", "valid_from",
        "valid_to", "page_number", "chunk_id", "extraction_version")),
    _Table("landing.payment_terms", "payment_terms", (
        "agreement_id", "company_id", "effective_date", "term_days", "clause", "sentence", "page_number",
        "chunk_id", "extraction_version")),
    _Table("landing.invoice_headers", "invoice_headers", (
        "business_hash", "source_system", "document_type", "invoice_number", "company_id", "supplier_name",
        "status", "invoice_date", "posting_date", "currency", "tax_level", "header_tax_amount",
        "original_invoice_number")),
    _Table("landing.invoice_lines", "invoice_lines", (
        "line_id", "line_number", "product_code", "description", "quantity", "unit_price", "discount_amount",
        "line_net_amount", "line_tax_amount")),
)


#: Landing tables whose rows outlive their version's supersession: a payment term holds from its version's
#: effective date until the next version's, so the superseded versions' terms stay the terms of their days
#: (dbt: stg_payment_terms / marts.payment_terms). Publication marks the old versions superseded before it purges
#: them, so only rows of versions never published (abandoned or failed) are deleted from these tables.
HISTORY_TABLES = frozenset({"landing.payment_terms"})
_KEEP_SUPERSEDED = sql.SQL(
    " and not exists (select 1 from ingest.document_versions as v where v.tenant_id = {0}.tenant_id"
    " and v.document_id = {0}.document_id and v.document_version = {0}.document_version"
    " and v.status = 'superseded')").format(sql.SQL("payment_terms"))


class LandingStore:
    """Validated relational rows: the landing tables dbt reads."""

    name = "landing"

    def _rows(self, doc: ParsedDocument) -> dict[str, list[tuple[Any, ...]]]:
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table in LANDING_TABLES:
            records = getattr(doc.records, table.records)
            if records:
                rows[table.name] = [
                    (doc.content_hash, *(getattr(r, c) for c in table.columns)) for r in records
                ]
        return rows

    def expected(self, staged: Staged) -> StoreStats:
        return _stats(self._rows(staged.doc))

    def write_many(self, conn: psycopg.Connection, staged: Sequence[Staged]) -> None:
        per_table: dict[str, list[tuple[Any, ...]]] = {}
        for item in staged:
            key = (item.doc.tenant_id, item.doc.document_id, item.version)
            for table_name, rows in self._rows(item.doc).items():
                per_table.setdefault(table_name, []).extend((*key, *row) for row in rows)
        # a history table keeps a superseded version's rows through purge (_KEEP_SUPERSEDED); re-staging that
        # same version (a rollback, or content equal to it ingested again) replaces them instead of copying them
        # a second time (a duplicate key otherwise)
        refs = [item.ref for item in staged]
        if refs:
            for table_name in sorted(HISTORY_TABLES):
                conn.execute(sql.SQL("delete from {} where {}").format(sql.SQL(table_name), REF_FILTER),
                             ref_params(refs))
        for table in LANDING_TABLES:  # headers before lines (foreign key)
            columns = ("tenant_id", "document_id", "document_version", "content_hash", *table.columns)
            copy_rows(conn, table.name, columns, per_table.get(table.name, []))

    def verify_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> dict[VersionRef, StoreStats]:
        # rows are streamed and reduced to their checksum lines at once (the same stats as _stats): a 50 MB
        # invoice's lines are then held once, not as a result set, row tuples and lines together
        lines: dict[VersionRef, list[str]] = {ref: [] for ref in refs}
        counts: dict[VersionRef, dict[str, int]] = {ref: {} for ref in refs}
        for table in LANDING_TABLES:
            columns = ("tenant_id", "document_id", "document_version", "content_hash", *table.columns)
            query = sql.SQL("select {} from {} where {}").format(
                sql.SQL(", ").join(map(sql.Identifier, columns)), sql.SQL(table.name), REF_FILTER
            )
            with conn.cursor() as cur:
                for row in cur.stream(query, ref_params(refs), size=256):
                    ref = VersionRef(row[0], row[1], row[2])
                    lines.setdefault(ref, []).append(row_line((table.name, *row[3:])))
                    per_table = counts.setdefault(ref, {})
                    per_table[table.name] = per_table.get(table.name, 0) + 1
        return {ref: StoreStats(counts[ref], lines_checksum(lines[ref])) for ref in lines}

    def purge_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None:
        for table in reversed(LANDING_TABLES):  # lines before headers
            keep = _KEEP_SUPERSEDED if table.name in HISTORY_TABLES else sql.SQL("")
            conn.execute(sql.SQL("delete from {} where {}{}").format(sql.SQL(table.name), REF_FILTER, keep),
                         ref_params(refs))


def _stats(tables: Mapping[str, Sequence[Sequence[Any]]]) -> StoreStats:
    counts = {table: len(rows) for table, rows in tables.items() if rows}
    checksum = rows_checksum((table, *row) for table, rows in tables.items() for row in rows)
    return StoreStats(counts, checksum)


class ChunkStore:
    """Chunks for BM25 and display; the parent section and span make citations exact."""

    name = "chunks"
    table = "ingest.chunks"

    @staticmethod
    def _rows(doc: ParsedDocument) -> list[tuple[Any, ...]]:
        return [
            (c.chunk_id, c.ordinal, c.parent_id, c.page, c.char_start, c.char_end, list(c.section_path), c.kind,
             c.text, c.content_hash, json.dumps(dict(c.metadata), sort_keys=True, ensure_ascii=False))
            for c in doc.chunks
        ]

    @staticmethod
    def _checked(row: Sequence[Any]) -> tuple[Any, ...]:
        # the text itself is covered by its content hash; metadata compares as canonical JSON
        metadata = row[10] if isinstance(row[10], str) else json.dumps(row[10], sort_keys=True, ensure_ascii=False)
        return (*row[:8], row[9], json.loads(metadata))

    def expected(self, staged: Staged) -> StoreStats:
        rows = [self._checked(r) for r in self._rows(staged.doc)]
        return _stats({self.table: rows})

    def write_many(self, conn: psycopg.Connection, staged: Sequence[Staged]) -> None:
        rows = [
            (s.doc.tenant_id, s.doc.document_id, s.version, *row) for s in staged for row in self._rows(s.doc)
        ]
        copy_rows(conn, self.table, ("tenant_id", "document_id", "document_version", "chunk_id", "ordinal",
                                     "parent_id", "page", "char_start", "char_end", "section_path", "chunk_kind",
                                     "chunk_text", "content_hash", "metadata"), rows)

    def verify_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> dict[VersionRef, StoreStats]:
        query = sql.SQL(
            "select tenant_id, document_id, document_version, chunk_id, ordinal, parent_id, page, char_start, "
            "char_end, section_path, chunk_kind, 'sha256:' || encode(sha256(convert_to(chunk_text, 'UTF8')), 'hex'), "
            "content_hash, metadata from ingest.chunks where {}"
        ).format(REF_FILTER)
        grouped = _group(conn.execute(query, ref_params(refs)).fetchall())
        result = {}
        for ref in refs:
            rows = []
            for row in grouped.get(ref, []):
                # a stored text that no longer matches its hash is drift too (hashed by the database: a huge
                # text is not fetched just to be hashed)
                text_hash = row[8]
                rows.append(self._checked((*row[:9], text_hash if text_hash == row[9] else "mismatch", row[10])))
            result[ref] = _stats({self.table: rows})
        return result

    def purge_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None:
        conn.execute(sql.SQL("delete from ingest.chunks where {}").format(REF_FILTER), ref_params(refs))


class IdentifierStore:
    """Normalized identifiers for exact match (product codes, invoice numbers, supplier and contract ids)."""

    name = "identifiers"
    table = "ingest.identifiers"

    @staticmethod
    def _rows(doc: ParsedDocument) -> list[tuple[Any, ...]]:
        return [(i.chunk_id, i.identifier_type, i.identifier_value, i.raw) for i in doc.identifiers]

    def expected(self, staged: Staged) -> StoreStats:
        return _stats({self.table: self._rows(staged.doc)})

    def write_many(self, conn: psycopg.Connection, staged: Sequence[Staged]) -> None:
        rows = [(s.doc.tenant_id, s.doc.document_id, s.version, *row) for s in staged for row in self._rows(s.doc)]
        copy_rows(conn, self.table, ("tenant_id", "document_id", "document_version", "chunk_id", "identifier_type",
                                     "identifier_value", "raw"), rows)

    def verify_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> dict[VersionRef, StoreStats]:
        query = sql.SQL(
            "select tenant_id, document_id, document_version, chunk_id, identifier_type, identifier_value, raw "
            "from ingest.identifiers where {}"
        ).format(REF_FILTER)
        grouped = _group(conn.execute(query, ref_params(refs)).fetchall())
        return {ref: _stats({self.table: grouped.get(ref, [])}) for ref in refs}

    def purge_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None:
        conn.execute(sql.SQL("delete from ingest.identifiers where {}").format(REF_FILTER), ref_params(refs))


def vector_digest(vector: Any) -> str:
    """Exact digest of a float32 vector (pgvector stores float4, so it survives the round trip).

    Accepts a numpy array or the ``pgvector.Vector`` the driver returns.
    """
    import numpy as np

    if hasattr(vector, "to_numpy"):
        vector = vector.to_numpy()
    return hashlib.sha256(np.asarray(vector, dtype="<f4").tobytes()).hexdigest()[:32]


class EmbeddingStore:
    """Vectors of one embedding config; the HNSW index serves the active config's rows."""

    table = "ingest.embeddings"

    def __init__(self, config_id: str) -> None:
        self.config_id = config_id
        self.name = f"embeddings:{config_id}"

    def _rows(self, staged: Staged) -> list[tuple[Any, ...]]:
        rows = []
        for chunk in staged.doc.chunks:
            vector = staged.vectors.get(chunk.chunk_id)
            if vector is not None:
                rows.append((chunk.chunk_id, chunk.input_hash, vector))
        return rows

    def expected(self, staged: Staged) -> StoreStats:
        rows = [(c, h, vector_digest(v)) for c, h, v in self._rows(staged)]
        return _stats({self.table: rows})

    def write_many(self, conn: psycopg.Connection, staged: Sequence[Staged]) -> None:
        from ingest.vector_index import index_key

        # every row carries its tenant's opaque index key, which the tenant's own partial index filters on
        keys = {t: index_key(t) for t in {s.doc.tenant_id for s in staged}}
        rows = [
            (s.doc.tenant_id, s.doc.document_id, s.version, chunk_id, self.config_id, input_hash, vector,
             keys[s.doc.tenant_id])
            for s in staged
            for chunk_id, input_hash, vector in self._rows(s)
        ]
        copy_rows(conn, self.table, ("tenant_id", "document_id", "document_version", "chunk_id",
                                     "embedding_config_id", "input_hash", "embedding", "index_key"), rows)

    def verify_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> dict[VersionRef, StoreStats]:
        query = sql.SQL(
            "select tenant_id, document_id, document_version, chunk_id, input_hash, embedding "
            "from ingest.embeddings where embedding_config_id = %s and {}"
        ).format(REF_FILTER)
        rows = conn.execute(query, (self.config_id, *ref_params(refs))).fetchall()
        grouped = _group([(*r[:5], vector_digest(r[5])) for r in rows])
        return {ref: _stats({self.table: grouped.get(ref, [])}) for ref in refs}

    def purge_many(self, conn: psycopg.Connection, refs: Sequence[VersionRef]) -> None:
        conn.execute(
            sql.SQL("delete from ingest.embeddings where embedding_config_id = %s and {}").format(REF_FILTER),
            (self.config_id, *ref_params(refs)),
        )
