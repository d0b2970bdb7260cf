"""End to end through the real ingestion pipeline: the graph writer is discovered and builds the graph at publish.

The demo corpus's tenant-42 master data and two agreements (plus the amendment from ``updates/``) are ingested with
``ingest.ingest_path`` under a tenant of this run, so other tests that ingest tenant-42 cannot interfere.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from graph.age import CypherQuery, age_transaction, graph_name_for_tenant, run_cypher
from graph.tools import ApprovedVendorsRequest, FindProductsRequest, find_approved_vendors, find_products
from procura.db.session import AuthContext
from procura.demo.generator import generate
from procura.settings import Settings
from tests.conftest import unique_tenant

pytestmark = pytest.mark.integration

AGREEMENTS = ("agreement-2026-04", "agreement-2025-09")
COMPANIES = ("COMP-A", "COMP-B")
_EDGES = CypherQuery("edges", "MATCH ()-[e]->() RETURN e.key, e.content_hash", ("key", "hash"))
_SQL = """
    select distinct v.supplier_id from landing.vendor_approvals v
    join ingest.documents d on d.tenant_id = v.tenant_id and d.document_id = v.document_id
     and d.active_version = v.document_version and not d.is_deleted
    where v.tenant_id = %s and v.company_id = %s and v.valid_from < %s and (v.valid_to is null or v.valid_to > %s)
    order by 1
"""


@pytest.fixture(scope="module")
def ingested(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(tenant, corpus): tenant-42's graph-relevant files ingested as a fresh tenant, amendment included."""
    from ingest import ingest_path

    root = tmp_path_factory.mktemp("graph-pipeline")
    corpus = root / "corpus"
    generate(corpus)
    tenant = unique_tenant("p42")
    src = corpus / "tenants" / "tenant-42"
    base = root / "base" / "tenants" / tenant
    # Master data and the agreements of Company A (the seed) and Company B (the one amended later); fewer
    # documents keep the embedding time of this test down.
    for name in ("companies.json", "suppliers.json", "catalog/product_groups.json", "catalog/products.csv",
                 *(f"agreements/{a}.md" for a in AGREEMENTS)):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src / name, base / name)
    update = root / "update" / "tenants" / tenant / "agreements"
    update.mkdir(parents=True)
    shutil.copy(corpus / "updates" / "tenants" / "tenant-42" / "agreements" / "agreement-2025-09.md", update)
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        first = ingest_path(conn, root / "base")
        assert first.dead_lettered == 0, first.outcomes
        second = ingest_path(conn, root / "update")
        assert (second.published, second.dead_lettered) == (1, 0), second.outcomes
    yield tenant, corpus


def _edges(conn: psycopg.Connection, tenant: str) -> list[tuple[str, str]]:
    with age_transaction(conn):
        return sorted((r["key"], r["hash"]) for r in run_cypher(conn, graph_name_for_tenant(tenant), _EDGES))


def test_pipeline_built_graph_answers_every_quarter_like_sql_and_the_ground_truth(
    ingested: tuple[str, Path], app_conn: psycopg.Connection, admin_conn: psycopg.Connection
) -> None:
    tenant, corpus = ingested
    truth = json.loads((corpus / "ground_truth.json").read_text())
    questions = [
        q for q in truth["questions"]
        if q["kind"] == "approved_vendors" and q["tenant_id"] == "tenant-42"
        and q["parameters"]["company_id"] in COMPANIES
    ]
    assert len(questions) == 8  # 2 companies x 4 quarters of 2026
    for q in questions:
        p = q["parameters"]
        start, end = dt.date.fromisoformat(p["start_date"]), dt.date.fromisoformat(p["end_date"])
        graph = find_approved_vendors(
            app_conn, AuthContext(tenant, "e2e"),
            ApprovedVendorsRequest(company_id=p["company_id"], start_date=start, end_date=end),
        )
        sql = [r[0] for r in admin_conn.execute(_SQL, (tenant, p["company_id"], end, start)).fetchall()]
        assert list(graph.supplier_ids) == sql == q["expected"]["supplier_ids"], q["name"]


def test_seed_answer_cites_real_chunks_of_the_published_version(
    ingested: tuple[str, Path], app_conn: psycopg.Connection, admin_conn: psycopg.Connection
) -> None:
    tenant, _ = ingested
    ctx = AuthContext(tenant, "e2e")
    vendors = find_approved_vendors(
        app_conn, ctx,
        ApprovedVendorsRequest(company_id="COMP-A", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 4, 1)),
    )
    assert vendors.supplier_ids == ("SUP-18", "SUP-27", "SUP-31")
    chunk_ids = {a.provenance.chunk_id for v in vendors.vendors for a in v.approvals}
    pages = {a.provenance.page for v in vendors.vendors for a in v.approvals}
    assert pages == {12} and len(chunk_ids) == 1
    (chunk_id,) = chunk_ids
    stored = admin_conn.execute(
        "select c.page, position('SUP-31' in c.chunk_text) > 0 from ingest.chunks c "
        "join ingest.documents d on d.tenant_id = c.tenant_id and d.document_id = c.document_id "
        "and d.active_version = c.document_version where c.tenant_id = %s and c.chunk_id = %s",
        (tenant, chunk_id),
    ).fetchone()
    assert stored == (12, True)
    products = find_products(
        app_conn, ctx, FindProductsRequest(supplier_ids=vendors.supplier_ids, group_name="Monitoring Products")
    )
    assert "PRD-482" in products.product_codes and set(products.product_codes) == {
        "PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-611", "PRD-612"
    }


def test_replay_changes_nothing_and_reconcile_detects_and_repairs_graph_drift(
    ingested: tuple[str, Path], settings: Settings, app_conn: psycopg.Connection, tmp_path: Path
) -> None:
    from ingest import ingest_path
    from ingest.reconcile import reconcile

    tenant, corpus = ingested
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        before = _edges(conn, tenant)
        # Replay the sources as they are now served: the originals, with the amendment in place of its v1.
        sources = conn.execute(
            "select source_uri from ingest.documents where tenant_id = %s order by document_id", (tenant,)
        ).fetchall()
        replay_root = tmp_path / "replay" / "tenants" / tenant
        for (uri,) in sources:
            relative = Path(uri.split(f"/tenants/{tenant}/", 1)[1])
            (replay_root / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(uri, replay_root / relative)
        assert (replay_root / "agreements" / "agreement-2025-09.md").read_bytes() == (
            corpus / "updates" / "tenants" / "tenant-42" / "agreements" / "agreement-2025-09.md"
        ).read_bytes()
        replay = ingest_path(conn, tmp_path / "replay")
        assert replay.published == 0 and replay.dead_lettered == 0
        assert _edges(conn, tenant) == before

        clean = reconcile(conn, tenant=tenant)
        assert not [d for d in clean.drifts if d.store == "graph"], clean.drifts
        with age_transaction(conn):
            run_cypher(conn, graph_name_for_tenant(tenant), CypherQuery(
                "inject", "MATCH ()-[e:APPROVED_VENDOR]->(s:Supplier {id: 'SUP-31'}) DELETE e RETURN count(*)", ("n",)
            ))
        drifted = reconcile(conn, tenant=tenant)
        graph_drift = [d for d in drifted.drifts if d.store == "graph"]
        assert [(d.document_id, d.kind) for d in graph_drift] == [("agreement-2026-04", "store_drift")]
        repaired = reconcile(conn, tenant=tenant, repair=True)
        assert repaired.ok, repaired.unrepaired
        assert _edges(conn, tenant) == before
    vendors = find_approved_vendors(
        app_conn, AuthContext(tenant, "e2e"),
        ApprovedVendorsRequest(company_id="COMP-A", start_date=dt.date(2026, 1, 1), end_date=dt.date(2026, 4, 1)),
    )
    assert "SUP-31" in vendors.supplier_ids
