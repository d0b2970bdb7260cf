"""The FastAPI application factory.

``create_app()`` loads and validates every metric once (an invalid template stops the app from starting), then
the lifespan opens the ``procura_app`` connection pool. Errors become one JSON shape,
``{"error": {"code", "message", "parameter"}}``, and never carry stack traces or SQL. When the database is down
or restarting (connection refused or lost mid-query, no pooled connection in time) every route answers 503
``database_unavailable`` with ``Retry-After``, whichever area's error wrapped the connection failure.

Run it with ``procura serve`` or ``uvicorn --factory api.main:create_app``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.models import ErrorResponse
from api.routes import ask, audit, health, metrics, search
from procura.access import FAILED_AUTH_PER_MINUTE, Access, FailureThrottle
from procura.auth import Principal, PrincipalCache, authenticate
from procura.db.session import open_async_pool, open_pool
from procura.errors import (
    DATABASE_RETRY_AFTER_S,
    ProcuraError,
    is_database_unavailable,
)
from procura.limits import MAX_ECHO_CHARS, RequestLimits, bounded
from procura.ratelimit import RateLimiter
from procura.settings import Settings, get_settings
from semantic.loader import MetricRegistry, load_registry
from semantic.schema import GovernedSchema, discover
from semantic.service import MetricService

log = logging.getLogger(__name__)

POOL_MIN_SIZE = 2
POOL_MAX_SIZE = 16
#: Seconds a request waits for a pooled connection before it is answered 503 (the database is down or saturated).
POOL_TIMEOUT_S = 10.0


def create_app(
    settings: Settings | None = None,
    *,
    registry: MetricRegistry | None = None,
    schema: GovernedSchema | None = None,
    rate_limiter: RateLimiter | None = None,
    auth_cache_ttl_s: float = 5.0,
    pool_timeout_s: float = POOL_TIMEOUT_S,
    failed_auth_per_minute: int = FAILED_AUTH_PER_MINUTE,
) -> FastAPI:
    """Build the API.

    Args:
        settings: default :func:`procura.settings.get_settings`.
        registry: preloaded metrics (tests share one); default: load ``semantic/*.yml`` against ``schema``.
        schema: the governed schema; default: dbt's artifacts in ``target/`` (:func:`semantic.schema.discover`).
        rate_limiter: default a fresh in-process limiter.
        auth_cache_ttl_s: how long a successful key lookup is reused (0: look every request up).
        pool_timeout_s: how long a request waits for a database connection before it gets a 503.
        failed_auth_per_minute: failed authentications per client address and minute before it gets 429.

    Raises:
        SchemaArtifactError, MetricDefinitionError: the catalog cannot be loaded; the app does not start.
    """
    settings = settings or get_settings()
    if registry is None:
        registry = load_registry(schema or discover(), eager=True)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # AGE's session setup too: the ask route runs the graph tools on this pool.
        pool = open_pool(
            settings.app_url,
            name="procura-api",
            min_size=POOL_MIN_SIZE,
            max_size=POOL_MAX_SIZE,
            timeout=pool_timeout_s,
            age=True,
            open=False,
        )
        # The metric query route awaits its calls on an asyncio pool of its own (no worker thread per request).
        metric_pool = open_async_pool(
            settings.app_url, name="procura-api", min_size=POOL_MIN_SIZE, max_size=POOL_MAX_SIZE,
            timeout=pool_timeout_s,
        )  # fmt: skip
        # Open without waiting: the API must start (and report not-ready) while the database is down.
        pool.open(wait=False)
        await metric_pool.open(wait=False)
        app.state.pool = pool
        app.state.metric_pool = metric_pool
        try:
            yield
        finally:
            await metric_pool.close()
            pool.close()

    # Design note: FastAPI's own /docs and /redoc pages load Swagger UI and ReDoc from a CDN, which shows a blank
    # page on the air-gapped sites Procura runs on; FastAPIOffline serves the same pages from files installed
    # with the package (under /static-offline-docs).
    app = FastAPIOffline(
        title="Procura metric API",
        version="1.0.0",
        summary="Governed finance metrics by name: typed parameters, tenant from the API key, provenance.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.service = MetricService.from_settings(registry, settings)
    app.state.rate_limiter = rate_limiter or RateLimiter()
    app.state.principal_cache = PrincipalCache(ttl_s=auth_cache_ttl_s)

    def lookup(key: str | None) -> Principal:
        with app.state.pool.connection() as conn:
            return authenticate(conn, key)

    app.state.access = Access(
        lookup, app.state.principal_cache, app.state.rate_limiter, FailureThrottle(failed_auth_per_minute)
    )
    app.include_router(health.router)
    app.include_router(metrics.router)
    app.include_router(audit.router)
    app.include_router(ask.router)
    app.include_router(search.router)
    _install_error_handlers(app)
    app.add_middleware(RequestLimits)
    _declare_error_shape(app)
    # After the error shape: the per-metric paths copy the generic query operation, errors declared included.
    metrics.document_metric_requests(app, list(registry))
    return app


def _declare_error_shape(app: FastAPI) -> None:
    """Make the OpenAPI document say what the app answers: every 422 (and every documented error status) has the
    one error shape, not FastAPI's default ``HTTPValidationError`` (the ``ErrorResponse`` component that the
    routes declare); the limits of :mod:`procura.limits` are declared on every operation. Clients and the
    schemathesis suite validate responses against this document."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/" + ErrorResponse.__name__}}}
    added = {
        "413": "The request body is too large.",
        "414": "The query string is too long.",
        "422": "Invalid request (the field is named); NUL characters or unpaired surrogates.",
    }

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
        for path_item in schema.get("paths", {}).values():
            for operation in path_item.values():
                responses = operation.setdefault("responses", {})
                for status, description in added.items():
                    responses.setdefault(status, {"description": description})
                for status, response in responses.items():
                    if status[0] in "45":
                        response["content"] = error
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise the document


def _error(status: int, code: str, message: str, parameter: str | None = None, **headers: str) -> JSONResponse:
    # Design note: messages may quote the caller's input (an unknown name, a malformed id); the cut keeps a 1 MB
    # identifier from coming back as a 1 MB error body.
    body: dict[str, Any] = {"error": {
        "code": code, "message": bounded(message, 2 * MAX_ECHO_CHARS),
        "parameter": None if parameter is None else bounded(parameter)}}
    return JSONResponse(status_code=status, content=body, headers=headers or None)


async def procura_error_handler(_: Request, exc: Exception) -> JSONResponse:
    """The one mapping of Procura's errors to responses: every area's :class:`ProcuraError` carries its own
    status, code, parameter and headers (:mod:`procura.errors`)."""
    assert isinstance(exc, ProcuraError)
    # A server-side failure that wraps a lost connection is an outage, whatever its class.
    if exc.http_status >= 500 and is_database_unavailable(exc):
        return _unavailable(exc)
    if exc.error_code == "internal_error":
        log.exception("unhandled error", exc_info=exc)
        return _error(500, "internal_error", "internal error")
    return _error(exc.http_status, exc.error_code, str(exc), parameter=exc.parameter, **exc.headers)


def _install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ProcuraError, procura_error_handler)

    @app.exception_handler(psycopg.Error)
    async def _psycopg(_: Request, exc: psycopg.Error) -> JSONResponse:
        # PoolTimeout and PoolClosed are psycopg OperationalErrors too.
        if is_database_unavailable(exc):
            return _unavailable(exc)
        log.error("database error: %s (sqlstate %s)", type(exc).__name__, exc.sqlstate)
        return _error(500, "database_error", "the request failed in the database")

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": (), "msg": "invalid request", "type": ""}
        loc = [str(p) for p in first.get("loc", ()) if p != "body"]
        field = ".".join(loc) or "body"
        if first.get("type") == "json_invalid":
            return _error(400, "invalid_json", "the request body is not valid JSON", parameter="body")
        if any(part.lower() == "tenant_id" for part in loc):
            return _error(
                422,
                "tenant_in_request",
                f"body.{field}: tenant_id is not accepted in requests; the tenant comes from the API key",
                parameter="tenant_id",
            )
        # Design note: pydantic's message only; its "input" echo is left out of responses on purpose.
        return _error(422, "invalid_request", f"{field}: {first.get('msg', 'invalid')}", parameter=field)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail), **(exc.headers or {}))

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        if is_database_unavailable(exc):
            return _unavailable(exc)
        log.exception("unhandled error", exc_info=exc)
        return _error(500, "internal_error", "internal error")


def _unavailable(exc: BaseException) -> JSONResponse:
    """503 for a database that is down or restarting; the cause is logged by class only (no SQL, no DSN)."""
    log.warning("database unavailable: %s", type(exc).__name__)
    return _error(
        503,
        "database_unavailable",
        "the database is not available; retry later",
        **{"Retry-After": str(DATABASE_RETRY_AFTER_S)},
    )
