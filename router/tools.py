"""Typed tool adapters: one request model, one response model and one function per allowed tool.

Each adapter calls the application service that owns the data (graph tools, the metric service, retrieval,
the governed marts) with the caller's :class:`AuthContext`; none of them accepts a tenant, and every one runs
as ``procura_app`` under row-level security. Response models are what the executor persists and what later
steps and the validator read; they carry the provenance of every value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from procura.db.session import AuthContext, tenant_transaction
from retrieval.models import COMPANY_ID_PATTERN, DOCUMENT_ID_PATTERN
from router.contract import CanonicalId, CurrencyCode, InvoiceStatus, ToolName
from router.errors import ToolFailedError, ToolTimeoutError
from router.injection import screen

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class _Model(BaseModel):
    model_config = _FROZEN


# --- entity.resolve_company -----------------------------------------------------------------------------------
class ResolveCompanyRequest(_Model):
    """Resolve a company by canonical id or by name (through the tenant's companies)."""

    company_id: CanonicalId | None = None
    company_name: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None

    @model_validator(mode="after")
    def _one(self) -> ResolveCompanyRequest:
        if (self.company_id is None) == (self.company_name is None):
            raise ValueError("give exactly one of company_id or company_name")
        return self


class ResolveCompanyResponse(_Model):
    """The company, or ``found = false``."""

    found: bool
    company_id: str | None = None
    company_name: str | None = None
    reporting_currency: str | None = None
    source_document_id: str | None = None


# --- graph.find_approved_vendors -------------------------------------------------------------------------------
class ApprovedVendorsToolRequest(_Model):
    """Approved vendors of a company in ``[start_date, end_date)``."""

    company_id: CanonicalId
    start_date: dt.date
    end_date: dt.date
    limit: int = Field(default=200, ge=1, le=1000)
    supplier_ids: tuple[CanonicalId, ...] | None = Field(
        default=None, max_length=200,
        description="Only approvals of these suppliers (e.g. the supplier a ranking selected); empty finds none.",
    )
    as_of: dt.date | None = Field(
        default=None, description="Each agreement's approvals in the version in force on this date (the question's "
        "as-of date): an amendment not yet effective does not count (router/approvals_in_force.py).",
    )


class ApprovalRef(_Model):
    """One approval edge and where it was read from."""

    supplier_id: str
    supplier_name: str
    agreement_id: str
    valid_from: dt.date
    valid_to: dt.date | None
    scope: str | None
    document_id: str
    page: int | None
    chunk_id: str | None


class ApprovedVendorsToolResponse(_Model):
    """Approved vendors with provenance."""

    company_id: str
    start_date: dt.date
    end_date: dt.date
    supplier_ids: tuple[str, ...]
    agreement_ids: tuple[str, ...]
    approvals: tuple[ApprovalRef, ...]
    source_chunk_ids: tuple[str, ...]
    #: Agreements read in another version than the graph's active one, as of the request's date (said in answers).
    version_notes: tuple[str, ...] = ()


# --- catalog.find_products --------------------------------------------------------------------------------------
class FindProductsToolRequest(_Model):
    """Products of the suppliers under a product group (PART_OF*0..max_depth), or under every root group of the
    tenant's catalogue when ``group_name`` is omitted (all products of the suppliers)."""

    supplier_ids: tuple[CanonicalId, ...] = Field(min_length=1, max_length=200)
    group_name: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None
    max_depth: Literal[0, 1, 2, 3] = 3


class ProductRef(_Model):
    """One product in the group, its supplier, group path and provenance."""

    product_code: str
    product_name: str
    supplier_id: str
    product_group_id: str
    group_path: tuple[str, ...]
    source_chunk_ids: tuple[str, ...]
    source_document_ids: tuple[str, ...] = Field(
        default=(), description="The documents the SUPPLIES/BELONGS_TO edges were read from (for citing records)."
    )


class FindProductsToolResponse(_Model):
    """Products found; ``supplier_ids`` are the suppliers that have at least one of them."""

    group_name: str | None
    requested_supplier_ids: tuple[str, ...]
    products: tuple[ProductRef, ...]
    product_codes: tuple[str, ...]
    supplier_ids: tuple[str, ...]


# --- catalog.list_price -----------------------------------------------------------------------------------------
class ListPriceRequest(_Model):
    """The catalogue's list price of the named products (the governed view ``marts.dim_products``)."""

    product_codes: tuple[CanonicalId, ...] = Field(min_length=1, max_length=20)


class ListPriceRef(_Model):
    """One product's list price as the catalogue states it, in the catalogue's own currency (never converted)."""

    product_code: str
    product_name: str
    supplier_id: str
    list_price: str
    currency: str
    source_document_id: str


class ListPriceResponse(_Model):
    """The products found in the catalogue; ``missing_product_codes`` are named but not in it."""

    products: tuple[ListPriceRef, ...]
    missing_product_codes: tuple[str, ...]


# --- finance.aggregate_spend / finance.company_spend -----------------------------------------------------------
class SpendRequest(_Model):
    """The governed spend metric's parameters (see ``semantic/finance.yml``)."""

    company_id: CanonicalId
    supplier_ids: tuple[CanonicalId, ...] | None = None
    product_codes: tuple[CanonicalId, ...] | None = None
    #: A category and its subgroups (``finance.company_spend`` only): lines of products under these groups.
    product_group_ids: tuple[CanonicalId, ...] | None = Field(default=None, min_length=1, max_length=500)
    #: Suppliers left out (``finance.company_spend`` only): e.g. the approved set of "spend with suppliers not
    #: approved" (router/off_contract.py). Empty: nobody is left out.
    exclude_supplier_ids: tuple[CanonicalId, ...] | None = Field(default=None, max_length=500)
    start_date: dt.date
    end_date: dt.date
    invoice_statuses: tuple[InvoiceStatus, ...] = ("posted", "paid")
    reporting_currency: CurrencyCode
    group_by: tuple[Literal["supplier_id", "product_group_id", "product_code", "top_product_group_id",
                            "invoice_status"], ...] = Field(
        default=(), max_length=2, description="Also break the total down by these allow-listed dimensions."
    )
    grain: Literal["day", "week", "month", "quarter", "year"] | None = Field(
        default=None, description="Also break the total down by this allow-listed time grain."
    )

    @model_validator(mode="after")
    def _ordered(self) -> SpendRequest:
        if self.end_date <= self.start_date:
            raise ValueError(f"end_date {self.end_date} must be after start_date {self.start_date}")
        return self


class SpendBreakdownRow(_Model):
    """One group of a broken-down total (money as a decimal string)."""

    dimension: str
    key: str | None
    total_spend: str | None
    matched_line_count: int


class SpendResponse(_Model):
    """A governed total (money as a decimal string) with coverage and line provenance."""

    metric: str
    status: Literal["complete", "partial", "no_data"]
    total_spend: str | None
    currency: str
    matched_line_count: int
    requested_supplier_ids: tuple[str, ...]
    calculated_supplier_ids: tuple[str, ...]
    missing_supplier_ids: tuple[str, ...]
    product_codes: tuple[str, ...] | None
    source_line_ids: tuple[str, ...]
    source_line_count: int
    sources_truncated: bool
    policy: dict[str, Any]
    parameters: dict[str, Any]
    breakdown: tuple[SpendBreakdownRow, ...] = ()


# --- governed metrics other than spend --------------------------------------------------------------------------
class UnitPriceRequest(_Model):
    """``catalog.unit_price``: the average net unit price of one product in one calendar month."""

    product_code: CanonicalId
    month: Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
    company_id: CanonicalId | None = None
    invoice_statuses: tuple[InvoiceStatus, ...] = ("posted", "paid")
    reporting_currency: CurrencyCode | None = None


class TaxTotalRequest(_Model):
    """``finance.tax_total``: the tax across named invoices (missing invoice numbers make it partial)."""

    invoice_numbers: tuple[CanonicalId, ...] = Field(min_length=1, max_length=1000)
    company_id: CanonicalId | None = None
    invoice_statuses: tuple[InvoiceStatus, ...] = ("posted", "paid")
    reporting_currency: CurrencyCode | None = None


class _PeriodRequest(_Model):
    start_date: dt.date
    end_date: dt.date

    @model_validator(mode="after")
    def _ordered(self) -> _PeriodRequest:
        if self.end_date <= self.start_date:
            raise ValueError(f"end_date {self.end_date} must be after start_date {self.start_date}")
        return self


class UnitsPurchasedRequest(_PeriodRequest):
    """``finance.units_purchased``: units bought from one supplier in ``[start_date, end_date)``."""

    supplier_id: CanonicalId
    company_id: CanonicalId | None = None
    invoice_statuses: tuple[InvoiceStatus, ...] = ("posted", "paid")


class ThresholdRequest(_PeriodRequest):
    """``finance.invoices_above_threshold``: invoices whose grand total is above (or below) ``threshold``."""

    threshold: Annotated[str, StringConstraints(pattern=r"^\d{1,13}(\.\d{1,2})?$")]
    company_id: CanonicalId | None = None
    invoice_statuses: tuple[InvoiceStatus, ...] = ("posted", "paid")
    reporting_currency: CurrencyCode | None = None
    #: The threshold amount itself qualifies ("at least" / "at most"): >= or <= instead of > or <.
    inclusive: bool = False
    #: ``below``: grand totals under the threshold ("invoices under 500").
    direction: Literal["above", "below"] = "above"
    #: Only invoices of these suppliers ("invoices from Beta over 5,000").
    supplier_ids: tuple[CanonicalId, ...] | None = None
    #: Leave out the invoices of these suppliers ("invoices over 5,000, excluding Helix").
    exclude_supplier_ids: tuple[CanonicalId, ...] | None = None
    #: The upper bound of an amount range ("between 5,000 and 10,000 EUR"), with ``direction`` above.
    upper_threshold: Annotated[str, StringConstraints(pattern=r"^\d{1,13}(\.\d{1,2})?$")] | None = None
    upper_inclusive: bool = False
    #: Only invoices issued in this currency ("the invoices billed in USD"); totals stay in the reporting one.
    document_currency: CurrencyCode | None = None


class MetricToolResponse(_Model):
    """A governed metric's typed result: one row of values for aggregates, ``rows`` for list metrics.

    Money and decimals stay decimal strings, exactly as the semantic layer presents them; ``outputs`` names
    each output with its type and unit so the answer can label values without guessing.
    """

    metric: str
    status: Literal["complete", "partial", "no_data"]
    currency: str | None
    outputs: dict[str, dict[str, str | None]]
    values: dict[str, str | int | bool | None]
    rows: tuple[dict[str, str | int | bool | None], ...] = ()
    matched_line_count: int
    requested_keys: tuple[str, ...] = ()
    calculated_keys: tuple[str, ...] = ()
    missing_keys: tuple[str, ...] = ()
    source_line_ids: tuple[str, ...]
    source_line_count: int
    sources_truncated: bool
    truncated: bool = False
    policy: dict[str, Any]
    parameters: dict[str, Any]

    @property
    def row_supplier_ids(self) -> tuple[str, ...]:
        """The suppliers of the rows, in row order (a ranking's selection, ties at the cut included): what a
        later plan step references to act on the entity the figure selected."""
        return tuple(dict.fromkeys(str(r["supplier_id"]) for r in self.rows if r.get("supplier_id")))

    @property
    def lowest_unit_price_supplier_ids(self) -> tuple[str, ...]:
        """The suppliers whose row has the lowest ``unit_price`` (ties all kept, rows without a price skipped): the
        cheapest supplier of a product, for a later plan step to act on by reference."""
        return self._extreme_suppliers("unit_price", lowest=True)

    @property
    def highest_unit_price_supplier_ids(self) -> tuple[str, ...]:
        """The suppliers whose row has the highest ``unit_price`` (ties all kept)."""
        return self._extreme_suppliers("unit_price", lowest=False)

    def _extreme_suppliers(self, output: str, *, lowest: bool) -> tuple[str, ...]:
        priced = [(Decimal(str(r[output])), str(r["supplier_id"])) for r in self.rows
                  if r.get(output) is not None and r.get("supplier_id")]
        if not priced:
            return ()
        best = min(v for v, _ in priced) if lowest else max(v for v, _ in priced)
        return tuple(dict.fromkeys(s for v, s in priced if v == best))


# --- metrics.query: any governed metric of the catalog ----------------------------------------------------------
class MetricQueryToolRequest(_Model):
    """Any governed metric by name, with its parameters (validated against the metric's own request model, see
    :func:`metric_request_model`), allow-listed ``group_by`` dimensions and ``grain``."""

    metric: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,40}\.[a-z][a-z0-9_]{0,62}$")]
    parameters: dict[str, Any] = Field(default_factory=dict)
    group_by: tuple[str, ...] = ()
    grain: Literal["day", "week", "month", "quarter", "year"] | None = None


_PARAMETER_TYPES: Mapping[str, Any] = {
    "string": str, "string_list": list[str], "date": dt.date, "month": str, "integer": int, "decimal": str,
    "boolean": bool,
}


def metric_request_model(metric: Any) -> type[BaseModel]:
    """A pydantic model of one metric's parameters, generated from the catalog (no per-metric class).

    Its JSON Schema is what MCP and the router show for the metric; binding (types, bounds, allowed values,
    defaults) stays with the semantic layer, which every call goes through.
    """
    from pydantic import create_model

    fields: dict[str, Any] = {}
    for name, spec in metric.definition.parameters.items():
        annotation = _PARAMETER_TYPES[spec.type]
        default = ... if spec.required else spec.default
        fields[name] = (annotation if spec.required else annotation | None,
                        Field(default=default, description=spec.description))
    model_name = "".join(part.title() for part in metric.name.replace(".", "_").split("_")) + "Parameters"
    return create_model(model_name, __config__=_FROZEN, **fields)


class MetricInfo(_Model):
    """One governed metric as the catalog describes it (never its SQL)."""

    name: str
    description: str
    scope: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the metric's parameters object.")
    dimensions: dict[str, Any]
    grains: tuple[str, ...]
    max_group_by: int
    min_group_by: int = Field(default=0, description="Dimensions a query must group by at least (a ranking "
                              "ranks one dimension, so it needs one).")
    outputs: dict[str, Any]


class MetricCatalogToolResponse(_Model):
    """``list_metrics``: every governed metric the caller's scopes allow."""

    metrics: tuple[MetricInfo, ...]


class MetricDimensions(_Model):
    """The allow-listed groupings of one metric."""

    metric: str
    dimensions: dict[str, Any]
    grains: tuple[str, ...]
    max_group_by: int
    min_group_by: int = 0


class DimensionsToolResponse(_Model):
    """``get_dimensions``: what each named metric can be grouped by."""

    metrics: tuple[MetricDimensions, ...]


def metric_catalog(registry: Any, ctx: AuthContext) -> MetricCatalogToolResponse:
    """The catalog as a tool result: the metrics ``ctx`` has the scope for, described from the registry."""
    infos = []
    for metric in registry:
        if not ctx.has_scope(metric.definition.scope):
            continue
        d = metric.describe()
        infos.append(MetricInfo(
            name=d["name"], description=d["description"], scope=d["scope"], parameters=d["parameters"],
            dimensions=d["dimensions"], grains=tuple(d["grains"]), max_group_by=d["max_group_by"],
            min_group_by=d["min_group_by"], outputs=d["outputs"],
        ))
    return MetricCatalogToolResponse(metrics=tuple(infos))


def metric_dimensions(registry: Any, names: list[str]) -> DimensionsToolResponse:
    """The allow-listed dimensions and grains of the named metrics.

    Raises:
        ToolFailedError: an unknown metric name.
    """
    from semantic.errors import SemanticError

    out = []
    for name in names:
        try:
            d = registry.get(name).describe()
        except SemanticError as exc:
            raise ToolFailedError(str(exc)) from exc
        out.append(MetricDimensions(metric=name, dimensions=d["dimensions"], grains=tuple(d["grains"]),
                                    max_group_by=d["max_group_by"], min_group_by=d["min_group_by"]))
    return DimensionsToolResponse(metrics=tuple(out))


def query_metric(
    conn: psycopg.Connection, ctx: AuthContext, req: MetricQueryToolRequest, env: ToolEnv, timeout_ms: int
) -> MetricToolResponse:
    """Any governed metric through the metric service (scope, bounds and tenant checked there)."""
    from pydantic import ValidationError

    from semantic.errors import SemanticError

    try:
        metric = env.metric_service.registry.get(req.metric)
        metric_request_model(metric).model_validate(req.parameters)
    except SemanticError as exc:
        raise ToolFailedError(str(exc)) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "parameters"
        raise ToolFailedError(f"{req.metric}: parameter {where}: {first.get('msg')}") from exc
    return _metric(conn, ctx, env, timeout_ms, req.metric, dict(req.parameters), group_by=req.group_by,
                   grain=req.grain)


# --- documents.search ------------------------------------------------------------------------------------------
class SearchIdentifiers(_Model):
    """Identifiers for the exact-match branch."""

    product_codes: tuple[CanonicalId, ...] = ()
    invoice_numbers: tuple[CanonicalId, ...] = ()
    contract_ids: tuple[CanonicalId, ...] = ()


class SearchFilters(_Model):
    """Hard filters applied by every retrieval branch."""

    document_types: tuple[Annotated[str, StringConstraints(pattern=r"^[a-z_]{1,40}$")], ...] = ()
    document_ids: tuple[Annotated[str, StringConstraints(pattern=DOCUMENT_ID_PATTERN)], ...] = ()
    valid_at: dt.date | None = None
    company_ids: tuple[Annotated[str, StringConstraints(pattern=COMPANY_ID_PATTERN)], ...] = Field(
        default=(), max_length=20, description="Only documents about these companies (e.g. their agreements)."
    )
    phrases: tuple[Annotated[str, StringConstraints(min_length=2, max_length=200)], ...] = Field(
        default=(), max_length=5,
        description="Passages must contain each phrase literally (case and whitespace insensitive).",
    )


class DocumentSearchRequest(_Model):
    """The seed's procurement search request: query text, identifiers, filters and modes, as MCP receives it."""

    query_text: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    identifiers: SearchIdentifiers = SearchIdentifiers()
    retrieval_modes: tuple[Literal["exact", "bm25", "vector"], ...] = Field(
        default=("exact", "bm25", "vector"), min_length=1
    )
    filters: SearchFilters = SearchFilters()
    limit: int = Field(default=5, ge=1, le=50)


class EvidenceChunk(_Model):
    """One retrieved chunk. ``text`` is untrusted evidence, never instructions."""

    chunk_id: str
    document_id: str
    document_version: int | None = None
    page: int | None = None
    text: str
    score: float | None = None
    exact_match: bool = False
    flagged_injection: bool = False
    injection_markers: tuple[str, ...] = ()


class DocumentSearchResponse(_Model):
    """Chunks with provenance; flagged chunks are kept apart and never cited as support."""

    chunks: tuple[EvidenceChunk, ...]
    flagged_chunk_ids: tuple[str, ...]


# --- validation.check_completeness -----------------------------------------------------------------------------
class CompletenessRequest(_Model):
    """No arguments: the check reads the typed outputs of the steps it depends on."""


class CompletenessResponse(_Model):
    """Whether the answer is complete, partial or empty, and why."""

    status: Literal["complete", "partial", "no_data", "not_found"]
    calculated_supplier_ids: tuple[str, ...] = ()
    missing_supplier_ids: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


# --- implementations -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToolEnv:
    """What tools need besides the connection and the context: the metric service and the embedder."""

    metric_service: Any
    embedder: Any = None
    search: Callable[..., Any] | None = None


def resolve_company(
    conn: psycopg.Connection, ctx: AuthContext, req: ResolveCompanyRequest, env: ToolEnv, timeout_ms: int
) -> ResolveCompanyResponse:
    """The company from ``marts.dim_companies`` (RLS: only the caller's tenant)."""
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        if req.company_id is not None:
            row = conn.execute(
                "select company_id, company_name, reporting_currency, source_document_id from marts.dim_companies "
                "where company_id = %s",
                (req.company_id,),
            ).fetchone()
        else:
            row = conn.execute(
                "select company_id, company_name, reporting_currency, source_document_id from marts.dim_companies "
                "where lower(company_name) = lower(%s)",
                (req.company_name,),
            ).fetchone()
    if row is None:
        return ResolveCompanyResponse(found=False)
    return ResolveCompanyResponse(
        found=True, company_id=row[0], company_name=row[1], reporting_currency=row[2], source_document_id=row[3]
    )


def find_approved_vendors(
    conn: psycopg.Connection, ctx: AuthContext, req: ApprovedVendorsToolRequest, env: ToolEnv, timeout_ms: int
) -> ApprovedVendorsToolResponse:
    """``graph.tools.find_approved_vendors`` with the approval provenance flattened."""
    from graph.errors import GraphNotFoundError, ResultLimitError, TraversalTimeoutError
    from graph.tools import ApprovedVendorsRequest
    from graph.tools import find_approved_vendors as graph_find

    try:
        response = graph_find(
            conn,
            ctx,
            ApprovedVendorsRequest(
                company_id=req.company_id, start_date=req.start_date, end_date=req.end_date, limit=req.limit,
                timeout_ms=timeout_ms,
            ),
        )
    except TraversalTimeoutError as exc:
        raise ToolTimeoutError(str(exc)) from exc
    except (GraphNotFoundError, ResultLimitError) as exc:
        raise ToolFailedError(str(exc)) from exc
    approvals = tuple(
        ApprovalRef(
            supplier_id=v.supplier_id, supplier_name=v.supplier_name, agreement_id=a.agreement_id,
            valid_from=a.valid_from, valid_to=a.valid_to, scope=a.scope, document_id=a.provenance.document_id,
            page=a.provenance.page, chunk_id=a.provenance.chunk_id,
        )
        for v in response.vendors
        if req.supplier_ids is None or v.supplier_id in req.supplier_ids
        for a in v.approvals
    )
    notes: tuple[str, ...] = ()
    if req.as_of is not None:
        approvals, notes = _in_force(conn, ctx, req, approvals, timeout_ms)
    supplier_ids = tuple(sorted({a.supplier_id for a in approvals}))
    return ApprovedVendorsToolResponse(
        company_id=response.company_id,
        start_date=response.start_date,
        end_date=response.end_date,
        supplier_ids=supplier_ids,
        agreement_ids=tuple(sorted({a.agreement_id for a in approvals})),
        approvals=approvals,
        source_chunk_ids=tuple(dict.fromkeys(a.chunk_id for a in approvals if a.chunk_id)),
        version_notes=notes,
    )


def _in_force(conn: psycopg.Connection, ctx: AuthContext, req: ApprovedVendorsToolRequest,
              approvals: tuple[ApprovalRef, ...], timeout_ms: int) -> tuple[tuple[ApprovalRef, ...], tuple[str, ...]]:
    """The approvals with each agreement read in the version in force on ``req.as_of`` (the graph holds the
    active version's): an agreement whose active version is not yet effective contributes its in-force version's
    approvals overlapping the period instead, or none when no version is in force yet."""
    from router.approvals_in_force import agreements_as_of

    assert req.as_of is not None
    found = agreements_as_of(conn, ctx, req.company_id, req.as_of, timeout_ms)
    if not found.replaced:
        return approvals, ()
    kept = [a for a in approvals if a.agreement_id not in found.replaced]
    for approvals_in_force in found.replaced.values():
        kept.extend(
            a for a in approvals_in_force
            if a.valid_from < req.end_date and (a.valid_to is None or a.valid_to > req.start_date)
            and (req.supplier_ids is None or a.supplier_id in req.supplier_ids)
        )
    notes = tuple(
        f"{doc}: version {in_force} is in force on {req.as_of} (version {active} takes effect later)"
        if in_force is not None else f"{doc}: no version is in force on {req.as_of} (version {active} takes effect "
        "later), so it approves nobody then"
        for doc, (in_force, active) in sorted(found.versions.items())
    )
    return tuple(sorted(kept, key=lambda a: (a.supplier_id, a.valid_from))), notes


def find_products(
    conn: psycopg.Connection, ctx: AuthContext, req: FindProductsToolRequest, env: ToolEnv, timeout_ms: int
) -> FindProductsToolResponse:
    """``graph.tools.find_products`` (Supplier-SUPPLIES->Product-BELONGS_TO->Group-PART_OF*0..3->root)."""
    from graph.errors import GraphNotFoundError, ResultLimitError, TraversalTimeoutError
    from graph.tools import FindProductsRequest
    from graph.tools import find_products as graph_find

    if req.group_name is not None:
        groups: list[tuple[str, str]] = [("name", req.group_name)]
    else:
        # A supplier's whole catalogue: every root group of the tenant (PART_OF*0..3 below each root).
        with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
            roots = conn.execute(
                "select product_group_id from marts.dim_product_groups where parent_group_id is null "
                "order by product_group_id"
            ).fetchall()
        groups = [("id", r[0]) for r in roots]
    found: list[Any] = []
    try:
        for selector, group in groups:
            response = graph_find(
                conn,
                ctx,
                FindProductsRequest(
                    supplier_ids=req.supplier_ids, max_depth=req.max_depth, timeout_ms=timeout_ms, limit=1000,
                    **({"group_name": group} if selector == "name" else {"group_id": group}),
                ),
            )
            found.extend(response.products)
    except TraversalTimeoutError as exc:
        raise ToolTimeoutError(str(exc)) from exc
    except (GraphNotFoundError, ResultLimitError) as exc:
        raise ToolFailedError(str(exc)) from exc
    products = tuple(
        ProductRef(
            product_code=p.product_code, product_name=p.product_name, supplier_id=p.supplier_id,
            product_group_id=p.product_group_id, group_path=p.group_path,
            source_chunk_ids=tuple(ref for ref, _ in _edge_sources(p.edges)),
            source_document_ids=tuple(doc for _, doc in _edge_sources(p.edges)),
        )
        for p in {(p.product_code, p.supplier_id): p for p in found}.values()
    )
    return FindProductsToolResponse(
        group_name=req.group_name,
        requested_supplier_ids=tuple(sorted(set(req.supplier_ids))),
        products=products,
        product_codes=tuple(sorted({p.product_code for p in products})),
        supplier_ids=tuple(sorted({p.supplier_id for p in products})),
    )


def _edge_sources(edges: Any) -> list[tuple[str, str]]:
    """(chunk id or record ref, document id) of each edge, first occurrence of each source kept, aligned."""
    return list({(e.provenance.chunk_id or e.provenance.record_ref): e.provenance.document_id for e in edges}.items())


def _spend(
    conn: psycopg.Connection, ctx: AuthContext, env: ToolEnv, timeout_ms: int, metric: str, params: dict[str, Any],
    group_by: tuple[str, ...] = (), grain: str | None = None,
) -> SpendResponse:
    from semantic.errors import MetricTimeoutError, SemanticError
    from semantic.service import MetricService

    base = env.metric_service
    service = MetricService(base.registry, statement_timeout_ms=timeout_ms, row_cap=base.row_cap)
    service.relations = base.relations  # the process's rollup candidates and sizes, not rebuilt per call
    try:
        result = service.query(conn, ctx, metric, params, route="api")
    except MetricTimeoutError as exc:
        raise ToolTimeoutError(str(exc)) from exc
    except SemanticError as exc:
        raise ToolFailedError(str(exc)) from exc
    row = result.rows[0] if result.rows else None
    provenance = row.provenance if row is not None else None
    coverage = result.coverage
    requested = tuple(params.get("supplier_ids") or ())
    breakdown: list[SpendBreakdownRow] = []
    if (group_by or grain) and result.status != "no_data":
        try:
            grouped = service.query(conn, ctx, metric, params, group_by=list(group_by), grain=grain, route="api")
        except MetricTimeoutError as exc:
            raise ToolTimeoutError(str(exc)) from exc
        except SemanticError as exc:
            raise ToolFailedError(str(exc)) from exc
        # Design note: the breakdown is a second governed query, never derived from the total, and the total is
        # never re-added from rounded group values (the presented total stays the exact sum, rounded once).
        # One row per group; with two groupings (e.g. supplier and month) the key joins both values.
        keys = [*group_by, *(["period_start"] if grain else [])]
        breakdown.extend(
            SpendBreakdownRow(
                dimension="+".join(keys),
                key=" ".join(str(r.values.get(k)) for k in keys) if any(r.values.get(k) is not None for k in keys)
                else None,
                total_spend=None if r.values.get("total_spend") is None else str(r.values["total_spend"]),
                matched_line_count=int(r.values.get("matched_line_count") or 0),
            )
            for r in grouped.rows
        )
    return SpendResponse(
        metric=metric,
        status=result.status,
        total_spend=str(row.values["total_spend"]) if row is not None else None,
        currency=result.currency or params["reporting_currency"],
        matched_line_count=int(result.matched_line_count or 0),
        requested_supplier_ids=requested,
        calculated_supplier_ids=coverage.calculated if coverage else (),
        missing_supplier_ids=coverage.missing if coverage else (),
        product_codes=tuple(params["product_codes"]) if params.get("product_codes") else None,
        source_line_ids=provenance.source_line_ids if provenance else (),
        source_line_count=provenance.source_line_count if provenance else 0,
        sources_truncated=provenance.truncated if provenance else False,
        policy=dict(result.policy),
        parameters=dict(result.parameters),
        breakdown=tuple(breakdown),
    )


def aggregate_spend(
    conn: psycopg.Connection, ctx: AuthContext, req: SpendRequest, env: ToolEnv, timeout_ms: int
) -> SpendResponse:
    """``finance.aggregate_spend`` through the metric service (audited, READ ONLY, bound parameters)."""
    if not req.supplier_ids:
        raise ToolFailedError("finance.aggregate_spend: no supplier ids to aggregate over")
    if req.product_group_ids:  # never dropped silently: the category filter is finance.company_spend's
        raise ToolFailedError("finance.aggregate_spend: product_group_ids is served by finance.company_spend only")
    if req.exclude_supplier_ids:  # never dropped silently either: the exclusion is finance.company_spend's
        raise ToolFailedError("finance.aggregate_spend: exclude_supplier_ids is served by finance.company_spend only")
    params: dict[str, Any] = {
        "company_id": req.company_id,
        "supplier_ids": list(req.supplier_ids),
        "start_date": req.start_date.isoformat(),
        "end_date": req.end_date.isoformat(),
        "invoice_statuses": list(req.invoice_statuses),
        "reporting_currency": req.reporting_currency,
    }
    if req.product_codes is not None:
        params["product_codes"] = list(req.product_codes)
    return _spend(conn, ctx, env, timeout_ms, "finance.aggregate_spend", params, req.group_by, req.grain)


def company_spend(
    conn: psycopg.Connection, ctx: AuthContext, req: SpendRequest, env: ToolEnv, timeout_ms: int
) -> SpendResponse:
    """``finance.company_spend``: the company's spend over all suppliers and products."""
    params: dict[str, Any] = {
        "company_id": req.company_id,
        "start_date": req.start_date.isoformat(),
        "end_date": req.end_date.isoformat(),
        "invoice_statuses": list(req.invoice_statuses),
        "reporting_currency": req.reporting_currency,
    }
    if req.product_codes:  # a product named in the question (by code or name)
        params["product_codes"] = list(req.product_codes)
    if req.product_group_ids:  # a category named without a supplier set (no supplier coverage to check)
        params["product_group_ids"] = list(req.product_group_ids)
    if req.exclude_supplier_ids:  # the suppliers left out (e.g. the approved set of an off-contract figure)
        params["exclude_supplier_ids"] = list(req.exclude_supplier_ids)
    return _spend(conn, ctx, env, timeout_ms, "finance.company_spend", params, req.group_by, req.grain)


def _metric(
    conn: psycopg.Connection, ctx: AuthContext, env: ToolEnv, timeout_ms: int, metric: str, params: dict[str, Any],
    *, listing: bool = False, group_by: tuple[str, ...] = (), grain: str | None = None,
) -> MetricToolResponse:
    """Any governed metric through the metric service (audited, READ ONLY, bound parameters), typed for ask."""
    from semantic.errors import MetricTimeoutError, SemanticError
    from semantic.service import MetricService

    base = env.metric_service
    service = MetricService(base.registry, statement_timeout_ms=timeout_ms, row_cap=base.row_cap)
    service.relations = base.relations  # the process's rollup candidates and sizes, not rebuilt per call
    # Parameters left unset take the metric's own defaults (e.g. all companies of the tenant).
    bound = {k: v for k, v in params.items() if v is not None}
    try:
        result = service.query(conn, ctx, metric, bound, group_by=list(group_by), grain=grain, route="api")
    except MetricTimeoutError as exc:
        raise ToolTimeoutError(str(exc)) from exc
    except SemanticError as exc:
        raise ToolFailedError(str(exc)) from exc
    outputs = {c.name: {"type": c.type, "unit": c.unit} for c in result.columns if c.kind == "output"}
    line_ids: list[str] = []
    line_count = 0
    truncated_sources = False
    for row in result.rows:
        if row.provenance is not None:
            line_ids.extend(row.provenance.source_line_ids)
            line_count += row.provenance.source_line_count
            truncated_sources |= row.provenance.truncated
    # A grouping or a grain gives one row per group or period: each row is a figure, never only the first.
    listing = listing or bool(result.group_by) or grain is not None or len(result.rows) > 1
    coverage = result.coverage
    return MetricToolResponse(
        metric=metric,
        status=result.status,
        currency=result.currency,
        outputs=outputs,
        values={} if listing or not result.rows else dict(result.rows[0].values),
        rows=tuple(dict(r.values) for r in result.rows) if listing else (),
        matched_line_count=int(result.matched_line_count or 0),
        requested_keys=coverage.requested if coverage else (),
        calculated_keys=coverage.calculated if coverage else (),
        missing_keys=coverage.missing if coverage else (),
        source_line_ids=tuple(dict.fromkeys(line_ids)),
        source_line_count=line_count,
        sources_truncated=truncated_sources,
        truncated=result.truncated,
        policy=dict(result.policy),
        parameters=dict(result.parameters),
    )


def unit_price(
    conn: psycopg.Connection, ctx: AuthContext, req: UnitPriceRequest, env: ToolEnv, timeout_ms: int
) -> MetricToolResponse:
    """``catalog.unit_price`` for one product and month."""
    return _metric(conn, ctx, env, timeout_ms, "catalog.unit_price", {
        "product_code": req.product_code, "month": req.month, "company_id": req.company_id,
        "invoice_statuses": list(req.invoice_statuses), "reporting_currency": req.reporting_currency,
    })


def tax_total(
    conn: psycopg.Connection, ctx: AuthContext, req: TaxTotalRequest, env: ToolEnv, timeout_ms: int
) -> MetricToolResponse:
    """``finance.tax_total`` over the named invoices."""
    return _metric(conn, ctx, env, timeout_ms, "finance.tax_total", {
        "invoice_numbers": list(req.invoice_numbers), "company_id": req.company_id,
        "invoice_statuses": list(req.invoice_statuses), "reporting_currency": req.reporting_currency,
    })


def units_purchased(
    conn: psycopg.Connection, ctx: AuthContext, req: UnitsPurchasedRequest, env: ToolEnv, timeout_ms: int
) -> MetricToolResponse:
    """``finance.units_purchased`` from one supplier in the period."""
    return _metric(conn, ctx, env, timeout_ms, "finance.units_purchased", {
        "supplier_id": req.supplier_id, "start_date": req.start_date.isoformat(),
        "end_date": req.end_date.isoformat(), "company_id": req.company_id,
        "invoice_statuses": list(req.invoice_statuses),
    })


def _threshold(metric: str) -> Callable[..., MetricToolResponse]:
    def run(
        conn: psycopg.Connection, ctx: AuthContext, req: ThresholdRequest, env: ToolEnv, timeout_ms: int
    ) -> MetricToolResponse:
        return _metric(conn, ctx, env, timeout_ms, metric, {
            "threshold": req.threshold, "start_date": req.start_date.isoformat(),
            "end_date": req.end_date.isoformat(), "company_id": req.company_id,
            "invoice_statuses": list(req.invoice_statuses), "reporting_currency": req.reporting_currency,
            **({"inclusive": True} if req.inclusive else {}),
            **({"direction": req.direction} if req.direction != "above" else {}),
            **({"supplier_ids": list(req.supplier_ids)} if req.supplier_ids else {}),
            **({"exclude_supplier_ids": list(req.exclude_supplier_ids)} if req.exclude_supplier_ids else {}),
            **({"upper_threshold": req.upper_threshold} if req.upper_threshold is not None else {}),
            **({"upper_inclusive": True} if req.upper_threshold is not None and req.upper_inclusive else {}),
            **({"document_currency": req.document_currency} if req.document_currency else {}),
        }, listing=True)

    run.__doc__ = f"``{metric}`` in the period."
    return run


def documents_search(
    conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest, env: ToolEnv, timeout_ms: int
) -> DocumentSearchResponse:
    """Hybrid retrieval (``retrieval.search``) with every chunk screened for injection patterns."""
    search = env.search
    if search is None:
        raise ToolFailedError("documents.search: the retrieval service is not available")
    raw = search(conn, ctx, req, env.embedder, timeout_ms)
    chunks = []
    for item in raw:
        markers = screen(item.text)
        if item.flagged_injection and not markers:
            markers = ("retrieval_flag",)
        chunks.append(item.model_copy(update={"flagged_injection": bool(markers), "injection_markers": markers}))
    return DocumentSearchResponse(
        chunks=tuple(chunks), flagged_chunk_ids=tuple(c.chunk_id for c in chunks if c.flagged_injection)
    )


def _stated(price: Decimal) -> str:
    """A catalogue price as the catalogue writes it: two decimals unless the view holds more (never rounded)."""
    return str(price.quantize(Decimal("0.01")) if price == price.quantize(Decimal("0.01")) else price.normalize())


def list_price(
    conn: psycopg.Connection, ctx: AuthContext, req: ListPriceRequest, env: ToolEnv, timeout_ms: int
) -> ListPriceResponse:
    """``catalog.list_price``: the list price and currency of each product in ``marts.dim_products`` (RLS-scoped).

    The catalogue's stated price, not what was paid: invoices are never read here."""
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        rows = conn.execute(
            "select product_code, product_name, supplier_id, list_price, currency, source_document_id "
            "from marts.dim_products where product_code = any(%s) order by product_code, supplier_id",
            (list(req.product_codes),),
        ).fetchall()
    products = tuple(ListPriceRef(product_code=r[0], product_name=r[1], supplier_id=r[2], list_price=_stated(r[3]),
                                  currency=r[4], source_document_id=r[5]) for r in rows)
    found = {p.product_code for p in products}
    return ListPriceResponse(products=products,
                             missing_product_codes=tuple(c for c in req.product_codes if c not in found))


def check_completeness(upstream: Mapping[str, BaseModel | None]) -> CompletenessResponse:
    """Completeness of the run from its dependencies' typed outputs (no database)."""
    notes: list[str] = []
    spend = next((r for r in upstream.values() if isinstance(r, SpendResponse)), None)
    vendors = next((r for r in upstream.values() if isinstance(r, ApprovedVendorsToolResponse)), None)
    products = next((r for r in upstream.values() if isinstance(r, FindProductsToolResponse)), None)
    priced = next((r for r in upstream.values() if isinstance(r, ListPriceResponse)), None)
    if priced is not None:
        # a product named but not in the catalogue is said, never priced from invoices instead
        if not priced.products:
            return CompletenessResponse(status="not_found", notes=(*notes, "no named product in the catalogue"))
        return CompletenessResponse(status="partial" if priced.missing_product_codes else "complete",
                                    notes=tuple(notes))
    documents = [r for r in upstream.values() if isinstance(r, DocumentSearchResponse)]
    metrics = [r for r in upstream.values() if isinstance(r, MetricToolResponse)]
    missing_steps = [name for name, r in upstream.items() if r is None]
    for name in missing_steps:
        notes.append(f"step {name} returned no result")
    if metrics and spend is None:
        missing_keys = tuple(k for m in metrics for k in m.missing_keys)
        if missing_keys:
            notes.append("no validated invoice lines for: " + ", ".join(missing_keys))
        if all(m.status == "no_data" for m in metrics):
            return CompletenessResponse(status="no_data", notes=(*notes, "no validated invoice line matched"))
        partial = bool(missing_steps) or any(m.status != "complete" for m in metrics)
        return CompletenessResponse(status="partial" if partial else "complete", notes=tuple(notes))
    if spend is not None:
        if spend.status == "no_data":
            return CompletenessResponse(status="no_data", missing_supplier_ids=spend.requested_supplier_ids,
                                        notes=(*notes, "no validated invoice line matched"))
        status: Literal["complete", "partial"] = "partial" if spend.missing_supplier_ids else "complete"
        if spend.missing_supplier_ids:
            notes.append("no validated invoice lines for: " + ", ".join(spend.missing_supplier_ids))
        return CompletenessResponse(
            status=status, calculated_supplier_ids=spend.calculated_supplier_ids,
            missing_supplier_ids=spend.missing_supplier_ids, notes=tuple(notes),
        )
    if vendors is not None:
        if not vendors.supplier_ids:
            return CompletenessResponse(status="not_found", notes=(*notes, "no approval overlaps the period"))
        return CompletenessResponse(status="complete", calculated_supplier_ids=vendors.supplier_ids, notes=tuple(notes))
    if products is not None:
        if not products.products:
            return CompletenessResponse(status="not_found", notes=(*notes, "no product in the group"))
        return CompletenessResponse(status="complete", notes=tuple(notes))
    if documents:
        usable = [c for d in documents for c in d.chunks if not c.flagged_injection]
        if not usable:
            return CompletenessResponse(status="not_found", notes=(*notes, "no passage found"))
        return CompletenessResponse(status="partial" if missing_steps else "complete", notes=tuple(notes))
    return CompletenessResponse(status="not_found", notes=tuple(notes))


@dataclass(frozen=True)
class ToolSpec:
    """How the executor runs one tool."""

    name: ToolName
    request: type[BaseModel]
    response: type[BaseModel]
    scope: str
    timeout_ms: int
    result_cap: int
    retries_on_timeout: int
    run: Callable[..., BaseModel] | None


TOOLS: Mapping[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("entity.resolve_company", ResolveCompanyRequest, ResolveCompanyResponse, "procurement:read", 2000,
                 1, 1, resolve_company),
        ToolSpec("graph.find_approved_vendors", ApprovedVendorsToolRequest, ApprovedVendorsToolResponse,
                 "procurement:read", 5000, 200, 1, find_approved_vendors),
        ToolSpec("catalog.find_products", FindProductsToolRequest, FindProductsToolResponse, "procurement:read", 5000,
                 1000, 1, find_products),
        ToolSpec("finance.aggregate_spend", SpendRequest, SpendResponse, "invoice:aggregate", 5000, 1, 1,
                 aggregate_spend),
        ToolSpec("finance.company_spend", SpendRequest, SpendResponse, "invoice:aggregate", 5000, 1, 1,
                 company_spend),
        ToolSpec("catalog.unit_price", UnitPriceRequest, MetricToolResponse, "procurement:read", 5000, 1, 1,
                 unit_price),
        ToolSpec("catalog.list_price", ListPriceRequest, ListPriceResponse, "procurement:read", 5000, 20, 1,
                 list_price),
        ToolSpec("finance.tax_total", TaxTotalRequest, MetricToolResponse, "invoice:aggregate", 5000, 1, 1,
                 tax_total),
        ToolSpec("finance.units_purchased", UnitsPurchasedRequest, MetricToolResponse, "invoice:aggregate", 5000, 1,
                 1, units_purchased),
        ToolSpec("finance.invoices_above_threshold", ThresholdRequest, MetricToolResponse, "invoice:aggregate", 5000,
                 500, 1, _threshold("finance.invoices_above_threshold")),
        # Any catalog metric by name (one added in YAML only); the metric service checks the metric's own scope.
        ToolSpec("metrics.query", MetricQueryToolRequest, MetricToolResponse, "procurement:read", 5000, 500, 1,
                 query_metric),
        ToolSpec("documents.search", DocumentSearchRequest, DocumentSearchResponse, "procurement:read", 5000, 50, 1,
                 documents_search),
        ToolSpec("validation.check_completeness", CompletenessRequest, CompletenessResponse, "procurement:read", 1000,
                 1, 0, None),
    )
}


def result_size(response: BaseModel) -> int:
    """The number of records a response carries (for the result-size cap)."""
    for name in ("approvals", "products", "chunks", "rows"):
        value = getattr(response, name, None)
        if isinstance(value, tuple):
            return len(value)
    return 1
