"""Versioned, idempotent ingestion: one pipeline turns source documents into every representation.

Public API (all take a ``procura_owner`` connection in autocommit mode)::

    from ingest import ingest_path, delete_document, replay_dead_letters, reconcile
    report = ingest_path(conn, Path("corpus"), tenant=None)

Extension point for other stores: :class:`ingest.writers.RepresentationWriter`.
Heavy dependencies (torch, sentence-transformers, numpy) load only when an embedder is created.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "DocumentOutcome",
    "Embedder",
    "EmbeddingConfig",
    "IngestOptions",
    "IngestProgress",
    "IngestReport",
    "ReconcileReport",
    "RepresentationWriter",
    "StoreStats",
    "VersionRef",
    "delete_document",
    "get_default_embedder",
    "ingest_path",
    "reconcile",
    "register_writer",
    "replay_dead_letters",
]

_EXPORTS = {
    "DocumentOutcome": "ingest.pipeline",
    "IngestOptions": "ingest.pipeline",
    "IngestProgress": "ingest.pipeline",
    "IngestReport": "ingest.pipeline",
    "delete_document": "ingest.pipeline",
    "ingest_path": "ingest.pipeline",
    "replay_dead_letters": "ingest.pipeline",
    "ReconcileReport": "ingest.reconcile",
    "reconcile": "ingest.reconcile",
    "Embedder": "ingest.embedder",
    "EmbeddingConfig": "ingest.embedder",
    "get_default_embedder": "ingest.embedder",
    "RepresentationWriter": "ingest.writers",
    "StoreStats": "ingest.writers",
    "VersionRef": "ingest.writers",
    "register_writer": "ingest.writers",
}

if TYPE_CHECKING:
    from ingest.embedder import Embedder, EmbeddingConfig, get_default_embedder
    from ingest.pipeline import (
        DocumentOutcome,
        IngestOptions,
        IngestProgress,
        IngestReport,
        delete_document,
        ingest_path,
        replay_dead_letters,
    )
    from ingest.reconcile import ReconcileReport, reconcile
    from ingest.writers import RepresentationWriter, StoreStats, VersionRef, register_writer


def __getattr__(name: str) -> Any:
    # Lazy exports keep `procura --help` (which imports ingest.cli) free of the pipeline's imports.
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'ingest' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
