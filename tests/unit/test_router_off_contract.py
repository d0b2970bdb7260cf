"""Negated approvals (off-contract spend), a supplier marked "not approved", spend after an approval ended and the
approved vendors of a category: the plan each shape gets, over every phrasing, company and period; no database.

The slot grammars are those of :mod:`evaluation.probes_approvals` (which compares the answers with the governed
metric called directly); the in-memory gazetteer is :mod:`tests.unit.test_router_analysis`'s.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.approval_words import approval_qualifiers
from router.off_contract import CHECK_STEP, EXCLUDE_STEP
from tests.unit.test_router_analysis import AS_OF, FAST, PERIODS, routed

_NEGATED = ("{c} spend with suppliers not on the approved vendor list {p}",
            "How much did {c} spend with non-approved suppliers {p}?", "{c}: spend with unapproved vendors {p}",
            "{c} off-contract spend {p}", "maverick spend {c} {p}", "{c} spend with vendors without approval {p}",
            "What did {c} spend {p} with suppliers that are not approved?",
            "{c} spend {p} with vendors that have no approval", "{c} spend with suppliers NOT approved {p}",
            "{c} off-contract spend {p} (vendors w/o approval under agreement-2026-04)",
            "{c} – Ausgaben bei nicht freigegebenen Lieferanten {p}",
            "Ausgaben von {c} bei Lieferanten ohne Freigabe {p}")
_COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"))


def _steps(question: str) -> dict[str, Any]:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    return {s.step_id: s for s in result.execution_plan}


@given(st.sampled_from(_NEGATED), st.sampled_from(_COMPANIES), st.sampled_from(PERIODS))
@FAST
def test_a_negated_approval_excludes_the_approved_set(template: str, company: tuple[str, str],
                                                       period: tuple[str, str, str]) -> None:
    words, start, end = period
    steps = _steps(template.format(c=company[0], p=words))
    approved = steps[EXCLUDE_STEP]
    assert approved.tool == "graph.find_approved_vendors"
    assert (approved.arguments["start_date"], approved.arguments["end_date"]) == (start, end)
    assert approved.arguments["as_of"] == AS_OF.isoformat()
    spend = steps["calculate-spend"]
    # the negation is never dropped: the company's spend without the approved set, never the set's spend
    assert spend.tool == "finance.company_spend" and "supplier_ids" not in spend.arguments
    assert spend.arguments["exclude_supplier_ids"].ref == EXCLUDE_STEP
    assert spend.arguments["company_id"].ref == "resolve-company"
    assert steps["resolve-company"].arguments["company_id"] == company[1]


@pytest.mark.parametrize("group", ["sensors", "control equipment", "Pressure Sensors"])
def test_a_negated_approval_keeps_the_category(group: str) -> None:
    steps = _steps(f"Company A off-contract {group} spend in Q1 2026")
    assert steps["calculate-spend"].arguments["product_group_ids"], steps["calculate-spend"].arguments


@pytest.mark.parametrize("template", ["Company A spend with {s} (not approved) in Q1 2026",
                                      "what did company b spend with {s}, not approved, in 2025?"])
def test_a_named_supplier_marked_not_approved_is_its_spend_with_the_approval_checked(template: str) -> None:
    steps = _steps(template.format(s="Supplier Delta"))
    assert steps["calculate-spend"].arguments["supplier_ids"] == ["SUP-31"]
    assert steps[CHECK_STEP].arguments["supplier_ids"] == ["SUP-31"]


@pytest.mark.parametrize(("template", "day"), [
    ("Delta's approval for sensors ran out 1 Feb 2026 - what did Company A still spend with them from Feb 1 on?",
     "2026-02-01"),
    ("Company B spend with Supplier Delta after the approval ended (from 1 March 2026)", "2026-03-01"),
    ("Company A: Ausgaben bei Supplier Delta nach Ablauf der Freigabe (ab 1.4.2026)?", "2026-04-01"),
])
def test_spend_after_an_approval_ended_runs_from_the_day_to_the_as_of_date(template: str, day: str) -> None:
    result = routed(template)
    assert not result.requires_clarification, result.clarification_question
    spend = next(s for s in result.execution_plan if s.step_id == "calculate-spend")
    assert spend.arguments["supplier_ids"] == ["SUP-31"] and not spend.arguments.get("product_codes")
    assert (spend.arguments["start_date"], spend.arguments["end_date"]) == (
        day, (AS_OF + dt.timedelta(days=1)).isoformat())


@pytest.mark.parametrize("question", ["which suppliers are not approved for Company A in 2025?",
                                      "list company b's unapproved vendors in Q1 2026"])
def test_a_negation_without_a_figure_is_a_clarification_naming_it(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification
    assert "not approved" in (result.clarification_question or "")


@pytest.mark.parametrize(("question", "group"), [
    ("Company A spend with approved sensors vendors in Q1 2026", "PG-SENS"),
    ("company b spend with approved control equipment suppliers in 2025", "PG-CTRL"),
])
def test_the_category_of_approved_vendors_narrows_the_spend(question: str, group: str) -> None:
    result = routed(question)
    assert result.entities.product_group_id == group, result.entities


def test_an_unknown_category_of_approved_vendors_is_named_back() -> None:
    result = routed("Company A spend with approved furniture vendors in Q1 2026")
    assert result.requires_clarification and "furniture" in (result.clarification_question or "")
    assert approval_qualifiers("spend with our approved vendors") == []
