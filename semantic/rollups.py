"""Relation selection: answer a compiled metric query from the smallest governed rollup that covers it.

The rollups are dbt marts (``models/marts/spend_*_rollup.sql``) that group ``marts.validated_invoice_lines`` by
some of its columns and a date grain, with exact numeric sums of the policy columns and the number of lines
per row. This module is one step after compilation and before execution, and knows nothing about how a metric
was defined: it reads the compiled (qualified) query over the lines and rewrites it over a rollup when that is
exact, as Cube matches a query to a pre-aggregation:

* every column the query filters or groups by is a key of the rollup (the lines' date becomes the rollup's date
  column); an optional filter on a column the rollup lacks, ``(:p is null or ...)``, is allowed while ``p`` is
  unset;
* every aggregate is additive over the rollup: ``sum`` of a summed column, ``count(*)`` (the line counts
  summed), ``min``/``max``/``array_agg`` of a key; anything else (``avg``, a distinct count, an expression
  inside a sum) leaves the query to the lines;
* the grain is the rollup's or coarser; with a month rollup, the date may only be compared ``>=``/``<`` with
  bound values that are first days of a month (checked per request, :meth:`RollupQuery.covers`).

Provenance (the capped, ordered line ids of each result row) is the lines' own ids, kept by dbt beside the sums:
each rollup row holds its first 100 line ids, and a result row's first ids are found among those of at most 100
rollup rows (:func:`_with_rollup_provenance` says why that is exact and why not a lookup in the lines); the id
count is the row's line count (line ids are unique within a tenant).

Which candidate answers (:meth:`RelationPlanner.select`): the smallest covering rollup, unless it is not
materially smaller than the lines (:data:`MIN_SHRINK`). The sizes are the planner's row estimates of the
relations (``pg_class.reltuples``, refreshed by ``analyze`` after each dbt build), read at most once a minute.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import psycopg
import sqlglot
from sqlglot import exp

from semantic.compile import PERIOD, ROW_LIMIT, SOURCE_COUNT, SOURCE_IDS, CompiledQuery, render_psycopg
from semantic.model import MetricDefinition
from semantic.schema import GovernedSchema
from semantic.validation import DIALECT, qualify_or_fail

log = logging.getLogger(__name__)

#: The relation every rollup summarizes, and its date column.
LINES = "marts.validated_invoice_lines"
LINES_DATE = "invoice_date"
#: A rollup answers only when it has at most 1/MIN_SHRINK of the lines' rows. Design note: a rollup about as large
#: as the lines (a daily rollup per product over sparse data) saves nothing and adds the provenance step, so the
#: lines answer; the first attempt, which always took the rollup, made the seed-like question slower at 200k
#: lines (bench/metric_api.py).
MIN_SHRINK = 4.0
#: Seconds the relation sizes are reused before they are read again.
SIZES_TTL_S = 60.0

_SUMS = frozenset({"spend_reporting_amount", "net_reporting_amount", "tax_reporting_amount", "signed_quantity"})
_STEP = {"day": "1 day", "week": "1 week", "month": "1 month", "quarter": "3 month", "year": "1 year"}
_MONTH_GRAINS = frozenset({"month", "quarter", "year"})
#: The CTE of the rollup rows a query matches, and its row-location column (see _with_rollup_provenance).
_MATCHED = "_rollup_rows"
_ROW_ID = "_row_id"


@dataclass(frozen=True)
class Rollup:
    """One rollup mart.

    Attributes:
        relation: ``marts.<name>``.
        grain: ``day`` (its date column is the invoice date) or ``month`` (the first day of the invoice month).
        date_column: the rollup's column of ``invoice_date`` truncated to ``grain``.
        keys: the line columns the rollup groups by (besides the date), under the same names.
        sums: the line columns it sums, under the same names.
        nullable: keys that may be null (matched null-safely in the provenance lookup).
        count_column: the number of lines of a row.
        ids_column: the row's first line ids, ordered, at most ``ids_cap`` (the provenance of its answers).
        first_id_column: the row's smallest line id (the first of ``ids_column``).
    """

    relation: str
    grain: Literal["day", "month"]
    date_column: str
    keys: frozenset[str]
    sums: frozenset[str] = _SUMS
    nullable: frozenset[str] = frozenset()
    count_column: str = "line_count"
    ids_column: str = "first_line_ids"
    first_id_column: str = "first_line_id"
    ids_cap: int = 100


#: Smallest first.
ROLLUPS: tuple[Rollup, ...] = (
    Rollup(
        relation="marts.spend_monthly_rollup",
        grain="month",
        date_column="invoice_month",
        keys=frozenset(
            {"tenant_id", "company_id", "supplier_id", "invoice_status", "document_type", "reporting_currency",
             "is_counted"}
        ),
    ),
    Rollup(
        relation="marts.spend_daily_rollup",
        grain="day",
        date_column="invoice_date",
        keys=frozenset(
            {
                "tenant_id",
                "company_id",
                "supplier_id",
                "product_code",
                "product_group_id",
                "invoice_status",
                "document_type",
                "reporting_currency",
                "is_counted",
            }
        ),
        nullable=frozenset({"product_group_id"}),
    ),
)


@dataclass(frozen=True)
class RollupQuery:
    """A compiled query rewritten over one rollup, and what a request's values must satisfy for it to answer.

    Attributes:
        rollup: the rollup it reads.
        query: the rewritten query (same variant and result columns as the lines' query).
        requires_null: optional parameters on columns the rollup lacks: they must be unset.
        month_starts: parameters compared with the date of a month rollup: they must be first days of a month.
    """

    rollup: Rollup
    query: CompiledQuery
    requires_null: frozenset[str] = frozenset()
    month_starts: frozenset[str] = frozenset()

    def covers(self, values: Mapping[str, Any]) -> bool:
        """True when the rollup gives the lines' answer for these bound values."""
        if any(values.get(p) is not None for p in self.requires_null):
            return False
        for name in self.month_starts:
            value = values.get(name)
            if value is None or getattr(value, "day", None) != 1:
                return False
        return True


class _NotCovered(Exception):
    """The query cannot be answered exactly from this rollup (internal; never leaves this module)."""


def rewrite(
    definition: MetricDefinition, query: CompiledQuery, rollup: Rollup, schema: GovernedSchema
) -> RollupQuery | None:
    """``query`` (over the lines) rewritten over ``rollup``, or None when the rollup cannot answer it exactly.

    Raises:
        MetricDefinitionError: the rewritten query does not qualify against the governed schema (a rollup
            declared here that dbt builds differently).
    """
    tree = query.tree
    table = _single_table(tree)
    if table is None or not schema.has_relation(rollup.relation):
        return None
    alias = table.alias_or_name
    try:
        inner, requires_null, month_starts = _over_rollup(tree, alias, rollup)
    except _NotCovered:
        return None
    qualified = qualify_or_fail(definition.name, inner, schema, copy=False)
    assert isinstance(qualified, exp.Select)
    final: exp.Select = qualified
    if SOURCE_IDS in query.columns and definition.provenance is not None:
        wrapped = _with_rollup_provenance(definition, query, qualified, rollup)
        if wrapped is None:
            return None
        final = wrapped
    compiled = CompiledQuery(
        metric=query.metric,
        variant=query.variant,
        tree=final,
        sql=render_psycopg(final),
        columns=query.columns,
        relation=rollup.relation,
    )
    return RollupQuery(rollup, compiled, frozenset(requires_null), frozenset(month_starts))


def _single_table(tree: exp.Select) -> exp.Table | None:
    """The lines table when it is the query's only relation (no joins, CTEs or subqueries)."""
    tables = list(tree.find_all(exp.Table))
    if len(tables) != 1 or tree.args.get("joins") or tree.args.get("with") or tree.find(exp.Subquery):
        return None
    table = tables[0]
    if f"{table.db}.{table.name}".lower() != LINES:
        return None
    return table


def _over_rollup(tree: exp.Select, alias: str, rollup: Rollup) -> tuple[exp.Select, set[str], set[str]]:
    inner = tree.copy()
    new_alias = rollup.relation.split(".")[1]
    requires_null: set[str] = set()
    month_starts: set[str] = set()
    # The provenance columns are recomputed: the count from the line counts, the ids (if any) by the lookup.
    projections = []
    for projection in inner.expressions:
        if projection.alias_or_name == SOURCE_IDS:
            continue
        if projection.alias_or_name == SOURCE_COUNT:
            projection = _line_count(rollup).as_(SOURCE_COUNT)
        projections.append(projection)
    inner.set("expressions", projections)

    where = inner.args.get("where")
    if where is not None:
        kept = []
        for conjunct in _conjuncts(where.this):
            if all(_is_usable(col, rollup) for col in conjunct.find_all(exp.Column)):
                kept.append(conjunct)
                continue
            parameter, unset = _optional_filter(conjunct)
            if parameter is None or unset is None:
                raise _NotCovered
            requires_null.add(parameter)
            kept.append(unset)
        inner.set("where", exp.Where(this=exp.and_(*kept)) if kept else None)

    for agg in list(inner.find_all(exp.AggFunc)):
        _rewrite_aggregate(agg, rollup)
    aliases = {p.alias for p in inner.expressions if p.alias}
    for column in list(inner.find_all(exp.Column)):
        name = column.name
        if not column.table and name in aliases:
            continue  # ORDER BY an output column
        if name == LINES_DATE:
            if rollup.grain == "month":
                month_starts |= _month_safe(column)
            column.set("this", exp.to_identifier(rollup.date_column, quoted=True))
        elif name not in rollup.keys and name != rollup.count_column and not _is_summed(column, rollup):
            raise _NotCovered
        if column.table == alias:
            column.set("table", exp.to_identifier(new_alias, quoted=True))
    schema_name, table_name = rollup.relation.split(".")
    for table in inner.find_all(exp.Table):
        table.set("this", exp.to_identifier(table_name, quoted=True))
        table.set("db", exp.to_identifier(schema_name, quoted=True))
        table.set("alias", exp.TableAlias(this=exp.to_identifier(new_alias, quoted=True)))
    return inner, requires_null, month_starts


def _conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    if isinstance(condition, exp.And):
        return [*_conjuncts(condition.this), *_conjuncts(condition.expression)]
    return [condition]


def _is_usable(column: exp.Column, rollup: Rollup) -> bool:
    return column.name in rollup.keys or column.name == LINES_DATE


def _is_summed(column: exp.Column, rollup: Rollup) -> bool:
    return column.name in rollup.sums and isinstance(column.parent, exp.Sum)


def _optional_filter(conjunct: exp.Expression) -> tuple[str | None, exp.Expression | None]:
    """``(cast(:p as t) is null or ...)`` -> (``p``, ``cast(:p as t) is null``); anything else -> (None, None)."""
    inner = conjunct.unnest()
    if not isinstance(inner, exp.Or):
        return None, None
    test = inner.this
    if not isinstance(test, exp.Is) or not isinstance(test.expression, exp.Null):
        return None, None
    placeholder = test.this.unnest()
    if isinstance(placeholder, exp.Cast):
        placeholder = placeholder.this
    if not isinstance(placeholder, exp.Placeholder) or test.find(exp.Column) is not None:
        return None, None
    return str(placeholder.name), test.copy()


def _line_count(rollup: Rollup) -> exp.Expr:
    return sqlglot.parse_one(f"cast(coalesce(sum({rollup.count_column}), 0) as bigint)", read=DIALECT)


def _rewrite_aggregate(agg: exp.AggFunc, rollup: Rollup) -> None:
    """Replace one aggregate by its rollup form in place, or raise :class:`_NotCovered`."""
    arg = agg.this
    if isinstance(agg, exp.Count):
        if isinstance(arg, exp.Star) or (isinstance(arg, exp.Column) and arg.name == "line_id"):
            if isinstance(agg.parent, exp.Filter):
                # ``count(*) filter (where c)`` sums the line counts of the rows meeting c; the cast and the
                # coalesce must wrap the filtered aggregate, not sit between it and its FILTER clause.
                filtered = agg.parent
                condition = filtered.expression.this.sql(dialect=DIALECT)
                filtered.replace(sqlglot.parse_one(
                    f"cast(coalesce(sum({rollup.count_column}) filter (where {condition}), 0) as bigint)",
                    read=DIALECT))
                return
            agg.replace(_line_count(rollup))
            return
        raise _NotCovered
    if isinstance(agg, exp.Sum):
        summable = rollup.sums | {rollup.count_column}
        if isinstance(arg, exp.Column) and arg.name in summable and not agg.args.get("distinct"):
            return
        raise _NotCovered
    if isinstance(agg, exp.Min | exp.Max | exp.ArrayAgg):
        # Over keys only (checked with every other column below); the distinct set of a key is the same.
        return
    raise _NotCovered


def _month_safe(column: exp.Column) -> set[str]:
    """Where a month rollup may use the lines' date: truncated to a month or coarser, or compared ``>=``/``<``
    with bound values (whose placeholders must be month starts; returned)."""
    parent = column.parent
    if isinstance(parent, exp.TimestampTrunc | exp.DateTrunc):
        unit = parent.args.get("unit")
        if unit is not None and unit.name.lower() in _MONTH_GRAINS:
            return set()
        raise _NotCovered
    if isinstance(parent, exp.GTE | exp.LT) and parent.this is column:
        bound = parent.expression
        allowed = (exp.Cast, exp.Placeholder, exp.Add, exp.Interval, exp.Literal, exp.DataType, exp.Var, exp.Paren)
        if bound.find(exp.Column) is not None or not all(isinstance(n, allowed) for n in bound.walk()):
            raise _NotCovered
        for interval in bound.find_all(exp.Interval):
            unit = interval.args.get("unit")
            text = (interval.this.name + " " + (unit.name if unit is not None else "")).lower()
            if not any(word in text for word in ("month", "year")):
                raise _NotCovered
        return {str(p.name) for p in bound.find_all(exp.Placeholder)}
    raise _NotCovered


def _with_rollup_provenance(
    definition: MetricDefinition, query: CompiledQuery, inner: exp.Select, rollup: Rollup
) -> exp.Select | None:
    """Wrap the rollup query with each result row's capped, ordered line ids, from the rollup's first ids.

    Every rollup row carries its first line ids (at most :attr:`Rollup.ids_cap`, in order). A result row ``r``
    is the union of the rollup rows matching the query's filters and ``r``'s keys and period; its first ``cap``
    ids are among the ids of the ``cap`` of those rows with the smallest first id: the ``cap`` smallest row
    minima are ``cap`` distinct matching ids, so the ``cap``-th smallest id overall is at most the largest of them,
    and a row whose minimum is above that holds none of the first ``cap``. That reads at most ``cap`` rows and
    ``cap`` x ``cap`` ids per result row, whatever the number of lines.

    Design note: the issue asked for the ids to be looked up in the lines through an index. Measured with
    bench/metric_api.py at 200k lines, the planner (which sees no column statistics on the marts, by design)
    answers ``order by line_id limit 100`` over a three-year range by reading every matching line through the
    date index and sorting, 380 ms under load: more than the rollup saves. The ids here are the lines' own, kept
    by dbt beside the sums. Returns None (the lines answer) when the provenance is not ``line_id`` or its cap is
    above what the rollup keeps.
    """
    assert definition.provenance is not None
    cap = definition.provenance.cap
    if definition.provenance.column != "line_id" or cap > rollup.ids_cap:
        return None
    schema_name, table = rollup.relation.split(".")
    # The matching rollup rows, read once: their keys, sums and first id, and where each row is (ctid). The
    # aggregate reads them from here, and the provenance step picks its rows from here and fetches only those
    # rows' id arrays by ctid, instead of running the query's index scan a second time.
    where = inner.args.get("where")
    aggregate = inner.copy()
    aggregate.set("where", None)
    # Only the columns the aggregate and the lookup read (its outputs, groups and order; the filters are applied
    # here): every further column, a wide numeric sum above all, would be copied into the materialized rows for
    # nothing. bench/metric_api.py's three-year question matches thousands of rollup rows.
    columns = rollup.keys | rollup.sums | {rollup.date_column, rollup.count_column}
    used = {c.name for c in aggregate.find_all(exp.Column)} & columns
    kept = sorted(used | {rollup.first_id_column})
    matched = exp.select(
        exp.column("ctid", table=table, quoted=True).as_(_ROW_ID, quoted=True),
        *[exp.column(name, table=table, quoted=True) for name in kept],
    ).from_(exp.table_(table, db=schema_name, quoted=True, alias=exp.to_identifier(table, quoted=True)))
    if where is not None:
        matched.set("where", where.copy())
    for source in aggregate.find_all(exp.Table):
        source.replace(exp.table_(_MATCHED, quoted=True, alias=exp.to_identifier(table, quoted=True)))

    lookup = aggregate.copy()
    lookup.set("expressions", [exp.column(_ROW_ID, table=table, quoted=True)])
    for clause in ("group", "having", "order", "limit", "distinct"):
        lookup.set(clause, None)
    for dim in query.variant.group_by:
        line_col = sqlglot.parse_one(definition.dimensions[dim].expr, read=DIALECT)
        own = exp.column(line_col.name, table=table, quoted=True)
        row = exp.column(dim, table="r", quoted=True)
        cond = exp.NullSafeEQ if line_col.name in rollup.nullable else exp.EQ
        lookup = lookup.where(cond(this=own, expression=row), append=True, copy=False)
    if query.variant.grain is not None:
        date = exp.column(rollup.date_column, table=table, quoted=True).sql(dialect=DIALECT)
        period = f'r."{PERIOD}"'
        step = _STEP[query.variant.grain]
        lookup = lookup.where(
            sqlglot.parse_one(
                f"{date} >= {period} and {date} < cast({period} + interval '{step}' as date)", read=DIALECT
            ),
            append=True,
            copy=False,
        )
    # Ordered by the plain first-id column: ordering by ids[1] would read (detoast) every matching row's array.
    first = exp.column(rollup.first_id_column, table=table, quoted=True)
    lookup = lookup.order_by(first, copy=False).limit(cap, copy=False)
    fetch = sqlglot.parse_one(
        f'(select f."{rollup.ids_column}" from "{schema_name}"."{table}" as f where f.ctid = any(array(select 1)))',
        read=DIALECT,
    ).unnest()
    assert isinstance(fetch, exp.Select)
    next(q for q in fetch.find_all(exp.Select) if q is not fetch).replace(lookup)
    ids = sqlglot.parse_one(
        f'(select array_agg(p."_id" order by p."_id") from (select x."_id" from (select 1) as rr'
        f' cross join lateral unnest(rr."{rollup.ids_column}") as x("_id") order by x."_id" limit {cap}) as p)',
        read=DIALECT,
    )
    placeholder = next(q for q in ids.find_all(exp.Subquery) if q.alias == "rr")
    placeholder.replace(fetch.subquery("rr"))
    projections: list[exp.Expr] = []
    for name in query.columns:
        if name == SOURCE_IDS:
            projections.append(ids.as_(SOURCE_IDS, quoted=True))
        else:
            projections.append(exp.column(name, table="r", quoted=True))
    outer = exp.select(*projections).from_(aggregate.subquery("r"))
    keys = [*query.variant.group_by, *([PERIOD] if query.variant.grain else [])]
    if keys:
        outer = outer.order_by(*[exp.column(k, table="r", quoted=True) for k in keys])
    return outer.with_(_MATCHED, as_=matched, materialized=True, copy=False)


def read_sizes(conn: psycopg.Connection) -> dict[str, float]:
    """The planner's row estimates of the lines and every rollup (``pg_class.reltuples``; unknown ones left out).

    Design note: table-wide, not per tenant, and never shown to a caller; it only decides which exact relation
    is read. A relation never analyzed (reltuples -1) is left out, and a rollup then answers (Cube's default).
    """
    rows = conn.execute(_SIZES_SQL, ([LINES, *(r.relation for r in ROLLUPS)],)).fetchall()
    return {str(name): float(rows_estimate) for name, rows_estimate in rows}


_SIZES_SQL = (
    "select n.nspname || '.' || c.relname, c.reltuples from pg_catalog.pg_class as c"
    " join pg_catalog.pg_namespace as n on n.oid = c.relnamespace"
    " where n.nspname || '.' || c.relname = any(%s) and c.reltuples >= 0"
)


@dataclass
class RelationPlanner:
    """The relation-selection step of the metric service: rollup candidates per compiled query (built once,
    cached) and the choice among them per request.

    Attributes:
        rollups: the rollups to consider, smallest first.
        min_shrink: see :data:`MIN_SHRINK`.
        ttl_s: how long read sizes are reused.
    """

    rollups: tuple[Rollup, ...] = ROLLUPS
    min_shrink: float = MIN_SHRINK
    ttl_s: float = SIZES_TTL_S
    _candidates: dict[tuple[str, Any], tuple[RollupQuery, ...]] = field(default_factory=dict, repr=False)
    _sizes: tuple[float, Mapping[str, float]] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def candidates(
        self, definition: MetricDefinition, query: CompiledQuery, schema: GovernedSchema
    ) -> tuple[RollupQuery, ...]:
        """Every rollup that can answer ``query``'s shape, smallest first (built on first use, then cached)."""
        key = (query.metric, query.variant)
        found = self._candidates.get(key)
        if found is None:
            built = tuple(c for r in self.rollups if (c := rewrite(definition, query, r, schema)) is not None)
            with self._lock:
                found = self._candidates.setdefault(key, built)
        return found

    def select(
        self,
        definition: MetricDefinition,
        query: CompiledQuery,
        values: Mapping[str, Any],
        schema: GovernedSchema,
        sizes: Mapping[str, float],
    ) -> CompiledQuery:
        """The query that answers: over the smallest covering rollup materially smaller than the lines, else
        ``query`` itself."""
        lines_rows = sizes.get(LINES)
        order = {r.relation: i for i, r in enumerate(self.rollups)}
        ranked = sorted(
            self.candidates(definition, query, schema),
            key=lambda c: (sizes.get(c.rollup.relation, float("inf")), order[c.rollup.relation]),
        )
        for candidate in ranked:
            if not candidate.covers(values):
                continue
            rows = sizes.get(candidate.rollup.relation)
            if lines_rows is not None and rows is not None and rows * self.min_shrink > lines_rows:
                return query
            return candidate.query
        return query

    def sizes(self, conn: psycopg.Connection) -> Mapping[str, float]:
        """The relations' row estimates, read again when older than ``ttl_s`` (on ``conn``, autocommit)."""
        cached = self._sizes
        now = time.monotonic()
        if cached is not None and now - cached[0] < self.ttl_s:
            return cached[1]
        try:
            sizes: Mapping[str, float] = read_sizes(conn)
        except psycopg.Error as exc:
            log.warning("relation sizes unavailable (%s); rollups answer where they cover", type(exc).__name__)
            sizes = {}
        self._sizes = (now, sizes)
        return sizes

    async def asizes(self, conn: psycopg.AsyncConnection) -> Mapping[str, float]:
        """:meth:`sizes` on an asyncio connection."""
        cached = self._sizes
        now = time.monotonic()
        if cached is not None and now - cached[0] < self.ttl_s:
            return cached[1]
        try:
            cursor = await conn.execute(_SIZES_SQL, ([LINES, *(r.relation for r in self.rollups)],))
            sizes: Mapping[str, float] = {str(name): float(rows) for name, rows in await cursor.fetchall()}
        except psycopg.Error as exc:
            log.warning("relation sizes unavailable (%s); rollups answer where they cover", type(exc).__name__)
            sizes = {}
        self._sizes = (now, sizes)
        return sizes


__all__ = ["LINES", "ROLLUPS", "ROW_LIMIT", "RelationPlanner", "Rollup", "RollupQuery", "read_sizes", "rewrite"]
