"""The review queue: extraction output the controlled schema rejected, stored for a person to decide.

Rejected candidates are never written to the graph. Storing them is idempotent (one row per tenant, document
version, candidate and reason), so re-running a sync or re-ingesting a version adds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import psycopg

from graph.schema import Rejection


def record_rejections(conn: psycopg.Connection, tenant_id: str, rejections: Iterable[Rejection]) -> int:
    """Insert rejections into ``graph.review_queue`` (pipeline role); returns how many rows were new."""
    rows = [
        (
            tenant_id,
            r.provenance.document_id,
            r.provenance.document_version,
            r.item_kind,
            r.item_key,
            r.reason,
            r.field,
            r.message,
            json.dumps(r.candidate, sort_keys=True, default=str),
            r.provenance.model_dump_json(),
            r.provenance.extraction_version,
        )
        for r in rejections
    ]
    if not rows:
        return 0
    inserted = 0
    with conn.cursor() as cur:
        for row in rows:
            cur.execute(
                """
                insert into graph.review_queue (tenant_id, document_id, document_version, item_kind, item_key,
                    reason, field, message, candidate, provenance, extraction_version)
                values (%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s)
                on conflict (tenant_id, document_id, document_version, item_key, reason) do nothing
                """,
                row,
            )
            inserted += cur.rowcount
    return inserted


@dataclass(frozen=True)
class ReviewItem:
    """One pending review-queue row as a reviewer sees it."""

    review_id: int
    document_id: str
    document_version: int
    item_kind: str
    reason: str
    field: str | None
    message: str
    candidate: dict[str, Any]
    provenance: dict[str, Any]


def pending_reviews(conn: psycopg.Connection, tenant_id: str, *, limit: int = 100) -> list[ReviewItem]:
    """Pending review items of a tenant, oldest first (explicit tenant filter: works for owner and app roles)."""
    rows = conn.execute(
        """
        select review_id, document_id, document_version, item_kind, reason, field, message, candidate, provenance
        from graph.review_queue
        where tenant_id = %s and status = 'pending'
        order by review_id
        limit %s
        """,
        (tenant_id, limit),
    ).fetchall()
    return [ReviewItem(*row) for row in rows]
