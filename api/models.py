"""Request and response models of the HTTP API (separate classes for what comes in and what goes out)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ModelWrapValidatorHandler, PrivateAttr, model_validator

JsonScalar = str | int | bool | None


class _Response(BaseModel):
    model_config = ConfigDict(frozen=True)


class ErrorDetail(_Response):
    """What went wrong: a stable code, a message for people, and the offending field when there is one."""

    code: str
    message: str
    parameter: str | None = None


class ErrorResponse(_Response):
    """Every error response has this shape (no stack traces, no SQL)."""

    error: ErrorDetail


# -- metrics ---------------------------------------------------------------------------------------------------
class MetricQueryRequest(BaseModel):
    """A metric query. The tenant is never part of it: it comes from the API key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    parameters: dict[str, Any] = Field(
        default_factory=dict, description="Parameter values by name (see the metric's JSON Schema)."
    )
    group_by: list[str] = Field(default_factory=list, description="Allow-listed dimensions to group by.")
    grain: str | None = Field(default=None, description="Allow-listed time grain: day, week, month, ...")
    _tenant_key: str | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _set_aside_tenant(cls, data: Any, handler: ModelWrapValidatorHandler[MetricQueryRequest]) -> MetricQueryRequest:
        # A top-level tenant_id is taken out before validation and remembered, so that the endpoint can refuse
        # (and audit) it like one nested anywhere else; every other unknown field is still an error.
        found = None
        if isinstance(data, dict):
            found = next((k for k in data if isinstance(k, str) and k.lower() == "tenant_id"), None)
            if found is not None:
                data = {k: v for k, v in data.items() if k != found}
        request = handler(data)
        if found is not None:
            request._tenant_key = found
        return request

    @property
    def tenant_key(self) -> str | None:
        """The top-level ``tenant_id`` key the caller sent, if any (always an error)."""
        return self._tenant_key


class OutputInfo(_Response):
    """One output column of a metric."""

    type: str
    unit: str | None
    description: str
    role: str


class DimensionInfo(_Response):
    """One allow-listed group-by dimension."""

    type: str
    description: str


class MetricSummary(_Response):
    """A metric in the catalog, with the JSON Schema of its parameters."""

    name: str
    description: str
    owner: str
    scope: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the `parameters` object.")
    dimensions: dict[str, DimensionInfo]
    grains: list[str]
    outputs: dict[str, OutputInfo]


class MetricCatalogResponse(_Response):
    """All metrics the API serves."""

    metrics: list[MetricSummary]


class MetricDetailResponse(MetricSummary):
    """One metric: its catalog entry plus relations, policy, provenance and the full request schema."""

    relations: list[str]
    max_group_by: int
    min_group_by: int = Field(default=0, description="Dimensions group_by needs at least (1 for a ranking).")
    policy: dict[str, Any]
    provenance: dict[str, Any] | None
    request_schema: dict[str, Any] = Field(description="JSON Schema of the POST .../query body.")


class ColumnInfoModel(_Response):
    """One result column."""

    name: str
    kind: Literal["dimension", "period", "output"]
    type: str
    unit: str | None = None


class ProvenanceModel(_Response):
    """The source invoice lines behind a number (capped, with the full count)."""

    source_line_ids: list[str]
    source_line_count: int
    truncated: bool


class ResultRowModel(_Response):
    """One row: values keyed by column name (money and decimals as strings) and its provenance."""

    values: dict[str, JsonScalar]
    provenance: ProvenanceModel | None = None


class CoverageModel(_Response):
    """Requested keys that did / did not contribute data."""

    parameter: str
    requested: list[str]
    calculated: list[str]
    missing: list[str]


class MetricQueryResponse(_Response):
    """The typed result of a metric query, with currency, calculation policy and provenance."""

    metric: str
    status: Literal["complete", "partial", "no_data"]
    parameters: dict[str, Any] = Field(description="Effective parameters, defaults included.")
    group_by: list[str]
    grain: str | None
    currency: str | None
    policy: dict[str, Any]
    columns: list[ColumnInfoModel]
    rows: list[ResultRowModel]
    row_count: int
    truncated: bool
    matched_line_count: int | None
    coverage: CoverageModel | None
    duration_ms: float
    answered_from: str = Field(
        default="", description="The governed relation that answered: the invoice lines or a rollup of them."
    )


# -- health ----------------------------------------------------------------------------------------------------
class HealthResponse(_Response):
    """Liveness: the process answers."""

    status: Literal["ok"]


class MigrationState(_Response):
    """Applied versus shipped migrations."""

    applied: int
    expected: int
    pending: list[str]
    changed: list[str]


class ReadinessResponse(_Response):
    """Readiness: the database answers and its migrations match this build."""

    status: Literal["ready", "not_ready"]
    database: bool
    migrations: MigrationState | None
    metrics: int


# -- audit -----------------------------------------------------------------------------------------------------
class AuditEntryModel(_Response):
    """One audited query (parameter values appear only as hashes)."""

    audit_id: int
    occurred_at: dt.datetime
    principal_id: str
    key_id: str | None
    route: str
    metric: str
    parameter_hashes: dict[str, str]
    group_by: list[str]
    grain: str | None
    row_count: int | None
    duration_ms: float
    outcome: str
    error_code: str | None


class AuditLogResponse(_Response):
    """The tenant's most recent audit rows, newest first."""

    entries: list[AuditEntryModel]
