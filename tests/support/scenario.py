"""The accounting-policy scenario of the marts tests, and the expected numbers computed independently in Python.

Tenant A holds every case of the policy; tenant B reuses the same ids (COMP-A, SUP-18, PRD-482, INV-1) with
different data, so a leak between tenants or a cross-tenant duplicate match changes the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from decimal import ROUND_DOWN, Decimal

import psycopg

from tests.support.landing import Invoice, LandingWriter, Line, Supplier

D = Decimal
FX_USD_EUR_CORPORATE = D("0.92000000")
Q1 = (date(2026, 1, 1), date(2026, 4, 1))


def _lt(n: int, product: str, qty: str, price: str, net: str, tax: str | None, disc: str = "0") -> Line:
    return Line(n, product, D(qty), D(price), D(net), None if tax is None else D(tax), D(disc))


def tenant_a_invoices() -> list[Invoice]:
    """Every policy case, in ingestion order."""
    original = Invoice(
        "invoice-5", "INV-5", "Gamma Control Systems AG", date(2026, 2, 3), D("114.00"),
        (_lt(1, "PRD-611", "2", "300.00", "600.00", "114.00"),),
    )
    return [
        Invoice("invoice-1", "INV-1", "Beta Supplies GmbH", date(2026, 1, 10), D("399.00"),
                (_lt(1, "PRD-482", "10", "200.00", "1900.00", "361.00", disc="100.00"),
                 _lt(2, "PRD-483", "5", "40.00", "200.00", "38.00"))),
        Invoice("credit-note-1", "CN-1", "BETA SUPPLIES", date(2026, 1, 20), D("-76.00"),
                (_lt(1, "PRD-482", "-2", "-200.00", "-400.00", "-76.00"),),
                document_type="credit_note", original_invoice_number="INV-1"),
        Invoice("credit-note-2", "CN-2", "Supplier Beta", date(2026, 1, 21), D("38.00"),
                (_lt(1, "PRD-482", "1", "200.00", "200.00", "38.00"),),
                document_type="credit_note", original_invoice_number="INV-1"),
        Invoice("invoice-3", "INV-3", "Supplier Gamma", date(2026, 2, 1), D("190.00"),
                (_lt(1, "PRD-611", "1", "1000.00", "1000.00", "190.00"),), status="cancelled"),
        Invoice("invoice-4", "INV-4", "Supplier Gamma", date(2026, 2, 2), D("9.50"),
                (_lt(1, "PRD-611", "1", "50.00", "50.00", "9.50"),), status="draft"),
        original,
        # the same invoice exported again by a second system, ingested later: a replicated duplicate
        replace(original, document_id="invoice-5-erp-replica", source_system="erp-replica"),
        Invoice("invoice-6", "INV-6", "Beta Supplies GmbH", date(2026, 2, 14), D("361.00"),
                (_lt(1, "PRD-482", "10", "200.00", "1900.00", "361.00", disc="100.00"),),
                posting_date=date(2026, 2, 16), currency="USD"),
        Invoice("invoice-7", "INV-7", "Supplier Gamma", date(2026, 3, 1), D("19.00"),
                (_lt(1, "PRD-611", "1", "10.01", "10.01", None), _lt(2, "PRD-611", "1", "30.02", "30.02", None),
                 _lt(3, "PRD-611", "1", "60.04", "60.04", None)),
                status="paid", tax_level="invoice"),
        Invoice("invoice-8", "INV-8", "Supplier Beta", date(2026, 3, 5), D("19.00"),
                (_lt(1, "PRD-482", "1", "100.00", "100.00", "19.00"),), currency="GBP"),
        Invoice("invoice-9", "INV-9", "Omega Unknown Ltd", date(2026, 3, 6), D("19.00"),
                (_lt(1, "PRD-482", "1", "100.00", "100.00", "19.00"),)),
        Invoice("invoice-10", "INV-10", "Supplier Beta", date(2026, 3, 7), D("2.09"),
                (_lt(1, "PRD-482", "1", "10.00", "10.00", "1.90"), _lt(2, "PRD-999", "1", "1.00", "1.00", "0.19"))),
        Invoice("invoice-11", "INV-11", "Supplier Beta", date(2026, 4, 2), D("19.00"),
                (_lt(1, "PRD-482", "1", "100.00", "100.00", "19.00"),)),
    ]


def invoice_12_versions() -> tuple[Invoice, Invoice]:
    """A document updated after ingestion: only version 2 may be served."""
    v1 = Invoice("invoice-12", "INV-12", "Supplier Beta", date(2026, 3, 10), D("19.00"),
                 (_lt(1, "PRD-482", "1", "100.00", "100.00", "19.00"),))
    v2 = Invoice("invoice-12", "INV-12", "Supplier Beta", date(2026, 3, 10), D("28.50"),
                 (_lt(1, "PRD-482", "1", "150.00", "150.00", "28.50"),))
    return v1, v2


DELETED = Invoice("invoice-13", "INV-13", "Supplier Beta", date(2026, 3, 11), D("190.00"),
                  (_lt(1, "PRD-482", "10", "100.00", "1000.00", "190.00"),))
QUARANTINED = Invoice("invoice-14", "INV-14", "Supplier Beta", date(2026, 3, 12), D("95.00"),
                      (_lt(1, "PRD-482", "5", "100.00", "500.00", "95.00"),))

TENANT_B_INVOICE = Invoice("invoice-1", "INV-1", "Northwind Sensors", date(2026, 1, 10), D("189.81"),
                           (_lt(1, "PRD-482", "1", "999.00", "999.00", "189.81"),))


def seed_tenant_a(conn: psycopg.Connection, tenant_id: str) -> LandingWriter:
    """Master data, approvals, FX and every policy invoice of tenant A (as ingestion would land them)."""
    writer = LandingWriter(conn, tenant_id)
    writer.companies([("COMP-A", "Company A", "EUR"), ("COMP-B", "Company B", "EUR")])
    writer.suppliers([
        Supplier("SUP-18", "Supplier Beta", ("Beta Supplies GmbH", "BETA SUPPLIES")),
        Supplier("SUP-27", "Supplier Gamma", ("Gamma Control Systems AG",)),
        Supplier("SUP-31", "Supplier Delta", ("Delta Cabinets Ltd",)),
    ])
    writer.product_groups([
        ("PG-MON", "Monitoring Products", None),
        ("PG-SENS", "Sensors", "PG-MON"),
        ("PG-PRES", "Pressure Sensors", "PG-SENS"),
        ("PG-CTRL", "Control Modules", None),
    ], synonyms=[("PG-MON", "de", "Überwachungsprodukte"), ("PG-SENS", "de", "Sensoren")])
    writer.products([
        ("PRD-482", "Differential pressure sensor", "PG-PRES", "SUP-18"),
        ("PRD-483", "Temperature sensor", "PG-SENS", "SUP-18"),
        ("PRD-611", "Monitoring controller", "PG-CTRL", "SUP-27"),
    ])
    writer.fx_rates([
        (date(2026, 2, 16), "USD", "EUR", "corporate", FX_USD_EUR_CORPORATE),
        (date(2026, 2, 16), "USD", "EUR", "spot", D("0.91000000")),
        (date(2026, 2, 20), "GBP", "EUR", "corporate", D("1.17000000")),
    ])
    writer.approvals("agreement-2026-04", [
        ("COMP-A", "SUP-18", "Industrial sensors", date(2025, 7, 1), None),
        ("COMP-A", "SUP-27", "Control modules", date(2025, 10, 1), None),
        ("COMP-A", "SUP-31", "Control cabinets", date(2026, 1, 1), date(2026, 7, 1)),
    ])
    writer.payment_term("agreement-2026-04", "COMP-A", date(2025, 7, 1), 30)
    for invoice in tenant_a_invoices():
        writer.invoice(invoice)
    v1, v2 = invoice_12_versions()
    writer.invoice(v1, version=1)
    writer.invoice(v2, version=2)
    writer.invoice(DELETED)
    writer.delete(DELETED.document_id)
    writer.invoice(QUARANTINED)
    conn.execute(
        "insert into ingest.quarantine (tenant_id, document_id, document_version, suite_name, expectation, details)"
        " values (%s, %s, 1, 'landing_invoice_lines', 'manual_hold', '{}')",
        (tenant_id, QUARANTINED.document_id),
    )
    return writer


def seed_tenant_b(conn: psycopg.Connection, tenant_id: str) -> LandingWriter:
    """Another customer with the same ids and different data."""
    writer = LandingWriter(conn, tenant_id)
    writer.companies([("COMP-A", "Other Company A", "EUR")])
    writer.suppliers([Supplier("SUP-18", "Northwind Sensors Ltd")])
    writer.product_groups([("PG-MON", "Monitoring", None)])
    writer.products([("PRD-482", "Another product", "PG-MON", "SUP-18")])
    writer.fx_rates([(date(2026, 2, 16), "USD", "EUR", "corporate", D("0.50000000"))])
    writer.approvals("agreement-2026-04", [("COMP-A", "SUP-18", "Everything", date(2025, 1, 1), None)])
    # the same business key as tenant A's INV-1 in another tenant is not a duplicate
    writer.invoice(TENANT_B_INVOICE)
    return writer


# -- the policy in plain Python, for the expected numbers --------------------------------------------------------

@dataclass(frozen=True)
class ExpectedLine:
    line_id: str
    invoice_number: str
    document_type: str
    status: str
    invoice_date: date
    quantity: Decimal
    net: Decimal
    tax: Decimal
    fx: Decimal

    @property
    def sign(self) -> int:
        return -1 if self.document_type == "credit_note" else 1

    @property
    def spend(self) -> Decimal:
        return self.sign * (self.net + self.tax) * self.fx


def allocate(header_tax: Decimal, nets: list[Decimal]) -> list[Decimal]:
    """Invoice-level tax allocation written the naive way (Decimal shares, quantize down, largest remainder)."""
    total = sum(nets)
    exact = [header_tax * n / total for n in nets]
    floors = [e.quantize(D("0.01"), rounding=ROUND_DOWN) for e in exact]
    leftover = int((header_tax - sum(floors)) * 100)
    order = sorted(range(len(nets)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:leftover]:
        floors[i] += D("0.01")
    return floors


def expected_governed_lines(invoices: Iterable[Invoice]) -> list[ExpectedLine]:
    """The lines of the scenario that must be governed (valid), with magnitudes, tax and FX."""
    rates = {("USD", date(2026, 2, 16)): FX_USD_EUR_CORPORATE}
    out: list[ExpectedLine] = []
    for inv in invoices:
        if inv.currency != "EUR" and (inv.currency, inv.posted_on) not in rates:
            continue  # missing_fx_rate
        if inv.supplier_name == "Omega Unknown Ltd":
            continue  # unknown_supplier
        fx = D("1") if inv.currency == "EUR" else rates[(inv.currency, inv.posted_on)]
        nets = [abs(ln.line_net_amount) for ln in inv.lines]
        taxes = (allocate(abs(inv.header_tax_amount), nets) if inv.tax_level == "invoice"
                 else [abs(ln.line_tax_amount or D(0)) for ln in inv.lines])
        for ln, net, tax in zip(inv.lines, nets, taxes, strict=True):
            if ln.product_code == "PRD-999":
                continue  # unknown_product
            out.append(ExpectedLine(inv.line_id(ln), inv.invoice_number, inv.document_type, inv.status,
                                    inv.invoice_date, abs(ln.quantity), net, tax, fx))
    return out
