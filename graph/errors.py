"""The flat error family of the ``graph`` package (one base, one subclass per kind of failure)."""

from __future__ import annotations

from procura.errors import ProcuraError


class GraphError(ProcuraError):
    """Base of every error the knowledge-graph package raises on purpose."""


class GraphNameError(GraphError):
    """A graph name could not be derived from the authenticated tenant (allow-list or length violated)."""


class GraphNotFoundError(GraphError):
    """The tenant has no knowledge graph yet (run ``procura graph sync`` or ingest master data first)."""


class CypherTemplateError(GraphError):
    """A Cypher template or its parameters are malformed (unknown parameter, disallowed type or depth)."""


class AgtypeParseError(GraphError):
    """A value returned by AGE could not be parsed as agtype."""


class TraversalTimeoutError(GraphError):
    """A traversal exceeded its statement timeout."""


class ResultLimitError(GraphError):
    """A traversal produced more rows than its result-size cap."""


class SchemaViolationError(GraphError):
    """A candidate entity or relationship does not conform to the controlled graph schema."""
