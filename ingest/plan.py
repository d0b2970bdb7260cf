"""Planning a batch: what each parsed document needs (skip, backfill vectors, write a new version, or refuse).

A document is skipped when the same content under the same configuration is its active, published version with
vectors of the current embedder; refused when it claims another document's identity or an invoice business key
held with other content; stale when it would move its document back to older content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg

from ingest.chunker import ChunkerConfig
from ingest.errors import DuplicateBusinessKeyError, IdentityError, IngestError
from ingest.hashing import canonical_json, sha256_tag
from ingest.models import ParsedDocument
from ingest.registry import DocumentState, load_states
from ingest.retry import RetryPolicy, StageFailed, run_stage
from ingest.sources import document_path
from ingest.versions import CHUNKER_VERSION, EXTRACTION_VERSION, PARSER_VERSION, RELATIONAL_SCHEMA_VERSION
from ingest.writers import RepresentationWriter, StoreStats, VersionRef, applies

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np

    from ingest.dead_letters import DeadLetters


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
class Plan:
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


class Planner:
    """Plans the batches of one run.

    Args:
        conn: the run's ``procura_owner`` connection (autocommit).
        chunker: the run's chunker config (part of every fingerprint).
        retry: the retry policy of registry reads.
        writers: the run's representation writers (part of every fingerprint).
        embedding_store: the store name of the embedder's config (a version without it is backfilled).
        rollback: (tenant, document) keys an audited rollback may move back.
        dead_letters: where a batch whose registry cannot be read goes.
    """

    def __init__(self, conn: psycopg.Connection, *, chunker: ChunkerConfig, retry: RetryPolicy,
                 writers: Sequence[RepresentationWriter], embedding_store: str,
                 rollback: frozenset[tuple[str, str]], dead_letters: DeadLetters) -> None:
        self.conn = conn
        self.chunker = chunker
        self.retry = retry
        self.writers = writers
        self.embedding_store = embedding_store
        self.rollback = rollback
        self.dead_letters = dead_letters

    def _fingerprint(self, doc: ParsedDocument) -> str:
        return config_fingerprint(doc.document_type, self.chunker, self.writers)

    def judge(self, doc: ParsedDocument, state: DocumentState | None) -> Stale | None:
        """Whether ``doc`` is older than its document's active version (an audited rollback never is)."""
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
            if self.embedding_store in existing.expected or not doc.chunks:
                return "skip", existing.document_version
            return "backfill", existing.document_version
        return "write", None

    def plan(self, batch: list[ParsedDocument]) -> list[Plan]:
        """One plan per document of a single-tenant batch (none if the registry cannot be read: dead letters)."""
        def read() -> dict[tuple[str, str], DocumentState]:
            return load_states(self.conn, [(d.tenant_id, d.document_id) for d in batch])

        if not batch:
            return []

        try:
            states, _ = run_stage("plan", read, self.retry, conn=self.conn)
        except StageFailed as failure:
            for doc in batch:
                self.dead_letters.doc(doc, failure.stage, failure.cause, failure.attempts)
            return []
        plans = []
        for doc in batch:
            fingerprint = self._fingerprint(doc)
            state = states.get((doc.tenant_id, doc.document_id))
            problem = identity_problem(doc, state)
            if problem is not None:
                plans.append(Plan(doc, fingerprint, "refused", error=IdentityError(problem)))
                continue
            action, version = self._decide(doc, fingerprint, state)
            stale = self.judge(doc, state) if action == "write" else None
            if stale is not None:
                plans.append(Plan(doc, fingerprint, "stale", stale.reverts_to, stale=stale))
                continue
            plans.append(Plan(doc, fingerprint, action, version))
        self._refuse_duplicate_keys(plans)
        return plans

    def _refuse_duplicate_keys(self, plans: list[Plan]) -> None:
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
            rows, _ = run_stage("plan", read, self.retry, conn=self.conn)
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
