"""Landing rows for the graph tests, built from the demo corpus's own master data (procura.demo.masterdata).

The rows are what ingestion writes for the corpus files (one document per master-data file, one per agreement
version), registered in ``ingest.documents`` as published versions. Written through a superuser connection
(setup only); every assertion about isolation uses procura_app.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime

import psycopg

from procura.demo.masterdata import AgreementSpec, TenantSpec

INGESTED_AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Doc:
    """One source document version to register."""

    document_id: str
    document_type: str
    version: int = 1


def _hash(doc: Doc, tenant_id: str) -> str:
    return "sha256:" + hashlib.sha256(f"{tenant_id}/{doc.document_id}/{doc.version}".encode()).hexdigest()


def register(conn: psycopg.Connection, tenant_id: str, doc: Doc, *, publish: bool = True) -> str:
    """Register a document version (staged or published) and return its content hash."""
    content_hash = _hash(doc, tenant_id)
    conn.execute(
        """
        insert into ingest.documents (tenant_id, document_id, document_type, source_uri)
        values (%s, %s, %s, %s) on conflict (tenant_id, document_id) do nothing
        """,
        (tenant_id, doc.document_id, doc.document_type, f"test://{tenant_id}/{doc.document_id}"),
    )
    conn.execute(
        """
        insert into ingest.document_versions (tenant_id, document_id, document_version, content_hash, status,
            original_content, parser_version, relational_schema_version)
        values (%s, %s, %s, %s, %s, %s, 'test', 'test') on conflict do nothing
        """,
        (tenant_id, doc.document_id, doc.version, content_hash, "published" if publish else "staged", b""),
    )
    if publish:
        publish_version(conn, tenant_id, doc.document_id, doc.version)
    return content_hash


def publish_version(conn: psycopg.Connection, tenant_id: str, document_id: str, version: int) -> None:
    """Make ``version`` the active version (what ingestion's publish does to the registry)."""
    conn.execute(
        "update ingest.documents set active_version = %s, is_deleted = false where tenant_id = %s and document_id = %s",
        (version, tenant_id, document_id),
    )


def delete_document(conn: psycopg.Connection, tenant_id: str, document_id: str) -> None:
    """Tombstone a document (what ingestion's delete does to the registry)."""
    conn.execute(
        "update ingest.documents set is_deleted = true where tenant_id = %s and document_id = %s",
        (tenant_id, document_id),
    )


def _insert(conn: psycopg.Connection, table: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    cols = ", ".join(columns)
    marks = ", ".join(["%s"] * len(columns))
    with conn.cursor() as cur:
        cur.executemany(f"insert into landing.{table} ({cols}) values ({marks})", list(rows))


def load_master_data(conn: psycopg.Connection, tenant_id: str, spec: TenantSpec) -> None:
    """Companies, suppliers (+ aliases), product groups and products as four published documents."""
    base = ("tenant_id", "document_id", "document_version", "content_hash", "ingested_at")

    def head(doc: Doc) -> tuple[object, ...]:
        return (tenant_id, doc.document_id, doc.version, register(conn, tenant_id, doc), INGESTED_AT)

    companies = Doc("companies", "companies")
    h = head(companies)
    _insert(conn, "companies", (*base, "company_id", "company_name", "reporting_currency"),
            [(*h, c.company_id, c.company_name, c.reporting_currency) for c in spec.companies])
    suppliers = Doc("suppliers", "suppliers")
    h = head(suppliers)
    _insert(conn, "suppliers", (*base, "supplier_id", "supplier_name", "country"),
            [(*h, s.supplier_id, s.supplier_name, s.country) for s in spec.suppliers])
    from ingest.normalize import normalize_supplier_name

    alias_rows: dict[str, tuple[object, ...]] = {}
    for s in spec.suppliers:
        for alias in s.aliases:
            normalized = normalize_supplier_name(alias)
            if normalized:
                alias_rows.setdefault(normalized, (*h, s.supplier_id, alias, normalized))
    _insert(conn, "supplier_aliases", (*base, "supplier_id", "alias", "alias_normalized"), alias_rows.values())
    groups = Doc("product_groups", "product_groups")
    h = head(groups)
    _insert(conn, "product_groups", (*base, "product_group_id", "group_name", "parent_group_id"),
            [(*h, g.product_group_id, g.group_name, g.parent_group_id) for g in spec.groups])
    products = Doc("products", "products")
    h = head(products)
    _insert(
        conn, "products",
        (*base, "product_code", "product_name", "product_group_id", "supplier_id", "unit_of_measure", "list_price",
         "currency"),
        [(*h, p.product_code, p.product_name, p.product_group_id, p.supplier_id, p.unit_of_measure, p.list_price,
          p.currency) for p in spec.products],
    )


def approval_page(agreement: AgreementSpec) -> int:
    """The page the approved-vendor table lands on (the page holding section 12)."""
    for page, sections in enumerate(agreement.layout, start=1):
        if 12 in sections:
            return page
    return len(agreement.layout)


def load_agreement(
    conn: psycopg.Connection, tenant_id: str, agreement: AgreementSpec, *, version: int = 1, publish: bool = True
) -> None:
    """One agreement version: its approved-vendor table as landing.vendor_approvals rows."""
    doc = Doc(agreement.document_id, "agreement", version)
    content_hash = register(conn, tenant_id, doc, publish=publish)
    page = approval_page(agreement)
    _insert(
        conn, "vendor_approvals",
        ("tenant_id", "document_id", "document_version", "content_hash", "ingested_at", "approval_id",
         "agreement_id", "company_id", "supplier_id", "supplier_name", "scope", "valid_from", "valid_to",
         "page_number", "chunk_id", "extraction_version"),
        [
            (tenant_id, doc.document_id, version, content_hash, INGESTED_AT,
             f"{agreement.document_id}-{a.supplier_id}", agreement.document_id, agreement.company_id,
             a.supplier_id, a.supplier_label, a.scope, a.valid_from, a.valid_to, page,
             f"{agreement.document_id}-p{page:02d}-c01", "vendor-table-1")
            for a in agreement.approvals
        ],
    )


def load_tenant(conn: psycopg.Connection, tenant_id: str, spec: TenantSpec) -> None:
    """Master data and every agreement (first version) of a demo tenant under ``tenant_id``."""
    load_master_data(conn, tenant_id, spec)
    for agreement in spec.agreements:
        load_agreement(conn, tenant_id, agreement)


def quarters(year: int) -> list[tuple[date, date]]:
    """The four half-open quarters of a year."""
    starts = [date(year, m, 1) for m in (1, 4, 7, 10)] + [date(year + 1, 1, 1)]
    return list(itertools.pairwise(starts))
