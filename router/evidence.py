"""The ``documents.search`` backend: :func:`retrieval.search` mapped onto the router's evidence model."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import errors as pg_errors

from procura.db.session import AuthContext
from router.errors import ToolFailedError, ToolTimeoutError
from router.tools import DocumentSearchRequest, EvidenceChunk


def retrieval_search(
    conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest, embedder: Any, timeout_ms: int
) -> list[EvidenceChunk]:
    """Run the hybrid search for ``ctx``'s tenant and return its chunks as evidence (text stays untrusted).

    Raises:
        ToolTimeoutError: the search hit its statement timeout (retryable).
        ToolFailedError: the retrieval service refused or failed (scope, index not ready, bad request).
    """
    from dataclasses import replace

    from pydantic import ValidationError

    from retrieval import Filters, Identifiers, RetrievalConfig, SearchRequest, search
    from retrieval.errors import RetrievalError

    modes = tuple(m for m in req.retrieval_modes if m != "vector" or embedder is not None)
    if not modes:
        modes = ("bm25",)
    try:
        request = SearchRequest(
            query_text=req.query_text,
            identifiers=Identifiers(
                product_codes=req.identifiers.product_codes,
                invoice_numbers=req.identifiers.invoice_numbers,
                contract_ids=req.identifiers.contract_ids,
            ),
            retrieval_modes=modes,
            filters=Filters.model_validate({
                "document_types": req.filters.document_types,
                "document_ids": req.filters.document_ids,
                "valid_at": req.filters.valid_at,
            }),
            limit=req.limit,
        )
    except ValidationError as exc:
        raise ToolFailedError(f"documents.search: invalid request: {exc.errors()[0]['msg']}") from exc
    config = replace(RetrievalConfig(), statement_timeout_ms=timeout_ms)
    try:
        response = search(conn, ctx, request, embedder, config=config)
    except pg_errors.QueryCanceled as exc:
        raise ToolTimeoutError(f"documents.search exceeded {timeout_ms} ms") from exc
    except RetrievalError as exc:
        raise ToolFailedError(f"documents.search: {exc}") from exc
    return [
        EvidenceChunk(
            chunk_id=r.chunk_id,
            document_id=r.document_id,
            document_version=r.document_version,
            page=r.page,
            text=r.text,
            score=float(r.fused_score),
            exact_match=r.identity_match is not None,
            flagged_injection=bool(r.suspected_prompt_injection),
        )
        for r in response.results
    ]
