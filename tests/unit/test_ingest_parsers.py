"""Parsers of every source kind (database-free): identity, hashes, records, and errors that name the field."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from ingest.errors import ParseError, UnsupportedInputError
from ingest.parsers import parse_item
from ingest.sources import SourceItem, detect_kind, iter_items

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
TENANT = FIXTURES / "tenant"


def _item(path: Path, tenant: str = "t-1", raw: bytes | None = None) -> SourceItem:
    return SourceItem(tenant, str(path), detect_kind(path), path.read_bytes() if raw is None else raw)


def test_every_fixture_kind_parses_with_its_document_identity(tmp_path: Path) -> None:
    shutil.copytree(TENANT, tmp_path / "tenants" / "t-1")
    docs = {d.document_id: d for d in (parse_item(i) for i in iter_items(tmp_path))}
    assert {k: v.document_type for k, v in docs.items()} == {
        "companies": "companies", "suppliers": "suppliers", "product-groups": "product_groups",
        "products": "products", "fx-rates": "fx_rates", "agreement-2026-04": "agreement",
        "manual-prd-482": "product_manual", "invoice-2026-0148": "invoice", "invoice-2026-0150": "invoice",
        "invoice-2026-0150-erp-replica": "invoice", "invoice-2026-0201": "invoice", "credit-2026-0007": "credit_note",
    }
    assert all(d.tenant_id == "t-1" and d.content_hash.startswith("sha256:") for d in docs.values())
    assert len(docs["fx-rates"].records.fx_rates) == 12 and docs["fx-rates"].chunks == ()
    assert docs["fx-rates"].records.fx_rates[0].rate == Decimal("0.92150000")
    assert [p.product_code for p in docs["products"].records.products] == ["PRD-482", "PRD-483", "PRD-611", "PRD-701"]
    aliases = {a.alias_normalized for a in docs["suppliers"].records.supplier_aliases}
    assert aliases >= {"beta supplies", "gamma controls"}
    # personal data stays out of the text index
    assert all("DE89" not in c.text and "@" not in c.text for c in docs["suppliers"].chunks)
    batch_line = docs["invoice-2026-0201"]
    assert batch_line.source_uri.endswith("batch-001.jsonl#L1")


def test_invoice_records_lines_chunk_and_hashes() -> None:
    path = TENANT / "invoices" / "2026" / "invoice-2026-0148.json"
    doc = parse_item(_item(path))
    header, = doc.records.invoice_headers
    line, = doc.records.invoice_lines
    assert (header.invoice_number, header.currency, header.header_tax_amount) == ("INV-2026-0148", "USD",
                                                                                 Decimal("361.00"))
    assert (line.line_id, line.quantity, line.line_net_amount) == ("invoice-2026-0148-line-01", Decimal("10"),
                                                                    Decimal("1900.00"))
    chunk, = doc.chunks
    assert chunk.chunk_id == "invoice-2026-0148-p01-c01" and chunk.char_start is None
    assert "INV-2026-0148" in chunk.text and "PRD-482" in chunk.text
    assert {(i.identifier_type, i.identifier_value) for i in doc.identifiers} >= {
        ("invoice_number", "INV-2026-0148"), ("product_code", "PRD-482"), ("company_id", "COMP-A")}
    # the same content written differently (key order, whitespace) is the same document content
    reordered = json.dumps(dict(reversed(list(json.loads(path.read_text()).items()))), indent=4).encode()
    assert parse_item(_item(path, raw=reordered)).content_hash == doc.content_hash


def test_a_replicated_duplicate_has_the_business_hash_of_its_original() -> None:
    original = parse_item(_item(TENANT / "invoices" / "2026" / "invoice-2026-0150.json"))
    replica = parse_item(_item(TENANT / "invoices" / "2026" / "invoice-2026-0150-erp-replica.json"))
    assert original.content_hash != replica.content_hash
    assert original.records.invoice_headers[0].business_hash == replica.records.invoice_headers[0].business_hash
    assert original.chunks[0].text == replica.chunks[0].text  # one vector serves both


def test_markdown_hash_ignores_line_endings_and_bom() -> None:
    path = TENANT / "agreements" / "agreement-2026-04.md"
    plain = parse_item(_item(path))
    windows = parse_item(_item(path, raw=b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n")))
    assert windows.content_hash == plain.content_hash
    assert [c.chunk_id for c in windows.chunks] == [c.chunk_id for c in plain.chunks]


def test_vendor_approvals_carry_validity_page_and_chunk() -> None:
    doc = parse_item(_item(TENANT / "agreements" / "agreement-2026-04.md"))
    approvals = {a.supplier_id: a for a in doc.records.vendor_approvals}
    assert approvals["SUP-18"].valid_to is None and str(approvals["SUP-31"].valid_to) == "2026-07-01"
    assert approvals["SUP-27"].supplier_name == "Gamma Control Systems AG"
    assert {(a.page_number, a.chunk_id, a.company_id, a.extraction_version) for a in approvals.values()} == {
        (3, "agreement-2026-04-p03-c02", "COMP-A", "vendor-table-1")}
    assert approvals["SUP-18"].approval_id == "agreement-2026-04-SUP-18-20250701"
    doc_level = {(i.identifier_type, i.identifier_value) for i in doc.identifiers if i.chunk_id is None}
    assert doc_level == {("contract_id", "agreement-2026-04"), ("company_id", "COMP-A")}


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("invoice-bad-quantity.json", ParseError, r"lines\[0\]\.quantity: Input should be a valid decimal"),
        ("invoice-too-many-decimals.json", ParseError, r"lines\[0\]\.line_net_amount: has more than 2 decimal"),
        ("invoice-not-json.json", ParseError, r"invalid JSON at line 2"),
        ("agreement-without-table.md", ParseError, r"agreement has no approved-vendor table"),
        ("agreement-bad-validity.md", ParseError, r"page 1, row 1: valid_to 2026-01-01 must be after valid_from"),
        ("manual-no-front-matter.md", ParseError, r"front matter: missing"),
        ("notes.txt", UnsupportedInputError, r"unsupported source"),
    ],
)
def test_invalid_sources_raise_errors_naming_the_field(name: str, error: type[Exception], message: str) -> None:
    path = FIXTURES / "invalid" / name
    with pytest.raises(error, match=message) as info:
        parse_item(_item(path))
    assert name in str(info.value)  # the source is named too


def test_csv_and_master_data_errors_name_line_and_field(tmp_path: Path) -> None:
    products = tmp_path / "products.csv"
    products.write_text((TENANT / "catalog" / "products.csv").read_text().replace("145.00", "14.50001"))
    with pytest.raises(ParseError, match=r"line 3: list_price: has more than 4 decimal places"):
        parse_item(_item(products))
    products.write_text("product_code,product_name\nPRD-1,x\n")
    with pytest.raises(ParseError, match=r"header: missing column\(s\) product_group_id, supplier_id"):
        parse_item(_item(products))
    companies = tmp_path / "companies.json"
    companies.write_text('[{"company_id": "COMP-A", "company_name": "A", "reporting_currency": "euro"}]')
    with pytest.raises(ParseError, match=r"\[0\]\.reporting_currency: String should match pattern"):
        parse_item(_item(companies))
    companies.write_text('{"company_id": "COMP-A"}')
    with pytest.raises(ParseError, match="expected a JSON array"):
        parse_item(_item(companies))


def test_credit_note_requires_its_original_invoice(tmp_path: Path) -> None:
    line = (TENANT / "invoices" / "batches" / "batch-001.jsonl").read_text().splitlines()[1]
    data = json.loads(line)
    data["original_invoice_number"] = None
    with pytest.raises(ParseError, match="original_invoice_number is required for a credit_note"):
        parse_item(SourceItem("t-1", "x.jsonl#L2", "invoice", json.dumps(data).encode()))
