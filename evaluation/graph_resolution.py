"""Entity-resolution accuracy measured on a demo corpus directory (``procura demo generate --out DIR``).

The corpus knows the truth in three places, and each gives one measurement per tenant:

* invoices name their supplier only by an alias or spelling variant (``supplier_name``); the catalog gives every
  product exactly one supplier, so the supplier of an invoice's product codes is the expected canonical id;
* every agreement's approved-vendor table names a supplier twice (label and ``Supplier ID``);
* ``suppliers.json`` itself, held out alias by alias (:func:`graph.resolution.leave_one_out`): how far the
  normalization rules alone carry to spellings the alias table has never seen.

The alias index is built from ``suppliers.json`` exactly as the pipeline builds it from
``landing.suppliers``/``landing.supplier_aliases`` (canonical id, canonical name, aliases).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.resolution import AliasEntry, AliasIndex, ResolutionReport, evaluate, leave_one_out

_TABLE_ROW = re.compile(r"^\|\s*(?P<label>[^|]+?)\s*\|\s*(?P<id>SUP-[0-9]+)\s*\|")


@dataclass(frozen=True)
class TenantResolution:
    """Resolution accuracy of one tenant of a corpus."""

    tenant_id: str
    invoices: ResolutionReport
    agreements: ResolutionReport
    leave_one_out: ResolutionReport
    invoices_without_truth: int


def _suppliers(tenant_dir: Path) -> list[dict[str, Any]]:
    return list(json.loads((tenant_dir / "suppliers.json").read_text()))


def supplier_index(suppliers: list[dict[str, Any]]) -> AliasIndex:
    """The alias index of one tenant's ``suppliers.json``."""
    entries: list[AliasEntry] = []
    for s in suppliers:
        entries.append(AliasEntry(s["supplier_id"], s["supplier_id"], "canonical_id"))
        entries.append(AliasEntry(s["supplier_name"], s["supplier_id"], "canonical_name"))
        entries.extend(AliasEntry(alias, s["supplier_id"], "alias") for alias in s.get("aliases", ()))
    return AliasIndex.build(entries)


def _invoices(root: Path) -> Iterator[dict[str, Any]]:
    for path in sorted(root.glob("invoices/**/*.json")):
        yield json.loads(path.read_text())
    for path in sorted(root.glob("invoices/batches/*.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                yield json.loads(line)


def _tenant_dirs(corpus: Path, tenant_id: str) -> list[Path]:
    return [d for d in (corpus / "tenants" / tenant_id, corpus / "updates" / "tenants" / tenant_id) if d.is_dir()]


def measure_tenant(corpus: Path, tenant_id: str) -> TenantResolution:
    """Resolution accuracy of one tenant (original files and ``updates/``)."""
    base = corpus / "tenants" / tenant_id
    suppliers = _suppliers(base)
    index = supplier_index(suppliers)
    with (base / "catalog" / "products.csv").open(newline="") as handle:
        supplier_of = {row["product_code"]: row["supplier_id"] for row in csv.DictReader(handle)}
    invoice_truth: list[tuple[str, str]] = []
    without_truth = 0
    agreement_truth: list[tuple[str, str]] = []
    for directory in _tenant_dirs(corpus, tenant_id):
        for invoice in _invoices(directory):
            expected = {supplier_of.get(line["product_code"]) for line in invoice.get("lines", [])}
            only = next(iter(expected)) if len(expected) == 1 else None
            if only is not None:
                invoice_truth.append((invoice["supplier_name"], only))
            else:
                without_truth += 1
        for agreement in sorted(directory.glob("agreements/*.md")):
            for line in agreement.read_text().splitlines():
                match = _TABLE_ROW.match(line)
                if match:
                    agreement_truth.append((match.group("label"), match.group("id")))
    return TenantResolution(
        tenant_id=tenant_id,
        invoices=evaluate(index, invoice_truth),
        agreements=evaluate(index, agreement_truth),
        leave_one_out=leave_one_out(
            [(s["supplier_id"], s["supplier_name"], tuple(s.get("aliases", ()))) for s in suppliers]
        ),
        invoices_without_truth=without_truth,
    )


def measure_corpus(corpus: Path) -> list[TenantResolution]:
    """Resolution accuracy of every tenant of a corpus directory."""
    tenants = sorted(p.name for p in (corpus / "tenants").iterdir() if p.is_dir())
    return [measure_tenant(corpus, tenant) for tenant in tenants]


def format_report(results: list[TenantResolution]) -> str:
    """A plain-text table of the measurements."""
    lines = ["tenant       invoices            agreement tables    leave-one-out (rules only)"]
    for r in results:
        cells = [
            f"{rep.correct}/{rep.total} = {float(rep.accuracy) * 100:5.1f}%"  # display only
            for rep in (r.invoices, r.agreements, r.leave_one_out)
        ]
        lines.append(f"{r.tenant_id:<12} {cells[0]:<19} {cells[1]:<19} {cells[2]}")
        for name, expected, result in (*r.invoices.failures, *r.agreements.failures)[:5]:
            lines.append(f"    miss: {name!r} -> {result.status} {result.canonical_id or result.candidates} "
                         f"(expected {expected})")
    return "\n".join(lines)
