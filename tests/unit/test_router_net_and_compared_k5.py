"""Net basis in breakdowns and rankings, comparisons, several companies, references and invoice extremes (k5),
routed in memory (no database; governed outputs given directly where an answer is composed).

Sub-classes, each with variants of its own (companies, suppliers, periods, word orders, abbreviations):
- net (tax-exclusive) spend by month, quarter or year: the governed sums per bucket (finance.net_spend_by_period),
  never "a tax-exclusive figure is not available"; "by net spend" is a ranking's measure, not a breakdown;
- "rank A and B by spend": the named companies ranked; "how much more with X than with Y": a difference of two
  suppliers' figures (never their sum); "abs change": the absolute change of a comparison;
- "A and B spend ..., each": one figure per named company, not "which company?";
- "approved sensor vendors ... and what we spent with them": the spend narrowed to those vendors; "split that by
  supplier" with no context: the missing context asked for;
- the lowest-value invoice; a supplier's largest invoices with no company: ranked over the tenant.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from router.company_compare import detect
from router.followups import context_reference
from router.reading import parse_breakdown
from tests.unit.test_router_company_compare import _ask
from tests.unit.test_router_invoice_facts import PERIOD, _composed, _routed, _sum


def _steps(routed: Any) -> dict[str, dict[str, Any]]:
    return {s.step_id: dict(s.arguments) for s in routed.execution_plan}


# --- net spend by a time grain ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "grain", "supplier"), [
    ("sum of net spend where supplier = Gamma Control Systems group by month, Company A, Q1 2026", "month", "SUP-27"),
    ("Monthly net spend Company B with Supplier Beta in FY2025", "month", "SUP-18"),
    ("net spend by quarter for Company C in 2025", "quarter", None),
    ("Company A quarterly spend excl. VAT with Epsilon, H2 2025", "quarter", "SUP-22"),
    ("VAT per month, company b, Q1 2026", "month", None),
    ("net spend excl VAT month by month for Company C with Supplier Delta last year", "month", "SUP-31"),
])
def test_net_spend_by_a_grain_is_the_governed_sum_per_bucket(question: str, grain: str, supplier: str | None) -> None:
    routed = _routed(question)
    steps = _steps(routed)
    assert routed.workflow == "document_amounts", (question, routed.clarification_question)
    assert steps["by-period"]["metric"] == "finance.net_spend_by_period" and steps["by-period"]["grain"] == grain
    params = steps["by-period"]["parameters"]
    assert params.get("supplier_ids") == ([supplier] if supplier else None), params


def test_the_buckets_are_shown_with_their_lines_and_a_missing_breakdown_is_partial() -> None:
    question = "Monthly net spend Company A with Supplier Gamma in Q1 2026"
    rows = ({"period_start": "2026-01-01", "net_spend": "12983.1000", "total_tax": "1.00", "total_spend": "1.00",
             "matched_line_count": 3},
            {"period_start": "2026-03-01", "net_spend": "36851.6500", "total_tax": "1.00", "total_spend": "1.00",
             "matched_line_count": 18})
    totals = {"net-spend": ("ok", _sum("finance.net_spend", "net_spend", "49834.75", 21, PERIOD)),
              "period-tax": ("ok", _sum("finance.period_tax", "total_tax", "2.00", 21, PERIOD))}
    answer = _composed(question, {**totals, "by-period": ("ok", _sum("finance.net_spend_by_period", "net_spend",
                                                                     None, 21, PERIOD, rows))})
    assert "By month: 2026-01 12983.10 EUR (3 lines); 2026-03 36851.65 EUR (18 lines)." in answer.text, answer.text
    assert answer.result["periods"] == {"2026-01": "12983.10", "2026-03": "36851.65"}
    assert Decimal(answer.result["total"]) == Decimal("49834.75")
    cut = _composed(question, {**totals, "by-period": ("failed", None)})
    assert cut.status == "partial" and "PARTIAL RESULT" in cut.text


@pytest.mark.parametrize(("question", "grain"), [("monthly net spend company a sensors 2025", "month"),
                                               ("Company B net spend on Control Equipment by quarter, FY2025",
                                                "quarter"),
                                               ("VAT on consumables per month for Company C in H2 2025", "month")])
def test_a_product_groups_net_spend_by_a_grain_lists_its_groups(question: str, grain: str) -> None:
    routed = _routed(question)
    steps = _steps(routed)
    assert "group-spend" in steps and steps["by-period"]["grain"] == grain, (question, routed.clarification_question)
    assert steps["by-period"]["parameters"]["product_group_ids"], steps["by-period"]


@pytest.mark.parametrize(("question", "dim"), [("Company A net spend by product group Q1 2026", "product_group_id"),
                                             ("net spend per product for Company B in Q1 2026", "product_code"),
                                             ("VAT by product group, company c, 2025", "product_group_id"),
                                             ("Company A spend excl. VAT by top-level category, H2 2025",
                                              "top_product_group_id")])
def test_net_spend_by_a_product_dimension_is_the_rankings_net_per_group(question: str, dim: str) -> None:
    steps = _steps(_routed(question))
    assert steps["by-group"]["metric"] == "finance.spend_ranking" and steps["by-group"]["group_by"] == [dim], steps
    assert steps["by-group"]["parameters"]["limit"] == 100


def test_vat_per_product_group_is_spend_minus_net_per_row() -> None:
    question = "VAT by product group, Company A, Q1 2026"
    rows = ({"product_group_id": "PG-PRES", "total_spend": "119.00", "net_spend": "100.00", "matched_line_count": 2},
            {"product_group_id": "PG-TEMP", "total_spend": "50.00", "net_spend": "50.00", "matched_line_count": 1})
    totals = {"net-spend": ("ok", _sum("finance.net_spend", "net_spend", "150.00", 3, PERIOD)),
              "period-tax": ("ok", _sum("finance.period_tax", "total_tax", "19.00", 3, PERIOD))}
    answer = _composed(question, {**totals, "by-group": ("ok", _sum("finance.spend_ranking", "net_spend", None, 3,
                                                                    PERIOD, rows))})
    assert "By product group: PG-PRES 19.00 EUR (2 lines); PG-TEMP 0.00 EUR (1 line)." in answer.text, answer.text


@pytest.mark.parametrize("phrase", ["by net spend", "by net amount", "by gross spend", "by total spend",
                                    "ranked by net spend"])
def test_a_measure_after_by_is_no_breakdown(phrase: str) -> None:
    assert parse_breakdown(f"top 3 suppliers {phrase} for Company A").unknown == ()
    assert parse_breakdown("spend by cost center for Company A").unknown == ("cost center",)


@pytest.mark.parametrize("question", ["Top 3 suppliers by net spend for Company A, trailing 6 full months",
                                      "top 2 vendors by net spend company b Q1 2026",
                                      "Company C: bottom 3 suppliers by net amount in 2025",
                                      "rank suppliers by net spend for Company A last quarter"])
def test_by_net_spend_orders_the_ranking(question: str) -> None:
    routed = _routed(question)
    ranked = [s for s in routed.execution_plan if s.arguments.get("metric") == "finance.spend_ranking"]
    assert ranked and ranked[0].arguments["parameters"]["order_by"] == "net_spend", (question, routed.rule_hits,
                                                                                      routed.clarification_question)


# --- comparisons --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "named"), [
    ("Rank Company A and Company B by spend for 1H 2026", ("COMP-A", "COMP-B")),
    ("rank company c and company a by spend last quarter", ("COMP-C", "COMP-A")),
    ("sort COMP-A, Company B and company c by total spend in 2025", ("COMP-A", "COMP-B", "COMP-C")),
    ("Order Company B or Company C by spend, Q4 2025", ("COMP-B", "COMP-C")),
])
def test_the_named_companies_are_ranked(question: str, named: tuple[str, ...]) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "company_ranking" and ask.named == named, ask
    assert ask.bases[0].startswith("spend per company") and "rank" not in ask.bases[0].lower()


@pytest.mark.parametrize(("question", "direction", "sides"), [
    ("Company A: how much more with Gamma than with Beta, Q1 2026?", "top", ("Gamma", "Beta")),
    ("how much less on Epsilon than on Beta for company b in 2025", "bottom", ("Epsilon", "Beta")),
    ("Company C - how much more did we spend with Beta than with Gamma last quarter", "top", ("Beta", "Gamma")),
    ("For COMP-A in H2 2025, how much more from Supplier Beta than from Supplier Epsilon", "top",
     ("Supplier Beta", "Supplier Epsilon")),
])
def test_a_difference_between_two_suppliers_is_two_figures(question: str, direction: str,
                                                           sides: tuple[str, str]) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, ask
    assert ask.direction == direction and len(ask.bases) == 2
    for base, side, other in zip(ask.bases, sides, reversed(sides), strict=True):
        assert side in base and other not in base and "than" not in base, ask.bases


def test_a_difference_naming_no_supplier_is_not_read_as_two_sides() -> None:
    assert _ask("Company A: how much more with it than with the budget, Q1 2026?") is None


@pytest.mark.parametrize("question", ["Company A: last quarter vs the quarter before, abs change",
                                      "Company B Q1 2026 vs Q4 2025 absolute difference",
                                      "company c: this month vs last month, abs. change",
                                      "Company A: 2025 vs 2024, abs + %",
                                      "Company B last quarter vs the quarter before, absolute and percent change"])
def test_abs_change_is_the_comparison(question: str) -> None:
    routed = _routed(question)
    assert not routed.requires_clarification, (question, routed.clarification_question)
    assert any(s.arguments.get("metric") == "finance.spend_comparison" for s in routed.execution_plan)


# --- several companies, each --------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", ["Board pack: Company A and Company B spend in H2 2025, each",
                                      "Company C and Company A: spend Q1 2026 respectively",
                                      "spend in 2025 for company a and company b separately",
                                      "COMP-B and COMP-C spend last quarter, each company"])
def test_each_named_company_gets_its_figure(question: str) -> None:
    routed = _routed(question)
    assert not routed.requires_clarification, (question, routed.clarification_question)
    calls = [s.arguments for s in routed.execution_plan if s.arguments.get("metric") == "finance.company_spend"]
    assert any(c.get("group_by") == ["company_id"] for c in calls), (question, calls)


def test_each_supplier_is_another_breakdown() -> None:
    from router.company_set import _EACH_AFTER

    assert _EACH_AFTER.search("Company A and Company B spend, each supplier") is None
    assert _EACH_AFTER.search("Company A and Company B spend for each month") is None


# --- references -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", ["ok now split that by supplier", "break it down by month please",
                                      "now rank them by spend", "can you split this per company?",
                                      "group those by quarter"])
def test_a_reshaped_figure_without_context_asks_for_it(question: str) -> None:
    assert context_reference(question) is not None
    routed = _routed(question)
    assert routed.requires_clarification and "period" in routed.clarification_question
    assert "company" in routed.clarification_question


def test_a_named_figure_split_by_a_pronoun_keeps_its_answer() -> None:
    assert context_reference("Company A spend in Q1 2026, split it by supplier", names_an_entity=True) is None


@pytest.mark.parametrize(("question", "narrowed"), [
    ("Approved sensor vendors for Company B in Q4 2025 and what we spent with them", True),
    ("approved pressure sensor suppliers of Company A in 2025 and their spend", True),
    ("Which vendors are approved for Company C in Q1 2026, and how much did we spend with them?", True),
])
def test_spend_with_them_is_with_the_vendors_listed(question: str, narrowed: bool) -> None:
    from router.compound import split_asks
    from router.reader import read
    from tests.unit.test_router_analysis import AS_OF
    from tests.unit.test_router_company_sets import GAZETTEERS

    parts = split_asks(question, lambda t: read(t, GAZETTEERS["letters"], AS_OF))
    assert len(parts) == 2, parts
    assert ("approved vendors" in parts[1].question) is narrowed, parts[1]
    assert "with them" not in parts[1].question


# --- invoice extremes -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "direction", "limit"), [
    ("lowest-value invoice Company A received in Q4 2025?", "bottom", 1),
    ("highest value invoice of Company B in 2025", "top", 1),
    ("Company C: 2 smallest-amount invoices last quarter", "bottom", 2),
    ("the largest-value invoices of company a in H2 2025", "top", 5),
])
def test_the_value_word_ranks_invoices(question: str, direction: str, limit: int) -> None:
    routed = _routed(question)
    ranked = [s.arguments for s in routed.execution_plan if s.arguments.get("metric") == "finance.largest_invoices"]
    assert ranked, (question, routed.clarification_question)
    assert ranked[0]["parameters"]["direction"] == direction and ranked[0]["parameters"]["limit"] == limit


@pytest.mark.parametrize("question", ["3 largest Supplier Gamma invoices since 1 Jan 2026",
                                      "two smallest Beta invoices in Q1 2026",
                                      "top 2 invoices from Supplier Delta in 2025"])
def test_a_suppliers_invoices_are_ranked_over_the_tenant(question: str) -> None:
    routed = _routed(question)
    ranked = [s.arguments for s in routed.execution_plan if s.arguments.get("metric") == "finance.largest_invoices"]
    assert ranked and not routed.requires_clarification, (question, routed.clarification_question)
    assert "company_id" not in ranked[0]["parameters"] or ranked[0]["parameters"]["company_id"] is None
    assert ranked[0]["parameters"]["supplier_ids"]
    assert "all companies of the tenant" in (routed.interpretation or "")


def test_detect_takes_the_reading_spans() -> None:
    assert detect("no comparison here", ()) is None
