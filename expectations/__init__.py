"""Great Expectations suites on the landing tables: the quality gate between ingestion and dbt.

Each suite guards one landing table; a batch is one document version. A document version with any failing
expectation is written to ``ingest.quarantine`` (with the expectation and the failing rows) and so never reaches
the marts: staging serves only versions without an open quarantine.
"""

from __future__ import annotations

from expectations.errors import ExpectationsError
from expectations.runner import (
    BatchKey,
    ExpectationOutcome,
    QuarantineEntry,
    SuiteOutcome,
    ValidationReport,
    validate_landing,
)
from expectations.suites import SUITES, DateWindow, LandingSuite

__all__ = [
    "SUITES",
    "BatchKey",
    "DateWindow",
    "ExpectationOutcome",
    "ExpectationsError",
    "LandingSuite",
    "QuarantineEntry",
    "SuiteOutcome",
    "ValidationReport",
    "validate_landing",
]
