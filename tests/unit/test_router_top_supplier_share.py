"""The top supplier's share named through the company ("what share of X's spend went to its largest supplier"):
the possessive is the company whose supplier the ranking selects, not a fact asked about a supplier, so the
question is the governed ranking's top row with its share column, over every phrasing, company and period; a
fact no agreement holds after the selected supplier ("its logo") is still named back. No database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.unit.test_router_analysis import FAST, PERIODS, routed

_TEMPLATES = ("What share of {c}'s spend {p} went to its largest supplier?",
              "Supplier concentration: what percentage of {c}'s spend {p} went to its single largest supplier?",
              "what proportion of {c}'s {p} spend was with its biggest vendor",
              "{c} {p}: what % of spend sits with their top supplier?",
              "What percentage of {c}'s spend {p} went to its single biggest supplier?")
_COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"))


@given(st.sampled_from(_TEMPLATES), st.sampled_from(_COMPANIES), st.sampled_from(PERIODS))
@FAST
def test_its_largest_supplier_is_the_top_ranked_share(template: str, company: tuple[str, str],
                                                      period: tuple[str, str, str]) -> None:
    words, start, end = period
    result = routed(template.format(c=company[0], p=words))
    assert not result.requires_clarification, result.clarification_question
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    params = step.arguments["parameters"]
    assert step.arguments["metric"] == "finance.spend_ranking" and step.arguments["group_by"] == ["supplier_id"]
    assert (params["company_id"], params["start_date"], params["end_date"]) == (company[1], start, end)
    assert (params["limit"], params["direction"]) == (1, "top")


def test_a_fact_no_agreement_holds_is_still_named() -> None:
    result = routed("What share of Company A's spend in Q1 2026 went to its largest supplier, and its logo colour?")
    assert result.requires_clarification
