"""Counts as analysts write them: "# of distinct vendors", "no. of suppliers", "unique suppliers", "# of invoice
lines", and a count "since the start of 2026" (from that day to the as-of date, not the whole year); the classes of
``evaluation/probes_ranking.py``'s ``supplier_count``, ``line_count`` and ``count`` frames."""

from __future__ import annotations

import datetime as dt

import pytest

from router.periods import resolve_period
from tests.unit.test_router_rankings_counts import _queries, _routed


@pytest.mark.parametrize(("question", "metric"), [
    ("# of distinct vendors Company B used in H2 2025", "finance.supplier_count"),
    ("#of suppliers at Company B in H2 2025", "finance.supplier_count"),
    ("no. of suppliers Company B used in H2 2025", "finance.supplier_count"),
    ("how many unique suppliers did Company B use in H2 2025", "finance.supplier_count"),
    ("count of distinct vendors at Company B in H2 2025", "finance.supplier_count"),
    ("Company B - number of distinct vendors with spend in FY2025?", "finance.supplier_count"),
    ("# of invoice lines for Company B in H2 2025", "finance.invoice_line_count"),
    ("no. of line items on Company B's invoices in H2 2025", "finance.invoice_line_count"),
])
def test_count_phrasings_name_their_count(question: str, metric: str) -> None:
    (query,) = [q for q in _queries(question) if q.get("metric") == metric] or [None]
    assert query is not None, (question, _queries(question))
    assert query["parameters"]["company_id"] == "COMP-B"
    assert (query["parameters"]["start_date"], query["parameters"]["end_date"]) in (
        ("2025-07-01", "2026-01-01"), ("2025-01-01", "2026-01-01"))


@pytest.mark.parametrize(("phrase", "start", "end"), [
    ("since the start of 2026", "2026-01-01", "2026-05-16"),
    ("since the beginning of 2025", "2025-01-01", "2026-05-16"),
    ("since 2026", "2026-01-01", "2026-05-16"),
    ("since the start of the year", "2026-01-01", "2026-05-16"),
    ("since the beginning of the quarter", "2026-04-01", "2026-05-16"),
    ("from the start of 2025 to the end of March 2026", "2025-01-01", "2026-04-01"),
])
def test_since_the_start_of_runs_to_the_as_of_date(phrase: str, start: str, end: str) -> None:
    tr = resolve_period(f"invoices {phrase}", dt.date(2026, 5, 15)).time_range
    assert tr is not None and (tr.start.isoformat(), tr.end.isoformat()) == (start, end), (phrase, tr)


def test_a_count_since_the_start_of_a_year() -> None:
    result = _routed("how many invoices has Company B received from Beta since the start of 2026?")
    assert result.workflow == "invoice_count", result.clarification_question
    params = result.execution_plan[0].arguments["parameters"]
    assert (params["start_date"], params["end_date"], params["supplier_ids"]) == ("2026-01-01", "2026-05-16",
                                                                                  ["SUP-18"])


@pytest.mark.parametrize(("question", "metric"), [
    ("how many invoice lines for the cabinet climate kit did Company A have in 2025?", "finance.invoice_line_count"),
    ("number of invoice lines with precision multimeters at Company A in 2025", "finance.invoice_line_count"),
    ("how many suppliers sold Company A the cabinet climate kit in 2025?", "finance.supplier_count"),
])
def test_a_count_of_a_product_named_by_its_catalogue_name(question: str, metric: str) -> None:
    from router.reader import read
    from tests.unit.test_router_entity_levels import GAZETTEER as CATALOGUE
    from tests.unit.test_router_rankings_counts import CATALOG

    reading = read(question, CATALOGUE, dt.date(2026, 5, 15), CATALOG)
    assert reading.catalog_metric is not None and reading.catalog_metric.name == metric, question
    # the product, not a group whose name is inside its catalogue name
    assert reading.entities.product_codes in (("PRD-705",), ("PRD-845",)) and reading.entities.product_group_id is None
