"""Pure parsers: one source item in, one :class:`~ingest.models.ParsedDocument` out (or a ParseError).

A parser decides the document's identity (``document_id`` from the content: front matter, the JSON field, or a
fixed id for master files), computes the content hash of its canonical form, validates every record, chunks
the text and collects identifiers. It touches no database, so replay, reconcile and tests call it directly.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ingest.chunker import ChunkerConfig, chunk_identifiers, chunk_layout
from ingest.errors import ParseError, UnsupportedInputError
from ingest.extract import extract_vendor_approvals
from ingest.hashing import business_hash, canonical_json_hash, canonical_text, sha256_tag
from ingest.markdown import parse_layout
from ingest.models import (
    Chunk,
    Company,
    FrontMatter,
    FxRate,
    Identifier,
    InvoiceHeader,
    InvoiceIn,
    InvoiceLine,
    ParsedDocument,
    PaymentTerm,
    Product,
    ProductGroup,
    ProductGroupSynonym,
    Records,
    Supplier,
    SupplierAlias,
    VendorApproval,
)
from ingest.normalize import find_identifiers, normalize_supplier_name
from ingest.payment_terms import extract_payment_term
from ingest.sources import SourceItem
from ingest.versions import CHUNKER_VERSION, EXTRACTION_VERSION, PARSER_VERSION

#: Fixed document ids of the master files (one document per tenant each; the ids the corpus manifest uses).
MASTER_DOCUMENT_IDS = {
    "companies": "companies",
    "suppliers": "suppliers",
    "product_groups": "product-groups",
    "products": "products",
    "fx_rates": "fx-rates",
}
PRODUCT_COLUMNS = ("product_code", "product_name", "product_group_id", "supplier_id", "unit_of_measure",
                   "list_price", "currency")
FX_COLUMNS = ("rate_date", "from_currency", "to_currency", "rate_type", "rate")

M = TypeVar("M", bound=BaseModel)


def parse_item(item: SourceItem, chunker: ChunkerConfig | None = None) -> ParsedDocument:
    """Parse one source item into a document with records, chunks and identifiers.

    Raises:
        UnsupportedInputError: the item is not a kind the corpus contract describes.
        ParseError: the item is malformed; the message names the source, the field and the problem.
    """
    parser = _PARSERS.get(item.kind or "")
    if parser is None:
        raise UnsupportedInputError(
            f"{item.source_uri}: unsupported source (expected companies.json, suppliers.json, "
            "product_groups.json, products.csv, fx_rates.csv, Markdown, invoice JSON or JSONL)"
        )
    if item.error is not None:
        raise item.error
    doc = parser(item, chunker or ChunkerConfig())
    master_kind = _MASTER_KIND_OF_ID.get(doc.document_id)
    if master_kind is not None and master_kind != item.kind:
        # Design note: master data keeps its own identity; no other file may publish under a master id.
        raise ParseError(f"{item.source_uri}: document_id: {doc.document_id!r} is reserved for the {master_kind} "
                         "master file of the tenant")
    return doc


def source_revision(*, revision: int | None = None, updated_at: datetime | None = None,
                    effective_date: date | None = None) -> str | None:
    """The sortable version order a source states: an explicit revision, else ``updated_at``, else the
    effective date (an amendment takes effect after what it amends).

    >>> source_revision(revision=3)
    'r:000000000003'
    >>> source_revision(effective_date=date(2026, 4, 20))
    'd:2026-04-20'
    """
    if revision is not None:
        return f"r:{revision:012d}"
    if updated_at is not None:
        moment = updated_at if updated_at.tzinfo is not None else updated_at.replace(tzinfo=UTC)
        return "t:" + moment.astimezone(UTC).isoformat(timespec="microseconds")
    if effective_date is not None:
        return f"d:{effective_date.isoformat()}"
    return None


_MASTER_KIND_OF_ID = {document_id: kind for kind, document_id in MASTER_DOCUMENT_IDS.items()}


# -- helpers ------------------------------------------------------------------------------------------------


def _reject_nul(value: Any, source: str, where: str = "") -> None:
    """A NUL character cannot be stored as text: name the field that holds one instead of failing at write."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ParseError(f"{source}: {where or '(document)'}: contains a NUL character (\\u0000)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _reject_nul(str(key), source, f"{where}.{key}" if where else f"{key} (key)")
            _reject_nul(item, source, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_nul(item, source, f"{where}[{index}]")


def _describe(error: ValidationError, prefix: str) -> str:
    parts = []
    for detail in error.errors()[:3]:
        location = ""
        for element in detail["loc"]:
            location += f"[{element}]" if isinstance(element, int) else (f".{element}" if location else element)
        message = str(detail["msg"]).removeprefix("Value error, ")
        parts.append(f"{prefix}{location or '(document)'}: {message}")
    more = len(error.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _validate(model: type[M], data: Any, source: str, prefix: str = "") -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ParseError(f"{source}: {_describe(exc, prefix)}") from None


def _load_json(item: SourceItem) -> Any:
    try:
        text = item.raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ParseError(f"{item.source_uri}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        # Design note: numbers become Decimal, never float, so money keeps its exact digits end to end.
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"{item.source_uri}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    _reject_nul(data, item.source_uri)
    return data


def _json_list(item: SourceItem) -> list[Any]:
    data = _load_json(item)
    if not isinstance(data, list):
        raise ParseError(f"{item.source_uri}: expected a JSON array of records, got {type(data).__name__}")
    return data


def _text(item: SourceItem) -> str:
    try:
        text = canonical_text(item.raw)
    except UnicodeDecodeError as exc:
        raise ParseError(f"{item.source_uri}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    position = text.find("\x00")
    if position >= 0:
        line = text.count("\n", 0, position) + 1
        raise ParseError(f"{item.source_uri}: line {line}: contains a NUL character (\\u0000)")
    return text


def _unique(records: Sequence[M], key: Callable[[M], Any], what: str, source: str) -> None:
    seen: set[Any] = set()
    for index, record in enumerate(records):
        value = key(record)
        if value in seen:
            raise ParseError(f"{source}: [{index}]: duplicate {what} {value!r}")
        seen.add(value)


def _record_chunks(document_id: str, texts: Iterable[tuple[str, str]], metadata: dict[str, object]) -> tuple[
    tuple[Chunk, ...], tuple[Identifier, ...]
]:
    """One small chunk per master record (key, text), on page 1, with the identifiers in its text."""
    chunks: list[Chunk] = []
    identifiers: list[Identifier] = []
    for ordinal, (key, text) in enumerate(texts, start=1):
        chunk_id = f"{document_id}-p01-c{ordinal:02d}"
        chunks.append(
            Chunk(chunk_id=chunk_id, page=1, ordinal=ordinal, parent_id=None, section_path=(), char_start=None,
                  char_end=None, text=text, embedding_text=text, kind="record",
                  metadata={**metadata, "record_key": key})
        )
        identifiers.extend(_identifiers_of(chunk_id, text))
    return tuple(chunks), tuple(identifiers)


def _identifiers_of(chunk_id: str | None, text: str) -> list[Identifier]:
    seen: dict[tuple[str, str], str] = {}
    for match in find_identifiers(text):
        seen.setdefault((match.identifier_type, match.value), match.raw)
    return [Identifier(chunk_id, t, v, raw) for (t, v), raw in sorted(seen.items())]


def _document(item: SourceItem, document_id: str, document_type: str, content_hash: str, records: Records,
              chunks: tuple[Chunk, ...] = (), identifiers: tuple[Identifier, ...] = (),
              metadata: dict[str, object] | None = None, extraction: bool = False) -> ParsedDocument:
    return ParsedDocument(
        tenant_id=item.tenant_id,
        document_id=document_id,
        document_type=document_type,
        source_uri=item.source_uri,
        source_kind=item.kind or "",
        content_hash=content_hash,
        original=item.raw,
        records=records,
        chunks=chunks,
        identifiers=identifiers,
        parser_version=PARSER_VERSION,
        chunker_version=CHUNKER_VERSION if chunks else None,
        extraction_version=EXTRACTION_VERSION if extraction else None,
        metadata=metadata or {},
    )


# -- master data --------------------------------------------------------------------------------------------


def parse_companies(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    data = _json_list(item)
    companies = tuple(_validate(Company, row, item.source_uri, f"[{i}].") for i, row in enumerate(data))
    _unique(companies, lambda c: c.company_id, "company_id", item.source_uri)
    document_id = MASTER_DOCUMENT_IDS["companies"]
    chunks, identifiers = _record_chunks(
        document_id,
        ((c.company_id, f"Company {c.company_id}: {c.company_name}. Reporting currency: {c.reporting_currency}.")
         for c in companies),
        {"document_type": "companies"},
    )
    return _document(item, document_id, "companies", canonical_json_hash(data), Records(companies=companies),
                     chunks, identifiers)


def supplier_aliases(suppliers: Sequence[Supplier], source: str) -> tuple[SupplierAlias, ...]:
    """The alias rows of a supplier master: its name and every alias, one row per normalized form.

    Raises:
        ParseError: an alias normalizes to nothing, or to the alias of another supplier (ambiguous).
    """
    owner: dict[str, str] = {}
    rows: list[SupplierAlias] = []
    for index, supplier in enumerate(suppliers):
        for alias_index, alias in enumerate((supplier.supplier_name, *supplier.aliases)):
            field = "supplier_name" if alias_index == 0 else f"aliases[{alias_index - 1}]"
            normalized = normalize_supplier_name(alias)
            if normalized is None:
                raise ParseError(f"{source}: [{index}].{field}: {alias!r} has nothing left after normalization")
            previous = owner.get(normalized)
            if previous is not None and previous != supplier.supplier_id:
                raise ParseError(
                    f"{source}: [{index}].{field}: {alias!r} normalizes to {normalized!r}, which is already a "
                    f"name of {previous}; an alias must identify one supplier"
                )
            if previous is None:
                owner[normalized] = supplier.supplier_id
                rows.append(SupplierAlias(supplier_id=supplier.supplier_id, alias=alias, alias_normalized=normalized))
    return tuple(rows)


def parse_suppliers(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    data = _json_list(item)
    suppliers = tuple(_validate(Supplier, row, item.source_uri, f"[{i}].") for i, row in enumerate(data))
    _unique(suppliers, lambda s: s.supplier_id, "supplier_id", item.source_uri)
    aliases = supplier_aliases(suppliers, item.source_uri)
    document_id = MASTER_DOCUMENT_IDS["suppliers"]
    # Design note: contact e-mail and IBAN stay in the relational rows only; the text index never holds PII.
    texts = []
    for s in suppliers:
        others = [a for a in s.aliases if a != s.supplier_name]
        also = f" Also known as: {'; '.join(others)}." if others else ""
        country = f" Country: {s.country}." if s.country else ""
        texts.append((s.supplier_id, f"Supplier {s.supplier_id}: {s.supplier_name}.{also}{country}"))
    chunks, identifiers = _record_chunks(document_id, texts, {"document_type": "suppliers"})
    return _document(item, document_id, "suppliers", canonical_json_hash(data),
                     Records(suppliers=suppliers, supplier_aliases=aliases), chunks, identifiers)


def parse_product_groups(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    data = _json_list(item)
    groups = tuple(_validate(ProductGroup, row, item.source_uri, f"[{i}].") for i, row in enumerate(data))
    _unique(groups, lambda g: g.product_group_id, "product_group_id", item.source_uri)
    document_id = MASTER_DOCUMENT_IDS["product_groups"]
    chunks, identifiers = _record_chunks(
        document_id,
        ((g.product_group_id,
          f"Product group {g.product_group_id}: {g.group_name}."
          + (f" Part of {g.parent_group_id}." if g.parent_group_id else " Top-level group."))
         for g in groups),
        {"document_type": "product_groups"},
    )
    synonyms = tuple(
        ProductGroupSynonym(product_group_id=g.product_group_id, language=language, synonym=name)
        for g in groups
        for language, names in sorted(g.synonyms.items())
        for name in dict.fromkeys(names)
    )
    return _document(item, document_id, "product_groups", canonical_json_hash(data),
                     Records(product_groups=groups, product_group_synonyms=synonyms), chunks, identifiers)


def _csv_rows(item: SourceItem, columns: tuple[str, ...]) -> tuple[str, list[tuple[int, dict[str, str]]]]:
    text = _text(item)
    reader = csv.DictReader(io.StringIO(text))
    header = tuple(name.strip() for name in reader.fieldnames or ())
    missing = [c for c in columns if c not in header]
    if missing:
        raise ParseError(
            f"{item.source_uri}: header: missing column(s) {', '.join(missing)} (have {', '.join(header)})"
        )
    rows: list[tuple[int, dict[str, str]]] = []
    for row in reader:
        if None in row:
            raise ParseError(f"{item.source_uri}: line {reader.line_num}: more fields than the header has")
        rows.append((reader.line_num, {k.strip(): (v.strip() if v is not None else "") for k, v in row.items()}))
    return text, rows


def parse_products(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    text, rows = _csv_rows(item, PRODUCT_COLUMNS)
    products = tuple(_validate(Product, row, item.source_uri, f"line {line}: ") for line, row in rows)
    _unique(products, lambda p: p.product_code, "product_code", item.source_uri)
    document_id = MASTER_DOCUMENT_IDS["products"]
    chunks, identifiers = _record_chunks(
        document_id,
        ((p.product_code,
          f"Product {p.product_code}: {p.product_name}. Product group {p.product_group_id}. "
          f"Supplier {p.supplier_id}. Unit {p.unit_of_measure}. List price {p.list_price} {p.currency}.")
         for p in products),
        {"document_type": "products"},
    )
    return _document(item, document_id, "products", sha256_tag(text.encode()), Records(products=products),
                     chunks, identifiers)


def parse_fx_rates(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    text, rows = _csv_rows(item, FX_COLUMNS)
    rates = tuple(_validate(FxRate, row, item.source_uri, f"line {line}: ") for line, row in rows)
    _unique(rates, lambda r: (r.rate_date, r.from_currency, r.to_currency, r.rate_type), "rate", item.source_uri)
    # Rates are numbers for SQL, not text for search: no chunks.
    return _document(item, MASTER_DOCUMENT_IDS["fx_rates"], "fx_rates", sha256_tag(text.encode()),
                     Records(fx_rates=rates))


# -- agreements and manuals ---------------------------------------------------------------------------------


def parse_markdown(item: SourceItem, chunker: ChunkerConfig) -> ParsedDocument:
    text = _text(item)
    layout = parse_layout(text, item.source_uri)
    front = _validate(FrontMatter, layout.front_matter, item.source_uri, "front matter: ")
    metadata: dict[str, object] = {"document_type": front.document_type, "title": front.title}
    if front.company_id:
        metadata["company_id"] = front.company_id
    if front.product_codes:
        metadata["product_codes"] = list(front.product_codes)
    if front.effective_date:
        metadata["effective_date"] = front.effective_date.isoformat()
    chunks = chunk_layout(layout, document_id=front.document_id, title=front.title, config=chunker,
                          metadata=metadata)
    if not chunks:
        raise ParseError(f"{item.source_uri}: the document has no content after its front matter")
    identifiers = [
        Identifier(chunk_id, t, v, raw)
        for chunk_id, found in chunk_identifiers(chunks).items()
        for t, v, raw in found
    ]
    # Document-level identifiers: the front matter says what the document is about even where no chunk does.
    doc_level = {("contract_id", front.document_id)} if front.document_type == "agreement" else set()
    if front.company_id:
        doc_level.add(("company_id", front.company_id))
    doc_level.update(("product_code", code) for code in front.product_codes)
    identifiers.extend(Identifier(None, t, v, v) for t, v in sorted(doc_level))
    approvals: tuple[VendorApproval, ...] = ()
    terms: tuple[PaymentTerm, ...] = ()
    if front.document_type == "agreement":
        assert front.company_id is not None  # FrontMatter requires it for agreements
        approvals = extract_vendor_approvals(layout, chunks, document_id=front.document_id,
                                             company_id=front.company_id, source=item.source_uri)
        # the version's payment term, structured (overdue is computed from it, never from retrieved text)
        terms = extract_payment_term(layout, chunks, document_id=front.document_id, company_id=front.company_id,
                                     effective_date=front.effective_date, source=item.source_uri)
    doc = _document(item, front.document_id, front.document_type, sha256_tag(text.encode()),
                    Records(vendor_approvals=approvals, payment_terms=terms), chunks, tuple(identifiers), metadata,
                    extraction=front.document_type == "agreement")
    return replace(doc, source_revision=source_revision(revision=front.revision,
                                                        effective_date=front.effective_date))


# -- invoices -----------------------------------------------------------------------------------------------


def invoice_summary(invoice: InvoiceIn) -> str:
    """The searchable text of an invoice: header and one line per invoice line (business fields only)."""
    kind = "Credit note" if invoice.document_type == "credit_note" else "Invoice"
    head = f"{kind} {invoice.invoice_number} ({invoice.status}) from {invoice.supplier_name} to {invoice.company_id}"
    if invoice.original_invoice_number:
        head += f", for original invoice {invoice.original_invoice_number}"
    lines = [
        head + ".",
        f"Invoice date {invoice.invoice_date}, posting date {invoice.posting_date}, currency {invoice.currency}, "
        f"tax level {invoice.tax_level}, header tax {invoice.header_tax_amount}.",
    ]
    for line in invoice.lines:
        tax = f", tax {line.line_tax_amount}" if line.line_tax_amount is not None else ""
        description = f" {line.description}" if line.description else ""
        lines.append(
            f"Line {line.line_number}: {line.product_code}{description}; quantity {line.quantity} at "
            f"{line.unit_price}, discount {line.discount_amount}, net {line.line_net_amount}{tax}."
        )
    return "\n".join(lines)


def parse_invoice(item: SourceItem, _: ChunkerConfig) -> ParsedDocument:
    data = _load_json(item)
    if not isinstance(data, dict):
        raise ParseError(f"{item.source_uri}: expected a JSON object (one invoice or credit note)")
    invoice = _validate(InvoiceIn, data, item.source_uri)
    content_hash, invoice_hash = canonical_json_hash(data), business_hash(data)
    # validation copied every string: the parsed JSON is not needed any more (a 50 MB invoice held it twice)
    del data
    header = InvoiceHeader(
        business_hash=invoice_hash,
        **invoice.model_dump(include={
            "source_system", "document_type", "invoice_number", "company_id", "supplier_name", "status",
            "invoice_date", "posting_date", "currency", "tax_level", "header_tax_amount",
            "original_invoice_number",
        }),
    )
    lines = tuple(
        InvoiceLine(line_id=f"{invoice.document_id}-line-{line.line_number:02d}", **line.model_dump())
        for line in sorted(invoice.lines, key=lambda ln: ln.line_number)
    )
    text = invoice_summary(invoice)
    chunk_id = f"{invoice.document_id}-p01-c01"
    metadata: dict[str, object] = {
        "document_type": invoice.document_type,
        "invoice_number": invoice.invoice_number,
        "company_id": invoice.company_id,
        "invoice_date": invoice.invoice_date.isoformat(),
        "status": invoice.status,
    }
    chunk = Chunk(chunk_id=chunk_id, page=1, ordinal=1, parent_id=None, section_path=(), char_start=None,
                  char_end=None, text=text, embedding_text=text, kind="record", metadata=metadata)
    doc = _document(item, invoice.document_id, invoice.document_type, content_hash,
                    Records(invoice_headers=(header,), invoice_lines=lines), (chunk,),
                    tuple(_identifiers_of(chunk_id, text)), metadata)
    return replace(doc, source_revision=source_revision(revision=invoice.revision, updated_at=invoice.updated_at))


_PARSERS: dict[str, Callable[[SourceItem, ChunkerConfig], ParsedDocument]] = {
    "companies": parse_companies,
    "suppliers": parse_suppliers,
    "product_groups": parse_product_groups,
    "products": parse_products,
    "fx_rates": parse_fx_rates,
    "markdown": parse_markdown,
    "invoice": parse_invoice,
}

