"""``/v1/metrics``: the metric catalog and metric queries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from psycopg_pool import AsyncConnectionPool

from api.deps import PrincipalDep, ServiceDep
from api.models import (
    ErrorResponse,
    MetricCatalogResponse,
    MetricDetailResponse,
    MetricQueryRequest,
    MetricQueryResponse,
    MetricSummary,
)
from procura.errors import TenantInRequestError
from semantic.loader import Metric
from semantic.service import MetricService

router = APIRouter(prefix="/v1/metrics", tags=["metrics"])

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "Missing or invalid API key."},
    404: {"model": ErrorResponse, "description": "Unknown metric."},
    429: {"model": ErrorResponse, "description": "Per-key rate limit exceeded."},
}


@router.get("", response_model=MetricCatalogResponse, responses=_ERRORS)
def list_metrics(*, service: ServiceDep, principal: PrincipalDep) -> dict[str, Any]:
    """List every metric with the JSON Schema of its parameters."""
    return {"metrics": [_summary(m) for m in service.catalog()]}


@router.get("/{name}", response_model=MetricDetailResponse, responses=_ERRORS)
def describe_metric(*, name: str, service: ServiceDep, principal: PrincipalDep) -> dict[str, Any]:
    """Describe one metric: parameters, dimensions, grains, outputs, policy and request schema."""
    metric = service.describe(name)
    detail = {**_summary(metric), **metric.describe()}
    detail["request_schema"] = request_schema(metric)
    return detail


@router.post(
    "/{name}/query",
    response_model=MetricQueryResponse,
    responses={
        **_ERRORS,
        400: {"model": ErrorResponse, "description": "The body is not JSON."},
        403: {"model": ErrorResponse, "description": "The key lacks the metric's scope."},
        422: {
            "model": ErrorResponse,
            "description": "Invalid parameter, dimension or grain, or a combination the metric does not allow "
            "(error.parameter names the field); tenant_id sent.",
        },
        504: {"model": ErrorResponse, "description": "The query exceeded the statement timeout."},
    },
)
async def query_metric(
    *,
    name: str,
    body: MetricQueryRequest,
    principal: PrincipalDep,
    request: Request,
) -> Response:
    """Run a metric for the key's tenant; money is returned as decimal strings."""
    # Design note: no AuditDep here. The service writes this call's row whatever the outcome (an answered query's
    # in the query's own statement, a refused one's on its own, a tenant in the body through record_rejection),
    # so the shared dependency would only add its per-request setup and teardown to the hot path.
    # Design note: an async route on an asyncio pool. A sync route runs in AnyIO's worker threads: a hop there and
    # back per request, two thread wake-ups that cost about as much as an authenticated no-op request on the
    # shared machine (bench/metric_api.py's sync and async no-op routes). The work done here between awaits
    # (binding, shaping, serializing: tens of microseconds) stays on the event loop.
    location = f"body.{body.tenant_key}" if body.tenant_key else _find_tenant_key(body.parameters, "body.parameters")
    # Design note: getconn/putconn rather than pool.connection(): the context manager adds a commit of the idle
    # autocommit connection (a no-op) and usage statistics, about 4 us per request; putconn still rolls back and
    # checks a connection that comes back in a transaction or broken.
    # Design note: the asyncio pool is read from app.state here, not declared as a dependency (api.deps.MetricPoolDep):
    # each resolved dependency is FastAPI work on every request (cProfile of the server over 1,000 requests:
    # dependency solving 1.33 s on the metric route against 1.08 s on the no-op, which has one fewer).
    # The service likewise (api.deps.ServiceDep on the other routes): one fewer dependency to solve, about 7 us per
    # request (docs/benchmarks.md, "Metric API, ninth pass"); it reads the same app.state attribute.
    pool: AsyncConnectionPool = request.app.state.metric_pool
    service: MetricService = request.app.state.service
    conn = await pool.getconn()
    try:
        if location is not None:
            await service.arecord_rejection(
                conn, principal.context, name, error_code="tenant_in_request", key_id=principal.key_id
            )
            raise TenantInRequestError(location)
        answer = await service.aquery_json(
            conn,
            principal.context,
            name,
            body.parameters,
            group_by=body.group_by,
            grain=body.grain,
            route="api",
            key_id=principal.key_id,
        )
    finally:
        await pool.putconn(conn)
    # Design note: the answer is MetricResult's JSON, which has the shape of MetricQueryResponse (the documented
    # model), written by semantic.execute.shape_json without building the models: no dump-and-revalidate of the
    # response model, and the parts that are the same on every call of a request are kept.
    return Response(content=answer, media_type="application/json")


def request_schema(metric: Metric) -> dict[str, Any]:
    """JSON Schema of the query body for ``metric`` (parameters, allow-listed group_by and grain)."""
    definition = metric.definition
    grains = list(definition.time_dimension.grains) if definition.time_dimension else []
    return {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "parameters": dict(metric.parameters_schema),
            "group_by": {
                "type": "array",
                "items": {"enum": list(definition.dimensions)},
                "minItems": definition.min_group_by,
                "maxItems": definition.max_group_by,
                "uniqueItems": True,
            },
            "grain": {"enum": [*grains, None]},
        },
        "required": [
            *(["parameters"] if any(s.required for s in definition.parameters.values()) else []),
            *(["group_by"] if definition.min_group_by else []),
        ],
    }


def document_metric_requests(app: FastAPI, metrics: Sequence[Metric]) -> None:
    """Show each metric's own request body in the OpenAPI document.

    ``POST /v1/metrics/{name}/query`` is one route; its documented body is generic. For every metric of the
    catalog the document gains the path ``/v1/metrics/<metric>/query`` (served by that same route) whose body is
    the metric's :func:`request_schema`, and the schema under ``components.schemas`` as
    ``MetricQuery.<metric>``. Generated from the registry: a metric added to dbt's spec appears with no change
    here.
    """
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        spec = default_openapi()
        generic = spec["paths"]["/v1/metrics/{name}/query"]["post"]
        components = spec.setdefault("components", {}).setdefault("schemas", {})
        for metric in metrics:
            ref = f"MetricQuery.{metric.name}"
            components[ref] = {"title": ref, **request_schema(metric)}
            operation = {
                **generic,
                "operationId": f"query_{metric.name.replace('.', '_')}",
                "summary": f"Query {metric.name}",
                "description": metric.definition.description,
                "parameters": [],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}},
                },
            }
            spec["paths"][f"/v1/metrics/{metric.name}/query"] = {"post": operation}
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend the schema


def _summary(metric: Metric) -> dict[str, Any]:
    described = metric.describe()
    return MetricSummary(
        name=metric.name,
        description=described["description"],
        owner=described["owner"],
        scope=described["scope"],
        parameters=described["parameters"],
        dimensions=described["dimensions"],
        grains=described["grains"],
        outputs=described["outputs"],
    ).model_dump()


def _find_tenant_key(value: Any, path: str) -> str | None:
    """The path of the first ``tenant_id`` key anywhere inside ``value``, or ``None``."""
    # Design note: JSON bodies hold dicts, lists and scalars; those are told apart by their exact type first, since
    # the abstract Mapping and Sequence checks (kept for anything else) were about 15 % of what the metric route
    # cost beyond the no-op (cProfile of the server, docs/benchmarks.md "Metric API, seventh pass").
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return None
    if kind is dict and _flat_without_tenant(value):
        return None
    if kind is dict or isinstance(value, Mapping):
        for key, item in value.items():
            if type(key) is str and key.lower() != "tenant_id" and _is_scalar(item):
                continue
            here = f"{path}.{key}"
            if str(key).lower() == "tenant_id":
                return here
            found = _find_tenant_key(item, here)
            if found is not None:
                return found
    elif kind is list or (isinstance(value, Sequence) and not isinstance(value, str | bytes)):
        for index, item in enumerate(value):
            if _is_scalar(item):
                continue
            found = _find_tenant_key(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _flat_without_tenant(value: dict[Any, Any]) -> bool:
    """Whether ``value`` is the common body (text keys, none of them ``tenant_id`` in any case, whose values are
    JSON scalars or lists of them) and so holds no ``tenant_id`` key anywhere; ``False`` means "search it"."""
    # Design note: one pass without recursion or path strings for what nearly every request sends (ids, codes,
    # dates); about 1 us instead of 4 us per request here. Anything else takes the full search below.
    for key, item in value.items():
        if type(key) is not str or key.lower() == "tenant_id":
            return False
        kind = type(item)
        if kind is list:
            for element in item:
                if type(element) not in _SCALAR_TYPES:
                    return False
        elif kind not in _SCALAR_TYPES:
            return False
    return True


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def _is_scalar(value: Any) -> bool:
    kind = type(value)
    return kind is str or kind is int or kind is float or kind is bool or value is None
