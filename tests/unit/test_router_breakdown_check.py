"""The invariant before a spend plan is answered: a breakdown asked reaches the plan (router/breakdown_check.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from router.breakdown_check import dropped_breakdown


def _plan(arguments: dict[str, Any], workflow: str = "spend", steps: int = 1) -> Any:
    spend = [SimpleNamespace(tool="finance.company_spend", arguments=arguments) for _ in range(steps)]
    return SimpleNamespace(requires_clarification=False, workflow=workflow,
                           execution_plan=(SimpleNamespace(tool="entity.resolve_company", arguments={}), *spend))


@pytest.mark.parametrize(("question", "said"), [("Kestrel Q1 spend by supplier", "supplier"),
                                                ("Kestrel Q1 spend per product group", "product group"),
                                                ("Kestrel 2025 spend month by month", "month"),
                                                ("Kestrel 2025 spend by quarter", "quarter")])
def test_a_breakdown_missing_from_the_plan_is_named(question: str, said: str) -> None:
    asked = dropped_breakdown(question, _plan({"company_id": "COMP-K"}))
    assert asked is not None and repr(said) in asked


@pytest.mark.parametrize("arguments", [{"group_by": ["supplier_id"]}, {"grain": "month"},
                                       {"parameters": {"group_by": ["supplier_id"]}}])
def test_a_plan_carrying_the_grouping_passes(arguments: dict[str, Any]) -> None:
    assert dropped_breakdown("Kestrel Q1 spend by supplier", _plan(arguments)) is None


@pytest.mark.parametrize("question", ["Kestrel Q1 spend", "top 3 suppliers by spend Q1", "price per unit of PRD-1"])
def test_no_breakdown_asked_passes(question: str) -> None:
    assert dropped_breakdown(question, _plan({})) is None


def test_other_workflows_and_a_step_per_row_pass() -> None:
    assert dropped_breakdown("Kestrel Q1 by supplier", _plan({}, workflow="catalog_products")) is None
    assert dropped_breakdown("Q1 spend by company", _plan({}, steps=3)) is None


def test_an_amount_per_dimension_read_as_a_document_search_is_named() -> None:
    asked = dropped_breakdown("check - invoiced per legal entity Q1, EUR", _plan({}, workflow="document_answer"))
    assert asked is not None and "'company'" in asked
    assert dropped_breakdown("what is the penalty per day of delay", _plan({}, workflow="document_answer")) is None


@pytest.mark.parametrize("question", ["Average monthly spend for Company B in H2", "Avg spend per month for Kestrel",
                                      "Kestrel monthly run rate Q1", "Ø Ausgaben pro Monat Kestrel 2025"])
def test_an_average_over_a_grain_asks_for_no_rows(question: str) -> None:
    assert dropped_breakdown(question, _plan({})) is None


@pytest.mark.parametrize("question", ["amount paid to Supplier Beta by Company A in 2025", "spend by co a q1"])
def test_a_company_named_by_its_letter_is_no_grouping(question: str) -> None:
    assert dropped_breakdown(question, _plan({})) is None


# -- an amount range the plan does not bound is named, never the figure of every amount ---------------------------
from router.breakdown_check import dropped_amount_range  # noqa: E402

_RANGED = "number of invoices, company company a, gross total between 1150 EUR and 4350 EUR, in 2025-Q3"


@pytest.mark.parametrize("question", [_RANGED, "Kestrel spend by supplier 2025 for invoices between 2k and 5k EUR"])
def test_an_amount_range_missing_from_the_plan_is_named(question: str) -> None:
    named = dropped_amount_range(question, _plan({"company_id": "COMP-A"}, workflow="invoice_count"))
    assert named is not None and named.startswith("between") and "EUR" in named


@pytest.mark.parametrize("arguments", [{"threshold": "1150.00", "upper_threshold": "4350.00"},
                                       {"parameters": {"min_amount": 1150, "max_amount": 4350}}])
def test_a_plan_bounding_the_amounts_passes(arguments: dict[str, Any]) -> None:
    assert dropped_amount_range(_RANGED, _plan(arguments)) is None


def test_no_range_or_a_threshold_workflow_passes() -> None:
    assert dropped_amount_range("Kestrel 2025 spend between Q1 and Q2", _plan({})) is None
    assert dropped_amount_range("between 2024 and 2025 Kestrel spend", _plan({})) is None
    assert dropped_amount_range(_RANGED, _plan({}, workflow="spend_threshold")) is None
