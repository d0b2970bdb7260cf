"""Periods named by calendar years and parts of a relative year, changes between two named periods, compound
asks ("both numbers", " + ", "which was the biggest one") and the all-companies scope (no database, no model).

The scope: a question naming every company of the tenant ("across all companies", "group-wide", "all three
entities", "spend per company") is planned without a company filter (the tenant's rows under row-level security)
and restates the companies; a question naming no company at all still asks which one.
"""

from __future__ import annotations

import datetime as dt

import pytest

from router.compound import _SEPARATELY, _segments, split_asks
from router.periods import resolve_period
from router.reader import read
from router.reading import parse_breakdown
from tests.unit.test_router_routing import AS_OF, GAZETTEER, METRICS, routed


@pytest.mark.parametrize(("words", "start", "end"), [
    ("spend for calendar year 2025", "2025-01-01", "2026-01-01"),
    ("spend in calendar 2025", "2025-01-01", "2026-01-01"),
    ("CY2025 spend", "2025-01-01", "2026-01-01"),
    ("spend in the last calendar year", "2025-01-01", "2026-01-01"),
    ("Company A, second half of last year - total spend?", "2025-07-01", "2026-01-01"),
    ("spend in H2 of last year", "2025-07-01", "2026-01-01"),
    ("first half of this year", "2026-01-01", "2026-07-01"),
    ("Q3 of last year", "2025-07-01", "2025-10-01"),
    ("the last quarter of last year", "2025-10-01", "2026-01-01"),
])
def test_calendar_years_and_parts_of_a_relative_year_are_one_period(words: str, start: str, end: str) -> None:
    found = resolve_period(words, AS_OF)
    assert not found.ambiguous, found.reason
    assert found.time_range is not None
    assert (found.time_range.start, found.time_range.end) == (dt.date.fromisoformat(start), dt.date.fromisoformat(end))


@pytest.mark.parametrize("question", [
    "Company A spend Q3 2025 and Q4 2025 - both numbers please",
    "Company A spend Q1 2026 and Q4 2025, both figures please",
    "Company A spend in Q1 2026 and in Q4 2025: give me both numbers",
    "Company A spend Q1 2026 and Q4 2025, each figure",
])
def test_both_numbers_asks_each_period_apart(question: str) -> None:
    assert _SEPARATELY.search(question)
    parts = split_asks(question, lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS))
    assert len(parts) == 2
    assert "Q4 2025" in parts[1].question or "Q4 2025" in parts[0].question


def test_both_with_a_noun_is_no_cue() -> None:
    assert _SEPARATELY.search("spend with both suppliers in Q1") is None


def test_plus_joins_two_asks_but_not_a_period_list() -> None:
    assert _segments("Company C control equipment spend in Q1 2026 + which control equipment vendors are approved "
                     "for C right now?") == ["Company C control equipment spend in Q1 2026",
                                             "which control equipment vendors are approved for C right now?"]
    assert _segments("Company B spend with Gamma in Q1 + Company B spend with Beta in Q1?") == [
        "Company B spend with Gamma in Q1", "Company B spend with Beta in Q1?"]
    assert _segments("Company A spend Q4 2025 + Q1 2026") == ["Company A spend Q4 2025 + Q1 2026"]


def test_which_was_the_biggest_one_ranks_the_documents_of_the_part_before() -> None:
    parts = split_asks("how many invoices did Company A get from Gamma in 2025, and which was the biggest one?",
                       lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS))
    assert len(parts) == 2
    assert "biggest invoice" in parts[1].question
    assert "Gamma" in parts[1].question and "2025" in parts[1].question


def test_right_now_keeps_its_own_time() -> None:
    parts = split_asks("Company A spend on Sensors in Q1 2026 + which sensors vendors are approved for Company A "
                       "right now?", lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS))
    assert len(parts) == 2
    assert "Q1 2026" not in parts[1].question


@pytest.mark.parametrize("question", [
    "how much did Company A's Gamma spend drop from Q3 to Q4 2025, in euros",
    "Company A / Gamma: Q1 26 vs Q4 25 growth",
    "Supplier Delta at Company A - Q1 2026 vs Q4 2025, abs + %",
])
def test_a_change_between_two_named_periods_is_a_spend_comparison(question: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, result.clarification_reasons
    metrics = [s.arguments.get("metric") for s in result.execution_plan if s.tool == "metrics.query"]
    assert metrics == ["finance.spend_comparison"], result.execution_plan


def test_sub_category_is_the_lowest_group_level_and_no_ranking() -> None:
    result = routed("Company A YTD spend broken down by sub-category (lowest product group level)")
    assert not result.requires_clarification, result.clarification_reasons
    assert "product_group_id" in str(result.execution_plan)
    assert "spend_ranking" not in str(result.execution_plan)


def test_across_the_group_is_a_scope_not_a_breakdown() -> None:
    assert parse_breakdown("spend in Q4 2025 across the group").group_by == ()
    assert parse_breakdown("spend in Q4 2025 across product groups").group_by == ("product_group_id",)


def _calls(question: str) -> list[tuple[str, dict[str, object], list[str]]]:
    result = routed(question)
    assert not result.requires_clarification, result.clarification_reasons
    return [(s.arguments["metric"], dict(s.arguments["parameters"]), list(s.arguments.get("group_by") or ()))
            for s in result.execution_plan if s.tool == "metrics.query"]


@pytest.mark.parametrize("question", [
    "spend per company for Q4 2025, all three entities",
    "total spend across all companies in Q1 2026",
    "group-wide spend in 2025",
    "Across the group: spend in Q4 2025",
    "spend per company in Q1 2026",
])
def test_all_companies_is_the_total_and_each_company_without_a_company_filter(question: str) -> None:
    calls = _calls(question)
    assert [(m, g) for m, _, g in calls] == [("finance.company_spend", []), ("finance.company_spend", ["company_id"])]
    assert all("company_id" not in p and p["reporting_currency"] == "EUR" for _, p, _ in calls)
    assert "all companies of the tenant (COMP-A, COMP-B, COMP-C)" in (routed(question).interpretation or "")


def test_all_companies_keeps_filters_and_exclusions() -> None:
    calls = _calls("Sensors spend across all companies in Q1 2026 excluding Supplier Beta, by company")
    for _, params, _ in calls:
        assert params["exclude_supplier_ids"] == ["SUP-18"]
        assert "PG-SENS" in params["product_group_ids"]  # type: ignore[operator]


def test_a_ranking_across_all_companies_has_no_company_filter() -> None:
    calls = _calls("top 3 vendors across all companies in Q1 2026")
    assert [m for m, _, _ in calls] == ["finance.spend_ranking"]
    assert "company_id" not in calls[0][1] or calls[0][1]["company_id"] is None


def test_a_companys_share_of_the_group_ranks_the_companies_beside_the_total() -> None:
    calls = _calls("Company A's share of group-wide spend in Q4 2025 (all three companies)")
    assert [(m, g) for m, _, g in calls] == [("finance.company_spend", []), ("finance.spend_ranking", ["company_id"])]
    assert calls[1][1]["limit"] == 3


@pytest.mark.parametrize("question", ["total spend in Q1 2026", "top 3 suppliers in Q1 2026",
                                      "how much did we spend with Gamma in 2025?"])
def test_no_company_at_all_still_asks_which_company(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification
    assert "company" in (result.clarification_question or "").lower()


def test_a_change_from_one_month_to_the_next_compares_the_two_ends() -> None:
    reading = read("By how much did Company A's spend rise from February to March 2026?", GAZETTEER, as_of=AS_OF,
                   catalog=METRICS)
    assert reading.period.time_range is not None and reading.analysis.comparison is not None
    assert reading.period.time_range.start == dt.date(2026, 3, 1)
    assert reading.analysis.comparison.base is not None
    assert reading.analysis.comparison.base.start == dt.date(2026, 2, 1)
    plain = read("Company A spend from January to March 2026", GAZETTEER, as_of=AS_OF, catalog=METRICS)
    assert plain.period.time_range is not None
    assert (plain.period.time_range.start, plain.period.time_range.end) == (dt.date(2026, 1, 1), dt.date(2026, 4, 1))


def test_units_and_at_what_average_price_are_two_asks() -> None:
    assert _segments("how many PRD-482 did Company A buy in 2025 and at what average unit price?") == [
        "how many PRD-482 did Company A buy in 2025", "at what average unit price?"]


@pytest.mark.parametrize(("question", "parts"), [
    ("Company A and Company B spend in Q1 2026, separately",
     ["Company A spend in Q1 2026", "Company B spend in Q1 2026"]),
    ("What did Company A and Company C spend with Gamma in 2025 - both numbers please",
     ["What did Company A spend with Gamma in 2025", "What did Company C spend with Gamma in 2025"]),
])
def test_named_companies_asked_apart_are_one_part_each(question: str, parts: list[str]) -> None:
    found = split_asks(question, lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS))
    assert [p.question for p in found] == parts
    assert split_asks("Company A and Company B spend in Q1 2026",
                      lambda t: read(t, GAZETTEER, as_of=AS_OF, catalog=METRICS)) == ()
