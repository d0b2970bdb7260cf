"""The traversal tools as procura_app: the seed answers with provenance, bounds, and tenant isolation."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator

import psycopg
import pytest
from pydantic import ValidationError

from graph.age import graph_name_for_tenant
from graph.errors import GraphNotFoundError, ResultLimitError
from graph.sync import sync_tenant_graph
from graph.tools import (
    ApprovalPathRequest,
    ApprovedVendorsRequest,
    FindProductsRequest,
    ProductPathRequest,
    find_approved_vendors,
    find_products,
    path_with_provenance,
)
from procura.db.session import AuthContext, tenant_transaction
from procura.demo.masterdata import TENANT_17, TENANT_42
from procura.errors import AuthorizationError
from procura.settings import Settings
from tests.conftest import unique_tenant
from tests.integration.test_graph_support import load_tenant

pytestmark = pytest.mark.integration

Q1 = {"start_date": dt.date(2026, 1, 1), "end_date": dt.date(2026, 4, 1)}
SEED_MONITORING = {"PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-611", "PRD-612"}


@pytest.fixture(scope="module")
def tenants(settings: Settings) -> Iterator[tuple[str, str]]:
    """Tenant A holds the seed scenario (tenant-42's data), tenant B tenant-17's (same ids, other facts)."""
    tenant_a, tenant_b = unique_tenant("t42"), unique_tenant("t17")
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        load_tenant(admin, tenant_a, TENANT_42)
        load_tenant(admin, tenant_b, TENANT_17)
    with psycopg.connect(settings.owner_url) as owner:
        sync_tenant_graph(owner, tenant_a)
        sync_tenant_graph(owner, tenant_b)
        owner.commit()
    yield tenant_a, tenant_b


def test_seed_traversal_returns_the_ground_truth_with_provenance(
    app_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    ctx = AuthContext(tenants[0], "analyst")
    vendors = find_approved_vendors(app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-A", **Q1))
    assert vendors.supplier_ids == ("SUP-18", "SUP-27", "SUP-31")
    for vendor in vendors.vendors:
        (approval,) = vendor.approvals
        assert approval.provenance.document_id == "agreement-2026-04"
        assert approval.provenance.page == 12
        assert approval.provenance.chunk_id == "agreement-2026-04-p12-c01"
        assert approval.provenance.extraction_version == "graph-extract-1"
    products = find_products(
        app_conn, ctx, FindProductsRequest(supplier_ids=vendors.supplier_ids, group_name="Monitoring Products")
    )
    assert set(products.product_codes) == SEED_MONITORING
    assert not [p for p in products.products if p.supplier_id == "SUP-31"]  # Delta: no monitoring products
    prd_482 = next(p for p in products.products if p.product_code == "PRD-482")
    assert (prd_482.supplier_id, prd_482.group_path) == ("SUP-18", ("PG-PRES", "PG-SENS", "PG-MON"))
    assert [e.type.value for e in prd_482.edges] == ["SUPPLIES", "BELONGS_TO", "PART_OF", "PART_OF"]
    assert {e.provenance.document_id for e in prd_482.edges} == {"products", "product_groups"}
    by_id = find_products(
        app_conn, ctx, FindProductsRequest(supplier_ids=vendors.supplier_ids, group_id="PG-MON")
    )
    assert by_id.product_codes == products.product_codes


def test_half_open_overlap_at_the_boundaries(app_conn: psycopg.Connection, tenants: tuple[str, str]) -> None:
    ctx = AuthContext(tenants[0], "analyst")

    def ids(start: dt.date, end: dt.date) -> set[str]:
        request = ApprovedVendorsRequest(company_id="COMP-A", start_date=start, end_date=end)
        return set(find_approved_vendors(app_conn, ctx, request).supplier_ids)

    # SUP-22 is valid [2025-07-01, 2026-01-01), SUP-31 [2026-01-01, 2026-07-01), SUP-35 from 2026-07-01.
    assert ids(dt.date(2026, 1, 1), dt.date(2026, 1, 2)) == {"SUP-18", "SUP-27", "SUP-31"}
    assert ids(dt.date(2025, 12, 31), dt.date(2026, 1, 1)) == {"SUP-18", "SUP-22", "SUP-27"}
    assert ids(dt.date(2026, 6, 30), dt.date(2026, 7, 1)) == {"SUP-18", "SUP-27", "SUP-31"}
    assert ids(dt.date(2026, 7, 1), dt.date(2026, 7, 2)) == {"SUP-18", "SUP-27", "SUP-35"}
    with pytest.raises(ValidationError, match="end_date"):
        ApprovedVendorsRequest(company_id="COMP-A", start_date=dt.date(2026, 4, 1), end_date=dt.date(2026, 4, 1))


def test_depth_comes_from_an_allow_list(app_conn: psycopg.Connection, tenants: tuple[str, str]) -> None:
    ctx = AuthContext(tenants[0], "analyst")
    shallow = find_products(
        app_conn, ctx,
        FindProductsRequest(supplier_ids=("SUP-18", "SUP-27"), group_name="Monitoring Products", max_depth=1),
    )
    assert set(shallow.product_codes) == {"PRD-611", "PRD-612"}  # PG-MCTL is one hop below PG-MON
    with pytest.raises(ValidationError):
        FindProductsRequest(supplier_ids=("SUP-18",), group_name="Monitoring Products", max_depth=4)  # type: ignore[arg-type]  # the point
    with pytest.raises(ValidationError):
        FindProductsRequest(supplier_ids=("SUP-18",), group_name="Monitoring Products", relationship="VENDOR_OF")  # type: ignore[call-arg]  # the point


_SQL_PRODUCTS = """
with recursive
served as (
    select document_id, active_version from ingest.documents
    where tenant_id = %(tenant)s and active_version is not null and not is_deleted
),
product_groups as (
    select g.* from landing.product_groups g
    join served s on s.document_id = g.document_id and s.active_version = g.document_version
    where g.tenant_id = %(tenant)s
),
subtree (product_group_id, depth) as (
    select product_group_id, 0 from product_groups where product_group_id = %(group)s
    union all
    select g.product_group_id, t.depth + 1 from product_groups g
    join subtree t on g.parent_group_id = t.product_group_id
    where t.depth < %(depth)s
)
select distinct p.supplier_id, p.product_code
from landing.products p
join served s on s.document_id = p.document_id and s.active_version = p.document_version
join subtree t on t.product_group_id = p.product_group_id
where p.tenant_id = %(tenant)s and p.supplier_id = any(%(suppliers)s)
order by 1, 2
"""


def test_find_products_gives_the_rows_of_a_recursive_cte_for_every_group_depth_and_supplier_set(
    app_conn: psycopg.Connection, admin_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    """Same rows as SQL over the served landing rows: every group of the seed (roots, inner groups, leaves), every
    allowed depth, one supplier (the template still has two slots) and all of them."""
    tenant = tenants[0]
    ctx = AuthContext(tenant, "analyst")
    groups = [r[0] for r in admin_conn.execute(
        "select product_group_id from landing.product_groups where tenant_id = %s order by 1", (tenant,))]  # fmt: skip
    suppliers = sorted({r[0] for r in admin_conn.execute(
        "select supplier_id from landing.products where tenant_id = %s", (tenant,))})  # fmt: skip
    assert len(groups) > 3 and len(suppliers) > 1
    checked = 0
    for group in groups:
        for depth in (0, 1, 2, 3):
            for chosen in ([suppliers[0]], suppliers):
                params = {"tenant": tenant, "group": group, "depth": depth, "suppliers": chosen}
                expected = [tuple(r) for r in admin_conn.execute(_SQL_PRODUCTS, params)]
                response = find_products(app_conn, ctx, FindProductsRequest(
                    supplier_ids=tuple(chosen), group_id=group, max_depth=depth, limit=1000))  # fmt: skip
                got = [(p.supplier_id, p.product_code) for p in response.products]
                assert got == expected, (group, depth, chosen)
                for p in response.products:  # the path is the PART_OF chain from the product's group up
                    assert p.group_path[0] == p.product_group_id and p.group_path[-1] == group
                    assert len(p.group_path) - 1 <= depth
                    assert [e.type.value for e in p.edges] == ["SUPPLIES", "BELONGS_TO"] + ["PART_OF"] * (
                        len(p.group_path) - 1)  # fmt: skip
                checked += len(got)
    assert checked > 0


def test_result_size_is_capped(app_conn: psycopg.Connection, tenants: tuple[str, str]) -> None:
    ctx = AuthContext(tenants[0], "analyst")
    request = FindProductsRequest(supplier_ids=("SUP-18", "SUP-27"), group_name="Monitoring Products", limit=2)
    with pytest.raises(ResultLimitError):
        find_products(app_conn, ctx, request)


def test_paths_with_provenance_explain_each_answer(app_conn: psycopg.Connection, tenants: tuple[str, str]) -> None:
    ctx = AuthContext(tenants[0], "analyst")
    approval = path_with_provenance(
        app_conn, ctx, ApprovalPathRequest(company_id="COMP-A", supplier_id="SUP-27", **Q1)
    )
    (path,) = approval.paths
    assert [(n.label, n.id) for n in path.nodes] == [
        ("Company", "COMP-A"), ("Supplier", "SUP-27"), ("Agreement", "agreement-2026-04")
    ]
    assert [e.type.value for e in path.edges] == ["APPROVED_VENDOR", "GOVERNED_BY"]
    assert path.sources == ("agreement-2026-04-p12-c01",)
    assert path.nodes[1].provenance.document_id == "suppliers"
    product = path_with_provenance(
        app_conn, ctx,
        ProductPathRequest(supplier_id="SUP-18", product_code="PRD-486", group_name="Monitoring Products"),
    )
    (path,) = product.paths
    assert [n.id for n in path.nodes] == ["SUP-18", "PRD-486", "PG-PRES-WL", "PG-PRES", "PG-SENS", "PG-MON"]
    assert all(e.provenance.extraction_version == "graph-extract-1" for e in path.edges)
    unsupported = path_with_provenance(
        app_conn, ctx, ApprovalPathRequest(company_id="COMP-A", supplier_id="SUP-35", **Q1)
    )
    assert unsupported.paths == ()


def test_the_same_ids_answer_from_the_own_tenants_graph_only(
    app_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    tenant_a, tenant_b = tenants
    a = find_approved_vendors(app_conn, AuthContext(tenant_a, "u"), ApprovedVendorsRequest(company_id="COMP-A", **Q1))
    b = find_approved_vendors(app_conn, AuthContext(tenant_b, "u"), ApprovedVendorsRequest(company_id="COMP-A", **Q1))
    assert a.supplier_ids == ("SUP-18", "SUP-27", "SUP-31")
    assert b.supplier_ids == ("SUP-07", "SUP-18", "SUP-33")
    assert {v.supplier_name for v in b.vendors if v.supplier_id == "SUP-18"} == {"Northwind Sensors Ltd"}
    b_products = find_products(
        app_conn, AuthContext(tenant_b, "u"),
        FindProductsRequest(supplier_ids=("SUP-18",), group_name="Monitoring Products"),
    )
    assert {(p.product_code, p.product_name) for p in b_products.products} >= {
        ("PRD-482", "Differential pressure sensor DP-10")
    }
    with pytest.raises(GraphNotFoundError):
        find_approved_vendors(
            app_conn, AuthContext(unique_tenant("nograph"), "u"), ApprovedVendorsRequest(company_id="COMP-A", **Q1)
        )


def test_find_products_in_one_pipeline_fails_typed_and_leaves_the_connection_usable(
    settings: Settings, app_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    tenant_a, _ = tenants
    request = FindProductsRequest(supplier_ids=("SUP-18",), group_name="Monitoring Products")
    with pytest.raises(GraphNotFoundError):
        find_products(app_conn, AuthContext(unique_tenant("nograph"), "u"), request)
    # the scope's role check fails on the server, inside the pipeline: typed, and nothing ran
    with psycopg.connect(settings.owner_url, autocommit=True) as owner, pytest.raises(AuthorizationError):
        find_products(owner, AuthContext(tenant_a, "u"), request)
    pipelined = find_products(app_conn, AuthContext(tenant_a, "u"), request)
    assert pipelined.product_codes and app_conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    # a connection inside a transaction is refused, as every tenant transaction refuses it
    app_conn.autocommit = False
    try:
        app_conn.execute("select 1")
        with pytest.raises(AuthorizationError, match="not inside a transaction"):
            find_products(app_conn, AuthContext(tenant_a, "u"), request)
    finally:
        app_conn.rollback()
        app_conn.autocommit = True


def test_vendor_and_path_tools_in_one_pipeline_fail_typed_and_cap_after_the_version_check(
    settings: Settings, app_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    tenant_a, _ = tenants
    ctx = AuthContext(tenant_a, "u")
    vendors = ApprovedVendorsRequest(company_id="COMP-A", **Q1)
    path = ApprovalPathRequest(company_id="COMP-A", supplier_id="SUP-27", **Q1)
    with pytest.raises(GraphNotFoundError):
        path_with_provenance(app_conn, AuthContext(unique_tenant("nograph"), "u"), path)
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        with pytest.raises(AuthorizationError):
            find_approved_vendors(owner, ctx, vendors)
        with pytest.raises(AuthorizationError):
            path_with_provenance(owner, ctx, path)
    assert find_approved_vendors(app_conn, ctx, vendors).supplier_ids == ("SUP-18", "SUP-27", "SUP-31")
    assert app_conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    # the cap counts the rows of active versions (the statement itself has no LIMIT)
    with pytest.raises(ResultLimitError):
        find_approved_vendors(app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-A", limit=2, **Q1))
    assert len(find_approved_vendors(app_conn, ctx, ApprovedVendorsRequest(company_id="COMP-A", limit=3, **Q1))
               .vendors) == 3  # fmt: skip
    app_conn.autocommit = False
    try:
        app_conn.execute("select 1")
        with pytest.raises(AuthorizationError, match="not inside a transaction"):
            path_with_provenance(app_conn, ctx, path)
    finally:
        app_conn.rollback()
        app_conn.autocommit = True


def _raw_cypher(conn: psycopg.Connection, graph_name: str, cypher: str) -> list[tuple[str, ...]]:
    return conn.execute(
        f"select * from ag_catalog.cypher('{graph_name}', $$ {cypher} $$, %s) as (v ag_catalog.agtype)",
        (json.dumps({}),),
    ).fetchall()


def test_procura_app_of_tenant_a_cannot_read_tenant_bs_graph_even_by_naming_it(
    app_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    tenant_a, tenant_b = tenants
    graph_a, graph_b = graph_name_for_tenant(tenant_a).value, graph_name_for_tenant(tenant_b).value
    with tenant_transaction(app_conn, AuthContext(tenant_a, "attacker")):
        app_conn.execute("select set_config('search_path', 'ag_catalog, public', true)")
        own = _raw_cypher(app_conn, graph_a, "MATCH (s:Supplier) RETURN s.id")
        assert len(own) == len(TENANT_42.suppliers)
        assert _raw_cypher(app_conn, graph_b, "MATCH (s:Supplier) RETURN s.id") == []
        assert _raw_cypher(app_conn, graph_b, "MATCH (n) RETURN n") == []
        assert _raw_cypher(app_conn, graph_b, "MATCH p = ()-[:PART_OF*1..3]->() RETURN p") == []
        assert app_conn.execute(f'select count(*) from {graph_b}."_ag_label_edge"').fetchone() == (0,)
    # No tenant at all: no rows from any graph.
    with app_conn.transaction():
        app_conn.execute("select set_config('search_path', 'ag_catalog, public', true)")
        assert _raw_cypher(app_conn, graph_a, "MATCH (n) RETURN n") == []


def test_procura_app_has_exactly_read_grants_on_tenant_graphs(
    app_conn: psycopg.Connection, admin_conn: psycopg.Connection, tenants: tuple[str, str]
) -> None:
    graph_a = graph_name_for_tenant(tenants[0]).value
    privileges = admin_conn.execute(
        """
        select has_schema_privilege('procura_app', %s, 'USAGE'), has_schema_privilege('procura_app', %s, 'CREATE'),
               bool_and(has_table_privilege('procura_app', c.oid, 'SELECT')),
               bool_or(has_table_privilege('procura_app', c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')),
               bool_and(c.relrowsecurity and c.relforcerowsecurity)
        from pg_class c where c.relnamespace = %s::regnamespace and c.relkind = 'r'
        """,
        (graph_a, graph_a, graph_a),
    ).fetchone()
    assert privileges == (True, False, True, False, True)
    with (
        pytest.raises(psycopg.errors.InsufficientPrivilege),
        tenant_transaction(app_conn, AuthContext(tenants[0], "attacker"), read_only=False),
    ):
        app_conn.execute("select set_config('search_path', 'ag_catalog, public', true)")
        _raw_cypher(app_conn, graph_a, "CREATE (s:Supplier {id: 'SUP-666'}) RETURN s")
