"""Breakdowns typed in shorthand, with typos, in French / Spanish, or with a parenthesis illustrating the rows
(router/breakdown_words.py), and the breakdowns that name no period (every period on file). Database-free.

Each phrasing is routed in memory through the router fixtures and its governed call compared with the call the
English phrasing means: the same metric, parameters, grouping and grain; never a total with the grouping dropped,
never a grouping named back as unknown.
"""

from __future__ import annotations

from typing import Any

import pytest

from router.breakdown_words import every_period, read_breakdown_words
from router.followups import context_reference
from router.romance import read_romance
from tests.unit.test_router_breakdown_classes import _call, _routed

COMPANIES = ("Company A", "Company B", "Company C")


# --- the rewrite itself --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "meant"), [
    ("Company B spend in Q3 2025 per pgs", "Company B spend in Q3 2025 by product group"),
    ("Company B spend in Q3 2025 by supp", "Company B spend in Q3 2025 by supplier"),
    ("Company B spend in Q3 2025 by vendr", "Company B spend in Q3 2025 by vendor"),
    ("Company B spend in Q3 2025 by compnay", "Company B spend in Q3 2025 by company"),
    ("Company B spend in Q3 2025 by curency", "Company B spend in Q3 2025 by currency"),
    ("Company B spend in Q3 2025 por proveedores", "Company B spend in Q3 2025 by supplier"),
    ("Company B gasto T3 2025 por grupos de productos", "Company B gasto T3 2025 by product group"),
    ("Company B: ventilation par famille, T3 2025", "Company B: breakdown by top-level product group, T3 2025"),
    ("Company B T3 2025 montants par devises d'origine", "Company B T3 2025 montants by currency"),
    ("Company B T3 2025 cifras por monedas", "Company B T3 2025 cifras by currency"),
    ("Company B 2025-Q3 spend in their original currencies and in EUR",
     "Company B 2025-Q3 spend by invoice currency, with the EUR total"),
])
def test_grouping_words_read_in_english(typed: str, meant: str) -> None:
    assert read_breakdown_words(typed, COMPANIES) == meant


@pytest.mark.parametrize("question", [
    "Company A spend by supplier in Q1 2026", "Company A spend by quarter 2025", "spend with Supplier Beta in May",
    "price per unit of PRD-611", "Company A spend per month 2026 (January to March)",
    "spend by product group (Sensors and Cables) in Q1 2026",
    # one document's two amounts, no breakdown of a figure
    "the gross of invoice INV-2026-0042 in original currency and in EUR",
])
def test_words_already_read_and_real_filters_are_left_alone(question: str) -> None:
    assert read_breakdown_words(question, COMPANIES) is None


@pytest.mark.parametrize(("typed", "meant"), [
    # examples of the rows: dropped, the level kept
    ("Company B spend by top-level category in 2025 (Sensors, Cables etc.)",
     "Company B spend by top-level category in 2025"),
    ("Company B spend by product group (top level: Sensors / Cables / Tools) in 2025",
     "Company B spend by product group (top level) in 2025"),
    ("Company B spend by product group (the fine-grained, detailed ones, not the top level) for 2025",
     "Company B spend by product group (lowest level) for 2025"),
    # the months or quarters of the period, named as a remark
    ("Company B spend per month in 2026 (Jan, Feb, Mar and Apr so far)", "Company B spend per month in 2026"),
    ("Company B 2025 spend by quarter (only Q3 and Q4 have data I think)", "Company B 2025 spend by quarter"),
    # listed companies after "by company": the scope
    ("spend by company (A and C) in Q1 2026", "spend for Company A and Company C by company in Q1 2026"),
    ("the two companies (Company A + Company B) side by side, Q1 2026, by company",
     "for Company A and Company B, Q1 2026, by company"),
    ("how did H2 2025 spend split between Company A and Company C?",
     "how did H2 2025 spend split for Company A and Company C, by company?"),
    ("breakdown by supplier: Company A spend in May 2026", "Company A spend in May 2026, breakdown by supplier"),
    ("répartition des dépenses S1 2026 entre Company B et Company C",
     "breakdown des dépenses S1 2026 for Company B and Company C, by company"),
    ("spend per company (B, C) in May 2026", "spend for Company B and Company C per company in May 2026"),
])
def test_parentheses_that_illustrate_the_rows(typed: str, meant: str) -> None:
    assert read_breakdown_words(typed, COMPANIES) == meant


def test_a_restricting_parenthesis_is_kept() -> None:
    assert read_breakdown_words("spend by product group (only Sensors, Cables...) in 2025", COMPANIES) is None


def test_a_dashed_romance_month_range() -> None:
    assert read_romance("Company A gasto ene-mar 2026") == "Company A spend January through March 2026"
    assert read_romance("Company A spend jan-mar 2026") is None  # English months are read by the period reader


def test_same_breakdown_is_a_follow_up() -> None:
    follow = context_reference("the same split but for Company C please")
    assert follow is not None and follow.words == "same split"


def test_every_period_words() -> None:
    assert every_period("Company B spend per quarter, full history")
    assert every_period("Company B spend grouped by month")
    assert not every_period("Company B spend with Beta")


# --- routed in memory ----------------------------------------------------------------------------------------------
def _english(question: str) -> tuple[str, dict[str, Any], list[str], str | None]:
    return _call(question)


@pytest.mark.parametrize(("typed", "english"), [
    ("Company A Q1 2026 spend by pg", "Company A Q1 2026 spend by product group"),
    ("Company A spend by sups in H2 2025", "Company A spend by supplier in H2 2025"),
    ("Company A spend by suplier in H2 2025", "Company A spend by supplier in H2 2025"),
    ("Company A gasto 1T 2026 por grupo de producto", "Company A spend in Q1 2026 by product group"),
    ("Company A: répartition par grande famille, S2 2025", "Company A spend in H2 2025 by top-level product group"),
    ("Company A, spend by top-level product family (famille de produits), T1 2026",
     "Company A spend in Q1 2026 by top-level product group"),
])
def test_typed_breakdowns_route_like_english(typed: str, english: str) -> None:
    assert _call(typed) == _english(english)


def test_an_illustrating_list_of_groups_is_no_filter() -> None:
    typed = "Company A spend by top-level category for Q1 2026 (Sensors, Cables...)"
    assert _call(typed) == _english("Company A spend by top-level category for Q1 2026")


def test_a_grain_breakdown_without_a_period_is_every_period_on_file() -> None:
    for question in ("Company B spend by quarter, all data", "Company B spend grouped by month"):
        _, params, group_by, grain = _call(question)
        assert (params["start_date"], params["end_date"]) == ("1990-01-01", "2026-05-16"), question
        assert grain in ("quarter", "month") and not group_by


def test_a_breakdown_by_supplier_without_a_period_still_asks() -> None:
    result = _routed("Company B spend by supplier")
    assert result.requires_clarification


def test_a_bare_list_of_months_after_a_monthly_breakdown_is_kept() -> None:
    # "(Jul, Aug, Sep)" may restrict the rows: read (or asked about) as typed, never dropped as examples
    assert "(Jul, Aug, Sep)" in (read_breakdown_words("Company B spend in 2025 by month (Jul, Aug, Sep)", ())
                                 or "Company B spend in 2025 by month (Jul, Aug, Sep)")
