"""Metrics defined in dbt's semantic spec -> Procura metric definitions with generated SQL templates.

The governed metrics live beside the marts they measure (``models/marts/validated_invoice_lines.yml``): a dbt
semantic model (entities, dimensions, measures over the policy columns) and dbt metrics (simple, ratio), which
``dbt parse`` validates and writes to ``target/semantic_manifest.json``. What Procura needs on top to serve a
metric (typed, bounded parameters and the dimension each binds to, scope, outputs, allow-listed groupings,
provenance, coverage, policy text, router phrasing) is under the metric's ``config.meta.procura``, validated
here by :class:`ProcuraMeta`.

From that, one SQL template per served metric is generated: the measure aggregates, the metric's filter and one
predicate per parameter bind, with named ``:placeholders``. It then goes through the same sqlglot validation
and variant compilation as a hand-written template (:mod:`semantic.validation`, :mod:`semantic.compile`), so a
generated query is held to the same allow-lists. No accounting rule is written here: the measures sum columns
dbt computes once per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator

from semantic.errors import MetricDefinitionError
from semantic.model import (
    METRIC_NAME,
    SCOPE_NAME,
    Constraint,
    CoverageSpec,
    FieldName,
    Grain,
    OutputSpec,
    ParameterSpec,
    PartitionSpec,
    PeriodOffsetSpec,
    ProvenanceSpec,
    RankingSpec,
    _Frozen,
)

#: The output column every generated metric ends with: how many lines matched (0 = no data, not zero).
MATCH_COUNT = "matched_line_count"
_DIMENSION_REF = re.compile(r"\{\{\s*Dimension\(\s*'([a-z][a-z0-9_]*)__([a-z][a-z0-9_]*)'\s*\)\s*\}\}")
_AGGREGATES = {"sum": "sum", "count": "count", "count_distinct": "count_distinct", "min": "min", "max": "max",
               "average": "avg"}


class ValueOutput(OutputSpec):
    """The output column carrying the dbt metric's own value."""

    name: FieldName


class ExtraOutput(OutputSpec):
    """A further output column: the value of another dbt metric over the same rows."""

    metric: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,250}$")]


class ShareMeta(_Frozen):
    """A share: the ratio metric's numerator is summed only over the rows the ``numerator`` parameters select
    (e.g. the suppliers), its denominator over all rows the other parameters select (the company, the
    category); both in one pass, so the part is always a part of the whole."""

    numerator: tuple[FieldName, ...] = Field(min_length=1)


class ComparisonMeta(_Frozen):
    """A period comparison: the value over ``[start, end)`` beside the same value over a base period (the
    previous period, the same period a year earlier, or one the caller gives), with the change."""

    start: FieldName
    end: FieldName


class ProcuraMeta(_Frozen):
    """``config.meta.procura`` of a dbt metric: what Procura needs to serve it.

    Attributes:
        name: the served name, ``<domain>.<name>`` (the names API, router and MCP callers use).
        scope: the API-key scope a caller needs.
        owner: defaults to the owner of the domain file ``semantic/<domain>.yml``.
        value: the output column of the metric's value; ``also``: further columns from other dbt metrics.
        parameters: typed, bounded parameters; each binds to a dimension of the semantic model.
        group_by / grains / max_group_by: the allow-listed groupings (dimensions of the semantic model; grains
            of its aggregation time dimension).
        synonyms: phrases the router may match the metric by (besides its name and label).
        shape: ``aggregate`` (the default), ``share`` (see :class:`ShareMeta`), ``comparison`` (see
            :class:`ComparisonMeta`) or ``ranking`` (one dimension ranked by an output; see
            :class:`semantic.model.RankingSpec`). The parameters a shape needs of its own (``compare_to``,
            ``base_start_date``/``base_end_date``; ``order_by``/``direction``/``limit``) are generated.
        partition: the value adds up only within one value of a dimension (document currency).
    """

    name: Annotated[str, StringConstraints(pattern=METRIC_NAME)]
    scope: Annotated[str, StringConstraints(pattern=SCOPE_NAME)]
    owner: str | None = None
    value: ValueOutput
    also: dict[FieldName, ExtraOutput] = Field(default_factory=dict)
    parameters: dict[FieldName, ParameterSpec] = Field(min_length=1)
    constraints: tuple[Constraint, ...] = ()
    group_by: tuple[FieldName, ...] = ()
    grains: tuple[Grain, ...] = ()
    max_group_by: int = Field(default=2, ge=0, le=4)
    currency_parameter: FieldName | None = None
    provenance: ProvenanceSpec | None = None
    coverage: CoverageSpec | None = None
    policy: dict[FieldName, str] = Field(default_factory=dict)
    synonyms: tuple[str, ...] = ()
    shape: Literal["aggregate", "share", "comparison", "ranking"] = "aggregate"
    share: ShareMeta | None = None
    comparison: ComparisonMeta | None = None
    partition: PartitionSpec | None = None

    @model_validator(mode="after")
    def _binds(self) -> ProcuraMeta:
        for shape in ("share", "comparison"):
            if (self.shape == shape) != (getattr(self, shape) is not None):
                raise ValueError(f"shape {self.shape!r}: the {shape} block goes with shape {shape!r} only")
        if self.shape == "ranking" and (self.grains or self.max_group_by < 1):
            raise ValueError("a ranking has no grains and allows one dimension (max_group_by >= 1)")
        for pname in self.share.numerator if self.share else ():
            if pname not in self.parameters:
                raise ValueError(f"share.numerator names undeclared parameter {pname!r}")
        for pname, spec in self.parameters.items():
            if spec.bind is None:
                raise ValueError(f"parameter {pname!r} has no bind (which dimension it filters)")
        return self


@dataclass(frozen=True)
class _SemanticModel:
    name: str
    relation: str
    primary_entity: str | None
    dimensions: Mapping[str, Mapping[str, Any]]
    measures: Mapping[str, Mapping[str, Any]]
    agg_time_dimension: str | None

    def column(self, dimension: str, where: str) -> str:
        dim = self.dimensions.get(dimension)
        if dim is None:
            raise ValueError(f"{where}: {dimension!r} is not a dimension of semantic model {self.name!r}")
        return str(dim.get("expr") or dim["name"])


def served_metrics(semantic_manifest: Mapping[str, Any], owners: Mapping[str, str]) -> Iterator[dict[str, Any]]:
    """Procura metric definitions (as mappings for :func:`semantic.loader.load_metric`) of every dbt metric
    with ``config.meta.procura``, SQL generated.

    Args:
        semantic_manifest: the parsed ``semantic_manifest.json`` (or its snapshot).
        owners: domain -> owner, from the domain files.

    Raises:
        MetricDefinitionError: naming the dbt metric and the field or reason.
    """
    models = [_semantic_model(raw) for raw in semantic_manifest.get("semantic_models", ())]
    metrics = {str(m["name"]): m for m in semantic_manifest.get("metrics", ())}
    for name, raw in metrics.items():
        procura = ((raw.get("config") or {}).get("meta") or {}).get("procura")
        if procura is None:
            continue
        label = f"{name} (dbt metric)"
        try:
            meta = ProcuraMeta.model_validate(procura)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "".join(f".{p}" for p in first["loc"])
            raise MetricDefinitionError(label, f"config.meta.procura{where}: {first['msg']}") from exc
        try:
            yield _definition(name, raw, meta, metrics, models, owners)
        except ValueError as exc:
            raise MetricDefinitionError(label, str(exc)) from exc


def _semantic_model(raw: Mapping[str, Any]) -> _SemanticModel:
    relation = raw["node_relation"]
    primary = next((e["name"] for e in raw.get("entities", ()) if e.get("type") == "primary"), None)
    return _SemanticModel(
        name=str(raw["name"]),
        relation=f"{relation['schema_name']}.{relation['alias']}".lower(),
        primary_entity=raw.get("primary_entity") or primary,
        dimensions={str(d["name"]): d for d in raw.get("dimensions", ())},
        measures={str(m["name"]): m for m in raw.get("measures", ())},
        agg_time_dimension=(raw.get("defaults") or {}).get("agg_time_dimension"),
    )


@dataclass(frozen=True)
class _Expression:
    """A dbt metric as SQL over one semantic model: its aggregate and the filters it applies."""

    model: _SemanticModel
    sql: str
    filters: frozenset[str]
    additive_sum: bool


def _expression(name: str, metrics: Mapping[str, Mapping[str, Any]], models: list[_SemanticModel]) -> _Expression:
    raw = metrics.get(name)
    if raw is None:
        raise ValueError(f"refers to dbt metric {name!r}, which does not exist")
    params = raw.get("type_params") or {}
    own = frozenset(f["where_sql_template"] for f in ((raw.get("filter") or {}).get("where_filters") or ()))
    kind = raw.get("type")
    if kind == "simple":
        measure_name = params["measure"]["name"]
        if (params["measure"].get("filter") or None) is not None:
            raise ValueError(f"measure filters are not supported (metric {name!r}); filter the metric")
        model = next((m for m in models if measure_name in m.measures), None)
        if model is None:
            raise ValueError(f"measure {measure_name!r} of metric {name!r} is in no semantic model")
        measure = model.measures[measure_name]
        agg = _AGGREGATES.get(str(measure["agg"]))
        if agg is None:
            raise ValueError(f"measure {measure_name!r}: aggregation {measure['agg']!r} is not supported")
        column = str(measure.get("expr") or measure_name)
        if agg == "count_distinct":
            # Not additive (a document with lines in two groups counts once): never summed from a rollup.
            return _Expression(model, f"count(distinct {column})", own, False)
        return _Expression(model, f"{agg}({column})", own, agg == "sum")
    if kind == "ratio":
        num = _expression(params["numerator"]["name"], metrics, models)
        den = _expression(params["denominator"]["name"], metrics, models)
        if num.model != den.model:
            raise ValueError(f"ratio {name!r}: numerator and denominator must use one semantic model")
        if num.filters != den.filters:
            raise ValueError(f"ratio {name!r}: numerator and denominator must apply the same filters")
        return _Expression(num.model, f"{num.sql} / nullif({den.sql}, 0)", own | num.filters, False)
    raise ValueError(f"metric {name!r}: type {kind!r} is not served (simple and ratio are)")


def _definition(
    name: str,
    raw: Mapping[str, Any],
    meta: ProcuraMeta,
    metrics: Mapping[str, Mapping[str, Any]],
    models: list[_SemanticModel],
    owners: Mapping[str, str],
) -> dict[str, Any]:
    value = _expression(name, metrics, models)
    model = value.model
    extras = {out: (_expression(spec.metric, metrics, models), spec) for out, spec in meta.also.items()}
    for out, (expr, _) in extras.items():
        if expr.model != model or expr.filters != value.filters:
            raise ValueError(f"config.meta.procura.also.{out}: must use the metric's semantic model and filters")

    def rendered(expr: _Expression, scale: int | None) -> str:
        if expr.additive_sum:
            return f"coalesce({expr.sql}, 0)"
        return f"round({expr.sql}, {scale})" if scale is not None else expr.sql

    shape_parameters, shape_outputs, offset, ranking = _shape_interface(meta)
    params = {**meta.parameters, **shape_parameters}
    # Parameters a shape renders itself (a share's numerator, a comparison's periods) are not plain binds.
    special = set(meta.share.numerator) if meta.share else set()
    if offset is not None:
        special |= {offset.start, offset.end, offset.base_start, offset.base_end, offset.compare}
    if ranking is not None:
        special |= set(ranking.parameters())
    where = [_render_filter(f, model, f"filter of {name!r}") for f in sorted(value.filters)]
    for pname, spec in meta.parameters.items():
        if pname in special:
            continue
        assert spec.bind is not None  # checked by ProcuraMeta
        column = model.column(spec.bind.dimension, f"parameter {pname!r} binds")
        where.append(_bind(pname, spec, column))

    if meta.shape == "share":
        assert meta.share is not None
        select = _share_select(name, meta, meta.share, metrics, models)
    elif meta.shape == "comparison":
        assert offset is not None
        time_column = model.column(model.agg_time_dimension or "", "agg_time_dimension")
        select, period_predicate = _comparison_select(meta, value, offset, time_column)
        where.append(period_predicate)
    else:
        select = [f"{rendered(value, meta.value.scale)} as {meta.value.name}"]
        select += [f"{rendered(expr, spec.scale)} as {out}" for out, (expr, spec) in extras.items()]
        select.append(f"count(*) as {MATCH_COUNT}")

    dimensions = {
        d: {"expr": model.column(d, "group_by"), "description": _description(model, d)} for d in meta.group_by
    }
    time_dimension = None
    if meta.grains:
        if model.agg_time_dimension is None:
            raise ValueError(f"grains need an agg_time_dimension on semantic model {model.name!r}")
        time_dimension = {
            "expr": model.column(model.agg_time_dimension, "agg_time_dimension"),
            "grains": list(meta.grains),
            "description": _description(model, model.agg_time_dimension),
        }
    outputs: dict[str, Any] = {meta.value.name: meta.value.model_dump(exclude={"name"}, exclude_none=True)}
    outputs.update({out: spec.model_dump(exclude={"metric"}, exclude_none=True) for out, spec in meta.also.items()})
    outputs.update(shape_outputs.get("before_count", {}))
    outputs[MATCH_COUNT] = {
        "type": "integer",
        "role": "match_count",
        "description": "Number of validated invoice lines that matched; 0 means no data, not a zero value.",
    }
    outputs.update(shape_outputs.get("after_count", {}))
    sql = "select\n    " + ",\n    ".join(select) + f"\nfrom {model.relation}\nwhere " + "\n  and ".join(where)
    domain = meta.name.split(".")[0]
    definition: dict[str, Any] = {
        "name": meta.name,
        "description": str(raw.get("description") or raw.get("label") or name),
        "scope": meta.scope,
        "relations": [model.relation],
        "parameters": {p: s.model_dump(exclude_none=True) for p, s in params.items()},
        "constraints": [c.model_dump() for c in meta.constraints],
        "dimensions": dimensions,
        "max_group_by": meta.max_group_by,
        "outputs": outputs,
        "policy": dict(meta.policy),
        "sql": sql,
    }
    owner = meta.owner or owners.get(domain)
    if owner is not None:
        definition["owner"] = owner
    for key, val in (
        ("time_dimension", time_dimension),
        ("currency_parameter", meta.currency_parameter),
        ("provenance", meta.provenance.model_dump() if meta.provenance else None),
        ("coverage", meta.coverage.model_dump() if meta.coverage else None),
        ("ranking", ranking.model_dump() if ranking else None),
        ("period_offset", offset.model_dump() if offset else None),
        ("partition", meta.partition.model_dump() if meta.partition else None),
        ("min_group_by", 1 if ranking else None),
        # a share whose part parameters are all optional: without any, the part would be the whole
        ("one_of", list(meta.share.numerator) if meta.share and len(meta.share.numerator) > 1
         and not any(meta.parameters[p].required for p in meta.share.numerator) else None),
    ):
        if val is not None:
            definition[key] = val
    return definition


_COMPARE = "compare_to"
_BASE_START, _BASE_END = "base_start_date", "base_end_date"
_MONEYLIKE = ("money", "decimal", "quantity")


def _shape_interface(
    meta: ProcuraMeta,
) -> tuple[dict[str, ParameterSpec], dict[str, dict[str, Any]], PeriodOffsetSpec | None, RankingSpec | None]:
    """The parameters and outputs a shape adds to the metric's own, and its offset or ranking spec."""
    value = meta.value
    unit = {"unit": value.unit} if value.unit else {}
    if meta.shape == "share":
        # Part and whole are sums of the same money column as the ratio, in the reporting currency.
        currency = "{reporting_currency}" if "reporting_currency" in meta.parameters else None
        return {}, {"before_count": {
            "part_value": {"type": "money", "unit": currency,
                           "description": "The numerator: the value over the chosen part (e.g. the suppliers)."},
            "whole_value": {"type": "money", "unit": currency, "description": "The denominator: the value over "
                            "the whole (every line the other parameters match)."},
            "part_line_count": {"type": "integer", "description": "Lines in the part."},
        }}, None, None
    if meta.shape == "comparison":
        assert meta.comparison is not None
        start = meta.parameters.get(meta.comparison.start)
        low, high = (start.minimum, start.maximum) if start else (None, None)
        params = {
            _COMPARE: ParameterSpec(
                type="string", default="previous_period",
                allowed_values=("previous_period", "same_period_last_year", "custom"),
                description="Base period: the previous period of the same length (calendar months when both "
                "bounds are first days of a month), the same period a year earlier, or custom (base_start_date "
                "and base_end_date).",
            ),
            _BASE_START: ParameterSpec(type="date", description="First day of a custom base period (inclusive); "
                                       "derived otherwise and echoed in the result.", minimum=low, maximum=high),
            _BASE_END: ParameterSpec(type="date", description="Day after a custom base period (exclusive); derived "
                                     "otherwise and echoed in the result.", minimum=low, maximum=high),
        }
        money = {"type": value.type, **unit, **({"scale": value.scale} if value.scale is not None else {})}
        outputs = {"before_count": {
            "base_value": {**money, "description": "The value over the base period."},
            "change": {**money, "description": "The value minus the base value."},
            "change_percent": {"type": "decimal", "scale": 2, "unit": "percent", "description": "100 * change / "
                               "|base value|; null when the base value is zero or the base period has no data "
                               "(see comparison)."},
            "comparison": {"type": "string", "description": "compared, zero_base (base lines summing to zero) or "
                           "no_base_data (no lines in the base period)."},
            "current_line_count": {"type": "integer", "description": "Lines in the requested period."},
            "base_line_count": {"type": "integer", "description": "Lines in the base period."},
        }}
        offset = PeriodOffsetSpec(start=meta.comparison.start, end=meta.comparison.end, compare=_COMPARE,
                                  base_start=_BASE_START, base_end=_BASE_END)
        return params, outputs, offset, None
    if meta.shape == "ranking":
        orderable = (value.name, *meta.also, MATCH_COUNT)
        params = {
            "order_by": ParameterSpec(type="string", default=value.name, allowed_values=orderable,
                                      description="The output to rank by."),
            "direction": ParameterSpec(type="string", default="top", allowed_values=("top", "bottom"),
                                       description="top: largest first; bottom: smallest first."),
            "limit": ParameterSpec(type="integer", default=5, minimum=1, maximum=100,
                                   description="How many ranks to return (groups tied at the cut are all returned)."),
        }
        ranking = RankingSpec(order_by="order_by", direction="direction", limit="limit")
        outputs = {"after_count": {
            ranking.rank_output: {"type": "integer", "description": "Competition rank (1, 2, 2, 4) by order_by."},
            ranking.tie_output: {"type": "integer", "description": "Groups sharing this rank; ties at the cut are "
                                 "all returned, so more than limit rows can come back."},
            ranking.groups_output: {"type": "integer", "description": "Groups ranked in total (before the cut)."},
            ranking.share_output: {"type": "decimal", "scale": 4, "unit": "percent", "description": "This group's "
                                   "order_by value as a percentage of its total over all groups ranked."},
        }}
        return params, outputs, None, ranking
    return {}, {}, None, None


def _share_select(
    name: str,
    meta: ProcuraMeta,
    share: ShareMeta,
    metrics: Mapping[str, Mapping[str, Any]],
    models: list[_SemanticModel],
) -> list[str]:
    raw = metrics[name]
    if raw.get("type") != "ratio":
        raise ValueError("shape 'share' needs a ratio metric (numerator: the part, denominator: the whole)")
    params = raw["type_params"]
    num = _expression(params["numerator"]["name"], metrics, models)
    den = _expression(params["denominator"]["name"], metrics, models)
    if not (num.additive_sum and den.additive_sum):
        raise ValueError("shape 'share' needs sums in numerator and denominator")
    predicates = []
    for pname in share.numerator:
        spec = meta.parameters[pname]
        assert spec.bind is not None
        predicates.append(_bind(pname, spec, num.model.column(spec.bind.dimension, f"share.numerator {pname!r}")))
    part_filter = " and ".join(predicates)
    part = f"coalesce({num.sql} filter (where {part_filter}), 0)"
    whole = f"coalesce({den.sql}, 0)"
    scale = meta.value.scale if meta.value.scale is not None else 4
    return [
        f"round(100 * {part} / nullif({whole}, 0), {scale}) as {meta.value.name}",
        f"{part} as part_value",
        f"{whole} as whole_value",
        f"count(*) filter (where {part_filter}) as part_line_count",
        f"count(*) as {MATCH_COUNT}",
    ]


def _comparison_select(
    meta: ProcuraMeta, value: _Expression, offset: PeriodOffsetSpec, time_column: str
) -> tuple[list[str], str]:
    if not value.additive_sum:
        raise ValueError("shape 'comparison' needs a simple sum metric")
    current = f"{time_column} >= :{offset.start} and {time_column} < :{offset.end}"
    base = f"{time_column} >= :{offset.base_start} and {time_column} < :{offset.base_end}"
    cur_value = f"coalesce({value.sql} filter (where {current}), 0)"
    base_value = f"coalesce({value.sql} filter (where {base}), 0)"
    select = [
        f"{cur_value} as {meta.value.name}",
        f"{base_value} as base_value",
        f"{cur_value} - {base_value} as change",
        f"round(100 * ({cur_value} - {base_value}) / nullif(abs({base_value}), 0), 2) as change_percent",
        f"case when count(*) filter (where {base}) = 0 then 'no_base_data' when {base_value} = 0 then 'zero_base' "
        "else 'compared' end as comparison",
        f"count(*) filter (where {current}) as current_line_count",
        f"count(*) filter (where {base}) as base_line_count",
        f"count(*) as {MATCH_COUNT}",
    ]
    return select, f"(({current}) or ({base}))"


def _description(model: _SemanticModel, dimension: str) -> str:
    return str(model.dimensions[dimension].get("description") or dimension)


def _render_filter(template: str, model: _SemanticModel, where: str) -> str:
    """``{{ Dimension('entity__dim') }}`` -> the dimension's column; any other Jinja is refused."""

    def column(match: re.Match[str]) -> str:
        entity, dimension = match.group(1), match.group(2)
        if entity != model.primary_entity:
            raise ValueError(f"{where}: entity {entity!r} is not the primary entity of {model.name!r}")
        return model.column(dimension, where)

    text = _DIMENSION_REF.sub(column, template)
    if "{{" in text or "{%" in text:
        raise ValueError(f"{where}: only {{{{ Dimension('entity__name') }}}} references are supported")
    return text if re.fullmatch(r"[a-z_][a-z0-9_]*", text) else f"({text})"


def _bind(name: str, spec: ParameterSpec, column: str) -> str:
    assert spec.bind is not None
    op = spec.bind.op
    if op == "eq":
        predicate = f"{column} = :{name}"
    elif op == "in":
        predicate = f"{column} = any(:{name})"
    elif op == "not_in":
        # A line without a value (no product group) is not in any excluded set: keep it.
        predicate = f"({column} is null or {column} <> all(:{name}))"
    elif op == "gte":
        predicate = f"{column} >= :{name}"
    elif op == "lt":
        predicate = f"{column} < :{name}"
    else:  # month: the calendar month starting at the parameter
        predicate = f"{column} >= :{name} and {column} < :{name} + interval '1 month'"
    if spec.required or spec.default is not None:
        return predicate
    return f"(:{name} is null or {predicate})"
