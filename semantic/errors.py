"""The flat error family of the semantic layer.

Every error the semantic layer raises on purpose derives from :class:`SemanticError` directly (no deeper
trees), so callers map a handful of classes to outcomes: the API to HTTP statuses, the CLI to one-line messages.
Messages are meant for the caller and never contain SQL or stack traces.
"""

from __future__ import annotations

import re

from procura.errors import ProcuraError

_SHOWABLE = re.compile(r"^[A-Za-z0-9_.:\-\[\]]{1,80}$")


def shown(value: object) -> str:
    """``value`` quoted for an error message if it looks like an identifier; otherwise a placeholder.

    Design note: errors name what was wrong without reflecting arbitrary caller text (SQL fragments, markup)
    back into responses and logs.
    """
    text = str(value)
    return repr(text) if _SHOWABLE.match(text) else "(a value that is not an identifier)"


class SemanticError(ProcuraError):
    """Base of every error of the semantic layer."""


class SchemaArtifactError(SemanticError):
    """dbt's artifacts (manifest or catalog) are missing, unreadable or lack a governed relation."""


class MetricDefinitionError(SemanticError):
    """A metric definition or its SQL template failed load-time validation.

    Attributes:
        metric: the metric's name (or the file, when the name itself is missing).
        reason: what is wrong, in one sentence.
    """

    def __init__(self, metric: str, reason: str) -> None:
        super().__init__(f"metric {metric}: {reason}")
        self.metric = metric
        self.reason = reason


class UnknownMetricError(SemanticError):
    """No metric of that name is registered."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown metric {shown(name)}")
        self.name = name


class ParameterError(SemanticError):
    """A query request is invalid: unknown parameter, wrong type, out of bounds, unknown dimension or grain.

    Attributes:
        parameter: the offending field (a parameter name, ``group_by`` or ``grain``).
        problem: what is wrong with it.
    """

    def __init__(self, parameter: str, problem: str) -> None:
        super().__init__(f"{parameter}: {problem}")
        self.parameter = parameter
        self.problem = problem


class ScopeError(SemanticError):
    """The authenticated principal lacks the scope a metric (or another resource) requires."""

    def __init__(self, resource: str, scope: str) -> None:
        super().__init__(f"{resource} requires scope {scope!r}")
        self.resource = resource
        self.scope = scope


class MetricTimeoutError(SemanticError):
    """The metric's query exceeded the statement timeout."""


class MetricExecutionError(SemanticError):
    """The database failed while running a metric (details are logged, not returned)."""
