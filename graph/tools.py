"""Typed, bounded traversal tools over a tenant's knowledge graph (the serving side, role ``procura_app``).

Every tool takes a connection of the serving role and an :class:`AuthContext`; the graph is the context's
tenant's and nothing else (no tool accepts a graph name). Each call runs in one read-only tenant transaction
with a statement timeout, uses fixed Cypher templates (values as AGE parameters, relationship types and depths
from allow-lists) and a result-size cap, and returns canonical ids with the provenance of every edge used.

Version safety: besides the sync keeping the graph at the served versions, each template checks every edge
(and vertex) it touches against the tenant's *active* document versions, read in the same transaction from
``ingest.documents`` (RLS-scoped); variable-length ``PART_OF`` paths are checked edge by edge after the query,
because AGE 1.5 has no list predicates (``all()``) to do it inside Cypher.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, model_validator

from graph.age import (
    CypherCall,
    CypherQuery,
    GraphName,
    cypher_errors,
    fetch_cypher_many,
    fetch_sent,
    graph_name_for,
    prepare_age_transaction,
    send_cypher,
)
from graph.agtype import Edge, Vertex, parse_agtype, parse_agtype_values
from graph.errors import GraphNotFoundError, ResultLimitError
from graph.extract import GRAPH_DOCUMENT_TYPES
from graph.schema import GRAPH_SCHEMA_VERSION, ID_PATTERN, Provenance, RelationType, source_key
from procura.db.session import AuthContext, idle_autocommit, scope_statement, tenant_transaction
from procura.errors import AuthorizationError

CanonicalId = Annotated[str, StringConstraints(pattern=ID_PATTERN.pattern)]
GroupName = Annotated[str, StringConstraints(min_length=1, max_length=200)]

#: Depths a PART_OF traversal may use (the architecture's bound is 0..3).
ALLOWED_PART_OF_DEPTHS = (0, 1, 2, 3)
DEFAULT_TIMEOUT_MS = 5000
MAX_RESULT_ROWS = 1000

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class _Request(BaseModel):
    model_config = _FROZEN

    limit: int = Field(default=200, ge=1, le=MAX_RESULT_ROWS, description="Result-size cap; more rows is an error.")
    timeout_ms: int = Field(default=DEFAULT_TIMEOUT_MS, ge=10, le=60_000)


class _Period(_Request):
    start_date: dt.date = Field(description="Start of the half-open period [start_date, end_date).")
    end_date: dt.date

    @model_validator(mode="after")
    def _ordered(self) -> _Period:
        if self.end_date <= self.start_date:
            raise ValueError(f"end_date {self.end_date} must be after start_date {self.start_date}")
        return self


class ApprovedVendorsRequest(_Period):
    """Approved vendors of a company whose approval overlaps ``[start_date, end_date)``."""

    company_id: CanonicalId


class Approval(BaseModel):
    """One approval (APPROVED_VENDOR edge) with its validity and provenance."""

    model_config = _FROZEN

    approval_id: str
    agreement_id: str
    valid_from: dt.date
    valid_to: dt.date | None
    scope: str | None
    provenance: Provenance


class ApprovedVendor(BaseModel):
    """A supplier approved in the period, with every overlapping approval."""

    model_config = _FROZEN

    supplier_id: str
    supplier_name: str
    approvals: tuple[Approval, ...]


class ApprovedVendorsResponse(BaseModel):
    """The answer of :func:`find_approved_vendors`."""

    model_config = _FROZEN

    company_id: str
    start_date: dt.date
    end_date: dt.date
    vendors: tuple[ApprovedVendor, ...]
    graph_schema_version: str = GRAPH_SCHEMA_VERSION

    @property
    def supplier_ids(self) -> tuple[str, ...]:
        """The canonical supplier ids, sorted."""
        return tuple(v.supplier_id for v in self.vendors)


class FindProductsRequest(_Request):
    """Products of the given suppliers under a product group (by name or id), via PART_OF*0..max_depth."""

    supplier_ids: tuple[CanonicalId, ...] = Field(min_length=1, max_length=200)
    group_name: GroupName | None = None
    group_id: CanonicalId | None = None
    max_depth: Literal[0, 1, 2, 3] = 3

    @model_validator(mode="after")
    def _one_group(self) -> FindProductsRequest:
        if (self.group_name is None) == (self.group_id is None):
            raise ValueError("give exactly one of group_name or group_id")
        return self


class GraphEdgeRef(BaseModel):
    """An edge an answer depends on: type, endpoints, own properties and provenance."""

    model_config = _FROZEN

    type: RelationType
    source_id: str
    target_id: str
    properties: dict[str, str | int | bool]
    provenance: Provenance


class ProductHit(BaseModel):
    """A product supplied by one of the suppliers and in the group's subtree."""

    model_config = _FROZEN

    product_code: str
    product_name: str
    supplier_id: str
    product_group_id: str
    group_path: tuple[str, ...] = Field(description="Group ids from the product's group up to the requested group.")
    edges: tuple[GraphEdgeRef, ...] = Field(description="SUPPLIES, BELONGS_TO and PART_OF edges of the path.")


class FindProductsResponse(BaseModel):
    """The answer of :func:`find_products`."""

    model_config = _FROZEN

    supplier_ids: tuple[str, ...]
    group_name: str | None
    group_id: str | None
    products: tuple[ProductHit, ...]
    graph_schema_version: str = GRAPH_SCHEMA_VERSION

    @property
    def product_codes(self) -> tuple[str, ...]:
        """The distinct product codes, sorted."""
        return tuple(sorted({p.product_code for p in self.products}))


class ApprovalPathRequest(_Period):
    """Explain an approved-vendor answer: Company -APPROVED_VENDOR-> Supplier -GOVERNED_BY-> Agreement."""

    kind: Literal["approved_vendor"] = "approved_vendor"
    company_id: CanonicalId
    supplier_id: CanonicalId


class ProductPathRequest(_Request):
    """Explain a product answer: Supplier -SUPPLIES-> Product -BELONGS_TO-> Group -PART_OF*0..3-> Group."""

    kind: Literal["product_in_group"] = "product_in_group"
    supplier_id: CanonicalId
    product_code: CanonicalId
    group_name: GroupName | None = None
    group_id: CanonicalId | None = None
    max_depth: Literal[0, 1, 2, 3] = 3

    @model_validator(mode="after")
    def _one_group(self) -> ProductPathRequest:
        if (self.group_name is None) == (self.group_id is None):
            raise ValueError("give exactly one of group_name or group_id")
        return self


PathRequest = Annotated[ApprovalPathRequest | ProductPathRequest, Field(discriminator="kind")]


class PathNode(BaseModel):
    """A vertex on a path."""

    model_config = _FROZEN

    label: str
    id: str
    name: str | None
    provenance: Provenance


class GraphPath(BaseModel):
    """A path from the answer's start to its end, with provenance on every vertex and edge."""

    model_config = _FROZEN

    nodes: tuple[PathNode, ...]
    edges: tuple[GraphEdgeRef, ...]

    @property
    def sources(self) -> tuple[str, ...]:
        """Distinct chunk ids (or record refs) the path rests on, for citation."""
        seen: dict[str, None] = {}
        for edge in self.edges:
            seen.setdefault(edge.provenance.chunk_id or edge.provenance.record_ref, None)
        return tuple(seen)


class PathResponse(BaseModel):
    """The answer of :func:`path_with_provenance`: every active path that supports the answer."""

    model_config = _FROZEN

    request: ApprovalPathRequest | ProductPathRequest
    paths: tuple[GraphPath, ...]
    graph_schema_version: str = GRAPH_SCHEMA_VERSION


# --- Cypher templates (module constants; the only Cypher the serving side runs) ---------------------------

_APPROVED_VENDORS = CypherQuery(
    "find_approved_vendors",
    """
    MATCH (c:Company {id: $company_id})-[approval:APPROVED_VENDOR]->(s:Supplier)
    WHERE approval.valid_from < $end_date
      AND (approval.valid_to IS NULL OR approval.valid_to > $start_date)
    RETURN s.id, s.name, approval, s.source_key, c.source_key
    """,
    ("supplier_id", "supplier_name", "approval", "supplier_source_key", "company_source_key"),
)


#: Supplier-id slots of the product templates: a request's suppliers use the smallest template with enough slots.
#: None has one slot: AGE compiles a lone ``s.id = $supplier_ids[0]`` inside an AND to a boolean cast to agtype,
#: which no index serves and the planner cannot estimate, so one supplier at 25,000 products read the whole
#: BELONGS_TO label (147 ms, measured); two slots make it an OR of indexed equalities (0.3 ms).
SUPPLIER_SLOTS = (2, 4, 8, 16, 32, 64, 128, 200)
#: Groups a subtree may have (the whole forest of the benchmark's largest catalog has 524).
MAX_SUBTREE_GROUPS = 10_000


def _subtree_query(selector: Literal["name", "id"], depth: int) -> CypherQuery:
    """Every group within ``depth`` PART_OF steps below the root group, each with the edge of its last step.

    Design note: ``(g)-[:PART_OF*0..3]->(root)`` is a variable-length pattern, which AGE 1.5 runs through
    ``age_vle``: per transaction it loads the whole graph into memory before the first step (65 ms of the 118 ms
    of the old query at 25,000 products, growing with the graph, measured). A bounded depth is a union of
    fixed-length patterns, which plan as index lookups on the label tables (``<label>_gid``, ``*_start_id``,
    ``*_end_id``, ``<label>_name``). Each branch returns only the edge of its last step (its property map; the
    root's branch none): the edges up to the root are those of the groups above, and :func:`_part_of_paths`
    walks them. Returning every branch's whole edge list cost 355 property maps instead of 130 at 25,000
    products, and AGE builds and prints each map (the list form took 6.0 ms against 4.0 ms, measured). The group
    of a row below the root is its edge's ``source_id`` (see :func:`subtree_group_ids`): reading ``g.id`` as
    well built each group vertex once more (about 0.15 ms of the statement's 1.1 ms, measured).
    """
    if depth not in ALLOWED_PART_OF_DEPTHS:
        raise ValueError(f"depth {depth} is not allowed")
    branches = []
    for steps in range(depth + 1):
        hops = "".join(f"<-[e{i}:PART_OF]-(g{i}:ProductGroup)" for i in range(1, steps + 1))
        returned = f"null, properties(e{steps})" if steps else "root.id, null"
        branches.append(f"MATCH (root:ProductGroup){hops} WHERE root.{selector} = $group RETURN {returned}")
    return CypherQuery(f"product_subtree_by_{selector}_{depth}", "\nUNION ALL\n".join(branches),
                       ("root_id", "parent_edge"))  # fmt: skip


def subtree_group_ids(subtree: Sequence[Any]) -> list[str]:
    """The group ids of a subtree statement's parsed rows, as one flat list ``[root id or None, parent edge map or
    None, ...]``: a root's own id, or the ``source_id`` of the PART_OF edge a group was reached by."""
    return [subtree[i] if subtree[i] is not None else subtree[i + 1]["source_id"] for i in range(0, len(subtree), 2)]


def _edge_key(props: Mapping[str, Any]) -> tuple[Any, ...]:
    """An edge's identity among property maps: its sync key (``TYPE|source|target|qualifier|document#vN``)."""
    return ("key", props["key"]) if props.get("key") else ("props", tuple(sorted(map(str, props.items()))))


def _part_of_paths(
    group: str, roots: set[str], parents: Mapping[str, Sequence[dict[str, Any]]], depth: int
) -> list[list[dict[str, Any]]]:
    """Every PART_OF path (edge property maps, from ``group`` up) that ends at a root within ``depth`` steps
    without using an edge twice, shortest first: the rows the union of fixed-length patterns gave per group.

    ``parents`` maps a group to the PART_OF edges from it that the subtree statement returned; every edge of such
    a path is among them (the path's suffix from the edge up is a fixed-length pattern of its own).
    """
    found: list[list[dict[str, Any]]] = []

    def walk(node: str, path: list[dict[str, Any]], used: frozenset[tuple[Any, ...]]) -> None:
        if node in roots:
            found.append(path)
        if len(path) == depth:
            return
        for edge in parents.get(node, ()):
            key = _edge_key(edge)
            if key not in used:
                walk(edge["target_id"], [*path, edge], used | {key})

    walk(group, [], frozenset())
    return sorted(found, key=len)


def _supplier_products_query(slots: int) -> CypherQuery:
    """Products of up to ``slots`` suppliers whose group is a key of the map ``$groups`` (the subtree).

    Design note: each clause is what keeps this statement on index lookups, measured at 25,000 products:

    * ``s.id IN $supplier_ids`` compiles to a function call the planner can neither estimate (it assumes a
      third of the suppliers) nor serve from an index, so it hash-joined the whole SUPPLIES and BELONGS_TO
      labels. One equality per slot (``s.id = $supplier_ids[i]``; a slot past the end of the list is null and
      matches nothing) is a bitmap OR of ``supplier_id`` lookups, estimated right; a few fixed templates (one
      per slot count) keep the plans few.
    * The subtree as a map, ``$groups[belongs.target_id] IS NOT NULL``: a key lookup per row, where
      ``IN $group_ids`` scans the list per row (twice the statement's time with a subtree of 131 groups). It
      tests the edge's target id, not the group vertex: on the vertex the planner took the test for a selective
      one (3 of 524 groups) and started from the groups, reading every product below them (35 ms instead of
      3 ms at 5,000 products). ``IS NOT NULL`` rather than ``= true`` (the same rows: the map's values are all
      true, a missing key is null) because the planner cannot estimate either and takes the default of its
      test: 0.5% for an equality, which made the BELONGS_TO label look like the best place to start (a
      sequential scan of it: 80 ms instead of 3 ms at 5,000 products with a generic plan; with custom plans
      983 ms instead of 273 ms for 200 suppliers at 25,000 products), 99.5% for ``IS NOT NULL``, which leaves
      the suppliers' indexed equalities to drive the plan. The plan then no longer depends on the values,
      so it is generic like the subtree's (planned once per connection, not per call: 0.8-0.9 ms of planning
      saved at 25,000 products; the same plan shapes as custom plans at 5,000 and 25,000 products for 1 to
      50 suppliers, and at 500 products both read the small labels whole, measured).
    * The group vertex stays unnamed: its label keeps the join to one label table's ``<label>_gid``.
    * The subtree filters the rows before anything is returned: AGE builds a whole vertex or edge for every
      property it returns, so returning the suppliers' products unfiltered and joining them with the subtree in
      SQL cost more than a second round trip (2.1x against 1.75x the recursive CTE, measured).
    * No ORDER BY (its sort key builds every vertex) and no LIMIT (the caller reads one row more than its cap);
      the caller sorts the rows it keeps.
    * Each property read off a vertex or edge builds the whole vertex or edge again (``s.id``, ``p.code``,
      ``belongs.target_id`` were three more builds per row); the supplier id, product code and group id are the
      ``source_id``/``target_id`` of the two edges' property maps, which the answer returns anyway (5.3 against
      6.8 ms for the statement at 25,000 products, measured).
    """
    suppliers = " OR ".join(f"s.id = $supplier_ids[{i}]" for i in range(slots))
    return CypherQuery(
        f"supplier_products_{slots}",
        f"""
        MATCH (s:Supplier)-[supplies:SUPPLIES]->(p:Product)-[belongs:BELONGS_TO]->(:ProductGroup)
        WHERE ({suppliers}) AND $groups[belongs.target_id] IS NOT NULL
        RETURN p.name, p.source_key, properties(supplies), properties(belongs)
        """,
        _PRODUCT_COLUMNS,
    )


_SELECTORS: tuple[Literal["name", "id"], ...] = ("name", "id")
_PRODUCT_COLUMNS = ("product_name", "product_source_key", "supplies", "belongs")

_SUBTREE_QUERIES: Mapping[tuple[str, int], CypherQuery] = {
    (selector, depth): _subtree_query(selector, depth) for selector in _SELECTORS for depth in ALLOWED_PART_OF_DEPTHS
}
_SUPPLIER_PRODUCT_QUERIES: Mapping[int, CypherQuery] = {n: _supplier_products_query(n) for n in SUPPLIER_SLOTS}


def _slots(supplier_count: int) -> int:
    """The fewest supplier slots of a template that hold ``supplier_count`` suppliers."""
    for slots in SUPPLIER_SLOTS:
        if supplier_count <= slots:
            return slots
    raise ValueError(f"at most {SUPPLIER_SLOTS[-1]} suppliers per call, not {supplier_count}")


def supplier_products_query(supplier_count: int) -> CypherQuery:
    """The product template with the fewest supplier slots that hold ``supplier_count`` suppliers."""
    return _SUPPLIER_PRODUCT_QUERIES[_slots(supplier_count)]


def subtree_query(selector: Literal["name", "id"], depth: int) -> CypherQuery:
    """The subtree template for a group selected by ``selector`` and a PART_OF depth from the allow-list."""
    return _SUBTREE_QUERIES[(selector, depth)]


_APPROVAL_PATH = CypherQuery(
    "approval_path",
    """
    MATCH (c:Company {id: $company_id})-[approval:APPROVED_VENDOR]->(s:Supplier {id: $supplier_id})
    WHERE approval.valid_from < $end_date
      AND (approval.valid_to IS NULL OR approval.valid_to > $start_date)
    MATCH (s)-[governed:GOVERNED_BY]->(a:Agreement)
    WHERE governed.approval_id = approval.approval_id
    RETURN c, approval, s, governed, a
    ORDER BY approval.approval_id
    """,
    ("company", "approval", "supplier", "governed", "agreement"),
)


def _product_path_query(selector: Literal["name", "id"], depth: int) -> CypherQuery:
    # Design note: still the variable-length pattern (age_vle). As a union of fixed-length patterns (as
    # _subtree_query) each branch joins up to eleven label tables, and planning the four branches took 9 s under
    # row-level security, measured; one product's explanation is not on the hot path the benchmark measures.
    root = "{name: $group}" if selector == "name" else "{id: $group}"
    return CypherQuery(
        f"product_path_by_{selector}_{depth}",
        f"""
        MATCH (s:Supplier {{id: $supplier_id}})-[supplies:SUPPLIES]->(p:Product {{id: $product_code}})
              -[belongs:BELONGS_TO]->(g:ProductGroup)
        MATCH path = (g)-[:PART_OF*0..{depth}]->(root:ProductGroup {root})
        RETURN s, supplies, p, belongs, path
        """,
        ("supplier", "supplies", "product", "belongs", "path"),
    )


_PRODUCT_PATH_QUERIES: Mapping[tuple[str, int], CypherQuery] = {
    (selector, depth): _product_path_query(selector, depth)
    for selector in _SELECTORS
    for depth in ALLOWED_PART_OF_DEPTHS
}


# --- plumbing ---------------------------------------------------------------------------------------------


#: ``plan_cache_mode`` of a transaction whose Cypher statements are prepared (see :func:`_graph_read`); None
#: keeps the session's.
_PLAN_CACHE_MODES = {True: "force_generic_plan", False: None}


@contextmanager
def _graph_read(
    conn: psycopg.Connection, ctx: AuthContext, timeout_ms: int, *, generic_plans: bool = False
) -> Iterator[tuple[GraphName, list[str]]]:
    """A read-only tenant transaction prepared for AGE, the tenant's graph, and its active version keys.

    ``generic_plans=True`` is for a tool whose statements are prepared (``CypherCall(prepare=True)``): the
    transaction's ``plan_cache_mode`` is ``force_generic_plan``, so a statement is planned once per connection
    and then only executed. Design note: planning is most of a bounded traversal's cost in AGE (every label
    table a pattern names is one more relation with its row-level policy; the subtree statement planned in
    8 ms and ran in 4 ms at 25,000 products, measured), and Postgres's default would keep planning custom
    plans whenever a generic plan's estimate looks worse, which it does for the parameter map's lookups.
    """
    graph_name_for(ctx)  # refuses anything but an authenticated context, before any SQL
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        prepare_age_transaction(conn)
        # One round trip for the registry and the active versions, both under row-level security (this
        # tenant's rows only; the explicit filters document the intent), and the plan cache mode (local to the
        # transaction). The registry names the graph: a graph created before names were opaque keeps its old
        # name until graph.age.ensure_graph renames it.
        rows = conn.execute(
            _REGISTRY_SQL, (_PLAN_CACHE_MODES[generic_plans], _GRAPH_DOCUMENT_TYPES, ctx.tenant_id)
        ).fetchall()
        yield _registered(ctx, rows)


#: The graph's registry row and the active versions of the documents that feed the graph: a vertex or edge carries
#: the source key of one of those (``graph.extract.GRAPH_DOCUMENT_TYPES``), so the tenant's other documents
#: (invoices: 109 of tenant-42's 116 in the demo corpus, growing with it) would only travel and be keyed here
#: on every call for nothing.
_REGISTRY_SQL = """
select t.graph_name, d.document_id, d.active_version
from (select set_config('plan_cache_mode', coalesce(%s, current_setting('plan_cache_mode')), true)) as plan_cache
cross join graph.tenant_graphs t
left join ingest.documents d
    on d.tenant_id = t.tenant_id and d.active_version is not null and not d.is_deleted
    and d.document_type = any(%s::text[])
where t.tenant_id = %s
"""
_GRAPH_DOCUMENT_TYPES = sorted(GRAPH_DOCUMENT_TYPES)


def _registered(ctx: AuthContext, rows: Sequence[tuple[Any, ...]]) -> tuple[GraphName, list[str]]:
    """The registered graph and the active version keys, from the rows of :data:`_REGISTRY_SQL`."""
    if not rows:
        raise GraphNotFoundError(f"tenant {ctx.tenant_id!r} has no knowledge graph yet")
    graph = GraphName(rows[0][0], ctx.tenant_id)
    return graph, sorted(source_key(doc_id, version) for _, doc_id, version in rows if doc_id is not None)


def _find_products_rows(
    conn: psycopg.Connection, ctx: AuthContext, request: FindProductsRequest, suppliers: list[str]
) -> tuple[list[str], list[Any], list[Any]]:
    """The active version keys, the subtree and the product rows of :func:`find_products`, parsed: the subtree as
    one flat list ``[root id or None, parent edge map or None, ...]`` (see :func:`subtree_group_ids`), the
    products as one flat list of ``_PRODUCT_COLUMNS`` cells per row.

    Design note: two network round trips for the one read-only transaction. The first carries BEGIN, the tenant
    scope, the registry (with the plan cache mode) and the subtree; the second the products (which need the
    subtree) and COMMIT. Both statements are prepared with generic plans (``force_generic_plan``, local to the
    transaction): their plans do not depend on the values (see ``_subtree_query``, ``_supplier_products_query``)
    and are made once per connection. Each round trip is a wake-up of the server and of this process, which on
    a loaded machine cost about 1 ms apiece (measured: the recursive CTE took 4.1 ms alone and 8.2 ms with two
    more statements in a transaction, load average 9 on 2 cores); the statements one by one took five. The
    subtree runs on the graph derived from the tenant (:func:`graph_name_for`); when the registry names another
    one (a graph from before names were opaque, until it is renamed), the call runs again, one statement at a
    time, on the registered graph.
    """
    derived = graph_name_for(ctx)  # refuses anything but an authenticated context, before any SQL
    selector: Literal["name", "id"] = "name" if request.group_name is not None else "id"
    group = request.group_name if selector == "name" else request.group_id
    subtree_call = CypherCall(subtree_query(selector, request.max_depth), {"group": group}, MAX_SUBTREE_GROUPS,
                              prepare=True)  # fmt: skip

    def products_call(subtree: list[Any]) -> CypherCall:
        return CypherCall(supplier_products_query(len(suppliers)),
                          {"supplier_ids": suppliers, "groups": dict.fromkeys(subtree_group_ids(subtree), True)},
                          request.limit, prepare=True)  # fmt: skip

    def one_at_a_time() -> tuple[list[str], list[Any], list[Any]]:
        with _graph_read(conn, ctx, request.timeout_ms, generic_plans=True) as (graph, active_keys):
            (subtree_rows,) = fetch_cypher_many(conn, graph, [subtree_call])
            subtree = _parse_values(cell for row in subtree_rows for cell in row)
            if not subtree:
                return active_keys, subtree, []
            (rows,) = fetch_cypher_many(conn, graph, [products_call(subtree)])
        return active_keys, subtree, _parse_values(cell for row in rows for cell in row)

    if not idle_autocommit(conn):
        return one_at_a_time()  # tenant_transaction refuses it, with the error callers expect
    registry = conn.cursor()
    products: tuple[CypherCall, psycopg.Cursor[Any]] | None = None
    try:
        with conn.pipeline(), conn.transaction():
            _send_scope(conn, ctx, registry, request.timeout_ms, _PLAN_CACHE_MODES[True])
            subtree_rows = fetch_sent(derived, subtree_call, send_cypher(conn, derived, subtree_call))  # syncs
            graph, active_keys = _registered(ctx, registry.fetchall())
            subtree = _parse_values(cell for row in subtree_rows for cell in row)
            if graph == derived and subtree:
                call = products_call(subtree)
                products = (call, send_cypher(conn, graph, call))  # read after COMMIT, in the same round trip
        rows = fetch_sent(graph, *products) if products is not None else []
    except psycopg.errors.InsufficientPrivilege as exc:
        raise AuthorizationError(str(exc.diag.message_primary or exc)) from exc
    finally:
        registry.close()
    if graph != derived:
        return one_at_a_time()
    return active_keys, subtree, _parse_values(cell for row in rows for cell in row)


def _send_scope(conn: psycopg.Connection, ctx: AuthContext, registry: psycopg.Cursor[Any], timeout_ms: int,
                plan_cache_mode: str | None) -> None:
    """The pipelined transaction's opening: the tenant scope, AGE's per-transaction setup and the registry query
    (graph name and active versions, read from ``registry`` once the pipeline syncs)."""
    conn.execute(*scope_statement(ctx, read_only=True, statement_timeout_ms=timeout_ms), prepare=False)
    prepare_age_transaction(conn)
    registry.execute(_REGISTRY_SQL, (plan_cache_mode, _GRAPH_DOCUMENT_TYPES, ctx.tenant_id), prepare=False)


#: Rows a single-statement tool reads before its own checks (active versions, then ``request.limit``): the
#: statement has no LIMIT, since rows of inactive versions are dropped only after it (see :func:`_read_once`).
MAX_SCANNED_ROWS = 10_000


def _read_once(
    conn: psycopg.Connection, ctx: AuthContext, timeout_ms: int, call: CypherCall
) -> tuple[list[str], list[dict[str, Any]]]:
    """The active version keys and the parsed rows of one prepared Cypher call, in one network round trip.

    Design note: BEGIN, the tenant scope, the registry (graph name and active versions), the statement and COMMIT
    travel in one pipeline, as ``_find_products_rows``' first round trip does. The statement cannot take the
    active version keys as a parameter (they arrive in the same round trip), so it returns every version's rows
    and the caller drops the inactive ones; the statements one by one took four or five round trips. A
    connection inside a transaction, or a tenant whose registered graph is not the derived name (a graph from
    before names were opaque), runs the statements one at a time as before.
    """
    derived = graph_name_for(ctx)  # refuses anything but an authenticated context, before any SQL

    def parsed(rows: Sequence[tuple[str | None, ...]]) -> list[dict[str, Any]]:
        return [dict(zip(call.query.columns, _parse_cells(row), strict=True)) for row in rows]

    def one_at_a_time() -> tuple[list[str], list[dict[str, Any]]]:
        with _graph_read(conn, ctx, timeout_ms) as (graph, active_keys):
            (rows,) = fetch_cypher_many(conn, graph, [call])
        return active_keys, parsed(rows)

    if not idle_autocommit(conn):
        return one_at_a_time()  # tenant_transaction refuses it, with the error callers expect
    registry = conn.cursor()
    try:
        with cypher_errors(call.query.name, derived):
            with conn.pipeline(), conn.transaction():
                _send_scope(conn, ctx, registry, timeout_ms, None)
                cursor = send_cypher(conn, derived, call)  # read after COMMIT, in the same round trip
            graph, active_keys = _registered(ctx, registry.fetchall())
            rows = fetch_sent(derived, call, cursor)
    except psycopg.errors.InsufficientPrivilege as exc:
        raise AuthorizationError(str(exc.diag.message_primary or exc)) from exc
    finally:
        registry.close()
    if graph != derived:
        return one_at_a_time()
    return active_keys, parsed(rows)


def _parse_cells(cells: Iterable[str | None]) -> list[Any]:
    """Parse agtype cells as one JSON array: one decoder call for a row (or a column) instead of one per cell."""
    return parse_agtype("[" + ",".join("null" if cell is None else cell for cell in cells) + "]")


def _parse_values(cells: Iterable[str | None]) -> list[Any]:
    """:func:`_parse_cells` for cells that hold no vertex, edge or path (ids, names, property maps)."""
    return parse_agtype_values("[" + ",".join("null" if cell is None else cell for cell in cells) + "]")


def _edge_ref(edge: Edge) -> GraphEdgeRef:
    return _edge_ref_of(RelationType(edge.label), edge.properties)


def _edge_ref_of(label: RelationType, props: dict[str, Any]) -> GraphEdgeRef:
    own = {k: v for k, v in props.items() if k not in _BOOKKEEPING and isinstance(v, str | int | bool)}
    return GraphEdgeRef(
        type=label,
        source_id=props["source_id"],
        target_id=props["target_id"],
        properties=own,
        provenance=Provenance.from_properties(props),
    )


def _edge_data(label: RelationType, props: dict[str, Any]) -> dict[str, Any]:
    """The input of a :class:`GraphEdgeRef` (as :func:`_edge_ref_of` builds it), for one validation of a whole
    response: one ``model_validate`` runs in pydantic's compiled core, where a model per edge cost a call from
    Python each (about 450 per find_products call at 25,000 products, most of its time in Python, measured)."""
    get = props.get
    return {
        "type": label,
        "source_id": props["source_id"],
        "target_id": props["target_id"],
        # most edges have no property of their own: a set difference in C finds that without a loop in Python
        "properties": {k: v for k, v in props.items() if k not in _BOOKKEEPING and isinstance(v, str | int | bool)}
        if props.keys() - _BOOKKEEPING else {},
        # the provenance's fields spelled out, one dict display instead of a loop over the field names (a unit
        # test holds them to graph.schema.Provenance)
        "provenance": {
            "document_id": get("document_id"),
            "document_version": get("document_version"),
            "page": get("page"),
            "chunk_id": get("chunk_id"),
            "record_ref": get("record_ref"),
            "extraction_version": get("extraction_version"),
            "extracted_at": get("extracted_at"),
        },
    }




_BOOKKEEPING = frozenset(
    {
        "key", "source_id", "target_id", "document_id", "document_version", "page", "chunk_id", "record_ref",
        "extraction_version", "extracted_at", "source_key", "graph_schema_version", "content_hash",
    }
)


def _node(vertex: Vertex) -> PathNode:
    props = vertex.properties
    return PathNode(
        label=vertex.label, id=props["id"], name=props.get("name"), provenance=Provenance.from_properties(props)
    )


def _active(edges: Sequence[Edge], active_keys: set[str]) -> bool:
    return all(edge.properties.get("source_key") in active_keys for edge in edges)


# --- tools ------------------------------------------------------------------------------------------------


def find_approved_vendors(
    conn: psycopg.Connection, ctx: AuthContext, request: ApprovedVendorsRequest
) -> ApprovedVendorsResponse:
    """Suppliers whose approval by ``request.company_id`` overlaps the half-open period.

    An approval ``[valid_from, valid_to)`` overlaps ``[start_date, end_date)`` when ``valid_from < end_date``
    and (``valid_to`` is open or ``valid_to > start_date``). Dates are stored as ISO strings, which compare
    chronologically.

    Args:
        conn: a ``procura_app`` connection, not inside a transaction.
        ctx: the authenticated context; its tenant selects the graph.
        request: company, period, result cap and timeout.
    """
    call = CypherCall(_APPROVED_VENDORS, {"company_id": request.company_id, "start_date": request.start_date,
                                          "end_date": request.end_date}, MAX_SCANNED_ROWS, prepare=True)  # fmt: skip
    active_keys, scanned = _read_once(conn, ctx, request.timeout_ms, call)
    active = set(active_keys)
    rows = sorted(
        (row for row in scanned
         if {row["approval"].properties.get("source_key"), row["supplier_source_key"], row["company_source_key"]}
         <= active),
        key=lambda row: (row["supplier_id"], row["approval"].properties.get("approval_id")),
    )  # fmt: skip
    if len(rows) > request.limit:
        raise ResultLimitError(f"{_APPROVED_VENDORS.name} returned more than {request.limit} rows")
    vendors: dict[str, tuple[str, list[Approval]]] = {}
    for row in rows:
        edge: Edge = row["approval"]
        props = edge.properties
        approval = Approval(
            approval_id=props["approval_id"],
            agreement_id=props["agreement_id"],
            valid_from=dt.date.fromisoformat(props["valid_from"]),
            valid_to=dt.date.fromisoformat(props["valid_to"]) if props.get("valid_to") else None,
            scope=props.get("scope"),
            provenance=Provenance.from_properties(props),
        )
        vendors.setdefault(row["supplier_id"], (row["supplier_name"], []))[1].append(approval)
    return ApprovedVendorsResponse(
        company_id=request.company_id,
        start_date=request.start_date,
        end_date=request.end_date,
        vendors=tuple(
            ApprovedVendor(supplier_id=sid, supplier_name=name, approvals=tuple(approvals))
            for sid, (name, approvals) in sorted(vendors.items())
        ),
    )


#: Validates the PART_OF edge references of one :func:`find_products` call in one call into pydantic's core.
_EDGE_REFS: TypeAdapter[list[GraphEdgeRef]] = TypeAdapter(list[GraphEdgeRef])


def find_products(conn: psycopg.Connection, ctx: AuthContext, request: FindProductsRequest) -> FindProductsResponse:
    """Products supplied by ``request.supplier_ids`` whose group is within ``max_depth`` PART_OF hops of the group.

    The answer of the architecture's pattern ``(s)-[:SUPPLIES]->(p)-[:BELONGS_TO]->(g)``,
    ``(g)-[:PART_OF*0..3]->(root {name: $group_name})``, computed in two bounded Cypher statements of one
    transaction, prepared (planned once per connection) and sent in two round trips (see
    ``_find_products_rows``): the group's subtree (fixed-length PART_OF patterns, see ``_subtree_query``), then
    the suppliers' products in those groups (see ``_supplier_products_query``); the rows are joined here on the
    group id. A row that uses any vertex or edge of an inactive document version is dropped (checked here rather
    than in Cypher: as a WHERE on every edge, AGE evaluated the list test on the whole label before the joins).

    Design note: the Python here is a fixed cost of every call, measured against a recursive CTE of a few ms:
    the cells are parsed in two decoder calls without a walk for vertices (there are none,
    :func:`graph.agtype.parse_agtype_values`), each group's PART_OF paths are walked and checked once, the PART_OF
    edges the answer uses are validated once each in one call (a path's upper edges are shared by many
    products), and the response in one more (a model per edge cost a call from Python each).
    """
    suppliers = sorted(set(request.supplier_ids))
    active_keys, subtree, cells = _find_products_rows(conn, ctx, request, suppliers)
    # The subtree: its roots (the groups the request names) and, per group, its PART_OF edges to the group above.
    roots: set[str] = set()
    parents: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[Any, ...]] = set()
    for i in range(0, len(subtree), 2):
        root_id, edge = subtree[i], subtree[i + 1]
        if edge is None:
            roots.add(root_id)
        elif (key := _edge_key(edge)) not in seen:
            seen.add(key)
            parents.setdefault(edge["source_id"], []).append(edge)
    active = set(active_keys)
    # Per group: its PART_OF paths up to a root (the rows the union of fixed-length patterns gave), each with
    # whether every edge on it is of an active version.
    paths: dict[str, list[tuple[list[dict[str, Any]], bool]]] = {}
    joined: list[tuple[tuple[str, str], int, list[dict[str, Any]], bool]] = []
    width = len(_PRODUCT_COLUMNS)
    for offset in range(0, len(cells), width):
        # the supplier id, product code and group id are the edges' ends (see _supplier_products_query)
        supplies, belongs = cells[offset + 2], cells[offset + 3]
        group_id = belongs["target_id"]
        group_paths = paths.get(group_id)
        if group_paths is None:
            group_paths = paths[group_id] = [
                (path, all(props.get("source_key") in active for props in path))
                for path in _part_of_paths(group_id, roots, parents, request.max_depth)
            ]
        key = (supplies["source_id"], supplies["target_id"])
        joined.extend((key, offset, path, path_active) for path, path_active in group_paths)
    if len(joined) > request.limit:
        raise ResultLimitError(f"find_products returned more than {request.limit} rows")
    joined.sort(key=lambda item: item[0])
    chosen: dict[tuple[str, str], tuple[int, list[dict[str, Any]]]] = {}  # in (supplier, product) order
    for key, offset, path, path_active in joined:
        if key in chosen or not path_active:
            continue
        product_key, supplies, belongs = cells[offset + 1 : offset + width]
        if (product_key not in active or supplies.get("source_key") not in active
                or belongs.get("source_key") not in active):  # fmt: skip
            continue
        chosen[key] = (offset, path)
    # The PART_OF edges of the answer, one reference each (the maps are shared: one object per edge of `parents`).
    part_of = {id(props): props for _, path in chosen.values() for props in path}
    refs = dict(zip(part_of, _EDGE_REFS.validate_python(
        [_edge_data(RelationType.PART_OF, props) for props in part_of.values()]), strict=True))  # fmt: skip
    products = []
    for (supplier_id, product_code), (offset, path) in chosen.items():
        name, _, supplies, belongs = cells[offset : offset + width]
        group_id = belongs["target_id"]
        products.append({
            "product_code": product_code,
            "product_name": name,
            "supplier_id": supplier_id,
            "product_group_id": group_id,
            "group_path": (group_id, *(props["target_id"] for props in path)),
            "edges": (_edge_data(RelationType.SUPPLIES, supplies), _edge_data(RelationType.BELONGS_TO, belongs),
                      *(refs[id(props)] for props in path)),
        })  # fmt: skip
    return FindProductsResponse.model_validate({
        "supplier_ids": tuple(suppliers),
        "group_name": request.group_name,
        "group_id": request.group_id,
        "products": products,
    })  # fmt: skip


def path_with_provenance(
    conn: psycopg.Connection, ctx: AuthContext, request: ApprovalPathRequest | ProductPathRequest
) -> PathResponse:
    """The graph path(s) that support one answer, with provenance on every vertex and edge.

    For an approved vendor: Company -APPROVED_VENDOR-> Supplier -GOVERNED_BY-> Agreement (the GOVERNED_BY edge
    carries the same approval id). For a product: Supplier -SUPPLIES-> Product -BELONGS_TO-> Group
    -PART_OF*-> requested group. No path means the graph does not support the answer.
    """
    if isinstance(request, ApprovalPathRequest):
        call = CypherCall(_APPROVAL_PATH, {"company_id": request.company_id, "supplier_id": request.supplier_id,
                                           "start_date": request.start_date, "end_date": request.end_date},
                          MAX_SCANNED_ROWS, prepare=True)  # fmt: skip
        active_keys, scanned = _read_once(conn, ctx, request.timeout_ms, call)
        active = set(active_keys)
        rows = [r for r in scanned if _active((r["approval"], r["governed"]), active)]
        if len(rows) > request.limit:
            raise ResultLimitError(f"{_APPROVAL_PATH.name} returned more than {request.limit} rows")
        paths = [
            GraphPath(
                nodes=(_node(r["company"]), _node(r["supplier"]), _node(r["agreement"])),
                edges=(_edge_ref(r["approval"]), _edge_ref(r["governed"])),
            )
            for r in rows
        ]
    else:
        selector: Literal["name", "id"] = "name" if request.group_name is not None else "id"
        query = _PRODUCT_PATH_QUERIES[(selector, request.max_depth)]
        call = CypherCall(query, {"supplier_id": request.supplier_id, "product_code": request.product_code,
                                  "group": request.group_name if selector == "name" else request.group_id},
                          MAX_SCANNED_ROWS, prepare=True)  # fmt: skip
        active_keys, scanned = _read_once(conn, ctx, request.timeout_ms, call)
        active = set(active_keys)
        rows = [r for r in scanned if _active((r["supplies"], r["belongs"]), active)]
        if len(rows) > request.limit:
            raise ResultLimitError(f"{query.name} returned more than {request.limit} rows")
        paths = []
        for r in rows:
            elements: list[Any] = r["path"]
            part_of = [e for e in elements if isinstance(e, Edge)]
            if not _active(part_of, active):
                continue
            groups = [v for v in elements if isinstance(v, Vertex)]
            paths.append(
                GraphPath(
                    nodes=(_node(r["supplier"]), _node(r["product"]), *(_node(v) for v in groups)),
                    edges=(_edge_ref(r["supplies"]), _edge_ref(r["belongs"]), *(_edge_ref(e) for e in part_of)),
                )
            )
    return PathResponse(request=request, paths=tuple(paths))
