"""The versioned publication protocol against the real Postgres: publish, idempotency, new versions, deletes,
failures between write and publish, dead letters and replay, retries, tenant isolation."""

from __future__ import annotations

import shutil
from pathlib import Path

import psycopg
import pytest

from ingest.pipeline import IngestOptions, delete_document, ingest_path, replay_dead_letters
from ingest.retry import RetryPolicy
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    INVALID_FIXTURE,
    UPDATES_FIXTURE,
    TableWriter,
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
    snapshot,
    visible,
    writer_table_fixture,
)

pytestmark = pytest.mark.integration
FAST_RETRY = IngestOptions(retry=RetryPolicy(max_attempts=3, base_delay_s=0.01, max_delay_s=0.02))


def test_ingest_publishes_every_store_with_provenance(owner_conn, app_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("ing")
    report = ingest_path(owner_conn, make_corpus(tmp_path, tenant), embedder=embedder, writers=())

    assert report.dead_lettered == 0, report.outcomes
    assert report.published == 12
    chunks = visible(app_conn, tenant, "select chunk_id from retrieval.active_chunks")
    assert len(chunks) == report.chunks == 28
    embeddings = visible(app_conn, tenant, "select count(*) from retrieval.active_embeddings")
    assert embeddings[0][0] == report.chunks
    # exact match: the invoice number and the product code resolve to chunks without any analyzer
    hits = visible(app_conn, tenant, "select document_id, chunk_id from retrieval.active_identifiers "
                                     "where identifier_type = 'invoice_number' and identifier_value = 'INV-2026-0148'")
    assert ("invoice-2026-0148", "invoice-2026-0148-p01-c01") in hits
    assert ("credit-2026-0007", "credit-2026-0007-p01-c01") in hits  # the credit note names its original
    # vendor approvals carry the page and chunk of the table row they came from
    approvals = owner_conn.execute(
        "select supplier_id, valid_to, page_number, chunk_id from landing.vendor_approvals "
        "where tenant_id = %s order by supplier_id", (tenant,)).fetchall()
    assert [a[0] for a in approvals] == ["SUP-18", "SUP-27", "SUP-31"]
    assert {(a[2], a[3]) for a in approvals} == {(3, "agreement-2026-04-p03-c02")}
    # the version row records how everything was derived
    version = owner_conn.execute(
        "select parser_version, chunker_version, extraction_version, embedding_model, embedding_dimension, "
        "embedding_normalized, relational_schema_version, expected_counts -> 'landing' from ingest.document_versions "
        "where tenant_id = %s and document_id = 'agreement-2026-04'", (tenant,)).fetchone()
    assert version[0] == "parser-1" and version[1].startswith("layout-1/") and version[2] == "vendor-table-1"
    assert version[3] == "sentence-transformers/all-MiniLM-L6-v2" and version[4] == 384 and version[5] is True
    assert version[7] == {"landing.vendor_approvals": 3, "landing.payment_terms": 1}
    # money survives exactly (Decimal end to end)
    line = owner_conn.execute("select quantity, unit_price, line_net_amount::text from landing.invoice_lines "
                              "where tenant_id = %s and line_id = 'invoice-2026-0148-line-01'", (tenant,)).fetchone()
    assert line[2] == "1900.00" and str(line[0].normalize()) == "1E+1"


def test_reingest_changes_nothing(owner_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("idem")
    root = make_corpus(tmp_path, tenant)
    ingest_path(owner_conn, root, embedder=embedder, writers=())
    before = snapshot(owner_conn, tenant)

    again = ingest_path(owner_conn, root, embedder=embedder, writers=())

    assert again.skipped == 12 and again.published == 0 and again.encoded_texts == 0
    assert snapshot(owner_conn, tenant) == before


def test_new_version_replaces_old_in_every_store(owner_conn, app_conn, embedder, writer_table, tmp_path: Path) -> None:
    tenant = unique_tenant("upd")
    writer = TableWriter(writer_table)
    first = ingest_path(owner_conn, make_corpus(tmp_path, tenant), embedder=embedder, writers=[writer])
    assert first.published == 12 and first.dead_lettered == 0
    updates = tmp_path / "updates" / "tenants" / tenant
    shutil.copytree(UPDATES_FIXTURE, updates)

    report = ingest_path(owner_conn, updates, embedder=embedder, writers=[writer])

    assert [(o.document_id, o.action, o.document_version) for o in report.outcomes] == [
        ("agreement-2026-04", "published", 2)]
    # unchanged clauses reuse their vectors; only changed chunks are encoded
    assert report.reused_vectors > 0 and report.encoded_texts < report.chunks
    for table in ("ingest.chunks", "ingest.identifiers", "ingest.embeddings", "landing.vendor_approvals",
                  writer_table):
        versions = owner_conn.execute(
            f"select distinct document_version from {table} where tenant_id = %s and document_id = %s",
            (tenant, "agreement-2026-04")).fetchall()
        assert versions == [(2,)], table
    statuses = owner_conn.execute("select document_version, status from ingest.document_versions where tenant_id = %s "
                                  "and document_id = 'agreement-2026-04' order by 1", (tenant,)).fetchall()
    assert statuses == [(1, "superseded"), (2, "published")]
    approvals = owner_conn.execute("select supplier_id, valid_to::text from landing.vendor_approvals where "
                                   "tenant_id = %s order by 1", (tenant,)).fetchall()
    assert approvals == [("SUP-18", None), ("SUP-27", None), ("SUP-31", "2026-04-01"), ("SUP-35", None)]
    dates = visible(app_conn, tenant, "select distinct metadata ->> 'effective_date' from retrieval.active_chunks "
                                      "where document_id = 'agreement-2026-04'")
    assert dates == [("2026-04-20",)]
    assert ("on_publish", ("agreement-2026-04", 2)) in [(c, (r.document_id, r.document_version))
                                                        for c, r in writer.calls if c == "on_publish"]


def test_delete_removes_the_document_from_every_store(owner_conn, app_conn, embedder, writer_table,
                                                       tmp_path: Path) -> None:
    tenant = unique_tenant("del")
    writer = TableWriter(writer_table)
    root = make_corpus(tmp_path, tenant)
    assert ingest_path(owner_conn, root, embedder=embedder, writers=[writer]).dead_lettered == 0

    ref = delete_document(owner_conn, tenant, "invoice-2026-0148", writers=[writer])

    assert ref is not None and ref.document_version == 1
    for view in ("retrieval.active_chunks", "retrieval.active_identifiers", "retrieval.active_embeddings",
                 "ingest.active_documents"):
        rows = visible(app_conn, tenant, f"select 1 from {view} where document_id = 'invoice-2026-0148'")
        assert rows == [], view
    assert visible(app_conn, tenant, "select 1 from retrieval.active_identifiers "
                                     "where identifier_value = 'INV-2026-0148' and document_type = 'invoice'") == []
    # dbt's serving rule (active version of a non-deleted document) excludes its landing rows
    served = owner_conn.execute(
        "select count(*) from landing.invoice_headers h join ingest.active_documents d on d.tenant_id = h.tenant_id "
        "and d.document_id = h.document_id and d.document_version = h.document_version "
        "where h.tenant_id = %s and h.document_id = 'invoice-2026-0148'", (tenant,)).fetchone()
    assert served == (0,)
    assert owner_conn.execute("select count(*) from ingest.embeddings where tenant_id = %s and "
                              "document_id = 'invoice-2026-0148'", (tenant,)).fetchone() == (0,)
    assert owner_conn.execute(f"select bool_and(is_deleted) from {writer_table} where tenant_id = %s and "
                              "document_id = 'invoice-2026-0148'", (tenant,)).fetchone() == (True,)
    assert delete_document(owner_conn, tenant, "invoice-2026-0148", writers=[writer]) is None

    # the same source ingested again brings the document back under its version
    back = ingest_path(owner_conn, root / "tenants" / tenant / "invoices" / "2026" / "invoice-2026-0148.json",
                       embedder=embedder, writers=[writer])
    assert [(o.action, o.document_version) for o in back.outcomes] == [("published", 1)]
    assert len(visible(app_conn, tenant, "select 1 from retrieval.active_embeddings "
                                         "where document_id = 'invoice-2026-0148'")) == 1


def test_failure_between_write_and_publish_leaves_nothing_visible(owner_conn, app_conn, embedder, writer_table,
                                                                  tmp_path: Path) -> None:
    tenant = unique_tenant("crash")
    writer = TableWriter(writer_table)
    root = make_corpus(tmp_path, tenant)
    agreement = root / "tenants" / tenant / "agreements" / "agreement-2026-04.md"
    ingest_path(owner_conn, agreement, embedder=embedder, writers=[writer])
    shutil.copy(UPDATES_FIXTURE / "agreements" / "agreement-2026-04.md", agreement)
    writer.fail_on = {"on_publish"}

    failed = ingest_path(owner_conn, agreement, embedder=embedder, writers=[writer], options=FAST_RETRY)

    assert [(o.action, o.stage) for o in failed.outcomes] == [("dead_lettered", "publish")]
    staged = owner_conn.execute("select document_version, status from ingest.document_versions where tenant_id = %s "
                                "order by 1", (tenant,)).fetchall()
    assert staged == [(1, "published"), (2, "staged")]
    # readers still see version 1 only, in every store
    for view in ("retrieval.active_chunks", "retrieval.active_identifiers", "retrieval.active_embeddings"):
        assert visible(app_conn, tenant, f"select distinct document_version from {view}") == [(1,)], view
    assert owner_conn.execute("select count(*) from ingest.chunks where tenant_id = %s and document_version = 2",
                              (tenant,)).fetchone()[0] > 0

    writer.fail_on = set()
    completed = ingest_path(owner_conn, agreement, embedder=embedder, writers=[writer])

    assert [(o.action, o.document_version) for o in completed.outcomes] == [("published", 2)]
    assert visible(app_conn, tenant, "select distinct document_version from retrieval.active_chunks") == [(2,)]
    assert owner_conn.execute("select count(*) from ingest.dead_letters where tenant_id = %s and resolved_at is null",
                              (tenant,)).fetchone() == (0,)


def test_dead_letters_name_the_field_and_replay_resolves_fixed_sources(owner_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("dlq")
    folder = tmp_path / "tenants" / tenant / "inbox"
    shutil.copytree(INVALID_FIXTURE, folder)

    report = ingest_path(owner_conn, folder, embedder=embedder, writers=())

    assert report.published == 0 and report.dead_lettered == 7
    letters = {Path(uri).name: (stage, error_class, message, attempts) for uri, stage, error_class, message, attempts in
               owner_conn.execute("select source_uri, stage, error_class, error_message, attempts from "
                                  "ingest.dead_letters where tenant_id = %s and resolved_at is null", (tenant,))}
    assert letters["invoice-bad-quantity.json"][:2] == ("parse", "ParseError")
    assert "lines[0].quantity" in letters["invoice-bad-quantity.json"][2]
    assert "line_net_amount: Value error" not in letters["invoice-too-many-decimals.json"][2]
    assert "has more than 2 decimal places" in letters["invoice-too-many-decimals.json"][2]
    assert "invalid JSON" in letters["invoice-not-json.json"][2]
    assert "no approved-vendor table" in letters["agreement-without-table.md"][2]
    assert "valid_to" in letters["agreement-bad-validity.md"][2]
    assert "front matter" in letters["manual-no-front-matter.md"][2]
    assert letters["notes.txt"][1] == "UnsupportedInputError"
    payload = owner_conn.execute("select payload from ingest.dead_letters where tenant_id = %s and source_uri like "
                                 "'%%notes.txt'", (tenant,)).fetchone()[0]
    assert bytes(payload) == (INVALID_FIXTURE / "notes.txt").read_bytes()  # nothing is lost

    fixed = folder / "invoice-bad-quantity.json"
    fixed.write_text(fixed.read_text().replace('"quantity": "ten"', '"quantity": "1"'))
    replay = replay_dead_letters(owner_conn, tenant=tenant, embedder=embedder, writers=())

    assert replay.published == 1 and replay.dead_lettered == 6
    remaining = owner_conn.execute("select count(*), min(attempts), max(attempts) from ingest.dead_letters "
                                   "where tenant_id = %s and resolved_at is null", (tenant,)).fetchone()
    assert remaining == (6, 2, 2)  # the same letters, one more attempt each; no duplicates
    assert owner_conn.execute("select active_version from ingest.documents where tenant_id = %s and "
                              "document_id = 'invoice-2026-0999'", (tenant,)).fetchone() == (1,)


def test_transient_errors_are_retried_then_dead_lettered(owner_conn, embedder, writer_table, tmp_path: Path) -> None:
    tenant = unique_tenant("retry")
    invoice = make_corpus(tmp_path, tenant) / "tenants" / tenant / "invoices" / "2026" / "invoice-2026-0148.json"
    writer = TableWriter(writer_table)
    writer.fail_on, writer.failure, writer.fail_times = {"write"}, psycopg.errors.DeadlockDetected, 2

    survived = ingest_path(owner_conn, invoice, embedder=embedder, writers=[writer], options=FAST_RETRY)

    assert [o.action for o in survived.outcomes] == ["published"]  # two transient failures, third attempt wins

    other = invoice.with_name("invoice-2026-0150.json")
    writer.fail_times = None
    failed = ingest_path(owner_conn, other, embedder=embedder, writers=[writer], options=FAST_RETRY)

    assert [(o.action, o.stage) for o in failed.outcomes] == [("dead_lettered", "stage")]
    letter = owner_conn.execute("select stage, error_class, attempts, document_id from ingest.dead_letters "
                                "where tenant_id = %s and resolved_at is null", (tenant,)).fetchone()
    assert letter == ("stage", "DeadlockDetected", 3, "invoice-2026-0150")
    assert owner_conn.execute("select count(*) from ingest.documents where tenant_id = %s and "
                              "document_id = 'invoice-2026-0150' and active_version is not null",
                              (tenant,)).fetchone() == (0,)

    writer.fail_on = set()
    replayed = replay_dead_letters(owner_conn, tenant=tenant, embedder=embedder, writers=[writer])
    assert [o.action for o in replayed.outcomes] == ["published"]
    assert owner_conn.execute("select count(*) from ingest.dead_letters where tenant_id = %s and resolved_at is null",
                              (tenant,)).fetchone() == (0,)


def test_tenants_see_only_their_own_rows(owner_conn, app_conn, bi_conn, embedder, tmp_path: Path) -> None:
    first, second = unique_tenant("iso"), unique_tenant("iso")
    root = make_corpus(tmp_path, first)
    make_corpus(root, second)
    other = root / "tenants" / second / "catalog" / "products.csv"
    other.write_text(other.read_text().replace("Differential pressure sensor DPS-482", "Cold-room pressure switch"))

    ingest_path(owner_conn, root, embedder=embedder, writers=())

    names = {tenant: visible(app_conn, tenant, "select chunk_text from retrieval.active_chunks where chunk_id = "
                                               "'products-p01-c01'") for tenant in (first, second)}
    assert "Differential pressure sensor" in names[first][0][0]
    assert "Cold-room pressure switch" in names[second][0][0]
    assert {r[0] for r in visible(app_conn, first, "select distinct tenant_id from retrieval.active_embeddings")} == {
        first}
    # no tenant in the session: no rows at all
    assert app_conn.execute("select count(*) from retrieval.active_chunks").fetchone() == (0,)
    app_conn.rollback()
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        bi_conn.execute("select 1 from retrieval.active_chunks")
