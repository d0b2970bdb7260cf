"""Expected answers of the third blind set (``eval/blind3/questions.yml``), computed from the raw corpus files only.

This calculator is written without reading the product code (router/, semantic/, models/, ...) and without reading
the earlier blind calculators: it parses the files that ``procura demo generate`` writes (docs/corpus.md) with plain
Python ``Decimal`` arithmetic and applies the accounting rules stated in the question file's header.

``python -m evaluation.blind3_truth --corpus /tmp/blind3-corpus --check`` recomputes every question's ``expected``
from its ``spec`` and prints the differences (exit 1 when there are any); ``--write`` stores the recomputed values.
The scorer (``evaluation.blind_score``) calls :func:`check` with its own loaded corpus object; this module reads the
corpus again from the path (it needs fields that object may not carry), taken from a path argument, the scorer's
``--corpus`` option, or the question file's ``corpus.path``.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
import sys
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind3" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind3-corpus")
COUNTED = ("posted", "paid")
CENT = Decimal("0.01")
_LEGAL = {"gmbh", "ag", "ltd", "inc", "llc", "plc", "sa", "srl", "bv", "co", "kg", "se"}


class TruthError(Exception):
    """A corpus file the calculator cannot read as documented (names the file and field)."""


# -- the corpus as this calculator reads it ----------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    tenant: str
    document_id: str
    line_id: str
    invoice_number: str
    document_type: str
    company: str
    supplier: str
    status: str
    invoice_date: dt.date
    currency: str
    product: str
    quantity: Decimal  # signed
    gross: Decimal  # signed net + tax, invoice currency
    net: Decimal  # signed, invoice currency
    fx: Decimal

    @property
    def spend(self) -> Decimal:
        return self.gross * self.fx

    @property
    def net_reporting(self) -> Decimal:
        return self.net * self.fx


@dataclass(frozen=True)
class Approval:
    supplier: str
    valid_from: dt.date
    valid_to: dt.date | None


@dataclass(frozen=True)
class DocVersion:
    document_id: str
    kind: str
    effective: dt.date
    company: str | None
    text: str
    approvals: tuple[Approval, ...]


@dataclass
class Tenant:
    tenant: str
    companies: dict[str, str] = field(default_factory=dict)
    suppliers: dict[str, str] = field(default_factory=dict)
    names: dict[str, list[str]] = field(default_factory=dict)  # supplier id -> its name and aliases
    aliases: dict[str, str] = field(default_factory=dict)
    groups: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    products: dict[str, tuple[str, str, str]] = field(default_factory=dict)  # code -> (name, group, supplier)
    documents: dict[str, list[DocVersion]] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)

    def top(self, group: str) -> str:
        while self.groups[group][1] is not None:
            group = str(self.groups[group][1])
        return group

    def subgroups(self, group: str) -> set[str]:
        out = {group}
        changed = True
        while changed:
            changed = False
            for g, (_, parent) in self.groups.items():
                if parent in out and g not in out:
                    out.add(g)
                    changed = True
        return out


def normalize(name: str) -> str:
    """Casefold, strip punctuation and legal-form suffixes, collapse whitespace (docs/corpus.md)."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    words = [w for w in text.split() if w not in _LEGAL]
    return " ".join(words)


def _date(value: str, where: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise TruthError(f"{where}: not an ISO date: {value!r}") from exc


def _front_matter(text: str, where: str) -> dict[str, str]:
    if not text.startswith("---"):
        raise TruthError(f"{where}: no front matter")
    head = text.split("---", 2)[1]
    out = {}
    for raw in head.strip().splitlines():
        key, _, value = raw.partition(":")
        out[key.strip()] = value.strip()
    return out


def _approvals(text: str, where: str) -> tuple[Approval, ...]:
    rows = []
    for raw in text.splitlines():
        cells = [c.strip() for c in raw.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"SUP-\d+", cells[1]):
            to = None if cells[4] == "open" else _date(cells[4], f"{where} approval valid_to")
            rows.append(Approval(cells[1], _date(cells[3], f"{where} approval valid_from"), to))
    return tuple(rows)


def _allocate(header: Decimal, nets: Sequence[Decimal]) -> list[Decimal]:
    """Invoice-level tax to lines: truncated shares, remaining cents to the largest truncated-away fractions."""
    total = sum(nets, Decimal(0))
    if total == 0:
        raise TruthError("invoice-level tax on lines whose nets sum to zero")
    exact = [header * n / total for n in nets]
    cut = [e.quantize(CENT, rounding=ROUND_DOWN) for e in exact]
    rest = int(((header - sum(cut, Decimal(0))) / CENT).to_integral_value())
    order = sorted(range(len(nets)), key=lambda i: (-(exact[i] - cut[i]), i))
    for i in order[:rest]:
        cut[i] += CENT
    return cut


def load_corpus(root: Path) -> dict[str, Tenant]:
    """Every tenant's master data, documents (all versions, manifest order) and counted-candidate invoice lines."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    tenants: dict[str, Tenant] = {}
    fx: dict[str, dict[tuple[dt.date, str, str], Decimal]] = defaultdict(dict)
    invoices: dict[tuple[str, str], dict[str, Any]] = {}  # (tenant, document_id) -> newest content
    order: list[tuple[str, str]] = []
    for entry in manifest["files"]:
        path = root / entry["path"]
        tid, kind = entry["tenant_id"], entry["kind"]
        t = tenants.setdefault(tid, Tenant(tid))
        where = entry["path"]
        if kind == "companies":
            for c in json.loads(path.read_text(encoding="utf-8")):
                t.companies[c["company_id"]] = c["company_name"]
                if c["reporting_currency"] != "EUR":
                    raise TruthError(f"{where}: reporting_currency {c['reporting_currency']} (EUR assumed)")
        elif kind == "suppliers":
            for s in json.loads(path.read_text(encoding="utf-8")):
                t.suppliers[s["supplier_id"]] = s["supplier_name"]
                t.names[s["supplier_id"]] = list(dict.fromkeys([s["supplier_name"], *s["aliases"]]))
                for alias in [s["supplier_name"], *s["aliases"]]:
                    t.aliases[normalize(alias)] = s["supplier_id"]
        elif kind == "product_groups":
            for g in json.loads(path.read_text(encoding="utf-8")):
                t.groups[g["product_group_id"]] = (g["group_name"], g["parent_group_id"])
        elif kind == "products":
            with path.open(encoding="utf-8", newline="") as fh:
                for row in csv.DictReader(fh):
                    t.products[row["product_code"]] = (row["product_name"], row["product_group_id"],
                                                       row["supplier_id"])
        elif kind == "fx_rates":
            with path.open(encoding="utf-8", newline="") as fh:
                for row in csv.DictReader(fh):
                    if row["rate_type"] == "corporate":
                        fx[tid][(_date(row["rate_date"], where), row["from_currency"], row["to_currency"])] = \
                            Decimal(row["rate"])
        elif kind in ("agreement", "product_manual"):
            text = path.read_text(encoding="utf-8")
            fm = _front_matter(text, where)
            version = DocVersion(fm["document_id"], kind, _date(fm["effective_date"], f"{where} effective_date"),
                                 fm.get("company_id"), text, _approvals(text, where))
            t.documents.setdefault(version.document_id, []).append(version)
        elif kind in ("invoice", "credit_note"):
            doc = json.loads(path.read_text(encoding="utf-8"))
            key = (tid, doc["document_id"])
            if key not in invoices:
                order.append(key)  # a new version keeps its document's first position
            invoices[key] = doc
            # an invoice's newer version is in effect at once (its order is the manifest's)
            t.documents.setdefault(doc["document_id"], []).append(
                DocVersion(doc["document_id"], kind, dt.date.min, doc["company_id"], path.read_text(encoding="utf-8"),
                           ()))
        else:
            raise TruthError(f"{where}: unknown kind {kind!r}")
    seen: set[tuple[str, str, str, str, str]] = set()
    for key in order:
        tid, _ = key
        t, doc = tenants[tid], invoices[key]
        where = doc["document_id"]
        supplier = t.aliases.get(normalize(doc["supplier_name"]))
        if supplier is None:
            raise TruthError(f"{where}: supplier_name {doc['supplier_name']!r} matches no alias")
        business = (tid, doc["company_id"], supplier, doc["document_type"], doc["invoice_number"])
        if business in seen:
            continue  # a replicated duplicate (or a clash): the first ingested is kept
        seen.add(business)
        posting = _date(doc["posting_date"], f"{where} posting_date")
        if doc["currency"] == "EUR":
            rate: Decimal | None = Decimal(1)
        else:
            rate = fx[tid].get((posting, doc["currency"], "EUR"))
        if rate is None:
            continue  # a missing rate makes the invoice invalid; it never counts
        sign = Decimal(-1) if doc["document_type"] == "credit_note" else Decimal(1)
        nets = [abs(Decimal(ln["line_net_amount"])) for ln in doc["lines"]]
        if doc["tax_level"] == "invoice":
            taxes = _allocate(abs(Decimal(doc["header_tax_amount"])), nets)
        else:
            taxes = [abs(Decimal(ln["line_tax_amount"])) for ln in doc["lines"]]
        for ln, net, tax in zip(doc["lines"], nets, taxes, strict=True):
            t.lines.append(Line(
                tenant=tid, document_id=doc["document_id"],
                line_id=f"{doc['document_id']}-line-{int(ln['line_number']):02d}",
                invoice_number=doc["invoice_number"], document_type=doc["document_type"],
                company=doc["company_id"], supplier=supplier, status=doc["status"],
                invoice_date=_date(doc["invoice_date"], f"{where} invoice_date"), currency=doc["currency"],
                product=ln["product_code"], quantity=sign * abs(Decimal(ln["quantity"])),
                gross=sign * (net + tax), net=sign * net, fx=rate))
    return tenants


# -- selections and measures -------------------------------------------------------------------------------------
def _d(value: Any) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def _list(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def select(t: Tenant, spec: Mapping[str, Any]) -> list[Line]:
    """The counted lines a spec names: company, suppliers, groups (with subgroups), products, period, statuses."""
    companies = set(_list(spec.get("company")))
    suppliers = set(_list(spec.get("suppliers")))
    ex_suppliers = set(_list(spec.get("exclude_suppliers")))
    groups: set[str] = set()
    for g in _list(spec.get("groups")):
        groups |= t.subgroups(g)
    ex_groups: set[str] = set()
    for g in _list(spec.get("exclude_groups")):
        ex_groups |= t.subgroups(g)
    products = set(_list(spec.get("products")))
    statuses = set(_list(spec.get("statuses")) or COUNTED)
    types = set(_list(spec.get("document_types")) or ("invoice", "credit_note"))
    currencies = set(_list(spec.get("currencies")))
    start, end = _d(spec["start"]), _d(spec["end"])
    out = []
    for ln in t.lines:
        group = t.products[ln.product][1] if ln.product in t.products else None
        if ln.status not in statuses or ln.document_type not in types:
            continue
        if not (start <= ln.invoice_date < end):
            continue
        if companies and ln.company not in companies:
            continue
        if suppliers and ln.supplier not in suppliers:
            continue
        if ln.supplier in ex_suppliers:
            continue
        if groups and group not in groups:
            continue
        if ex_groups and group in ex_groups:
            continue
        if products and ln.product not in products:
            continue
        if currencies and ln.currency not in currencies:
            continue
        out.append(ln)
    return out


def money(value: Decimal) -> str:
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def _sum(lines: Iterable[Line]) -> Decimal:
    return sum((ln.spend for ln in lines), Decimal(0))


#: The supplier selection of "spend with approved vendors" when there is none: an id no line has, so the figure is
#: no data (an empty supplier list would mean "every supplier" to :func:`select`).
NO_APPROVED_SUPPLIER = "<no approved supplier>"


def approved_selection(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> list[str]:
    """The supplier filter of "spend with approved vendors (of a group)": the approved suppliers, or
    :data:`NO_APPROVED_SUPPLIER` when the group has none among them."""
    return _approved_suppliers(t, spec, as_of) or [NO_APPROVED_SUPPLIER]


def _approved_suppliers(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> list[str]:
    """"Spend with approved vendors (of a group)": the approved suppliers, narrowed to the group's catalog suppliers."""
    ids = approved(t, spec["company"], _d(spec["start"]), _d(spec["end"]), as_of)
    if spec.get("groups"):
        groups: set[str] = set()
        for g in _list(spec["groups"]):
            groups |= t.subgroups(g)
        ids &= {s for _, g, s in t.products.values() if g in groups}
    return sorted(ids)


def _figure(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    lines = select(t, spec)
    measure = spec.get("measure", "spend")
    if measure == "invoice_count":
        n = len({ln.document_id for ln in lines})
        unit = "credit_notes" if list(_list(spec.get("document_types"))) == ["credit_note"] else "invoices"
        return {"kind": "figure", "value": str(n) if n else None, "unit": unit}
    if not lines:
        out: dict[str, Any] = {"kind": "figure", "value": None, "lines": 0, "status": "no_data"}
        if measure in ("spend", "avg_unit_price"):
            out["currency"] = "EUR"
        return out
    if measure == "units":
        qty = sum((ln.quantity for ln in lines), Decimal(0))
        return {"kind": "figure", "value": str(qty.quantize(Decimal(1)) if qty == qty.to_integral() else qty),
                "lines": len(lines), "status": "complete"}
    if measure == "avg_unit_price":
        qty = sum((ln.quantity for ln in lines), Decimal(0))
        value = sum((ln.net_reporting for ln in lines), Decimal(0)) / qty
        return {"kind": "figure", "value": str(value.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)),
                "lines": len(lines), "status": "complete", "currency": "EUR"}
    if measure != "spend":
        raise TruthError(f"unknown measure {measure!r}")
    out = {"kind": "figure", "value": money(_sum(lines)), "lines": len(lines), "status": "complete",
           "currency": "EUR"}
    wanted = _list(spec.get("suppliers"))
    if spec.get("partial_if_missing") and wanted:
        missing = sorted(s for s in wanted if not any(ln.supplier == s for ln in lines))
        if missing:
            out["status"] = "partial"
            out["missing"] = missing
    return out


def _month(d: dt.date) -> str:
    return f"{d.year:04d}-{d.month:02d}"


def _table(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    lines = select(t, spec)
    by = spec["by"]
    rows: dict[str, Decimal] = defaultdict(Decimal)
    for ln in lines:
        if by == "month":
            key = _month(ln.invoice_date)
        elif by == "supplier":
            key = ln.supplier
        elif by == "group":
            key = t.products[ln.product][1]
        elif by == "top_group":
            key = t.top(t.products[ln.product][1])
        elif by == "company":
            key = ln.company
        else:
            raise TruthError(f"unknown breakdown {by!r}")
        rows[key] += ln.spend
    out: dict[str, Any] = {"kind": "table", "rows": {k: money(rows[k]) for k in sorted(rows)},
                           "total": money(_sum(lines)), "currency": "EUR"}
    return out


def approved(t: Tenant, company: str, start: dt.date, end: dt.date, as_of: dt.date) -> set[str]:
    """Suppliers whose approval (in the version of each agreement in effect on as_of) overlaps [start, end)."""
    out: set[str] = set()
    for versions in t.documents.values():
        current = _in_effect(versions, as_of)
        if current is None or current.kind != "agreement" or current.company != company:
            continue
        for a in current.approvals:
            if a.valid_from < end and (a.valid_to is None or a.valid_to > start):
                out.add(a.supplier)
    return out


def _in_effect(versions: Sequence[DocVersion], as_of: dt.date) -> DocVersion | None:
    live = [v for v in versions if v.effective <= as_of]
    return live[-1] if live else None


def _list_expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    op = spec["op"]
    if op == "approved":  # approved vendors (of a group: those supplying a catalog product of it)
        return {"kind": "list", "ids": _approved_suppliers(t, spec, as_of)}
    if op == "products":  # catalog products of a supplier within a group
        groups: set[str] = set()
        for g in _list(spec["groups"]):
            groups |= t.subgroups(g)
        ids = {code for code, (_, g, s) in t.products.items() if g in groups and s in _list(spec["suppliers"])}
        return {"kind": "list", "ids": sorted(ids)}
    if op in ("above", "suppliers_above"):  # invoices (gross, EUR) or suppliers (spend) above a threshold
        totals: dict[str, Decimal] = defaultdict(Decimal)
        if op == "above":
            for ln in select(t, {**spec, "document_types": ["invoice"]}):
                totals[ln.invoice_number] += ln.spend
        else:
            for ln in select(t, spec):
                totals[ln.supplier] += ln.spend
        threshold = Decimal(str(spec["threshold"]))
        inclusive = spec.get("compare", "gt") == "ge"
        return {"kind": "list", "ids": sorted(n for n, v in totals.items()
                                              if v > threshold or (inclusive and v == threshold))}
    raise TruthError(f"unknown list op {op!r}")


def _ranking(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, spec):
        totals[ln.supplier] += ln.spend
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    n = int(spec["n"])
    if len(ranked) > n and money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the ranking cut")
    top = ranked[:n]
    labels = {s: t.names[s] for s, _ in top}
    return {"kind": "ranking", "items": [[s, money(v)] for s, v in top], "labels": labels}


def _pct(part: Decimal, base: Decimal) -> str:
    return str((100 * part / base).quantize(CENT, rounding=ROUND_HALF_UP))


def _share(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    base_spec = {k: v for k, v in spec.items() if k not in ("part", "op")}
    base = _sum(select(t, base_spec))
    part = _sum(select(t, {**base_spec, **spec["part"]}))
    if not select(t, base_spec):
        return {"kind": "share", "percent": None, "part": None, "base": None}
    return {"kind": "share", "percent": _pct(part, base), "part": money(part), "base": money(base)}


def _change(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    cur_lines = select(t, spec)
    base_lines = select(t, {**spec, "start": spec["base_start"], "end": spec["base_end"]})
    current = _sum(cur_lines)
    out: dict[str, Any] = {"kind": "change", "current": money(current) if cur_lines else None}
    if not base_lines:
        return {**out, "base": None, "delta": None, "percent": None}
    base = _sum(base_lines)
    out.update({"base": money(base), "delta": money(current - base),
                "percent": _pct(current - base, base) if base else None, "want": spec.get("want", "both")})
    return out


def _currency(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    lines = select(t, spec)
    if not lines:
        return {"kind": "currency", "rows": {}, "reporting": None}
    rows: dict[str, Decimal] = defaultdict(Decimal)
    for ln in lines:
        rows[ln.currency] += ln.gross
    return {"kind": "currency", "rows": {c: money(v) for c, v in sorted(rows.items())},
            "reporting": money(_sum(lines))}


def _document(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    doc_id = spec["document_id"]
    versions = t.documents.get(doc_id)
    if not versions:
        if spec["op"] == "not_found":
            return {"kind": "not_found", "document_id": doc_id}
        raise TruthError(f"{t.tenant}: no document {doc_id}")
    if spec["op"] == "not_found":
        raise TruthError(f"{t.tenant}: document {doc_id} exists")
    current = _in_effect(versions, as_of)
    if current is None:
        raise TruthError(f"{t.tenant}: {doc_id} has no version in effect on {as_of}")
    out: dict[str, Any] = {"kind": "document", "document_id": doc_id}
    text = " ".join(current.text.split()).casefold()
    if spec.get("fact"):
        if " ".join(str(spec["fact"]).split()).casefold() not in text:
            raise TruthError(f"{doc_id}: fact {spec['fact']!r} not in the version in effect on {as_of}")
        out["fact"] = spec["fact"]
    if spec.get("fact_from") == "effective_date":
        out["fact"] = current.effective.isoformat()
    if spec.get("wrong_fact"):
        others = [" ".join(v.text.split()).casefold() for v in versions if v is not current]
        wrong = " ".join(str(spec["wrong_fact"]).split()).casefold()
        if wrong in text or not any(wrong in o for o in others):
            raise TruthError(f"{doc_id}: wrong_fact {spec['wrong_fact']!r} is not only in another version")
        out["wrong_fact"] = spec["wrong_fact"]
    return out


def _clarification(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    for name in _list(spec.get("names")):
        if spec.get("reason") == "unknown_supplier" and normalize(name) in t.aliases:
            raise TruthError(f"{t.tenant}: {name!r} is a known supplier alias")
    out: dict[str, Any] = {"kind": "clarification", "reason": spec["reason"], "names": _list(spec.get("names")),
                           "topics": _list(spec.get("topics"))}
    if spec.get("intended"):
        intended = expect(t, spec["intended"], as_of)
        out["accept_value"] = intended.get("value")
    return out


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if spec.get("to_date"):  # "YTD", "so far": end = as_of + 1 day; a line dated on as_of would make it ambiguous
        if any(ln.invoice_date == as_of for ln in t.lines):
            raise TruthError(f"a line is dated on the as-of date {as_of}")
        if _d(spec["end"]) != as_of + dt.timedelta(days=1):
            raise TruthError("a to-date period must end the day after as_of")
    if spec.get("inclusive_end"):  # "between X and Y": Y included; no selected line on Y, so both readings agree
        last = _d(spec["end"]) - dt.timedelta(days=1)
        if any(ln.invoice_date == last for ln in select(t, spec)):
            raise TruthError(f"a selected line is dated on the end date {last}")
    if spec.get("approved_vendors"):
        spec = {**spec, "suppliers": approved_selection(t, spec, as_of), "partial_if_missing": True}
    if op == "figure":
        return _figure(t, spec)
    if op == "table":
        return _table(t, spec)
    if op in ("approved", "products", "above", "suppliers_above"):
        return _list_expect(t, spec, as_of)
    if op == "ranking":
        return _ranking(t, spec)
    if op == "share":
        return _share(t, spec)
    if op == "change":
        return _change(t, spec)
    if op == "currency":
        return _currency(t, spec)
    if op in ("document", "not_found"):
        return _document(t, spec, as_of)
    if op == "clarification":
        return _clarification(t, spec, as_of)
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    raise TruthError(f"unknown op {op!r}")


# -- the question file ---------------------------------------------------------------------------------------------
def load_questions(path: Path = DEFAULT_QUESTIONS) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise TruthError(f"{path}: no `questions` list")
    return data


def compute(tenants: Mapping[str, Tenant], data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for q in data["questions"]:
        try:
            out[q["id"]] = expect(tenants[q["tenant"]], q["spec"], _d(q["as_of"]))
        except (KeyError, TruthError) as exc:
            raise TruthError(f"question {q.get('id')}: {exc}") from exc
    return out


def _corpus_path(corpus: Any, data: Mapping[str, Any]) -> Path:
    if isinstance(corpus, str | Path):
        return Path(corpus)
    argv = sys.argv
    for i, arg in enumerate(argv):  # called by evaluation.blind_score with its own corpus object
        if arg == "--corpus" and i + 1 < len(argv):
            return Path(argv[i + 1])
        if arg.startswith("--corpus="):
            return Path(arg.split("=", 1)[1])
    return Path(str((data.get("corpus") or {}).get("path") or DEFAULT_CORPUS))


def check(corpus: Any, data: Mapping[str, Any],
          compute_fn: Callable[[Any, Any], Mapping[str, Any]] | None = None) -> list[str]:
    """Differences between the stored ``expected`` values and the ones recomputed from the corpus files (by
    ``compute_fn``, default this set's :func:`compute`; later sets pass their own)."""
    compute_fn = compute_fn or compute
    root = _corpus_path(corpus, data)
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    want = data.get("corpus") or {}
    got = manifest.get("generator") or {}
    problems = [f"corpus {root}: {k} {got.get(k)} (the questions need {want[k]})"
                for k in ("seed", "scale") if k in want and got.get(k) != want[k]]
    if problems:
        return problems
    fresh = compute_fn(load_corpus(root), data)
    for q in data["questions"]:
        if q.get("expected") != fresh[q["id"]]:
            problems.append(f"{q['id']}: stored {q.get('expected')!r} != computed {fresh[q['id']]!r}")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.blind3_truth", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--check", action="store_true", help="recompute and diff (exit 1 on differences)")
    parser.add_argument("--write", action="store_true", help="store the recomputed expected values")
    args = parser.parse_args(argv)
    return write_or_check(args.questions, args.corpus, args.write, compute, check)


def write_or_check(questions: Path, corpus: Path, write: bool,
                   compute_fn: Callable[[Any, Any], Mapping[str, Any]],
                   check_fn: Callable[[Path, Any], list[str]]) -> int:
    """``--write``: store the recomputed expected answers under the file's header; else diff them (exit 1)."""
    data = load_questions(questions)
    if write:
        fresh = compute_fn(load_corpus(corpus), data)
        text = questions.read_text(encoding="utf-8")
        header = text.split("\ntitle:", 1)[0]
        for q in data["questions"]:
            q["expected"] = fresh[q["id"]]
        body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
        questions.write_text(header + "\n" + body, encoding="utf-8")
        print(f"wrote {len(fresh)} expected answers to {questions}")
        return 0
    problems = check_fn(corpus, data)
    print("\n".join(problems) if problems else f"{len(data['questions'])} questions: no differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
