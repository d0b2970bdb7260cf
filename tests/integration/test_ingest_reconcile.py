"""Reconciliation: injected drift in a store or a source is detected, reported and repaired."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ingest.pipeline import ingest_path
from ingest.reconcile import reconcile
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    TableWriter,
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
    snapshot,
    visible,
    writer_table_fixture,
)

pytestmark = pytest.mark.integration


def test_reconcile_detects_a_deleted_chunk_and_repair_restores_it(owner_conn, admin_conn, app_conn, embedder,
                                                                   writer_table, tmp_path: Path) -> None:
    tenant = unique_tenant("rec")
    writer = TableWriter(writer_table)
    root = make_corpus(tmp_path, tenant)
    ingest_path(owner_conn, root, embedder=embedder, writers=[writer])
    clean = reconcile(owner_conn, tenant=tenant, source=root, writers=[writer])
    assert clean.ok and clean.drifts == () and clean.documents_checked == 12 and clean.sources_checked == 12
    before = snapshot(owner_conn, tenant)

    # drift: one chunk row disappears (its identifiers and embedding go with it by foreign key), and the
    # graph-like writer loses a row
    admin_conn.execute("delete from ingest.chunks where tenant_id = %s and chunk_id = 'agreement-2026-04-p03-c02'",
                       (tenant,))
    admin_conn.execute(f"delete from {writer_table} where tenant_id = %s and chunk_id = 'manual-prd-482-p01-c01'",
                       (tenant,))
    found = reconcile(owner_conn, tenant=tenant, writers=[writer])

    drifted = {(d.document_id, d.store, d.kind) for d in found.drifts}
    assert drifted == {
        ("agreement-2026-04", "chunks", "store_drift"),
        ("agreement-2026-04", "identifiers", "store_drift"),
        ("agreement-2026-04", f"embeddings:{embedder.config.embedding_config_id}", "store_drift"),
        ("manual-prd-482", "testwriter", "store_drift"),
    }
    assert not found.ok
    assert "expected {'ingest.chunks': 5}, found {'ingest.chunks': 4}" in str(
        next(d for d in found.drifts if d.store == "chunks"))
    assert visible(app_conn, tenant, "select count(*) from retrieval.active_identifiers where identifier_value = "
                                     "'SUP-31' and document_id = 'agreement-2026-04'") == [(0,)]

    repaired = reconcile(owner_conn, tenant=tenant, writers=[writer], repair=True, embedder=embedder)

    assert repaired.ok and {d.repaired for d in repaired.drifts} == {True}
    assert reconcile(owner_conn, tenant=tenant, writers=[writer]).drifts == ()
    restored = visible(app_conn, tenant, "select chunk_id from retrieval.active_identifiers where "
                                         "identifier_value = 'SUP-31' and document_id = 'agreement-2026-04'")
    assert restored == [("agreement-2026-04-p03-c02",)]
    after = snapshot(owner_conn, tenant)
    for table in ("ingest.chunks", "ingest.identifiers", "ingest.embeddings", "landing.vendor_approvals"):
        assert after[table] == before[table], table


def test_reconcile_compares_sources_and_manifest_and_repairs_stale_documents(owner_conn, embedder,
                                                                            tmp_path: Path) -> None:
    tenant = unique_tenant("src")
    root = make_corpus(tmp_path, tenant)
    ingest_path(owner_conn, root, embedder=embedder, writers=())
    products = root / "tenants" / tenant / "catalog" / "products.csv"
    suppliers = root / "tenants" / tenant / "suppliers.json"
    products.write_text(products.read_text() + "PRD-999,Spare sensor,PG-PRES,SUP-18,EA,1.00,EUR\n")
    # a file whose bytes differ from its manifest entry is reported and never read (not even by repair)
    manifest = [{"path": str(products.relative_to(root)), "tenant_id": tenant,
                 "sha256": hashlib.sha256(products.read_bytes()).hexdigest()},
                {"path": str(suppliers.relative_to(root)), "tenant_id": tenant, "sha256": "0" * 64},
                {"path": f"tenants/{tenant}/gone.json", "tenant_id": tenant}]
    (root / "manifest.json").write_text(json.dumps({"files": manifest}))
    (root / "tenants" / tenant / "companies.json").unlink()

    found = reconcile(owner_conn, tenant=tenant, source=root, writers=())

    kinds = {(d.kind, d.document_id) for d in found.drifts}
    assert ("stale_document", "products") in kinds
    assert ("orphaned_document", "companies") in kinds
    assert ("source_checksum_mismatch", None) in kinds and ("missing_source_file", None) in kinds

    repaired = reconcile(owner_conn, tenant=tenant, source=root, writers=(), repair=True, embedder=embedder)

    assert next(d for d in repaired.drifts if d.kind == "stale_document").repaired
    assert owner_conn.execute("select active_version from ingest.documents where tenant_id = %s and "
                              "document_id = 'products'", (tenant,)).fetchone() == (2,)
    # orphans and manifest mismatches are reported for a human, never "repaired" by deleting data
    assert {d.kind for d in repaired.unrepaired} == {"orphaned_document", "source_checksum_mismatch",
                                                     "missing_source_file", "unreadable_source"}
