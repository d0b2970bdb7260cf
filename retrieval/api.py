"""The body of ``POST /v1/search``: hybrid document search for the API key's tenant.

The route itself (with its audit row and OpenAPI responses) is declared once, in :mod:`api.routes.search`,
which calls :func:`search_documents`. It uses the API's dependencies (``api.deps``:
the ``procura_app`` pool and the authenticated principal). The query embedder is ``app.state.embedder`` when the
app sets one, else the process-wide MiniLM embedder (loaded on the first vector search); the tuning is
``app.state.retrieval_config`` when set. Validation errors are the app's 422s (a ``tenant_id`` anywhere in the
body is rejected as ``tenant_in_request``); retrieval's own errors map to 403/409/503 here, with the app's error
shape ``{"error": {"code", "message", "parameter"}}``.
"""

from __future__ import annotations

from typing import Annotated, Any

import psycopg
from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from psycopg_pool import ConnectionPool, PoolTimeout

from api.deps import PoolDep, PrincipalDep
from ingest.embedder import Embedder
from retrieval.config import RetrievalConfig
from retrieval.errors import IndexConfigMismatchError, IndexNotReadyError, RetrievalError, SearchScopeError
from retrieval.models import SearchRequest, SearchResponse
from retrieval.service import search


def get_embedder(request: Request) -> Embedder:
    """The app's query embedder (``app.state.embedder``) or the process-wide MiniLM one."""
    embedder = getattr(request.app.state, "embedder", None)
    if embedder is None:
        from ingest.embedder import get_default_embedder

        embedder = get_default_embedder()
        request.app.state.embedder = embedder
    return embedder  # type: ignore[no-any-return]


def get_retrieval_config(request: Request) -> RetrievalConfig:
    """The app's retrieval tuning (``app.state.retrieval_config``) or the defaults."""
    config = getattr(request.app.state, "retrieval_config", None)
    return config if isinstance(config, RetrievalConfig) else RetrievalConfig()


EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
RetrievalConfigDep = Annotated[RetrievalConfig, Depends(get_retrieval_config)]

_STATUS: tuple[tuple[type[RetrievalError], int, str], ...] = (
    (SearchScopeError, 403, "missing_scope"),
    (IndexConfigMismatchError, 409, "index_config_mismatch"),
    (IndexNotReadyError, 503, "index_not_ready"),
)


def _error(status: int, code: str, message: str) -> JSONResponse:
    body: dict[str, Any] = {"error": {"code": code, "message": message, "parameter": None}}
    return JSONResponse(status_code=status, content=body)


def _idle_connection(pool: ConnectionPool) -> psycopg.Connection | None:
    try:
        return pool.getconn(timeout=0.005)
    except PoolTimeout:
        return None


def search_documents(
    *,
    body: SearchRequest,
    pool: PoolDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    config: RetrievalConfigDep,
) -> SearchResponse | JSONResponse:
    """Search the key's tenant: exact identifiers, BM25 and vectors, fused, with provenance."""
    try:
        uses_vector = "vector" in body.retrieval_modes and bool(body.query_text)
        with pool.connection() as conn:
            # Design note: a second connection lets BM25 run on its own server process, concurrently with the
            # other branches; it is taken only if one is idle right now, so requests never wait on each other
            # for it (holding one connection while waiting for another could exhaust the pool).
            aux = _idle_connection(pool)
            try:
                return search(conn, principal.context, body, embedder if uses_vector else None, config=config,
                              aux_conn=aux)
            finally:
                if aux is not None:
                    pool.putconn(aux)
    except psycopg.errors.QueryCanceled:
        return _error(504, "statement_timeout", "the search exceeded the statement timeout")
    except RetrievalError as exc:
        for error_type, status, code in _STATUS:
            if isinstance(exc, error_type):
                return _error(status, code, str(exc))
        raise
