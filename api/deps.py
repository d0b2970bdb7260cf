"""FastAPI dependencies as ``Annotated`` aliases: settings, the connection pool, the service, the principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from procura.access import Access
from procura.auth import Principal
from procura.errors import TenantInRequestError
from procura.settings import Settings
from semantic.service import MetricService

_bearer = HTTPBearer(auto_error=False, description="API key created with `procura keys create`.")

# Design note: dependencies that only read app.state are ``async def`` so FastAPI runs them on the event loop;
# a plain ``def`` dependency costs a thread-pool hop per request. Those doing blocking I/O stay ``def``.


async def get_settings(request: Request) -> Settings:
    """The settings the app was created with."""
    return request.app.state.settings  # type: ignore[no-any-return]


async def get_pool(request: Request) -> ConnectionPool:
    """The ``procura_app`` connection pool (opened by the app's lifespan)."""
    return request.app.state.pool  # type: ignore[no-any-return]


async def get_metric_pool(request: Request) -> AsyncConnectionPool:
    """The asyncio ``procura_app`` pool the metric query route awaits its calls on (opened by the lifespan)."""
    return request.app.state.metric_pool  # type: ignore[no-any-return]


async def get_service(request: Request) -> MetricService:
    """The metric service over the registry loaded (and validated) when the app was created."""
    return request.app.state.service  # type: ignore[no-any-return]


SettingsDep = Annotated[Settings, Depends(get_settings)]
PoolDep = Annotated[ConnectionPool, Depends(get_pool)]
MetricPoolDep = Annotated[AsyncConnectionPool, Depends(get_metric_pool)]
ServiceDep = Annotated[MetricService, Depends(get_service)]


async def get_principal(
    request: Request, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> Principal:
    """Authenticate the bearer key, then spend one unit of its rate budget.

    Raises:
        TenantInRequestError: the query string names a tenant.
        AuthenticationError: missing or invalid key (401).
        RateLimitedError: the key's budget is exhausted, or the source failed authentication too often (429).
    """
    # Design note: the admission state is read from app.state here rather than declared as sub-dependencies;
    # on the metric query path each resolved dependency is measurable overhead. The cache hit stays on the event
    # loop; only a database lookup takes a thread-pool hop. MCP uses the same Access object's checks.
    if any(name.lower() == "tenant_id" for name in request.query_params):
        raise TenantInRequestError("query.tenant_id")
    access: Access = request.app.state.access
    key = credentials.credentials if credentials is not None else None
    source = request.client.host if request.client is not None else "unknown"
    principal = access.cached(key, source)
    if principal is None:
        principal = await run_in_threadpool(access.authenticate, key, source)
    return access.spend(principal)


PrincipalDep = Annotated[Principal, Depends(get_principal)]
