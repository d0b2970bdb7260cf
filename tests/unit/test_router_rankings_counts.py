"""Rankings and counts: one ranking reading for spend and counts, ties said at the cut, the invoice-line count,
and ranking or count questions that must be asked about (one class per test, from the slot grammar of
``evaluation/probes_ranking.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from router.analysis import ALL_RANKS, parse_ranking, ranking_by_count
from router.counts import ranked_rows
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.tools import TOOLS
from tests.unit.shipped import shipped_registry
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

_REGISTRY = shipped_registry()
CATALOG = catalog_metrics(_REGISTRY, exclude=frozenset(TOOLS))


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))


def _queries(question: str) -> list[dict[str, Any]]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    return [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"] or [
        {"metric": s.tool, **s.arguments} for s in result.execution_plan
        if s.tool.startswith(("finance.", "catalog."))]


# --- the shared ranking reading ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "dimension", "limit", "direction", "order_by"), [
    ("the 2 suppliers with the highest spend", "supplier_id", 2, "top", "total_spend"),
    ("the three vendors with the lowest spend", "supplier_id", 3, "bottom", "total_spend"),
    ("the 10 product groups with the least spend", "product_group_id", 10, "bottom", "total_spend"),
    ("the 3 suppliers we spent the least on", "supplier_id", 3, "bottom", "total_spend"),
    ("bottom 3 suppliers", "supplier_id", 3, "bottom", "total_spend"),
    ("which supplier has the fewest invoices", "supplier_id", 1, "bottom", "invoice_count"),
    ("who sent us the fewest invoices", "supplier_id", 1, "bottom", "invoice_count"),
    ("the supplier with the least invoices", "supplier_id", 1, "bottom", "invoice_count"),
    ("which 3 vendors sent us the least invoices", "supplier_id", 3, "bottom", "invoice_count"),
    ("top five suppliers by number of invoices", "supplier_id", 5, "top", "invoice_count"),
    ("rank suppliers by invoice count", "supplier_id", ALL_RANKS, "top", "invoice_count"),
    ("suppliers ranked by spend", "supplier_id", ALL_RANKS, "top", "total_spend"),
    ("which supplier invoiced us most often", "supplier_id", 1, "top", "invoice_count"),
    # German after router/german.py's rewrite ("die meisten Rechnungen")
    ("5 suppliers with meisten invoices", "supplier_id", 5, "top", "invoice_count"),
    ("the 10 lowest-spend items", "product_code", 10, "bottom", "total_spend"),
    # a parenthesis after the noun qualifies it ("(lowest level)")
    ("the 2 product groups (lowest level) with the most spend", "product_group_id", 2, "top", "total_spend"),
])
def test_one_ranking_reading(text: str, dimension: str, limit: int, direction: str, order_by: str) -> None:
    ranking, spans = parse_ranking(text)
    assert ranking is not None and spans, text
    assert (ranking.dimension, ranking.limit, ranking.direction, ranking.order_by) == (
        dimension, limit, direction, order_by), (text, ranking)


def test_the_most_invoices_alone_ranks_one_supplier() -> None:
    ranking, _ = ranking_by_count("most invoices at Company A in 2025")
    assert ranking is not None and (ranking.limit, ranking.direction, ranking.order_by) == (1, "top", "invoice_count")
    assert ranking_by_count("how many invoices did Company A get")[0] is None


# --- ties at the cut are kept and said ----------------------------------------------------------------------------
def test_ties_at_the_cut_are_kept_and_said() -> None:
    rows = [{"supplier_id": s, "invoice_count": n} for s, n in (("A", 5), ("B", 4), ("C", 4), ("D", 1))]
    kept, said = ranked_rows(rows, "top", 2)
    assert [r["supplier_id"] for r in kept] == ["A", "B", "C"]
    assert "B and C are tied with 4 invoices" in said and "3 suppliers are listed for a top 2" in said
    kept, said = ranked_rows(rows, "bottom", 1)
    assert [r["supplier_id"] for r in kept] == ["D"] and said == ""
    kept, said = ranked_rows(rows, "top", ALL_RANKS)
    assert len(kept) == 4 and "tied" in said and "listed for" not in said


# --- counts: rankings, breakdowns, lines ---------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "rule"), [
    ("Rank Company A's suppliers by invoice count in 2025", f"invoice_count:ranking:top:{ALL_RANKS}"),
    ("Company A suppliers ranked by number of invoices in 2025", f"invoice_count:ranking:top:{ALL_RANKS}"),
    ("Which supplier invoiced Company A most often in 2025?", "invoice_count:ranking:top:1"),
    ("Bottom 3 suppliers by invoice count, Company A, 2025", "invoice_count:ranking:bottom:3"),
    ("Who sent Company A the fewest invoices in 2025?", "invoice_count:ranking:bottom:1"),
    ("The 2 suppliers with the most invoices at Company A in 2025", "invoice_count:ranking:top:2"),
])
def test_count_rankings_group_the_count_by_supplier(question: str, rule: str) -> None:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert rule in result.rule_hits, (question, result.rule_hits)
    ranking = [s for s in result.execution_plan if s.step_id == "count-ranking"]
    assert ranking and ranking[0].arguments["group_by"] == ["supplier_id"]


def test_a_count_split_by_document_type() -> None:
    queries = _queries("How many invoices did Company A receive in 2025 split by document type?")
    assert any(q["metric"] == "finance.invoice_count" and q["group_by"] == ["document_type"] for q in queries)


@pytest.mark.parametrize(("question", "extra"), [
    ("How many invoice lines did Company A have in Q1 2026?", {}),
    ("Number of line items on Company A's invoices from Supplier Beta in 2025", {"supplier_ids": ["SUP-18"]}),
    ("Count of invoice line items Company A 2025", {}),
])
def test_invoice_lines_are_counted_by_the_line_metric(question: str, extra: dict[str, Any]) -> None:
    queries = _queries(question)
    line = [q for q in queries if q["metric"] == "finance.invoice_line_count"]
    assert line, (question, queries)
    params = line[0]["parameters"]
    assert params["company_id"] == "COMP-A" and all(params.get(k) == v for k, v in extra.items()), params


# --- spend rankings by a status-qualified measure --------------------------------------------------------------------
def test_a_ranking_by_paid_spend_filters_the_status() -> None:
    queries = _queries("Company A: top 2 vendors by paid spend in 2025")
    ranking = next(q for q in queries if q["metric"] == "finance.spend_ranking")
    assert ranking["parameters"]["limit"] == 2 and ranking["parameters"]["invoice_statuses"] == ["paid"]


def test_the_n_suppliers_with_the_highest_spend_is_a_top_n() -> None:
    queries = _queries("the 2 suppliers with the highest spend at Company A in 2025")
    ranking = next(q for q in queries if q["metric"] == "finance.spend_ranking")
    assert (ranking["parameters"]["limit"], ranking["parameters"]["direction"]) == (2, "top")


# --- questions that must be asked about ----------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "about"), [
    ("Top 3 suppliers of Company A by number of complaints in 2025", "complaint"),
    ("Which supplier of Company A had the most late deliveries in Q1 2026?", "deliver"),
    ("how many invoices did company a get from sigma parts in 2025?", "sigma parts"),
    ("Which supplier sent the most invoices in 2025?", "company"),
])
def test_unserved_measures_and_unknown_names_are_asked_about(question: str, about: str) -> None:
    result = _routed(question)
    assert result.requires_clarification, (question, result.execution_plan)
    assert about in (result.clarification_question or "").lower(), result.clarification_question


def test_the_most_of_an_unknown_measure_is_named_a_status_is_not() -> None:
    assert parse_ranking("which supplier had the most returns")[0].unknown_measure == "returns"  # type: ignore[union-attr]
    assert parse_ranking("the two items with the most unpaid spend")[0].unknown_measure is None  # type: ignore[union-attr]
    result = _routed("Which supplier had the most returns at Company A in 2025?")
    assert result.requires_clarification and "returns" in (result.clarification_question or "")


def test_a_status_qualified_ranking_by_spend_then_a_period_is_no_breakdown() -> None:
    queries = _queries("Rank all suppliers of Company A by spend the last quarter of 2025")
    ranking = next(q for q in queries if q["metric"] == "finance.spend_ranking")
    assert ranking["parameters"]["limit"] == ALL_RANKS and ranking["parameters"]["start_date"] == "2025-10-01"


def test_a_name_after_a_colon_and_a_read_name_is_still_named() -> None:
    result = _routed("Could you tell me: Company B top 2 Supplier Kappa in 2025")
    assert result.requires_clarification and "Kappa" in (result.clarification_question or "")


# --- rankings of every group, their order, and exclusions worded as "ignore" ----------------------------------------
@pytest.mark.parametrize(("text", "direction"), [
    ("rank all four of our suppliers by 2025 spend, highest first", "top"),
    ("rank all 4 of our suppliers by spend", "top"),
    ("rank the three suppliers of Company A by spend", "top"),
    ("rank suppliers by spend, lowest first", "bottom"),
    ("rank the vendors in ascending order of spend", "bottom"),
])
def test_rank_all_of_them_lists_every_group_in_the_asked_order(text: str, direction: str) -> None:
    ranking, _ = parse_ranking(text)
    assert ranking is not None and (ranking.limit, ranking.direction) == (ALL_RANKS, direction), (text, ranking)


def test_rank_all_of_a_named_company_s_suppliers() -> None:
    params = _queries("rank all four of Company A's suppliers by 2025 spend, highest first")[0]["parameters"]
    assert (params["limit"], params["direction"], params["company_id"]) == (ALL_RANKS, "top", "COMP-A"), params


def test_a_cut_ranking_keeps_its_end_whatever_the_display_order() -> None:
    ranking, _ = parse_ranking("top 3 suppliers, lowest first")
    assert ranking is not None and (ranking.limit, ranking.direction) == (3, "top")


@pytest.mark.parametrize("text", ["which suppliers got at least EUR 10k", "which vendors had at most 5 invoices"])
def test_at_least_and_at_most_bound_an_amount_they_rank_nothing(text: str) -> None:
    assert parse_ranking(text)[0] is None, text


@pytest.mark.parametrize("cue", ["if we ignore", "when you ignore", "disregarding", "ignoring"])
def test_a_ranking_without_an_ignored_supplier(cue: str) -> None:
    queries = _queries(f"Company A's top 2 suppliers in 2025 {cue} Gamma")
    params = queries[0]["parameters"]
    assert params.get("exclude_supplier_ids") == ["SUP-27"] and "supplier_ids" not in params, params
    assert params["limit"] == 2
