"""Loading the metric catalog: domain YAML files -> validated, compiled, immutable metrics.

Everything that can be checked without a request is checked here, once: the definition's shape, the template
(:mod:`semantic.validation`), parameter defaults, and every allow-listed variant compiled against the governed
schema (:mod:`semantic.compile`). A request then only binds values and looks its variant up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml  # type: ignore[import-untyped]  # no stubs installed; only the safe loaders are used
from pydantic import ValidationError

from semantic.compile import CompiledQuery, Variant, compile_variant, variants_of
from semantic.errors import MetricDefinitionError, ParameterError, UnknownMetricError, shown
from semantic.model import MetricDefinition, MetricFile
from semantic.params import coerce, json_schema
from semantic.schema import GovernedSchema
from semantic.validation import ValidatedTemplate, validate_template

# libyaml's loader when the wheel has it (several times faster); same safe subset of YAML either way.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The domain files shipped with Procura (``finance.yml``, ``catalog.yml``, ...).
METRICS_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Metric:
    """A loaded metric: its definition, the JSON Schema of its parameters and its compiled variants.

    Every grouping the allow-lists offer is checked at load: the base query and each dimension and grain on
    its own are compiled and qualified then (so every column they name exists). Combinations of those are
    compiled on first use, or all at once by :meth:`compile_all` (the API does this at start-up), and cached.
    """

    definition: MetricDefinition
    parameters_schema: Mapping[str, Any]
    template: ValidatedTemplate = field(repr=False, compare=False)
    schema: GovernedSchema = field(repr=False, compare=False)
    # Design note: a cache inside a frozen value; entries are immutable and only ever added under the lock.
    _compiled: dict[Variant, CompiledQuery] = field(default_factory=dict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def name(self) -> str:
        """The metric's name, e.g. ``finance.aggregate_spend``."""
        return self.definition.name

    def allowed_variants(self) -> tuple[Variant, ...]:
        """Every grouping the metric's allow-lists permit."""
        return tuple(variants_of(self.definition))

    def compiled(self, variant: Variant) -> CompiledQuery:
        """The compiled query of an allowed ``variant`` (compiled once, then cached)."""
        query = self._compiled.get(variant)
        if query is None:
            with self._lock:
                query = self._compiled.get(variant)
                if query is None:
                    query = compile_variant(self.definition, self.template, variant, self.schema)
                    self._compiled[variant] = query
        return query

    def compile_all(self) -> None:
        """Compile every allowed variant now."""
        for variant in self.allowed_variants():
            self.compiled(variant)

    def variant(self, group_by: tuple[str, ...] | list[str] = (), grain: str | None = None) -> CompiledQuery:
        """The compiled query for a grouping, checked against the allow-lists.

        Raises:
            ParameterError: an unknown or repeated dimension, too many dimensions, or an unknown grain.
        """
        definition = self.definition
        seen: set[str] = set()
        for dim in group_by:
            if not isinstance(dim, str) or dim not in definition.dimensions:
                allowed = ", ".join(definition.dimensions) or "none"
                raise ParameterError("group_by", f"unknown dimension {shown(dim)} (allowed: {allowed})")
            if dim in seen:
                raise ParameterError("group_by", f"dimension {shown(dim)} is repeated")
            seen.add(dim)
        if len(seen) > definition.max_group_by:
            raise ParameterError("group_by", f"at most {definition.max_group_by} dimension(s) at once")
        if grain is not None:
            grains = definition.time_dimension.grains if definition.time_dimension else ()
            if grain not in grains:
                raise ParameterError("grain", f"unknown grain {shown(grain)} (allowed: {', '.join(grains) or 'none'})")
        ordered = tuple(d for d in definition.dimensions if d in seen)
        return self.compiled(Variant(group_by=ordered, grain=grain))  # type: ignore[arg-type]

    def describe(self) -> dict[str, Any]:
        """A JSON-able description: interface, policy and allow-lists (never the SQL)."""
        d = self.definition
        return {
            "name": d.name,
            "description": d.description,
            "owner": d.owner,
            "scope": d.scope,
            "relations": list(d.relations),
            "parameters": dict(self.parameters_schema),
            "dimensions": {k: {"type": v.type, "description": v.description} for k, v in d.dimensions.items()},
            "grains": list(d.time_dimension.grains) if d.time_dimension else [],
            "max_group_by": d.max_group_by,
            "outputs": {
                k: {"type": v.type, "unit": v.unit, "description": v.description, "role": v.role}
                for k, v in d.outputs.items()
            },
            "policy": dict(d.policy),
            "provenance": (
                {"column": d.provenance.column, "cap": d.provenance.cap} if d.provenance is not None else None
            ),
        }


@dataclass(frozen=True)
class MetricRegistry:
    """All loaded metrics by name, plus the schema they were validated against."""

    metrics: Mapping[str, Metric]
    schema: GovernedSchema

    def get(self, name: str) -> Metric:
        """The metric called ``name``.

        Raises:
            UnknownMetricError: no such metric.
        """
        metric = self.metrics.get(name)
        if metric is None:
            raise UnknownMetricError(name)
        return metric

    def __iter__(self) -> Iterator[Metric]:
        return iter(self.metrics.values())

    def __len__(self) -> int:
        return len(self.metrics)


def load_metric(
    raw: Mapping[str, Any], schema: GovernedSchema, *, default_owner: str | None = None, eager: bool = False
) -> Metric:
    """Validate and compile one metric definition (a mapping as read from YAML).

    Args:
        raw: the definition.
        schema: the governed schema the template is checked against.
        default_owner: the domain file's owner, used when the metric names none.
        eager: compile every allowed grouping now rather than on first use.

    Raises:
        MetricDefinitionError: naming the metric and the reason.
    """
    label = str(raw.get("name", "<unnamed>")) if isinstance(raw, Mapping) else "<not a mapping>"
    if not isinstance(raw, Mapping):
        raise MetricDefinitionError(label, "a metric must be a mapping")
    data = dict(raw)
    if default_owner is not None:
        data.setdefault("owner", default_owner)
    try:
        definition = MetricDefinition.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "definition"
        raise MetricDefinitionError(label, f"{where}: {first['msg']}") from exc
    for pname, spec in definition.parameters.items():
        if spec.default is not None:
            try:
                coerce(pname, spec, spec.default)
            except ParameterError as exc:
                raise MetricDefinitionError(definition.name, f"default of parameter {exc}") from exc
    template = validate_template(definition, schema)
    metric = Metric(
        definition=definition,
        parameters_schema=MappingProxyType(json_schema(definition.parameters, definition.constraints)),
        template=template,
        schema=schema,
    )
    for variant in metric.allowed_variants():
        # The base query and every single dimension and grain: together they name every column a combination
        # can use, so a combination compiled later cannot fail on the schema.
        if len(variant.group_by) + (variant.grain is not None) <= 1:
            metric.compiled(variant)
    if eager:
        metric.compile_all()
    return metric


def load_file(path: Path, schema: GovernedSchema, *, eager: bool = False) -> list[Metric]:
    """Load every metric of one domain file; names must start with ``<domain>.``.

    Raises:
        MetricDefinitionError: the file is not valid YAML of the expected shape, or a metric is invalid.
    """
    try:
        payload = yaml.load(path.read_text(), Loader=_YAML_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise MetricDefinitionError(path.name, f"cannot read metric file: {exc}") from exc
    try:
        domain_file = MetricFile.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "file"
        raise MetricDefinitionError(path.name, f"{where}: {first['msg']}") from exc
    metrics = [load_metric(raw, schema, default_owner=domain_file.owner, eager=eager) for raw in domain_file.metrics]
    for metric in metrics:
        if not metric.name.startswith(domain_file.domain + "."):
            raise MetricDefinitionError(metric.name, f"belongs in {metric.name.split('.')[0]}.yml, not {path.name}")
    return metrics


def load_registry(schema: GovernedSchema, directory: Path = METRICS_DIR, *, eager: bool = False) -> MetricRegistry:
    """Load every ``*.yml`` domain file of ``directory`` (sorted) into a registry.

    With ``eager`` every allowed grouping is compiled now (a server does this once at start-up).

    Raises:
        MetricDefinitionError: a file or metric is invalid, or two metrics share a name.
    """
    metrics: dict[str, Metric] = {}
    for path in sorted(directory.glob("*.yml")):
        for metric in load_file(path, schema, eager=eager):
            if metric.name in metrics:
                raise MetricDefinitionError(metric.name, f"defined twice (again in {path.name})")
            metrics[metric.name] = metric
    if not metrics:
        raise MetricDefinitionError(str(directory), "no metric files (*.yml) found")
    return MetricRegistry(metrics=MappingProxyType(metrics), schema=schema)
