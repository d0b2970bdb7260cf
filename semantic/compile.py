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
    """Every grouping a metric allows: dimension subsets of ``min_group_by`` to ``max_group_by`` dimensions times
    (no grain + grains); a ranking takes no grain."""
    grains: list[Grain | None] = [None]
    if definition.time_dimension is not None and definition.ranking is None:
        grains.extend(definition.time_dimension.grains)
    dims = list(definition.dimensions)
    for size in range(definition.min_group_by, min(definition.max_group_by, len(dims)) + 1):
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
    if definition.ranking is not None:
        return compile_ranking(definition, template, variant, schema)
    tree, keys, extra = _grouped(definition, template, variant)
    _cast_placeholders(definition, tree)
    tree = tree.limit(exp.Placeholder(this=ROW_LIMIT), copy=False)
    columns = (*[alias for alias, _ in keys], *definition.outputs, *extra)
    return _finish(definition, template, variant, tree, schema, columns)


def compile_ranking(
    definition: MetricDefinition, template: ValidatedTemplate, variant: Variant, schema: GovernedSchema
) -> CompiledQuery:
    """A ranking: the grouped template (one dimension) ranked by the output ``order_by`` names, cut at ``limit``.

    The grouped query becomes a CTE; ``rank()`` orders it by the chosen output (``direction`` ``top`` =
    largest first), the rows ranked ``<= limit`` are returned with ties at the cut included, each with how many
    groups share its rank, how many groups were ranked and its share of the ranked output's total over all
    groups. The output to rank by is a bound value picked by a ``case`` over the allow-listed outputs, so no
    identifier comes from a request.

    Raises:
        MetricDefinitionError: the variant is not exactly one dimension, or ``order_by`` allows a value that is
            not an output of the template.
    """
    ranking = definition.ranking
    assert ranking is not None
    name = definition.name
    if len(variant.group_by) != 1 or variant.grain is not None:
        raise MetricDefinitionError(name, f"a ranking groups by exactly one dimension and no grain, not {variant}")
    allowed = definition.parameters[ranking.order_by].allowed_values or ()
    orderable = [o for o in definition.template_outputs() if o in allowed]
    if not orderable or len(orderable) != len(allowed):
        raise MetricDefinitionError(name, f"{ranking.order_by}.allowed_values must be outputs of the template")
    grouped, _, extra = _grouped(definition, template, variant)
    grouped.set("order", None)
    dim = variant.group_by[0]
    value = f"case :{ranking.order_by} " + " ".join(f"when '{o}' then g.{o}" for o in orderable) + " end"
    carried = [*definition.template_outputs(), *extra]
    text = f"""
        with grouped as (select 1 as placeholder_column),
        ranked as (
            select g.{dim}, {", ".join(f"g.{c}" for c in carried)},
                rank() over (order by (case when :{ranking.direction} = 'bottom' then 1 else -1 end) * ({value}))
                    as {ranking.rank_output},
                count(*) over () as {ranking.groups_output},
                round(100 * ({value}) / nullif(sum({value}) over (), 0), 4) as {ranking.share_output}
            from grouped as g
        )
        select r.{dim}, {", ".join(f"r.{o}" for o in definition.template_outputs())},
            r.{ranking.rank_output}, count(*) over (partition by r.{ranking.rank_output}) as {ranking.tie_output},
            r.{ranking.groups_output}, r.{ranking.share_output}{"".join(f", r.{c}" for c in extra)}
        from ranked as r
        where r.{ranking.rank_output} <= :{ranking.limit}
        order by r.{ranking.rank_output}, r.{dim}
    """
    try:
        tree = sqlglot.parse_one(text, read=DIALECT)
    except SqlglotError as exc:  # pragma: no cover - the text is fixed apart from checked field names
        raise MetricDefinitionError(name, f"ranking query does not parse: {exc}") from exc
    assert isinstance(tree, exp.Select)
    cte = next(c for c in tree.find_all(exp.CTE) if c.alias_or_name == "grouped")
    cte.set("this", grouped)
    _cast_placeholders(definition, tree)
    tree = tree.limit(exp.Placeholder(this=ROW_LIMIT), copy=False)
    columns = (dim, *definition.template_outputs(), *ranking.outputs(), *extra)
    if tuple(definition.outputs) != (*definition.template_outputs(), *ranking.outputs()):
        raise MetricDefinitionError(
            name, "a ranking's own outputs must come last, in the order rank, ties, groups, share"
        )
    return _finish(definition, template, variant, tree, schema, columns)


def _grouped(
    definition: MetricDefinition, template: ValidatedTemplate, variant: Variant
) -> tuple[exp.Select, list[tuple[str, exp.Expression]], list[str]]:
    """The template with the variant's group-by keys, provenance and coverage aggregates (no casts, no limit)."""
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
    return tree, keys, extra


def _cast_placeholders(definition: MetricDefinition, tree: exp.Expression) -> None:
    for placeholder in list(tree.find_all(exp.Placeholder)):
        spec = definition.parameters[str(placeholder.name)]
        placeholder.replace(exp.cast(placeholder.copy(), exp.DataType.build(SQL_TYPES[spec.type], dialect=DIALECT)))


def _finish(
    definition: MetricDefinition,
    template: ValidatedTemplate,
    variant: Variant,
    tree: exp.Select,
    schema: GovernedSchema,
    columns: tuple[str, ...],
) -> CompiledQuery:
    qualified = qualify_or_fail(definition.name, tree, schema, copy=False)
    assert isinstance(qualified, exp.Select)
    return CompiledQuery(
        metric=definition.name, variant=variant, tree=qualified, sql=render_psycopg(qualified), columns=columns,
        relation=", ".join(sorted(template.relations)),
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
