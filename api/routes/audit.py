"""``/v1/audit``: the tenant's audit trail of metric queries, for the tenant's admins."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from api.deps import PoolDep, PrincipalDep
from api.models import AuditLogResponse, ErrorResponse
from semantic import audit
from semantic.errors import ScopeError

router = APIRouter(prefix="/v1/audit", tags=["audit"])


@router.get(
    "",
    response_model=AuditLogResponse,
    responses={401: {"model": ErrorResponse}, 403: {"model": ErrorResponse}, 429: {"model": ErrorResponse}},
)
def read_audit_log(
    *, pool: PoolDep, principal: PrincipalDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100
) -> dict[str, Any]:
    """The most recent audited queries of the key's tenant (requires the tenant:admin scope)."""
    if not principal.context.has_scope(audit.ADMIN_SCOPE):
        raise ScopeError("audit log", audit.ADMIN_SCOPE)
    with pool.connection() as conn:
        entries = audit.read(conn, principal.context, limit=limit)
    return {"entries": [entry.__dict__ for entry in entries]}
