"""Invoices and credit notes: the hand-built seed scenario plus seeded background and ``--scale`` batches.

Amounts are ``Decimal`` from start to finish and serialised as strings; the generator only *writes* the source
fields (net, tax, header tax).  Spend, allocation and deduplication are computed independently by
:mod:`procura.demo.ground_truth` from the written files.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from procura.demo.masterdata import AS_OF, CORPUS_START, Product, Supplier, TenantSpec

CENT = Decimal("0.01")
_LEGAL_SUFFIXES = ("GmbH", "AG", "Ltd", "Inc")
# Rough market levels (EUR per unit) used only to price catalog items in another invoice currency.
_EUR_PER_UNIT = {"EUR": Decimal("1"), "USD": Decimal("0.92"), "GBP": Decimal("1.17"), "CHF": Decimal("1.05")}
BACKGROUND_NUMBER_START = 500
BATCH_NUMBER_START = 100000


def q2(value: Decimal) -> Decimal:
    """Round to cents, half away from zero (the only rounding mode of the corpus)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def money(value: Decimal) -> str:
    """A 2-dp decimal string; never ``-0.00``."""
    rounded = q2(value)
    return "0.00" if rounded == 0 else f"{rounded:f}"


def quantity_text(value: Decimal) -> str:
    """Quantities as written by the ERP: integers without decimals, halves with one decimal."""
    return f"{value.normalize():f}" if value != value.to_integral_value() else str(int(value))


@dataclass(frozen=True)
class Item:
    """Input of one invoice line before amounts are derived."""

    product: Product
    quantity: Decimal
    unit_price: Decimal
    discount_amount: Decimal = Decimal("0.00")
    description: str | None = None


@dataclass(frozen=True)
class Line:
    """One written invoice line (magnitudes; the sign style is applied on serialisation)."""

    line_number: int
    product_code: str
    description: str
    quantity: Decimal
    unit_price: Decimal
    discount_amount: Decimal
    line_net_amount: Decimal
    line_tax_amount: Decimal | None


@dataclass(frozen=True)
class Invoice:
    """One invoice or credit note as it leaves the ERP."""

    document_id: str
    source_system: str
    document_type: str
    invoice_number: str
    company_id: str
    supplier_name: str
    status: str
    invoice_date: date
    posting_date: date
    currency: str
    tax_level: str
    header_tax_amount: Decimal
    original_invoice_number: str | None
    lines: tuple[Line, ...]
    # Some source systems write credit notes with negative quantities and amounts.
    negative_amounts: bool = False

    def to_json(self) -> dict[str, object]:
        """The contract's JSON object, keys in the documented order."""
        sign = "-" if self.negative_amounts else ""

        def signed(text: str) -> str:
            return text if text in ("0", "0.00") else sign + text

        return {
            "document_id": self.document_id,
            "source_system": self.source_system,
            "document_type": self.document_type,
            "invoice_number": self.invoice_number,
            "company_id": self.company_id,
            "supplier_name": self.supplier_name,
            "status": self.status,
            "invoice_date": self.invoice_date.isoformat(),
            "posting_date": self.posting_date.isoformat(),
            "currency": self.currency,
            "tax_level": self.tax_level,
            "header_tax_amount": signed(money(self.header_tax_amount)),
            "original_invoice_number": self.original_invoice_number,
            "lines": [
                {
                    "line_number": line.line_number,
                    "product_code": line.product_code,
                    "description": line.description,
                    "quantity": signed(quantity_text(line.quantity)),
                    "unit_price": money(line.unit_price),
                    "discount_amount": signed(money(line.discount_amount)),
                    "line_net_amount": signed(money(line.line_net_amount)),
                    "line_tax_amount": None if line.line_tax_amount is None else signed(money(line.line_tax_amount)),
                }
                for line in self.lines
            ],
        }

    def replica(self) -> Invoice:
        """The same business document exported again by the replicated ERP."""
        return replace(self, document_id=f"{self.document_id}-erp-replica", source_system="erp-replica")

    @property
    def net_total(self) -> Decimal:
        """Sum of line net amounts (magnitude)."""
        return sum((line.line_net_amount for line in self.lines), Decimal("0"))


def document_id_for(invoice_number: str) -> str:
    """``INV-2026-0148`` -> ``invoice-2026-0148``; ``CN-2026-0007`` -> ``credit-note-2026-0007``."""
    prefix, rest = invoice_number.split("-", 1)
    return ("invoice-" if prefix == "INV" else "credit-note-") + rest


def build_invoice(
    *,
    invoice_number: str,
    company_id: str,
    supplier_name: str,
    status: str,
    invoice_date: date,
    posting_date: date,
    currency: str,
    tax_rate: Decimal,
    items: Sequence[Item],
    tax_level: str = "line",
    original_invoice_number: str | None = None,
    negative_amounts: bool = False,
) -> Invoice:
    """Derive net and tax amounts from the items and assemble the document."""
    lines: list[Line] = []
    for number, item in enumerate(items, start=1):
        gross = item.quantity * item.unit_price
        if gross != q2(gross):
            raise ValueError(f"{invoice_number}: quantity * unit_price must be whole cents, got {gross}")
        net = gross - item.discount_amount
        if net < 0:
            raise ValueError(f"{invoice_number}: discount exceeds the line amount")
        tax = q2(net * tax_rate) if tax_level == "line" else None
        lines.append(Line(number, item.product.product_code, item.description or item.product.product_name,
                          item.quantity, q2(item.unit_price), q2(item.discount_amount), q2(net), tax))
    if tax_level == "line":
        header = sum((line.line_tax_amount or Decimal("0") for line in lines), Decimal("0"))
    else:
        # Invoice-level tax is computed on the total, which is why it differs from summed per-line rounding.
        header = q2(sum((line.line_net_amount for line in lines), Decimal("0")) * tax_rate)
    document_type = "invoice" if invoice_number.startswith("INV-") else "credit_note"
    return Invoice(
        document_id=document_id_for(invoice_number),
        source_system="erp",
        document_type=document_type,
        invoice_number=invoice_number,
        company_id=company_id,
        supplier_name=supplier_name,
        status=status,
        invoice_date=invoice_date,
        posting_date=posting_date,
        currency=currency,
        tax_level=tax_level,
        header_tax_amount=header,
        original_invoice_number=original_invoice_number,
        lines=tuple(lines),
        negative_amounts=negative_amounts,
    )


def spelling_variant(rng: random.Random, alias: str) -> str:
    """An alias as a clerk might type it: case, doubled space, punctuation next to the legal form.

    Variants only touch case, whitespace and punctuation adjacent to spaces or the end, so they normalise to
    the alias whether punctuation is deleted or replaced by a space.
    """
    forms = [alias, alias, alias.upper()]
    if " " in alias:
        forms.append(alias.replace(" ", "  ", 1))
    for suffix in _LEGAL_SUFFIXES:
        if alias.endswith(" " + suffix):
            stem = alias[: -len(suffix) - 1]
            forms.append(f"{stem}, {suffix}")
            if suffix in ("Ltd", "Inc"):
                forms.append(f"{alias}.")
    return rng.choice(forms)


def _price_in(product: Product, currency: str) -> Decimal:
    return q2(product.list_price * _EUR_PER_UNIT[product.currency] / _EUR_PER_UNIT[currency])


def _item(rng: random.Random, product: Product, currency: str) -> Item:
    unit_price = _price_in(product, currency) * (Decimal(100 + rng.randint(-5, 5)) / 100)
    unit_price = q2(unit_price)
    if product.unit_of_measure == "M":
        quantity = Decimal(rng.randint(20, 600)) / 2
        if quantity != quantity.to_integral_value() and int(unit_price * 100) % 2:
            unit_price += CENT  # half metres need an even cent price to stay whole cents
    else:
        # Expensive equipment is bought a few at a time, cheap parts by the dozen.
        ceiling = 4 if product.list_price >= 1000 else 12 if product.list_price >= 200 else 40
        quantity = Decimal(rng.randint(1, ceiling))
    gross = quantity * unit_price
    discount = Decimal("0.00") if _chance(rng, 700) else q2(gross * Decimal(rng.randint(2, 10)) / 100)
    return Item(product, quantity, unit_price, discount)


def _chance(rng: random.Random, per_mille: int) -> bool:
    # Integer draws only: the generator never touches binary floating point.
    return rng.randrange(1000) < per_mille


def _random_date(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange((end - start).days))


class RandomInvoiceStream:
    """Seeded invoices that respect the tenant's reserved suppliers, windows and missing FX days."""

    def __init__(self, tenant: TenantSpec, rng: random.Random, number_start: int, number_width: int) -> None:
        self.tenant = tenant
        self.rng = rng
        self._number_start = number_start
        self._number_width = number_width
        self._counters: dict[tuple[str, int], int] = {}
        self._creditable: list[tuple[Invoice, Supplier]] = []
        self._suppliers = [
            s for s in tenant.suppliers
            if s.supplier_id not in tenant.reserved_suppliers and tenant.products_of(s.supplier_id)
        ]
        self._missing = set(tenant.missing_fx)

    def _number(self, prefix: str, year: int) -> str:
        key = (prefix, year)
        value = self._counters.get(key, self._number_start)
        self._counters[key] = value + 1
        return f"{prefix}-{year}-{value:0{self._number_width}d}"

    def _reserved(self, company_id: str, day: date) -> bool:
        return any(c == company_id and start <= day < end for c, start, end in self.tenant.reserved_windows)

    def _posting(self, day: date, currency: str) -> date:
        posting = day + timedelta(days=self.rng.randint(0, 5))
        while (posting, currency) in self._missing:
            posting += timedelta(days=1)  # scenario-only FX gaps must not swallow random invoices
        return posting

    def _invoice(self) -> tuple[Invoice, Supplier]:
        rng = self.rng
        company = rng.choice(self.tenant.companies)
        supplier = rng.choice(self._suppliers)
        day = _random_date(rng, CORPUS_START, AS_OF - timedelta(days=7))
        while self._reserved(company.company_id, day):
            day = _random_date(rng, CORPUS_START, AS_OF - timedelta(days=7))
        currency = supplier.invoice_currency if _chance(rng, 800) else "EUR"
        products = self.tenant.products_of(supplier.supplier_id)
        count = rng.choice((1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8))
        items = [_item(rng, rng.choice(products), currency) for _ in range(count)]
        roll = rng.randrange(100)
        status = "posted" if roll < 50 else "paid" if roll < 85 else "draft" if roll < 92 else "cancelled"
        invoice = build_invoice(
            invoice_number=self._number("INV", day.year),
            company_id=company.company_id,
            supplier_name=spelling_variant(rng, rng.choice(supplier.aliases)),
            status=status,
            invoice_date=day,
            posting_date=self._posting(day, currency),
            currency=currency,
            tax_rate=supplier.tax_rate,
            items=items,
            tax_level="invoice" if _chance(rng, 150) else "line",
        )
        return invoice, supplier

    def _credit_note(self, original: Invoice, supplier: Supplier) -> Invoice | None:
        rng = self.rng
        day = min(original.invoice_date + timedelta(days=rng.randint(5, 40)), AS_OF - timedelta(days=1))
        if self._reserved(original.company_id, day):
            return None
        returned = rng.sample(list(original.lines), rng.randint(1, min(2, len(original.lines))))
        items = []
        for line in sorted(returned, key=lambda line: line.line_number):
            whole = line.quantity == line.quantity.to_integral_value()
            quantity = Decimal(rng.randint(1, int(line.quantity))) if whole else line.quantity
            items.append(Item(self.tenant.product(line.product_code), quantity, line.unit_price))
        return build_invoice(
            invoice_number=self._number("CN", day.year),
            company_id=original.company_id,
            supplier_name=original.supplier_name,
            status="posted",
            invoice_date=day,
            posting_date=self._posting(day, original.currency),
            currency=original.currency,
            tax_rate=supplier.tax_rate,
            items=items,
            original_invoice_number=original.invoice_number,
            negative_amounts=_chance(rng, 500),
        )

    def documents(self, count: int) -> Iterator[Invoice]:
        """``count`` documents; a recognised invoice may be followed directly by its replica."""
        for _ in range(count):
            if self._creditable and _chance(self.rng, 80):
                original, supplier = self._creditable.pop(self.rng.randrange(len(self._creditable)))
                note = self._credit_note(original, supplier)
                if note is not None:
                    yield note
                    continue
            invoice, supplier = self._invoice()
            yield invoice
            if invoice.status in ("posted", "paid"):
                self._creditable.append((invoice, supplier))
                if _chance(self.rng, 50):
                    # Replica right after the original: ingestion order keeps the ERP copy.
                    yield invoice.replica()


# --- hand-built scenarios ---------------------------------------------------------------------------------

def _d(text: str) -> date:
    return date.fromisoformat(text)


def _items(tenant: TenantSpec, rows: Sequence[tuple[str, str, str, str]]) -> list[Item]:
    return [Item(tenant.product(code), Decimal(qty), Decimal(price), Decimal(discount))
            for code, qty, price, discount in rows]


def seed_scenario_t42(tenant: TenantSpec) -> tuple[list[Invoice], list[Invoice]]:
    """tenant-42's hand-built invoices (base, updates): Company A's 2026-Q1 and its traps, Company B's zero case.

    Independent of ``--seed``: the seed scenario's expected totals are the same for every seed and scale.
    """
    vat = Decimal("0.19")
    beta, gamma = tenant.supplier("SUP-18"), tenant.supplier("SUP-27")
    base: list[Invoice] = []

    def add(**kwargs: Any) -> Invoice:
        invoice = build_invoice(**kwargs)
        base.append(invoice)
        return invoice

    add(invoice_number="INV-2026-0148", company_id="COMP-A", supplier_name="Beta Supplies GmbH", status="posted",
        invoice_date=_d("2026-02-14"), posting_date=_d("2026-02-16"), currency="USD", tax_rate=vat,
        items=_items(tenant, [("PRD-483", "5", "145.00", "0.00"), ("PRD-491", "20", "62.50", "25.00"),
                              ("PRD-495", "10", "18.40", "0.00"), ("PRD-482", "10", "200.00", "100.00")]))
    inv_0150 = add(invoice_number="INV-2026-0150", company_id="COMP-A", supplier_name="BETA SUPPLIES",
                   status="posted", invoice_date=_d("2026-01-20"), posting_date=_d("2026-01-21"), currency="EUR",
                   tax_rate=vat, items=_items(tenant, [("PRD-482", "6", "200.00", "0.00"),
                                                       ("PRD-486", "2", "410.00", "20.50"),
                                                       ("PRD-495", "4", "18.40", "0.00")]))
    base.append(inv_0150.replica())
    add(invoice_number="INV-2026-0152", company_id="COMP-A", supplier_name="Supplier Gamma", status="cancelled",
        invoice_date=_d("2026-02-03"), posting_date=_d("2026-02-04"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-611", "2", "1250.00", "0.00"), ("PRD-612", "1", "1890.00", "0.00")]))
    # Grand total exactly 5000.00 EUR: "above 5000" must not include it.
    add(invoice_number="INV-2026-0155", company_id="COMP-A", supplier_name="Gamma Control Systems AG",
        status="posted", invoice_date=_d("2026-02-09"), posting_date=_d("2026-02-10"), currency="EUR",
        tax_rate=vat, items=_items(tenant, [("PRD-611", "3", "1250.00", "0.00"),
                                            ("PRD-620", "2", "340.00", "228.32")]))
    # Expired approval (valid_to 2026-01-01): USD 5300.00 is above 5000 in USD but not in EUR.
    add(invoice_number="INV-2026-0158", company_id="COMP-A", supplier_name="Epsilon Instruments, Inc",
        status="posted", invoice_date=_d("2026-02-20"), posting_date=_d("2026-02-23"), currency="USD",
        tax_rate=Decimal("0"), items=_items(tenant, [("PRD-510", "2", "1650.00", "0.00"),
                                                     ("PRD-515", "1", "2000.00", "0.00")]))
    add(invoice_number="INV-2026-0161", company_id="COMP-A", supplier_name="Supplier Beta", status="draft",
        invoice_date=_d("2026-03-16"), posting_date=_d("2026-03-17"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-482", "8", "195.00", "0.00"), ("PRD-483", "4", "145.00", "0.00")]))
    # Invoice-level tax: lines 1 and 2 tie on the truncated fraction, so line 1 gets the remaining cent.
    add(invoice_number="INV-2026-0163", company_id="COMP-A", supplier_name="Gamma Controls", status="paid",
        invoice_date=_d("2026-03-05"), posting_date=_d("2026-03-06"), currency="EUR", tax_rate=vat,
        tax_level="invoice",
        items=_items(tenant, [("PRD-611", "1", "1250.00", "62.50"), ("PRD-611", "1", "1250.00", "62.50"),
                              ("PRD-620", "2", "340.00", "0.00")]))
    add(invoice_number="INV-2026-0165", company_id="COMP-A", supplier_name="Beta Supplies  GmbH", status="paid",
        invoice_date=_d("2026-03-09"), posting_date=_d("2026-03-10"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-482", "15", "198.00", "45.00"), ("PRD-491", "10", "62.50", "0.00")]))
    # Approval only from 2026-07-01: its Q1 monitoring purchase is not from an approved vendor.
    add(invoice_number="INV-2026-0166", company_id="COMP-A", supplier_name="Zeta Sensorik", status="posted",
        invoice_date=_d("2026-03-12"), posting_date=_d("2026-03-13"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-530", "12", "172.00", "0.00")]))
    # Supplier Delta: approved for Q1, but its only Q1 invoice is a draft -> no validated data.
    add(invoice_number="INV-2026-0169", company_id="COMP-A", supplier_name="Delta Enclosures Ltd.",
        status="draft", invoice_date=_d("2026-03-20"), posting_date=_d("2026-03-20"), currency="GBP",
        tax_rate=Decimal("0.20"), items=_items(tenant, [("PRD-701", "2", "820.00", "0.00")]))
    add(invoice_number="INV-2026-0171", company_id="COMP-A", supplier_name="Supplier Beta", status="draft",
        invoice_date=_d("2026-03-25"), posting_date=_d("2026-03-25"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-482", "30", "190.00", "0.00")]))
    # Dated in Q1, posted in April: counts in Q1, converted at the April corporate rate.
    add(invoice_number="INV-2026-0172", company_id="COMP-A", supplier_name="Supplier Gamma", status="posted",
        invoice_date=_d("2026-03-31"), posting_date=_d("2026-04-02"), currency="CHF", tax_rate=Decimal("0.081"),
        items=_items(tenant, [("PRD-612", "2", "1800.00", "0.00"), ("PRD-625", "1", "745.00", "0.00")]))
    add(invoice_number="INV-2026-0175", company_id="COMP-A", supplier_name="Supplier Gamma", status="posted",
        invoice_date=_d("2026-04-01"), posting_date=_d("2026-04-01"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-611", "1", "1250.00", "0.00")]))
    add(invoice_number="INV-2026-0180", company_id="COMP-A", supplier_name="DELTA ENCLOSURES", status="posted",
        invoice_date=_d("2026-04-14"), posting_date=_d("2026-04-15"), currency="GBP", tax_rate=Decimal("0.20"),
        items=_items(tenant, [("PRD-701", "3", "820.00", "0.00"), ("PRD-705", "3", "350.00", "0.00")]))
    add(invoice_number="INV-2025-0412", company_id="COMP-A", supplier_name="Beta Supplies GmbH", status="posted",
        invoice_date=_d("2025-12-30"), posting_date=_d("2026-01-02"), currency="EUR", tax_rate=vat,
        items=_items(tenant, [("PRD-482", "5", "200.00", "0.00")]))
    gamma_rows = [("PRD-611", "1", "1250.00", "0.00"), ("PRD-620", "4", "340.00", "40.00"),
                  ("PRD-625", "2", "780.00", "0.00"), ("PRD-620", "2", "340.00", "0.00"),
                  ("PRD-611", "2", "1250.00", "125.00"), ("PRD-625", "1", "780.00", "39.00"),
                  ("PRD-612", "3", "1890.00", "283.50"), ("PRD-620", "1", "340.00", "0.00")]
    add(invoice_number="INV-2026-0211", company_id="COMP-A", supplier_name="Gamma Control Systems, AG",
        status="posted", invoice_date=_d("2026-03-18"), posting_date=_d("2026-03-19"), currency="EUR",
        tax_rate=vat, items=_items(tenant, gamma_rows))
    # Credit notes: one source system writes negative numbers, the other positive ones.
    add(invoice_number="CN-2026-0007", company_id="COMP-A", supplier_name="BETA SUPPLIES", status="posted",
        invoice_date=_d("2026-03-10"), posting_date=_d("2026-03-11"), currency="EUR", tax_rate=vat,
        original_invoice_number="INV-2026-0150", negative_amounts=True,
        items=_items(tenant, [("PRD-482", "2", "200.00", "0.00")]))
    add(invoice_number="CN-2026-0009", company_id="COMP-A", supplier_name="Gamma Controls", status="posted",
        invoice_date=_d("2026-03-27"), posting_date=_d("2026-03-30"), currency="EUR", tax_rate=vat,
        original_invoice_number="INV-2026-0211", items=_items(tenant, [("PRD-611", "1", "1250.00", "0.00")]))

    # Routine Q1 purchases from Beta and Gamma, from a fixed stream so the scenario ignores --seed.
    rng = random.Random("procura-demo:tenant-42:seed-scenario")
    for offset, supplier in enumerate((beta, gamma, beta, gamma, beta, beta, gamma, beta, gamma)):
        day = _random_date(rng, _d("2026-01-02"), _d("2026-03-28"))
        products = [p for p in tenant.products_of(supplier.supplier_id)]
        items = [_item(rng, rng.choice(products), "EUR") for _ in range(rng.randint(2, 5))]
        add(invoice_number=f"INV-2026-{120 + offset:04d}", company_id="COMP-A",
            supplier_name=spelling_variant(rng, rng.choice(supplier.aliases)),
            status=rng.choice(("posted", "paid")), invoice_date=day, posting_date=day + timedelta(days=1),
            currency="EUR", tax_rate=vat, items=items)

    # Company B / Supplier Eta: an invoice and its full credit note in 2026-Q1 net to exactly 0.00.
    eta_rows = [("PRD-801", "2", "480.00", "0.00"), ("PRD-805", "10", "12.50", "0.00")]
    add(invoice_number="INV-2026-0190", company_id="COMP-B", supplier_name="Eta Industrial Supply GmbH",
        status="posted", invoice_date=_d("2026-02-10"), posting_date=_d("2026-02-10"), currency="EUR",
        tax_rate=vat, items=_items(tenant, eta_rows))
    add(invoice_number="CN-2026-0011", company_id="COMP-B", supplier_name="ETA INDUSTRIAL SUPPLY",
        status="posted", invoice_date=_d("2026-03-02"), posting_date=_d("2026-03-03"), currency="EUR",
        tax_rate=vat, original_invoice_number="INV-2026-0190", items=_items(tenant, eta_rows))

    updated = next(i for i in base if i.invoice_number == "INV-2026-0161")
    updates = [replace(updated, status="posted")]
    return base, updates


def seed_scenario_t17(tenant: TenantSpec) -> list[Invoice]:
    """tenant-17's fixed invoices: the same invoice number and product code as tenant-42, other numbers."""
    vat = Decimal("0.20")
    rows = [
        ("INV-2026-0148", "2026-02-14", "2026-02-16", [("PRD-482", "12", "160.00", "0.00")]),
        ("INV-2026-0153", "2026-03-09", "2026-03-10", [("PRD-482", "8", "158.00", "0.00"),
                                                       ("PRD-484", "5", "75.00", "0.00")]),
        ("INV-2026-0157", "2026-03-23", "2026-03-24", [("PRD-482", "20", "155.00", "31.00")]),
    ]
    return [
        build_invoice(invoice_number=number, company_id="COMP-A", supplier_name="Northwind Sensors Ltd",
                      status="posted", invoice_date=_d(day), posting_date=_d(posted), currency="GBP",
                      tax_rate=vat, items=_items(tenant, items))
        for number, day, posted, items in rows
    ]


def seed_scenario_t99(tenant: TenantSpec) -> list[Invoice]:
    """tenant-99's fixed invoice posted on the day whose CHF corporate rate is missing (validation failure)."""
    return [
        build_invoice(invoice_number="INV-2026-0042", company_id="COMP-X", supplier_name="Gamma Labortechnik AG",
                      status="posted", invoice_date=_d("2026-02-10"), posting_date=_d("2026-02-11"),
                      currency="CHF", tax_rate=Decimal("0.081"),
                      items=_items(tenant, [("PRD-482", "4", "240.00", "0.00"),
                                            ("PRD-487", "1", "310.00", "15.50")])),
    ]
