"""``POST /v1/search``: retrieval's hybrid document search, with the audit row every call leaves.

Design note: what a search does, and how retrieval's own errors map to statuses, stays in
:func:`retrieval.api.search_documents`; this route calls it and appends one ``app.audit_log`` row per call,
whatever the outcome, through the audit dependency the metric and ask routes share (:mod:`api.auditing`). The row's
``metric`` is ``search``, which can never be a metric's name (those are namespaced, ``area.name``); its parameter
names are the request's fields and their values are stored as sha256 hashes only, so a query text (which may
hold personal data) never lands in the log. As for metrics the audit fails closed: a search whose row cannot be
written is not answered (503 when the database connection was lost, else 500).
"""

from __future__ import annotations

import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.auditing import AuditDep
from api.deps import PoolDep, PrincipalDep
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
    audit_row: AuditDep,
) -> SearchResponse | JSONResponse:
    """Search the key's tenant: exact identifiers, BM25 and vectors, fused, with provenance."""
    audit_row.describe(AUDIT_NAME, body.model_dump(mode="json"))
    response = retrieval_api.search_documents(
        body=body, pool=pool, principal=principal, embedder=embedder, config=config
    )
    if isinstance(response, JSONResponse):
        outcome, code = _OUTCOMES.get(response.status_code, ("error", "error"))
        audit_row.record(outcome, error_code=code)
    else:
        count = len(response.results)
        audit_row.record("ok" if count else "no_data", row_count=count)
    return response
