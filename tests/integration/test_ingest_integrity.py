"""Ingestion integrity on the real database: versions only move forward, a file cannot take over another document,
files outside the corpus are never read, and one bad tenant or file never stops the others."""

from __future__ import annotations

import json
import secrets
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.parsers import parse_item
from ingest.pipeline import Pipeline, ingest_path, rollback_document
from ingest.sources import SourceItem
from retrieval.bm25_writer import Bm25Writer
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    UPDATES_FIXTURE,
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
)

INVOICE = "invoices/2026/invoice-2026-0148.json"
AGREEMENT = "agreements/agreement-2026-04.md"


def _active(conn, tenant: str, document_id: str) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    row = conn.execute(
        "select d.active_version, v.content_hash from ingest.documents d join ingest.document_versions v "
        "on v.tenant_id = d.tenant_id and v.document_id = d.document_id and v.document_version = d.active_version "
        "where d.tenant_id = %s and d.document_id = %s", (tenant, document_id)).fetchone()
    return None if row is None else (row[0], row[1])


def _count(conn, table: str, tenant: str) -> int:  # type: ignore[no-untyped-def]
    row = conn.execute(
        f"select count(*) from {table} t join ingest.documents d on d.tenant_id = t.tenant_id "
        "and d.document_id = t.document_id and d.active_version = t.document_version and not d.is_deleted "
        "where t.tenant_id = %s", (tenant,)).fetchone()
    assert row is not None
    return int(row[0])


def test_a_file_cannot_take_over_another_document(owner_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("takeover")
    root = make_corpus(tmp_path / "base", tenant)
    assert ingest_path(owner_conn, root, embedder=embedder).dead_lettered == 0
    suppliers_before = _count(owner_conn, "landing.suppliers", tenant)
    invoice_before = _active(owner_conn, tenant, "invoice-2026-0148")
    folder = tmp_path / "evil" / "tenants" / tenant
    (folder / "invoices").mkdir(parents=True)
    data = json.loads((root / "tenants" / tenant / INVOICE).read_text())
    (folder / "invoices" / "as-suppliers.json").write_text(json.dumps({**data, "document_id": "suppliers"}))
    agreement = (root / "tenants" / tenant / AGREEMENT).read_text()
    (folder / "agreements").mkdir()
    (folder / "agreements" / "claims-invoice.md").write_text(
        agreement.replace("document_id: agreement-2026-04", "document_id: invoice-2026-0148"))
    # the same invoice id from another file of the same kind is another source path's document
    other = {**data, "header_tax_amount": "1.00"}
    (folder / "invoices" / "other-path.json").write_text(json.dumps(other))

    report = ingest_path(owner_conn, tmp_path / "evil", embedder=embedder)

    errors = {Path(o.source_uri).name: o.error or "" for o in report.outcomes}
    assert report.published == 0 and report.dead_lettered == 3
    assert "document_id: 'suppliers' is reserved for the suppliers master file" in errors["as-suppliers.json"]
    assert "is a invoice document" in errors["claims-invoice.md"] or "is an invoice" in errors["claims-invoice.md"]
    assert "belongs to the source invoices/2026/invoice-2026-0148.json" in errors["other-path.json"]
    assert _count(owner_conn, "landing.suppliers", tenant) == suppliers_before
    assert _active(owner_conn, tenant, "invoice-2026-0148") == invoice_before
    # the real files still ingest as unchanged: nothing to repair
    again = ingest_path(owner_conn, root, embedder=embedder)
    assert again.published == 0 and again.dead_lettered == 0


def test_stale_content_is_reported_not_published_and_rollback_is_audited(owner_conn, embedder,
                                                                          tmp_path: Path) -> None:
    tenant = unique_tenant("stale")
    root = make_corpus(tmp_path / "c", tenant)
    base = root / "tenants" / tenant / AGREEMENT
    ingest_path(owner_conn, base, embedder=embedder)
    updates = tmp_path / "c" / "updates" / "tenants" / tenant
    shutil.copytree(UPDATES_FIXTURE, updates)
    assert ingest_path(owner_conn, updates, embedder=embedder).published == 1
    newest = _active(owner_conn, tenant, "agreement-2026-04")

    replay = ingest_path(owner_conn, base, embedder=embedder)

    assert [(o.action, o.document_version) for o in replay.outcomes] == [("stale", 1)]
    assert replay.stale == 1 and "superseded v1" in (replay.outcomes[0].error or "")
    assert _active(owner_conn, tenant, "agreement-2026-04") == newest

    rollback_document(owner_conn, tenant, "agreement-2026-04", 1, reason="amendment withdrawn", actor="test",
                      embedder=embedder)
    assert _active(owner_conn, tenant, "agreement-2026-04")[0] == 1  # type: ignore[index]
    events = owner_conn.execute(
        "select action, from_version, to_version, actor, reason from ingest.registry_events "
        "where tenant_id = %s", (tenant,)).fetchall()
    assert events == [("rollback", 2, 1, "test", "amendment withdrawn")]
    # after an audited rollback the withdrawn amendment is old content: a replay does not bring it back
    assert [o.action for o in ingest_path(owner_conn, updates, embedder=embedder).outcomes] == ["stale"]


def test_one_bad_tenant_folder_or_file_never_stops_the_run(owner_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("blast")
    root = make_corpus(tmp_path / "c", tenant)
    shutil.copytree(root / "tenants" / tenant, root / "tenants" / "Not_A_Tenant")
    secret = tmp_path / "host-secret.json"
    secret.write_text((root / "tenants" / tenant / INVOICE).read_text().replace("0148", "9999"))
    (root / "tenants" / tenant / "invoices" / "linked.json").symlink_to(secret)
    companies = root / "tenants" / tenant / "companies.json"
    (root / "manifest.json").write_text(json.dumps({"files": [
        {"path": f"tenants/{tenant}/companies.json", "sha256": "0" * 64},
        {"path": "../host-secret.json"},
    ]}))
    data = json.loads((root / "tenants" / tenant / INVOICE).read_text())
    reused = {**data, "document_id": "invoice-reused-number", "header_tax_amount": "1.00"}
    (root / "tenants" / tenant / "invoices" / "zz-reused.json").write_text(json.dumps(reused))

    report = ingest_path(owner_conn, root, embedder=embedder)

    letters = {Path(o.source_uri).name: o for o in report.outcomes
               if o.action == "dead_lettered" and o.tenant_id == tenant}
    bad_tenant = [o for o in report.outcomes if "Not_A_Tenant" in o.source_uri]
    assert bad_tenant and all(o.action == "dead_lettered" and o.stage == "source" for o in bad_tenant)
    assert letters["linked.json"].stage == "source" and "SourceBoundaryError" in (letters["linked.json"].error or "")
    assert "ManifestMismatchError" in (letters["companies.json"].error or "")
    assert str(companies) in (letters["companies.json"].error or "")
    # the later arrival of the two holders of one invoice number is refused (flagged), not summed
    reused_letters = [o for o in letters.values() if "invoice_number: 'INV-2026-0148'" in (o.error or "")]
    assert len(reused_letters) == 1 and "DuplicateBusinessKeyError" in (reused_letters[0].error or "")
    # the good files of the good tenant are all published; nothing outside the corpus was read or stored
    assert report.published == 11
    payloads = owner_conn.execute(
        "select count(*) from ingest.dead_letters where tenant_id = %s and payload is not null "
        "and source_uri like %s", (tenant, "%linked.json")).fetchone()
    assert payloads == (0,)
    assert owner_conn.execute("select count(*) from ingest.chunks where tenant_id = %s and chunk_text like %s",
                              (tenant, "%9999%")).fetchone() == (0,)


def _invoice_version(data: dict[str, object], revision: int) -> bytes:
    return json.dumps({**data, "revision": revision, "header_tax_amount": f"{revision}.00"}).encode()


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations([1, 2, 3]), replays=st.lists(st.sampled_from([1, 2, 3]), max_size=2))
def test_arrival_orders_converge_to_the_newest_version(owner_conn, embedder, order: list[int],
                                                       replays: list[int]) -> None:
    tenant = f"perm-{secrets.token_hex(4)}"
    data = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "ingest" / "tenant" / INVOICE).read_text())
    uri = f"/corpus/tenants/{tenant}/{INVOICE}"
    arrivals = [*order, *replays]
    pipeline = Pipeline(owner_conn, embedder=embedder, writers=(), options=None)
    for revision in arrivals:  # one run per arrival: each sees what the previous ones published
        pipeline.run([SourceItem(tenant, uri, "invoice", _invoice_version(data, revision))])

    expected = parse_item(SourceItem(tenant, uri, "invoice", _invoice_version(data, 3))).content_hash
    active = _active(owner_conn, tenant, "invoice-2026-0148")
    assert active is not None and active[1] == expected
    served = owner_conn.execute(
        "select header_tax_amount from landing.invoice_headers h join ingest.documents d on "
        "d.tenant_id = h.tenant_id and d.document_id = h.document_id and d.active_version = h.document_version "
        "where h.tenant_id = %s", (tenant,)).fetchall()
    assert [str(r[0]).rstrip("0").rstrip(".") for r in served] == ["3"]


def test_huge_texts_embed_only_the_prefix_the_model_reads_with_the_same_vector(embedder) -> None:
    import numpy as np

    from ingest.embedder import model_prefix

    words = ["Lieferant", "straße", "PRD-482", "€", "42.00", "数据处理系统", "x" * 150, "\u200d", "\x01", ";", "naïve"]
    text = " ".join(words[i % len(words)] * (1 + i % 3) for i in range(40_000))
    cut = model_prefix(text, embedder.max_seq_length)
    assert len(cut) < len(text) // 10
    whole = embedder._model.encode([text], normalize_embeddings=True, convert_to_numpy=True)[0]
    assert np.array_equal(embedder.embed_documents([text])[0], whole)


class _LosesAPosting(Bm25Writer):
    """The real BM25 writer, except that one row of ``document_id``'s new versions is lost after writing: a real
    fault in one store, which verification must catch before the version is served."""

    def __init__(self, document_id: str, after_version: int) -> None:
        self.document_id, self.after_version = document_id, after_version

    def write(self, conn, doc, version):  # type: ignore[no-untyped-def]
        stats = super().write(conn, doc, version)
        if doc.document_id == self.document_id and version > self.after_version:
            conn.execute("delete from retrieval.bm25_postings where ctid = (select ctid from retrieval.bm25_postings "
                         "where tenant_id = %s and document_id = %s and document_version = %s limit 1)",
                         (doc.tenant_id, doc.document_id, version))
        return stats


def _served(conn, embedder, tenant: str, document_id: str) -> tuple[int, str, list[str]]:  # type: ignore[no-untyped-def]
    """The active version, its hash, and the drift of every store (built-in and writers) from what it expects."""
    from ingest.pipeline import describe_drift
    from ingest.registry import load_states, set_tenant
    from ingest.stores import ChunkStore, EmbeddingStore, IdentifierStore, LandingStore
    from ingest.writers import VersionRef, discover_writers

    key = (tenant, document_id)
    with conn.transaction():
        set_tenant(conn, tenant)
        state = load_states(conn, [key])[key]
        active = state.active()
        assert active is not None and state.active_version is not None
        ref = VersionRef(tenant, document_id, state.active_version)
        stores = (LandingStore(), ChunkStore(), IdentifierStore(), EmbeddingStore(embedder.config.embedding_config_id))
        actual = {store.name: store.verify_many(conn, [ref])[ref] for store in stores}
        actual.update({writer.name: writer.verify(conn, ref) for writer in discover_writers()})
    assert set(active.expected) == set(actual), "every store has expected stats"
    return state.active_version, active.content_hash, describe_drift(dict(active.expected), actual)


def test_a_new_version_failing_verification_leaves_the_previous_one_served(owner_conn, embedder,
                                                                           tmp_path: Path) -> None:
    from ingest.registry import unresolved_dead_letters
    from ingest.writers import discover_writers

    tenant = unique_tenant("verifyfail")
    root = make_corpus(tmp_path, tenant)
    assert ingest_path(owner_conn, root, embedder=embedder).dead_lettered == 0
    document_id = "agreement-2026-04"
    version, content_hash, drift = _served(owner_conn, embedder, tenant, document_id)
    assert drift == []
    before = _count(owner_conn, "retrieval.bm25_postings", tenant), _count(owner_conn, "ingest.chunks", tenant)
    shutil.copy(UPDATES_FIXTURE / AGREEMENT, root / "tenants" / tenant / AGREEMENT)
    faulty = [w for w in discover_writers() if w.name != "bm25"] + [_LosesAPosting(document_id, version)]

    report = ingest_path(owner_conn, root / "tenants" / tenant / AGREEMENT, embedder=embedder, writers=faulty)

    assert report.published == 0 and report.dead_lettered == 1
    outcome = report.outcomes[0]
    assert outcome.stage == "verify" and "bm25:" in (outcome.error or "")
    # every store still serves the previous version, complete
    assert _served(owner_conn, embedder, tenant, document_id) == (version, content_hash, [])
    assert (_count(owner_conn, "retrieval.bm25_postings", tenant), _count(owner_conn, "ingest.chunks", tenant)) \
        == before
    # the right file (the same content, healthy writers) publishes cleanly and resolves the dead letter
    again = ingest_path(owner_conn, root / "tenants" / tenant / AGREEMENT, embedder=embedder)
    assert again.published == 1 and again.dead_lettered == 0
    new_version, new_hash, drift = _served(owner_conn, embedder, tenant, document_id)
    assert new_version > version and new_hash != content_hash and drift == []
    assert unresolved_dead_letters(owner_conn, tenant_id=tenant) == []
