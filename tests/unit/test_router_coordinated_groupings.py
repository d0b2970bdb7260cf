"""Two groupings joined in one phrase ("by supplier and month") are both read, never the second dropped."""

from __future__ import annotations

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from router.reading import Breakdown, parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

DIMENSIONS = {"supplier": "supplier_id", "vendor": "supplier_id", "product group": "product_group_id",
              "category": "product_group_id", "product": "product_code", "product code": "product_code"}
GRAINS = {"month": "month", "mo": "month", "quarter": "quarter", "qtr": "quarter", "year": "year", "week": "week",
          "day": "day"}


@seed(20261205)
@settings(max_examples=80, deadline=None, database=None)
@given(dimension=st.sampled_from(sorted(DIMENSIONS)), grain=st.sampled_from(sorted(GRAINS)),
       joint=st.sampled_from([" and ", ", ", " & ", "/", " and by ", ", per "]),
       lead=st.sampled_from(["by", "per", "broken down by", "split by"]), grain_first=st.booleans())
def test_a_dimension_and_a_grain_are_both_read(dimension: str, grain: str, joint: str, lead: str,
                                               grain_first: bool) -> None:
    first, second = (grain, dimension) if grain_first else (dimension, grain)
    breakdown = parse_breakdown(f"company a spend {lead} {first}{joint}{second} in 2025")
    assert breakdown.group_by == (DIMENSIONS[dimension],), (first, joint, second, breakdown)
    assert breakdown.grain == GRAINS[grain], (first, joint, second, breakdown)
    assert not breakdown.unknown


def test_two_grains_are_asked_about() -> None:
    assert parse_breakdown("spend by quarter and month").unknown == ("quarter and month",)


@pytest.mark.parametrize("question", ["Company A spend by month and Supplier Beta in 2025",
                                      "spend by supplier and Company A in 2025"])
def test_a_name_after_the_noun_is_a_scope(question: str) -> None:
    assert len(parse_breakdown(question).group_by) + (parse_breakdown(question).grain is not None) == 1


def test_the_plan_carries_both() -> None:
    routing = route("company a spend by supplier and month q1 2026",
                    RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    step = next(s for s in routing.execution_plan if s.tool == "finance.company_spend")
    assert (list(step.arguments["group_by"]), step.arguments["grain"]) == (["supplier_id"], "month")


@pytest.mark.parametrize(("question", "grain"), [("company a beta spend trend 2025 by quarter", "quarter"),
                                                 ("Company A monthly spend trend in Q1 2026", "month")])
def test_a_trend_with_a_grain_is_the_series(question: str, grain: str) -> None:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    tools = {s.tool: s for s in routing.execution_plan}
    step = tools.get("finance.company_spend") or tools.get("finance.aggregate_spend")
    assert step is not None and step.arguments["grain"] == grain, routing.execution_plan


@pytest.mark.parametrize("text", ["top 5 suppliers by spend year to date", "bottom 3 vendors by value month to date",
                                  "suppliers ranked by spend year over year", "by spend today"])
def test_a_measure_word_before_a_period_is_no_grouping(text: str) -> None:
    # "by spend year to date" asked which grouping 'spend year' was: a ranking measure and then its period
    assert parse_breakdown(text) == Breakdown()


@pytest.mark.parametrize("question", [
    "Which invoices from Beta and Gamma did Company A get greater than 10 thousand euros in Q1 2026?",
    "Company A invoices from Supplier Beta and Gamma Controls more than 5,000 euros last quarter",
    "Company A spend in Q1 2026 with suppliers other than Beta and Gamma",
])
def test_a_than_of_an_amount_or_an_exclusion_compares_no_suppliers(question: str) -> None:
    # Read as a comparison, two named suppliers became a breakdown by supplier the listing cannot give
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    assert not routing.requires_clarification, routing.clarification_question
    assert all(not s.arguments.get("group_by") for s in routing.execution_plan), routing.execution_plan
