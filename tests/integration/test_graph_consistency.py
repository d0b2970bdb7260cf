"""Graph vs SQL vs ground truth: approved vendors for every company and quarter of 2026 of the demo corpus.

The demo corpus is generated for this run; its ``ground_truth.json`` is computed from the written files by the
generator's independent ground-truth module. The graph is built from landing rows holding the same master data
and agreements (amendments from ``updates/`` published as version 2), through the sync the pipeline runs at
publish. The SQL side is ``marts.vendor_approvals`` when dbt has built it in this database, otherwise the same
served-version rule over ``landing.vendor_approvals`` (the rule of ``stg_served_document_versions``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from graph.sync import sync_tenant_graph
from graph.tools import ApprovedVendorsRequest, find_approved_vendors
from procura.db.session import AuthContext
from procura.demo.generator import generate
from procura.demo.masterdata import TENANTS
from procura.settings import Settings
from tests.conftest import unique_tenant
from tests.integration.test_graph_support import load_agreement, load_master_data

pytestmark = pytest.mark.integration

_LANDING_SQL = """
    select distinct v.supplier_id
    from landing.vendor_approvals v
    join ingest.documents d
      on d.tenant_id = v.tenant_id and d.document_id = v.document_id
     and d.active_version = v.document_version and not d.is_deleted
    where v.tenant_id = %(tenant)s and v.company_id = %(company)s
      and v.valid_from < %(end)s and (v.valid_to is null or v.valid_to > %(start)s)
    order by 1
"""
_MART_SQL = """
    select distinct supplier_id from marts.vendor_approvals
    where tenant_id = %(tenant)s and company_id = %(company)s
      and valid_from < %(end)s and (valid_to is null or valid_to > %(start)s)
    order by 1
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo corpus (seed 42, scale 1), generated for this run."""
    out = tmp_path_factory.mktemp("graph-corpus") / "corpus"
    generate(out)
    return out


@pytest.fixture(scope="module")
def tenants(settings: Settings) -> Iterator[dict[str, str]]:
    """Corpus tenant id -> a fresh test tenant holding that tenant's master data and agreements (+ amendments)."""
    mapping = {spec.tenant_id: unique_tenant(spec.tenant_id.replace("tenant-", "c")) for spec in TENANTS}
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        for spec in TENANTS:
            load_master_data(admin, mapping[spec.tenant_id], spec)
            for agreement in spec.agreements:
                load_agreement(admin, mapping[spec.tenant_id], agreement)
                if agreement.amendment is not None:
                    load_agreement(admin, mapping[spec.tenant_id], agreement.amendment, version=2)
    with psycopg.connect(settings.owner_url) as owner:
        for tenant_id in mapping.values():
            sync_tenant_graph(owner, tenant_id)
        owner.commit()
    yield mapping


def _sql_vendors(admin: psycopg.Connection, params: dict[str, Any]) -> tuple[list[str], str]:
    has_mart = admin.execute("select to_regclass('marts.vendor_approvals') is not null").fetchone()
    if has_mart and has_mart[0]:
        rows = admin.execute(_MART_SQL, params).fetchall()
        if rows:
            return [r[0] for r in rows], "marts.vendor_approvals"
    return [r[0] for r in admin.execute(_LANDING_SQL, params).fetchall()], "landing.vendor_approvals"


def test_graph_equals_sql_and_ground_truth_for_every_company_and_quarter_of_2026(
    corpus: Path, tenants: dict[str, str], app_conn: psycopg.Connection, admin_conn: psycopg.Connection
) -> None:
    truth = json.loads((corpus / "ground_truth.json").read_text())
    questions = [q for q in truth["questions"] if q["kind"] == "approved_vendors"]
    companies = {(spec.tenant_id, c.company_id) for spec in TENANTS for c in spec.companies}
    covered = {(q["tenant_id"], q["parameters"]["company_id"]) for q in questions}
    assert covered == companies and len(questions) == 4 * len(companies)
    compared = 0
    for question in questions:
        tenant_id = tenants[question["tenant_id"]]
        p = question["parameters"]
        start, end = dt.date.fromisoformat(p["start_date"]), dt.date.fromisoformat(p["end_date"])
        graph = find_approved_vendors(
            app_conn, AuthContext(tenant_id, "consistency"),
            ApprovedVendorsRequest(company_id=p["company_id"], start_date=start, end_date=end),
        )
        sql, _ = _sql_vendors(admin_conn, {"tenant": tenant_id, "company": p["company_id"], "start": start,
                                           "end": end})
        expected = question["expected"]
        assert list(graph.supplier_ids) == sql == expected["supplier_ids"], question["name"]
        got = sorted(
            (a.agreement_id, v.supplier_id, a.valid_from.isoformat(), a.valid_to and a.valid_to.isoformat(),
             a.provenance.page)
            for v in graph.vendors for a in v.approvals
        )
        want = sorted(
            (a["agreement_id"], a["supplier_id"], a["valid_from"], a["valid_to"], a["page"])
            for a in expected["approvals"]
        )
        assert got == want, question["name"]
        compared += 1
    assert compared == 28


def test_the_seed_answer_matches_the_corpus_ground_truth(
    corpus: Path, tenants: dict[str, str], app_conn: psycopg.Connection
) -> None:
    from graph.tools import FindProductsRequest, find_products

    truth = json.loads((corpus / "ground_truth.json").read_text())
    seed = next(q for q in truth["questions"] if q["name"] == "seed_monitoring_spend_2026q1")
    p = seed["parameters"]
    ctx = AuthContext(tenants[seed["tenant_id"]], "consistency")
    vendors = find_approved_vendors(
        app_conn, ctx,
        ApprovedVendorsRequest(company_id=p["company_id"], start_date=dt.date.fromisoformat(p["start_date"]),
                               end_date=dt.date.fromisoformat(p["end_date"])),
    )
    assert set(p["supplier_ids"]) <= set(vendors.supplier_ids)
    products = find_products(
        app_conn, ctx, FindProductsRequest(supplier_ids=vendors.supplier_ids, group_name=p["product_group_name"])
    )
    assert list(products.product_codes) == sorted(p["product_codes"])
    assert {prod.supplier_id for prod in products.products} == set(p["supplier_ids"])
