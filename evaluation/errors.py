"""The flat error family of the evaluation package."""

from __future__ import annotations

from procura.errors import ProcuraError


class EvaluationError(ProcuraError):
    """Base of every error the evaluation package raises on purpose; the message names the file or field."""


class GoldenSetError(EvaluationError):
    """The golden set is malformed, stale against the corpus ground truth, or names an unknown case."""


class ThresholdConfigError(EvaluationError):
    """eval/thresholds.yml is malformed or names a metric the report does not compute."""


class SystemUnderTestError(EvaluationError):
    """The system under evaluation cannot be reached or answered with something that is not the ask contract."""


class QuerySetError(EvaluationError):
    """The labeled retrieval query set is malformed or refers to documents the corpus does not have."""
