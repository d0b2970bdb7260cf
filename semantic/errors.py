"""The flat error family of the semantic layer.

Every error the semantic layer raises on purpose derives from :class:`SemanticError` directly (no deeper
trees); each class carries its HTTP status and code (:class:`procura.errors.ProcuraError`), and the CLI prints
it as one line. Messages are meant for the caller and never contain SQL or stack traces.
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

    http_status = 404
    error_code = "unknown_metric"

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown metric {shown(name)}")
        self.name = name


class ParameterError(SemanticError):
    """A query request is invalid: unknown parameter, wrong type, out of bounds, unknown dimension or grain.

    Attributes:
        parameter: the offending field (a parameter name, ``group_by`` or ``grain``).
        problem: what is wrong with it.
    """

    http_status = 422
    error_code = "invalid_parameter"

    def __init__(self, parameter: str, problem: str) -> None:
        super().__init__(f"{parameter}: {problem}")
        self.parameter = parameter
        self.problem = problem


class ScopeError(SemanticError):
    """The authenticated principal lacks the scope a metric (or another resource) requires."""

    http_status = 403
    error_code = "missing_scope"

    def __init__(self, resource: str, scope: str) -> None:
        super().__init__(f"{resource} requires scope {scope!r}")
        self.resource = resource
        self.scope = scope


class MetricTimeoutError(SemanticError):
    """The metric's query exceeded the statement timeout."""

    http_status = 504
    error_code = "statement_timeout"


class MetricExecutionError(SemanticError):
    """The database failed while running a metric (details are logged, not returned)."""

    error_code = "database_error"
