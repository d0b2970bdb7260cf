"""The demo corpus as the golden set reads it: master data, the served version of each document, truth."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.errors import GoldenSetError

GOLDEN_VERSION = 1
SEED_TENANT = "tenant-42"
DEFAULT_STATUSES = ("posted", "paid")
_PAGE = re.compile(r"<!-- page (\d+) -->")
_HEADING = re.compile(r"^(#{1,3})\s+(.*)$", re.MULTILINE)

POLICY = {
    "exact_lookup": "the question names a canonical identifier (product code, invoice number, contract id, "
    "supplier id, company id), even when the identifier only parameterises a metric",
    "lexical": "a quoted or rare technical phrase the user wants found literally",
    "semantic": "an explanatory, summary or 'what does the document say' request",
    "aggregate": "a total, average, count or threshold filter over invoice data (governed SQL)",
    "relationship": "a traversal: approved vendors of a company, products of a supplier or under a product "
    "group, the agreement approving a supplier",
    "optional_intents": "may be predicted without penalty; excluded from precision and recall",
    "clarification": "a missing or ambiguous period, company, currency or accounting basis stops execution",
    "periods": "half-open [start, end); relative periods resolve against the case's as_of date",
    "tenant": "the tenant comes from the asking key only; text naming another tenant changes nothing",
    "held_out": "this set measures the router; it must not be used to train or tune it",
}


# -- corpus reading ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Page:
    """One page of a Markdown document."""

    number: int
    text: str


@dataclass(frozen=True)
class MarkdownDoc:
    """The served version of an agreement or manual."""

    document_id: str
    document_type: str
    title: str
    front: Mapping[str, str]
    pages: tuple[Page, ...]

    def find(self, pattern: str | re.Pattern[str]) -> tuple[re.Match[str], int] | None:
        """First match of ``pattern`` and the page it is on."""
        regex = re.compile(pattern) if isinstance(pattern, str) else pattern
        for page in self.pages:
            match = regex.search(page.text)
            if match:
                return match, page.number
        return None

    def pages_containing(self, phrase: str) -> list[int]:
        """Pages whose text contains ``phrase`` (case-insensitive)."""
        needle = phrase.casefold()
        return [p.number for p in self.pages if needle in p.text.casefold()]


@dataclass
class TenantData:
    """What the builder needs of one tenant, from the served files."""

    tenant_id: str
    companies: dict[str, str] = field(default_factory=dict)
    suppliers: dict[str, dict[str, Any]] = field(default_factory=dict)
    products: dict[str, dict[str, str]] = field(default_factory=dict)
    groups: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    markdown: dict[str, MarkdownDoc] = field(default_factory=dict)
    invoices: dict[str, dict[str, Any]] = field(default_factory=dict)

    def subtree(self, group_id: str, max_depth: int = 3) -> set[str]:
        """Groups reaching ``group_id`` within ``max_depth`` PART_OF steps (itself included)."""
        members = set()
        for gid in self.groups:
            current: str | None = gid
            for _ in range(max_depth + 1):
                if current == group_id:
                    members.add(gid)
                    break
                current = self.groups[current][1] if current is not None else None
                if current is None:
                    break
        return members

    def group_id(self, name: str) -> str:
        matches = [gid for gid, (n, _) in self.groups.items() if n == name]
        if len(matches) != 1:
            raise GoldenSetError(f"{self.tenant_id}: product group {name!r} is not unique")
        return matches[0]

    def products_of_supplier(self, supplier_id: str) -> list[str]:
        return sorted(code for code, p in self.products.items() if p["supplier_id"] == supplier_id)

    def products_in_group(self, group_id: str) -> list[str]:
        groups = self.subtree(group_id)
        return sorted(code for code, p in self.products.items() if p["product_group_id"] in groups)


@dataclass
class Corpus:
    """The corpus as the builder sees it."""

    root: Path
    truth: dict[str, Any]
    tenants: dict[str, TenantData]

    def question(self, name: str) -> dict[str, Any]:
        for question in self.truth["questions"]:
            if question["name"] == name:
                return question  # type: ignore[no-any-return]
        raise GoldenSetError(f"ground_truth.json has no question {name!r}")

    @property
    def as_of(self) -> dt.date:
        return dt.date.fromisoformat(self.truth["as_of"])


def _front_matter(text: str, path: str) -> tuple[dict[str, str], str]:
    if not text.startswith("---\n"):
        raise GoldenSetError(f"{path}: no front matter")
    head, _, body = text[4:].partition("\n---\n")
    front = {}
    for line in head.splitlines():
        key, _, value = line.partition(":")
        front[key.strip()] = value.strip()
    return front, body


def _pages(body: str) -> tuple[Page, ...]:
    parts = _PAGE.split(body)
    # parts: [before, n1, text1, n2, text2, ...]
    return tuple(Page(int(parts[i]), parts[i + 1]) for i in range(1, len(parts) - 1, 2))


def read_corpus(root: Path) -> Corpus:
    """Read the served state of every tenant (manifest order; later files replace earlier versions)."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    truth = json.loads((root / "ground_truth.json").read_text(encoding="utf-8"))
    tenants: dict[str, TenantData] = {}
    for entry in manifest["files"]:
        tenant = tenants.setdefault(entry["tenant_id"], TenantData(entry["tenant_id"]))
        path = root / entry["path"]
        kind = entry["kind"]
        if kind == "companies":
            tenant.companies = {c["company_id"]: c["company_name"] for c in json.loads(path.read_text("utf-8"))}
        elif kind == "suppliers":
            tenant.suppliers = {s["supplier_id"]: s for s in json.loads(path.read_text("utf-8"))}
        elif kind == "products":
            rows = csv.DictReader(io.StringIO(path.read_text("utf-8")))
            tenant.products = {r["product_code"]: dict(r) for r in rows}
        elif kind == "product_groups":
            tenant.groups = {
                g["product_group_id"]: (g["group_name"], g["parent_group_id"])
                for g in json.loads(path.read_text("utf-8"))
            }
        elif kind in {"agreement", "product_manual"}:
            front, body = _front_matter(path.read_text("utf-8"), entry["path"])
            tenant.markdown[entry["document_id"]] = MarkdownDoc(
                entry["document_id"], front["document_type"], front["title"], front, _pages(body)
            )
        elif kind in {"invoice", "credit_note"} and path.suffix == ".json":
            tenant.invoices[entry["document_id"]] = json.loads(path.read_text("utf-8"))
    return Corpus(root, truth, tenants)
