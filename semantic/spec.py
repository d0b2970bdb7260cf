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
from typing import Annotated, Any

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
    ProvenanceSpec,
    _Frozen,
)

#: The output column every generated metric ends with: how many lines matched (0 = no data, not zero).
MATCH_COUNT = "matched_line_count"
_DIMENSION_REF = re.compile(r"\{\{\s*Dimension\(\s*'([a-z][a-z0-9_]*)__([a-z][a-z0-9_]*)'\s*\)\s*\}\}")
_AGGREGATES = {"sum": "sum", "count": "count", "min": "min", "max": "max", "average": "avg"}


class ValueOutput(OutputSpec):
    """The output column carrying the dbt metric's own value."""

    name: FieldName


class ExtraOutput(OutputSpec):
    """A further output column: the value of another dbt metric over the same rows."""

    metric: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,250}$")]


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

    @model_validator(mode="after")
    def _binds(self) -> ProcuraMeta:
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

    select = [f"{rendered(value, meta.value.scale)} as {meta.value.name}"]
    select += [f"{rendered(expr, spec.scale)} as {out}" for out, (expr, spec) in extras.items()]
    select.append(f"count(*) as {MATCH_COUNT}")

    where = [_render_filter(f, model, f"filter of {name!r}") for f in sorted(value.filters)]
    for pname, spec in meta.parameters.items():
        assert spec.bind is not None  # checked by ProcuraMeta
        column = model.column(spec.bind.dimension, f"parameter {pname!r} binds")
        where.append(_bind(pname, spec, column))

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
    outputs[MATCH_COUNT] = {
        "type": "integer",
        "role": "match_count",
        "description": "Number of validated invoice lines that matched; 0 means no data, not a zero value.",
    }
    sql = "select\n    " + ",\n    ".join(select) + f"\nfrom {model.relation}\nwhere " + "\n  and ".join(where)
    domain = meta.name.split(".")[0]
    definition: dict[str, Any] = {
        "name": meta.name,
        "description": str(raw.get("description") or raw.get("label") or name),
        "scope": meta.scope,
        "relations": [model.relation],
        "parameters": {p: s.model_dump(exclude_none=True) for p, s in meta.parameters.items()},
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
    ):
        if val is not None:
            definition[key] = val
    return definition


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
    elif op == "gte":
        predicate = f"{column} >= :{name}"
    elif op == "lt":
        predicate = f"{column} < :{name}"
    else:  # month: the calendar month starting at the parameter
        predicate = f"{column} >= :{name} and {column} < :{name} + interval '1 month'"
    if spec.required or spec.default is not None:
        return predicate
    return f"(:{name} is null or {predicate})"
