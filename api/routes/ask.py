"""``POST /v1/ask`` and ``GET /v1/traces/{trace_id}``: the router behind the metric API's authentication.

A question the router cannot use (:class:`router.errors.QuestionError`, 422) or a trace that is not the caller's
(:class:`router.errors.TraceNotFoundError`, 404) is answered by the app's one error handler.

Included by :func:`api.main.create_app`. The ask service (classifier, embedder) is created on first use and kept
on ``app.state.ask_service``.
"""

from __future__ import annotations

import datetime as dt
import threading
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from api.auditing import AuditDep
from api.deps import PoolDep, PrincipalDep, ServiceDep, SettingsDep
from api.models import ErrorResponse
from router.service import AskResult, AskService
from router.traces import TraceStore, TraceView
from semantic.errors import ScopeError

router = APIRouter(prefix="/v1", tags=["ask"])

ASK_SCOPE = "procurement:read"
#: Reads every trace of the key's tenant, not only the key principal's own (the audit log's scope).
TRACE_AUDIT_SCOPE = "tenant:admin"
_LOCK = threading.Lock()


class AskRequest(BaseModel):
    """A question. The tenant is never part of it: it comes from the API key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str = Field(min_length=1, max_length=2000, description="The question, in plain language.")
    as_of: dt.date | None = Field(default=None, description="Resolve relative periods against this date.")


def get_ask_service(request: Request, service: ServiceDep, settings: SettingsDep) -> AskService:
    """The process's ask service (created once, on first use: the classifier may train then)."""
    existing = getattr(request.app.state, "ask_service", None)
    if existing is not None:
        return existing  # type: ignore[no-any-return]
    with _LOCK:
        existing = getattr(request.app.state, "ask_service", None)
        if existing is None:
            existing = AskService.create(service, home=settings.home)
            request.app.state.ask_service = existing
    return existing  # type: ignore[no-any-return]


AskServiceDep = Annotated[AskService, Depends(get_ask_service)]

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or invalid API key."},
    403: {"model": ErrorResponse, "description": "The key lacks procurement:read."},
    429: {"model": ErrorResponse, "description": "Per-key rate limit exceeded."},
}


@router.post("/ask", response_model=AskResult, responses={**_ERRORS, 422: {"model": ErrorResponse}})
def ask(
    *, body: AskRequest, principal: PrincipalDep, pool: PoolDep, ask_service: AskServiceDep, audit_row: AuditDep
) -> Any:
    """Answer a question: routing, plan, validated result with sources, or a clarification question."""
    audit_row.describe("ask", body.model_dump(mode="json"))
    if not principal.context.has_scope(ASK_SCOPE):
        raise ScopeError("ask", ASK_SCOPE)
    # A QuestionError (422) raised here is audited by the dependency on the way out and answered by the app's
    # one error handler.
    with pool.connection() as conn:
        answer = ask_service.ask(conn, principal.context, body.question, as_of=body.as_of, interface="api")
    audit_row.record("ok")
    return answer


@router.get("/traces/{trace_id}", response_model=TraceView, responses={**_ERRORS, 404: {"model": ErrorResponse}})
def read_trace(
    *, trace_id: Annotated[str, Path(max_length=64)], principal: PrincipalDep, pool: PoolDep
) -> Any:
    """Read a stored trace: the key's own (procurement:read), or any of its tenant's (tenant:admin)."""
    ctx = principal.context
    any_principal = ctx.has_scope(TRACE_AUDIT_SCOPE)
    if not (any_principal or ctx.has_scope(ASK_SCOPE)):
        raise ScopeError("traces", ASK_SCOPE)
    with pool.connection() as conn:
        return TraceStore().read(conn, ctx, trace_id, any_principal=any_principal)
