"""Discovery of source documents on disk: which files, which tenant, which kind, in a deterministic order.

A file's tenant comes from the ``tenants/<tenant_id>/`` segment of its path, or from ``--tenant`` for files
outside that layout; a JSONL batch yields one item per line. Nothing is parsed here, so a malformed file still
becomes an item (and later a dead letter) instead of disappearing.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ingest.errors import (
    IngestError,
    ManifestMismatchError,
    SourceBoundaryError,
    SourceTooLargeError,
    TenantError,
    UnsupportedInputError,
)
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


#: Default size limit of one source (a file, or one line of a JSONL batch); ``PROCURA_INGEST_MAX_SOURCE_BYTES``.
DEFAULT_MAX_SOURCE_BYTES = 64 * 1024 * 1024
_READ_BLOCK = 1024 * 1024


@dataclass(frozen=True)
class SourceItem:
    """One source document: its tenant, where it came from, its kind and its raw bytes.

    ``kind`` is None for a file the contract does not describe (it becomes an ``UnsupportedInputError``
    dead letter). ``source_uri`` is the absolute path, plus ``#L<n>`` for a line of a JSONL batch. ``error`` is
    set for a source that could not be read (outside the corpus root, too large, a manifest mismatch, an invalid
    tenant folder): the pipeline dead-letters it as it is, and ``raw`` then holds nothing (or the checked bytes).
    """

    tenant_id: str
    source_uri: str
    kind: str | None
    raw: bytes
    error: IngestError | None = None


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


def document_path(source_uri: str) -> str:
    """The identity of a source's location: its path below ``tenants/<tenant_id>/`` (a JSONL line: its file).

    A corpus exported twice, moved, or delivered again under ``updates/`` keeps this path, so it is what a
    document's source must keep (see :func:`ingest.pipeline.identity_problem`).

    >>> document_path("/data/export/updates/tenants/t-1/agreements/a.md")
    'agreements/a.md'
    >>> document_path("/inbox/b-001.jsonl#L7")
    'b-001.jsonl'
    """
    path = Path(source_uri.partition("#L")[0])
    parts = path.parts
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == "tenants":
            return "/".join(parts[index + 2 :])
    return path.name


@dataclass(frozen=True)
class Manifest:
    """A corpus ``manifest.json``: its entries by absolute file path (in manifest order), and the entries whose
    path leaves the corpus root (``..``, absolute paths, symbolic links), which nothing reads."""

    path: Path
    entries: dict[str, dict[str, object]]
    outside: tuple[str, ...] = ()

    def sha256(self, path: str) -> str | None:
        """The recorded sha256 (hex) of a file, if the manifest has one."""
        entry = self.entries.get(path)
        value = str(entry.get("sha256") or "") if entry else ""
        return value.removeprefix("sha256:").lower() or None


def _is_inside(root: Path, path: Path) -> bool:
    """True when ``path`` lies below ``root`` without leaving it through ``..`` or a symbolic link."""
    normalized = Path(os.path.normpath(path))
    if normalized != root and root not in normalized.parents:
        return False
    current = root
    for part in normalized.relative_to(root).parts:
        current = current / part
        if current.is_symlink():
            return False
    return True


def _boundary_error(path: Path, root: Path) -> SourceBoundaryError:
    return SourceBoundaryError(
        f"{path}: a symbolic link or a path leaving the corpus root {root}; not read (copy the file into the "
        "corpus instead)"
    )


def _walk(root: Path) -> tuple[list[Path], list[Path]]:
    """Regular files under ``root`` and the symbolic links found there (never followed), hidden entries skipped."""
    files: list[Path] = []
    links: list[Path] = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        base = Path(folder)
        for name in list(dirs):
            if name.startswith("."):
                dirs.remove(name)
            elif (base / name).is_symlink():
                links.append(base / name)
        for name in names:
            if name.startswith("."):
                continue
            path = base / name
            if path.is_symlink():
                links.append(path)
            elif path.is_file():
                files.append(path)
    return files, links


def _corpus_root_of(root: Path) -> Path | None:
    """The corpus root whose manifest describes ``root``: itself, or the parent of an ``updates/`` folder."""
    if (root / "manifest.json").is_file():
        return root
    if root.name == "updates" and (root.parent / "manifest.json").is_file():
        return root.parent
    return None


def scan(root: Path, *, tenant: str | None = None) -> tuple[list[Path], list[tuple[Path, IngestError]]]:
    """Source files under ``root`` (or ``root`` itself) in ingestion order, and the entries that are not read.

    At a corpus root (a folder with ``tenants/``), ``updates/`` is skipped: updates are later arrivals, ingested
    by pointing the pipeline at ``DIR/updates``. With ``tenant`` set, files of other tenants are skipped; a
    ``root`` inside ``tenants/<other>/`` contradicts it. Symbolic links are never followed: each is returned
    with a :class:`SourceBoundaryError`.

    Raises:
        TenantError: ``tenant`` contradicts the ``tenants/<tenant_id>/`` that ``root`` lies in.
        FileNotFoundError: ``root`` does not exist.
    """
    given = Path(os.path.abspath(root))
    root_tenant = tenant_from_path(given)
    if tenant is not None and root_tenant is not None and root_tenant != tenant:
        raise TenantError(f"{given}: lies under tenants/{root_tenant}/ but --tenant is {tenant}; nothing would "
                          "be ingested")
    if given.is_symlink() and given.is_file():
        return [], [(given, _boundary_error(given, given.parent))]
    root = given.resolve()
    if root.is_file():
        return [root], []
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such file or directory")
    skip_updates = (root / "tenants").is_dir()
    found: list[Path] = []
    problems: list[tuple[Path, IngestError]] = []
    files, links = _walk(root)
    for path in [*files, *links]:
        relative = path.relative_to(root)
        if skip_updates and relative.parts[0] == "updates":
            continue
        if len(relative.parts) == 1 and path.name in _CORPUS_FILES:
            continue
        path_tenant = tenant_from_path(relative) or tenant_from_path(root)
        if tenant is not None and path_tenant is not None and path_tenant != tenant:
            continue
        if path.is_symlink():
            problems.append((path, _boundary_error(path, root)))
        else:
            found.append(path)
    # Order matters: the first ingested of two replicated duplicates is the one kept. A corpus manifest defines
    # the arrival order; without one, master data comes first and stems sort before their suffixed variants
    # (invoice-0150 before invoice-0150-erp-replica), so a replica follows its original.
    found.sort(key=lambda p: (tenant_from_path(p) or "", _KIND_ORDER.get(detect_kind(p), 8), p.parent.parts,
                              p.stem, p.suffix))
    corpus = _corpus_root_of(root)
    manifest = load_manifest(corpus) if corpus is not None else None
    if manifest is not None:
        position = {path: index for index, path in enumerate(manifest.entries)}
        found.sort(key=lambda p: position.get(str(p), len(position)))  # stable: unlisted files keep their order
    problems.sort(key=lambda problem: problem[0])
    return found, problems


def list_files(root: Path, *, tenant: str | None = None) -> list[Path]:
    """Source files under ``root`` (or ``root`` itself), in ingestion order (see :func:`scan`)."""
    return scan(root, tenant=tenant)[0]


def _open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading, refusing a symbolic link (O_NOFOLLOW) and anything but a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _boundary_error(path, path.parent) from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsupportedInputError(f"{path}: not a regular file")
    return os.fdopen(fd, "rb")


def _too_large(where: str, size: int | None, limit: int) -> SourceTooLargeError:
    have = f"{size} bytes" if size is not None else "more bytes"
    return SourceTooLargeError(
        f"{where}: {have} exceed the limit of {limit} bytes per source (PROCURA_INGEST_MAX_SOURCE_BYTES)"
    )


def read_limited(path: Path, limit: int = DEFAULT_MAX_SOURCE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a larger file is refused before it is read.

    Raises:
        SourceTooLargeError: the file is larger than ``limit`` (or grew past it while read).
        SourceBoundaryError: ``path`` is a symbolic link.
    """
    with _open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > limit:
            raise _too_large(str(path), size, limit)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(str(path), None, limit)
    return data


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with _open_regular(path) as handle:
        for block in iter(lambda: handle.read(_READ_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def _manifest_error(path: Path, manifest: Manifest, expected: str, found: str) -> ManifestMismatchError:
    return ManifestMismatchError(
        f"{path}: sha256 {found} differs from {expected} recorded for it in {manifest.path}; not ingested"
    )


def _jsonl_items(path: Path, tenant_id: str, limit: int) -> Iterator[SourceItem]:
    """One item per non-blank line, read line by line: memory holds one line (at most ``limit`` bytes)."""
    with _open_regular(path) as handle:
        number = 0
        while True:
            line = handle.readline(limit + 1)
            if not line:
                return
            number += 1
            uri = f"{path}#L{number}"
            if len(line) > limit and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # skip the rest of the oversized line
                    line = handle.readline(_READ_BLOCK)
                yield SourceItem(tenant_id, uri, "invoice", b"", _too_large(uri, None, limit))
                continue
            line = line.removesuffix(b"\n")
            if line.strip():
                yield SourceItem(tenant_id, uri, "invoice", line)


def count_items(root: Path, *, tenant: str | None = None) -> int:
    """How many items :func:`iter_items` will yield (a JSONL batch counts its non-blank lines): the total a
    progress bar shows. It reads JSONL files once more, line by line; a file it cannot open counts as one."""
    files, problems = scan(root, tenant=tenant)
    total = len(problems)
    for path in files:
        if detect_kind(path) != "jsonl":
            total += 1
            continue
        try:
            with _open_regular(path) as handle:
                total += sum(1 for line in iter(lambda h=handle: h.readline(_READ_BLOCK), b"") if line.strip())
        except (OSError, IngestError):
            total += 1
    return total


def _item_tenant(path: Path, tenant: str | None) -> str:
    """The tenant to file a dead letter of ``path`` under when its tenant is invalid or missing."""
    return (tenant_from_path(path) or tenant or "-")[:63]


def iter_items(root: Path, *, tenant: str | None = None,
               max_bytes: int = DEFAULT_MAX_SOURCE_BYTES) -> Iterator[SourceItem]:
    """Every source item under ``root``: one per file, one per non-blank line of a JSONL batch.

    Files are read one at a time with a size limit (``max_bytes`` per file or JSONL line). A source that cannot
    be taken (a symbolic link, too large, a manifest sha256 mismatch, an invalid tenant folder) becomes an item
    with ``error`` set, so the rest of the run proceeds and the problem is dead-lettered under its file name.
    """
    files, problems = scan(root, tenant=tenant)
    for path, error in problems:
        yield SourceItem(_item_tenant(path, tenant), str(path), detect_kind(path), b"", error)
    resolved = Path(root).resolve()
    corpus = _corpus_root_of(resolved if resolved.is_dir() else resolved.parent)
    manifest = load_manifest(corpus) if corpus is not None else None
    for path in files:
        try:
            tenant_id = resolve_tenant(path, tenant)
        except TenantError as exc:
            yield SourceItem(_item_tenant(path, tenant), str(path), detect_kind(path), b"", exc)
            continue
        kind = detect_kind(path)
        try:
            expected = manifest.sha256(str(path)) if manifest is not None else None
            if kind == "jsonl":
                if expected is not None:
                    found = file_sha256(path)
                    if found != expected:
                        assert manifest is not None
                        raise _manifest_error(path, manifest, expected, found)
                yield from _jsonl_items(path, tenant_id, max_bytes)
                continue
            raw = read_limited(path, max_bytes)
        except IngestError as exc:
            yield SourceItem(tenant_id, str(path), kind, b"", exc)
            continue
        if expected is not None:
            found = hashlib.sha256(raw).hexdigest()
            if found != expected:
                assert manifest is not None
                yield SourceItem(tenant_id, str(path), kind, b"", _manifest_error(path, manifest, expected, found))
                continue
        yield SourceItem(tenant_id, str(path), kind, raw)


def read_item(source_uri: str, tenant_id: str, *, max_bytes: int = DEFAULT_MAX_SOURCE_BYTES) -> SourceItem | None:
    """The current content of a source (for replay and reconcile); None if it no longer exists.

    The path must still be what ingestion recorded: absolute, with no symbolic link on the way (a source swapped
    for a link is returned as an item with a :class:`SourceBoundaryError`, never read).
    """
    path_text, _, line = source_uri.partition("#L")
    path = Path(path_text)
    if not path.is_absolute() or not (path.is_file() or path.is_symlink()):
        return None
    if os.path.realpath(path) != os.path.normpath(path):
        return SourceItem(tenant_id, source_uri, kind_of_uri(source_uri), b"", _boundary_error(path, path.parent))
    try:
        if line:
            for item in _jsonl_items(path, tenant_id, max_bytes):
                if item.source_uri == source_uri:
                    return item
            return None
        raw = read_limited(path, max_bytes)
    except IngestError as exc:
        return SourceItem(tenant_id, source_uri, kind_of_uri(source_uri), b"", exc)
    return SourceItem(tenant_id, source_uri, kind_of_uri(source_uri), raw)


def load_manifest(root: Path) -> Manifest | None:
    """``manifest.json`` of a corpus root, or None if ``root`` has none.

    Entry paths are taken relative to ``root`` and never resolved through links: an entry that leaves the root
    is listed in :attr:`Manifest.outside` and not read by anything.
    """
    root = Path(os.path.abspath(root))
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file() or manifest_path.is_symlink():
        return None
    try:
        data = json.loads(read_limited(manifest_path))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UnsupportedInputError(f"{manifest_path}: not a valid manifest ({exc})") from None
    entries = data.get("files", data) if isinstance(data, dict) else data
    result: dict[str, dict[str, object]] = {}  # insertion order = manifest order
    outside: list[str] = []
    for entry in entries:
        if isinstance(entry, dict) and "path" in entry:
            path = Path(os.path.normpath(root / str(entry["path"])))
            if _is_inside(root, path):
                result[str(path)] = entry
            else:
                outside.append(str(entry["path"]))
    return Manifest(manifest_path, result, tuple(outside))
