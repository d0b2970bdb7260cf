"""Apache AGE access: per-tenant graph names, graph provisioning, and the one ``cypher()`` wrapper.

Isolation model (AGE label tables have no ``tenant_id`` column, so the RLS policies of the relational schemas
cannot simply be reused):

1. One graph per tenant. Its name is derived only from the tenant of an :class:`AuthContext` (or, for the
   pipeline, from the tenant of the document being ingested) through an allow-list regex and a length limit;
   no API takes a graph name.
2. ``procura_app`` can only read: ``USAGE`` on the graph schema and ``SELECT`` on its label tables, nothing else
   (see :func:`ensure_graph`); the owner role writes.
3. Defense in depth: every label table of tenant T's graph gets a FORCEd row-level policy "this graph is the
   graph registered for the transaction's tenant" (``app.current_tenant_graph()``, no tenant id in the text).
   AGE 1.5 plans ``MATCH`` as ordinary scans of the label tables, so the
   rewriter applies the policy: a transaction of tenant A that names tenant B's graph reads no rows.

Values travel as AGE parameters only: the third argument of ``cypher()`` is a bound statement parameter
holding an agtype map, referenced as ``$name`` inside the Cypher text. Cypher text comes from
:class:`CypherQuery` templates, never from input.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import psycopg
from psycopg import sql

from graph.agtype import parse_agtype
from graph.errors import (
    CypherTemplateError,
    GraphNameError,
    GraphNotFoundError,
    ResultLimitError,
    TraversalTimeoutError,
)
from graph.schema import GRAPH_SCHEMA_VERSION, EntityType, RelationType
from procura.db.session import AGE_SEARCH_PATH, TENANT_ID_PATTERN, AuthContext, is_age_session
from procura.keyed import keyed_hex
from procura.settings import APP_ROLE

GRAPH_NAME_PATTERN = re.compile(r"^tg_[a-z0-9_]{1,60}$")
#: Postgres identifiers (schema names) are at most 63 bytes.
MAX_GRAPH_NAME_LENGTH = 63
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_COLUMN = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


@dataclass(frozen=True)
class GraphName:
    """A validated AGE graph name and the tenant it belongs to."""

    value: str
    tenant_id: str

    def __post_init__(self) -> None:
        if len(self.value) > MAX_GRAPH_NAME_LENGTH or not GRAPH_NAME_PATTERN.match(self.value):
            raise GraphNameError(f"graph name {self.value!r} is not allowed (tg_[a-z0-9_]{{1,60}})")


def graph_name_for_tenant(tenant_id: str) -> GraphName:
    """The graph of a tenant: ``tg_`` + 24 hex digits of a keyed hash of the tenant id.

    Design note: every role can list schema names (pg_namespace is readable by all, by Postgres's design), and
    an AGE graph is a schema; a name derived from the tenant id in clear (``tg_tenant_42``) lists the tenants.
    The keyed hash (:func:`procura.keyed.keyed_hex`, server secret) is stable, so the writers can derive it
    without a lookup, and reveals nothing without the key.
    """
    if not isinstance(tenant_id, str) or not TENANT_ID_PATTERN.match(tenant_id):
        raise GraphNameError(f"tenant id {tenant_id!r} does not match {TENANT_ID_PATTERN.pattern}")
    return GraphName("tg_" + keyed_hex("graph-name", tenant_id)[:24], tenant_id)


def legacy_graph_name(tenant_id: str) -> str:
    """The name graphs had before names were opaque (``tg_`` + tenant id); :func:`ensure_graph` renames them."""
    return "tg_" + tenant_id.replace("-", "_")


def graph_name_for(ctx: AuthContext) -> GraphName:
    """The graph the authenticated principal may read: derived from ``ctx.tenant_id`` and nothing else."""
    if not isinstance(ctx, AuthContext):
        raise GraphNameError("a graph name can only be derived from an AuthContext")
    return graph_name_for_tenant(ctx.tenant_id)


ParamValue = str | int | bool | None | dt.date | Decimal | Sequence[Any] | Mapping[str, Any]


@dataclass(frozen=True)
class CypherQuery:
    """A fixed Cypher template with named ``$parameters`` and the names of the columns it returns."""

    name: str
    text: str
    columns: tuple[str, ...]

    def __post_init__(self) -> None:
        # '$$' would end the dollar-quoted constant; '%' would be read as a psycopg placeholder.
        if "$$" in self.text or "%" in self.text:
            raise CypherTemplateError(f"{self.name}: Cypher templates must not contain '$$' or '%'")
        if not self.columns or any(not _COLUMN.match(c) for c in self.columns):
            raise CypherTemplateError(f"{self.name}: result columns must be lower_snake identifiers")
        if len(set(self.columns)) != len(self.columns):
            raise CypherTemplateError(f"{self.name}: duplicate result column")

    @property
    def parameters(self) -> frozenset[str]:
        """The ``$names`` the template references."""
        return frozenset(_PARAM.findall(self.text))


def _to_agtype_json(value: Any, path: str) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        raise CypherTemplateError(f"parameter {path}: floats are not allowed (use Decimal)")
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): _to_agtype_json(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = sorted(value) if isinstance(value, frozenset | set) else value
        return [_to_agtype_json(v, f"{path}[{i}]") for i, v in enumerate(items)]
    raise CypherTemplateError(f"parameter {path}: unsupported type {type(value).__name__}")


def encode_parameters(query: CypherQuery, params: Mapping[str, ParamValue]) -> str | None:
    """The agtype map (as JSON text) for ``query``; exactly the template's parameters must be given."""
    missing = sorted(query.parameters - set(params))
    extra = sorted(set(params) - query.parameters)
    if missing or extra:
        raise CypherTemplateError(f"{query.name}: missing parameters {missing}, unexpected parameters {extra}")
    if not query.parameters:
        return None
    return json.dumps({k: _to_agtype_json(v, k) for k, v in params.items()}, separators=(",", ":"))


def cypher_sql(graph: GraphName, query: CypherQuery, *, with_params: bool) -> sql.Composed:
    """The SQL statement that runs ``query`` on ``graph`` (graph name as a validated literal)."""
    columns = sql.SQL(", ").join(
        sql.SQL("{} ag_catalog.agtype").format(sql.Identifier(column)) for column in query.columns
    )
    # Design note: the only text composed into the statement is a CypherQuery template (module constants, checked
    # for '$$' and '%'); values always travel in the bound parameter map.
    body = sql.SQL("$$ " + query.text + " $$")
    if with_params:
        return sql.SQL("select * from ag_catalog.cypher({}, {}, %s) as ({})").format(
            sql.Literal(graph.value), body, columns
        )
    return sql.SQL("select * from ag_catalog.cypher({}, {}) as ({})").format(sql.Literal(graph.value), body, columns)


@contextmanager
def cypher_errors(name: str, graph: GraphName) -> Iterator[None]:
    """Translate the database errors of a Cypher statement on ``graph`` into the graph error family."""
    try:
        yield
    except psycopg.errors.QueryCanceled as exc:
        raise TraversalTimeoutError(f"{name} exceeded its statement timeout") from exc
    except psycopg.errors.InvalidSchemaName as exc:
        raise GraphNotFoundError(f"tenant {graph.tenant_id!r} has no knowledge graph") from exc


def prepare_age_transaction(conn: psycopg.Connection) -> None:
    """Make AGE usable in the current transaction.

    A connection from an AGE pool (:func:`procura.db.session.open_pool` with ``age=True``) already has AGE's
    ``search_path`` for its whole session, and this costs nothing. Any other connection (the pipeline's, a
    script's) gets it local to the transaction. ``LOAD 'age'`` is never needed (and not allowed for
    non-superusers): the server preloads AGE through ``shared_preload_libraries``.
    """
    if is_age_session(conn):
        return
    conn.execute("select set_config('search_path', %s, true)", (AGE_SEARCH_PATH,))


@dataclass(frozen=True)
class CypherCall:
    """One template run of :func:`fetch_cypher_many`: its parameters, row cap and plan caching.

    ``prepare=False`` plans the statement for its parameter values on every call (psycopg otherwise prepares a
    statement it has seen five times, and Postgres may then keep a generic plan); a template whose plan depends
    on its values being constants (index lookups on an ``OR`` of parameters) needs that.
    """

    query: CypherQuery
    params: Mapping[str, ParamValue] | None = None
    max_rows: int | None = None
    prepare: bool | None = None


def fetch_cypher_many(
    conn: psycopg.Connection, graph: GraphName, calls: Sequence[CypherCall]
) -> list[list[tuple[str | None, ...]]]:
    """Send every call's statement, then read every result, as agtype text, unparsed (a caller parses only the
    rows it keeps: parsing is most of a traversal's cost on the client). On a connection in pipeline mode the
    statements travel in one round trip. Raises as :func:`run_cypher`."""
    cursors = [send_cypher(conn, graph, call) for call in calls]
    return [fetch_sent(graph, call, cursor) for call, cursor in zip(calls, cursors, strict=True)]


def send_cypher(conn: psycopg.Connection, graph: GraphName, call: CypherCall) -> psycopg.Cursor[Any]:
    """Send one call's statement and return its cursor, unread: in pipeline mode the statement is only queued
    (:func:`fetch_sent` reads it)."""
    encoded = encode_parameters(call.query, call.params or {})
    statement = cypher_sql(graph, call.query, with_params=encoded is not None)
    cursor = conn.cursor()
    with cypher_errors(call.query.name, graph):
        cursor.execute(statement, (encoded,) if encoded is not None else None, prepare=call.prepare)
    return cursor


def fetch_sent(graph: GraphName, call: CypherCall, cursor: psycopg.Cursor[Any]) -> list[tuple[str | None, ...]]:
    """The rows of a statement :func:`send_cypher` sent, as agtype text; raises as :func:`run_cypher`."""
    with cypher_errors(call.query.name, graph):
        rows = cursor.fetchall() if call.max_rows is None else cursor.fetchmany(call.max_rows + 1)
    if call.max_rows is not None and len(rows) > call.max_rows:
        raise ResultLimitError(f"{call.query.name} returned more than {call.max_rows} rows")
    return rows


def fetch_cypher(
    conn: psycopg.Connection,
    graph: GraphName,
    query: CypherQuery,
    params: Mapping[str, ParamValue] | None = None,
    *,
    max_rows: int | None = None,
) -> list[tuple[str | None, ...]]:
    """Run a Cypher template on a graph and return its rows as agtype text, unparsed; see :func:`run_cypher`."""
    return fetch_cypher_many(conn, graph, [CypherCall(query, params, max_rows)])[0]


def run_cypher(
    conn: psycopg.Connection,
    graph: GraphName,
    query: CypherQuery,
    params: Mapping[str, ParamValue] | None = None,
    *,
    max_rows: int | None = None,
) -> list[dict[str, Any]]:
    """Run a Cypher template on a graph and return its rows as dicts of parsed agtype values.

    Args:
        conn: a connection inside a transaction prepared with :func:`prepare_age_transaction`.
        graph: the graph (from :func:`graph_name_for` on reads).
        query: the template; its ``$names`` are bound from ``params`` as one AGE parameter map.
        params: the parameter values (str, int, bool, None, date, Decimal, lists and maps of those).
        max_rows: raise :class:`ResultLimitError` if the query returns more rows than this.
    """
    rows = fetch_cypher(conn, graph, query, params, max_rows=max_rows)
    return [dict(zip(query.columns, (parse_agtype(cell) for cell in row), strict=True)) for row in rows]


@contextmanager
def age_transaction(conn: psycopg.Connection) -> Iterator[psycopg.Connection]:
    """A transaction (or savepoint) on ``conn`` with AGE's search path; used by the pipeline (owner role)."""
    with conn.transaction():
        prepare_age_transaction(conn)
        yield conn


def graph_exists(conn: psycopg.Connection, graph: GraphName) -> bool:
    """True when the AGE graph exists."""
    row = conn.execute("select count(*) from ag_catalog.ag_graph where name = %s", (graph.value,)).fetchone()
    return bool(row and row[0])


def _labels(conn: psycopg.Connection, graph: GraphName) -> dict[str, str]:
    rows = conn.execute(
        """
        select l.name, l.kind from ag_catalog.ag_label l
        join ag_catalog.ag_graph g on g.graphid = l.graph
        where g.name = %s
        """,
        (graph.value,),
    ).fetchall()
    return {name: kind for name, kind in rows}


def ensure_graph(conn: psycopg.Connection, tenant_id: str) -> GraphName:
    """Create the tenant's graph, its labels, indexes, read grants and tenant policy (idempotent).

    Runs as the owner role inside the caller's transaction. Grants for ``procura_app`` are exactly what a
    read-only Cypher query needs: ``USAGE`` on the graph's schema and ``SELECT`` on its label tables.
    Design note: the DDL (policies, grants, indexes) takes ACCESS EXCLUSIVE locks that would block readers
    until the caller commits, so it only runs when something is missing; a provisioned graph costs two
    catalog lookups.
    """
    graph = graph_name_for_tenant(tenant_id)
    # Serialises concurrent provisioning and syncs of the same tenant graph.
    conn.execute("select pg_advisory_xact_lock(hashtext(%s))", ("procura-graph:" + graph.value,))
    _rename_legacy(conn, graph)
    labels = _labels(conn, graph) if graph_exists(conn, graph) else None
    registered = conn.execute(
        "select graph_name, graph_schema_version from graph.tenant_graphs where tenant_id = %s", (tenant_id,)
    ).fetchone()
    expected = {e.value for e in EntityType} | {r.value for r in RelationType}
    if labels is not None and expected <= set(labels) and registered == (graph.value, GRAPH_SCHEMA_VERSION):
        return graph
    _provision(conn, graph, labels)
    return graph


def _rename_legacy(conn: psycopg.Connection, graph: GraphName) -> None:
    """Rename a graph still named after its tenant (or under another key) to its opaque name."""
    registered = conn.execute(
        "select graph_name from graph.tenant_graphs where tenant_id = %s", (graph.tenant_id,)
    ).fetchone()
    old_names = {legacy_graph_name(graph.tenant_id)} | ({registered[0]} if registered else set())
    for old in sorted(old_names - {graph.value}):
        if graph_exists(conn, GraphName(old, graph.tenant_id)) and not graph_exists(conn, graph):
            conn.execute("select ag_catalog.alter_graph(%s, 'RENAME', %s)", (old, graph.value))
    if registered is not None and registered[0] != graph.value:
        conn.execute(
            "update graph.tenant_graphs set graph_name = %s where tenant_id = %s", (graph.value, graph.tenant_id)
        )


def _provision(conn: psycopg.Connection, graph: GraphName, labels: dict[str, str] | None) -> None:
    if labels is None:
        conn.execute("select ag_catalog.create_graph(%s)", (graph.value,))
        labels = _labels(conn, graph)
    for entity in EntityType:
        if entity.value not in labels:
            conn.execute("select ag_catalog.create_vlabel(%s, %s)", (graph.value, entity.value))
    for relation in RelationType:
        if relation.value not in labels:
            conn.execute("select ag_catalog.create_elabel(%s, %s)", (graph.value, relation.value))
    _ensure_indexes(conn, graph)
    schema = sql.Identifier(graph.value)
    app = sql.Identifier(APP_ROLE)
    conn.execute(sql.SQL("grant usage on schema {} to {}").format(schema, app))
    conn.execute(sql.SQL("grant select on all tables in schema {} to {}").format(schema, app))
    tables = conn.execute(
        "select c.relname from pg_class c where c.relnamespace = %s::regnamespace and c.relkind = 'r'",
        (graph.value,),
    ).fetchall()
    for (table,) in tables:
        target = sql.Identifier(graph.value, table)
        conn.execute(sql.SQL("alter table {} enable row level security").format(target))
        conn.execute(sql.SQL("alter table {} force row level security").format(target))
        conn.execute(sql.SQL("drop policy if exists tenant_graph_read on {}").format(target))
        conn.execute(
            # No tenant id in the policy (pg_policy is readable by every role): see migration 0041.
            sql.SQL(
                "create policy tenant_graph_read on {} for select using ((select app.current_tenant_graph()) = {})"
            ).format(target, sql.Literal(graph.value))
        )
    conn.execute(
        """
        insert into graph.tenant_graphs (tenant_id, graph_name, graph_schema_version)
        values (%s, %s, %s)
        on conflict (tenant_id) do update
            set graph_name = excluded.graph_name, graph_schema_version = excluded.graph_schema_version
        """,
        (graph.tenant_id, graph.value, GRAPH_SCHEMA_VERSION),
    )


#: Vertex properties the serving tools look up by equality (``WHERE n.name = $x``), each served by a btree on
#: ``agtype_access_operator(properties, '"<prop>"')``; ``id`` has its own index (``<label>_id``).
_LOOKUP_PROPERTIES = ("name",)


def index_statements(graph: GraphName) -> list[sql.Composed]:
    """The ``create index if not exists`` statements of a tenant graph's label tables (migration 0130 creates the
    same indexes, by the same names, on graphs provisioned before it).

    AGE creates label tables with no index at all (the parent tables ``_ag_label_vertex``/``_ag_label_edge``
    have primary keys; their children, where the rows are, do not). Cypher plans as joins of label tables:

    * ``(p)-[r]->(q)`` joins ``r.start_id`` to ``p.id`` and ``r.end_id`` to ``q.id``: btrees on the edge ends and
      on every label's graph id (``<label>_gid``) turn a hash join over whole labels into index lookups;
    * ``MATCH (n {id: $x})`` is a containment (``@>``) test, served by the GIN index on ``properties``;
    * ``WHERE n.id = $x`` (the tools' and the sync's lookups) and ``WHERE n.name = $x`` are equalities on
      ``agtype_access_operator(properties, '"id"')``, served by a btree on that expression (without it, each of
      the sync's batches hash-joined the whole label: 69 s instead of seconds for 50k edges);
    * the sync finds edges by their ``key``.
    """

    def access(prop: str) -> sql.Composable:
        return sql.SQL("(ag_catalog.agtype_access_operator(VARIADIC ARRAY[properties, {}::ag_catalog.agtype]))").format(
            sql.Literal(f'"{prop}"')
        )

    def index(name: str, table: sql.Identifier, using: sql.Composable) -> sql.Composed:
        return sql.SQL("create index if not exists {} on {} {}").format(sql.Identifier(name), table, using)

    statements: list[sql.Composed] = []
    for entity in EntityType:
        table = sql.Identifier(graph.value, entity.value)
        name = entity.value.lower()
        statements.append(index(f"{name}_gid", table, sql.SQL("(id)")))
        statements.append(index(f"{name}_props_gin", table, sql.SQL("using gin (properties)")))
        statements.append(index(f"{name}_id", table, sql.SQL("({})").format(access("id"))))
        for prop in _LOOKUP_PROPERTIES:
            statements.append(index(f"{name}_{prop}", table, sql.SQL("({})").format(access(prop))))
    for relation in RelationType:
        table = sql.Identifier(graph.value, relation.value)
        name = relation.value.lower()
        statements.append(index(f"{name}_gid", table, sql.SQL("(id)")))
        for column in ("start_id", "end_id"):
            statements.append(index(f"{name}_{column}", table, sql.SQL("({})").format(sql.Identifier(column))))
        statements.append(index(f"{name}_key", table, sql.SQL("({})").format(access("key"))))
    return statements


def _ensure_indexes(conn: psycopg.Connection, graph: GraphName) -> None:
    for statement in index_statements(graph):
        conn.execute(statement)


def drop_graph(conn: psycopg.Connection, tenant_id: str) -> bool:
    """Drop the tenant's graph and its registry row (owner role); True when it existed."""
    graph = graph_name_for_tenant(tenant_id)
    if not graph_exists(conn, graph):
        return False
    conn.execute("select ag_catalog.drop_graph(%s, true)", (graph.value,))
    conn.execute("delete from graph.tenant_graphs where tenant_id = %s", (tenant_id,))
    return True
