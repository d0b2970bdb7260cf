"""Discovery of source documents on disk: which files, which tenant, which kind, in a deterministic order.

A file's tenant comes from the ``tenants/<tenant_id>/`` segment of its path, or from ``--tenant`` for files
outside that layout; a JSONL batch yields one item per line. Nothing is parsed here, so a malformed file still
becomes an item (and later a dead letter) instead of disappearing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import TenantError, UnsupportedInputError
from procura.db.session import TENANT_ID_PATTERN

#: Kinds of source the pipeline parses (``markdown`` covers agreements and manuals).
KINDS = ("companies", "suppliers", "product_groups", "products", "fx_rates", "markdown", "invoice")

_FIXED_NAMES = {
    "companies.json": "companies",
    "suppliers.json": "suppliers",
    "product_groups.json": "product_groups",
    "products.csv": "products",
    "fx_rates.csv": "fx_rates",
}
# Files of the corpus root that describe the corpus rather than belong to a tenant.
_CORPUS_FILES = frozenset({"manifest.json", "ground_truth.json"})
# Master data first: a reader of the landing tables sees suppliers before the invoices that name them.
_KIND_ORDER = {"companies": 0, "suppliers": 1, "product_groups": 2, "products": 3, "fx_rates": 4,
               "markdown": 5, "invoice": 6, "jsonl": 7, None: 8}


@dataclass(frozen=True)
class SourceItem:
    """One source document: its tenant, where it came from, its kind and its raw bytes.

    ``kind`` is None for a file the contract does not describe (it becomes an ``UnsupportedInputError``
    dead letter). ``source_uri`` is the absolute path, plus ``#L<n>`` for a line of a JSONL batch.
    """

    tenant_id: str
    source_uri: str
    kind: str | None
    raw: bytes


def detect_kind(path: Path) -> str | None:
    """The source kind of a file, from its name and place; None if unsupported.

    >>> detect_kind(Path("tenants/tenant-42/catalog/products.csv"))
    'products'
    >>> detect_kind(Path("tenants/tenant-42/invoices/batches/b-001.jsonl"))
    'jsonl'
    """
    name = path.name
    if name in _FIXED_NAMES:
        return _FIXED_NAMES[name]
    suffix = path.suffix.lower()
    if suffix in (".md", ".markdown"):
        return "markdown"
    if suffix == ".jsonl":
        return "jsonl"
    if suffix == ".json":
        return "invoice"
    return None


def kind_of_uri(source_uri: str) -> str | None:
    """The kind of the item a ``source_uri`` names (a JSONL line is an invoice or credit note)."""
    path, _, line = source_uri.partition("#L")
    kind = detect_kind(Path(path))
    return "invoice" if kind == "jsonl" and line else kind


def tenant_from_path(path: Path) -> str | None:
    """The ``<tenant_id>`` of the last ``tenants/<tenant_id>/`` segment of ``path``, if any."""
    parts = path.parts
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == "tenants":
            return parts[index + 1]
    return None


def _check_tenant(tenant_id: str, where: str) -> str:
    if not TENANT_ID_PATTERN.match(tenant_id):
        raise TenantError(f"{where}: invalid tenant id {tenant_id!r} (lowercase letters, digits and '-')")
    return tenant_id


def resolve_tenant(path: Path, tenant: str | None) -> str:
    """The tenant of one file: from its path, else ``tenant``; a contradiction is an error."""
    from_path = tenant_from_path(path)
    if from_path is not None and tenant is not None and from_path != tenant:
        raise TenantError(f"{path}: lies under tenants/{from_path}/ but --tenant is {tenant}")
    chosen = from_path or tenant
    if chosen is None:
        raise TenantError(f"{path}: no tenants/<tenant_id>/ in the path; pass --tenant")
    return _check_tenant(chosen, str(path))


def list_files(root: Path, *, tenant: str | None = None) -> list[Path]:
    """Source files under ``root`` (or ``root`` itself), in ingestion order.

    At a corpus root (a folder with ``tenants/``), ``updates/`` is skipped: updates are later arrivals, ingested
    by pointing the pipeline at ``DIR/updates``. With ``tenant`` set, files of other tenants are skipped.
    """
    root = root.resolve()
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such file or directory")
    skip_updates = (root / "tenants").is_dir()
    found: list[Path] = []
    for path in root.rglob("*"):
        relative = path.relative_to(root)
        if any(part.startswith(".") for part in relative.parts) or not path.is_file():
            continue
        if skip_updates and relative.parts[0] == "updates":
            continue
        if len(relative.parts) == 1 and path.name in _CORPUS_FILES:
            continue
        path_tenant = tenant_from_path(relative) or tenant_from_path(root)
        if tenant is not None and path_tenant is not None and path_tenant != tenant:
            continue
        found.append(path)
    # Order matters: the first ingested of two replicated duplicates is the one kept. A corpus manifest defines
    # the arrival order; without one, master data comes first and stems sort before their suffixed variants
    # (invoice-0150 before invoice-0150-erp-replica), so a replica follows its original.
    found.sort(key=lambda p: (tenant_from_path(p) or "", _KIND_ORDER.get(detect_kind(p), 8), p.parent.parts,
                              p.stem, p.suffix))
    manifest = load_manifest(root)
    if manifest is not None:
        position = {path: index for index, path in enumerate(manifest)}
        found.sort(key=lambda p: position.get(str(p), len(position)))  # stable: unlisted files keep their order
    return found


def iter_items(root: Path, *, tenant: str | None = None) -> Iterator[SourceItem]:
    """Every source item under ``root``: one per file, one per non-blank line of a JSONL batch."""
    for path in list_files(root, tenant=tenant):
        tenant_id = resolve_tenant(path, tenant)
        kind = detect_kind(path)
        raw = path.read_bytes()
        if kind == "jsonl":
            for number, line in enumerate(raw.split(b"\n"), start=1):
                if line.strip():
                    yield SourceItem(tenant_id, f"{path}#L{number}", "invoice", line)
            continue
        yield SourceItem(tenant_id, str(path), kind, raw)


def read_item(source_uri: str, tenant_id: str) -> SourceItem | None:
    """The current content of a source (for replay and reconcile); None if it no longer exists."""
    path_text, _, line = source_uri.partition("#L")
    path = Path(path_text)
    if not path.is_file():
        return None
    raw = path.read_bytes()
    if line:
        lines = raw.split(b"\n")
        index = int(line) - 1
        if not 0 <= index < len(lines) or not lines[index].strip():
            return None
        return SourceItem(tenant_id, source_uri, "invoice", lines[index])
    return SourceItem(tenant_id, source_uri, kind_of_uri(source_uri), raw)


def load_manifest(root: Path) -> dict[str, dict[str, object]] | None:
    """``manifest.json`` of a corpus root by absolute file path, or None if ``root`` has none."""
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        return None
    try:
        data = json.loads(manifest_path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UnsupportedInputError(f"{manifest_path}: not a valid manifest ({exc})") from None
    entries = data.get("files", data) if isinstance(data, dict) else data
    result: dict[str, dict[str, object]] = {}  # insertion order = manifest order
    for entry in entries:
        if isinstance(entry, dict) and "path" in entry:
            result[str((root / str(entry["path"])).resolve())] = entry
    return result
