"""A small, strict parser for agtype values as psycopg returns them (text).

AGE prints agtype as JSON with type annotations after composite values and some scalars:
``{"id": 1, "label": "Company", "properties": {...}}::vertex``, ``[...]::path``, ``1.5::numeric``. Design note:
apache-age-python's ANTLR parser is fragile across AGE versions and maps numerics to float; this module strips
annotations outside of string literals and hands the rest to :func:`json.loads`, with every non-integer number
parsed as :class:`~decimal.Decimal` so no float ever enters the graph results.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from graph.errors import AgtypeParseError

_ANNOTATIONS = ("::vertex", "::edge", "::path", "::numeric", "::float", "::integer")


@dataclass(frozen=True)
class Vertex:
    """A vertex as returned by a traversal."""

    id: int
    label: str
    properties: dict[str, Any]


@dataclass(frozen=True)
class Edge:
    """An edge as returned by a traversal (``start_id``/``end_id`` are AGE graph ids)."""

    id: int
    label: str
    start_id: int
    end_id: int
    properties: dict[str, Any]


def _strip_annotations(text: str) -> str:
    """Drop known annotations outside string literals; anything else is left for json.loads to reject.

    Splitting at quotes keeps the work in C (str.split/replace/join): a regex that skips strings costs three
    times as much on result sets with full provenance. A quote preceded by an odd number of backslashes is
    escaped and does not end the string.
    """
    if "::" not in text:
        return text
    parts = text.split('"')
    in_string = False
    last = len(parts) - 1
    for i, part in enumerate(parts):
        if not in_string and "::" in part:
            for annotation in _ANNOTATIONS:
                part = part.replace(annotation, "")
            parts[i] = part
        if i < last and not (in_string and (len(part) - len(part.rstrip("\\"))) % 2 == 1):
            in_string = not in_string
    return '"'.join(parts)


def _constant(name: str) -> Decimal:
    # AGE prints float specials bare; Decimal represents them without ever using float.
    return Decimal({"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity"}[name])


def _objectify(value: Any) -> Any:
    # Called on every cell of a traversal's result: containers only recurse, and only a map with exactly a
    # vertex's (3) or an edge's (5) keys is compared with them (types compared exactly: json gives dict/list).
    kind = type(value)
    if kind is list:
        return [_objectify(item) if type(item) in _CONTAINERS else item for item in value]
    if kind is dict:
        size = len(value)
        if size == 3 and value.keys() == _VERTEX_KEYS:
            return Vertex(int(value["id"]), str(value["label"]), _objectify(value["properties"]))
        if size == 5 and value.keys() == _EDGE_KEYS:
            return Edge(
                int(value["id"]),
                str(value["label"]),
                int(value["start_id"]),
                int(value["end_id"]),
                _objectify(value["properties"]),
            )
        return {k: _objectify(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    return value


_CONTAINERS = (dict, list)
_VERTEX_KEYS = frozenset({"id", "label", "properties"})
_EDGE_KEYS = frozenset({"id", "label", "properties", "start_id", "end_id"})
# One decoder for every call: json.loads with parse_float builds a new JSONDecoder per call, which cost as much
# as the decoding itself on a traversal's hundreds of small cells (measured).
_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_constant)


def parse_agtype(text: str | None) -> Any:
    """Parse one agtype text value into Python: dict/list/str/int/Decimal/bool/None, Vertex and Edge.

    A path (``[...]::path``) becomes a list alternating Vertex and Edge.

    >>> parse_agtype('{"id": 1, "label": "Supplier", "properties": {"id": "SUP-18"}}::vertex').properties
    {'id': 'SUP-18'}
    >>> parse_agtype('"a::vertex"')
    'a::vertex'
    >>> parse_agtype('1.50::numeric')
    Decimal('1.50')
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise AgtypeParseError(f"expected agtype text, got {type(text).__name__}")
    try:
        raw = _DECODER.decode(_strip_annotations(text))
    except json.JSONDecodeError as exc:
        raise AgtypeParseError(f"invalid agtype value: {exc.msg} at offset {exc.pos}") from exc
    return _objectify(raw)


def parse_agtype_values(text: str) -> Any:
    """Parse agtype text that holds no vertex, edge or path: scalars, lists and maps (``properties(e)``, ids),
    non-integers as :class:`~decimal.Decimal`, as :func:`parse_agtype` does.

    Design note: :func:`parse_agtype` walks every container of the result in Python to find vertices and edges;
    a statement that returns only property maps has none, and the walk (which rebuilds every map) cost as much
    as the decoding itself on ``find_products``' two result sets (about 250 maps per call, measured). A vertex
    or edge in ``text`` is returned as its plain map.

    >>> parse_agtype_values('[{"id": "PG-1", "n": 2.50::numeric}, null]')
    [{'id': 'PG-1', 'n': Decimal('2.50')}, None]
    """
    if not isinstance(text, str):
        raise AgtypeParseError(f"expected agtype text, got {type(text).__name__}")
    try:
        return _DECODER.decode(_strip_annotations(text))
    except json.JSONDecodeError as exc:
        raise AgtypeParseError(f"invalid agtype value: {exc.msg} at offset {exc.pos}") from exc
