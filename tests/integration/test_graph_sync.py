"""Graph sync on the real Postgres + AGE: idempotence, versions, deletes, and the review queue.

Setup writes landing rows as the superuser; the sync runs as procura_owner (the pipeline role); everything a
reader could see is checked through procura_app.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from graph.age import CypherQuery, age_transaction, graph_name_for_tenant, run_cypher
from graph.review import record_rejections
from graph.schema import CandidateRelationship, ExtractionOutput, Provenance, validate_extraction
from graph.sync import sync_tenant_graph
from graph.tools import ApprovedVendorsRequest, FindProductsRequest, find_approved_vendors, find_products
from procura.db.session import AuthContext, tenant_transaction
from procura.demo.masterdata import TENANT_42, AgreementSpec, Approval
from procura.settings import Settings
from tests.conftest import unique_tenant
from tests.integration.test_graph_support import (
    Doc,
    delete_document,
    load_agreement,
    load_tenant,
    publish_version,
    register,
)

pytestmark = pytest.mark.integration

_ALL_EDGES = CypherQuery("all_edges", "MATCH ()-[e]->() RETURN label(e), e.key, e.content_hash", ("t", "key", "h"))
_ALL_VERTICES = CypherQuery("all_vertices", "MATCH (n) RETURN label(n), n.id, n.content_hash", ("t", "id", "h"))
_AGREEMENT_2025_09 = next(a for a in TENANT_42.agreements if a.document_id == "agreement-2025-09")
_AGREEMENT_2025_12 = next(a for a in TENANT_42.agreements if a.document_id == "agreement-2025-12")


@pytest.fixture
def owner_conn(settings: Settings) -> Iterator[psycopg.Connection]:
    """A connection of the pipeline role (procura_owner), which owns and writes the graphs."""
    with psycopg.connect(settings.owner_url) as conn:
        yield conn


@pytest.fixture
def tenant(admin_conn: psycopg.Connection, owner_conn: psycopg.Connection) -> str:
    """A fresh tenant holding the demo corpus's tenant-42 master data and agreements, synced once."""
    tenant_id = unique_tenant("t42")
    load_tenant(admin_conn, tenant_id, TENANT_42)
    sync_tenant_graph(owner_conn, tenant_id)
    owner_conn.commit()
    return tenant_id


def _snapshot(conn: psycopg.Connection, tenant_id: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    graph = graph_name_for_tenant(tenant_id)
    with age_transaction(conn):
        vertices = sorted(tuple(r.values()) for r in run_cypher(conn, graph, _ALL_VERTICES))
        edges = sorted(tuple(r.values()) for r in run_cypher(conn, graph, _ALL_EDGES))
    return vertices, edges


def _vendors(app_conn: psycopg.Connection, tenant_id: str, company_id: str, start: dt.date, end: dt.date) -> dict:
    response = find_approved_vendors(
        app_conn, AuthContext(tenant_id, "analyst"),
        ApprovedVendorsRequest(company_id=company_id, start_date=start, end_date=end),
    )
    return {v.supplier_id: v for v in response.vendors}


def test_sync_is_idempotent(owner_conn: psycopg.Connection, admin_conn: psycopg.Connection, tenant: str) -> None:
    before = _snapshot(owner_conn, tenant)
    reviews_before = admin_conn.execute(
        "select count(*) from graph.review_queue where tenant_id = %s", (tenant,)
    ).fetchone()
    report = sync_tenant_graph(owner_conn, tenant)
    owner_conn.commit()
    assert report.changes == 0, report
    assert (report.vertices_total, report.edges_total) == (len(before[0]), len(before[1]))
    assert _snapshot(owner_conn, tenant) == before
    assert admin_conn.execute(
        "select count(*) from graph.review_queue where tenant_id = %s", (tenant,)
    ).fetchone() == reviews_before
    # 8 suppliers + 3 companies + 17 groups + 21 products + 3 agreements; 11 approvals (+11 GOVERNED_BY),
    # 21 SUPPLIES, 21 BELONGS_TO, 14 PART_OF.
    assert (len(before[0]), len(before[1])) == (52, 78)
    assert {row[0] for row in before[1]} == {"APPROVED_VENDOR", "GOVERNED_BY", "SUPPLIES", "BELONGS_TO", "PART_OF"}


def test_every_vertex_and_edge_carries_provenance(owner_conn: psycopg.Connection, tenant: str) -> None:
    graph = graph_name_for_tenant(tenant)
    query = CypherQuery("props", "MATCH ()-[e:APPROVED_VENDOR]->() RETURN properties(e)", ("p",))
    everything = CypherQuery("props_all", "MATCH (n)-[e]->() RETURN properties(n), properties(e)", ("n", "e"))
    with age_transaction(owner_conn):
        approvals = [r["p"] for r in run_cypher(owner_conn, graph, query)]
        pairs = run_cypher(owner_conn, graph, everything)
    for props in [p for r in pairs for p in r.values()]:
        for key in ("document_id", "document_version", "record_ref", "extraction_version", "extracted_at",
                    "source_key", "graph_schema_version"):
            assert key in props, (key, props)
    seed = [p for p in approvals if p["document_id"] == "agreement-2026-04"]
    assert len(seed) == 5
    assert {(p["page"], p["chunk_id"]) for p in seed} == {(12, "agreement-2026-04-p12-c01")}


def test_a_new_version_replaces_the_old_one_atomically_at_publish(
    owner_conn: psycopg.Connection, admin_conn: psycopg.Connection, app_conn: psycopg.Connection, tenant: str
) -> None:
    amendment = _AGREEMENT_2025_09.amendment
    assert amendment is not None
    # Written but not published (a crash before publish leaves exactly this): nothing of v2 is served.
    load_agreement(admin_conn, tenant, amendment, version=2, publish=False)
    assert sync_tenant_graph(owner_conn, tenant).changes == 0
    owner_conn.commit()
    may = (dt.date(2026, 5, 1), dt.date(2026, 6, 1))
    assert set(_vendors(app_conn, tenant, "COMP-B", *may)) == {"SUP-44", "SUP-52"}

    # Publish: the registry update and the graph sync in one transaction of the pipeline role.
    owner_conn.execute(
        "update ingest.documents set active_version = 2 where tenant_id = %s and document_id = %s",
        (tenant, amendment.document_id),
    )
    report = sync_tenant_graph(owner_conn, tenant, overrides=[(amendment.document_id, 2)])
    assert report.edges_deleted == 6 and report.edges_created == 8  # 3 -> 4 approvals, each with GOVERNED_BY
    assert set(_vendors(app_conn, tenant, "COMP-B", *may)) == {"SUP-44", "SUP-52"}  # not committed yet
    owner_conn.commit()
    vendors = _vendors(app_conn, tenant, "COMP-B", *may)
    assert set(vendors) == {"SUP-44", "SUP-52", "SUP-60"}
    assert vendors["SUP-44"].approvals[0].valid_to == dt.date(2026, 10, 1)
    assert {a.provenance.document_version for v in vendors.values() for a in v.approvals} == {2}
    _, edges = _snapshot(owner_conn, tenant)
    assert not [e for e in edges if e[1].endswith("agreement-2025-09#v1")]


def test_traversals_ignore_inactive_versions_even_before_the_graph_is_synced(
    admin_conn: psycopg.Connection, app_conn: psycopg.Connection, tenant: str
) -> None:
    amendment = _AGREEMENT_2025_09.amendment
    assert amendment is not None
    load_agreement(admin_conn, tenant, amendment, version=2, publish=False)
    publish_version(admin_conn, tenant, amendment.document_id, 2)  # published without the graph writer
    vendors = _vendors(app_conn, tenant, "COMP-B", dt.date(2025, 1, 1), dt.date(2027, 1, 1))
    assert vendors == {}  # v1 edges are inactive and v2 edges are not in the graph yet: nothing, not stale data
    assert set(_vendors(app_conn, tenant, "COMP-A", dt.date(2026, 1, 1), dt.date(2026, 4, 1))) == {
        "SUP-18", "SUP-27", "SUP-31"
    }
    ctx = AuthContext(tenant, "analyst")
    request = FindProductsRequest(supplier_ids=("SUP-18", "SUP-27"), group_name="Monitoring Products")
    assert len(find_products(app_conn, ctx, request).products) == 6
    register(admin_conn, tenant, Doc("products", "products", 2))  # a new catalog version, graph not synced yet
    assert find_products(app_conn, ctx, request).products == ()


def test_a_delete_removes_the_documents_edges(
    owner_conn: psycopg.Connection, admin_conn: psycopg.Connection, app_conn: psycopg.Connection, tenant: str
) -> None:
    assert _vendors(app_conn, tenant, "COMP-C", dt.date(2026, 1, 1), dt.date(2027, 1, 1))
    delete_document(admin_conn, tenant, _AGREEMENT_2025_12.document_id)
    report = sync_tenant_graph(owner_conn, tenant)
    owner_conn.commit()
    assert report.edges_deleted == 6 and report.vertices_deleted == 1  # 3 approvals + GOVERNED_BY, the Agreement
    assert _vendors(app_conn, tenant, "COMP-C", dt.date(2025, 1, 1), dt.date(2028, 1, 1)) == {}
    vertices, edges = _snapshot(owner_conn, tenant)
    assert not [e for e in edges if "agreement-2025-12" in e[1]]
    assert ("Agreement", "agreement-2025-12") not in {(v[0], v[1]) for v in vertices}


def test_non_conforming_extraction_goes_to_the_review_queue_and_never_into_the_graph(
    owner_conn: psycopg.Connection, admin_conn: psycopg.Connection, app_conn: psycopg.Connection, tenant: str
) -> None:
    # An agreement whose table names an unknown supplier id and a name that belongs to another supplier.
    bad = AgreementSpec(
        document_id="agreement-2026-bad",
        company_id="COMP-A",
        title="x",
        effective_date=dt.date(2026, 1, 1),
        counterparty_note="x",
        approvals=(
            Approval("Omega Widgets GmbH", "SUP-999", "Widgets", dt.date(2026, 1, 1), None),
            Approval("Supplier Gamma", "SUP-18", "Mislabelled", dt.date(2026, 1, 1), None),
            Approval("Zeta Sensorik", "SUP-35", "Fine", dt.date(2026, 2, 1), None),
        ),
        layout=((12,),),
    )
    load_agreement(admin_conn, tenant, bad)
    # And an extractor proposing relationships the schema does not define.
    prov = Provenance(
        document_id="agreement-2026-bad", document_version=1, page=1, chunk_id="agreement-2026-bad-p01-c01",
        record_ref="llm/1", extraction_version="relation-extractor-5", extracted_at=dt.datetime.now(dt.UTC),
    )
    proposals = validate_extraction(
        ExtractionOutput(
            tenant_id=tenant, document_id="agreement-2026-bad", document_version=1,
            extraction_version="relation-extractor-5",
            relationships=(
                CandidateRelationship(type="VENDOR_OF", source_type="Supplier", source_id="SUP-18",
                                      target_type="Company", target_id="COMP-A", provenance=prov),
                CandidateRelationship(type="SUPPLIES_TO", source_type="Supplier", source_id="SUP-18",
                                      target_type="Company", target_id="COMP-A", provenance=prov),
                CandidateRelationship(type="SUPPLIES", source_type="Company", source_id="COMP-A",
                                      target_type="Product", target_id="PRD-482", provenance=prov),
            ),
        )
    )
    assert proposals.relationships == ()
    with owner_conn.transaction():
        assert record_rejections(owner_conn, tenant, proposals.rejections) == 3
    report = sync_tenant_graph(owner_conn, tenant)
    owner_conn.commit()
    assert report.edges_created == 2  # only the Zeta approval and its GOVERNED_BY edge
    rows = admin_conn.execute(
        "select reason, field from graph.review_queue where tenant_id = %s order by reason, field", (tenant,)
    ).fetchall()
    assert rows == [
        ("invalid_endpoint_type", "source_type"),
        ("resolution_conflict", "supplier_name"),
        ("unknown_relationship_type", "type"),
        ("unknown_relationship_type", "type"),
        ("unresolved_entity", "supplier_id"),
    ]
    _, edges = _snapshot(owner_conn, tenant)
    bad_edges = [e for e in edges if "agreement-2026-bad" in e[1]]
    assert sorted(e[0] for e in bad_edges) == ["APPROVED_VENDOR", "GOVERNED_BY"]
    assert all("SUP-35" in e[1] for e in bad_edges)
    assert {e[0] for e in edges} <= {"APPROVED_VENDOR", "GOVERNED_BY", "SUPPLIES", "BELONGS_TO", "PART_OF"}
    # Re-running adds no duplicate review items.
    assert sync_tenant_graph(owner_conn, tenant).review_items_added == 0
    owner_conn.commit()
    # The queue is tenant-scoped for the serving role.
    with tenant_transaction(app_conn, AuthContext(tenant, "reviewer")):
        assert app_conn.execute("select count(*) from graph.review_queue").fetchone() == (5,)
    with tenant_transaction(app_conn, AuthContext(unique_tenant("other"), "reviewer")):
        assert app_conn.execute("select count(*) from graph.review_queue").fetchone() == (0,)


def test_reviewed_alias_overrides_feed_resolution(admin_conn: psycopg.Connection, tenant: str) -> None:
    from graph.resolution import load_supplier_index

    admin_conn.execute(
        """
        insert into graph.alias_overrides (tenant_id, entity_type, alias_normalized, canonical_id, status)
        values (%(t)s, 'Supplier', 'beta sensorik', 'SUP-18', 'approved'),
               (%(t)s, 'Supplier', 'zeta sensorik', 'SUP-35', 'rejected'),
               (%(t)s, 'Supplier', 'gamma pending', 'SUP-27', 'pending')
        """,
        {"t": tenant},
    )
    index = load_supplier_index(admin_conn, tenant)
    assert index.resolve("Beta Sensorik GmbH").canonical_id == "SUP-18"
    assert index.resolve("Zeta Sensorik").status == "unresolved"  # the reviewer refused this alias
    assert index.resolve("Gamma Pending").status == "unresolved"  # not reviewed yet: not used
    assert index.resolve("Zeta Sensorik GmbH").status == "unresolved"
    assert index.resolve("Supplier Zeta").canonical_id == "SUP-35"
