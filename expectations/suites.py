"""The landing suites: which rows each one reads and which expectations it holds them to.

A suite reads the rows of the *candidate* versions (the active version of every non-deleted document) of one
landing table; every row carries ``tenant_id, document_id, document_version`` (the batch key) and a row key, so a
failing expectation names the document versions and rows that break it. Great Expectations is imported only
when the expectations are built, so importing this module stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

#: Active ISO 4217 currency codes (2024 list, funds and precious metals excluded).
ISO_4217_CODES: frozenset[str] = frozenset(
    [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN", "BHD",
        "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CLP", "CNY",
        "COP", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP",
        "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR",
        "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT",
        "LAK", "LBP", "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR",
        "MVR", "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK",
        "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD",
        "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY",
        "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS", "VED", "VES", "VND", "VUV", "WST", "XAF", "XCD",
        "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG"
    ]
)

#: Text form of a finite decimal (what numeric::text gives for every value except NaN and infinities). The
#: range checks read NaN as NULL (a NaN cannot be ordered); this regex is what rejects it.
NUMERIC_TEXT = r"^-?[0-9]+(?:\.[0-9]+)?$"

BATCH_COLUMNS: tuple[str, ...] = ("tenant_id", "document_id", "document_version")

# The candidate versions: what staging would serve if no quarantine existed. %(tenant)s NULL = every tenant.
_CANDIDATES = """
    inner join ingest.documents d
        on d.tenant_id = t.tenant_id
       and d.document_id = t.document_id
       and d.active_version = t.document_version
       and not d.is_deleted
    where (%(tenant)s::text is null or t.tenant_id = %(tenant)s::text)
"""




def _known(table: str, column: str, outer: str, *, alias: str = "m", tenant: str = "t.tenant_id",
           extra: str = "") -> str:
    """A subquery giving the value of ``outer`` when the same tenant's served master data (``table``) holds it in
    ``column``, else NULL.

    Design note: "served" = the active version of a non-deleted document without an open quarantine, the rule
    of dbt's stg_served_document_versions. A reference to master data that staging will not serve would fail a
    dbt relationship test and stop the build of every tenant's marts; here it quarantines only the document
    version that holds the reference (per-tenant blast radius).
    """
    return f"""(select {alias}.{column}
                  from {table} {alias}
                  join ingest.documents {alias}d
                    on {alias}d.tenant_id = {alias}.tenant_id and {alias}d.document_id = {alias}.document_id
                   and {alias}d.active_version = {alias}.document_version and not {alias}d.is_deleted
                 where {alias}.tenant_id = {tenant} and {alias}.{column} = {outer}{extra}
                   and not exists (select 1 from ingest.quarantine {alias}q
                                    where {alias}q.tenant_id = {alias}.tenant_id
                                      and {alias}q.document_id = {alias}.document_id
                                      and {alias}q.document_version = {alias}.document_version
                                      and {alias}q.released_at is null)
                 limit 1)"""


# A catalog product is known to an invoice line only when its own references are served too (else the catalog
# version is quarantined by landing_products in the same run, and the line would reference a missing product).
_PRODUCT_REFERENCES_SERVED = (
    " and " + _known("landing.suppliers", "supplier_id", "p.supplier_id", alias="s", tenant="p.tenant_id")
    + " is not null and "
    + _known("landing.product_groups", "product_group_id", "p.product_group_id", alias="g", tenant="p.tenant_id")
    + " is not null"
)


@dataclass(frozen=True)
class DateWindow:
    """Business dates outside ``[earliest, latest)`` are data errors (typos such as 2206 or 1926)."""

    earliest: date = date(2000, 1, 1)
    latest: date = date(2100, 1, 1)

    def __post_init__(self) -> None:
        if self.earliest >= self.latest:
            raise ValueError(f"date window: earliest {self.earliest} must be before latest {self.latest}")


@dataclass(frozen=True)
class LandingSuite:
    """One Great Expectations suite over one landing table.

    Attributes:
        name: suite name, stored in ``ingest.quarantine.suite_name``.
        table: the landing table it guards.
        description: what the suite protects, for the report.
        query: SQL returning the rows to check; takes the ``tenant`` parameter.
        row_key: column that names a row in the report (e.g. ``line_id``).
        build: returns the expectations, each with ``meta["name"]`` (the stable name stored in quarantine).
        needs_supplier_resolution: add ``resolved_supplier_id`` (alias lookup) before validating.
    """

    name: str
    table: str
    description: str
    query: str
    row_key: str
    build: Callable[[DateWindow], list[Any]]
    needs_supplier_resolution: bool = False


def _named(expectation_cls: Any, name: str, **kwargs: Any) -> Any:
    return expectation_cls(meta={"name": name}, **kwargs)


def _is_invoice() -> Any:
    from great_expectations.expectations.row_conditions import Column

    return Column("document_type") == "invoice"


def _line_level_tax() -> Any:
    from great_expectations.expectations.row_conditions import Column

    return Column("tax_level") == "line"


def _invoice_headers(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        _named(gxe.ExpectColumnValuesToBeInSet, "currency_is_iso_4217", column="currency",
               value_set=sorted(ISO_4217_CODES)),
        _named(gxe.ExpectColumnValuesToBeInSet, "document_type_is_known", column="document_type",
               value_set=["invoice", "credit_note"]),
        _named(gxe.ExpectColumnValuesToBeInSet, "status_is_known", column="status",
               value_set=["draft", "posted", "paid", "cancelled"]),
        _named(gxe.ExpectColumnValuesToBeInSet, "tax_level_is_known", column="tax_level",
               value_set=["line", "invoice"]),
        _named(gxe.ExpectColumnValuesToBeBetween, "invoice_date_in_range", column="invoice_date",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnValuesToBeBetween, "posting_date_in_range", column="posting_date",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnPairValuesAToBeGreaterThanB, "posting_not_before_invoice_date",
               column_A="posting_date", column_B="invoice_date", or_equal=True),
        _named(gxe.ExpectColumnValuesToMatchRegex, "header_tax_is_numeric", column="header_tax_amount_text",
               regex=NUMERIC_TEXT),
        _named(gxe.ExpectColumnValuesToBeBetween, "invoice_header_tax_not_negative", column="header_tax_amount",
               min_value=0, row_condition=_is_invoice()),
    ]


def _invoice_lines(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    amounts = [
        _named(gxe.ExpectColumnValuesToMatchRegex, f"{column}_is_numeric", column=f"{column}_text",
               regex=NUMERIC_TEXT)
        for column in ("quantity", "unit_price", "discount_amount", "line_net_amount", "line_tax_amount")
    ]
    return [
        *amounts,
        _named(gxe.ExpectColumnValuesToBeBetween, "no_negative_quantity_on_invoices", column="quantity",
               min_value=0, row_condition=_is_invoice()),
        _named(gxe.ExpectColumnValuesToBeBetween, "no_negative_net_amount_on_invoices", column="line_net_amount",
               min_value=0, row_condition=_is_invoice()),
        _named(gxe.ExpectColumnValuesToNotBeNull, "line_tax_present_for_line_level_tax", column="line_tax_amount",
               row_condition=_line_level_tax()),
        _named(gxe.ExpectColumnValuesToNotBeNull, "supplier_known_via_alias", column="resolved_supplier_id"),
        _named(gxe.ExpectColumnValuesToNotBeNull, "product_known_in_catalog", column="known_product_code"),
    ]


def _fx_rates(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    codes = sorted(ISO_4217_CODES)
    return [
        _named(gxe.ExpectColumnValuesToBeInSet, "from_currency_is_iso_4217", column="from_currency", value_set=codes),
        _named(gxe.ExpectColumnValuesToBeInSet, "to_currency_is_iso_4217", column="to_currency", value_set=codes),
        _named(gxe.ExpectColumnValuesToMatchRegex, "rate_is_numeric", column="rate_text", regex=NUMERIC_TEXT),
        _named(gxe.ExpectColumnValuesToBeBetween, "rate_is_positive", column="rate", min_value=0, strict_min=True),
        _named(gxe.ExpectColumnValuesToBeBetween, "rate_date_in_range", column="rate_date",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnValuesToMatchRegex, "rate_type_is_a_name", column="rate_type",
               regex=r"^[a-z][a-z0-9_]{0,31}$"),
    ]


def _companies(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        _named(gxe.ExpectColumnValuesToBeInSet, "reporting_currency_is_iso_4217", column="reporting_currency",
               value_set=sorted(ISO_4217_CODES)),
    ]


def _products(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        _named(gxe.ExpectColumnValuesToBeInSet, "currency_is_iso_4217", column="currency",
               value_set=sorted(ISO_4217_CODES)),
        _named(gxe.ExpectColumnValuesToMatchRegex, "list_price_is_numeric", column="list_price_text",
               regex=NUMERIC_TEXT),
        _named(gxe.ExpectColumnValuesToBeBetween, "list_price_not_negative", column="list_price", min_value=0),
        _named(gxe.ExpectColumnValuesToNotBeNull, "supplier_known_in_master", column="known_supplier_id"),
        _named(gxe.ExpectColumnValuesToNotBeNull, "product_group_known_in_master",
               column="known_product_group_id"),
    ]


def _vendor_approvals(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        _named(gxe.ExpectColumnValuesToBeBetween, "valid_from_in_range", column="valid_from",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnValuesToBeBetween, "valid_to_in_range", column="valid_to",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnValuesToNotBeNull, "supplier_known_in_master", column="known_supplier_id"),
        _named(gxe.ExpectColumnValuesToNotBeNull, "company_known_in_master", column="known_company_id"),
    ]


def _payment_terms(window: DateWindow) -> list[Any]:
    import great_expectations.expectations as gxe

    return [
        _named(gxe.ExpectColumnValuesToBeBetween, "effective_date_in_range", column="effective_date",
               min_value=window.earliest, max_value=window.latest, strict_max=True),
        _named(gxe.ExpectColumnValuesToBeBetween, "term_days_in_range", column="term_days",
               min_value=0, max_value=366),
        _named(gxe.ExpectColumnValuesToNotBeNull, "company_known_in_master", column="known_company_id"),
    ]


SUITES: tuple[LandingSuite, ...] = (
    LandingSuite(
        name="landing_companies",
        table="landing.companies",
        description="companies have an ISO 4217 reporting currency",
        query="select t.tenant_id, t.document_id, t.document_version, t.company_id, t.reporting_currency"
        " from landing.companies t" + _CANDIDATES,
        row_key="company_id",
        build=_companies,
    ),
    LandingSuite(
        name="landing_products",
        table="landing.products",
        description="catalog prices are numeric, not negative, in an ISO currency; supplier and product group "
        "are served master data of the tenant",
        query="select t.tenant_id, t.document_id, t.document_version, t.product_code, t.currency,"
        " nullif(t.list_price, 'NaN') as list_price, t.list_price::text as list_price_text, "
        + _known("landing.suppliers", "supplier_id", "t.supplier_id") + " as known_supplier_id, "
        + _known("landing.product_groups", "product_group_id", "t.product_group_id") + " as known_product_group_id"
        " from landing.products t" + _CANDIDATES,
        row_key="product_code",
        build=_products,
    ),
    LandingSuite(
        name="landing_fx_rates",
        table="landing.fx_rates",
        description="FX rates are positive numbers between ISO currencies on dates in range",
        query="select t.tenant_id, t.document_id, t.document_version,"
        " t.rate_date::text || ' ' || t.from_currency || '/' || t.to_currency || ' ' || t.rate_type as rate_key,"
        " t.rate_date, t.from_currency, t.to_currency, t.rate_type, nullif(t.rate, 'NaN') as rate,"
        " t.rate::text as rate_text"
        " from landing.fx_rates t" + _CANDIDATES,
        row_key="rate_key",
        build=_fx_rates,
    ),
    LandingSuite(
        name="landing_vendor_approvals",
        table="landing.vendor_approvals",
        description="approval validity dates are in range; supplier and company are served master data",
        query="select t.tenant_id, t.document_id, t.document_version, t.approval_id, t.valid_from, t.valid_to, "
        + _known("landing.suppliers", "supplier_id", "t.supplier_id") + " as known_supplier_id, "
        + _known("landing.companies", "company_id", "t.company_id") + " as known_company_id"
        " from landing.vendor_approvals t" + _CANDIDATES,
        row_key="approval_id",
        build=_vendor_approvals,
    ),
    LandingSuite(
        name="landing_payment_terms",
        table="landing.payment_terms",
        description="payment terms: effective dates in range, 0-366 days net, the company is served master data",
        query="select t.tenant_id, t.document_id, t.document_version, t.agreement_id, t.effective_date, t.term_days, "
        + _known("landing.companies", "company_id", "t.company_id") + " as known_company_id"
        " from landing.payment_terms t" + _CANDIDATES,
        row_key="agreement_id",
        build=_payment_terms,
    ),
    LandingSuite(
        name="landing_invoice_headers",
        table="landing.invoice_headers",
        description="invoice headers: ISO currency, known type/status/tax level, dates in range, numeric tax",
        query="select t.tenant_id, t.document_id, t.document_version, t.invoice_number, t.document_type,"
        " t.status, t.tax_level, t.currency, t.invoice_date, t.posting_date,"
        " nullif(t.header_tax_amount, 'NaN') as header_tax_amount,"
        " t.header_tax_amount::text as header_tax_amount_text from landing.invoice_headers t" + _CANDIDATES,
        row_key="invoice_number",
        build=_invoice_headers,
    ),
    LandingSuite(
        name="landing_invoice_lines",
        table="landing.invoice_lines",
        description="invoice lines: numeric amounts, no negative quantities on invoices, tax present for "
        "line-level tax, supplier known through the alias table, product known in the catalog",
        query="""
            select t.tenant_id, t.document_id, t.document_version, t.line_id, h.document_type, h.tax_level,
                   h.supplier_name, t.product_code, nullif(t.quantity, 'NaN') as quantity,
                   nullif(t.line_net_amount, 'NaN') as line_net_amount, t.line_tax_amount,
                   t.quantity::text as quantity_text, t.unit_price::text as unit_price_text,
                   t.discount_amount::text as discount_amount_text,
                   t.line_net_amount::text as line_net_amount_text,
                   t.line_tax_amount::text as line_tax_amount_text,
                   (select p.product_code
                      from landing.products p
                      join ingest.documents pd
                        on pd.tenant_id = p.tenant_id and pd.document_id = p.document_id
                       and pd.active_version = p.document_version and not pd.is_deleted
                     where p.tenant_id = t.tenant_id and p.product_code = t.product_code
                       and not exists (select 1 from ingest.quarantine pq
                                        where pq.tenant_id = p.tenant_id and pq.document_id = p.document_id
                                          and pq.document_version = p.document_version and pq.released_at is null)
                       """ + _PRODUCT_REFERENCES_SERVED + """
                     limit 1) as known_product_code
            from landing.invoice_lines t
            inner join landing.invoice_headers h
                on h.tenant_id = t.tenant_id
               and h.document_id = t.document_id
               and h.document_version = t.document_version
        """ + _CANDIDATES,
        row_key="line_id",
        build=_invoice_lines,
        needs_supplier_resolution=True,
    ),
)
