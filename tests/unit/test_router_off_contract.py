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
from router.off_contract import CHECK_STEP, EXCLUDE_STEP, WHOLE_STEP, off_contract_parts
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


# --- off-contract by supplier, as a list of suppliers and as a share (g5) -------------------------------------------
_BY_SUPPLIER = ("Break down {c}'s off-contract spend {p} by supplier.", "{c} maverick spend {p} per vendor",
                "{c}: spend with non-approved suppliers {p}, broken down by supplier")
_LISTED = ("Which suppliers did {c} buy from off-contract {p}?",
           "Which suppliers were paid or invoiced off-contract by {c} {p}?",
           "which vendors not on the approved vendor list did {c} spend with {p}?")
_SHARED = ("What share of {c}'s spend {p} was with suppliers that were not approved?",
           "what percentage of {c}'s spend {p} was off-contract?",
           "{c} {p}: share of spend with unapproved vendors")


@given(st.sampled_from(_BY_SUPPLIER + _LISTED), st.sampled_from(_COMPANIES), st.sampled_from(PERIODS))
@FAST
def test_off_contract_by_supplier_is_the_governed_breakdown_without_the_approved_set(
        template: str, company: tuple[str, str], period: tuple[str, str, str]) -> None:
    words, start, end = period
    steps = _steps(template.format(c=company[0], p=words))
    spend = steps["calculate-spend"]
    assert spend.tool == "finance.company_spend" and spend.arguments["group_by"] == ["supplier_id"]
    assert spend.arguments["exclude_supplier_ids"].ref == EXCLUDE_STEP
    assert (spend.arguments["start_date"], spend.arguments["end_date"]) == (start, end)
    assert WHOLE_STEP not in steps


@given(st.sampled_from(_SHARED), st.sampled_from(_COMPANIES), st.sampled_from(PERIODS))
@FAST
def test_an_off_contract_share_is_part_and_whole_over_the_same_filters(
        template: str, company: tuple[str, str], period: tuple[str, str, str]) -> None:
    steps = _steps(template.format(c=company[0], p=period[0]))
    part, whole = steps["calculate-spend"], steps[WHOLE_STEP]
    assert part.arguments["exclude_supplier_ids"].ref == EXCLUDE_STEP
    assert whole.tool == part.tool == "finance.company_spend" and "exclude_supplier_ids" not in whole.arguments
    assert {k: v for k, v in part.arguments.items() if k != "exclude_supplier_ids"} == whole.arguments


@pytest.mark.parametrize("question", ["Company A off-contract spend in Q1 2026 ranked by month",
                                      "top 3 off-contract suppliers of Company A in Q1 2026"])
def test_off_contract_with_a_grain_or_ranking_is_still_named(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification or all(
        s.arguments.get("group_by") in (None, ["supplier_id"]) for s in result.execution_plan), result


def _spend(total: str | None, status: str = "complete", rows: tuple[tuple[str, str], ...] = ()) -> Any:
    from router.tools import SpendBreakdownRow, SpendResponse
    return SpendResponse(
        metric="finance.company_spend", status=status, total_spend=total, currency="EUR", matched_line_count=3,
        requested_supplier_ids=(), calculated_supplier_ids=(), missing_supplier_ids=(), product_codes=None,
        source_line_ids=(), source_line_count=0, sources_truncated=False, policy={}, parameters={},  # type: ignore[arg-type]
        breakdown=tuple(SpendBreakdownRow(dimension="supplier_id", key=k, total_spend=v, matched_line_count=1)
                        for k, v in rows))


@given(st.decimals(min_value=0, max_value=10**6, places=2), st.decimals(min_value="0.01", max_value=10**6, places=2))
@FAST
def test_the_off_contract_share_is_part_over_whole_rounded_once(part: Any, extra: Any) -> None:
    from decimal import ROUND_HALF_UP, Decimal

    from router.executor import StepOutcome
    whole = part + extra
    outcome = StepOutcome(WHOLE_STEP, "finance.company_spend", "ok", 0, {}, _spend(str(whole)), None, 0.0)
    _, fields, _ = off_contract_parts(_spend(str(part)), outcome, "Company A", "2026-Q1")
    assert fields["share_percent"] == str((Decimal(part) * 100 / Decimal(whole)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_no_off_contract_line_is_a_zero_share_and_an_empty_whole_no_share() -> None:
    from router.executor import StepOutcome
    outcome = StepOutcome(WHOLE_STEP, "finance.company_spend", "ok", 0, {}, _spend("100.00"), None, 0.0)
    text, fields, answered = off_contract_parts(_spend(None, "no_data"), outcome, "Company A", "2026-Q1")
    assert fields["share_percent"] == "0.00" and answered and "no counted line" in text
    empty = StepOutcome(WHOLE_STEP, "finance.company_spend", "ok", 0, {}, _spend(None, "no_data"), None, 0.0)
    text, fields, answered = off_contract_parts(_spend(None, "no_data"), empty, "Company A", "2026-Q1")
    assert "share_percent" not in fields and not answered and "no data" in text


def test_the_suppliers_of_the_breakdown_are_listed() -> None:
    text, fields, _ = off_contract_parts(_spend("30.00", rows=(("SUP-22", "10.00"), ("SUP-35", "20.00"))), None,
                                         "Company A", "2026-Q1")
    assert fields["off_contract_supplier_ids"] == ["SUP-22", "SUP-35"] and "SUP-22, SUP-35" in text
