"""The versioned publication protocol: parse, plan, embed, stage, verify, publish.

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
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from ingest.chunker import ChunkerConfig
from ingest.embedder import Embedder, get_default_embedder
from ingest.errors import (
    DocumentNotFoundError,
    DuplicateBusinessKeyError,
    IdentityError,
    IngestError,
    PublishError,
    VerificationError,
)
from ingest.hashing import canonical_json, sha256_tag
from ingest.models import ParsedDocument
from ingest.parsers import parse_item
from ingest.registry import (
    DocumentState,
    ensure_embedding_config,
    expected_to_json,
    load_states,
    record_dead_letter,
    resolve_dead_letters,
    set_tenant,
    unresolved_dead_letters,
)
from ingest.retry import RetryPolicy, StageFailed, run_stage
from ingest.sources import (
    DEFAULT_MAX_SOURCE_BYTES,
    SourceItem,
    count_items,
    document_path,
    iter_items,
    kind_of_uri,
    read_item,
)
from ingest.stores import (
    BuiltinStore,
    ChunkStore,
    EmbeddingStore,
    IdentifierStore,
    LandingStore,
    Staged,
    purge_embeddings,
)
from ingest.vector_index import MIN_VECTORS, TenantIndex, ensure_tenant_index
from ingest.versions import CHUNKER_VERSION, EXTRACTION_VERSION, PARSER_VERSION, RELATIONAL_SCHEMA_VERSION
from ingest.writers import (
    RepresentationWriter,
    StoreStats,
    VersionRef,
    applies,
    check_writer,
    discover_writers,
    tables_to_vacuum,
)
from procura.db.session import TENANT_ID_PATTERN, idle_autocommit

if TYPE_CHECKING:
    import numpy as np


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


def config_fingerprint(document_type: str, chunker: ChunkerConfig, writers: Sequence[RepresentationWriter]) -> str:
    """The derivation configuration of a document type: parser, chunker, extractor, schemas and writers.

    The embedding config is not part of it: vectors of several configs live side by side under one version
    (a new config is backfilled, then activated), so changing the embedder never re-versions documents.
    """
    parts = {
        "parser": PARSER_VERSION,
        "chunker": f"{CHUNKER_VERSION}/{chunker.describe()}",
        "extraction": EXTRACTION_VERSION,
        "relational": RELATIONAL_SCHEMA_VERSION,
        "writers": {w.name: w.version for w in writers if applies(w, document_type)},
    }
    return "cfg-" + sha256_tag(canonical_json(parts)).removeprefix("sha256:")[:16]


@dataclass(frozen=True)
class Stale:
    """Why a source is older than its document's active version (it is reported, not published)."""

    active_version: int
    reverts_to: int | None
    reason: str


def _revision_order(new: str | None, old: str | None) -> int | None:
    """-1/0/1 comparing two stated source revisions of the same form; None when they cannot be compared."""
    if new is None or old is None or new.partition(":")[0] != old.partition(":")[0]:
        return None
    return (new > old) - (new < old)


def judge_arrival(content_hash: str, revision: str | None, state: DocumentState | None) -> Stale | None:
    """Whether arriving content would move a document back; None when it may be published.

    Two sources of order, both needed: the source's own (a revision, ``updated_at`` or effective date older
    than the active version's is old, like Elasticsearch's external versioning) and the registry's (content
    equal to a superseded version is old, whatever its file says). A deleted document or one without an active
    version has nothing to protect.
    """
    if state is None or state.active_version is None or state.is_deleted:
        return None
    active = state.active()
    if active is None or active.content_hash == content_hash:
        return None
    older = next((v for v in reversed(state.versions)
                  if v.content_hash == content_hash and v.status == "superseded"), None)
    if older is not None:
        return Stale(state.active_version, older.document_version,
                     f"content of superseded v{older.document_version}; v{state.active_version} is active")
    if _revision_order(revision, active.source_revision) == -1:
        return Stale(state.active_version, None,
                     f"source revision {revision} is older than {active.source_revision} of active "
                     f"v{state.active_version}")
    return None


def identity_problem(doc: ParsedDocument, state: DocumentState | None) -> str | None:
    """Why ``doc`` may not publish under its document id (another kind, another source path); None if it may.

    Design note: a document's identity is (tenant, document id) plus its kind and its source path below the
    tenant folder; a file claiming another document's id would otherwise replace it (an invoice JSON saying
    ``"document_id": "suppliers"`` would empty the supplier master). Only ``procura ingest move`` changes it.
    """
    if state is None or not state.versions:
        return None
    if state.document_type and state.document_type != doc.document_type:
        return (f"{doc.source_uri}: document_id: {doc.document_id!r} is a {state.document_type} document of "
                f"{document_path(state.source_uri)}; a {doc.document_type} cannot publish over it")
    if state.source_uri and document_path(state.source_uri) != document_path(doc.source_uri):
        return (f"{doc.source_uri}: document_id: {doc.document_id!r} belongs to the source "
                f"{document_path(state.source_uri)}, not {document_path(doc.source_uri)}; move it explicitly "
                "with `procura ingest move` if the document really changed place")
    return None


@dataclass
class _Plan:
    """The decision for one parsed document of a batch."""

    doc: ParsedDocument
    fingerprint: str
    action: str  # skip | backfill | write | stale | refused
    version: int | None = None
    stale: Stale | None = None
    error: IngestError | None = None
    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    expected: dict[str, StoreStats] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.doc.tenant_id, self.doc.document_id)

    @property
    def ref(self) -> VersionRef:
        assert self.version is not None
        return VersionRef(self.doc.tenant_id, self.doc.document_id, self.version)


@dataclass
class _EmbedResult:
    vectors: dict[str, np.ndarray]
    encoded: int
    reused: int


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
        # (tenant, document) keys an audited rollback may move back (see :func:`rollback_document`)
        self.rollback = rollback
        self.conn = conn
        self.embedder = embedder if embedder is not None else get_default_embedder()
        self.writers = tuple(check_writer(w) for w in (discover_writers() if writers is None else writers))
        self.options = options or IngestOptions()
        self.progress = progress
        self.embedding_store = EmbeddingStore(self.embedder.config.embedding_config_id)
        self.builtin: tuple[BuiltinStore, ...] = (LandingStore(), ChunkStore(), IdentifierStore())
        self._outcomes: list[DocumentOutcome] = []
        self._writer_counts: dict[str, dict[str, int]] = {}
        self._counts = {"chunks": 0, "rows": 0, "identifiers": 0, "embeddings": 0, "encoded": 0, "reused": 0}
        self._started = 0.0
        self._total: int | None = None
        from pgvector.psycopg import register_vector

        register_vector(conn)

    # -- public ---------------------------------------------------------------------------------------------

    def run(self, items: Iterable[SourceItem], *, total: int | None = None) -> IngestReport:
        """Ingest every item; failures become dead letters, never exceptions (except a broken connection).

        ``total`` (how many items there are, when known) is passed on to the progress callback.
        """
        self._total = total
        self._started = time.monotonic()
        self._outcomes = []
        self._writer_counts = {}
        self._counts = dict.fromkeys(self._counts, 0)
        ensure_embedding_config(self.conn, self.embedder.config)
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="procura-embed")
        inflight: tuple[list[_Plan], Future[_EmbedResult]] | None = None
        try:
            for batch in self._batches(items):
                keys = {(d.tenant_id, d.document_id) for d in batch}
                if inflight is not None and keys & {p.key for p in inflight[0]}:
                    # the same document twice in a row: its first version must be published before planning
                    self._finish(*inflight)
                    inflight = None
                plans = self._plan(batch)
                future = executor.submit(self._embed, plans, self._reusable_vectors(plans))
                if inflight is not None:
                    self._finish(*inflight)
                inflight = (plans, future)
            if inflight is not None:
                self._finish(*inflight)
        finally:
            executor.shutdown(wait=True)
        return replace(self._report(), tenant_indexes=self._ensure_tenant_indexes(), vacuumed=self._vacuum_written())

    # -- batching and parsing -------------------------------------------------------------------------------

    def _batches(self, items: Iterable[SourceItem]) -> Iterator[list[ParsedDocument]]:
        batch: list[ParsedDocument] = []
        chunk_count = 0
        for item in items:
            if item.error is not None:
                self._dead_letter_item(item, "source", item.error, 1)
                continue
            try:
                doc = parse_item(item, self.options.chunker)
            except Exception as exc:  # IngestError for bad input; anything else is a parser bug, same treatment
                self._dead_letter_item(item, "parse", exc, 1)
                continue
            if batch and (
                doc.tenant_id != batch[0].tenant_id
                or len(batch) >= self.options.batch_documents
                or chunk_count + len(doc.chunks) > self.options.batch_chunks
                or any(d.document_id == doc.document_id for d in batch)
            ):
                yield batch
                batch, chunk_count = [], 0
            batch.append(doc)
            chunk_count += len(doc.chunks)
        if batch:
            yield batch

    # -- plan -----------------------------------------------------------------------------------------------

    def _fingerprint(self, doc: ParsedDocument) -> str:
        return config_fingerprint(doc.document_type, self.options.chunker, self.writers)

    def _judge(self, doc: ParsedDocument, state: DocumentState | None) -> Stale | None:
        if (doc.tenant_id, doc.document_id) in self.rollback:
            return None
        return judge_arrival(doc.content_hash, doc.source_revision, state)

    def _decide(self, doc: ParsedDocument, fingerprint: str, state: DocumentState | None) -> tuple[str, int | None]:
        if state is None:
            return "write", None
        existing = state.find(doc.content_hash, fingerprint)
        if (
            existing is not None
            and existing.document_version == state.active_version
            and existing.status == "published"
            and not state.is_deleted
        ):
            if self.embedding_store.name in existing.expected or not doc.chunks:
                return "skip", existing.document_version
            return "backfill", existing.document_version
        return "write", None

    def _plan(self, batch: list[ParsedDocument]) -> list[_Plan]:
        def read() -> dict[tuple[str, str], DocumentState]:
            return load_states(self.conn, [(d.tenant_id, d.document_id) for d in batch])

        if not batch:
            return []

        try:
            states, _ = run_stage("plan", read, self.options.retry, conn=self.conn)
        except StageFailed as failure:
            for doc in batch:
                self._dead_letter_doc(doc, failure.stage, failure.cause, failure.attempts)
            return []
        plans = []
        for doc in batch:
            fingerprint = self._fingerprint(doc)
            state = states.get((doc.tenant_id, doc.document_id))
            problem = identity_problem(doc, state)
            if problem is not None:
                plans.append(_Plan(doc, fingerprint, "refused", error=IdentityError(problem)))
                continue
            action, version = self._decide(doc, fingerprint, state)
            stale = self._judge(doc, state) if action == "write" else None
            if stale is not None:
                plans.append(_Plan(doc, fingerprint, "stale", stale.reverts_to, stale=stale))
                continue
            plans.append(_Plan(doc, fingerprint, action, version))
        self._refuse_duplicate_keys(plans)
        return plans

    def _refuse_duplicate_keys(self, plans: list[_Plan]) -> None:
        """An invoice whose business key (company, supplier, type, number) another active document of the tenant
        holds with other content is refused: a reused number is flagged, never summed twice."""
        def key(header: Any) -> tuple[str, str, str, str]:
            return (header.company_id, header.supplier_name.casefold(), header.document_type, header.invoice_number)

        writes = [p for p in plans if p.action == "write" and p.doc.records.invoice_headers]
        if not writes:
            return
        numbers = sorted({h.invoice_number for p in writes for h in p.doc.records.invoice_headers})

        def read() -> list[Any]:
            return self.conn.execute(
                "select h.company_id, h.supplier_name, h.document_type, h.invoice_number, h.document_id, "
                "h.business_hash, d.source_uri from landing.invoice_headers h join ingest.documents d "
                "on d.tenant_id = h.tenant_id and d.document_id = h.document_id "
                "and d.active_version = h.document_version and not d.is_deleted "
                "where h.tenant_id = %s and h.invoice_number = any(%s)",
                (writes[0].doc.tenant_id, numbers),
            ).fetchall()

        try:
            rows, _ = run_stage("plan", read, self.options.retry, conn=self.conn)
        except StageFailed:
            rows = []  # the landing suites and the marts' duplicate flags still see such a pair
        held: dict[tuple[str, str, str, str], list[tuple[str, str, str]]] = {}
        for company, supplier, kind, number, document_id, business, source in rows:
            held.setdefault((company, supplier.casefold(), kind, number), []).append((document_id, business, source))
        for plan in writes:
            header = plan.doc.records.invoice_headers[0]
            holders = held.setdefault(key(header), [])
            clash = next((h for h in holders if h[0] != plan.doc.document_id and h[1] != header.business_hash), None)
            if clash is not None:
                plan.action = "refused"
                plan.error = DuplicateBusinessKeyError(
                    f"{plan.doc.source_uri}: invoice_number: {header.invoice_number!r} ({header.document_type} of "
                    f"{header.supplier_name} to {header.company_id}) is already held by {clash[0]} "
                    f"({document_path(clash[2])}) with different content; not published"
                )
                continue
            holders.append((plan.doc.document_id, header.business_hash, plan.doc.source_uri))

    # -- embed (worker thread: touches the model only, never the connection) ---------------------------------

    def _embed(self, plans: list[_Plan], reusable: dict[str, np.ndarray]) -> _EmbedResult:
        """Vectors by embedder-input hash: stored ones where the same input was embedded before, else encoded
        (each distinct input once)."""
        wanted = [c for p in plans if p.action in ("write", "backfill") for c in p.doc.chunks]
        if not wanted:
            return _EmbedResult({}, 0, 0)
        unique: dict[str, str] = {}
        for chunk in wanted:
            if chunk.input_hash not in reusable:
                unique.setdefault(chunk.input_hash, chunk.embedding_text)
        hashes = list(unique)
        texts = [unique[h] for h in hashes]

        def encode() -> np.ndarray:
            return self.embedder.embed_documents(texts)

        vectors, _ = run_stage("embed", encode, self.options.retry)
        by_hash = dict(reusable)
        by_hash.update(zip(hashes, vectors, strict=True))
        return _EmbedResult(by_hash, len(texts), len({c.input_hash for c in wanted} & set(reusable)))

    def _reusable_vectors(self, plans: list[_Plan]) -> dict[str, np.ndarray]:
        """Stored vectors of this config for identical embedder inputs (e.g. unchanged clauses of an amendment)."""
        hashes = sorted({c.input_hash for p in plans if p.action in ("write", "backfill") for c in p.doc.chunks})
        if not hashes:
            return {}

        def read() -> list[Any]:
            return self.conn.execute(
                "select distinct on (input_hash) input_hash, embedding from ingest.embeddings "
                "where tenant_id = %s and embedding_config_id = %s and input_hash = any(%s)",
                (plans[0].doc.tenant_id, self.embedding_store.config_id, hashes),
            ).fetchall()

        try:
            rows, _ = run_stage("plan", read, self.options.retry, conn=self.conn)
        except StageFailed:
            return {}  # reuse is an optimisation: encode everything instead
        return {str(h): v for h, v in rows}

    # -- finish a batch: stage, verify, publish -------------------------------------------------------------

    def _finish(self, plans: list[_Plan], future: Future[_EmbedResult]) -> None:
        if not plans:
            return
        for plan in plans:
            if plan.action == "refused":
                assert plan.error is not None
                self._dead_letter_doc(plan.doc, "plan", plan.error, 1)
            elif plan.action == "stale":
                self._record_stale(plan)
        plans = [p for p in plans if p.action not in ("refused", "stale")]
        if not plans:
            self._emit()
            return
        for plan in plans:
            if plan.action == "skip":
                self._record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                                             "skipped", plan.version))
        skipped = [p for p in plans if p.action == "skip"]
        if skipped:
            self._resolve(skipped)
        work = [p for p in plans if p.action != "skip"]
        if not work:
            self._emit()
            return
        try:
            embedded = future.result()
        except StageFailed as failure:
            for plan in work:
                self._dead_letter_doc(plan.doc, failure.stage, failure.cause, failure.attempts)
            self._emit()
            return
        self._counts["encoded"] += embedded.encoded
        self._counts["reused"] += embedded.reused
        for plan in work:
            plan.vectors = {c.chunk_id: embedded.vectors[c.input_hash] for c in plan.doc.chunks}
        staged = self._each("stage", work, self._stage_tx)
        for plan in staged:
            if plan.action == "skip":
                self._record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                                             "skipped", plan.version))
            elif plan.action == "stale":
                self._record_stale(plan)
        verified = self._verify([p for p in staged if p.action not in ("skip", "stale")])
        published = self._each("publish", [p for p in verified if p.action == "write"], self._publish_tx)
        for plan in [*published, *(p for p in verified if p.action == "backfill")]:
            self._count(plan)
            self._record(DocumentOutcome(
                plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id,
                "published" if plan.action == "write" else "backfilled", plan.version,
            ))
        self._emit()

    def _each(self, stage: str, plans: list[_Plan], tx: Callable[[list[_Plan]], None]) -> list[_Plan]:
        """Run ``tx`` on the whole batch; if it fails, on each document alone. Returns the plans that succeeded."""
        if not plans:
            return []
        try:
            run_stage(stage, partial(tx, plans), self.options.retry, conn=self.conn)
            return plans
        except StageFailed as failure:
            if len(plans) == 1:
                self._dead_letter_plan(plans[0], stage, failure)
                return []
        done = []
        for plan in plans:
            try:
                run_stage(stage, partial(tx, [plan]), self.options.retry, conn=self.conn)
                done.append(plan)
            except StageFailed as failure:
                self._dead_letter_plan(plan, stage, failure)
        return done

    def _dead_letter_plan(self, plan: _Plan, stage: str, failure: StageFailed) -> None:
        # a version number allocated by a rolled-back staging transaction does not exist: do not record it
        version = plan.version if stage != "stage" or plan.action == "backfill" else None
        self._dead_letter_doc(plan.doc, stage, failure.cause, failure.attempts, version)

    def _applicable(self, doc: ParsedDocument) -> list[RepresentationWriter]:
        return [w for w in self.writers if applies(w, doc.document_type)]

    def _version_values(self, plan: _Plan) -> dict[str, Any]:
        doc = plan.doc
        config = self.embedder.config
        graph = next((w for w in self._applicable(doc) if w.name == "graph"), None)
        counts, checksums = expected_to_json(plan.expected)
        return {
            "content_hash": doc.content_hash,
            "original_content": doc.original,
            "parser_version": doc.parser_version,
            "chunker_version": (f"{doc.chunker_version}/{self.options.chunker.describe()}"
                                if doc.chunker_version else None),
            "extraction_version": doc.extraction_version,
            "embedding_model": config.model if doc.chunks else None,
            "embedding_revision": config.revision if doc.chunks else None,
            "embedding_dimension": config.dimension if doc.chunks else None,
            "embedding_normalized": (config.normalization == "l2") if doc.chunks else None,
            "graph_schema_version": graph.version if graph is not None else None,
            "relational_schema_version": RELATIONAL_SCHEMA_VERSION,
            "expected_counts": counts,
            "checksums": checksums,
            "config_fingerprint": plan.fingerprint,
            "source_revision": doc.source_revision,
        }

    def _stage_tx(self, plans: list[_Plan]) -> None:
        """Write every derived row of the batch under versions nobody serves yet (one transaction)."""
        conn = self.conn
        with conn.transaction():
            set_tenant(conn, plans[0].doc.tenant_id)
            writes = [p for p in plans if p.action == "write"]
            if writes:
                with conn.cursor() as cur:
                    cur.executemany(
                        "insert into ingest.documents (tenant_id, document_id, document_type, source_uri) "
                        "values (%s, %s, %s, %s) on conflict (tenant_id, document_id) do nothing",
                        [(p.doc.tenant_id, p.doc.document_id, p.doc.document_type, p.doc.source_uri) for p in writes],
                    )
            states = load_states(conn, [p.key for p in plans], lock=True)
            purge: list[VersionRef] = []
            inserts: list[_Plan] = []
            for plan in plans:
                state = states[plan.key]
                if plan.action == "backfill":
                    if state.active_version != plan.version:
                        raise PublishError(f"{plan.doc.document_id}: active version changed during backfill")
                    self.embedding_store.purge_many(conn, [plan.ref])
                    continue
                existing = state.find(plan.doc.content_hash, plan.fingerprint)
                if (
                    existing is not None
                    and existing.document_version == state.active_version
                    and existing.status == "published"
                    and not state.is_deleted
                    and self.embedding_store.name in existing.expected
                ):
                    # another run published exactly this meanwhile: nothing to do
                    plan.action, plan.version = "skip", existing.document_version
                    continue
                stale = self._judge(plan.doc, state)
                if stale is not None:  # another run published a newer version meanwhile
                    plan.action, plan.version, plan.stale = "stale", stale.reverts_to, stale
                    continue
                if existing is not None:
                    # the same content and config was staged before (a crash, a failed publish, a delete):
                    # replace whatever it left with a complete set of rows under the same version number
                    plan.version = existing.document_version
                    purge.append(plan.ref)
                else:
                    plan.version = state.next_version + sum(1 for p in inserts if p.key == plan.key)
                    inserts.append(plan)
            if purge:
                self._purge(purge, plans)
            plans = [p for p in plans if p.action not in ("skip", "stale")]
            staged = [Staged(p.doc, p.ref.document_version, p.vectors) for p in plans if p.version is not None]
            writes = [p for p in plans if p.action == "write"]
            for plan in writes:
                item = Staged(plan.doc, plan.ref.document_version, plan.vectors)
                plan.expected = {s.name: s.expected(item) for s in self.builtin}
                plan.expected[self.embedding_store.name] = self.embedding_store.expected(item)
            version_rows = [
                {"tenant_id": p.doc.tenant_id, "document_id": p.doc.document_id, "document_version": p.version,
                 **self._version_values(p)}
                for p in writes
            ]
            if version_rows:
                columns = list(version_rows[0])
                # the original travels in binary (%b): as text it would be escaped to twice its size
                values = ", ".join(f"%({c})b" if c == "original_content" else f"%({c})s" for c in columns)
                with conn.cursor() as cur:
                    cur.executemany(
                        f"insert into ingest.document_versions ({', '.join(columns)}) "
                        f"values ({values}) "
                        "on conflict (tenant_id, document_id, document_version) do update set "
                        + ", ".join(f"{c} = excluded.{c}" for c in columns[3:])
                        + ", status = 'staged', created_at = now(), published_at = null",
                        version_rows,
                    )
            write_staged = [s for s in staged if s.ref in {p.ref for p in writes}]
            for store in self.builtin:
                store.write_many(conn, write_staged)
            self.embedding_store.write_many(conn, staged)
            for plan in writes:
                for writer in self._applicable(plan.doc):
                    plan.expected[writer.name] = writer.write(conn, plan.doc, plan.ref.document_version)
            for plan in plans:
                if plan.action == "backfill":
                    backfill = Staged(plan.doc, plan.ref.document_version, plan.vectors)
                    plan.expected = {self.embedding_store.name: self.embedding_store.expected(backfill)}
            # version rows already hold the built-in stores' stats; add the writers' and the backfilled config's
            self._store_expected([p for p in plans if p.action == "backfill" or self._applicable(p.doc)])

    def _store_expected(self, plans: list[_Plan]) -> None:
        """Merge each plan's expected stats into its version row (backfill adds one store's entry)."""
        if not plans:
            return
        rows = []
        for plan in plans:
            counts, checksums = expected_to_json(plan.expected)
            rows.append((counts, checksums, plan.doc.tenant_id, plan.doc.document_id, plan.version))
        with self.conn.cursor() as cur:
            cur.executemany(
                "update ingest.document_versions set expected_counts = expected_counts || %s::jsonb, "
                "checksums = checksums || %s::jsonb "
                "where tenant_id = %s and document_id = %s and document_version = %s",
                rows,
            )

    def _purge(self, refs: list[VersionRef], plans: Sequence[_Plan] = ()) -> None:
        """Delete the rows of ``refs`` from every store (embeddings of every config included)."""
        conn = self.conn
        purge_embeddings(conn, refs)
        for store in reversed(self.builtin):
            store.purge_many(conn, refs)
        types = {(p.doc.tenant_id, p.doc.document_id): p.doc.document_type for p in plans}
        for ref in refs:
            document_type = types.get((ref.tenant_id, ref.document_id))
            for writer in self.writers:
                if document_type is None or applies(writer, document_type):
                    writer.purge(conn, ref)

    def _verify(self, plans: list[_Plan]) -> list[_Plan]:
        """Read back what was staged and compare with what was expected; mismatches are dead-lettered."""
        if not plans:
            return []

        def read() -> dict[VersionRef, dict[str, StoreStats]]:
            actual: dict[VersionRef, dict[str, StoreStats]] = {p.ref: {} for p in plans}
            with self.conn.transaction():
                set_tenant(self.conn, plans[0].doc.tenant_id)
                writes = [p.ref for p in plans if p.action == "write"]
                if writes:
                    for store in self.builtin:
                        for ref, stats in store.verify_many(self.conn, writes).items():
                            actual[ref][store.name] = stats
                for ref, stats in self.embedding_store.verify_many(self.conn, [p.ref for p in plans]).items():
                    actual[ref][self.embedding_store.name] = stats
                for plan in plans:
                    if plan.action == "write":
                        for writer in self._applicable(plan.doc):
                            actual[plan.ref][writer.name] = writer.verify(self.conn, plan.ref)
            return actual

        try:
            actual, _ = run_stage("verify", read, self.options.retry, conn=self.conn)
        except StageFailed as failure:
            for plan in plans:
                self._dead_letter_doc(plan.doc, "verify", failure.cause, failure.attempts, plan.version)
            return []
        good = []
        for plan in plans:
            problems = describe_drift(plan.expected, actual[plan.ref])
            if problems:
                error = VerificationError(f"{plan.doc.document_id} v{plan.version}: " + "; ".join(problems))
                self._dead_letter_doc(plan.doc, "verify", error, 1, plan.version)
            else:
                good.append(plan)
        return good

    def _publish_tx(self, plans: list[_Plan]) -> None:
        """Make the staged versions active, supersede and purge the old ones: one transaction."""
        conn = self.conn
        with conn.transaction():
            set_tenant(conn, plans[0].doc.tenant_id)
            states = load_states(conn, [p.key for p in plans], lock=True)
            old: list[VersionRef] = []
            previous: dict[tuple[str, str], int | None] = {}
            for plan in plans:
                state = states[plan.key]
                row = next((v for v in state.versions if v.document_version == plan.version), None)
                if row is None or row.status != "staged":
                    raise PublishError(
                        f"{plan.doc.document_id} v{plan.version} is {row.status if row else 'missing'}, not staged"
                    )
                previous[plan.key] = state.active_version if state.active_version != plan.version else None
                old.extend(
                    VersionRef(plan.doc.tenant_id, plan.doc.document_id, v.document_version)
                    for v in state.versions
                    if v.document_version != plan.version and v.status in ("published", "staged", "deleted")
                )
            with conn.cursor() as cur:
                if old:
                    cur.executemany(
                        "update ingest.document_versions set status = 'superseded' "
                        "where tenant_id = %s and document_id = %s and document_version = %s",
                        [(r.tenant_id, r.document_id, r.document_version) for r in old],
                    )
                cur.executemany(
                    "update ingest.document_versions set status = 'published', published_at = now() "
                    "where tenant_id = %s and document_id = %s and document_version = %s",
                    [(p.doc.tenant_id, p.doc.document_id, p.version) for p in plans],
                )
                cur.executemany(
                    "update ingest.documents set active_version = %s, is_deleted = false, document_type = %s, "
                    "source_uri = %s, updated_at = now() where tenant_id = %s and document_id = %s",
                    [(p.version, p.doc.document_type, p.doc.source_uri, p.doc.tenant_id, p.doc.document_id)
                     for p in plans],
                )
            if old:
                self._purge(old, plans)
            for plan in plans:
                for writer in self._applicable(plan.doc):
                    writer.on_publish(conn, plan.ref, previous[plan.key])
            resolve_dead_letters(conn, [(p.doc.tenant_id, p.doc.source_uri, p.doc.document_id) for p in plans])

    # -- bookkeeping ----------------------------------------------------------------------------------------

    def _resolve(self, plans: list[_Plan]) -> None:
        def tx() -> None:
            with self.conn.transaction():
                set_tenant(self.conn, plans[0].doc.tenant_id)
                resolve_dead_letters(self.conn, [(p.doc.tenant_id, p.doc.source_uri, p.doc.document_id)
                                                 for p in plans])

        run_stage("resolve", tx, self.options.retry, conn=self.conn)

    def _count(self, plan: _Plan) -> None:
        expected = plan.expected
        if plan.action == "write":
            self._counts["chunks"] += expected["chunks"].total()
            self._counts["rows"] += expected["landing"].total()
            self._counts["identifiers"] += expected["identifiers"].total()
        self._counts["embeddings"] += expected[self.embedding_store.name].total()
        if plan.action == "write":
            for writer in self._applicable(plan.doc):
                totals = self._writer_counts.setdefault(writer.name, {})
                for kind, count in expected[writer.name].counts.items():
                    totals[kind] = totals.get(kind, 0) + count

    def _record(self, outcome: DocumentOutcome) -> None:
        self._outcomes.append(outcome)

    def _record_stale(self, plan: _Plan) -> None:
        assert plan.stale is not None
        self._record(DocumentOutcome(plan.doc.tenant_id, plan.doc.source_uri, plan.doc.document_id, "stale",
                                     plan.stale.reverts_to, "plan", f"stale: {plan.stale.reason}; not published"))

    def _dead_letter_item(self, item: SourceItem, stage: str, error: BaseException, attempts: int) -> None:
        # an unread source (outside the corpus, too large, mismatched) keeps no payload: its bytes were not taken
        letter = record_dead_letter(self.conn, tenant_id=item.tenant_id, source_uri=item.source_uri, stage=stage,
                                    error=error, attempts=attempts, payload=item.raw if item.error is None else None)
        self._record(DocumentOutcome(item.tenant_id, item.source_uri, None, "dead_lettered", None, stage,
                                     f"{type(error).__name__}: {error}", letter))

    def _dead_letter_doc(self, doc: ParsedDocument, stage: str, error: BaseException, attempts: int,
                         version: int | None = None) -> None:
        letter = record_dead_letter(self.conn, tenant_id=doc.tenant_id, source_uri=doc.source_uri, stage=stage,
                                    error=error, attempts=attempts, payload=doc.original,
                                    document_id=doc.document_id, document_version=version)
        self._record(DocumentOutcome(doc.tenant_id, doc.source_uri, doc.document_id, "dead_lettered", version,
                                     stage, f"{type(error).__name__}: {error}", letter))

    def _ensure_tenant_indexes(self) -> tuple[TenantIndex, ...]:
        """Build the index of every tenant of this run that holds at least the threshold's vectors and has none
        (also when nothing changed: re-running ingestion is how a database from before per-tenant indexes gets
        them)."""
        minimum = self.options.tenant_index_min_vectors
        if minimum is None:
            return ()
        tenants = sorted({o.tenant_id for o in self._outcomes if TENANT_ID_PATTERN.match(o.tenant_id)})
        built = [ensure_tenant_index(self.conn, tenant, min_vectors=minimum) for tenant in tenants]
        return tuple(index for index in built if index is not None and (index.created or index.error))

    def _vacuum_written(self) -> tuple[str, ...]:
        """VACUUM (ANALYZE) the tables writers asked for, when this run wrote rows to them. VACUUM cannot run in a
        transaction block: on a connection that is not in autocommit mode this is left to autovacuum."""
        if not idle_autocommit(self.conn):
            return ()
        done: list[str] = []
        for writer in self.writers:
            written = self._writer_counts.get(writer.name, {})
            for table in tables_to_vacuum(writer):
                if written.get(table) and table not in done:
                    self.conn.execute(sql.SQL("vacuum (analyze) {}").format(sql.Identifier(*table.split("."))))
                    done.append(table)
        return tuple(done)

    def _report(self) -> IngestReport:
        actions = [o.action for o in self._outcomes]
        return IngestReport(
            documents=len(self._outcomes),
            published=actions.count("published"),
            skipped=actions.count("skipped"),
            backfilled=actions.count("backfilled"),
            dead_lettered=actions.count("dead_lettered"),
            chunks=self._counts["chunks"],
            rows=self._counts["rows"],
            identifiers=self._counts["identifiers"],
            embeddings=self._counts["embeddings"],
            encoded_texts=self._counts["encoded"],
            reused_vectors=self._counts["reused"],
            elapsed_s=time.monotonic() - self._started,
            embedding_config_id=self.embedding_store.config_id,
            outcomes=tuple(self._outcomes),
            stale=actions.count("stale"),
            writer_counts={name: dict(counts) for name, counts in self._writer_counts.items()},
        )

    def _emit(self) -> None:
        if self.progress is not None:
            report = self._report()
            self.progress(replace(report.progress(), total=self._total))


def _nonzero(counts: Mapping[str, int]) -> dict[str, int]:
    return {table: count for table, count in counts.items() if count}


def describe_drift(expected: dict[str, StoreStats], actual: dict[str, StoreStats]) -> list[str]:
    """Human-readable differences between expected and stored stats, per store (empty when equal)."""
    problems = []
    for store in sorted(set(expected) | set(actual)):
        want, have = expected.get(store), actual.get(store)
        if want is None:
            continue
        if have is None:
            problems.append(f"{store}: not verified")
        elif _nonzero(want.counts) != _nonzero(have.counts):
            problems.append(f"{store}: expected {_nonzero(want.counts)}, found {_nonzero(have.counts)}")
        elif want.checksum != have.checksum:
            problems.append(f"{store}: checksum differs (rows changed)")
    return problems


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


def delete_document(
    conn: psycopg.Connection,
    tenant_id: str,
    document_id: str,
    *,
    writers: Sequence[RepresentationWriter] | None = None,
) -> VersionRef | None:
    """Tombstone a document so no store serves it; returns the version that was active (None if none was).

    Chunks, identifiers and landing rows stay (hidden by the serving rule) for audit; embeddings are purged so
    the vector index holds only servable rows. Writers get ``on_delete``. Deleting twice is a no-op.

    Raises:
        DocumentNotFoundError: the tenant has no such document.
    """
    if not conn.autocommit:
        raise IngestError("the ingestion connection must be in autocommit mode")
    active_writers = tuple(check_writer(w) for w in (discover_writers() if writers is None else writers))
    with conn.transaction():
        set_tenant(conn, tenant_id)
        row = conn.execute(
            "select active_version, is_deleted, document_type from ingest.documents "
            "where tenant_id = %s and document_id = %s for update",
            (tenant_id, document_id),
        ).fetchone()
        if row is None:
            raise DocumentNotFoundError(f"tenant {tenant_id} has no document {document_id!r}")
        active, deleted, document_type = row
        if deleted:
            return None
        conn.execute(
            "update ingest.documents set is_deleted = true, updated_at = now() "
            "where tenant_id = %s and document_id = %s",
            (tenant_id, document_id),
        )
        if active is None:
            return None
        ref = VersionRef(tenant_id, document_id, int(active))
        conn.execute(
            "update ingest.document_versions set status = 'deleted' "
            "where tenant_id = %s and document_id = %s and document_version = %s",
            (tenant_id, document_id, active),
        )
        conn.execute(
            "delete from ingest.embeddings where tenant_id = %s and document_id = %s and document_version = %s",
            (tenant_id, document_id, active),
        )
        for writer in active_writers:
            if applies(writer, document_type):
                writer.on_delete(conn, ref)
        return ref


def _event(conn: psycopg.Connection, tenant_id: str, document_id: str, action: str, *, actor: str, reason: str,
           from_version: int | None = None, to_version: int | None = None, from_source: str | None = None,
           to_source: str | None = None) -> None:
    if not reason.strip():
        raise IngestError(f"{action} of {document_id}: a reason is required (it is recorded in the audit trail)")
    conn.execute(
        "insert into ingest.registry_events (tenant_id, document_id, action, from_version, to_version, "
        "from_source, to_source, actor, reason) values (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (tenant_id, document_id, action, from_version, to_version, from_source, to_source, actor, reason.strip()),
    )


def rollback_document(
    conn: psycopg.Connection,
    tenant_id: str,
    document_id: str,
    to_version: int,
    *,
    reason: str,
    actor: str,
    embedder: Embedder | None = None,
    writers: Sequence[RepresentationWriter] | None = None,
    options: IngestOptions | None = None,
) -> IngestReport:
    """Publish an older version of a document again (the only way back: ingestion refuses old content).

    The stored original of ``to_version`` goes through the normal stage/verify/publish protocol; the event (who,
    why, from which version to which) is recorded in ``ingest.registry_events`` in the same run.

    Raises:
        DocumentNotFoundError: the tenant has no such document or version.
        IngestError: ``to_version`` is already active, or publishing it failed (see the report's dead letter).
    """
    if not conn.autocommit:
        raise IngestError("the ingestion connection must be in autocommit mode")
    key = (tenant_id, document_id)
    with conn.transaction():
        set_tenant(conn, tenant_id)
        state = load_states(conn, [key]).get(key)
        row = conn.execute(
            "select original_content from ingest.document_versions where tenant_id = %s and document_id = %s "
            "and document_version = %s", (tenant_id, document_id, to_version),
        ).fetchone()
    if state is None or row is None:
        raise DocumentNotFoundError(f"tenant {tenant_id} has no version {to_version} of {document_id!r}")
    if state.active_version == to_version and not state.is_deleted:
        raise IngestError(f"{document_id} v{to_version} is already the active version")
    item = SourceItem(tenant_id, state.source_uri, kind_of_uri(state.source_uri), bytes(row[0]))
    pipeline = Pipeline(conn, embedder=embedder, writers=writers, options=options, rollback=frozenset({key}))
    report = pipeline.run([item])
    outcome = report.outcomes[0] if report.outcomes else None
    if outcome is None or outcome.action != "published":
        raise IngestError(f"rollback of {document_id} to v{to_version} failed: "
                          f"{outcome.error if outcome is not None else 'nothing was ingested'}")
    with conn.transaction():
        set_tenant(conn, tenant_id)
        _event(conn, tenant_id, document_id, "rollback", actor=actor, reason=reason,
               from_version=state.active_version, to_version=outcome.document_version)
    return report


def move_document(conn: psycopg.Connection, tenant_id: str, document_id: str, source: Path, *, reason: str,
                  actor: str) -> str:
    """Give a document another source path (audited); returns the previous source. Ingestion refuses a file of
    another path publishing under a document's id until it is moved.

    Raises:
        DocumentNotFoundError: the tenant has no such document.
    """
    target = str(Path(source).resolve())
    with conn.transaction():
        set_tenant(conn, tenant_id)
        row = conn.execute(
            "select source_uri from ingest.documents where tenant_id = %s and document_id = %s for update",
            (tenant_id, document_id),
        ).fetchone()
        if row is None:
            raise DocumentNotFoundError(f"tenant {tenant_id} has no document {document_id!r}")
        conn.execute("update ingest.documents set source_uri = %s, updated_at = now() "
                     "where tenant_id = %s and document_id = %s", (target, tenant_id, document_id))
        _event(conn, tenant_id, document_id, "move", actor=actor, reason=reason, from_source=str(row[0]),
               to_source=target)
    return str(row[0])
