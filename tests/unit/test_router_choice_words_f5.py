"""Choices, comparisons and running sums are never read as a plain total (review findings f5).

Rules (router/set_words.py ``CHOICE_CUE``, router/routing.py, router/reading.py, router/derived_answer.py):
- "A or B, which was higher?", "A vs B", "side by side", "each", "respectively": two groups are never one set added
  up (asked when the shape cannot break them down); two suppliers are the breakdown by supplier;
- "side by side" is no grouping by a 'side';
- "cumulative spend by month", "running total by month": the governed monthly sums are no running sums, so the word
  is named back (the figure partial);
- a period ranking ("peak month ... excluding SUP-27") restates every filter it ran with.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from router.answer import Answer
from router.derived import detect
from router.derived_answer import derive
from router.reading import parse_breakdown
from router.set_words import choice_cue
from router.tools import MetricToolResponse
from tests.unit.test_router_analysis import routed


@pytest.mark.parametrize("question", [
    "Company A spend on Control Cabinets or Consumables in Q1 2026, which was higher?",  # the probe's shape
    "Company A spend on Pressure Sensors + Temperature Sensors in Q1 2026, which one was bigger?",
    "Company A spend on Control Cabinets and Consumables side by side in Q1 2026",
    "Company A spend on Control Cabinets and Consumables in Q1 2026, respectively",
])
def test_groups_with_a_choice_cue_are_never_added_up(question: str) -> None:
    result = routed(question)
    assert not result.entities.product_group_ids
    assert "added up" not in (result.interpretation or "")
    assert result.requires_clarification  # a breakdown by group of a group set is not offered: asked


@pytest.mark.parametrize("question", [
    "Company A spend with Beta or Gamma in Q1 2026, which was higher?",
    "Company A spend with Beta and Gamma side by side in Q1 2026",
    "Company A spend with Beta + Gamma in Q1 2026, each",
])
def test_suppliers_with_a_choice_cue_are_broken_down_by_supplier(question: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, result.clarification_question
    assert set(result.entities.supplier_ids) == {"SUP-18", "SUP-27"}
    grouped = [d for step in result.execution_plan for d in (step.arguments.get("group_by") or [])]
    assert "supplier_id" in grouped


def test_a_list_without_a_choice_cue_stays_one_set() -> None:
    assert not choice_cue("Company A spend on Control Cabinets or Consumables in Q1 2026")
    assert not choice_cue("Company A spend for each month of 2025")
    result = routed("Company A spend on Control Cabinets or Consumables in Q1 2026")
    assert set(result.entities.product_group_ids) == {"PG-CAB", "PG-CONS"}


@pytest.mark.parametrize("text", ["spend on sensors and cables side by side Q1 2026",
                                  "Beta vs Gamma side-by-side, by month"])
def test_side_by_side_is_no_grouping(text: str) -> None:
    found = parse_breakdown(text)
    assert "side" not in found.unknown and not any("side" in u for u in found.unknown)


@pytest.mark.parametrize("question", ["Company A cumulative spend by month Q1 2026",
                                      "Company A running total by month Q1 2026",
                                      "Company A accumulated spend per quarter in 2025"])
def test_running_sum_by_period_is_named_back(question: str) -> None:
    result = routed(question)
    if result.requires_clarification:
        return  # asked is never a silent wrong
    assert any(w.split()[0].lower() in ("cumulative", "running", "accumulated") for w in result.unread), result.unread


def test_a_cumulative_line_the_reader_builds_is_not_named_back() -> None:
    result = routed("Company A YTD 2026 split by month, so I can build the cumulative line myself")
    assert not any("cumulative" in w for w in result.unread)


def _no_call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
    raise AssertionError("a period ranking ranks the governed breakdown: no further call")


@pytest.mark.parametrize(("key", "value", "said"), [("exclude_supplier_ids", ["SUP-27"], "excluding suppliers SUP-27"),
                                                    ("exclude_product_group_ids", ["PG-CAB"],
                                                     "excluding product groups PG-CAB"),
                                                    ("supplier_ids", ["SUP-18"], "suppliers SUP-18")])
def test_a_period_ranking_restates_its_filters(key: str, value: list[str], said: str) -> None:
    params = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
              "invoice_statuses": ["posted", "paid"], "reporting_currency": "EUR", key: value}
    rows = [("2026-01-01", "10.00", 1), ("2026-02-01", "30.00", 2), ("2026-03-01", "20.00", 1)]
    total = sum((Decimal(v) for _, v, _ in rows), Decimal(0))
    result = {"status": "complete", "total_spend": str(total), "currency": "EUR", "matched_line_count": 4,
              "breakdown": [{"dimension": "period_start", "key": k, "total_spend": v, "matched_line_count": n}
                            for k, v, n in rows]}
    base = Answer(status="answered", text=f"Company A's total spend was {total} EUR. Read as: Company A (COMP-A), "
                  "2026-01-01 to 2026-04-01 (end exclusive).", result=result,
                  inputs={"metrics": [{"metric": "finance.company_spend", "parameters": params}]}, sources=("l1",))
    found = detect("Company A peak month in Q1 2026", dt.date(2026, 3, 31))
    assert found is not None
    answer = derive(base, found, dt.date(2026, 3, 31), _no_call)
    assert answer.status == "answered"
    assert said in answer.text


@pytest.mark.parametrize(("rows", "said"), [
    ([("SUP-18", "32999.92"), ("SUP-27", "97267.59")], "SUP-27 is higher (97267.59 EUR); SUP-18 is lower"),
    ([("A", "5.00"), ("B", "9.00"), ("C", "9.00")], "B and C are highest (9.00 EUR); A is lowest"),
    ([("A", "5.00"), ("B", "5.00")], "All 2 are equal")])
def test_the_choice_is_answered_beside_its_rows(rows: list[tuple[str, str]], said: str) -> None:
    from router.answer import _which_is_higher

    assert said in _which_is_higher([(k, Decimal(v)) for k, v in rows], "EUR")
