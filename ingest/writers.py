"""The extension point of the pipeline: representation writers.

A :class:`RepresentationWriter` owns one store derived from documents (the graph is one). The pipeline calls
it at fixed points of the versioned publication protocol, always inside a transaction the pipeline opened on the
``procura_owner`` connection with ``app.tenant_id`` set to the document's tenant (writers never commit):

1. ``write(conn, doc, version)`` while the version is staged (not served): write every row under
   ``version`` and return what was written (:class:`StoreStats`); the pipeline stores it as the version's
   expected counts and checksum for this store. An exception rolls the staging back and dead-letters the
   document (``TransientIngestError`` / ``psycopg.OperationalError`` are retried first).
2. ``verify(conn, ref)`` after staging, and in ``procura reconcile``: recount what is stored for ``ref`` and
   return stats computed the same way as ``write`` did; a difference blocks publication (or is reported as
   drift by reconcile).
3. ``on_publish(conn, ref, previous_version)`` inside the publish transaction, after the registry points at the
   new version: switch serving state if the store keeps any (rows of other versions must already be invisible
   to readers that follow ``ingest.documents.active_version``).
4. ``purge(conn, ref)``: delete every row of that version (superseded versions after publish, abandoned staged
   versions, and reconcile's repair, which purges then writes again).
5. ``on_delete(conn, ref)`` inside the delete transaction (``ref`` is the version that was active): make the
   document unreachable in this store (tombstone or delete).

``name`` must be unique (it keys ``expected_counts``/``checksums``); ``version`` is the writer's derivation
version (schema + extractor). Both are part of the document's config fingerprint: bumping ``version`` makes the
next ingestion run publish new versions of the affected documents. An optional ``document_types`` attribute
(a set of document types) limits the writer to those types; without it the writer sees every document.

Writers are found by :func:`discover_writers`: objects passed to :func:`register_writer`, the entry point group
``procura.ingest_writers``, and the module attributes in :data:`PLUGIN_SPECS` (the graph's and the BM25 index's
writers) when that module exists. An entry is either a writer or a zero-argument factory returning one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

import psycopg

from ingest.errors import IngestError
from ingest.models import ParsedDocument

#: Writers looked up by module attribute when the module is installed (missing modules are skipped).
PLUGIN_SPECS: tuple[str, ...] = ("graph.ingest:create_writer", "retrieval.bm25_writer:create_writer")
ENTRY_POINT_GROUP = "procura.ingest_writers"


@dataclass(frozen=True, order=True)
class VersionRef:
    """One version of one document of one tenant."""

    tenant_id: str
    document_id: str
    document_version: int


@dataclass(frozen=True)
class StoreStats:
    """What a store holds (or should hold) for one document version: row counts by table and one checksum."""

    counts: Mapping[str, int] = field(default_factory=dict)
    checksum: str = ""

    def total(self) -> int:
        """All rows across tables."""
        return sum(self.counts.values())

    def to_json(self) -> dict[str, Any]:
        return {"counts": dict(sorted(self.counts.items())), "checksum": self.checksum}


@runtime_checkable
class RepresentationWriter(Protocol):
    """A store derived from documents; see the module docstring for when each method is called."""

    name: str
    version: str

    def write(self, conn: psycopg.Connection, doc: ParsedDocument, version: int) -> StoreStats:
        """Write the rows of ``doc`` under the staged ``version``; return what was written."""
        ...

    def verify(self, conn: psycopg.Connection, ref: VersionRef) -> StoreStats:
        """What is stored for ``ref`` now, computed like :meth:`write`'s result."""
        ...

    def purge(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """Delete every row of ``ref``."""
        ...

    def on_publish(self, conn: psycopg.Connection, ref: VersionRef, previous_version: int | None) -> None:
        """``ref`` became the active version (``previous_version`` was active before, if any)."""
        ...

    def on_delete(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """The document was deleted; ``ref`` was its active version."""
        ...


def applies(writer: RepresentationWriter, document_type: str) -> bool:
    """True when ``writer`` handles documents of ``document_type``."""
    types = getattr(writer, "document_types", None)
    return types is None or document_type in types


def tables_to_vacuum(writer: RepresentationWriter) -> tuple[str, ...]:
    """The tables (``schema.table``) that ``writer`` asks the pipeline to ``VACUUM (ANALYZE)`` after a run that
    wrote rows to them (optional attribute ``vacuum_tables``; none by default).

    A store read by index-only scans needs it: rows inserted since the last vacuum are not marked all-visible, so
    each index entry costs a heap visit until autovacuum gets there (on the 100k benchmark, BM25 took twice as
    long on freshly inserted postings).
    """
    return tuple(getattr(writer, "vacuum_tables", ()))


_registered: list[RepresentationWriter] = []


def register_writer(writer: RepresentationWriter) -> None:
    """Add a writer for every later :func:`discover_writers` call in this process (idempotent by name)."""
    check_writer(writer)
    _registered[:] = [w for w in _registered if w.name != writer.name]
    _registered.append(writer)


def check_writer(writer: object) -> RepresentationWriter:
    """``writer`` if it implements the protocol, else an IngestError naming what is missing."""
    if not isinstance(writer, RepresentationWriter):
        missing = [m for m in ("name", "version", "write", "verify", "purge", "on_publish", "on_delete")
                   if not hasattr(writer, m)]
        raise IngestError(f"{writer!r} is not a RepresentationWriter (missing: {', '.join(missing)})")
    if not writer.name or ":" in writer.name or writer.name in RESERVED_STORE_NAMES:
        raise IngestError(f"writer name {writer.name!r} is empty, contains ':' or is reserved")
    return writer


RESERVED_STORE_NAMES = frozenset({"landing", "chunks", "identifiers", "embeddings"})


def _instantiate(obj: object) -> RepresentationWriter:
    if not isinstance(obj, RepresentationWriter) and callable(obj):
        obj = obj()
    return check_writer(obj)


def discover_writers(extra_specs: Sequence[str] = ()) -> tuple[RepresentationWriter, ...]:
    """Registered writers, entry-point writers and installed :data:`PLUGIN_SPECS`, unique by name."""
    found: dict[str, RepresentationWriter] = {w.name: w for w in _registered}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        writer = _instantiate(entry.load())
        found.setdefault(writer.name, writer)
    for spec in (*PLUGIN_SPECS, *extra_specs):
        module_name, _, attr = spec.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
                continue
            raise
        target: Callable[[], Any] | object = getattr(module, attr)
        writer = _instantiate(target)
        found.setdefault(writer.name, writer)
    return tuple(found[name] for name in sorted(found))
