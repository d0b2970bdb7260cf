"""Replays of the demo export converge: the export twice, then each amended document's old base file alone, and
the published versions and every store equal the first run's (versions only move forward)."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
from fastapi.testclient import TestClient

from evaluation.world import TENANTS, DemoWorld
from ingest.pipeline import ingest_path
from ingest.reconcile import reconcile
from tests.fixtures.ingest.support import snapshot


def _state(conn: psycopg.Connection) -> dict[str, object]:
    """Every store's rows (counts and checksums) and the registry of every demo tenant, plus the graph's size."""
    state: dict[str, object] = {tenant: snapshot(conn, tenant) for tenant in TENANTS}
    state["active"] = conn.execute(
        "select tenant_id, document_id, active_version, is_deleted from ingest.documents order by 1, 2").fetchall()
    return state


#: Questions whose answers name the amended documents: search reads the served versions directly, so a replay
#: that reverted an amendment would answer with the old version's passages.
_SEARCHES = (
    ("tenant-42", "Amendment No. 1 framework supply agreement 2025-09"),
    ("tenant-42", "INV-2026-0161"),
    ("tenant-17", "framework supply agreement scope of the agreement"),
)


def _answers(client: TestClient, world: DemoWorld) -> list[object]:
    """What users are answered: the passages (document, version, chunk) of each search, without the vector branch
    (the embedding model is not the subject here)."""
    answers: list[object] = []
    for tenant, text in _SEARCHES:
        response = client.post("/v1/search", headers=world.headers(tenant), json={
            "query_text": text, "retrieval_modes": ["exact", "bm25"], "limit": 10})
        assert response.status_code == 200, response.text
        answers.append([(r["document_id"], r["document_version"], r["chunk_id"], r["text"])
                        for r in response.json()["results"]])
    return answers


def test_replaying_the_export_and_old_base_files_changes_nothing(world: DemoWorld) -> None:
    corpus = world.corpus
    manifest = json.loads((corpus / "manifest.json").read_text())
    amended = [entry for entry in manifest["files"] if entry["path"].startswith("updates/")]
    assert {e["document_id"] for e in amended} >= {"agreement-2025-09", "invoice-2026-0161"}
    with TestClient(world.create_app()) as client:
        answers_before = _answers(client, world)
    assert all(answers_before), "every replay question has an answer to compare"
    amendment = {version for doc, version, *_ in answers_before[0] if doc == "agreement-2025-09"}  # type: ignore[misc]
    assert amendment == {2}, f"the amended agreement is served in its second version: {amendment}"
    with psycopg.connect(world.settings.owner_url, autocommit=True) as conn:
        before = _state(conn)
        reports = []
        for _ in range(2):
            reports.append(ingest_path(conn, corpus))
            reports.append(ingest_path(conn, corpus / "updates"))
        base_files = [corpus / Path(e["path"]).relative_to("updates") for e in amended]
        late = [ingest_path(conn, path) for path in base_files]
        after = _state(conn)
        drift = reconcile(conn, writers=None)

    assert all(r.published == 0 and r.backfilled == 0 for r in [*reports, *late])
    # the old base versions are reported stale (with the version they would revert to), never published
    assert reports[0].stale == len(amended) and reports[2].stale == len(amended)
    for report in late:
        (outcome,) = report.outcomes
        assert outcome.action == "stale" and outcome.document_version == 1, outcome
    # the invalid document of the export stays a dead letter; nothing else fails
    assert all(r.dead_lettered == reports[0].dead_lettered for r in reports)
    assert after == before
    with TestClient(world.create_app()) as client:
        assert _answers(client, world) == answers_before
    assert drift.ok, [str(d) for d in drift.unrepaired]
