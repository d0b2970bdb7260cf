"""A document's lifecycle besides ingestion: delete (tombstone), audited rollback to an earlier version, and
an explicit move to another source path; each leaves an event row."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg

from ingest.embedder import Embedder
from ingest.errors import DocumentNotFoundError, IngestError
from ingest.registry import load_states, set_tenant
from ingest.sources import SourceItem, kind_of_uri
from ingest.writers import RepresentationWriter, VersionRef, applies, check_writer, discover_writers

if TYPE_CHECKING:
    from ingest.pipeline import IngestOptions, IngestReport
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
    from ingest.pipeline import Pipeline  # the pipeline re-exports this module's functions

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
