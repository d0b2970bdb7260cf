"""Compilation of a validated template into the SQL that runs: one query per allow-listed variant.

A *variant* is a choice of group-by dimensions and time grain from the metric's allow-lists. The compiler
adds the dimension columns (select, group by, order by), the provenance and coverage aggregates, a typed
``CAST`` around every placeholder and the row-cap ``LIMIT`` to a copy of the template, qualifies the result
against the governed schema, and renders it for psycopg (``%(name)s``). Every variant is compiled and checked
when the metric is loaded, so a request only looks its variant up.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from semantic.errors import MetricDefinitionError
from semantic.model import Grain, MetricDefinition
from semantic.params import SQL_TYPES
from semantic.schema import GovernedSchema
from semantic.validation import DIALECT, ValidatedTemplate, qualify_or_fail

#: Output column names the compiler adds; definitions cannot use them (field names start with a letter).
SOURCE_IDS = "_source_ids"
SOURCE_COUNT = "_source_count"
COVERAGE = "_coverage"
PERIOD = "period_start"
ROW_LIMIT = "_row_limit"
#: Dialects ``procura metrics compile`` can transpile to (sqlglot does the work).
DIALECTS = ("postgres", "snowflake", "bigquery", "duckdb")
_SENTINEL = re.compile("\x00([a-z_][a-z0-9_]*)\x00")


@dataclass(frozen=True)
class Variant:
    """Which allow-listed dimensions (in declaration order) and which grain a query groups by."""

    group_by: tuple[str, ...] = ()
    grain: Grain | None = None

    def describe(self) -> str:
        """``by supplier_id, month`` style label."""
        parts = [*self.group_by, *([self.grain] if self.grain else [])]
        return "by " + ", ".join(parts) if parts else "total"


@dataclass(frozen=True)
class CompiledQuery:
    """One variant of one metric, qualified and ready to execute.

    Attributes:
        metric: the metric name.
        variant: the grouping it implements.
        tree: the qualified sqlglot tree (placeholders intact), for transpiling.
        sql: the Postgres text with psycopg ``%(name)s`` placeholders; values are always bound separately.
        columns: the result column names in order (dimensions, ``period_start``, outputs, compiler columns).
    """

    metric: str
    variant: Variant
    tree: exp.Select
    sql: str
    columns: tuple[str, ...]
    #: The governed relation that answers (the template's; a rollup's after :mod:`semantic.rollups`).
    relation: str = ""

    def to_dialect(self, dialect: str, *, pretty: bool = True) -> str:
        """The query transpiled by sqlglot to ``dialect`` (placeholders in that dialect's notation)."""
        if dialect not in DIALECTS:
            raise ValueError(f"unsupported dialect {dialect!r} (supported: {', '.join(DIALECTS)})")
        if dialect == DIALECT:
            return render_psycopg(self.tree.copy(), pretty=pretty)
        return self.tree.sql(dialect=dialect, pretty=pretty)


def variants_of(definition: MetricDefinition) -> Iterator[Variant]:
    """Every grouping a metric allows: dimension subsets up to ``max_group_by`` times (no grain + grains)."""
    grains: list[Grain | None] = [None]
    if definition.time_dimension is not None:
        grains.extend(definition.time_dimension.grains)
    dims = list(definition.dimensions)
    for size in range(min(definition.max_group_by, len(dims)) + 1):
        for combo in itertools.combinations(dims, size):
            for grain in grains:
                yield Variant(group_by=combo, grain=grain)


def compile_variant(
    definition: MetricDefinition, template: ValidatedTemplate, variant: Variant, schema: GovernedSchema
) -> CompiledQuery:
    """Build, qualify and render one variant of a validated template.

    Raises:
        MetricDefinitionError: a dimension, time, provenance or coverage column is not a plain column of the
            template's relations, or the variant does not qualify against the schema.
    """
    name = definition.name
    tree = template.tree.copy()
    keys: list[tuple[str, exp.Expression]] = []
    for dim in variant.group_by:
        keys.append((dim, _column(name, f"dimension {dim}", definition.dimensions[dim].expr)))
    if variant.grain is not None:
        assert definition.time_dimension is not None  # variants_of only offers grains of a time dimension
        column = _column(name, "time dimension", definition.time_dimension.expr)
        trunc = exp.TimestampTrunc(this=column, unit=exp.Literal.string(variant.grain))
        keys.append((PERIOD, exp.cast(trunc, exp.DataType.build("date"))))

    projections: list[exp.Expr] = [expr.copy().as_(alias) for alias, expr in keys]
    projections.extend(tree.expressions)
    extra: list[str] = []
    if definition.provenance is not None:
        col = _column(name, "provenance", definition.provenance.column).sql(dialect=DIALECT)
        cap = definition.provenance.cap
        projections.append(
            sqlglot.parse_one(f"(array_agg(distinct {col} order by {col}))[1:{cap}]", read=DIALECT).as_(SOURCE_IDS)
        )
        projections.append(sqlglot.parse_one(f"count(distinct {col})", read=DIALECT).as_(SOURCE_COUNT))
        extra += [SOURCE_IDS, SOURCE_COUNT]
    if definition.coverage is not None:
        col = _column(name, "coverage", definition.coverage.column).sql(dialect=DIALECT)
        projections.append(sqlglot.parse_one(f"array_agg(distinct {col})", read=DIALECT).as_(COVERAGE))
        extra.append(COVERAGE)
    tree.set("expressions", projections)

    if keys:
        tree = tree.group_by(*[expr.copy() for _, expr in keys], append=True, copy=False)
        existing = tree.args.get("order")
        ordered = [exp.Ordered(this=exp.column(alias)) for alias, _ in keys]
        if existing is not None:
            ordered.extend(o.copy() for o in existing.expressions)
        tree.set("order", exp.Order(expressions=ordered))

    for placeholder in list(tree.find_all(exp.Placeholder)):
        spec = definition.parameters[str(placeholder.name)]
        placeholder.replace(exp.cast(placeholder.copy(), exp.DataType.build(SQL_TYPES[spec.type], dialect=DIALECT)))
    tree = tree.limit(exp.Placeholder(this=ROW_LIMIT), copy=False)

    qualified = qualify_or_fail(name, tree, schema, copy=False)
    assert isinstance(qualified, exp.Select)
    columns = (*[alias for alias, _ in keys], *definition.outputs, *extra)
    relation = ", ".join(sorted(template.relations))
    return CompiledQuery(
        metric=name, variant=variant, tree=qualified, sql=render_psycopg(qualified), columns=columns, relation=relation
    )


def render_psycopg(tree: exp.Expression, *, pretty: bool = False) -> str:
    """Postgres text for psycopg: ``%(name)s`` placeholders, every literal ``%`` doubled.

    ``tree`` is changed while rendering and restored afterwards: do not share it between threads meanwhile.

    Design note: psycopg treats ``%`` as the start of a placeholder, so a template's ``'%'`` (e.g. in LIKE)
    must reach it as ``%%``. Placeholders are swapped for NUL-delimited sentinels first (templates cannot
    contain NUL), the text is escaped, then the sentinels become ``%(name)s``.
    """
    swapped = []
    for placeholder in list(tree.find_all(exp.Placeholder)):
        sentinel = exp.Var(this=f"\x00{placeholder.name}\x00")
        placeholder.replace(sentinel)
        swapped.append((sentinel, placeholder))
    try:
        text = tree.sql(dialect=DIALECT, pretty=pretty).replace("%", "%%")
    finally:
        # The tree is shared (CompiledQuery.tree): put the placeholders back whatever happened.
        for sentinel, placeholder in swapped:
            sentinel.replace(placeholder)
    return _SENTINEL.sub(r"%(\1)s", text)


def _column(metric: str, what: str, text: str) -> exp.Column:
    try:
        parsed = sqlglot.parse_one(text, read=DIALECT)
    except SqlglotError as exc:
        raise MetricDefinitionError(metric, f"{what} expression {text!r} does not parse") from exc
    if not isinstance(parsed, exp.Column) or parsed.is_star:
        raise MetricDefinitionError(metric, f"{what} must be a plain column of the template's relations, not {text!r}")
    return parsed
