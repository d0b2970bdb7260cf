"""Independent calculator of the blind evaluation set's expected answers, from the raw demo corpus files only.

It reads ``manifest.json``, the master data (``companies.json``, ``suppliers.json``), the catalog
(``catalog/product_groups.json``, ``catalog/products.csv``), ``fx/fx_rates.csv``, the invoices and credit notes
(``invoices/**.json`` and ``.jsonl`` batches, including ``updates/``) and the approved-vendor tables of the
agreements. It imports nothing of Procura (no ingestion, no dbt, no router, no ground-truth code) and computes
with :class:`decimal.Decimal` under the accounting policy of ``README.md`` and ``docs/corpus.md``.

Run ``python -m evaluation.blind_truth --corpus DIR`` to (re)compute the ``expected`` blocks of
``eval/blind/questions.yml`` (``--write``) or to check the stored ones (``--check``, exit 1 on any difference).

Readings of the policy (where the documents leave room, this is the reading taken):

* Supplier names on invoices resolve by the documented normalization (casefold, strip punctuation, drop a
  trailing legal-form word such as GmbH/AG/Ltd/Inc, collapse whitespace) followed by an exact lookup in the
  normalized alias table (aliases plus ``supplier_name``). A name that does not resolve makes the document invalid.
* Recognized spend: statuses ``posted`` and ``paid`` (the documented default); ``draft`` and ``cancelled`` are
  excluded. The sign comes from ``document_type`` alone: magnitudes are taken with ``abs()`` once and a credit
  note is negative.
* Period membership is by ``invoice_date``, half-open ``[start, end)`` (the architecture's SQL); the FX rate is
  the ``corporate`` rate on ``posting_date`` (docs/corpus.md, and clause "converted at the corporate rate on the
  posting date" of the agreements), units of EUR per unit of the invoice currency; EUR invoices use 1. A missing
  rate makes the document invalid (never 1.0).
* ``tax_level = "invoice"``: the header tax is allocated to lines by the documented largest-remainder rule, on
  magnitudes, in the invoice currency; the converted line tax is ``allocated_tax * rate`` (unrounded).
* Spend of a line = ``sign * (net + tax) * rate``, summed exactly; presented values are rounded half away from
  zero to 2 decimals (4 for unit prices).
* Replicated duplicates: documents in manifest order (``tenants/`` first, then ``updates/``); a document whose
  ``document_id`` was seen before is a new version of it and replaces its content (it keeps the first position,
  so the last version counts). Among the current versions, a later document with the same business key
  ``(company_id, resolved supplier_id, document_type, invoice_number)`` is a duplicate and excluded.
* An invoice count counts distinct non-duplicate ``invoice`` documents (credit notes are not invoices) with a
  recognized status and an ``invoice_date`` in the period. "Invoices above X" compares the invoice's gross
  total (net + tax, reporting currency) with X, strictly greater; a question is only kept when the net reading
  gives the same set (``robust`` in the YAML).
* Approved vendors of a company for a period: the rows of the approved-vendor tables of that company's
  agreements whose ``[valid_from, valid_to)`` overlaps ``[start, end)``; ``open`` means no end. For each
  agreement the version used is the latest one whose ``effective_date`` is on or before the question's as-of
  date (an amendment is not evidence before it takes effect); the first version when none is.
* Relative periods (``last quarter``, ``YTD`` ...) are resolved when writing a question; the YAML stores the
  resolved ``[start, end)`` and the calculator is told only dates. "YTD"/"since March" run to the as-of date
  inclusive (end = as_of + 1 day); as-of dates are chosen so that no recognized invoice is dated on them.
* Average unit price of a product in a period = ``sum(sign * net * rate) / sum(sign * quantity)`` over recognized,
  non-duplicate lines, rounded to 4 decimals.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import yaml

RECOGNIZED = ("posted", "paid")
LEGAL_FORMS = frozenset({"gmbh", "ag", "ltd", "inc", "llc", "plc", "sa", "sarl", "bv", "nv", "co", "kg", "se"})
CENT = Decimal("0.01")
DEFAULT_QUESTIONS = Path(__file__).resolve().parent.parent / "eval" / "blind" / "questions.yml"


class BlindTruthError(Exception):
    """The corpus or the question file cannot be read as this calculator expects (names the file or field)."""


def normalize_name(name: str) -> str:
    """The documented supplier-name normalization.

    >>> normalize_name("Beta Supplies,  GmbH")
    'beta supplies'
    """
    text = unicodedata.normalize("NFC", name).casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    words = text.split()
    while len(words) > 1 and words[-1] in LEGAL_FORMS:
        words.pop()
    return " ".join(words)


def money(value: Decimal, places: str = "0.01") -> str:
    """Round half away from zero for presentation."""
    return str(value.quantize(Decimal(places), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Line:
    """One invoice or credit-note line in reporting currency (signed), with what decides whether it counts."""

    document_id: str
    line_id: str
    invoice_number: str
    document_type: str
    company_id: str
    supplier_id: str | None
    status: str
    invoice_date: dt.date
    currency: str
    product_code: str
    quantity: Decimal
    net: Decimal
    tax: Decimal
    rate: Decimal | None
    duplicate: bool

    @property
    def valid(self) -> bool:
        return self.supplier_id is not None and self.rate is not None

    @property
    def counts(self) -> bool:
        return self.valid and not self.duplicate and self.status in RECOGNIZED

    @property
    def spend(self) -> Decimal:
        assert self.rate is not None
        return (self.net + self.tax) * self.rate

    @property
    def net_eur(self) -> Decimal:
        assert self.rate is not None
        return self.net * self.rate

    @property
    def tax_eur(self) -> Decimal:
        assert self.rate is not None
        return self.tax * self.rate


@dataclass(frozen=True)
class Approval:
    company_id: str
    agreement_id: str
    supplier_id: str
    valid_from: dt.date
    valid_to: dt.date | None


@dataclass
class Tenant:
    """Everything the calculator knows about one tenant."""

    tenant_id: str
    companies: dict[str, dict[str, Any]] = field(default_factory=dict)
    suppliers: dict[str, dict[str, Any]] = field(default_factory=dict)
    alias_index: dict[str, str] = field(default_factory=dict)
    groups: dict[str, dict[str, Any]] = field(default_factory=dict)
    products: dict[str, dict[str, str]] = field(default_factory=dict)
    fx: dict[tuple[dt.date, str], Decimal] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    # agreement id -> versions in arrival order: (effective_date, company_id, approvals)
    agreements: dict[str, list[tuple[dt.date, str, list[Approval]]]] = field(default_factory=dict)
    documents: dict[str, str] = field(default_factory=dict)  # document_id -> kind
    # document id -> versions in arrival order: (effective_date, text) for agreements and manuals
    texts: dict[str, list[tuple[dt.date, str]]] = field(default_factory=dict)


def _date(value: str, where: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise BlindTruthError(f"{where}: not a date: {value!r}") from exc


def _front_matter(text: str, where: str) -> dict[str, str]:
    if not text.startswith("---"):
        raise BlindTruthError(f"{where}: no front matter")
    head = text.split("---", 2)[1]
    out: dict[str, str] = {}
    for raw in head.strip().splitlines():
        key, _, value = raw.partition(":")
        out[key.strip()] = value.strip()
    return out


def _approvals(text: str, company_id: str, agreement_id: str, where: str) -> list[Approval]:
    rows: list[Approval] = []
    header: list[str] | None = None
    for raw in text.splitlines():
        if not raw.startswith("|"):
            header = None if header is not None and rows else header
            continue
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        if "Supplier ID" in cells:
            header = cells
            continue
        if header is None or set("".join(cells)) <= set("-: "):
            continue
        row = dict(zip(header, cells, strict=False))
        valid_to = row["Valid to"]
        rows.append(Approval(company_id, agreement_id, row["Supplier ID"], _date(row["Valid from"], where),
                             None if valid_to.lower() == "open" else _date(valid_to, where)))
    return rows


def _allocate(header_tax: Decimal, nets: Sequence[Decimal]) -> list[Decimal]:
    """Largest-remainder allocation of the header tax to lines by net amount (magnitudes)."""
    total = sum(nets, Decimal(0))
    if total == 0:
        return [Decimal(0)] * len(nets)
    exact = [header_tax * n / total for n in nets]
    floors = [e.quantize(CENT, rounding=ROUND_DOWN) for e in exact]
    remaining = int(((header_tax - sum(floors, Decimal(0))) / CENT).to_integral_value())
    order = sorted(range(len(nets)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:remaining]:
        floors[i] += CENT
    return floors


def _invoice_docs(root: Path, path: str) -> list[dict[str, Any]]:
    file = root / path
    if path.endswith(".jsonl"):
        return [json.loads(x) for x in file.read_text(encoding="utf-8").splitlines() if x.strip()]
    return [json.loads(file.read_text(encoding="utf-8"))]


def load(root: Path) -> dict[str, Tenant]:
    """Read the corpus under ``root`` (the directory holding ``manifest.json``)."""
    manifest_path = root / "manifest.json"
    if not manifest_path.exists():
        raise BlindTruthError(f"{manifest_path}: missing")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    tenants: dict[str, Tenant] = {}
    invoices: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}  # tenant -> document_id -> (path, doc)
    for entry in manifest["files"]:
        tid, kind, path = entry["tenant_id"], entry["kind"], entry["path"]
        t = tenants.setdefault(tid, Tenant(tid))
        file = root / path
        if kind == "companies":
            t.companies = {c["company_id"]: c for c in json.loads(file.read_text(encoding="utf-8"))}
        elif kind == "suppliers":
            for s in json.loads(file.read_text(encoding="utf-8")):
                t.suppliers[s["supplier_id"]] = s
                for alias in [s["supplier_name"], *s.get("aliases", [])]:
                    t.alias_index[normalize_name(alias)] = s["supplier_id"]
        elif kind == "product_groups":
            t.groups = {g["product_group_id"]: g for g in json.loads(file.read_text(encoding="utf-8"))}
        elif kind == "products":
            with file.open(encoding="utf-8", newline="") as fh:
                t.products = {r["product_code"]: r for r in csv.DictReader(fh)}
        elif kind == "fx_rates":
            with file.open(encoding="utf-8", newline="") as fh:
                for r in csv.DictReader(fh):
                    if r["rate_type"] == "corporate" and r["to_currency"] == "EUR":
                        t.fx[(_date(r["rate_date"], path), r["from_currency"])] = Decimal(r["rate"])
        elif kind == "agreement":
            text = file.read_text(encoding="utf-8")
            fm = _front_matter(text, path)
            doc_id = fm["document_id"]
            t.documents[doc_id] = kind
            t.texts.setdefault(doc_id, []).append((_date(fm["effective_date"], path), text))
            t.agreements.setdefault(doc_id, []).append(
                (_date(fm["effective_date"], path), fm["company_id"], _approvals(text, fm["company_id"], doc_id, path)))
        elif kind == "invoice":
            for doc in _invoice_docs(root, path):
                per = invoices.setdefault(tid, {})
                # a new version keeps the first position (dict order) and replaces the content
                per[doc["document_id"]] = (path, doc)
                t.documents[doc["document_id"]] = kind
        elif kind in ("product_manual", "manual"):
            text = file.read_text(encoding="utf-8")
            fm = _front_matter(text, path)
            t.documents[fm["document_id"]] = kind
            t.texts.setdefault(fm["document_id"], []).append((_date(fm["effective_date"], path), text))
        else:
            t.documents[entry["document_id"]] = kind
    for tid, per in invoices.items():
        tenants[tid].lines = _lines(tenants[tid], per.values())
    return tenants


def _lines(t: Tenant, docs: Iterable[tuple[str, dict[str, Any]]]) -> list[Line]:
    seen: set[tuple[str, str | None, str, str]] = set()
    out: list[Line] = []
    for path, d in docs:
        supplier = t.alias_index.get(normalize_name(d["supplier_name"]))
        reporting = t.companies.get(d["company_id"], {}).get("reporting_currency", "EUR")
        posting = _date(d["posting_date"], f"{path}: posting_date")
        rate: Decimal | None = Decimal(1) if d["currency"] == reporting else t.fx.get((posting, d["currency"]))
        key = (d["company_id"], supplier, d["document_type"], d["invoice_number"])
        duplicate = key in seen
        seen.add(key)
        sign = Decimal(-1) if d["document_type"] == "credit_note" else Decimal(1)
        nets = [abs(Decimal(x["line_net_amount"])) for x in d["lines"]]
        if d["tax_level"] == "invoice":
            taxes = _allocate(abs(Decimal(d["header_tax_amount"])), nets)
        else:
            taxes = [abs(Decimal(x["line_tax_amount"])) for x in d["lines"]]
        for x, net, tax in zip(d["lines"], nets, taxes, strict=True):
            out.append(Line(
                document_id=d["document_id"], line_id=f"{d['document_id']}-line-{int(x['line_number']):02d}",
                invoice_number=d["invoice_number"], document_type=d["document_type"], company_id=d["company_id"],
                supplier_id=supplier, status=d["status"], invoice_date=_date(d["invoice_date"], path),
                currency=d["currency"], product_code=x["product_code"],
                quantity=sign * abs(Decimal(x["quantity"])), net=sign * net, tax=sign * tax, rate=rate,
                duplicate=duplicate))
    return out


# -- queries ----------------------------------------------------------------------------------------------------
def subgroups(t: Tenant, group_ids: Iterable[str]) -> set[str]:
    """The groups and all their descendants."""
    found = set(group_ids)
    changed = True
    while changed:
        changed = False
        for gid, g in t.groups.items():
            if g["parent_group_id"] in found and gid not in found:
                found.add(gid)
                changed = True
    return found


def approved(t: Tenant, company_id: str, start: dt.date, end: dt.date, as_of: dt.date) -> list[str]:
    """Supplier ids approved for ``company_id`` at some time in ``[start, end)``, as known on ``as_of``."""
    out: set[str] = set()
    for versions in t.agreements.values():
        usable = [v for v in versions if v[0] <= as_of] or versions[:1]
        _, company, rows = usable[-1]
        if company != company_id:
            continue
        for a in rows:
            if a.valid_from < end and (a.valid_to is None or a.valid_to > start):
                out.add(a.supplier_id)
    return sorted(out)


def select(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> list[Line]:
    """The lines that count under ``spec`` (company, suppliers, products, groups, approved_for, period)."""
    start, end = _date(spec["start"], "start"), _date(spec["end"], "end")
    suppliers = set(spec["suppliers"]) if spec.get("suppliers") else None
    if spec.get("approved_for"):
        ok = set(approved(t, spec["approved_for"], start, end, as_of))
        suppliers = ok if suppliers is None else suppliers & ok
    products = set(spec["products"]) if spec.get("products") else None
    if spec.get("groups"):
        gs = subgroups(t, spec["groups"])
        in_groups = {c for c, p in t.products.items() if p["product_group_id"] in gs}
        products = in_groups if products is None else products & in_groups
    statuses = tuple(spec.get("statuses", RECOGNIZED))
    doc_types = spec.get("document_types")
    invoices = set(spec["invoices"]) if spec.get("invoices") else None
    out = []
    for line in t.lines:
        if not (line.valid and not line.duplicate and line.status in statuses):
            continue
        if not (start <= line.invoice_date < end):
            continue
        if spec.get("company") and line.company_id != spec["company"]:
            continue
        if suppliers is not None and line.supplier_id not in suppliers:
            continue
        if products is not None and line.product_code not in products:
            continue
        if doc_types and line.document_type not in doc_types:
            continue
        if invoices is not None and line.invoice_number not in invoices:
            continue
        out.append(line)
    return out


def _group_key(line: Line, by: str) -> str:
    if by == "supplier":
        return line.supplier_id or ""
    if by == "month":
        return line.invoice_date.strftime("%Y-%m")
    if by == "quarter":
        return f"{line.invoice_date.year}-Q{(line.invoice_date.month - 1) // 3 + 1}"
    if by == "product":
        return line.product_code
    if by == "company":
        return line.company_id
    raise BlindTruthError(f"group_by: unknown dimension {by!r}")


def _measure(lines: Sequence[Line], measure: str) -> Decimal:
    if measure == "spend":
        return sum((x.spend for x in lines), Decimal(0))
    if measure == "net":
        return sum((x.net_eur for x in lines), Decimal(0))
    if measure == "tax":
        return sum((x.tax_eur for x in lines), Decimal(0))
    if measure == "units":
        return sum((x.quantity for x in lines), Decimal(0))
    raise BlindTruthError(f"measure: unknown {measure!r}")


def _fmt(value: Decimal, measure: str) -> str:
    return money(value) if measure in ("spend", "net", "tax") else format(value.normalize(), "f")


def invoice_totals(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, tuple[Decimal, Decimal]]:
    """Invoice number -> (gross, net) in reporting currency, over counting ``invoice`` documents of the spec."""
    totals: dict[str, tuple[Decimal, Decimal]] = {}
    for line in select(t, {**spec, "document_types": ["invoice"]}, as_of):
        gross, net = totals.get(line.invoice_number, (Decimal(0), Decimal(0)))
        totals[line.invoice_number] = (gross + line.spend, net + line.net_eur)
    return totals


def _missing(t: Tenant, spec: Mapping[str, Any], as_of: dt.date, lines: Sequence[Line]) -> list[str]:
    """Approved suppliers (``approved_for``) that sell something in the product filter but have no counted line.

    A supplier with no catalog product inside the requested groups/products is not missing (the seed scenario:
    Supplier Delta is approved in 2026-Q1 but sells no monitoring products).
    """
    if not spec.get("approved_for"):
        return []
    start, end = _date(spec["start"], "start"), _date(spec["end"], "end")
    wanted = set(approved(t, spec["approved_for"], start, end, as_of))
    if spec.get("suppliers"):
        wanted &= set(spec["suppliers"])
    products = set(spec["products"]) if spec.get("products") else None
    if spec.get("groups"):
        gs = subgroups(t, spec["groups"])
        in_groups = {c for c, p in t.products.items() if p["product_group_id"] in gs}
        products = in_groups if products is None else products & in_groups
    sellers = {p["supplier_id"] for c, p in t.products.items() if products is None or c in products}
    seen = {x.supplier_id for x in lines}
    return sorted((wanted & sellers) - seen)


def compute(tenants: Mapping[str, Tenant], q: Mapping[str, Any]) -> dict[str, Any]:
    """The ``expected`` block of one question from its ``spec``."""
    spec = q["spec"]
    t = tenants[q["tenant"]]
    as_of = _date(str(q["as_of"]), f"{q['id']}: as_of")
    op = spec["op"]
    if op in ("clarification", "not_found"):
        out: dict[str, Any] = {"kind": op}
        if op == "not_found" and spec["document_id"] in t.documents:
            raise BlindTruthError(f"{q['id']}: {spec['document_id']} exists in {q['tenant']}")
        for k in ("reason", "names", "document_id"):
            if k in spec:
                out[k] = spec[k]
        return out
    if op == "document":
        if spec["document_id"] not in t.documents:
            raise BlindTruthError(f"{q['id']}: document {spec['document_id']} is not in {q['tenant']}")
        out = {"kind": "document", "document_id": spec["document_id"]}
        if "fact" in spec:
            versions = t.texts.get(spec["document_id"], [])
            usable = [v for v in versions if v[0] <= as_of] or versions[:1]
            text = " ".join(usable[-1][1].split()) if usable else ""
            if spec["fact"] not in text:
                raise BlindTruthError(f"{q['id']}: fact {spec['fact']!r} is not in the version in effect on {as_of}")
            out["fact"] = spec["fact"]
            if "wrong_fact" in spec:
                # the other version's statement: seeing it means the wrong version was served
                out["wrong_fact"] = spec["wrong_fact"]
        return out
    if op == "approved":
        start, end = _date(spec["start"], "start"), _date(spec["end"], "end")
        return {"kind": "list", "ids": approved(t, spec["company"], start, end, as_of)}
    if op == "above":
        totals = invoice_totals(t, spec, as_of)
        threshold = Decimal(spec["threshold"])
        gross = sorted(n for n, (g, _) in totals.items() if g > threshold)
        net = sorted(n for n, (_, n_) in totals.items() if n_ > threshold)
        return {"kind": "list", "ids": gross, "robust": gross == net}
    if op == "missing":
        return {"kind": "list", "ids": _missing(t, spec, as_of, select(t, spec, as_of))}
    if op == "count":
        totals = invoice_totals(t, spec, as_of)
        if "threshold" in spec:
            threshold = Decimal(spec["threshold"])
            totals = {n: v for n, v in totals.items() if v[0] > threshold}
        return {"kind": "figure", "value": str(len(totals)), "unit": "invoices"}
    if op == "products_of":
        # catalog products of the spec's suppliers within the spec's groups (multi-hop, no invoices needed)
        gs = subgroups(t, spec["groups"]) if spec.get("groups") else None
        ok_sup = set(spec.get("suppliers") or [])
        if spec.get("approved_for"):
            start, end = _date(spec["start"], "start"), _date(spec["end"], "end")
            ok_sup = set(approved(t, spec["approved_for"], start, end, as_of)) & (ok_sup or set(t.suppliers))
        ids = sorted(c for c, p in t.products.items()
                     if p["supplier_id"] in ok_sup and (gs is None or p["product_group_id"] in gs))
        return {"kind": "list", "ids": ids}
    lines = select(t, spec, as_of)
    measure = spec.get("measure", "spend")
    if op == "unit_price":
        qty = _measure(lines, "units")
        if qty == 0:
            return {"kind": "figure", "value": None, "status": "no_data"}
        return {"kind": "figure", "value": money(_measure(lines, "net") / qty, "0.0001"), "currency": "EUR",
                "lines": len(lines)}
    if op == "figure":
        status = "complete" if lines else "no_data"
        out = {"kind": "figure", "value": _fmt(_measure(lines, measure), measure) if lines else None,
               "lines": len(lines), "status": status}
        missing = _missing(t, spec, as_of, lines)
        if lines and missing:
            out["status"] = "partial"
            out["missing"] = missing
        if measure != "units":
            out["currency"] = "EUR"
        return out
    if op == "table":
        by = spec["by"]
        cells: dict[str, list[Line]] = {}
        for line in lines:
            cells.setdefault(_group_key(line, by), []).append(line)
        rows = {k: _fmt(_measure(v, measure), measure) for k, v in sorted(cells.items())}
        out = {"kind": "table", "by": by, "rows": rows, "total": _fmt(_measure(lines, measure), measure)}
        missing = _missing(t, spec, as_of, lines)
        if missing:
            out["missing"] = missing
        if measure != "units":
            out["currency"] = "EUR"
        return out
    raise BlindTruthError(f"{q['id']}: unknown op {op!r}")


# -- the question file ------------------------------------------------------------------------------------------
def load_questions(path: Path = DEFAULT_QUESTIONS) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise BlindTruthError(f"{path}: expected a mapping with a 'questions' list")
    ids = [q.get("id") for q in data["questions"]]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise BlindTruthError(f"{path}: duplicate ids {sorted(dupes)}")
    for q in data["questions"]:
        for key in ("id", "question", "tenant", "as_of", "category", "spec", "how"):
            if key not in q:
                raise BlindTruthError(f"{path}: question {q.get('id')!r} lacks {key!r}")
    return data


def _strip(expected: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in expected.items() if k != "how"}


def _boundary(tenants: Mapping[str, Tenant], q: Mapping[str, Any]) -> list[str]:
    """A period that ends the day after the as-of date must not depend on an invoice dated on the as-of date."""
    spec = q["spec"]
    as_of = _date(str(q["as_of"]), "as_of")
    if spec.get("end") != (as_of + dt.timedelta(days=1)).isoformat():
        return []
    dated = [x for x in tenants[q["tenant"]].lines if x.counts and x.invoice_date == as_of]
    return [f"{q['id']}: {len(dated)} counted line(s) dated on the as-of date"] if dated else []


def check(tenants: Mapping[str, Tenant], data: Mapping[str, Any]) -> list[str]:
    """Differences between stored and recomputed ``expected`` blocks, one line each."""
    problems = []
    for q in data["questions"]:
        got = compute(tenants, q)
        if _strip(q.get("expected") or {}) != got:
            problems.append(f"{q['id']}: stored {q.get('expected')!r} != computed {got!r}")
        if got.get("robust") is False:
            problems.append(f"{q['id']}: threshold reading is not robust (gross and net sets differ)")
        problems.extend(_boundary(tenants, q))
    return problems


def write(tenants: Mapping[str, Tenant], path: Path) -> int:
    """Recompute every ``expected`` block in place (the file's text outside them is re-dumped by PyYAML)."""
    data = load_questions(path)
    for q in data["questions"]:
        q["expected"] = compute(tenants, q)
    header = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.startswith("#"):
            break
        header.append(raw)
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    path.write_text("\n".join(header) + ("\n" if header else "") + body, encoding="utf-8")
    return len(data["questions"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.blind_truth", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="demo corpus root (holds manifest.json)")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="recompute and diff against the stored values")
    mode.add_argument("--write", action="store_true", help="store the recomputed values")
    args = parser.parse_args(argv)
    tenants = load(args.corpus)
    if args.write:
        print(f"wrote expected values of {write(tenants, args.questions)} questions to {args.questions}")
        return 0
    problems = check(tenants, load_questions(args.questions))
    for p in problems:
        print(p)
    print(f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
