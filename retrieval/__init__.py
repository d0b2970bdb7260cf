"""Hybrid retrieval: exact identifiers, BM25 inside Postgres, pgvector HNSW under RLS, fused with provenance.

Public API::

    from retrieval import SearchRequest, search
    response = search(app_conn, ctx, SearchRequest(query_text="calibration requirements for PRD-482"), embedder)

``search`` runs as ``procura_app`` inside :func:`procura.db.session.tenant_transaction`; see
:mod:`retrieval.service`. The BM25 store is filled by :class:`retrieval.bm25_writer.Bm25Writer`, an ingestion
writer (``retrieval.bm25_writer:create_writer``). Heavy dependencies load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "SEARCH_SCOPE",
    "Bm25Config",
    "Filters",
    "Identifiers",
    "RetrievalConfig",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "VectorConfig",
    "search",
]

_EXPORTS = {
    "SEARCH_SCOPE": "retrieval.service",
    "search": "retrieval.service",
    "Bm25Config": "retrieval.config",
    "RetrievalConfig": "retrieval.config",
    "VectorConfig": "retrieval.config",
    "Filters": "retrieval.models",
    "Identifiers": "retrieval.models",
    "SearchRequest": "retrieval.models",
    "SearchResponse": "retrieval.models",
    "SearchResult": "retrieval.models",
}

if TYPE_CHECKING:
    from retrieval.config import Bm25Config, RetrievalConfig, VectorConfig
    from retrieval.models import Filters, Identifiers, SearchRequest, SearchResponse, SearchResult
    from retrieval.service import SEARCH_SCOPE, search


def __getattr__(name: str) -> Any:
    # Lazy exports keep `procura --help` (which imports retrieval.cli) light.
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'retrieval' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
