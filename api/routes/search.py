"""``POST /v1/search``: retrieval's hybrid document search, with the audit row every call leaves.

The query embedder is ``app.state.embedder`` when the app sets one, else the process-wide MiniLM embedder
(loaded by the first vector search, never by a search without the vector mode); the tuning is
``app.state.retrieval_config`` when set.

Design note: the route appends one ``app.audit_log`` row per call, whatever the outcome, through the audit dependency
the metric and ask routes share (:mod:`api.auditing`). The row's ``metric`` is ``search``, which can never be a
metric's name (those are namespaced, ``area.name``); its parameter names are the request's fields and their values are
stored as sha256 hashes only, so a query text (which may hold personal data) never lands in the log. As for metrics
the audit fails closed: a search whose row cannot be written is not answered (503 when the database connection was
lost, else 500).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Annotated

import psycopg
from fastapi import APIRouter, Depends, Request
from psycopg_pool import ConnectionPool, PoolTimeout

from api.auditing import AuditDep
from api.deps import PoolDep, PrincipalDep
from api.models import ErrorResponse
from ingest.embedder import Embedder
from procura.auth import Principal
from retrieval.config import RetrievalConfig
from retrieval.errors import SearchTimeoutError
from retrieval.models import SearchRequest, SearchResponse
from retrieval.service import search

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["search"])


_EMBEDDER_LOCK = threading.Lock()


async def get_embedder(request: Request) -> Callable[[], Embedder]:
    """The app's query embedder (``app.state.embedder``) or the process-wide MiniLM one, as a function that
    returns it: the route calls it only for a search that uses the vector mode.

    Design note: loading MiniLM (torch and the weights) takes 5-14 s on the shared 2-core machine. Resolved as a
    plain dependency, it was loaded by the first search of the process whatever its modes, so an exact or BM25
    search (the outage test's) took that long too; now only the first vector search pays it, once (the lock keeps
    two concurrent first searches from loading it twice).
    """
    state = request.app.state

    def embedder() -> Embedder:
        loaded = getattr(state, "embedder", None)
        if loaded is None:
            with _EMBEDDER_LOCK:
                loaded = getattr(state, "embedder", None)
                if loaded is None:
                    from ingest.embedder import get_default_embedder

                    loaded = state.embedder = get_default_embedder()
        return loaded  # type: ignore[no-any-return]

    return embedder


def get_retrieval_config(request: Request) -> RetrievalConfig:
    """The app's retrieval tuning (``app.state.retrieval_config``) or the defaults."""
    config = getattr(request.app.state, "retrieval_config", None)
    return config if isinstance(config, RetrievalConfig) else RetrievalConfig()


EmbedderDep = Annotated[Callable[[], Embedder], Depends(get_embedder)]
RetrievalConfigDep = Annotated[RetrievalConfig, Depends(get_retrieval_config)]


def _idle_connection(pool: ConnectionPool) -> psycopg.Connection | None:
    try:
        return pool.getconn(timeout=0.005)
    except PoolTimeout:
        return None


def _search(
    *,
    body: SearchRequest,
    pool: ConnectionPool,
    principal: Principal,
    embedder: Callable[[], Embedder],
    config: RetrievalConfig,
) -> SearchResponse:
    """Run the search; a statement timeout becomes :class:`SearchTimeoutError` (retrieval's errors carry their
    own status)."""
    try:
        uses_vector = "vector" in body.retrieval_modes and bool(body.query_text)
        # before the checkout: the first vector search loads the model without holding a connection meanwhile
        query_embedder = embedder() if uses_vector else None
        with pool.connection() as conn:
            # Design note: a second connection lets BM25 run on its own server process, concurrently with the
            # other branches; it is taken only if one is idle right now, so requests never wait on each other
            # for it (holding one connection while waiting for another could exhaust the pool).
            aux = _idle_connection(pool)
            try:
                return search(conn, principal.context, body, query_embedder, config=config, aux_conn=aux)
            finally:
                if aux is not None:
                    pool.putconn(aux)
    except psycopg.errors.QueryCanceled as exc:
        raise SearchTimeoutError("the search exceeded the statement timeout") from exc


#: The audit log's name for a document search (not a metric name: it has no ``area.`` prefix).
AUDIT_NAME = "search"


@router.post(
    "/search",
    response_model=SearchResponse,
    responses={
        401: {"model": ErrorResponse, "description": "Missing or invalid API key."},
        403: {"model": ErrorResponse, "description": "The key lacks the procurement:read scope."},
        409: {"model": ErrorResponse, "description": "The query embedder or analyzer does not match the index."},
        422: {"model": ErrorResponse, "description": "Invalid request (field named); tenant_id sent."},
        429: {"model": ErrorResponse, "description": "Per-key rate limit exceeded."},
        503: {"model": ErrorResponse, "description": "The retrieval stores are not ready, or the database is down."},
        504: {"model": ErrorResponse, "description": "The search exceeded the statement timeout."},
    },
)
def search_documents(
    *,
    body: SearchRequest,
    pool: PoolDep,
    principal: PrincipalDep,
    embedder: EmbedderDep,
    config: RetrievalConfigDep,
    audit_row: AuditDep,
) -> SearchResponse:
    """Search the key's tenant: exact identifiers, BM25 and vectors, fused, with provenance."""
    audit_row.describe(AUDIT_NAME, body.model_dump(mode="json"))
    # A refusal or failure raised here is audited by the dependency on the way out (no attempt when the database
    # itself is gone), then answered by the app's one error handler.
    response = _search(body=body, pool=pool, principal=principal, embedder=embedder, config=config)
    count = len(response.results)
    audit_row.record("ok" if count else "no_data", row_count=count)
    return response
