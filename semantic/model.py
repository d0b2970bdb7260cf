"""Typed, immutable metric definitions as written in the domain YAML files (``semantic/<domain>.yml``).

A definition says what a metric computes (one SQL template with named ``:placeholders``), what it may be asked
(typed parameters with defaults, allowed values and bounds; allow-listed dimensions and time grains), what it
returns (typed output columns with units) and under which accounting policy. These classes check the shape of
a definition; :mod:`semantic.validation` checks the template against the governed schema.
"""

from __future__ import annotations

import functools
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

METRIC_NAME = r"^[a-z][a-z0-9_]{0,40}\.[a-z][a-z0-9_]{0,62}$"
#: Parameter, dimension and output names: lower snake case; a leading underscore is reserved for the compiler.
FIELD_NAME = r"^[a-z][a-z0-9_]{0,62}$"
SCOPE_NAME = r"^[a-z][a-z0-9_-]{0,40}:[a-z][a-z0-9_-]{0,40}$"

ParameterType = Literal["string", "string_list", "date", "month", "integer", "decimal", "boolean"]
OutputType = Literal["money", "decimal", "quantity", "integer", "string", "date"]
Grain = Literal["day", "week", "month", "quarter", "year"]
GRAINS: tuple[Grain, ...] = ("day", "week", "month", "quarter", "year")

FieldName = Annotated[str, StringConstraints(pattern=FIELD_NAME)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BindSpec(_Frozen):
    """How a parameter of a metric defined in dbt filters the rows: a comparison with one dimension.

    ``eq``: ``dim = :p``; ``in``: ``dim = any(:p)``; ``not_in``: ``(dim is null or dim <> all(:p))`` (an
    exclusion keeps lines without a value); ``gte``/``lt``: half-open bounds; ``month``: the calendar month
    starting at ``:p``. An optional parameter without a default binds ``(:p is null or ...)``.
    """

    dimension: FieldName
    op: Literal["eq", "in", "not_in", "gte", "lt", "month"]


class ParameterSpec(_Frozen):
    """One typed parameter of a metric.

    Bounds (``minimum``/``maximum``) are written in the parameter's own notation: ISO dates for ``date``,
    ``YYYY-MM`` for ``month``, decimal strings or integers for numbers.
    """

    type: ParameterType
    description: str = Field(min_length=1)
    required: bool = False
    default: Any = None
    allowed_values: tuple[str, ...] | None = None
    pattern: str | None = None
    min_length: int | None = Field(default=None, ge=0)
    max_length: int = Field(default=128, ge=1, le=4096)
    min_items: int | None = Field(default=None, ge=0)
    max_items: int = Field(default=1000, ge=1, le=100_000)
    minimum: str | int | None = None
    maximum: str | int | None = None
    max_scale: int | None = Field(default=None, ge=0, le=18)
    #: Only for metrics defined in dbt's semantic spec (their SQL is generated from it); ignored otherwise.
    bind: BindSpec | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ParameterSpec:
        if self.required and self.default is not None:
            raise ValueError("a required parameter cannot have a default")
        if self.pattern is not None:
            re.compile(self.pattern)
        if self.allowed_values is not None and self.type not in ("string", "string_list"):
            raise ValueError("allowed_values applies to string and string_list parameters only")
        return self


class DimensionSpec(_Frozen):
    """A column a metric may group by; ``expr`` is a column of the template's relations."""

    expr: str = Field(min_length=1)
    type: Literal["string", "integer", "date"] = "string"
    description: str = Field(min_length=1)


class TimeDimensionSpec(_Frozen):
    """The date column a metric may bucket by one of its allow-listed grains (output column ``period_start``)."""

    expr: str = Field(min_length=1)
    grains: tuple[Grain, ...] = Field(min_length=1)
    description: str = Field(min_length=1)


class OutputSpec(_Frozen):
    """One output column.

    ``unit`` is a literal unit (``"units"``) or ``"{parameter}"`` to take it from a parameter value (the
    reporting currency). ``role: match_count`` marks the column that tells "no data" apart from a zero total.
    """

    type: OutputType
    description: str = Field(min_length=1)
    unit: str | None = None
    scale: int | None = Field(default=None, ge=0, le=18)
    role: Literal["value", "match_count"] = "value"

    @model_validator(mode="after")
    def _scale_for_decimals(self) -> OutputSpec:
        if self.scale is not None and self.type not in ("decimal", "quantity", "money"):
            raise ValueError("scale applies to money, decimal and quantity outputs only")
        return self


class ProvenanceSpec(_Frozen):
    """The source-record id column behind every aggregated number, and how many ids a result carries."""

    column: str = Field(min_length=1)
    cap: int = Field(default=100, ge=1, le=10_000)


class CoverageSpec(_Frozen):
    """Which requested keys (a list parameter) actually contributed rows; missing keys make a result partial."""

    parameter: FieldName
    column: str = Field(min_length=1)


class Constraint(_Frozen):
    """A cross-parameter rule: ``less_than: [a, b]`` requires ``a < b`` (e.g. a half-open period)."""

    less_than: tuple[FieldName, FieldName]


class RankingSpec(_Frozen):
    """A ranking: the rows of one allow-listed dimension ordered by an output, cut at a bounded limit.

    The compiler wraps the grouped template (:func:`semantic.compile.compile_ranking`). Ranks are standard
    competition ranks (1, 2, 2, 4): every group tied at the cut is returned, so more than ``limit`` rows can come
    back, and ``tie_output`` says how many groups share each rank.

    Attributes:
        order_by / direction / limit: the parameters choosing the output to rank by (its allowed values are
            output names), ``top``/``bottom``, and how many ranks to return.
        rank_output / tie_output / groups_output / share_output: the output columns the compiler adds.
    """

    order_by: FieldName
    direction: FieldName
    limit: FieldName
    rank_output: FieldName = "rank"
    tie_output: FieldName = "tie_count"
    groups_output: FieldName = "groups_ranked"
    share_output: FieldName = "share_of_total_percent"

    def parameters(self) -> tuple[str, ...]:
        """The parameters the compiler binds (they are not in the template)."""
        return (self.order_by, self.direction, self.limit)

    def outputs(self) -> tuple[str, ...]:
        """The output columns the compiler adds after the template's."""
        return (self.rank_output, self.tie_output, self.groups_output, self.share_output)


class PeriodOffsetSpec(_Frozen):
    """A comparison with a base period derived from the requested one (:func:`semantic.params.base_period`).

    ``compare`` chooses ``previous_period``, ``same_period_last_year`` or ``custom`` (then the caller gives
    ``base_start``/``base_end``); otherwise the base period is derived and bound to those two parameters.
    """

    start: FieldName
    end: FieldName
    compare: FieldName
    base_start: FieldName
    base_end: FieldName


class PartitionSpec(_Frozen):
    """A value only meaningful within one value of a dimension (amounts in the document's own currency): the
    caller fixes it by ``parameter`` or groups by ``dimension``; anything else is refused naming both."""

    parameter: FieldName
    dimension: FieldName


class MetricDefinition(_Frozen):
    """One named metric: a parameterized, allow-listed SQL template and its typed interface."""

    name: Annotated[str, StringConstraints(pattern=METRIC_NAME)]
    description: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    scope: Annotated[str, StringConstraints(pattern=SCOPE_NAME)]
    relations: tuple[str, ...] = Field(min_length=1)
    parameters: dict[FieldName, ParameterSpec] = Field(default_factory=dict)
    constraints: tuple[Constraint, ...] = ()
    dimensions: dict[FieldName, DimensionSpec] = Field(default_factory=dict)
    time_dimension: TimeDimensionSpec | None = None
    max_group_by: int = Field(default=2, ge=0, le=4)
    outputs: dict[FieldName, OutputSpec] = Field(min_length=1)
    currency_parameter: FieldName | None = None
    provenance: ProvenanceSpec | None = None
    coverage: CoverageSpec | None = None
    policy: dict[FieldName, str] = Field(default_factory=dict)
    sql: str = Field(min_length=1)
    min_group_by: int = Field(default=0, ge=0, le=4)
    ranking: RankingSpec | None = None
    period_offset: PeriodOffsetSpec | None = None
    partition: PartitionSpec | None = None
    #: Parameters of which a request must give at least one (a share's part named in either of two ways).
    one_of: tuple[FieldName, ...] = ()

    def template_parameters(self) -> frozenset[str]:
        """The parameters the SQL template uses: all but those the compiler or binder consume."""
        consumed: set[str] = set(self.ranking.parameters()) if self.ranking else set()
        if self.period_offset is not None:
            consumed.add(self.period_offset.compare)
        return frozenset(self.parameters) - consumed

    def template_outputs(self) -> tuple[str, ...]:
        """The output columns the SQL template selects, in order (the compiler adds a ranking's after them)."""
        added = set(self.ranking.outputs()) if self.ranking else set()
        return tuple(o for o in self.outputs if o not in added)

    @model_validator(mode="after")
    def _references(self) -> MetricDefinition:
        declared = set(self.parameters)
        if self.min_group_by > self.max_group_by:
            raise ValueError("min_group_by is larger than max_group_by")
        named = [*(self.ranking.parameters() if self.ranking else ()), *(
            (o.start, o.end, o.compare, o.base_start, o.base_end) if (o := self.period_offset) else ()),
            *((self.partition.parameter,) if self.partition else ()), *self.one_of]
        for pname in named:
            if pname not in declared:
                raise ValueError(f"ranking/period_offset/partition/one_of names undeclared parameter {pname!r}")
        if self.ranking is not None:
            missing = [o for o in self.ranking.outputs() if o not in self.outputs]
            if missing:
                raise ValueError(f"ranking outputs not declared: {', '.join(missing)}")
        if self.partition is not None and self.partition.dimension not in self.dimensions:
            raise ValueError(f"partition dimension {self.partition.dimension!r} is not an allow-listed dimension")
        for constraint in self.constraints:
            for name in constraint.less_than:
                if name not in declared:
                    raise ValueError(f"constraint names undeclared parameter {name!r}")
        if self.currency_parameter is not None and self.currency_parameter not in declared:
            raise ValueError(f"currency_parameter {self.currency_parameter!r} is not a declared parameter")
        if self.coverage is not None:
            spec = self.parameters.get(self.coverage.parameter)
            if spec is None or spec.type != "string_list":
                raise ValueError(f"coverage parameter {self.coverage.parameter!r} must be a string_list parameter")
        for output in self.outputs.values():
            ref = parameter_ref(output.unit)
            if ref is not None and ref not in declared:
                raise ValueError(f"output unit refers to undeclared parameter {ref!r}")
        for key, text in self.policy.items():
            ref = parameter_ref(text)
            if ref is not None and ref not in declared:
                raise ValueError(f"policy {key!r} refers to undeclared parameter {ref!r}")
        if sum(1 for o in self.outputs.values() if o.role == "match_count") > 1:
            raise ValueError("at most one output may have role match_count")
        clash = set(self.dimensions) & (set(self.outputs) | {"period_start"})
        if clash:
            raise ValueError(f"dimension names clash with outputs: {', '.join(sorted(clash))}")
        return self


class MetricFile(_Frozen):
    """One domain file: ``domain``, default ``owner`` (also of the domain's metrics defined in dbt), and the
    metrics that keep an explicit SQL template (listings, which dbt's metric types do not express)."""

    domain: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,40}$")]
    owner: str | None = None
    metrics: tuple[dict[str, Any], ...] = ()


@functools.lru_cache(maxsize=1024)
def parameter_ref(text: str | None) -> str | None:
    """``"{name}"`` -> ``name``: a value taken from a parameter at query time; anything else is literal."""
    if text is None:
        return None
    match = re.fullmatch(r"\{([a-z][a-z0-9_]*)\}", text)
    return match.group(1) if match else None
