"""Writes landing rows and document-registry entries the way the ingestion pipeline does, for marts tests.

Design note: the rows go in through the owner role, exactly where ingestion puts them (landing.* plus
ingest.documents with active_version), so the tests exercise the real served-version rule of staging.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

import psycopg

from ingest.normalize import normalize_supplier_name

D = Decimal


def _content_hash(*parts: object) -> str:
    return "sha256:" + hashlib.sha256(repr(parts).encode()).hexdigest()


@dataclass(frozen=True)
class Line:
    """One invoice line as the source writes it (credit notes may carry either sign)."""

    line_number: int
    product_code: str
    quantity: Decimal
    unit_price: Decimal
    line_net_amount: Decimal
    line_tax_amount: Decimal | None
    discount_amount: Decimal = Decimal(0)
    description: str = "item"


@dataclass(frozen=True)
class Invoice:
    """One invoice or credit-note document."""

    document_id: str
    invoice_number: str
    supplier_name: str
    invoice_date: date
    header_tax_amount: Decimal
    lines: tuple[Line, ...]
    document_type: str = "invoice"
    company_id: str = "COMP-A"
    status: str = "posted"
    posting_date: date | None = None
    currency: str = "EUR"
    tax_level: str = "line"
    source_system: str = "erp"
    original_invoice_number: str | None = None

    @property
    def posted_on(self) -> date:
        return self.posting_date or self.invoice_date

    def business_hash(self) -> str:
        """sha256 of the business content: everything except document_id and source_system."""
        business = {
            "document_type": self.document_type,
            "invoice_number": self.invoice_number,
            "company_id": self.company_id,
            "supplier_name": self.supplier_name,
            "status": self.status,
            "invoice_date": self.invoice_date.isoformat(),
            "posting_date": self.posted_on.isoformat(),
            "currency": self.currency,
            "tax_level": self.tax_level,
            "header_tax_amount": str(self.header_tax_amount),
            "original_invoice_number": self.original_invoice_number,
            "lines": [
                [ln.line_number, ln.product_code, str(ln.quantity), str(ln.unit_price), str(ln.discount_amount),
                 str(ln.line_net_amount), None if ln.line_tax_amount is None else str(ln.line_tax_amount)]
                for ln in self.lines
            ],
        }
        return "sha256:" + hashlib.sha256(json.dumps(business, sort_keys=True).encode()).hexdigest()

    def line_id(self, line: Line) -> str:
        return f"{self.document_id}-line-{line.line_number:02d}"


@dataclass(frozen=True)
class Supplier:
    supplier_id: str
    supplier_name: str
    aliases: tuple[str, ...] = ()
    country: str = "DE"


@dataclass
class LandingWriter:
    """Writes one tenant's documents into landing.* and registers them as active in ingest.documents."""

    conn: psycopg.Connection
    tenant_id: str
    versions: dict[str, int] = field(default_factory=dict)

    def register(self, document_id: str, document_type: str, version: int = 1) -> None:
        """Make ``version`` the active version of the document (creating the registry row if needed)."""
        self.conn.execute(
            """
            insert into ingest.documents (tenant_id, document_id, document_type, source_uri, active_version)
            values (%s, %s, %s, %s, %s)
            on conflict (tenant_id, document_id)
            do update set active_version = excluded.active_version, is_deleted = false, updated_at = now()
            """,
            (self.tenant_id, document_id, document_type, f"test://{self.tenant_id}/{document_id}", version),
        )
        self.versions[document_id] = version

    def delete(self, document_id: str) -> None:
        """Tombstone a document the way ingestion does: it stays in the registry, no version is served."""
        self.conn.execute(
            "update ingest.documents set is_deleted = true where tenant_id = %s and document_id = %s",
            (self.tenant_id, document_id),
        )

    def _key(self, document_id: str, version: int) -> tuple[str, str, int, str]:
        return (self.tenant_id, document_id, version, _content_hash(self.tenant_id, document_id, version))

    def companies(self, rows: Sequence[tuple[str, str, str]], document_id: str = "companies", version: int = 1) -> None:
        key = self._key(document_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.companies (tenant_id, document_id, document_version, content_hash, company_id,"
                " company_name, reporting_currency) values (%s, %s, %s, %s, %s, %s, %s)",
                [(*key, *row) for row in rows],
            )
        self.register(document_id, "companies", version)

    def suppliers(self, suppliers: Sequence[Supplier], document_id: str = "suppliers", version: int = 1) -> None:
        key = self._key(document_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.suppliers (tenant_id, document_id, document_version, content_hash, supplier_id,"
                " supplier_name, country, contact_email, iban) values (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (*key, s.supplier_id, s.supplier_name, s.country, f"ap@{s.supplier_id.lower()}.example",
                     "DE89370400440532013000")
                    for s in suppliers
                ],
            )
            aliases: dict[str, tuple[str, str]] = {}
            for s in suppliers:
                for alias in (s.supplier_name, *s.aliases):
                    normalized = normalize_supplier_name(alias)
                    if normalized is not None:
                        aliases.setdefault(normalized, (s.supplier_id, alias))
            cur.executemany(
                "insert into landing.supplier_aliases (tenant_id, document_id, document_version, content_hash,"
                " supplier_id, alias, alias_normalized) values (%s, %s, %s, %s, %s, %s, %s)",
                [(*key, supplier_id, alias, normalized) for normalized, (supplier_id, alias) in aliases.items()],
            )
        self.register(document_id, "suppliers", version)

    def product_groups(
        self,
        rows: Sequence[tuple[str, str, str | None]],
        document_id: str = "product-groups",
        version: int = 1,
        synonyms: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """Rows of (product_group_id, group_name, parent_group_id); synonyms as (product_group_id, language, name)."""
        key = self._key(document_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.product_groups (tenant_id, document_id, document_version, content_hash,"
                " product_group_id, group_name, parent_group_id) values (%s, %s, %s, %s, %s, %s, %s)",
                [(*key, *row) for row in rows],
            )
            if synonyms:
                cur.executemany(
                    "insert into landing.product_group_synonyms (tenant_id, document_id, document_version,"
                    " content_hash, product_group_id, language, synonym) values (%s, %s, %s, %s, %s, %s, %s)",
                    [(*key, *row) for row in synonyms],
                )
        self.register(document_id, "product_groups", version)

    def products(
        self, rows: Sequence[tuple[str, str, str, str]], document_id: str = "products", version: int = 1
    ) -> None:
        """Rows of (product_code, product_name, product_group_id, supplier_id)."""
        key = self._key(document_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.products (tenant_id, document_id, document_version, content_hash, product_code,"
                " product_name, product_group_id, supplier_id, unit_of_measure, list_price, currency)"
                " values (%s, %s, %s, %s, %s, %s, %s, %s, 'pcs', 100.0000, 'EUR')",
                [(*key, *row) for row in rows],
            )
        self.register(document_id, "products", version)

    def fx_rates(
        self, rows: Iterable[tuple[date, str, str, str, Decimal]], document_id: str = "fx-rates", version: int = 1
    ) -> None:
        """Rows of (rate_date, from_currency, to_currency, rate_type, rate)."""
        key = self._key(document_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.fx_rates (tenant_id, document_id, document_version, content_hash, rate_date,"
                " from_currency, to_currency, rate_type, rate) values (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [(*key, *row) for row in rows],
            )
        self.register(document_id, "fx_rates", version)

    def approvals(
        self,
        agreement_id: str,
        rows: Sequence[tuple[str, str, str, date, date | None]],
        version: int = 1,
    ) -> None:
        """Rows of (company_id, supplier_id, scope, valid_from, valid_to) of one agreement."""
        key = self._key(agreement_id, version)
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.vendor_approvals (tenant_id, document_id, document_version, content_hash,"
                " approval_id, agreement_id, company_id, supplier_id, supplier_name, scope, valid_from, valid_to,"
                " page_number, chunk_id, extraction_version)"
                " values (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, 12, %s, 'test-1')",
                [
                    (*key, f"{agreement_id}-{supplier_id}", agreement_id, company_id, supplier_id, supplier_id,
                     scope, valid_from, valid_to, f"{agreement_id}-p12-c03")
                    for company_id, supplier_id, scope, valid_from, valid_to in rows
                ],
            )
        self.register(agreement_id, "agreement", version)

    def payment_term(self, agreement_id: str, company_id: str, effective_date: date, term_days: int,
                     version: int = 1) -> None:
        """The "Payment is due N days net" term of one agreement version, with the published version record
        staging reads every agreement version from (a version is served only once it is published)."""
        key = self._key(agreement_id, version)
        self.conn.execute(
            "insert into ingest.document_versions (tenant_id, document_id, document_version, content_hash, status,"
            " original_content, parser_version, relational_schema_version, published_at)"
            " values (%s, %s, %s, %s, 'published', ''::bytea, 'test-1', 'test-1', now())"
            " on conflict do nothing",
            key,
        )
        self.conn.execute(
            "insert into landing.payment_terms (tenant_id, document_id, document_version, content_hash, agreement_id,"
            " company_id, effective_date, term_days, clause, sentence, page_number, chunk_id, extraction_version)"
            " values (%s, %s, %s, %s, %s, %s, %s, %s, '7. Payment', %s, 6, %s, 'test-1')",
            (*key, agreement_id, company_id, effective_date, term_days,
             f"Payment is due {term_days} days net after receipt of a correct invoice.", f"{agreement_id}-p06-c01"),
        )
        self.register(agreement_id, "agreement", version)

    def invoice(self, invoice: Invoice, version: int = 1) -> None:
        key = self._key(invoice.document_id, version)
        self.conn.execute(
            "insert into landing.invoice_headers (tenant_id, document_id, document_version, content_hash,"
            " business_hash, source_system, document_type, invoice_number, company_id, supplier_name, status,"
            " invoice_date, posting_date, currency, tax_level, header_tax_amount, original_invoice_number)"
            " values (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (*key, invoice.business_hash(), invoice.source_system, invoice.document_type, invoice.invoice_number,
             invoice.company_id, invoice.supplier_name, invoice.status, invoice.invoice_date, invoice.posted_on,
             invoice.currency, invoice.tax_level, invoice.header_tax_amount, invoice.original_invoice_number),
        )
        with self.conn.cursor() as cur:
            cur.executemany(
                "insert into landing.invoice_lines (tenant_id, document_id, document_version, content_hash, line_id,"
                " line_number, product_code, description, quantity, unit_price, discount_amount, line_net_amount,"
                " line_tax_amount) values (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (*key, invoice.line_id(ln), ln.line_number, ln.product_code, ln.description, ln.quantity,
                     ln.unit_price, ln.discount_amount, ln.line_net_amount, ln.line_tax_amount)
                    for ln in invoice.lines
                ],
            )
        self.register(invoice.document_id, invoice.document_type, version)
