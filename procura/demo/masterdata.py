"""Static master data of the three demo tenants: companies, suppliers, catalog, agreements and manuals.

Everything here is fixed by hand rather than drawn from the seed: the seed scenario of ``tenant-42`` and the
isolation traps of ``tenant-17`` / ``tenant-99`` (same product codes, supplier names, company and document ids
with different data) must exist for every seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from types import MappingProxyType

CORPUS_START = date(2025, 7, 1)
CORPUS_END = date(2026, 12, 31)  # inclusive: the last day with FX rates
AS_OF = date(2026, 5, 15)
REPORTING_CURRENCY = "EUR"
FOREIGN_CURRENCIES = ("CHF", "GBP", "USD")
# Agreement page layout of most agreements: two sections a page, the approved vendors (section 12) on page 6.
_STANDARD_LAYOUT = ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14))


@dataclass(frozen=True)
class Company:
    """A buying company (the ``company_id`` invoices and agreements refer to)."""

    company_id: str
    company_name: str
    reporting_currency: str = REPORTING_CURRENCY


@dataclass(frozen=True)
class Supplier:
    """A supplier; ``aliases`` go into suppliers.json, invoices use aliases or spelling variants of them."""

    supplier_id: str
    supplier_name: str
    aliases: tuple[str, ...]
    country: str
    contact_email: str
    bban: str | None
    invoice_currency: str
    tax_rate: Decimal

    @property
    def iban(self) -> str | None:
        """The IBAN with correct ISO 13616 check digits (PII on purpose: redaction tests need real-looking ones)."""
        if self.bban is None:
            return None
        digits = "".join(str(int(ch, 36)) for ch in self.bban + self.country + "00")
        return f"{self.country}{98 - int(digits) % 97:02d}{self.bban}"


@dataclass(frozen=True)
class ProductGroup:
    """One node of the product-group hierarchy."""

    product_group_id: str
    group_name: str
    parent_group_id: str | None


#: German names of the product groups (by English group name), written beside each group in
#: catalog/product_groups.json as ``synonyms: {"de": [...]}`` so that entity resolution can match a question
#: asked in German. Each name is unique within a tenant's groups; none equals another group's English name.
GROUP_SYNONYMS_DE: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "Monitoring Products": ("Überwachungsprodukte",),
    "Sensors": ("Sensoren", "Fühler"),
    "Pressure Sensors": ("Drucksensoren", "Druckaufnehmer"),
    "Wireless Pressure Transmitters": ("Funk-Drucktransmitter", "drahtlose Druckmessumformer"),
    "Temperature Sensors": ("Temperatursensoren", "Temperaturfühler"),
    "Flow Sensors": ("Durchflusssensoren", "Durchflussmesser"),
    "Monitoring Controllers": ("Überwachungssteuerungen",),
    "Control Equipment": ("Steuerungstechnik",),
    "Control Modules": ("Steuermodule", "Steuerungsmodule"),
    "PLC Modules": ("SPS-Module", "SPS-Baugruppen"),
    "Control Cabinets": ("Schaltschränke",),
    "Cabinet Accessories": ("Schaltschrankzubehör",),
    "Maintenance, Repair and Operations": ("Instandhaltung, Reparatur und Betrieb", "Instandhaltungsmaterial"),
    "Consumables": ("Verbrauchsmaterial", "Verbrauchsgüter"),
    "Cables and Connectors": ("Kabel und Steckverbinder", "Kabel und Stecker"),
    "Tools": ("Werkzeuge",),
    "Calibration Equipment": ("Kalibriergeräte", "Kalibriertechnik"),
    "Data Loggers": ("Datenlogger",),
    "Cooling Equipment": ("Kältetechnik", "Kühlgeräte"),
    "Compressors": ("Kompressoren", "Verdichter"),
    "Compressor Spare Parts": ("Kompressor-Ersatzteile", "Verdichterersatzteile"),
    "Packaging": ("Verpackung", "Verpackungsmaterial"),
    "Boxes": ("Kartons", "Schachteln"),
    "Crates": ("Kisten", "Transportkisten"),
    "Laboratory Equipment": ("Laborausstattung", "Laborgeräte"),
    "Measurement": ("Messtechnik",),
    "Pressure Measurement": ("Druckmesstechnik", "Druckmessung"),
    "Lab Consumables": ("Laborverbrauchsmaterial",),
    "Reagents": ("Reagenzien",),
    "Office": ("Büro", "Bürobedarf"),
    "Paper Products": ("Papierwaren", "Papierprodukte"),
    "Shipping Services": ("Versanddienstleistungen", "Versand"),
})


@dataclass(frozen=True)
class Product:
    """A catalog product; exactly one supplier per product."""

    product_code: str
    product_name: str
    product_group_id: str
    supplier_id: str
    unit_of_measure: str
    list_price: Decimal
    currency: str = REPORTING_CURRENCY


@dataclass(frozen=True)
class Approval:
    """One row of an agreement's approved-vendor table; ``valid_to`` None is written as ``open``."""

    supplier_label: str
    supplier_id: str
    scope: str
    valid_from: date
    valid_to: date | None


@dataclass(frozen=True)
class AgreementSpec:
    """An agreement: which company, which approvals, and on which page the approved-vendor table lands."""

    document_id: str
    company_id: str
    title: str
    effective_date: date
    counterparty_note: str
    approvals: tuple[Approval, ...]
    # Page layout: each inner tuple is the section numbers printed on that page; section 12 is the
    # approved-vendor section, so its page is where the table lands (agreement-2026-04: page 12).
    layout: tuple[tuple[int, ...], ...] = _STANDARD_LAYOUT
    amendment: AgreementSpec | None = None


@dataclass(frozen=True)
class ManualSpec:
    """A product manual; ``calibration`` selects the calibration section variant."""

    document_id: str
    title: str
    product_codes: tuple[str, ...]
    effective_date: date
    calibration: str = "generic"
    prompt_injection: bool = False


@dataclass(frozen=True)
class TenantSpec:
    """Everything static about one tenant plus the constraints random invoices must respect."""

    tenant_id: str
    companies: tuple[Company, ...]
    suppliers: tuple[Supplier, ...]
    groups: tuple[ProductGroup, ...]
    products: tuple[Product, ...]
    agreements: tuple[AgreementSpec, ...]
    manuals: tuple[ManualSpec, ...]
    # Random (background and batch) invoices never use these suppliers ...
    reserved_suppliers: frozenset[str] = frozenset()
    # ... nor these (company_id, start, end) invoice-date windows, so hand-built scenarios stay exact.
    reserved_windows: tuple[tuple[str, date, date], ...] = ()
    # (rate_date, from_currency) corporate rates deliberately left out of fx_rates.csv.
    missing_fx: tuple[tuple[date, str], ...] = ()

    def supplier(self, supplier_id: str) -> Supplier:
        """The supplier with this id (KeyError if unknown)."""
        for supplier in self.suppliers:
            if supplier.supplier_id == supplier_id:
                return supplier
        raise KeyError(supplier_id)

    def product(self, product_code: str) -> Product:
        """The catalog product with this code (KeyError if unknown)."""
        for product in self.products:
            if product.product_code == product_code:
                return product
        raise KeyError(product_code)

    def products_of(self, supplier_id: str) -> tuple[Product, ...]:
        """The supplier's catalog products, in catalog order."""
        return tuple(p for p in self.products if p.supplier_id == supplier_id)


D = Decimal
# agreement-2026-04 is long on purpose: one section per page puts the approved vendors on page 12.
_LONG_LAYOUT = tuple((n,) for n in range(1, 15))

# --- tenant-42: the seed scenario -------------------------------------------------------------------------

_T42_SUPPLIERS = (
    Supplier("SUP-18", "Supplier Beta", ("Beta Supplies GmbH", "BETA SUPPLIES", "Supplier Beta"), "DE",
             "ap@beta.example", "370400440532013000", "EUR", D("0.19")),
    Supplier("SUP-22", "Supplier Epsilon", ("Epsilon Instruments Inc", "Epsilon Instr.", "Supplier Epsilon"),
             "US", "billing@epsilon-instruments.example", None, "USD", D("0")),
    Supplier("SUP-27", "Supplier Gamma", ("Gamma Control Systems AG", "Gamma Controls", "Supplier Gamma"), "CH",
             "invoices@gamma-controls.example", "00762011623852957", "EUR", D("0.19")),
    Supplier("SUP-31", "Supplier Delta", ("Delta Enclosures Ltd", "DELTA ENCLOSURES", "Supplier Delta"), "GB",
             "accounts@delta-enclosures.example", "NWBK60161331926819", "GBP", D("0.20")),
    Supplier("SUP-35", "Supplier Zeta", ("Zeta Sensorik GmbH", "Zeta Sensorik", "Supplier Zeta"), "DE",
             "rechnung@zeta-sensorik.example", "500105175407324931", "EUR", D("0.19")),
    Supplier("SUP-44", "Supplier Eta", ("Eta Industrial Supply GmbH", "ETA INDUSTRIAL SUPPLY", "Supplier Eta"),
             "DE", "ap@eta-industrial.example", "200400600526478800", "EUR", D("0.19")),
    Supplier("SUP-52", "Supplier Theta", ("Theta Präzision AG", "THETA PRÄZISION", "Supplier Theta"), "CH",
             "debitoren@theta-praezision.example", "09000000001234567", "CHF", D("0.081")),
    Supplier("SUP-60", "Supplier Iota", ("Iota Cable Works Ltd", "Iota Cables", "Supplier Iota"), "GB",
             "ledger@iota-cables.example", "BARC20000055779911", "GBP", D("0.20")),
)

_T42_GROUPS = (
    ProductGroup("PG-MON", "Monitoring Products", None),
    ProductGroup("PG-SENS", "Sensors", "PG-MON"),
    ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
    ProductGroup("PG-PRES-WL", "Wireless Pressure Transmitters", "PG-PRES"),
    ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"),
    ProductGroup("PG-FLOW", "Flow Sensors", "PG-SENS"),
    ProductGroup("PG-MCTL", "Monitoring Controllers", "PG-MON"),
    ProductGroup("PG-CTRL", "Control Equipment", None),
    ProductGroup("PG-CMOD", "Control Modules", "PG-CTRL"),
    ProductGroup("PG-PLC", "PLC Modules", "PG-CMOD"),
    ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"),
    ProductGroup("PG-CAB-ACC", "Cabinet Accessories", "PG-CAB"),
    ProductGroup("PG-MRO", "Maintenance, Repair and Operations", None),
    ProductGroup("PG-CONS", "Consumables", "PG-MRO"),
    ProductGroup("PG-CABL", "Cables and Connectors", "PG-CONS"),
    ProductGroup("PG-TOOL", "Tools", "PG-MRO"),
    ProductGroup("PG-CAL", "Calibration Equipment", "PG-TOOL"),
)

_T42_PRODUCTS = (
    Product("PRD-482", "Differential pressure sensor DPS-482", "PG-PRES", "SUP-18", "EA", D("200.00")),
    Product("PRD-483", "Gauge pressure sensor 0-10 bar", "PG-PRES", "SUP-18", "EA", D("145.00")),
    Product("PRD-486", "Wireless pressure transmitter WPT-6", "PG-PRES-WL", "SUP-18", "EA", D("410.00")),
    Product("PRD-491", "PT100 temperature probe", "PG-TEMP", "SUP-18", "EA", D("62.50")),
    Product("PRD-495", "Cable gland set M20", "PG-CABL", "SUP-18", "SET", D("18.40")),
    Product("PRD-510", "Flow sensor FS-50", "PG-FLOW", "SUP-22", "EA", D("1650.00"), "USD"),
    Product("PRD-515", "Thermal mass flow meter TMF-2", "PG-FLOW", "SUP-22", "EA", D("2300.00"), "USD"),
    Product("PRD-530", "Pressure sensor PS-Z1", "PG-PRES", "SUP-35", "EA", D("172.00")),
    Product("PRD-532", "Temperature transmitter TT-Z", "PG-TEMP", "SUP-35", "EA", D("96.00")),
    Product("PRD-611", "Monitoring controller MC-4", "PG-MCTL", "SUP-27", "EA", D("1250.00")),
    Product("PRD-612", "Monitoring controller MC-8", "PG-MCTL", "SUP-27", "EA", D("1890.00")),
    Product("PRD-620", "PLC I/O module 16DI", "PG-PLC", "SUP-27", "EA", D("340.00")),
    Product("PRD-625", "Control module CM-2", "PG-CMOD", "SUP-27", "EA", D("780.00")),
    Product("PRD-701", "Control cabinet 800x600", "PG-CAB", "SUP-31", "EA", D("960.00")),
    Product("PRD-705", "Cabinet climate kit", "PG-CAB-ACC", "SUP-31", "EA", D("410.00")),
    Product("PRD-801", "Pressure calibration kit", "PG-CAL", "SUP-44", "EA", D("480.00")),
    Product("PRD-805", "Safety gloves (pair)", "PG-CONS", "SUP-44", "EA", D("12.50")),
    Product("PRD-820", "Control cable 5x1.5 mm2", "PG-CABL", "SUP-60", "M", D("3.40")),
    Product("PRD-825", "M12 connector set", "PG-CABL", "SUP-60", "SET", D("27.80")),
    Product("PRD-840", "Torque wrench set", "PG-TOOL", "SUP-52", "SET", D("315.00")),
    Product("PRD-845", "Precision multimeter", "PG-CAL", "SUP-52", "EA", D("520.00")),
)

_ETA_2025_09 = Approval("Eta Industrial Supply GmbH", "SUP-44", "Calibration kits and consumables", date(2025, 9, 1),
                        None)
_THETA_2025_09 = Approval("Supplier Theta", "SUP-52", "Tools and measuring equipment", date(2025, 9, 1), None)
_BETA_2025_09 = Approval("Beta Supplies GmbH", "SUP-18", "Replacement sensors", date(2025, 9, 1), date(2026, 3, 1))
_AGREEMENT_2025_09_ORIGINAL = AgreementSpec(
    document_id="agreement-2025-09",
    company_id="COMP-B",
    title="Framework Supply Agreement 2025-09 — Company B",
    effective_date=date(2025, 9, 1),
    counterparty_note="Company B sources maintenance materials from Supplier Eta and Supplier Theta.",
    approvals=(_ETA_2025_09, _THETA_2025_09, _BETA_2025_09),
)
# Version 2 of the same document: only the title, date, note and the approvals of Eta and Iota change.
_AGREEMENT_2025_09 = replace(
    _AGREEMENT_2025_09_ORIGINAL,
    amendment=replace(
        _AGREEMENT_2025_09_ORIGINAL,
        title="Framework Supply Agreement 2025-09 — Company B (Amendment No. 1)",
        effective_date=date(2026, 4, 20),
        counterparty_note=(
            "Amendment No. 1 ends the approval of Supplier Eta on 2026-10-01 and approves Supplier Iota for "
            "cabling from 2026-05-01. All other terms remain unchanged."
        ),
        approvals=(
            replace(_ETA_2025_09, valid_to=date(2026, 10, 1)),
            _THETA_2025_09,
            _BETA_2025_09,
            Approval("Iota Cable Works Ltd", "SUP-60", "Cables and connectors", date(2026, 5, 1), None),
        ),
    ),
)

TENANT_42 = TenantSpec(
    tenant_id="tenant-42",
    companies=(
        Company("COMP-A", "Company A"),
        Company("COMP-B", "Company B"),
        Company("COMP-C", "Company C"),
    ),
    suppliers=_T42_SUPPLIERS,
    groups=_T42_GROUPS,
    products=_T42_PRODUCTS,
    agreements=(
        AgreementSpec(
            document_id="agreement-2026-04",
            company_id="COMP-A",
            title="Framework Purchasing Agreement 2026-04 — Company A",
            effective_date=date(2026, 1, 1),
            counterparty_note=(
                "Company A purchases industrial sensors from Supplier Beta and control modules, including "
                "monitoring controllers, from Supplier Gamma. Control cabinets for the 2026 retrofit programme "
                "are sourced from Supplier Delta."
            ),
            approvals=(
                Approval("Supplier Beta", "SUP-18", "Industrial sensors", date(2025, 7, 1), None),
                Approval("Gamma Control Systems AG", "SUP-27", "Control modules incl. monitoring controllers",
                         date(2025, 10, 1), None),
                Approval("Supplier Delta", "SUP-31", "Control cabinets (2026 retrofit)", date(2026, 1, 1),
                         date(2026, 7, 1)),
                Approval("Epsilon Instruments Inc", "SUP-22", "Flow sensors (phased out)", date(2025, 7, 1),
                         date(2026, 1, 1)),
                Approval("Zeta Sensorik GmbH", "SUP-35", "Pressure and temperature sensors", date(2026, 7, 1),
                         None),
            ),
            layout=_LONG_LAYOUT,
        ),
        _AGREEMENT_2025_09,
        AgreementSpec(
            document_id="agreement-2025-12",
            company_id="COMP-C",
            title="Purchasing Agreement 2025-12 — Company C",
            effective_date=date(2025, 12, 1),
            counterparty_note="Company C buys cabling and tools for its service fleet.",
            approvals=(
                Approval("Supplier Theta", "SUP-52", "Tools and measuring equipment", date(2025, 12, 1), None),
                Approval("Iota Cables", "SUP-60", "Cables and connectors", date(2025, 12, 1), date(2026, 6, 1)),
                Approval("Supplier Gamma", "SUP-27", "Control modules", date(2026, 4, 1), date(2027, 1, 1)),
            ),
        ),
    ),
    manuals=(
        ManualSpec("manual-prd-482", "PRD-482 Differential Pressure Sensor — Installation and Calibration Manual",
                   ("PRD-482",), date(2025, 9, 15), calibration="differential_pressure"),
        ManualSpec("manual-prd-486", "PRD-486 Wireless Pressure Transmitter — Operating Manual", ("PRD-486",),
                   date(2025, 8, 1)),
        ManualSpec("manual-prd-491", "PRD-491 PT100 Temperature Probe — Operating Manual", ("PRD-491",),
                   date(2025, 7, 20)),
        ManualSpec("manual-prd-530", "PRD-530 Pressure Sensor PS-Z1 — Quick Start Guide", ("PRD-530",),
                   date(2026, 2, 1), prompt_injection=True),
        ManualSpec("manual-prd-611", "PRD-611 and PRD-612 Monitoring Controllers — System Manual",
                   ("PRD-611", "PRD-612"), date(2025, 10, 1)),
        ManualSpec("manual-prd-701", "PRD-701 Control Cabinet — Assembly Instructions", ("PRD-701", "PRD-705"),
                   date(2026, 1, 10)),
    ),
    reserved_suppliers=frozenset({"SUP-44"}),
    reserved_windows=(("COMP-A", date(2026, 1, 1), date(2026, 4, 1)),),
)

# --- tenant-17: same codes and names, different data ----------------------------------------------------

TENANT_17 = TenantSpec(
    tenant_id="tenant-17",
    companies=(
        Company("COMP-A", "Alpenland Logistik AG"),
        Company("COMP-K", "Kestrel Lebensmittel GmbH"),
    ),
    suppliers=(
        Supplier("SUP-07", "Supplier Beta", ("Beta Trading Ltd", "BETA TRADING", "Supplier Beta"), "GB",
                 "payables@beta-trading.example", "MIDL40051512345678", "GBP", D("0.20")),
        Supplier("SUP-18", "Northwind Sensors Ltd", ("Northwind Sensors Ltd", "NORTHWIND SENSORS",
                 "Northwind Sensor Systems"), "GB", "finance@northwind-sensors.example", "LOYD30963412345678",
                 "GBP", D("0.20")),
        Supplier("SUP-33", "Supplier Gamma", ("Gamma Kältetechnik GmbH", "Gamma Kaeltetechnik", "Supplier Gamma"),
                 "DE", "buchhaltung@gamma-kaelte.example", "700202700015824936", "EUR", D("0.19")),
        Supplier("SUP-40", "Orbis Packaging AG", ("Orbis Packaging AG", "ORBIS PACKAGING", "Orbis Pack"), "CH",
                 "ar@orbis-packaging.example", "04835081199876543", "CHF", D("0.081")),
    ),
    groups=(
        ProductGroup("PG-MON", "Monitoring Products", None),
        ProductGroup("PG-SENS", "Sensors", "PG-MON"),
        ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
        ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"),
        ProductGroup("PG-LOG", "Data Loggers", "PG-MON"),
        ProductGroup("PG-COOL", "Cooling Equipment", None),
        ProductGroup("PG-COMP", "Compressors", "PG-COOL"),
        ProductGroup("PG-COMP-SP", "Compressor Spare Parts", "PG-COMP"),
        ProductGroup("PG-PACK", "Packaging", None),
        ProductGroup("PG-BOX", "Boxes", "PG-PACK"),
        ProductGroup("PG-BOX-CRT", "Crates", "PG-BOX"),
    ),
    products=(
        Product("PRD-482", "Differential pressure sensor DP-10", "PG-PRES", "SUP-18", "EA", D("185.00")),
        Product("PRD-484", "Cold-room pressure switch", "PG-PRES", "SUP-18", "EA", D("88.00")),
        Product("PRD-300", "Core temperature probe", "PG-TEMP", "SUP-07", "EA", D("54.00")),
        Product("PRD-600", "Temperature data logger TL-2", "PG-LOG", "SUP-07", "EA", D("139.00")),
        Product("PRD-710", "Scroll compressor 7 kW", "PG-COMP", "SUP-33", "EA", D("2450.00")),
        Product("PRD-715", "Compressor valve kit", "PG-COMP-SP", "SUP-33", "SET", D("165.00")),
        Product("PRD-900", "Euro crate 600x400", "PG-BOX-CRT", "SUP-40", "EA", D("9.80")),
        Product("PRD-905", "Folding box 400x300", "PG-BOX", "SUP-40", "EA", D("2.15")),
    ),
    agreements=(
        AgreementSpec(
            document_id="agreement-2026-01",
            company_id="COMP-A",
            title="Cold Chain Equipment Agreement 2026-01 — Alpenland Logistik AG",
            effective_date=date(2026, 1, 1),
            counterparty_note="Alpenland Logistik AG buys cold-chain sensors and compressors for its depots.",
            approvals=(
                Approval("Northwind Sensors Ltd", "SUP-18", "Pressure and temperature sensors", date(2025, 7, 1),
                         None),
                Approval("Supplier Gamma", "SUP-33", "Compressors and spare parts", date(2026, 1, 1),
                         date(2026, 7, 1)),
                Approval("Supplier Beta", "SUP-07", "Data loggers", date(2025, 7, 1), date(2026, 2, 1)),
            ),
        ),
        AgreementSpec(
            document_id="agreement-2025-08",
            company_id="COMP-K",
            title="Packaging Supply Agreement 2025-08 — Kestrel Lebensmittel GmbH",
            effective_date=date(2025, 8, 1),
            counterparty_note="Kestrel Lebensmittel GmbH sources crates and folding boxes.",
            approvals=(
                Approval("Orbis Packaging AG", "SUP-40", "Crates and boxes", date(2025, 8, 1), None),
                Approval("Beta Trading Ltd", "SUP-07", "Temperature monitoring", date(2026, 4, 1), None),
            ),
        ),
    ),
    manuals=(
        ManualSpec("manual-prd-482", "PRD-482 Differential Pressure Sensor DP-10 — User Manual", ("PRD-482",),
                   date(2025, 8, 10), calibration="differential_pressure_t17"),
        ManualSpec("manual-prd-600", "PRD-600 Temperature Data Logger — User Guide", ("PRD-600",),
                   date(2025, 11, 3)),
    ),
)

# --- tenant-99: another customer, plus a deliberately missing FX rate ------------------------------------

TENANT_99 = TenantSpec(
    tenant_id="tenant-99",
    companies=(
        Company("COMP-X", "Xenon Pharma AG"),
        Company("COMP-Y", "Ypsilon Retail GmbH"),
    ),
    suppliers=(
        Supplier("SUP-93", "Supplier Gamma", ("Gamma Labortechnik AG", "GAMMA LABORTECHNIK", "Supplier Gamma"),
                 "CH", "finanzen@gamma-labor.example", "00233233123456789", "CHF", D("0.081")),
        Supplier("SUP-95", "Supplier Beta", ("Beta Logistics Inc", "BETA LOGISTICS", "Supplier Beta"), "US",
                 "ar@beta-logistics.example", None, "USD", D("0")),
        Supplier("SUP-97", "Helix Reagents Ltd", ("Helix Reagents Ltd", "HELIX REAGENTS", "Helix Reagent"), "GB",
                 "credit.control@helix-reagents.example", "HBUK40127612345678", "GBP", D("0.20")),
        Supplier("SUP-98", "Iris Office Supplies GmbH", ("Iris Office Supplies GmbH", "IRIS OFFICE SUPPLIES",
                 "Iris Office"), "DE", "rechnungen@iris-office.example", "100100100123456789", "EUR",
                 D("0.19")),
    ),
    groups=(
        ProductGroup("PG-LAB", "Laboratory Equipment", None),
        ProductGroup("PG-MEAS", "Measurement", "PG-LAB"),
        ProductGroup("PG-PRES", "Pressure Measurement", "PG-MEAS"),
        ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB"),
        ProductGroup("PG-REAG", "Reagents", "PG-LABC"),
        ProductGroup("PG-OFF", "Office", None),
        ProductGroup("PG-PAPER", "Paper Products", "PG-OFF"),
        ProductGroup("PG-SHIP", "Shipping Services", None),
    ),
    products=(
        Product("PRD-482", "Pressure sensor LS-2 (legacy)", "PG-PRES", "SUP-93", "EA", D("240.00"), "CHF"),
        Product("PRD-487", "Vacuum gauge VG-1", "PG-PRES", "SUP-93", "EA", D("310.00"), "CHF"),
        Product("PRD-650", "Buffer solution pH 7 (1 l)", "PG-REAG", "SUP-97", "EA", D("18.60"), "GBP"),
        Product("PRD-655", "Reagent kit RK-12", "PG-REAG", "SUP-97", "SET", D("420.00"), "GBP"),
        Product("PRD-910", "Copy paper A4 (box)", "PG-PAPER", "SUP-98", "BOX", D("24.90")),
        Product("PRD-915", "Label rolls 100x50", "PG-PAPER", "SUP-98", "EA", D("6.40")),
        Product("PRD-950", "Express freight per parcel", "PG-SHIP", "SUP-95", "EA", D("38.00"), "USD"),
    ),
    agreements=(
        AgreementSpec(
            document_id="agreement-2026-04",
            company_id="COMP-X",
            title="Laboratory Supply Agreement 2026-04 — Xenon Pharma AG",
            effective_date=date(2026, 1, 15),
            counterparty_note="Xenon Pharma AG buys laboratory measurement equipment and reagents.",
            approvals=(
                Approval("Gamma Labortechnik AG", "SUP-93", "Pressure measurement", date(2025, 7, 1), None),
                Approval("Helix Reagents Ltd", "SUP-97", "Reagents", date(2025, 10, 1), date(2026, 4, 1)),
                Approval("Beta Logistics Inc", "SUP-95", "Express freight", date(2026, 10, 1), None),
            ),
        ),
        AgreementSpec(
            document_id="agreement-2025-10",
            company_id="COMP-Y",
            title="Office and Logistics Agreement 2025-10 — Ypsilon Retail GmbH",
            effective_date=date(2025, 10, 1),
            counterparty_note="Ypsilon Retail GmbH buys office supplies and express freight.",
            approvals=(
                Approval("Iris Office", "SUP-98", "Office supplies", date(2025, 10, 1), None),
                Approval("Supplier Beta", "SUP-95", "Express freight", date(2025, 10, 1), date(2026, 9, 1)),
            ),
        ),
    ),
    manuals=(
        ManualSpec("manual-prd-482", "PRD-482 Pressure Sensor LS-2 — Service Notes", ("PRD-482",),
                   date(2025, 7, 5)),
        ManualSpec("manual-prd-655", "PRD-655 Reagent Kit RK-12 — Handling Instructions", ("PRD-655",),
                   date(2025, 12, 1)),
    ),
    missing_fx=((date(2026, 2, 11), "CHF"),),
)

TENANTS: tuple[TenantSpec, ...] = (TENANT_17, TENANT_42, TENANT_99)  # sorted by tenant_id: manifest order
