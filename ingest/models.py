"""Typed values of the pipeline: validated source records, chunks, identifiers and parsed documents.

Records are frozen pydantic models; validation errors name the field (``lines[2].quantity``), and the parsers
turn them into :class:`~ingest.errors.ParseError` messages. Money and rates are ``Decimal`` with the scale of
their landing column: a value with more decimals is rejected rather than rounded by Postgres.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ingest.hashing import text_sha256_tag

DOCUMENT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}$")

DocumentType = Literal[
    "companies", "suppliers", "product_groups", "products", "fx_rates",
    "agreement", "product_manual", "invoice", "credit_note",
]

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
Code = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$")]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
DocumentId = Annotated[str, StringConstraints(pattern=DOCUMENT_ID_PATTERN.pattern)]


def _fits_numeric(scale: int, *, positive: bool = False) -> Callable[[Decimal], Decimal]:
    """A validator: the Decimal fits numeric(18, scale) exactly (more decimals are an error, not rounding)."""

    def check(value: Decimal) -> Decimal:
        if not value.is_finite():
            raise ValueError("must be a finite number")
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int) and exponent < -scale and value != value.quantize(Decimal(1).scaleb(-scale)):
            raise ValueError(f"has more than {scale} decimal places")
        if abs(value) >= Decimal(10) ** (18 - scale):
            raise ValueError(f"does not fit numeric(18, {scale})")
        if positive and value <= 0:
            raise ValueError("must be positive")
        return value

    return check


Money = Annotated[Decimal, AfterValidator(_fits_numeric(2))]
Quantity = Annotated[Decimal, AfterValidator(_fits_numeric(4))]
Price = Annotated[Decimal, AfterValidator(_fits_numeric(4))]
Rate = Annotated[Decimal, AfterValidator(_fits_numeric(8, positive=True))]


class Record(BaseModel):
    """Base of every validated source record: frozen; unknown source fields are ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", str_strip_whitespace=True)


class Company(Record):
    company_id: Code
    company_name: NonEmpty
    reporting_currency: Currency


class Supplier(Record):
    supplier_id: Code
    supplier_name: NonEmpty
    aliases: tuple[NonEmpty, ...] = ()
    country: str | None = None
    contact_email: str | None = None
    iban: str | None = None


class SupplierAlias(Record):
    supplier_id: Code
    alias: NonEmpty
    alias_normalized: NonEmpty


class ProductGroup(Record):
    product_group_id: Code
    group_name: NonEmpty
    parent_group_id: Code | None = None
    #: Other names of the group by ISO 639-1 language, e.g. {"de": ["Drucksensoren"]} (catalog metadata).
    synonyms: dict[Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")], tuple[NonEmpty, ...]] = Field(
        default_factory=dict)


class ProductGroupSynonym(Record):
    """One other name of a product group (a row of landing.product_group_synonyms)."""

    product_group_id: Code
    language: NonEmpty
    synonym: NonEmpty


class Product(Record):
    product_code: Code
    product_name: NonEmpty
    product_group_id: Code
    supplier_id: Code
    unit_of_measure: NonEmpty
    list_price: Price
    currency: Currency


class FxRate(Record):
    rate_date: date
    from_currency: Currency
    to_currency: Currency
    rate_type: NonEmpty
    rate: Rate


class VendorApproval(Record):
    """One row of an agreement's approved-vendor table, with where it was found."""

    approval_id: NonEmpty
    agreement_id: DocumentId
    company_id: Code
    supplier_id: Code
    supplier_name: NonEmpty
    scope: str | None = None
    valid_from: date
    valid_to: date | None = None
    page_number: int | None = None
    chunk_id: str | None = None
    extraction_version: NonEmpty

    @model_validator(mode="after")
    def _half_open(self) -> VendorApproval:
        if self.valid_to is not None and self.valid_to <= self.valid_from:
            raise ValueError(f"valid_to {self.valid_to} must be after valid_from {self.valid_from}")
        return self


class InvoiceLineIn(Record):
    """An invoice line as the source writes it."""

    line_number: int = Field(ge=1, le=9999)
    product_code: Code
    description: str | None = None
    quantity: Quantity
    unit_price: Price
    discount_amount: Money = Decimal("0")
    line_net_amount: Money
    line_tax_amount: Money | None = None


class InvoiceIn(Record):
    """An invoice or credit note as the source writes it (docs/corpus.md). Business rules (tax sums, signs)
    are checked by the landing quality suites, not here: ingestion keeps every well-formed document."""

    document_id: DocumentId
    source_system: NonEmpty
    document_type: Literal["invoice", "credit_note"]
    invoice_number: NonEmpty
    company_id: Code
    supplier_name: NonEmpty
    status: Literal["draft", "posted", "paid", "cancelled"]
    invoice_date: date
    posting_date: date
    currency: Currency
    tax_level: Literal["line", "invoice"]
    header_tax_amount: Money
    original_invoice_number: str | None = None
    lines: tuple[InvoiceLineIn, ...] = Field(min_length=1)
    #: the source's own order of versions (either; the newer wins, see :func:`ingest.pipeline.judge_arrival`)
    revision: int | None = Field(default=None, ge=0)
    updated_at: datetime | None = None

    @model_validator(mode="after")
    def _structure(self) -> InvoiceIn:
        numbers = [line.line_number for line in self.lines]
        if len(set(numbers)) != len(numbers):
            raise ValueError("lines: line_number values must be unique")
        if self.document_type == "credit_note" and not self.original_invoice_number:
            raise ValueError("original_invoice_number is required for a credit_note")
        return self


class InvoiceHeader(Record):
    """A row of landing.invoice_headers."""

    business_hash: str
    source_system: str
    document_type: Literal["invoice", "credit_note"]
    invoice_number: str
    company_id: str
    supplier_name: str
    status: str
    invoice_date: date
    posting_date: date
    currency: str
    tax_level: str
    header_tax_amount: Decimal
    original_invoice_number: str | None = None


class InvoiceLine(Record):
    """A row of landing.invoice_lines."""

    line_id: str
    line_number: int
    product_code: str
    description: str | None = None
    quantity: Decimal
    unit_price: Decimal
    discount_amount: Decimal
    line_net_amount: Decimal
    line_tax_amount: Decimal | None = None


class FrontMatter(Record):
    """Front matter of an agreement or manual."""

    model_config = ConfigDict(frozen=True, extra="allow", str_strip_whitespace=True)

    document_id: DocumentId
    document_type: Literal["agreement", "product_manual"]
    title: NonEmpty
    company_id: Code | None = None
    product_codes: tuple[Code, ...] = ()
    effective_date: date | None = None
    revision: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _per_type(self) -> FrontMatter:
        if self.document_type == "agreement" and self.company_id is None:
            raise ValueError("company_id is required for an agreement")
        return self


class PaymentTerm(Record):
    """The payment term of one agreement version ("Payment is due 30 days net"), with where it was found.

    A version's term holds from its effective date until the next version's (dbt: marts.payment_terms)."""

    agreement_id: DocumentId
    company_id: Code
    effective_date: date
    term_days: int = Field(ge=0, le=366)
    clause: str | None = None
    sentence: NonEmpty
    page_number: int | None = None
    chunk_id: str | None = None
    extraction_version: NonEmpty


@dataclass(frozen=True)
class Records:
    """The relational rows of one document, by landing table (each tuple empty unless the kind has them)."""

    companies: tuple[Company, ...] = ()
    suppliers: tuple[Supplier, ...] = ()
    supplier_aliases: tuple[SupplierAlias, ...] = ()
    product_groups: tuple[ProductGroup, ...] = ()
    product_group_synonyms: tuple[ProductGroupSynonym, ...] = ()
    products: tuple[Product, ...] = ()
    fx_rates: tuple[FxRate, ...] = ()
    vendor_approvals: tuple[VendorApproval, ...] = ()
    payment_terms: tuple[PaymentTerm, ...] = ()
    invoice_headers: tuple[InvoiceHeader, ...] = ()
    invoice_lines: tuple[InvoiceLine, ...] = ()


@dataclass(frozen=True)
class Chunk:
    """One retrievable text unit.

    ``text`` is exactly ``canonical_text[char_start:char_end]`` for Markdown; record summaries (invoices,
    master data) have no span. ``embedding_text`` is what the embedder sees: the text with its title and
    section path, so a clause keeps its context.
    """

    chunk_id: str
    page: int
    ordinal: int
    parent_id: str | None
    section_path: tuple[str, ...]
    char_start: int | None
    char_end: int | None
    text: str
    embedding_text: str
    kind: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: the source's own version order (``r:<revision>``, ``t:<updated_at>`` or ``d:<effective date>``), sortable
    #: as text within one prefix; None when the format has none (then arrival order and the registry decide)
    source_revision: str | None = None

    @property
    def content_hash(self) -> str:
        """Hash of the chunk text (what BM25 and display see)."""
        return text_sha256_tag(self.text)

    @property
    def input_hash(self) -> str:
        """Hash of the embedder input; equal inputs share one vector per embedding config."""
        return text_sha256_tag(self.embedding_text)


@dataclass(frozen=True)
class Identifier:
    """A normalized identifier for exact match; ``chunk_id`` None marks a document-level identifier."""

    chunk_id: str | None
    identifier_type: str
    identifier_value: str
    raw: str


@dataclass(frozen=True)
class ParsedDocument:
    """Everything derived from one source document, before it gets a version.

    This is the ``doc`` a :class:`~ingest.writers.RepresentationWriter` receives: typed records for the
    relational and graph stores, chunks with stable ids and provenance, identifiers, and the versions of the
    steps that produced them.
    """

    tenant_id: str
    document_id: str
    document_type: str
    source_uri: str
    source_kind: str
    content_hash: str
    original: bytes
    records: Records
    chunks: tuple[Chunk, ...]
    identifiers: tuple[Identifier, ...]
    parser_version: str
    chunker_version: str | None
    extraction_version: str | None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    #: the source's own version order (``r:<revision>``, ``t:<updated_at>`` or ``d:<effective date>``), sortable
    #: as text within one prefix; None when the format has none (then arrival order and the registry decide)
    source_revision: str | None = None
