"""Thresholds on totals: an amount that bounds each supplier's (group's, product's) total over the period is the
governed ranking kept on the asked side, never the listing of single invoices above it (the class of
``evaluation/probes_thresholds.py``); an amount on invoices stays the invoice listing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from router.thresholds import ALL_GROUPS, TOTALS_METRIC, TotalThreshold, parse_rule, qualifies, threshold_rule
from tests.unit.test_router_rankings_counts import _routed

_TOTALS = "spend_threshold:"


def _totals(question: str) -> tuple[dict[str, Any], TotalThreshold]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.workflow == "spend_threshold", (question, result.workflow)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == TOTALS_METRIC
    t = parse_rule(result.rule_hits)
    assert t is not None, result.rule_hits
    return dict(step.arguments), t


@pytest.mark.parametrize(("question", "direction", "amount", "inclusive", "dimension"), [
    ("suppliers with more than 50k spend at Company A in 2025", "above", "50000.00", False, "supplier_id"),
    ("which suppliers did Company A spend less than 10.000 EUR with in 2025?", "below", "10000.00", False,
     "supplier_id"),
    ("suppliers where company a spent more than 30 000 EUR in fy2025", "above", "30000.00", False, "supplier_id"),
    ("which suppliers did Company B spend more than EUR 0.05m with since July 2025?", "above", "50000.00", False,
     "supplier_id"),
    ("Company A: vendors with total spend of at least €25k in Q1 2026", "above", "25000.00", True, "supplier_id"),
    ("which vendors did Company A pay at most 5,000 euros in 2025?", "below", "5000.00", True, "supplier_id"),
    ("which suppliers got at least EUR 10k from Company A in Q1 2026", "above", "10000.00", True, "supplier_id"),
    ("top-level product groups with spend above 20k at Company A in 2025", "above", "20000.00", False,
     "top_product_group_id"),
    ("leaf product groups (lowest level) with more than 5k spend at Company A in 2025", "above", "5000.00", False,
     "product_group_id"),
    ("which products did Company B spend over 10k on in 2025?", "above", "10000.00", False, "product_code"),
])
def test_an_amount_on_totals_is_the_ranking_kept_on_its_side(question: str, direction: str, amount: str,
                                                             inclusive: bool, dimension: str) -> None:
    args, t = _totals(question)
    assert (t.direction, t.amount, t.inclusive, t.dimension) == (direction, amount, inclusive, dimension), question
    params = args["parameters"]
    assert args["group_by"] == [dimension] and args["grain"] is None
    # every group with spend, ordered towards the qualifying side
    assert params["limit"] == ALL_GROUPS and params["order_by"] == "total_spend"
    assert params["direction"] == ("bottom" if direction == "below" else "top")
    assert "supplier_ids" not in params and params["company_id"] in ("COMP-A", "COMP-B")


def test_a_range_keeps_both_bounds() -> None:
    _, t = _totals("suppliers with spend between 10k and 50k at Company A in 2025")
    assert (t.amount, t.inclusive, t.upper, t.upper_inclusive) == ("10000.00", True, "50000.00", True)


def test_named_suppliers_exclusions_and_groups_are_kept() -> None:
    args, t = _totals("did Company A spend more than 20k with Beta in 2025?")
    assert args["parameters"]["supplier_ids"] == ["SUP-18"] and t.direction == "above"
    args, _ = _totals("which suppliers did Company A spend more than 20k with in 2025 if we ignore Gamma?")
    assert args["parameters"]["exclude_supplier_ids"] == ["SUP-27"] and "supplier_ids" not in args["parameters"]
    args, _ = _totals("suppliers of pressure sensors with more than 5k spend at Company A in 2025")
    assert sorted(args["parameters"]["product_group_ids"]) == ["PG-PRES", "PG-PRES-WL"]
    args, t = _totals("suppliers with net spend above 10k at Company A in 2025")
    assert t.net and args["parameters"]["order_by"] == "net_spend"


@pytest.mark.parametrize("question", [
    "Company A invoices above 50k in 2025",
    "which suppliers sent Company A invoices over 5,000 EUR in 2025?",
    "list Company A's invoices from Beta under 1,000 EUR in Q1 2026",
])
def test_an_amount_on_single_invoices_stays_the_invoice_listing(question: str) -> None:
    result = _routed(question)
    assert result.workflow != "spend_threshold", question
    assert any(s.tool == "finance.invoices_above_threshold" for s in result.execution_plan), (
        question, result.workflow, result.clarification_question)


@pytest.mark.parametrize(("question", "about"), [
    ("suppliers with more than 50k spend in 2025", "company"),
    ("which suppliers did Company A spend more than 50,000 USD with in 2025?", "currency"),
    ("suppliers with more than 50k spend at Company A", "period"),
])
def test_what_a_threshold_lacks_is_asked(question: str, about: str) -> None:
    result = _routed(question)
    assert result.requires_clarification, question
    assert about in (result.clarification_question or "").lower() + " ".join(result.clarification_reasons), (
        question, result.clarification_question)


def test_the_boundary_is_exact_and_worded() -> None:
    more = TotalThreshold("supplier_id", "above", "50000.00", False, "EUR")
    assert not qualifies(Decimal("50000.00"), more) and qualifies(Decimal("50000.01"), more)
    least = TotalThreshold("supplier_id", "above", "50000.00", True, "EUR")
    assert qualifies(Decimal("50000.00"), least)
    under = TotalThreshold("supplier_id", "below", "10000.00", False, None)
    assert qualifies(Decimal("-12.50"), under) and not qualifies(Decimal("10000.00"), under)
    between = TotalThreshold("supplier_id", "above", "10000.00", True, None, upper="50000.00", upper_inclusive=False)
    assert qualifies(Decimal("10000.00"), between) and not qualifies(Decimal("50000.00"), between)
    assert parse_rule((threshold_rule(between),)) == TotalThreshold(
        "supplier_id", "above", "10000.00", True, None, upper="50000.00", upper_inclusive=False)
