"""Writes the demo corpus (docs/corpus.md) and its manifest, then has ground truth computed from the files."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from procura.demo import ground_truth
from procura.demo.invoices import (
    BACKGROUND_NUMBER_START,
    BATCH_NUMBER_START,
    Invoice,
    RandomInvoiceStream,
    seed_scenario_t17,
    seed_scenario_t42,
    seed_scenario_t99,
)
from procura.demo.markdown import render_agreement, render_bulletin, render_manual
from procura.demo.masterdata import (
    AS_OF,
    CORPUS_END,
    CORPUS_START,
    FOREIGN_CURRENCIES,
    GROUP_SYNONYMS_DE,
    REPORTING_CURRENCY,
    TENANTS,
    TenantSpec,
)
from procura.errors import ProcuraError

GENERATOR_VERSION = "demo-corpus-1"
CHARS_PER_CHUNK = 800
BACKGROUND_INVOICES = {"tenant-17": 80, "tenant-42": 70, "tenant-99": 80}
# Per tenant and per scale step above 1; sized so --scale 100 gives > 200k lines and > 50k chunks of text.
BATCH_INVOICES_PER_SCALE = 180
BATCH_FILE_SIZE = 2000
MANUAL_APPENDIX_PAGES_PER_SCALE = 2
AGREEMENT_ANNEX_PAGES_PER_SCALE = 2
BULLETINS_PER_SCALE = 3
BULLETIN_PAGES = 10

_KIND_RANK = {
    "companies": 0, "suppliers": 1, "product_groups": 2, "products": 3, "fx_rates": 4,
    "agreement": 5, "product_manual": 6, "invoice": 7, "invoice_batch": 8,
}
_MASTER_DOCUMENT_IDS = {
    "companies": "companies", "suppliers": "suppliers", "product_groups": "product-groups",
    "products": "products", "fx_rates": "fx-rates",
}


class DemoCorpusError(ProcuraError):
    """The demo corpus cannot be written (bad arguments or an output directory that is not a corpus)."""


@dataclass(frozen=True)
class CorpusSummary:
    """What :func:`generate` wrote.

    Attributes:
        out: The corpus directory.
        seed: Seed of the random background data.
        scale: Scale factor (1 = small demo).
        tenants: Tenant ids, in manifest order.
        files: Source files listed in the manifest.
        documents: Document versions written (one per invoice in a batch file, updates included).
        invoice_documents: Invoice and credit-note versions among them.
        invoice_lines: Invoice lines in those versions.
        text_bytes: Bytes of Markdown (agreements and manuals).
        chunks_estimate: Markdown characters / 800, rounded up per document.
        elapsed_s: Wall-clock seconds, ground truth included.
    """

    out: Path
    seed: int
    scale: int
    tenants: tuple[str, ...]
    files: int
    documents: int
    invoice_documents: int
    invoice_lines: int
    text_bytes: int
    chunks_estimate: int
    elapsed_s: float


@dataclass(frozen=True)
class _Entry:
    order: tuple[object, ...]
    path: str
    tenant_id: str
    kind: str
    document_id: str | None
    sha256: str
    size: int


class _Writer:
    """Writes files under the corpus root and remembers what the manifest must say about them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.entries: list[_Entry] = []
        self.documents = 0
        self.invoice_documents = 0
        self.invoice_lines = 0
        self.text_bytes = 0
        self.chunks = 0

    def write(self, rel: str, data: bytes, *, tenant_id: str, kind: str, document_id: str | None,
              sort_key: tuple[str, ...], update: bool) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        order = (1 if update else 0, tenant_id, _KIND_RANK[kind], *sort_key)
        self.entries.append(_Entry(order, rel, tenant_id, kind, document_id,
                                   hashlib.sha256(data).hexdigest(), len(data)))
        if kind != "invoice_batch":
            self.documents += 1

    def write_markdown(self, rel: str, text: str, *, tenant_id: str, kind: str, document_id: str,
                       update: bool) -> None:
        data = text.encode("utf-8")
        self.text_bytes += len(data)
        self.chunks += -(-len(text) // CHARS_PER_CHUNK)
        self.write(rel, data, tenant_id=tenant_id, kind=kind, document_id=document_id, sort_key=(document_id,),
                   update=update)

    def write_invoice(self, prefix: str, tenant_id: str, invoice: Invoice, *, update: bool) -> None:
        year = str(invoice.invoice_date.year)
        rel = f"{prefix}tenants/{tenant_id}/invoices/{year}/{invoice.document_id}.json"
        self.write(rel, _json_bytes(invoice.to_json()), tenant_id=tenant_id, kind="invoice",
                   document_id=invoice.document_id, sort_key=(year, invoice.document_id), update=update)
        self.invoice_documents += 1
        self.invoice_lines += len(invoice.lines)

    def write_batch(self, rel: str, tenant_id: str, invoices: Sequence[Invoice]) -> None:
        text = "".join(
            json.dumps(inv.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n" for inv in invoices
        )
        self.write(rel, text.encode("utf-8"), tenant_id=tenant_id, kind="invoice_batch", document_id=None,
                   sort_key=(rel,), update=False)
        self.documents += len(invoices)
        self.invoice_documents += len(invoices)
        self.invoice_lines += sum(len(inv.lines) for inv in invoices)

    def manifest(self, seed: int, scale: int) -> dict[str, object]:
        ordered = sorted(self.entries, key=lambda e: e.order)
        return {
            "generator": {"seed": seed, "scale": scale, "version": GENERATOR_VERSION},
            "as_of": AS_OF.isoformat(),
            "reporting_currency": REPORTING_CURRENCY,
            "corpus_period": {"start": CORPUS_START.isoformat(), "end": CORPUS_END.isoformat()},
            "files": [
                {"path": e.path, "tenant_id": e.tenant_id, "kind": e.kind, "document_id": e.document_id,
                 "sha256": e.sha256, "bytes": e.size}
                for e in ordered
            ],
        }


def _json_bytes(obj: object) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _days(start: date, end: date) -> Iterable[date]:
    day = start
    while day <= end:
        yield day
        day += timedelta(days=1)


def fx_rate_rows() -> list[tuple[date, str, str, str, Decimal]]:
    """Daily spot and corporate rates (currency -> EUR) for every day of the corpus period.

    Market data does not depend on ``--seed``: the seed scenario converts USD/CHF at these rates. The corporate
    rate is the month's first spot fixing, published for every day, so picking ``spot`` changes totals.
    """
    rng = random.Random("procura-demo:fx")
    level = {"CHF": Decimal("1.05"), "GBP": Decimal("1.17"), "USD": Decimal("0.92")}
    corporate: dict[str, Decimal] = {}
    eight = Decimal("0.00000001")
    rows: list[tuple[date, str, str, str, Decimal]] = []
    for day in _days(CORPUS_START, CORPUS_END):
        for currency in FOREIGN_CURRENCIES:
            spot = (level[currency] * (1 + Decimal(rng.randint(-400, 400)) / 1000000)).quantize(eight)
            level[currency] = spot
            if day.day == 1 or currency not in corporate:
                corporate[currency] = spot
            rows.append((day, currency, REPORTING_CURRENCY, "corporate", corporate[currency]))
            rows.append((day, currency, REPORTING_CURRENCY, "spot", spot))
    return rows


def _csv_bytes(header: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _write_master_data(w: _Writer, tenant: TenantSpec, fx_rows: Sequence[tuple[date, str, str, str, Decimal]]) -> None:
    t = tenant.tenant_id

    def put(kind: str, rel: str, data: bytes) -> None:
        w.write(f"tenants/{t}/{rel}", data, tenant_id=t, kind=kind, document_id=_MASTER_DOCUMENT_IDS[kind],
                sort_key=(rel,), update=False)

    put("companies", "companies.json", _json_bytes([
        {"company_id": c.company_id, "company_name": c.company_name, "reporting_currency": c.reporting_currency}
        for c in tenant.companies
    ]))
    put("suppliers", "suppliers.json", _json_bytes([
        {"supplier_id": s.supplier_id, "supplier_name": s.supplier_name, "aliases": list(s.aliases),
         "country": s.country, "contact_email": s.contact_email, "iban": s.iban}
        for s in tenant.suppliers
    ]))
    put("product_groups", "catalog/product_groups.json", _json_bytes([
        {"product_group_id": g.product_group_id, "group_name": g.group_name, "parent_group_id": g.parent_group_id,
         **({"synonyms": {"de": list(GROUP_SYNONYMS_DE[g.group_name])}} if g.group_name in GROUP_SYNONYMS_DE else {})}
        for g in tenant.groups
    ]))
    put("products", "catalog/products.csv", _csv_bytes(
        ("product_code", "product_name", "product_group_id", "supplier_id", "unit_of_measure", "list_price",
         "currency"),
        ((p.product_code, p.product_name, p.product_group_id, p.supplier_id, p.unit_of_measure,
          f"{p.list_price:.2f}", p.currency) for p in tenant.products),
    ))
    missing = set(tenant.missing_fx)
    put("fx_rates", "fx/fx_rates.csv", _csv_bytes(
        ("rate_date", "from_currency", "to_currency", "rate_type", "rate"),
        ((day.isoformat(), src, dst, kind, f"{rate:.8f}") for day, src, dst, kind, rate in fx_rows
         if not (kind == "corporate" and (day, src) in missing)),
    ))


def _scenario(tenant: TenantSpec) -> tuple[list[Invoice], list[Invoice]]:
    if tenant.tenant_id == "tenant-42":
        return seed_scenario_t42(tenant)
    if tenant.tenant_id == "tenant-17":
        return seed_scenario_t17(tenant), []
    return seed_scenario_t99(tenant), []


def _write_tenant(w: _Writer, tenant: TenantSpec, seed: int, scale: int,
                  fx_rows: Sequence[tuple[date, str, str, str, Decimal]],
                  progress: Callable[[str], None]) -> None:
    t = tenant.tenant_id
    _write_master_data(w, tenant, fx_rows)

    def text_rng(document_id: str, version: int = 1) -> random.Random:
        return random.Random(f"{seed}:{t}:{document_id}:v{version}")

    for agreement in tenant.agreements:
        text = render_agreement(text_rng(agreement.document_id), tenant, agreement,
                                (scale - 1) * AGREEMENT_ANNEX_PAGES_PER_SCALE)
        w.write_markdown(f"tenants/{t}/agreements/{agreement.document_id}.md", text, tenant_id=t,
                         kind="agreement", document_id=agreement.document_id, update=False)
        if agreement.amendment is not None:
            amended = render_agreement(text_rng(agreement.document_id, 2), tenant, agreement.amendment,
                                       (scale - 1) * AGREEMENT_ANNEX_PAGES_PER_SCALE)
            w.write_markdown(f"updates/tenants/{t}/agreements/{agreement.document_id}.md", amended, tenant_id=t,
                             kind="agreement", document_id=agreement.document_id, update=True)
    for manual in tenant.manuals:
        text = render_manual(text_rng(manual.document_id), tenant, manual,
                             (scale - 1) * MANUAL_APPENDIX_PAGES_PER_SCALE)
        w.write_markdown(f"tenants/{t}/manuals/{manual.document_id}.md", text, tenant_id=t,
                         kind="product_manual", document_id=manual.document_id, update=False)

    bulletin_rng = random.Random(f"{seed}:{t}:bulletins")
    for number in range(1, (scale - 1) * BULLETINS_PER_SCALE + 1):
        document_id = f"bulletin-{number:04d}"
        product = bulletin_rng.choice(tenant.products)
        issued = CORPUS_START + timedelta(days=bulletin_rng.randrange((AS_OF - CORPUS_START).days))
        title = f"Service Bulletin SB-{number:04d} — {product.product_code} {product.product_name}"
        text = render_bulletin(text_rng(document_id), document_id, title, product, issued, BULLETIN_PAGES)
        w.write_markdown(f"tenants/{t}/manuals/{document_id}.md", text, tenant_id=t, kind="product_manual",
                         document_id=document_id, update=False)

    base, updates = _scenario(tenant)
    stream = RandomInvoiceStream(tenant, random.Random(f"{seed}:{t}:background"), BACKGROUND_NUMBER_START, 4)
    documents = base + list(stream.documents(BACKGROUND_INVOICES[t]))
    seen: set[str] = set()
    for invoice in documents:
        if invoice.document_id in seen:
            raise AssertionError(f"{t}: document id {invoice.document_id} generated twice")
        seen.add(invoice.document_id)
        w.write_invoice("", t, invoice, update=False)
    for invoice in updates:
        w.write_invoice("updates/", t, invoice, update=True)
    progress(f"{t}: {len(documents)} invoice files, {w.invoice_lines} invoice lines so far")

    total = (scale - 1) * BATCH_INVOICES_PER_SCALE
    if total:
        batch_stream = RandomInvoiceStream(tenant, random.Random(f"{seed}:{t}:batch"), BATCH_NUMBER_START, 6)
        pending: list[Invoice] = []
        number = 0
        for invoice in batch_stream.documents(total):
            # A replica directly follows its original; never split the pair across two files.
            if len(pending) >= BATCH_FILE_SIZE and invoice.source_system == "erp":
                number += 1
                w.write_batch(f"tenants/{t}/invoices/batches/batch-{number:04d}.jsonl", t, pending)
                pending = []
            pending.append(invoice)
        if pending:
            number += 1
            w.write_batch(f"tenants/{t}/invoices/batches/batch-{number:04d}.jsonl", t, pending)
        progress(f"{t}: {number} batch files, {w.invoice_lines} invoice lines so far")


def _prepare(out: Path) -> None:
    if out.exists():
        if not out.is_dir():
            raise DemoCorpusError(f"{out} exists and is not a directory")
        if any(out.iterdir()):
            if not (out / "manifest.json").is_file():
                raise DemoCorpusError(f"{out} is not empty and holds no demo corpus (no manifest.json)")
            # Regenerating must not leave files of an earlier, larger --scale behind.
            for name in ("tenants", "updates"):
                if (out / name).is_dir():
                    shutil.rmtree(out / name)
            for name in ("manifest.json", "ground_truth.json"):
                (out / name).unlink(missing_ok=True)
    out.mkdir(parents=True, exist_ok=True)


def generate(
    out: Path,
    *,
    seed: int = 42,
    scale: int = 1,
    progress: Callable[[str], None] | None = None,
) -> CorpusSummary:
    """Write the demo corpus to ``out`` and return what was written.

    Args:
        out: Target directory; created if missing. An existing directory must be empty or hold an earlier
            corpus (it is then replaced).
        seed: Seed of the random background data. The seed scenario and FX rates are the same for every seed.
        scale: 1 is the small demo; every step above 1 adds invoice batches and manual/agreement pages.
        progress: Called with one human-readable line per step.

    Returns:
        The summary of the written corpus.

    Raises:
        DemoCorpusError: ``scale`` < 1 or ``out`` is not usable.
    """
    if scale < 1:
        raise DemoCorpusError("--scale must be at least 1")
    started = time.monotonic()
    report = progress or (lambda _message: None)
    out = Path(out)
    _prepare(out)
    writer = _Writer(out)
    fx_rows = fx_rate_rows()
    for tenant in TENANTS:
        _write_tenant(writer, tenant, seed, scale, fx_rows,
                      lambda message: report(f"{message} ({time.monotonic() - started:.1f}s)"))
    manifest = writer.manifest(seed, scale)
    (out / "manifest.json").write_bytes(_json_bytes(manifest))
    report(f"manifest: {len(writer.entries)} files ({time.monotonic() - started:.1f}s)")
    truth = ground_truth.compute(out)
    (out / "ground_truth.json").write_bytes(ground_truth.dumps(truth))
    report(f"ground truth: {len(truth['questions'])} questions ({time.monotonic() - started:.1f}s)")
    return CorpusSummary(
        out=out,
        seed=seed,
        scale=scale,
        tenants=tuple(t.tenant_id for t in TENANTS),
        files=len(writer.entries),
        documents=writer.documents,
        invoice_documents=writer.invoice_documents,
        invoice_lines=writer.invoice_lines,
        text_bytes=writer.text_bytes,
        chunks_estimate=writer.chunks,
        elapsed_s=round(time.monotonic() - started, 3),
    )
