"""Reconciliation: compare the sources with the registry, and the registry with every store; repair drift.

Consistency across stores is an observable invariant, not an assumption. Two comparisons:

* source -> registry (with ``source``): every source document must be the active version with the same content
  hash and config fingerprint (``missing_document`` / ``stale_document``); a corpus ``manifest.json`` must match
  the files (``missing_source_file`` / ``source_checksum_mismatch``); active documents of the same tenants that
  no source holds are ``orphaned_document`` (reported, never deleted automatically).
* registry -> stores: for every active version, each store (landing, chunks, identifiers, embeddings of the
  active config, every registered writer) must hold exactly the expected counts and checksums recorded at
  staging (``store_drift`` / ``missing_store``); rows of superseded versions must be gone (``stale_rows``).

``repair`` re-ingests missing and stale documents through the normal pipeline, rewrites drifted stores of the
active version from its stored original (same version, one transaction per document) and purges stale rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
from psycopg import sql

from ingest.embedder import Embedder, get_default_embedder
from ingest.errors import IngestError
from ingest.models import ParsedDocument
from ingest.parsers import parse_item
from ingest.pipeline import IngestOptions, IngestProgress, Pipeline, config_fingerprint, describe_drift
from ingest.registry import active_embedding_config_id, expected_from_json, expected_to_json, set_tenant
from ingest.sources import SourceItem, file_sha256, iter_items, kind_of_uri, load_manifest
from ingest.stores import ChunkStore, EmbeddingStore, IdentifierStore, LandingStore, Staged
from ingest.writers import RepresentationWriter, StoreStats, VersionRef, applies, check_writer, discover_writers

if TYPE_CHECKING:
    import numpy as np

_STORE_TABLES = ("ingest.chunks", "ingest.identifiers", "ingest.embeddings", "landing.companies",
                 "landing.suppliers", "landing.supplier_aliases", "landing.product_groups",
                 "landing.product_group_synonyms", "landing.products",
                 "landing.fx_rates", "landing.vendor_approvals", "landing.payment_terms", "landing.invoice_headers",
                 "landing.invoice_lines")


@dataclass(frozen=True)
class Drift:
    """One inconsistency (and whether ``repair`` fixed it)."""

    tenant_id: str
    document_id: str | None
    kind: str
    detail: str
    store: str | None = None
    document_version: int | None = None
    repaired: bool = False
    source_uri: str | None = None

    def __str__(self) -> str:
        version = f" v{self.document_version}" if self.document_version is not None else ""
        store = f" [{self.store}]" if self.store else ""
        state = " (repaired)" if self.repaired else ""
        return f"{self.tenant_id} {self.document_id or '-'}{version}{store}: {self.kind}: {self.detail}{state}"


@dataclass(frozen=True)
class ReconcileReport:
    """Everything reconcile found; ``ok`` when nothing is left unrepaired."""

    documents_checked: int
    sources_checked: int
    drifts: tuple[Drift, ...] = field(default_factory=tuple)

    @property
    def unrepaired(self) -> tuple[Drift, ...]:
        return tuple(d for d in self.drifts if not d.repaired)

    @property
    def ok(self) -> bool:
        return not self.unrepaired


@dataclass(frozen=True)
class _Active:
    ref: VersionRef
    document_type: str
    source_uri: str
    content_hash: str
    fingerprint: str
    expected: dict[str, StoreStats]
    original: bytes


def _active_versions(conn: psycopg.Connection, tenant: str | None) -> list[_Active]:
    rows = conn.execute(
        "select d.tenant_id, d.document_id, d.active_version, d.document_type, d.source_uri, v.content_hash, "
        "v.config_fingerprint, v.expected_counts, v.checksums, v.original_content "
        "from ingest.documents d join ingest.document_versions v on v.tenant_id = d.tenant_id "
        "and v.document_id = d.document_id and v.document_version = d.active_version "
        "where not d.is_deleted and (%s::text is null or d.tenant_id = %s) "
        "order by d.tenant_id, d.document_id",
        (tenant, tenant),
    ).fetchall()
    return [
        _Active(VersionRef(r[0], r[1], r[2]), r[3], r[4], r[5], r[6], expected_from_json(r[7], r[8]), bytes(r[9]))
        for r in rows
    ]


def reconcile(
    conn: psycopg.Connection,
    *,
    tenant: str | None = None,
    source: Path | None = None,
    repair: bool = False,
    embedder: Embedder | None = None,
    writers: Sequence[RepresentationWriter] | None = None,
    options: IngestOptions | None = None,
    progress: Callable[[IngestProgress], None] | None = None,
) -> ReconcileReport:
    """Compare sources, registry and stores; with ``repair``, fix what can be fixed.

    Args:
        conn: a ``procura_owner`` connection in autocommit mode.
        tenant: limit to one tenant.
        source: a corpus root or folder to compare the registry with (optional).
        repair: re-ingest missing/stale documents, rewrite drifted stores, purge stale rows.
        embedder: needed only to repair embeddings (defaults to MiniLM, loaded lazily).
        writers: registered writers to check; default: :func:`~ingest.writers.discover_writers`.
    """
    if not conn.autocommit:
        raise IngestError("reconcile needs an autocommit connection")
    from pgvector.psycopg import register_vector

    register_vector(conn)
    options = options or IngestOptions()
    active_writers = tuple(check_writer(w) for w in (discover_writers() if writers is None else writers))
    drifts: list[Drift] = []
    sources_checked = 0
    if source is not None:
        source_drifts, sources_checked = _check_sources(conn, Path(source), tenant, options, active_writers)
        if repair and any(d.kind in ("missing_document", "stale_document") for d in source_drifts):
            pipeline = Pipeline(conn, embedder=embedder or get_default_embedder(), writers=active_writers,
                                options=options, progress=progress)
            wanted = {d.source_uri for d in source_drifts if d.kind in ("missing_document", "stale_document")}
            report = pipeline.run(i for i in _source_items(Path(source), tenant) if i.source_uri in wanted)
            done = {o.source_uri for o in report.outcomes if o.action in ("published", "skipped", "backfilled")}
            source_drifts = [
                _repaired(d) if d.kind in ("missing_document", "stale_document") and d.source_uri in done else d
                for d in source_drifts
            ]
        drifts.extend(source_drifts)
    actives = _active_versions(conn, tenant)
    config_id = active_embedding_config_id(conn)
    store_drifts = _check_stores(conn, actives, config_id, active_writers)
    stale = _stale_rows(conn, tenant)
    if repair:
        store_drifts = _repair_stores(conn, actives, store_drifts, config_id, embedder, active_writers, options)
        stale = _purge_stale(conn, stale)
    drifts.extend(store_drifts)
    drifts.extend(stale)
    return ReconcileReport(len(actives), sources_checked, tuple(drifts))


def _repaired(drift: Drift) -> Drift:
    return Drift(drift.tenant_id, drift.document_id, drift.kind, drift.detail, drift.store, drift.document_version,
                 True, drift.source_uri)


def _source_items(root: Path, tenant: str | None) -> list[SourceItem]:
    """The items of a source folder; at a corpus root, ``updates/`` follows as later arrivals."""
    items = list(iter_items(root, tenant=tenant))
    updates = root / "updates"
    if (root / "tenants").is_dir() and updates.is_dir():
        items.extend(iter_items(updates, tenant=tenant))
    return items


def _check_sources(
    conn: psycopg.Connection, root: Path, tenant: str | None, options: IngestOptions,
    writers: Sequence[RepresentationWriter],
) -> tuple[list[Drift], int]:
    drifts: list[Drift] = []
    manifest = load_manifest(root.resolve()) if root.is_dir() else None
    if manifest is not None:
        for outside in manifest.outside:
            drifts.append(Drift(tenant or "-", None, "source_outside_corpus",
                                f"{outside} in {manifest.path} leaves the corpus root; not read"))
        for path, entry in sorted(manifest.entries.items()):
            entry_tenant = str(entry.get("tenant_id") or tenant or "-")
            if tenant is not None and entry_tenant != tenant:
                continue
            file = Path(path)
            if file.is_symlink():
                drifts.append(Drift(entry_tenant, None, "source_outside_corpus",
                                    f"{path} is a symbolic link; not read"))
                continue
            if not file.is_file():
                drifts.append(Drift(entry_tenant, None, "missing_source_file", f"{path} is in manifest.json"))
                continue
            expected = manifest.sha256(path)
            if expected and file_sha256(file) != expected:
                drifts.append(Drift(entry_tenant, None, "source_checksum_mismatch", f"{path} differs from manifest"))
    actives = {(a.ref.tenant_id, a.ref.document_id): a for a in _active_versions(conn, tenant)}
    seen: set[tuple[str, str]] = set()
    tenants: set[str] = set()
    count = 0
    latest: dict[tuple[str, str], tuple[SourceItem, ParsedDocument]] = {}
    for item in _source_items(root, tenant):
        count += 1
        tenants.add(item.tenant_id)
        if item.error is not None:
            drifts.append(Drift(item.tenant_id, None, "unreadable_source", str(item.error)))
            continue
        try:
            doc = parse_item(item, options.chunker)
        except IngestError as exc:
            drifts.append(Drift(item.tenant_id, None, "unparseable_source", f"{item.source_uri} ({exc})"))
            continue
        latest[(doc.tenant_id, doc.document_id)] = (item, doc)  # a later arrival replaces an earlier one
    for key, (item, doc) in latest.items():
        seen.add(key)
        active = actives.get(key)
        fingerprint = config_fingerprint(doc.document_type, options.chunker, writers)
        if active is None:
            drifts.append(Drift(doc.tenant_id, doc.document_id, "missing_document",
                                f"{item.source_uri} has no active version", source_uri=item.source_uri))
        elif active.content_hash != doc.content_hash or active.fingerprint != fingerprint:
            what = "content" if active.content_hash != doc.content_hash else "configuration"
            drifts.append(Drift(doc.tenant_id, doc.document_id, "stale_document",
                                f"{item.source_uri} differs from v{active.ref.document_version} ({what})",
                                document_version=active.ref.document_version, source_uri=item.source_uri))
    for key, active in actives.items():
        if key[0] in tenants and key not in seen:
            drifts.append(Drift(key[0], key[1], "orphaned_document",
                                f"active v{active.ref.document_version} has no source under {root}",
                                document_version=active.ref.document_version))
    return drifts, count


def _builtin(config_id: str | None) -> tuple[tuple[LandingStore | ChunkStore | IdentifierStore, ...],
                                            EmbeddingStore | None]:
    return (LandingStore(), ChunkStore(), IdentifierStore()), (EmbeddingStore(config_id) if config_id else None)


def _check_stores(
    conn: psycopg.Connection, actives: list[_Active], config_id: str | None,
    writers: Sequence[RepresentationWriter], batch_size: int = 256,
) -> list[Drift]:
    """Each active version's stores against the counts and checksums recorded when it was staged."""
    builtin, embeddings = _builtin(config_id)
    drifts: list[Drift] = []
    for offset in range(0, len(actives), batch_size):
        batch = actives[offset : offset + batch_size]
        refs = [a.ref for a in batch]
        actual: dict[VersionRef, dict[str, StoreStats]] = {ref: {} for ref in refs}
        for store in builtin:
            for ref, stats in store.verify_many(conn, refs).items():
                actual[ref][store.name] = stats
        if embeddings is not None:
            for ref, stats in embeddings.verify_many(conn, refs).items():
                actual[ref][embeddings.name] = stats
        for active in batch:
            for writer in writers:
                if applies(writer, active.document_type):
                    actual[active.ref][writer.name] = writer.verify(conn, active.ref)
        for active in batch:
            ref = active.ref
            for store_name, have in sorted(actual[ref].items()):
                want = active.expected.get(store_name)
                if want is None:
                    if store_name.startswith("embeddings:") and have.total() == 0 and not _has_chunks(active):
                        continue
                    drifts.append(Drift(ref.tenant_id, ref.document_id, "missing_store",
                                        "no expected stats recorded (store added after staging)", store_name,
                                        ref.document_version))
                    continue
                for problem in describe_drift({store_name: want}, {store_name: have}):
                    drifts.append(Drift(ref.tenant_id, ref.document_id, "store_drift", problem, store_name,
                                        ref.document_version))
    return drifts


def _has_chunks(active: _Active) -> bool:
    chunks = active.expected.get("chunks")
    return chunks is not None and chunks.total() > 0


def _repair_stores(
    conn: psycopg.Connection, actives: list[_Active], drifts: list[Drift], config_id: str | None,
    embedder: Embedder | None, writers: Sequence[RepresentationWriter], options: IngestOptions,
) -> list[Drift]:
    by_ref: dict[VersionRef, list[Drift]] = {}
    for drift in drifts:
        assert drift.document_id is not None and drift.document_version is not None
        by_ref.setdefault(VersionRef(drift.tenant_id, drift.document_id, drift.document_version), []).append(drift)
    active_by_ref = {a.ref: a for a in actives}
    result: list[Drift] = []
    for ref, found in sorted(by_ref.items()):
        try:
            _repair_version(conn, active_by_ref[ref], {d.store for d in found if d.store}, config_id, embedder,
                            writers, options)
        except (IngestError, psycopg.Error) as exc:
            result.extend(found)
            result.append(Drift(ref.tenant_id, ref.document_id, "repair_failed", f"{type(exc).__name__}: {exc}",
                                None, ref.document_version))
            continue
        result.extend(_repaired(d) for d in found)
    return result


def _vectors_for(
    conn: psycopg.Connection, doc: ParsedDocument, config_id: str, embedder: Embedder | None
) -> dict[str, np.ndarray]:
    """Vectors of the active config for a document's chunks: stored ones for identical inputs, else encoded."""
    hashes = sorted({c.input_hash for c in doc.chunks})
    stored = {
        str(h): v for h, v in conn.execute(
            "select distinct on (input_hash) input_hash, embedding from ingest.embeddings "
            "where tenant_id = %s and embedding_config_id = %s and input_hash = any(%s)",
            (doc.tenant_id, config_id, hashes),
        ).fetchall()
    }
    missing = {c.input_hash: c.embedding_text for c in doc.chunks if c.input_hash not in stored}
    if missing:
        model = embedder or get_default_embedder()
        if model.config.embedding_config_id != config_id:
            raise IngestError(f"repairing embeddings needs an embedder of the active config {config_id}, "
                              f"not {model.config.embedding_config_id}")
        encoded = model.embed_documents(list(missing.values()))
        stored.update(zip(missing, encoded, strict=True))
    return {c.chunk_id: stored[c.input_hash] for c in doc.chunks}


def _repair_version(
    conn: psycopg.Connection, active: _Active, stores: set[str], config_id: str | None,
    embedder: Embedder | None, writers: Sequence[RepresentationWriter], options: IngestOptions,
) -> None:
    """Rewrite the drifted stores of one active version from its stored original, in one transaction.

    The built-in stores are rewritten together (identifiers and embeddings hang off chunks by foreign key);
    writers only when they drifted. Readers see the old rows or the repaired ones, never a gap.
    """
    ref = active.ref
    item = SourceItem(ref.tenant_id, active.source_uri, kind_of_uri(active.source_uri), active.original)
    doc = parse_item(item, options.chunker)
    if doc.content_hash != active.content_hash or doc.document_id != ref.document_id:
        raise IngestError(f"{ref.document_id} v{ref.document_version}: the stored original no longer parses to "
                          "the same document (parser changed?); re-ingest the source instead")
    builtin, embeddings = _builtin(config_id)
    builtin_names = {s.name for s in builtin} | ({embeddings.name} if embeddings else set())
    rewrite_builtin = bool(stores & builtin_names)
    vectors = _vectors_for(conn, doc, config_id, embedder) if rewrite_builtin and doc.chunks and config_id else {}
    staged = Staged(doc, ref.document_version, vectors)
    expected: dict[str, StoreStats] = {}
    with conn.transaction():
        set_tenant(conn, ref.tenant_id)
        row = conn.execute(
            "select active_version, is_deleted from ingest.documents where tenant_id = %s and document_id = %s "
            "for update",
            (ref.tenant_id, ref.document_id),
        ).fetchone()
        if row is None or row[0] != ref.document_version or row[1]:
            raise IngestError(f"{ref.document_id} v{ref.document_version} is no longer the active version")
        if rewrite_builtin:
            conn.execute(
                "delete from ingest.embeddings where tenant_id = %s and document_id = %s and document_version = %s",
                (ref.tenant_id, ref.document_id, ref.document_version),
            )
            for store in reversed(builtin):
                store.purge_many(conn, [ref])
            for store in builtin:
                store.write_many(conn, [staged])
                expected[store.name] = store.expected(staged)
            if embeddings is not None:
                embeddings.write_many(conn, [staged])
                expected[embeddings.name] = embeddings.expected(staged)
        for writer in writers:
            # a writer whose rows hang off chunks (foreign keys) lost them when the built-in stores were rewritten
            if (writer.name in stores or rewrite_builtin) and applies(writer, doc.document_type):
                writer.purge(conn, ref)
                expected[writer.name] = writer.write(conn, doc, ref.document_version)
        counts, checksums = expected_to_json(expected)
        conn.execute(
            "update ingest.document_versions set expected_counts = expected_counts || %s::jsonb, "
            "checksums = checksums || %s::jsonb where tenant_id = %s and document_id = %s and document_version = %s",
            (counts, checksums, ref.tenant_id, ref.document_id, ref.document_version),
        )


def _stale_rows(conn: psycopg.Connection, tenant: str | None) -> list[Drift]:
    """Rows of superseded versions (publication purges them, so any left over is drift)."""
    drifts = []
    from ingest.stores import HISTORY_TABLES

    for table in _STORE_TABLES:
        if table in HISTORY_TABLES:
            continue  # superseded versions' rows are kept there by design (their terms held on their days)
        query = sql.SQL(
            "select t.tenant_id, t.document_id, t.document_version, count(*) from {} t "
            "join ingest.document_versions v on v.tenant_id = t.tenant_id and v.document_id = t.document_id "
            "and v.document_version = t.document_version "
            "where v.status = 'superseded' and (%s::text is null or t.tenant_id = %s) "
            "group by 1, 2, 3 order by 1, 2, 3"
        ).format(sql.SQL(table))
        for tenant_id, document_id, version, count in conn.execute(query, (tenant, tenant)).fetchall():
            drifts.append(Drift(tenant_id, document_id, "stale_rows", f"{count} row(s) of a superseded version",
                                table, version))
    return drifts


def _purge_stale(conn: psycopg.Connection, stale: list[Drift]) -> list[Drift]:
    repaired = []
    for drift in stale:
        assert drift.store is not None and drift.document_version is not None
        with conn.transaction():
            set_tenant(conn, drift.tenant_id)
            conn.execute(
                sql.SQL("delete from {} where tenant_id = %s and document_id = %s and document_version = %s").format(
                    sql.SQL(drift.store)),
                (drift.tenant_id, drift.document_id, drift.document_version),
            )
        repaired.append(_repaired(drift))
    return repaired
