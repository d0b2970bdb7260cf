"""SQL on the document registry (ingest.documents / ingest.document_versions) and the dead-letter queue."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ingest.embedder import EmbeddingConfig
from ingest.errors import IngestError
from ingest.writers import StoreStats, VersionRef


@dataclass(frozen=True)
class VersionRow:
    """One row of ingest.document_versions (the parts the pipeline decides on)."""

    document_version: int
    content_hash: str
    config_fingerprint: str
    status: str
    expected: Mapping[str, StoreStats]
    source_revision: str | None = None


@dataclass(frozen=True)
class DocumentState:
    """A document's registry entry with all its versions."""

    tenant_id: str
    document_id: str
    active_version: int | None
    is_deleted: bool
    versions: tuple[VersionRow, ...]
    document_type: str = ""
    source_uri: str = ""

    def find(self, content_hash: str, fingerprint: str) -> VersionRow | None:
        """The version with this content and configuration, if any."""
        for row in self.versions:
            if row.content_hash == content_hash and row.config_fingerprint == fingerprint:
                return row
        return None

    def active(self) -> VersionRow | None:
        """The active version's row (None when none is active)."""
        return next((v for v in self.versions if v.document_version == self.active_version), None)

    @property
    def next_version(self) -> int:
        return max((v.document_version for v in self.versions), default=0) + 1


def set_tenant(conn: psycopg.Connection, tenant_id: str) -> None:
    """Scope the current transaction to ``tenant_id`` (RLS policies and audit read it)."""
    conn.execute("select set_config('app.tenant_id', %s, true)", (tenant_id,))


def expected_from_json(counts: Mapping[str, Any], checksums: Mapping[str, Any]) -> dict[str, StoreStats]:
    """The per-store stats stored on a version row."""
    return {
        store: StoreStats({str(k): int(v) for k, v in (counts.get(store) or {}).items()}, str(checksums.get(store, "")))
        for store in set(counts) | set(checksums)
    }


def expected_to_json(expected: Mapping[str, StoreStats]) -> tuple[str, str]:
    """(expected_counts, checksums) as JSON text for the version row."""
    counts = {store: dict(sorted(stats.counts.items())) for store, stats in sorted(expected.items())}
    checksums = {store: stats.checksum for store, stats in sorted(expected.items())}
    return json.dumps(counts), json.dumps(checksums)


def load_states(conn: psycopg.Connection, keys: Iterable[tuple[str, str]], *, lock: bool = False) -> dict[
    tuple[str, str], DocumentState
]:
    """Registry state of the given (tenant, document) keys; ``lock`` takes their row locks in key order."""
    ordered = sorted(set(keys))
    if not ordered:
        return {}
    tenants = [k[0] for k in ordered]
    documents = [k[1] for k in ordered]
    lock_clause = " for update" if lock else ""
    heads = conn.execute(
        "select tenant_id, document_id, active_version, is_deleted, document_type, source_uri from ingest.documents "
        "where (tenant_id, document_id) in (select * from unnest(%s::text[], %s::text[])) "
        f"order by tenant_id, document_id{lock_clause}",
        (tenants, documents),
    ).fetchall()
    versions: dict[tuple[str, str], list[VersionRow]] = {}
    for row in conn.execute(
        "select tenant_id, document_id, document_version, content_hash, config_fingerprint, status, "
        "expected_counts, checksums, source_revision from ingest.document_versions "
        "where (tenant_id, document_id) in (select * from unnest(%s::text[], %s::text[])) "
        "order by document_version",
        (tenants, documents),
    ).fetchall():
        versions.setdefault((row[0], row[1]), []).append(
            VersionRow(row[2], row[3], row[4], row[5], expected_from_json(row[6], row[7]), row[8])
        )
    return {
        (t, d): DocumentState(t, d, active, deleted, tuple(versions.get((t, d), ())), document_type, source_uri)
        for t, d, active, deleted, document_type, source_uri in heads
    }


def ensure_embedding_config(conn: psycopg.Connection, config: EmbeddingConfig) -> bool:
    """Register ``config`` (idempotent); it becomes active only if no config is active yet. Returns is_active.

    Raises:
        IngestError: a config with the same id but different properties exists (ids must identify configs).
    """
    with conn.transaction():
        conn.execute(
            "insert into ingest.embedding_configs (embedding_config_id, model, revision, dimension, normalization, "
            "similarity, document_prompt, query_prompt) values (%s, %s, %s, %s, %s, %s, %s, %s) "
            "on conflict (embedding_config_id) do nothing",
            (config.embedding_config_id, config.model, config.revision, config.dimension, config.normalization,
             config.similarity, config.document_prompt, config.query_prompt),
        )
        row = conn.execute(
            "select model, revision, dimension, normalization, similarity, document_prompt, query_prompt, "
            "is_active from ingest.embedding_configs where embedding_config_id = %s",
            (config.embedding_config_id,),
        ).fetchone()
        assert row is not None
        stored = tuple(row[:7])
        declared = (config.model, config.revision, config.dimension, config.normalization, config.similarity,
                    config.document_prompt, config.query_prompt)
        if stored != declared:
            raise IngestError(
                f"embedding config {config.embedding_config_id} is registered with different properties "
                f"{stored}; give a changed configuration a new id"
            )
        if not row[7]:
            active = conn.execute("select 1 from ingest.embedding_configs where is_active").fetchone()
            if active is None:
                conn.execute("select ingest.activate_embedding_config(%s)", (config.embedding_config_id,))
                return True
        return bool(row[7])


def activate_embedding_config(conn: psycopg.Connection, config_id: str) -> None:
    """Make ``config_id`` the one active embedding config, atomically."""
    with conn.transaction():
        try:
            conn.execute("select ingest.activate_embedding_config(%s)", (config_id,))
        except psycopg.errors.NoDataFound as exc:
            raise IngestError(f"unknown embedding config {config_id!r}") from exc


def active_embedding_config_id(conn: psycopg.Connection) -> str | None:
    """The id of the active embedding config, if one is registered."""
    row = conn.execute("select embedding_config_id from ingest.embedding_configs where is_active").fetchone()
    return None if row is None else str(row[0])


# -- dead letters -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DeadLetter:
    """One unresolved dead letter."""

    dead_letter_id: int
    tenant_id: str
    source_uri: str
    document_id: str | None
    document_version: int | None
    stage: str
    error_class: str
    error_message: str
    attempts: int
    payload: bytes | None
    last_failed_at: datetime


def record_dead_letter(
    conn: psycopg.Connection,
    *,
    tenant_id: str,
    source_uri: str,
    stage: str,
    error: BaseException,
    attempts: int,
    payload: bytes | None,
    document_id: str | None = None,
    document_version: int | None = None,
) -> int:
    """Record a failure; an unresolved letter of the same source is updated (attempts add up), not duplicated."""
    message = str(error) or type(error).__name__
    with conn.transaction():
        set_tenant(conn, tenant_id)
        row = conn.execute(
            "update ingest.dead_letters set stage = %s, error_class = %s, error_message = %s, "
            "attempts = attempts + %s, payload = coalesce(%s, payload), document_id = coalesce(%s, document_id), "
            "document_version = coalesce(%s, document_version), last_failed_at = now() "
            "where dead_letter_id = (select min(dead_letter_id) from ingest.dead_letters "
            "  where tenant_id = %s and source_uri = %s and resolved_at is null) "
            "returning dead_letter_id",
            (stage, type(error).__name__, message, attempts, payload, document_id, document_version,
             tenant_id, source_uri),
        ).fetchone()
        if row is None:
            row = conn.execute(
                "insert into ingest.dead_letters (tenant_id, source_uri, document_id, document_version, stage, "
                "error_class, error_message, attempts, payload) values (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "returning dead_letter_id",
                (tenant_id, source_uri, document_id, document_version, stage, type(error).__name__, message,
                 attempts, payload),
            ).fetchone()
    assert row is not None
    return int(row[0])


def resolve_dead_letters(conn: psycopg.Connection, items: Sequence[tuple[str, str, str | None]]) -> int:
    """Mark unresolved letters of these (tenant, source_uri, document_id) as resolved; returns how many."""
    if not items:
        return 0
    cur = conn.execute(
        "update ingest.dead_letters dl set resolved_at = now() "
        "from unnest(%s::text[], %s::text[], %s::text[]) as s(tenant_id, source_uri, document_id) "
        "where dl.resolved_at is null and dl.tenant_id = s.tenant_id "
        "and (dl.source_uri = s.source_uri or dl.document_id = s.document_id)",
        ([i[0] for i in items], [i[1] for i in items], [i[2] for i in items]),
    )
    return cur.rowcount


def unresolved_dead_letters(
    conn: psycopg.Connection, *, tenant_id: str | None = None, ids: Sequence[int] = ()
) -> list[DeadLetter]:
    """Unresolved dead letters, oldest first, optionally of one tenant or with the given ids."""
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(
            "select dead_letter_id, tenant_id, source_uri, document_id, document_version, stage, error_class, "
            "error_message, attempts, payload, last_failed_at from ingest.dead_letters "
            "where resolved_at is null and (%s::text is null or tenant_id = %s) "
            "and (cardinality(%s::bigint[]) = 0 or dead_letter_id = any(%s::bigint[])) "
            "order by dead_letter_id",
            (tenant_id, tenant_id, list(ids), list(ids)),
        ).fetchall()
    return [DeadLetter(**{**row, "payload": bytes(row["payload"]) if row["payload"] is not None else None})
            for row in rows]


def version_ref(state: DocumentState) -> VersionRef | None:
    """The active version of a non-deleted document."""
    if state.active_version is None or state.is_deleted:
        return None
    return VersionRef(state.tenant_id, state.document_id, state.active_version)
