"""The graph writer under the pipeline's publication protocol, with real parsed corpus documents.

The demo corpus is generated for this run; its files are parsed by ingestion's parsers and their landing rows
written by ingestion's LandingStore, then the steps of the versioned publication protocol are driven in order
(stage -> verify -> publish -> verify; amendment; drift and repair; delete) on a procura_owner connection.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from graph.age import CypherQuery, age_transaction, graph_name_for_tenant, run_cypher
from graph.ingest import create_writer
from graph.tools import ApprovedVendorsRequest, find_approved_vendors
from graph.writer import GraphWriter
from ingest.models import ParsedDocument
from ingest.parsers import parse_item
from ingest.sources import SourceItem, kind_of_uri
from ingest.stores import LandingStore, Staged
from ingest.writers import StoreStats, VersionRef, check_writer, discover_writers
from procura.db.session import AuthContext
from procura.demo.generator import generate
from procura.settings import Settings
from tests.conftest import unique_tenant

pytestmark = pytest.mark.integration

MASTER = ("companies.json", "suppliers.json", "catalog/product_groups.json", "catalog/products.csv")
Q2 = {"start_date": dt.date(2026, 4, 1), "end_date": dt.date(2026, 7, 1)}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("graph-writer") / "corpus"
    generate(out)
    return out


@pytest.fixture
def owner(settings: Settings) -> Iterator[psycopg.Connection]:
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        yield conn


def _parse(path: Path, tenant_id: str) -> ParsedDocument:
    uri = str(path)
    return parse_item(SourceItem(tenant_id, uri, kind_of_uri(uri), path.read_bytes()))


def _stage(conn: psycopg.Connection, writer: GraphWriter, doc: ParsedDocument, version: int) -> StoreStats:
    """What the pipeline's staging transaction does for one document."""
    with conn.transaction():
        conn.execute(
            "insert into ingest.documents (tenant_id, document_id, document_type, source_uri) values (%s, %s, %s, %s)"
            " on conflict do nothing",
            (doc.tenant_id, doc.document_id, doc.document_type, doc.source_uri),
        )
        conn.execute(
            "insert into ingest.document_versions (tenant_id, document_id, document_version, content_hash, "
            "original_content, parser_version, relational_schema_version) values (%s, %s, %s, %s, %s, 'p', 'r')",
            (doc.tenant_id, doc.document_id, version, doc.content_hash, doc.original),
        )
        LandingStore().write_many(conn, [Staged(doc, version)])
        return writer.write(conn, doc, version)


def _publish(conn: psycopg.Connection, writer: GraphWriter, refs: list[VersionRef], old: list[VersionRef]) -> None:
    """What the pipeline's publish transaction does: registry first, purge old versions, then on_publish."""
    with conn.transaction():
        for ref in refs:
            conn.execute(
                "update ingest.documents set active_version = %s where tenant_id = %s and document_id = %s",
                (ref.document_version, ref.tenant_id, ref.document_id),
            )
        for ref in old:
            writer.purge(conn, ref)
        for ref in refs:
            writer.on_publish(conn, ref, None)


def _ref(doc: ParsedDocument, version: int) -> VersionRef:
    return VersionRef(doc.tenant_id, doc.document_id, version)


def test_the_pipeline_discovers_the_graph_writer() -> None:
    writer = check_writer(create_writer())
    assert writer.name == "graph" and "agreement" in writer.document_types  # type: ignore[attr-defined]
    assert "graph" in {w.name for w in discover_writers()}


def test_stage_verify_publish_amend_drift_repair_delete(
    corpus: Path, owner: psycopg.Connection, app_conn: psycopg.Connection
) -> None:
    tenant = unique_tenant("w42")
    base = corpus / "tenants" / "tenant-42"
    docs = [_parse(base / name, tenant) for name in MASTER]
    docs += [_parse(path, tenant) for path in sorted((base / "agreements").glob("*.md"))]
    writer = GraphWriter()

    # Stage everything (one batch, nothing served yet): expected stats, nothing in the graph.
    expected = {doc.document_id: _stage(owner, writer, doc, 1) for doc in docs}
    seed = expected["agreement-2026-04"]
    assert seed.counts == {"vertices": 1, "edges": 10}  # the Agreement; 5 approvals + 5 GOVERNED_BY
    suppliers = next(d for d in docs if d.document_type == "suppliers")
    assert expected[suppliers.document_id].counts == {"vertices": 8, "edges": 0}
    for doc in docs:
        assert writer.verify(owner, _ref(doc, 1)) == expected[doc.document_id]
    assert owner.execute("select count(*) from graph.tenant_graphs where tenant_id = %s", (tenant,)).fetchone() == (0,)

    # Publish: the graph switches in the publish transaction; verify now reads back what AGE holds.
    _publish(owner, writer, [_ref(doc, 1) for doc in docs], [])
    for doc in docs:
        assert writer.verify(owner, _ref(doc, 1)) == expected[doc.document_id], doc.document_id
    ctx = AuthContext(tenant, "analyst")
    before = find_approved_vendors(app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-B", **Q2))
    assert before.supplier_ids == ("SUP-44", "SUP-52")
    assert {a.provenance.chunk_id for v in before.vendors for a in v.approvals} <= {
        c.chunk_id for d in docs if d.document_id == "agreement-2025-09" for c in d.chunks
    }

    # Amendment (updates/): version 2 replaces version 1 at publish.
    amendment = _parse(corpus / "updates" / "tenants" / "tenant-42" / "agreements" / "agreement-2025-09.md", tenant)
    amended = _stage(owner, writer, amendment, 2)
    _publish(owner, writer, [_ref(amendment, 2)], [_ref(amendment, 1)])
    after = find_approved_vendors(app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-B", **Q2))
    assert after.supplier_ids == ("SUP-44", "SUP-52", "SUP-60")
    assert {a.provenance.document_version for v in after.vendors for a in v.approvals} == {2}
    assert writer.verify(owner, _ref(amendment, 2)) == amended

    # Drift: an edge disappears behind the pipeline's back; verify (reconcile) sees it, purge + write repairs.
    graph = graph_name_for_tenant(tenant)
    drop = CypherQuery(
        "drop_one", "MATCH ()-[e:APPROVED_VENDOR]->(s:Supplier {id: 'SUP-60'}) DELETE e RETURN count(*)", ("n",)
    )
    with age_transaction(owner):
        run_cypher(owner, graph, drop)
    drifted = writer.verify(owner, _ref(amendment, 2))
    assert drifted != amended and drifted.counts["edges"] == amended.counts["edges"] - 1
    with owner.transaction():
        writer.purge(owner, _ref(amendment, 2))
        assert writer.write(owner, amendment, 2) == amended
    assert writer.verify(owner, _ref(amendment, 2)) == amended

    # Delete: the document leaves every traversal in the delete transaction.
    with owner.transaction():
        owner.execute(
            "update ingest.documents set is_deleted = true where tenant_id = %s and document_id = %s",
            (tenant, "agreement-2025-09"),
        )
        writer.on_delete(owner, _ref(amendment, 2))
    gone = find_approved_vendors(
        app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-B", start_date=dt.date(2020, 1, 1),
                                              end_date=dt.date(2030, 1, 1))
    )
    assert gone.vendors == ()
    edges = CypherQuery("left", "MATCH ()-[e]->() WHERE e.document_id = $d RETURN count(e)", ("n",))
    with age_transaction(owner):
        assert run_cypher(owner, graph, edges, {"d": "agreement-2025-09"}) == [{"n": 0}]
