"""``POST /v1/search``: retrieval's hybrid document search, with the audit row every call leaves.

Design note: what a search does, and how retrieval's own errors map to statuses, stays in
:func:`retrieval.api.search_documents`; this route calls it and appends one ``app.audit_log`` row per call,
whatever the outcome, through the same code path as metric queries (:func:`semantic.audit.record`). The row's
``metric`` is ``search``, which can never be a metric's name (those are namespaced, ``area.name``); its parameter
names are the request's fields and their values are stored as sha256 hashes only, so a query text (which may
hold personal data) never lands in the log. As for metrics the audit fails closed: a search whose row cannot be
written is not answered (503 when the database connection was lost, else 500).
"""

from __future__ import annotations

import contextlib
import logging
import time

import psycopg
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from psycopg_pool import ConnectionPool

from api.deps import PoolDep, PrincipalDep
from api.errors import AuditWriteError, is_database_unavailable
from api.keys import Principal
from api.models import ErrorResponse
from retrieval import api as retrieval_api
from retrieval.api import EmbedderDep, RetrievalConfigDep
from retrieval.models import SearchRequest, SearchResponse
from semantic import audit

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1", tags=["search"])

#: The audit log's name for a document search (not a metric name: it has no ``area.`` prefix).
AUDIT_NAME = "search"

#: Status of a refused or failed search (as :mod:`retrieval.api` answers it) -> audit outcome and error code.
_OUTCOMES: dict[int, tuple[audit.Outcome, str]] = {
    403: ("forbidden", "missing_scope"),
    409: ("error", "index_config_mismatch"),
    503: ("error", "index_not_ready"),
    504: ("timeout", "statement_timeout"),
}


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
) -> SearchResponse | JSONResponse:
    """Search the key's tenant: exact identifiers, BM25 and vectors, fused, with provenance."""
    started = time.perf_counter()
    hashes = audit.hash_parameters(body.model_dump(mode="json"))
    try:
        response = retrieval_api.search_documents(
            body=body, pool=pool, principal=principal, embedder=embedder, config=config
        )
    except Exception as exc:
        if is_database_unavailable(exc):
            # Design note: no audit attempt. The connection is gone, and waiting for the pool to hand out
            # another one would hold the caller for the pool's whole timeout before the same 503.
            log.warning("search not audited: the database is unavailable")
        else:
            _audit_failure(pool, principal, hashes, started)
        raise
    if isinstance(response, JSONResponse):
        outcome, code = _OUTCOMES.get(response.status_code, ("error", "error"))
        _audit(pool, principal, hashes, started, outcome=outcome, error_code=code)
    else:
        count = len(response.results)
        _audit(pool, principal, hashes, started, outcome="ok" if count else "no_data", row_count=count)
    return response


def _audit(
    pool: ConnectionPool,
    principal: Principal,
    hashes: dict[str, str],
    started: float,
    *,
    outcome: audit.Outcome,
    row_count: int | None = None,
    error_code: str | None = None,
) -> None:
    entry = audit.AuditRecord(
        metric=AUDIT_NAME,
        outcome=outcome,
        duration_ms=(time.perf_counter() - started) * 1000,
        route="api",
        key_id=principal.key_id,
        parameter_hashes=hashes,
        row_count=row_count,
        error_code=error_code,
    )
    try:
        with pool.connection() as conn:
            audit.record(conn, principal.context, entry)
    except psycopg.Error as exc:
        log.error("audit write failed for a search: %s", type(exc).__name__)
        raise AuditWriteError("the search could not be audited; no result is returned") from exc


def _audit_failure(pool: ConnectionPool, principal: Principal, hashes: dict[str, str], started: float) -> None:
    """Audit a search that raised; the original error is what the caller gets, even if this write fails."""
    with contextlib.suppress(AuditWriteError):  # logged by _audit
        _audit(pool, principal, hashes, started, outcome="error", error_code="internal_error")
