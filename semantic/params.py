"""Parameter coercion and JSON Schema: request values -> typed, bound values (never SQL text).

Values arrive as JSON (API) or strings (CLI ``--param k=v``) and leave as Python values of exactly one type per
parameter type, which psycopg binds. Every rejection names the parameter and the problem.

Design note: binary floats are rejected for decimal parameters. JSON numbers with a fraction arrive as floats,
and ``1000.10`` would already have been rounded by the time we saw it; decimals travel as strings.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import Any

from semantic.errors import ParameterError, shown
from semantic.model import Constraint, ParameterSpec, PartitionSpec, PeriodOffsetSpec

_MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DECIMAL = re.compile(r"^[+-]?\d{1,30}(\.\d{1,18})?$")
#: The SQL type every placeholder is cast to, so that a bound value has exactly the declared type.
SQL_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "string": "text",
        "string_list": "text[]",
        "date": "date",
        "month": "date",
        "integer": "bigint",
        "decimal": "numeric",
        "boolean": "boolean",
    }
)


@dataclass(frozen=True)
class BoundParameters:
    """Validated parameter values (defaults applied), ready to bind, plus their JSON-able echo.

    Attributes:
        values: name -> Python value (str, tuple[str, ...], date, int, Decimal, bool or None).
        explicit: the names the caller actually sent (the rest are defaults).
    """

    values: Mapping[str, Any]
    explicit: frozenset[str]

    def for_binding(self) -> dict[str, Any]:
        """The psycopg parameter dict: tuples become lists (psycopg adapts lists to arrays)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.values.items()}

    def as_json(self) -> dict[str, Any]:
        """The effective parameters as JSON values (dates ISO, decimals as strings)."""
        return {k: to_json_value(v) for k, v in self.values.items()}


def to_json_value(value: Any) -> Any:
    """A bound value as JSON: dates in ISO format, decimals as strings, tuples as lists."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple):
        return [to_json_value(v) for v in value]
    return value


def bind(
    specs: Mapping[str, ParameterSpec],
    raw: Mapping[str, Any],
    constraints: tuple[Constraint, ...] = (),
    *,
    from_text: bool = False,
    offset: PeriodOffsetSpec | None = None,
) -> BoundParameters:
    """Validate ``raw`` against ``specs``: no unknown names, required present, types, bounds, constraints.

    Args:
        specs: the metric's declared parameters.
        raw: the caller's values.
        constraints: cross-parameter rules of the metric.
        from_text: values come from a command line (``k=v``): lists are comma-separated, numbers are text.
        offset: the metric's period comparison: its base period is derived here (see :func:`base_period`).

    Raises:
        ParameterError: naming the first offending parameter and the problem.
    """
    unknown = sorted(str(k) for k in set(raw) - set(specs))
    if unknown:
        name = unknown[0] if shown(unknown[0]).startswith("'") else "parameters"
        raise ParameterError(name, f"unknown parameter {shown(unknown[0])} (accepted: {', '.join(specs) or 'none'})")
    values: dict[str, Any] = {}
    for name, spec in specs.items():
        if name in raw and raw[name] is not None:
            values[name] = coerce(name, spec, raw[name], from_text=from_text)
        elif spec.required:
            raise ParameterError(name, "required parameter is missing")
        elif spec.default is not None:
            values[name] = coerce(name, spec, spec.default)
        else:
            values[name] = None
    for constraint in constraints:
        low, high = constraint.less_than
        if values[low] is not None and values[high] is not None and not values[low] < values[high]:
            raise ParameterError(high, f"must be after {low} (the period is half-open [{low}, {high}))")
    if offset is not None:
        values.update(_offset_values(offset, values))
    return BoundParameters(values=MappingProxyType(values), explicit=frozenset(k for k in raw if k in specs))


def base_period(start: dt.date, end: dt.date, compare: str) -> tuple[dt.date, dt.date]:
    """The base period a half-open ``[start, end)`` is compared with.

    ``previous_period``: the same length just before ``start``; when both bounds are first days of a month the
    length is counted in calendar months (the quarter before 2026-04-01..2026-07-01 is 2026-01-01..2026-04-01),
    otherwise in days. ``same_period_last_year``: both bounds one year earlier (29 February becomes 28).

    >>> base_period(dt.date(2026, 4, 1), dt.date(2026, 7, 1), "previous_period")
    (datetime.date(2026, 1, 1), datetime.date(2026, 4, 1))
    >>> base_period(dt.date(2024, 2, 29), dt.date(2024, 3, 1), "same_period_last_year")
    (datetime.date(2023, 2, 28), datetime.date(2023, 3, 1))
    """
    if compare == "same_period_last_year":
        return _years_back(start), _years_back(end)
    if compare != "previous_period":
        raise ValueError(f"unknown comparison {compare!r}")
    if start.day == 1 and end.day == 1:
        months = (end.year - start.year) * 12 + end.month - start.month
        index = start.year * 12 + start.month - 1 - months
        return dt.date(index // 12, index % 12 + 1, 1), start
    return start - (end - start), start


def _years_back(day: dt.date) -> dt.date:
    if day.month == 2 and day.day == 29:
        return dt.date(day.year - 1, 2, 28)
    return day.replace(year=day.year - 1)


def _offset_values(offset: PeriodOffsetSpec, values: Mapping[str, Any]) -> dict[str, Any]:
    compare = values[offset.compare]
    given = [p for p in (offset.base_start, offset.base_end) if values[p] is not None]
    if compare == "custom":
        for name in (offset.base_start, offset.base_end):
            if values[name] is None:
                raise ParameterError(name, f"is required when {offset.compare} is 'custom'")
        if not values[offset.base_start] < values[offset.base_end]:
            raise ParameterError(offset.base_end, f"must be after {offset.base_start} (the period is half-open)")
        return {}
    if given:
        raise ParameterError(
            given[0], f"is only accepted with {offset.compare} 'custom' (it is derived for {compare!r})"
        )
    start, end = values[offset.start], values[offset.end]
    try:
        base_start, base_end = base_period(start, end, str(compare))
    except ValueError as exc:  # a year before the calendar's first
        raise ParameterError(offset.start, f"has no {compare} ({exc})") from exc
    return {offset.base_start: base_start, offset.base_end: base_end}


def check_one_of(names: tuple[str, ...], values: Mapping[str, Any]) -> None:
    """Refuse a request that gives none of ``names`` (a share's part, named in either of two ways).

    Raises:
        ParameterError: naming the first of them.
    """
    if not names or any(values.get(n) is not None for n in names):
        return
    raise ParameterError(names[0], f"one of {', '.join(names)} is required (the part of the share)")


def check_partition(partition: PartitionSpec | None, group_by: tuple[str, ...], values: Mapping[str, Any]) -> None:
    """Refuse a request whose value would add amounts of different partitions (e.g. currencies).

    Raises:
        ParameterError: naming the parameter, when it is unset and the dimension is not grouped by.
    """
    if partition is None or values.get(partition.parameter) is not None or partition.dimension in group_by:
        return
    raise ParameterError(
        partition.parameter,
        f"is required unless group_by includes {partition.dimension!r}: amounts in different "
        f"{partition.dimension} values cannot be added",
    )


def coerce(name: str, spec: ParameterSpec, value: Any, *, from_text: bool = False) -> Any:
    """One value of one parameter, typed and checked against the spec's bounds."""
    kind = spec.type
    if kind == "string_list":
        if from_text and isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list | tuple):
            raise ParameterError(name, f"must be a list of strings, got {_json_type(value)}")
        if spec.min_items is not None and len(value) < spec.min_items:
            raise ParameterError(name, f"needs at least {spec.min_items} item(s)")
        if len(value) > spec.max_items:
            raise ParameterError(name, f"has {len(value)} items; at most {spec.max_items} allowed")
        items = [_string(f"{name}[{i}]", spec, item) for i, item in enumerate(value)]
        return tuple(dict.fromkeys(items))
    if kind == "string":
        return _string(name, spec, value)
    if kind == "date":
        parsed = _date(name, value)
        _bounds(name, spec, parsed, _date)
        return parsed
    if kind == "month":
        parsed = _month(name, value)
        _bounds(name, spec, parsed, _month)
        return parsed
    if kind == "integer":
        if from_text and isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,18}", value.strip()):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParameterError(name, f"must be an integer, got {_json_type(value)}")
        _bounds(name, spec, value, _int_bound)
        return value
    if kind == "decimal":
        number = _decimal(name, value)
        exponent = number.as_tuple().exponent
        if spec.max_scale is not None and isinstance(exponent, int) and -exponent > spec.max_scale:
            raise ParameterError(name, f"has more than {spec.max_scale} decimal places")
        _bounds(name, spec, number, _decimal)
        return number
    if kind == "boolean":
        if from_text and isinstance(value, str) and value.lower() in ("true", "false"):
            value = value.lower() == "true"
        if not isinstance(value, bool):
            raise ParameterError(name, f"must be true or false, got {_json_type(value)}")
        return value
    raise ParameterError(name, f"unsupported parameter type {kind!r}")  # pragma: no cover


def _string(name: str, spec: ParameterSpec, value: Any) -> str:
    if not isinstance(value, str):
        raise ParameterError(name, f"must be a string, got {_json_type(value)}")
    if "\x00" in value:
        raise ParameterError(name, "must not contain NUL characters")
    if spec.min_length is not None and len(value) < spec.min_length:
        raise ParameterError(name, f"must be at least {spec.min_length} characters")
    if len(value) > spec.max_length:
        raise ParameterError(name, f"is longer than {spec.max_length} characters")
    if spec.allowed_values is not None and value not in spec.allowed_values:
        raise ParameterError(name, f"is not one of the allowed values ({', '.join(spec.allowed_values)})")
    if spec.pattern is not None and not _compiled(spec.pattern).fullmatch(value):
        raise ParameterError(name, f"does not match the pattern {spec.pattern}")
    return value


def _date(name: str, value: Any) -> dt.date:
    if not isinstance(value, str) or not _DATE.match(value):
        raise ParameterError(name, "must be an ISO date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise ParameterError(name, f"is not a valid date ({exc})") from exc


def _month(name: str, value: Any) -> dt.date:
    match = _MONTH.match(value) if isinstance(value, str) else None
    if match is None:
        raise ParameterError(name, "must be a month YYYY-MM")
    try:
        return dt.date(int(match.group(1)), int(match.group(2)), 1)
    except ValueError as exc:  # the pattern admits year 0000 and month 00, which no calendar has
        raise ParameterError(name, f"is not a valid month ({exc})") from exc


def _decimal(name: str, value: Any) -> Decimal:
    if isinstance(value, bool | float):
        raise ParameterError(name, 'must be a decimal string (e.g. "1000.50") or an integer, not a float')
    if isinstance(value, int):
        return Decimal(value)
    if not isinstance(value, str) or not _DECIMAL.match(value.strip()):
        raise ParameterError(name, 'must be a decimal number written as a string, e.g. "1000.50"')
    try:
        return Decimal(value.strip())
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only valid decimals
        raise ParameterError(name, "is not a decimal number") from exc


def _bounds(name: str, spec: ParameterSpec, value: Any, parse: Any) -> None:
    if spec.minimum is not None and value < _bound(parse, f"{name}.minimum", spec.minimum):
        raise ParameterError(name, f"is below the minimum {spec.minimum}")
    if spec.maximum is not None and value > _bound(parse, f"{name}.maximum", spec.maximum):
        raise ParameterError(name, f"is above the maximum {spec.maximum}")


def _int_bound(name: str, value: str | int) -> int:
    return int(value)


@functools.lru_cache(maxsize=1024)
def _bound(parse: Any, name: str, text: str | int) -> Any:
    # A spec's bound, parsed once per process rather than on every request (specs are immutable).
    return parse(name, text)


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def json_schema(specs: Mapping[str, ParameterSpec], constraints: tuple[Constraint, ...] = ()) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a metric's ``parameters`` object."""
    properties: dict[str, Any] = {}
    for name, spec in specs.items():
        prop = _schema_of(spec)
        prop["description"] = spec.description
        if spec.default is not None:
            prop["default"] = to_json_value(coerce(name, spec, spec.default))
        properties[name] = prop
    schema: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "required": [n for n, s in specs.items() if s.required],
    }
    if constraints:
        schema["x-constraints"] = [f"{c.less_than[0]} < {c.less_than[1]}" for c in constraints]
    return schema


def _schema_of(spec: ParameterSpec) -> dict[str, Any]:
    if spec.type in ("string", "string_list"):
        item: dict[str, Any] = {"type": "string", "maxLength": spec.max_length}
        if spec.min_length is not None:
            item["minLength"] = spec.min_length
        if spec.pattern is not None:
            item["pattern"] = spec.pattern
        if spec.allowed_values is not None:
            item["enum"] = list(spec.allowed_values)
        if spec.type == "string":
            return item
        array: dict[str, Any] = {"type": "array", "items": item, "maxItems": spec.max_items}
        if spec.min_items is not None:
            array["minItems"] = spec.min_items
        return array
    if spec.type in ("date", "month"):
        prop: dict[str, Any] = (
            {"type": "string", "format": "date"}
            if spec.type == "date"
            else {"type": "string", "pattern": _MONTH.pattern}
        )
        if spec.minimum is not None:
            prop["formatMinimum"] = str(spec.minimum)
        if spec.maximum is not None:
            prop["formatMaximum"] = str(spec.maximum)
        return prop
    if spec.type == "integer":
        prop = {"type": "integer"}
    elif spec.type == "decimal":
        prop = {"type": ["string", "integer"], "pattern": _DECIMAL.pattern}
    else:
        return {"type": "boolean"}
    for keyword, bound in (("minimum", spec.minimum), ("maximum", spec.maximum)):
        if bound is None:
            continue
        # JSON Schema bounds are numbers; a fractional decimal bound is kept exact as an annotation instead.
        if isinstance(bound, int) or re.fullmatch(r"[+-]?\d+", str(bound)):
            prop[keyword] = int(bound)
        else:
            prop[f"x-{keyword}"] = str(bound)
    return prop
