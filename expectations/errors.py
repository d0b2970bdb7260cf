"""The flat error family of the ``expectations`` package."""

from __future__ import annotations

from procura.errors import ProcuraError


class ExpectationsError(ProcuraError):
    """Base of every error the landing-data quality gate raises on purpose."""


class SuiteRunError(ExpectationsError):
    """Great Expectations could not evaluate a suite (not a failing expectation: a broken run)."""


class InvalidParameterError(ExpectationsError):
    """A parameter of the validation run is invalid (names the parameter and the problem)."""
