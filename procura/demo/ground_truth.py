"""Expected answers for the demo corpus, computed from the written files with plain ``Decimal`` arithmetic.

This module deliberately imports nothing from the generator: it reads ``manifest.json`` and the source files
back and applies the accounting policy of docs/corpus.md on its own, so a generator bug and a ground-truth bug
have to coincide to go unnoticed. Everything downstream (loaders, dbt marts, the graph, the router) is checked
against its output.

Policy as implemented here:

* Ingestion order is the manifest order (files), then line order inside a batch file. A later file with the
  same ``(tenant_id, document_id)`` is that document's next version and replaces it; the document keeps the
  position of its first version.
* Supplier names resolve through the alias table after normalisation (casefold, every non-alphanumeric
  character to a space, trailing legal-form suffixes removed, whitespace collapsed).
* A document fails validation (and contributes no lines) if its supplier, company or a product code is
  unknown, or if the ``corporate`` rate on ``posting_date`` is missing; a missing rate is never 1.
* Among valid documents, one whose business key ``(company_id, supplier_id, document_type, invoice_number)``
  and content hash both match an earlier one is a duplicate.
* Signs come from ``document_type`` only (credit notes -1), applied to absolute magnitudes.
* Invoice-level tax is allocated per line: truncated share in cents, remaining cents by largest truncated
  fraction, ties to the lower line number.
* Approvals overlap a period when ``valid_from < end`` and (``valid_to`` open or ``valid_to > start``).
* A product group belongs to a root's subtree when it reaches the root within three ``PART_OF`` steps.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

DEFAULT_STATUSES = ("posted", "paid")
LEGAL_FORM_SUFFIXES = ("gmbh", "ag", "ltd", "inc")
MAX_GROUP_DEPTH = 3
APPROVAL_HEADER = "| Supplier | Supplier ID | Scope | Valid from | Valid to |"
INJECTION_MARKER = "ignore previous instructions"
QUARTERS_2026 = (
    ("2026q1", "2026-01-01", "2026-04-01"),
    ("2026q2", "2026-04-01", "2026-07-01"),
    ("2026q3", "2026-07-01", "2026-10-01"),
    ("2026q4", "2026-10-01", "2027-01-01"),
)
_CENT = Decimal("0.01")
_PAGE_MARKER = re.compile(r"<!-- page (\d+) -->")
_MASTER_KINDS = ("companies", "suppliers", "product_groups", "products", "fx_rates")


class GroundTruthError(Exception):
    """The corpus contradicts its own contract (a generator bug, not a data-quality scenario)."""


def normalize_supplier_name(name: str) -> str:
    """Alias-normalised form of a supplier name, e.g. ``'Beta Supplies, GmbH.'`` -> ``'beta supplies'``."""
    folded = "".join(ch if ch.isalnum() else " " for ch in name.casefold())
    words = folded.split()
    while words and words[-1] in LEGAL_FORM_SUFFIXES:
        words.pop()
    return " ".join(words)


def allocate_invoice_tax(header_tax: Decimal, nets: Sequence[Decimal]) -> list[Decimal]:
    """Split an invoice-level tax over lines in proportion to their net amounts (magnitudes).

    Each line gets its share truncated to cents; the remaining cents go one each to the lines with the largest
    truncated-away fraction, ties to the lower line number. The result sums exactly to ``header_tax``.

    >>> allocate_invoice_tax(Decimal("580.45"), [Decimal("1187.50"), Decimal("1187.50"), Decimal("680.00")])
    [Decimal('225.63'), Decimal('225.62'), Decimal('129.20')]
    """
    header_cents = int(header_tax * 100)
    net_cents = [int(n * 100) for n in nets]
    total = sum(net_cents)
    if total == 0:
        if header_cents:
            raise GroundTruthError("invoice-level tax on an invoice whose lines net to zero")
        return [Decimal("0.00") for _ in nets]
    # Integer arithmetic: the remainders compare the truncated fractions exactly.
    shares = [header_cents * n // total for n in net_cents]
    remainders = [header_cents * n % total for n in net_cents]
    left = header_cents - sum(shares)
    for index in sorted(range(len(nets)), key=lambda i: (-remainders[i], i))[:left]:
        shares[index] += 1
    return [Decimal(s).scaleb(-2) for s in shares]


def round2(value: Decimal) -> str:
    """Presented money: half away from zero to cents, never ``-0.00``."""
    rounded = value.quantize(_CENT, rounding=ROUND_HALF_UP)
    return "0.00" if rounded == 0 else f"{rounded:f}"


def _exact(value: Decimal) -> str:
    return "0" if value == 0 else f"{value:f}"


def _plain(value: Decimal) -> str:
    return "0" if value == 0 else f"{value.normalize():f}"


# --- loading ---------------------------------------------------------------------------------------------

@dataclass
class _Document:
    tenant_id: str
    document_id: str
    document_type: str
    order: int
    payload: Any
    path: str
    versions: int = 1


@dataclass(frozen=True)
class _Approval:
    agreement_id: str
    company_id: str
    supplier_id: str
    supplier_label: str
    scope: str
    valid_from: str
    valid_to: str | None
    page: int

    def overlaps(self, start: str, end: str) -> bool:
        # ISO dates compare correctly as strings; half-open on both sides.
        return self.valid_from < end and (self.valid_to is None or self.valid_to > start)


@dataclass(frozen=True, slots=True)
class _Line:
    """One validated, non-duplicate invoice line with its policy-derived values."""

    line_id: str
    document_id: str
    document_type: str
    invoice_number: str
    company_id: str
    supplier_id: str
    status: str
    invoice_date: str
    product_code: str
    quantity: Decimal
    net: Decimal
    tax: Decimal
    rate: Decimal
    sign: Decimal
    spend: Decimal


@dataclass
class _Tenant:
    tenant_id: str
    files: int = 0
    documents: dict[str, _Document] = field(default_factory=dict)
    reporting_currency: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    groups: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    products: dict[str, dict[str, str]] = field(default_factory=dict)
    fx: dict[tuple[str, str, str, str], Decimal] = field(default_factory=dict)
    approvals: list[_Approval] = field(default_factory=list)
    lines: list[_Line] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    line_counts: dict[str, int] = field(default_factory=dict)
    doc_counts: dict[str, int] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)

    def recognized(self, statuses: Sequence[str]) -> Iterator[_Line]:
        wanted = set(statuses)
        return (line for line in self.lines if line.status in wanted)


def _parse_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---\n"):
        raise GroundTruthError(f"{path}: no front matter")
    end = text.index("\n---\n", 4)
    fields: dict[str, Any] = {}
    for raw in text[4:end].splitlines():
        key, _, value = raw.partition(":")
        value = value.strip()
        if value.startswith("[") and value.endswith("]"):
            fields[key.strip()] = [v.strip() for v in value[1:-1].split(",") if v.strip()]
        else:
            fields[key.strip()] = value
    return fields, text[end + 5:]


def _pages(body: str) -> list[tuple[int, str]]:
    parts = _PAGE_MARKER.split(body)
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts), 2)]


def _parse_markdown(text: str, path: str) -> dict[str, Any]:
    front, body = _parse_front_matter(text, path)
    pages = _pages(body)
    if not pages or pages[0][0] != 1 or [p for p, _ in pages] != list(range(1, len(pages) + 1)):
        raise GroundTruthError(f"{path}: page markers must run 1..N")
    return {"front": front, "pages": pages}


def _approval_rows(document: dict[str, Any], agreement_id: str) -> list[_Approval]:
    approvals: list[_Approval] = []
    company = document["front"].get("company_id", "")
    for page, text in document["pages"]:
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if line.strip() != APPROVAL_HEADER:
                continue
            for row in lines[index + 2:]:
                if not row.startswith("|"):
                    break
                cells = [c.strip() for c in row.strip().strip("|").split("|")]
                label, supplier_id, scope, valid_from, valid_to = cells
                approvals.append(_Approval(agreement_id, company, supplier_id, label, scope, valid_from,
                                           None if valid_to == "open" else valid_to, page))
    return approvals


def _read_files(root: Path, manifest: dict[str, Any]) -> dict[str, _Tenant]:
    tenants: dict[str, _Tenant] = {}
    order = 0

    def register(tenant: _Tenant, document_id: str, document_type: str, payload: Any, path: str) -> None:
        nonlocal order
        existing = tenant.documents.get(document_id)
        if existing is None:
            tenant.documents[document_id] = _Document(tenant.tenant_id, document_id, document_type, order,
                                                      payload, path)
            order += 1
        else:
            if existing.document_type != document_type:
                raise GroundTruthError(f"{path}: new version changes the document type of {document_id}")
            existing.versions += 1
            existing.payload = payload
            existing.path = path

    for entry in manifest["files"]:
        path, kind = entry["path"], entry["kind"]
        tenant = tenants.setdefault(entry["tenant_id"], _Tenant(entry["tenant_id"]))
        tenant.files += 1
        data = (root / path).read_bytes()
        if hashlib.sha256(data).hexdigest() != entry["sha256"] or len(data) != entry["bytes"]:
            raise GroundTruthError(f"{path}: content does not match the manifest")
        text = data.decode("utf-8")
        if kind in ("companies", "suppliers", "product_groups"):
            register(tenant, entry["document_id"], kind, json.loads(text), path)
        elif kind in ("products", "fx_rates"):
            register(tenant, entry["document_id"], kind, list(csv.DictReader(io.StringIO(text))), path)
        elif kind in ("agreement", "product_manual"):
            parsed = _parse_markdown(text, path)
            front = parsed["front"]
            if front.get("document_id") != entry["document_id"] or front.get("document_type") != kind:
                raise GroundTruthError(f"{path}: front matter does not match the manifest")
            register(tenant, entry["document_id"], kind, parsed, path)
        elif kind == "invoice":
            payload = json.loads(text)
            register(tenant, payload["document_id"], payload["document_type"], payload, path)
        elif kind == "invoice_batch":
            for number, raw in enumerate(text.splitlines(), start=1):
                payload = json.loads(raw)
                register(tenant, payload["document_id"], payload["document_type"], payload, f"{path}:{number}")
        else:
            raise GroundTruthError(f"{path}: unknown kind {kind}")
    return tenants


def _build_reference_data(tenant: _Tenant) -> None:
    def only(kind: str) -> Any:
        docs = [d for d in tenant.documents.values() if d.document_type == kind]
        if len(docs) != 1:
            raise GroundTruthError(f"{tenant.tenant_id}: expected exactly one {kind} document")
        return docs[0].payload

    tenant.reporting_currency = {c["company_id"]: c["reporting_currency"] for c in only("companies")}
    for supplier in only("suppliers"):
        for name in (supplier["supplier_name"], *supplier["aliases"]):
            key = normalize_supplier_name(name)
            if tenant.aliases.setdefault(key, supplier["supplier_id"]) != supplier["supplier_id"]:
                raise GroundTruthError(f"{tenant.tenant_id}: alias {name!r} is ambiguous")
    tenant.groups = {g["product_group_id"]: (g["group_name"], g["parent_group_id"]) for g in only("product_groups")}
    tenant.products = {p["product_code"]: p for p in only("products")}
    tenant.fx = {(r["rate_date"], r["from_currency"], r["to_currency"], r["rate_type"]): Decimal(r["rate"])
                 for r in only("fx_rates")}
    for document in sorted(tenant.documents.values(), key=lambda d: d.order):
        if document.document_type == "agreement":
            tenant.approvals += _approval_rows(document.payload, document.document_id)
    for approval in tenant.approvals:
        if tenant.aliases.get(normalize_supplier_name(approval.supplier_label)) != approval.supplier_id:
            raise GroundTruthError(f"{approval.agreement_id}: supplier {approval.supplier_label!r} is not "
                                   f"{approval.supplier_id}")


def _content_hash(payload: dict[str, Any]) -> str:
    business = {k: v for k, v in payload.items() if k not in ("document_id", "source_system")}
    canonical = json.dumps(business, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _validate(tenant: _Tenant, doc: dict[str, Any]) -> tuple[str | None, Decimal | None, dict[str, Any] | None]:
    """(supplier_id, fx rate, failure) of one invoice document."""
    supplier_id = tenant.aliases.get(normalize_supplier_name(doc["supplier_name"]))
    failure: dict[str, Any] | None = None
    reporting = tenant.reporting_currency.get(doc["company_id"])
    rate: Decimal | None = None
    if supplier_id is None:
        failure = {"reason": "unknown_supplier", "supplier_name": doc["supplier_name"]}
    elif reporting is None:
        failure = {"reason": "unknown_company", "company_id": doc["company_id"]}
    elif unknown := sorted({ln["product_code"] for ln in doc["lines"]} - tenant.products.keys()):
        failure = {"reason": "unknown_product", "product_codes": unknown}
    elif doc["currency"] == reporting:
        rate = Decimal(1)
    else:
        rate = tenant.fx.get((doc["posting_date"], doc["currency"], reporting, "corporate"))
        if rate is None:
            failure = {"reason": "missing_fx_rate", "rate_date": doc["posting_date"],
                       "from_currency": doc["currency"], "to_currency": reporting, "rate_type": "corporate"}
    return supplier_id, rate, failure


def _line_taxes(doc: dict[str, Any]) -> list[Decimal]:
    header = abs(Decimal(doc["header_tax_amount"]))
    if doc["tax_level"] == "invoice":
        return allocate_invoice_tax(header, [abs(Decimal(ln["line_net_amount"])) for ln in doc["lines"]])
    taxes = [abs(Decimal(ln["line_tax_amount"])) for ln in doc["lines"]]
    if sum(taxes, Decimal(0)) != header:
        raise GroundTruthError(f"{doc['document_id']}: line taxes do not sum to the header tax")
    return taxes


def _build_lines(tenant: _Tenant) -> None:
    seen: dict[tuple[str, str, str, str], str] = {}
    counts = {"total": 0, "invalid": 0, "duplicate": 0, "cancelled": 0, "draft": 0, "recognized": 0}
    doc_counts = {"total": 0, "invoice": 0, "credit_note": 0, "invalid": 0, "duplicate": 0}
    invoices = sorted((d for d in tenant.documents.values() if d.document_type in ("invoice", "credit_note")),
                      key=lambda d: d.order)
    for document in invoices:
        doc = document.payload
        document.payload = None  # the lines below are all that is needed; keeps --scale 100 memory flat
        n_lines = len(doc["lines"])
        counts["total"] += n_lines
        doc_counts["total"] += 1
        doc_counts[doc["document_type"]] += 1
        supplier_id, rate, failure = _validate(tenant, doc)
        if failure is not None:
            counts["invalid"] += n_lines
            doc_counts["invalid"] += 1
            tenant.failures.append({"tenant_id": tenant.tenant_id, "document_id": doc["document_id"], **failure})
            continue
        assert supplier_id is not None and rate is not None
        key = (doc["company_id"], supplier_id, doc["document_type"], doc["invoice_number"])
        content = _content_hash(doc)
        if key in seen:
            if seen[key] != content:
                raise GroundTruthError(f"{doc['document_id']}: same business key as an earlier document, "
                                       "different content")
            counts["duplicate"] += n_lines
            doc_counts["duplicate"] += 1
            tenant.duplicates.append(doc["document_id"])
            continue
        seen[key] = content
        status = doc["status"]
        if status in ("cancelled", "draft"):
            counts[status] += n_lines
        else:
            counts["recognized"] += n_lines
        sign = Decimal(-1) if doc["document_type"] == "credit_note" else Decimal(1)
        for ln, tax in zip(doc["lines"], _line_taxes(doc), strict=True):
            net = abs(Decimal(ln["line_net_amount"]))
            tenant.lines.append(_Line(
                line_id=f"{doc['document_id']}-line-{ln['line_number']:02d}",
                document_id=doc["document_id"],
                document_type=doc["document_type"],
                invoice_number=doc["invoice_number"],
                company_id=doc["company_id"],
                supplier_id=supplier_id,
                status=status,
                invoice_date=doc["invoice_date"],
                product_code=ln["product_code"],
                quantity=abs(Decimal(ln["quantity"])),
                net=net,
                tax=tax,
                rate=rate,
                sign=sign,
                spend=sign * (net + tax) * rate,
            ))
    tenant.line_counts = counts
    tenant.doc_counts = doc_counts


def load(corpus_dir: Path) -> tuple[dict[str, Any], dict[str, _Tenant]]:
    """Read the manifest and every file it lists; returns (manifest, per-tenant state)."""
    root = Path(corpus_dir)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    tenants = _read_files(root, manifest)
    for tenant in tenants.values():
        _build_reference_data(tenant)
        _build_lines(tenant)
    return manifest, tenants


# --- questions -------------------------------------------------------------------------------------------

def _in_period(line: _Line, start: str, end: str) -> bool:
    return start <= line.invoice_date < end


def _approved(tenant: _Tenant, company_id: str, start: str, end: str) -> list[_Approval]:
    return [a for a in tenant.approvals if a.company_id == company_id and a.overlaps(start, end)]


def _subtree(tenant: _Tenant, root_name: str) -> set[str]:
    roots = [gid for gid, (name, _parent) in tenant.groups.items() if name == root_name]
    if len(roots) != 1:
        raise GroundTruthError(f"{tenant.tenant_id}: product group {root_name!r} is not unique")
    members: set[str] = set()
    for gid in tenant.groups:
        current: str | None = gid
        for _ in range(MAX_GROUP_DEPTH + 1):  # PART_OF*0..3
            if current == roots[0]:
                members.add(gid)
                break
            current = tenant.groups[current][1] if current is not None else None
            if current is None:
                break
    return members


def _aggregate(tenant: _Tenant, name: str, question: str, *, company_id: str, supplier_ids: Sequence[str],
               product_codes: Sequence[str] | None, start: str, end: str,
               statuses: Sequence[str] = DEFAULT_STATUSES, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    suppliers, products = set(supplier_ids), None if product_codes is None else set(product_codes)
    matched = [
        line for line in tenant.recognized(statuses)
        if line.company_id == company_id and line.supplier_id in suppliers and _in_period(line, start, end)
        and (products is None or line.product_code in products)
    ]
    total = sum((line.spend for line in matched), Decimal(0))
    calculated = sorted({line.supplier_id for line in matched})
    missing = sorted(suppliers - set(calculated))
    status = "no_data" if not matched else "partial" if missing else "complete"
    currency = tenant.reporting_currency[company_id]
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "aggregate_spend", "question": question,
        "parameters": {
            "company_id": company_id, **(extra or {}), "supplier_ids": sorted(suppliers),
            "product_codes": None if products is None else sorted(products),
            "start_date": start, "end_date": end, "invoice_statuses": list(statuses),
            "reporting_currency": currency,
        },
        "expected": {
            "status": status, "total_spend": round2(total), "total_spend_exact": _exact(total),
            "currency": currency, "matched_line_count": len(matched),
            "approved_supplier_ids": sorted(suppliers), "calculated_supplier_ids": calculated,
            "missing_supplier_ids": missing,
            "product_codes": sorted({line.product_code for line in matched}),
            "source_line_ids": sorted(line.line_id for line in matched),
        },
    }


def _monitoring_spend(tenant: _Tenant, name: str, company_id: str, group_name: str, start: str,
                      end: str) -> dict[str, Any]:
    approved = {a.supplier_id for a in _approved(tenant, company_id, start, end)}
    groups = _subtree(tenant, group_name)
    products = sorted(code for code, p in tenant.products.items()
                      if p["supplier_id"] in approved and p["product_group_id"] in groups)
    suppliers = sorted({tenant.products[code]["supplier_id"] for code in products})
    return _aggregate(
        tenant, name,
        "What was Company A's total spend on monitoring products supplied by its approved vendors during the "
        "last quarter?",
        company_id=company_id, supplier_ids=suppliers, product_codes=products, start=start, end=end,
        extra={"product_group_name": group_name},
    )


def _approved_vendor_spend(tenant: _Tenant, name: str, company_id: str, start: str, end: str) -> dict[str, Any]:
    suppliers = sorted({a.supplier_id for a in _approved(tenant, company_id, start, end)})
    return _aggregate(tenant, name, "What was Company A's total spend with its approved vendors in 2026-Q1?",
                      company_id=company_id, supplier_ids=suppliers, product_codes=None, start=start, end=end)


def _tax_total(tenant: _Tenant, name: str, company_id: str, invoice_numbers: Sequence[str],
               statuses: Sequence[str] = DEFAULT_STATUSES) -> dict[str, Any]:
    numbers = set(invoice_numbers)
    matched = [line for line in tenant.recognized(statuses)
               if line.company_id == company_id and line.invoice_number in numbers]
    total = sum((line.sign * line.tax * line.rate for line in matched), Decimal(0))
    currency = tenant.reporting_currency[company_id]
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "tax_total",
        "question": "What is the total tax amount across invoices " + ", ".join(sorted(numbers)) + "?",
        "parameters": {"company_id": company_id, "invoice_numbers": sorted(numbers),
                       "invoice_statuses": list(statuses), "reporting_currency": currency},
        "expected": {
            "total_tax": round2(total), "total_tax_exact": _exact(total), "currency": currency,
            "matched_line_count": len(matched),
            "invoice_numbers_found": sorted({line.invoice_number for line in matched}),
            "source_line_ids": sorted(line.line_id for line in matched),
        },
    }


def _unit_price(tenant: _Tenant, name: str, company_id: str, product_code: str, start: str, end: str,
                statuses: Sequence[str] = DEFAULT_STATUSES) -> dict[str, Any]:
    matched = [line for line in tenant.recognized(statuses)
               if line.company_id == company_id and line.product_code == product_code
               and _in_period(line, start, end)]
    amount = sum((line.sign * line.net * line.rate for line in matched), Decimal(0))
    quantity = sum((line.sign * line.quantity for line in matched), Decimal(0))
    price = None if quantity == 0 else (amount / quantity).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    currency = tenant.reporting_currency[company_id]
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "unit_price",
        "question": f"What was the unit price of {product_code} in {start[:7]}?",
        "parameters": {"company_id": company_id, "product_code": product_code, "start_date": start,
                       "end_date": end, "invoice_statuses": list(statuses), "reporting_currency": currency},
        "expected": {
            "unit_price": None if price is None else f"{price:f}", "currency": currency,
            "net_amount_exact": _exact(amount), "quantity": _plain(quantity),
            "matched_line_count": len(matched), "source_line_ids": sorted(line.line_id for line in matched),
        },
    }


def _units_purchased(tenant: _Tenant, name: str, company_id: str, supplier_id: str, start: str, end: str,
                     statuses: Sequence[str] = DEFAULT_STATUSES) -> dict[str, Any]:
    matched = [line for line in tenant.recognized(statuses)
               if line.company_id == company_id and line.supplier_id == supplier_id
               and _in_period(line, start, end)]
    units = sum((line.sign * line.quantity for line in matched), Decimal(0))
    by_product: dict[str, Decimal] = defaultdict(Decimal)
    for line in matched:
        by_product[line.product_code] += line.sign * line.quantity
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "units_purchased",
        "question": f"How many units did {company_id} purchase from {supplier_id} between {start} and {end}?",
        "parameters": {"company_id": company_id, "supplier_id": supplier_id, "start_date": start,
                       "end_date": end, "invoice_statuses": list(statuses)},
        "expected": {
            "units": _plain(units), "units_by_product": {k: _plain(v) for k, v in sorted(by_product.items())},
            "matched_line_count": len(matched), "source_line_ids": sorted(line.line_id for line in matched),
        },
    }


def _invoices_above(tenant: _Tenant, name: str, company_id: str, threshold: str, start: str, end: str,
                    statuses: Sequence[str] = DEFAULT_STATUSES) -> dict[str, Any]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for line in tenant.recognized(statuses):
        if line.company_id == company_id and line.document_type == "invoice" and _in_period(line, start, end):
            totals[line.invoice_number] += (line.net + line.tax) * line.rate
    limit = Decimal(threshold)
    above = sorted(number for number, total in totals.items() if total > limit)
    currency = tenant.reporting_currency[company_id]
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "invoices_above_threshold",
        "question": f"Which invoices of {company_id} dated from {start} to before {end} have a grand total above "
                    f"{threshold} {currency}?",
        "parameters": {"company_id": company_id, "threshold": threshold, "start_date": start, "end_date": end,
                       "invoice_statuses": list(statuses), "document_types": ["invoice"],
                       "reporting_currency": currency},
        "expected": {
            "invoice_numbers": above, "invoice_totals": {n: round2(totals[n]) for n in above},
            "currency": currency, "candidate_invoice_count": len(totals),
        },
    }


def _approved_vendors(tenant: _Tenant, company_id: str, label: str, start: str, end: str) -> dict[str, Any]:
    approvals = sorted(_approved(tenant, company_id, start, end),
                       key=lambda a: (a.supplier_id, a.agreement_id, a.valid_from))
    return {
        "name": f"approved_vendors_{tenant.tenant_id}_{company_id}_{label}".replace("-", "_").lower(),
        "tenant_id": tenant.tenant_id, "kind": "approved_vendors",
        "question": f"Which suppliers were approved vendors of {company_id} between {start} and {end}?",
        "parameters": {"company_id": company_id, "start_date": start, "end_date": end},
        "expected": {
            "supplier_ids": sorted({a.supplier_id for a in approvals}),
            "approvals": [
                {"agreement_id": a.agreement_id, "supplier_id": a.supplier_id, "valid_from": a.valid_from,
                 "valid_to": a.valid_to, "page": a.page}
                for a in approvals
            ],
        },
    }


def _spend_by_supplier(tenant: _Tenant, name: str, company_id: str, start: str, end: str,
                       statuses: Sequence[str] = DEFAULT_STATUSES) -> dict[str, Any]:
    per: dict[str, list[_Line]] = defaultdict(list)
    for line in tenant.recognized(statuses):
        if line.company_id == company_id and _in_period(line, start, end):
            per[line.supplier_id].append(line)
    total = sum((line.spend for lines in per.values() for line in lines), Decimal(0))
    currency = tenant.reporting_currency[company_id]
    suppliers = {}
    for supplier_id in sorted(per):
        subtotal = sum((line.spend for line in per[supplier_id]), Decimal(0))
        suppliers[supplier_id] = {"total_spend": round2(subtotal), "total_spend_exact": _exact(subtotal),
                                  "matched_line_count": len(per[supplier_id])}
    return {
        "name": name, "tenant_id": tenant.tenant_id, "kind": "spend_by_supplier",
        "question": f"What did {company_id} spend per supplier between {start} and {end}?",
        "parameters": {"company_id": company_id, "start_date": start, "end_date": end,
                       "invoice_statuses": list(statuses), "reporting_currency": currency},
        "expected": {
            "currency": currency, "total_spend": round2(total), "total_spend_exact": _exact(total),
            "matched_line_count": sum(len(v) for v in per.values()), "suppliers": suppliers,
            "source_line_ids": sorted(line.line_id for lines in per.values() for line in lines),
        },
    }


def _questions(tenants: dict[str, _Tenant]) -> list[dict[str, Any]]:
    questions: list[dict[str, Any]] = []
    t42 = tenants.get("tenant-42")
    if t42 is not None:
        q1 = ("2026-01-01", "2026-04-01")
        questions += [
            _monitoring_spend(t42, "seed_monitoring_spend_2026q1", "COMP-A", "Monitoring Products", *q1),
            _approved_vendor_spend(t42, "approved_vendor_spend_2026q1", "COMP-A", *q1),
            _aggregate(t42, "zero_spend_comp_b_sup44_2026q1",
                       "What did Company B spend with Supplier Eta in 2026-Q1?",
                       company_id="COMP-B", supplier_ids=["SUP-44"], product_codes=None, start=q1[0], end=q1[1]),
            _aggregate(t42, "no_data_comp_b_sup44_2025q4",
                       "What did Company B spend with Supplier Eta in 2025-Q4?",
                       company_id="COMP-B", supplier_ids=["SUP-44"], product_codes=None,
                       start="2025-10-01", end="2026-01-01"),
            _tax_total(t42, "tax_total_seed_invoices", "COMP-A",
                       ["INV-2026-0148", "INV-2026-0150", "INV-2026-0163", "INV-2026-0172"]),
            _unit_price(t42, "unit_price_prd482_2026_03", "COMP-A", "PRD-482", "2026-03-01", "2026-04-01"),
            _units_purchased(t42, "units_purchased_sup18_2026q1", "COMP-A", "SUP-18", *q1),
            _invoices_above(t42, "invoices_above_5000_2026q1", "COMP-A", "5000.00", *q1),
            _spend_by_supplier(t42, "spend_by_supplier_comp_a_2026q1", "COMP-A", *q1),
            _spend_by_supplier(t42, "spend_by_supplier_comp_c_2025q4", "COMP-C", "2025-10-01", "2026-01-01"),
        ]
    t17 = tenants.get("tenant-17")
    if t17 is not None:
        questions += [
            _unit_price(t17, "unit_price_prd482_2026_03_tenant_17", "COMP-A", "PRD-482", "2026-03-01",
                        "2026-04-01"),
            _spend_by_supplier(t17, "spend_by_supplier_tenant_17_comp_a_2026q1", "COMP-A", "2026-01-01",
                               "2026-04-01"),
        ]
    t99 = tenants.get("tenant-99")
    if t99 is not None:
        questions.append(_spend_by_supplier(t99, "spend_by_supplier_tenant_99_comp_x_2026q1", "COMP-X",
                                            "2026-01-01", "2026-04-01"))
    for tenant_id in sorted(tenants):
        tenant = tenants[tenant_id]
        for company_id in sorted(tenant.reporting_currency):
            for label, start, end in QUARTERS_2026:
                questions.append(_approved_vendors(tenant, company_id, label, start, end))
    return questions


# --- passages and counts ---------------------------------------------------------------------------------

def _markdown_documents(tenant: _Tenant) -> Iterable[_Document]:
    return (d for d in sorted(tenant.documents.values(), key=lambda d: d.order)
            if d.document_type in ("agreement", "product_manual"))


def _passages(tenants: dict[str, _Tenant]) -> list[dict[str, Any]]:
    passages: list[dict[str, Any]] = []
    heading = "### 7.3 Differential pressure calibration"
    for tenant_id in sorted(tenants):
        for document in _markdown_documents(tenants[tenant_id]):
            for page, text in document.payload["pages"]:
                if heading not in text:
                    continue
                clause = text.split(heading, 1)[1].split("\n#", 1)[0]
                facts = [f for f in ("every 12 months", "±0.25 % of span", "every 6 months", "±0.5 % of span")
                         if f in clause]
                passages.append({
                    "name": f"calibration_prd482_{tenant_id}".replace("-", "_"),
                    "tenant_id": tenant_id, "kind": "calibration_clause",
                    "query": "Explain the calibration requirements for PRD-482",
                    "document_id": document.document_id, "page": page, "heading": heading.lstrip("# "),
                    "product_codes": document.payload["front"].get("product_codes", []),
                    "must_contain": ["differential pressure calibration", "PRD-482", *facts],
                })
    return passages


def _prompt_injections(tenants: dict[str, _Tenant]) -> list[dict[str, Any]]:
    found = []
    for tenant_id in sorted(tenants):
        for document in _markdown_documents(tenants[tenant_id]):
            for page, text in document.payload["pages"]:
                if INJECTION_MARKER in text.casefold():
                    found.append({"tenant_id": tenant_id, "document_id": document.document_id, "page": page,
                                  "marker": "Ignore previous instructions"})
    return found


def _tenant_counts(tenant: _Tenant) -> dict[str, Any]:
    by_type: dict[str, int] = defaultdict(int)
    versions = 0
    for document in tenant.documents.values():
        by_type[document.document_type] += 1
        versions += document.versions
    markdown = list(_markdown_documents(tenant))
    return {
        "files": tenant.files,
        "documents": dict(sorted(by_type.items())),
        "document_versions": versions,
        "updated_documents": sorted(d.document_id for d in tenant.documents.values() if d.versions > 1),
        "companies": len(tenant.reporting_currency),
        "suppliers": len({s for s in tenant.aliases.values()}),
        "supplier_aliases_normalized": len(tenant.aliases),
        "product_groups": len(tenant.groups),
        "products": len(tenant.products),
        "fx_rates": len(tenant.fx),
        "approvals": len(tenant.approvals),
        "markdown_pages": sum(len(d.payload["pages"]) for d in markdown),
        "invoice_documents": tenant.doc_counts,
        "invoice_lines": tenant.line_counts,
        "duplicate_document_ids": sorted(tenant.duplicates),
    }


def compute(corpus_dir: Path) -> dict[str, Any]:
    """Ground truth of the corpus at ``corpus_dir`` (which must hold ``manifest.json`` and the files it lists)."""
    manifest, tenants = load(corpus_dir)
    missing_rates = [
        {k: v for k, v in failure.items() if k in ("tenant_id", "rate_date", "from_currency", "to_currency",
                                                   "rate_type")}
        for tenant_id in sorted(tenants) for failure in tenants[tenant_id].failures
        if failure["reason"] == "missing_fx_rate"
    ]
    return {
        "generator": manifest["generator"],
        "as_of": manifest["as_of"],
        "policy": {
            "ingestion_order": "manifest file order, then line order within a batch file",
            "spend": "sign * (line_net_amount + line_tax_amount) * corporate rate on posting_date",
            "rounding": "exact sums, presented half away from zero to 2 decimals (unit prices 4)",
            "period": "invoice_date in [start_date, end_date)",
            "default_invoice_statuses": list(DEFAULT_STATUSES),
            "status_values": {"complete": "every supplier in supplier_ids has matched lines",
                              "partial": "some suppliers in supplier_ids have no matched lines",
                              "no_data": "no matched lines at all"},
        },
        "tenants": {tenant_id: _tenant_counts(tenants[tenant_id]) for tenant_id in sorted(tenants)},
        "validation_failures": [f for tenant_id in sorted(tenants) for f in tenants[tenant_id].failures],
        "fx_missing_rates": _dedupe(missing_rates),
        "approvals": [
            {"tenant_id": tenant_id, "agreement_id": a.agreement_id, "company_id": a.company_id,
             "supplier_id": a.supplier_id, "supplier_label": a.supplier_label, "scope": a.scope,
             "valid_from": a.valid_from, "valid_to": a.valid_to, "page": a.page}
            for tenant_id in sorted(tenants) for a in tenants[tenant_id].approvals
        ],
        "passages": _passages(tenants),
        "prompt_injections": _prompt_injections(tenants),
        "questions": _questions(tenants),
    }


def _dedupe(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    unique: dict[str, dict[str, Any]] = {}
    for row in rows:
        unique.setdefault(json.dumps(row, sort_keys=True), row)
    return [unique[key] for key in sorted(unique)]


def dumps(truth: dict[str, Any]) -> bytes:
    """Serialised ground truth (stable key order, UTF-8, trailing newline)."""
    return (json.dumps(truth, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m procura.demo.ground_truth DIR``: recompute and compare with DIR/ground_truth.json."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m procura.demo.ground_truth CORPUS_DIR", file=sys.stderr)
        return 2
    root = Path(args[0])
    fresh = dumps(compute(root))
    stored = (root / "ground_truth.json").read_bytes()
    print("ground truth matches" if fresh == stored else "ground truth DIFFERS from the files")
    return 0 if fresh == stored else 1


if __name__ == "__main__":
    sys.exit(main())
