"""Stage, verify, publish: a batch's rows are written under versions nobody serves, read back and compared
with what was expected per store, and only then made active in one transaction that supersedes and purges the
old versions. A batch transaction that fails is retried, then run per document, so one bad document is
dead-lettered without holding back the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import psycopg

from ingest.chunker import ChunkerConfig
from ingest.dead_letters import DeadLetters
from ingest.embedder import Embedder
from ingest.errors import PublishError, VerificationError
from ingest.models import ParsedDocument
from ingest.plan import Plan, Stale
from ingest.registry import DocumentState, expected_to_json, load_states, resolve_dead_letters, set_tenant
from ingest.retry import RetryPolicy, StageFailed, run_stage
from ingest.stores import BuiltinStore, EmbeddingStore, Staged, purge_embeddings
from ingest.versions import RELATIONAL_SCHEMA_VERSION
from ingest.writers import RepresentationWriter, StoreStats, VersionRef, applies


class Publisher:
    """The write side of one run.

    Args:
        conn: the run's ``procura_owner`` connection (autocommit; each method owns its transaction).
        embedder: the run's embedder (its config is recorded on every version).
        writers: representation writers besides the built-in stores.
        builtin: the built-in stores (landing, chunks, identifiers).
        embedding_store: the embeddings of the embedder's config.
        chunker: the run's chunker config (recorded on every version).
        retry: the retry policy of every transaction.
        judge: whether a document became stale meanwhile (:meth:`ingest.plan.Planner.judge`).
        dead_letters: where failed documents go.
    """

    def __init__(self, conn: psycopg.Connection, *, embedder: Embedder, writers: Sequence[RepresentationWriter],
                 builtin: Sequence[BuiltinStore], embedding_store: EmbeddingStore, chunker: ChunkerConfig,
                 retry: RetryPolicy, judge: Callable[[ParsedDocument, DocumentState | None], Stale | None],
                 dead_letters: DeadLetters) -> None:
        self.conn = conn
        self.embedder = embedder
        self.writers = tuple(writers)
        self.builtin = tuple(builtin)
        self.embedding_store = embedding_store
        self.chunker = chunker
        self.retry = retry
        self.judge = judge
        self.dead_letters = dead_letters

    def each(self, stage: str, plans: list[Plan], tx: Callable[[list[Plan]], None]) -> list[Plan]:
        """Run ``tx`` on the whole batch; if it fails, on each document alone. Returns the plans that succeeded."""
        if not plans:
            return []
        try:
            run_stage(stage, partial(tx, plans), self.retry, conn=self.conn)
            return plans
        except StageFailed as failure:
            if len(plans) == 1:
                self.dead_letters.plan(plans[0], stage, failure)
                return []
        done = []
        for plan in plans:
            try:
                run_stage(stage, partial(tx, [plan]), self.retry, conn=self.conn)
                done.append(plan)
            except StageFailed as failure:
                self.dead_letters.plan(plan, stage, failure)
        return done

    def applicable(self, doc: ParsedDocument) -> list[RepresentationWriter]:
        return [w for w in self.writers if applies(w, doc.document_type)]

    def _version_values(self, plan: Plan) -> dict[str, Any]:
        doc = plan.doc
        config = self.embedder.config
        graph = next((w for w in self.applicable(doc) if w.name == "graph"), None)
        counts, checksums = expected_to_json(plan.expected)
        return {
            "content_hash": doc.content_hash,
            "original_content": doc.original,
            "parser_version": doc.parser_version,
            "chunker_version": (f"{doc.chunker_version}/{self.chunker.describe()}"
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

    def stage_tx(self, plans: list[Plan]) -> None:
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
            inserts: list[Plan] = []
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
                stale = self.judge(plan.doc, state)
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
                self.purge(purge, plans)
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
                for writer in self.applicable(plan.doc):
                    plan.expected[writer.name] = writer.write(conn, plan.doc, plan.ref.document_version)
            for plan in plans:
                if plan.action == "backfill":
                    backfill = Staged(plan.doc, plan.ref.document_version, plan.vectors)
                    plan.expected = {self.embedding_store.name: self.embedding_store.expected(backfill)}
            # version rows already hold the built-in stores' stats; add the writers' and the backfilled config's
            self.store_expected([p for p in plans if p.action == "backfill" or self.applicable(p.doc)])

    def store_expected(self, plans: list[Plan]) -> None:
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

    def purge(self, refs: list[VersionRef], plans: Sequence[Plan] = ()) -> None:
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

    def verify(self, plans: list[Plan]) -> list[Plan]:
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
                        for writer in self.applicable(plan.doc):
                            actual[plan.ref][writer.name] = writer.verify(self.conn, plan.ref)
            return actual

        try:
            actual, _ = run_stage("verify", read, self.retry, conn=self.conn)
        except StageFailed as failure:
            for plan in plans:
                self.dead_letters.doc(plan.doc, "verify", failure.cause, failure.attempts, plan.version)
            return []
        good = []
        for plan in plans:
            problems = describe_drift(plan.expected, actual[plan.ref])
            if problems:
                error = VerificationError(f"{plan.doc.document_id} v{plan.version}: " + "; ".join(problems))
                self.dead_letters.doc(plan.doc, "verify", error, 1, plan.version)
            else:
                good.append(plan)
        return good

    def publish_tx(self, plans: list[Plan]) -> None:
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
                self.purge(old, plans)
            for plan in plans:
                for writer in self.applicable(plan.doc):
                    writer.on_publish(conn, plan.ref, previous[plan.key])
            resolve_dead_letters(conn, [(p.doc.tenant_id, p.doc.source_uri, p.doc.document_id) for p in plans])


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
