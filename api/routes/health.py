"""``/healthz`` (the process answers) and ``/readyz`` (the database answers and is migrated to this build)."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from fastapi import APIRouter, Response
from psycopg_pool import PoolTimeout

from api.deps import PoolDep, ServiceDep
from api.models import HealthResponse, ReadinessResponse
from procura.db.migrate import discover

log = logging.getLogger(__name__)
router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=HealthResponse)
async def healthz() -> dict[str, Any]:
    """Liveness probe: no dependencies are checked (and, with no blocking work, no thread-pool hop)."""
    return {"status": "ok"}


@router.get("/readyz", response_model=ReadinessResponse, responses={503: {"model": ReadinessResponse}})
def readyz(*, pool: PoolDep, service: ServiceDep, response: Response) -> dict[str, Any]:
    """Readiness probe: the database is reachable and every shipped migration is applied unchanged."""
    shipped = {m.version: m for m in discover()}
    try:
        with pool.connection(timeout=2.0) as conn:
            rows = conn.execute("select version, checksum from procura_meta.schema_migrations").fetchall()
        applied: dict[int, str] = {int(v): str(c) for v, c in rows}
    except (psycopg.Error, PoolTimeout) as exc:
        log.warning("readiness: database not reachable: %s", type(exc).__name__)
        response.status_code = 503
        return {"status": "not_ready", "database": False, "migrations": None, "metrics": len(service.registry)}
    pending = [f"{v:04d}_{m.name}" for v, m in sorted(shipped.items()) if v not in applied]
    changed = [f"{v:04d}_{m.name}" for v, m in sorted(shipped.items()) if v in applied and applied[v] != m.checksum]
    ready = not pending and not changed
    if not ready:
        response.status_code = 503
    return {
        "status": "ready" if ready else "not_ready",
        "database": True,
        "migrations": {"applied": len(applied), "expected": len(shipped), "pending": pending, "changed": changed},
        "metrics": len(service.registry),
    }
