"""Group levels, the all-companies scope, currency mixes and breakdowns without a measure word (no database).

One seeded suite per failure class of ``evaluation/probes_scope.py`` (``group_rank``, ``all_companies``,
``bare_breakdown``, ``currency_mix``): each generated question is routed in memory and its governed call compared
with the call its slot values mean. Bounded: a fixed sample of the slot products, about 90 cases in all.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.unit.test_router_breakdown_classes import _call, _routed

SEED = 32
COMPANIES = ("Company A", "company a", "COMP-A")
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
           ("last year", "2025-01-01", "2026-01-01"), ("in March 2026", "2026-03-01", "2026-04-01"))
SUPPLIERS = (("Supplier Beta", "SUP-18"), ("Gamma Controls", "SUP-27"), ("Supplier Iota", "SUP-60"))


def _sample(cases: list[Any], n: int) -> list[Any]:
    return random.Random(SEED).sample(cases, min(n, len(cases)))


# --- the level of "product group" ----------------------------------------------------------------------------------
#: (phrase, dimension): a bare "product group" and a breakdown by a bare "category" are each product's own catalog
#: group; the level words ("top-level", "main", "Hauptwarengruppe", "oberste Ebene") the top level.
LEVEL_BREAKDOWNS = (
    ("by product group", "product_group_id"), ("split by product group", "product_group_id"),
    ("broken down by product group", "product_group_id"), ("across product groups", "product_group_id"),
    ("by material group", "product_group_id"), ("by catalog group", "product_group_id"),
    ("by category", "product_group_id"), ("per category", "product_group_id"),
    ("by top-level category", "top_product_group_id"), ("per top-level category", "top_product_group_id"),
    ("by main product group", "top_product_group_id"), ("by top level product group", "top_product_group_id"),
    ("by sub-group", "product_group_id"), ("by product group (lowest level)", "product_group_id"),
)
LEVEL_FRAMES = ("{c} spend {p} {b}", "{c} {p} spend {b}", "{b}, what did {c} spend {p}?", "{c} {p} {b}")
LEVEL_CASES = _sample([(f.format(c=c, p=p[0], b=b), p, dim) for f in LEVEL_FRAMES for c in COMPANIES
                       for p in PERIODS for b, dim in LEVEL_BREAKDOWNS], 21)


@pytest.mark.parametrize(("question", "period", "dimension"), LEVEL_CASES)
def test_the_level_of_a_group_breakdown(question: str, period: tuple[str, str, str], dimension: str) -> None:
    metric, params, group_by, _ = _call(question)
    assert group_by == [dimension], (question, metric, group_by)
    assert (params["start_date"], params["end_date"]) == period[1:], question


RANK_NOUNS = (("product groups", "product_group_id"), ("categories", "top_product_group_id"),
              ("top-level categories", "top_product_group_id"), ("material groups", "product_group_id"))
RANK_CASES = _sample([(f"top {n} {noun} at {c} {p[0]}, by spend", dim, n) for noun, dim in RANK_NOUNS
                      for c in COMPANIES for p in PERIODS for n in (2, 3)], 12)


@pytest.mark.parametrize(("question", "dimension", "n"), RANK_CASES)
def test_the_level_of_a_group_ranking(question: str, dimension: str, n: int) -> None:
    metric, params, group_by, _ = _call(question)
    assert (metric, group_by, params["limit"]) == ("finance.spend_ranking", [dimension], n), question


@pytest.mark.parametrize(("german", "dimension"), [
    ("nach Warengruppe", "product_group_id"), ("nach Hauptwarengruppen", "top_product_group_id"),
    ("nach Warengruppe (oberste Ebene)", "top_product_group_id"), ("pro Warengruppe", "product_group_id"),
])
def test_german_group_levels(german: str, dimension: str) -> None:
    _, _, group_by, _ = _call(f"Ausgaben von Company A im 1. Quartal 2026 {german}, bitte")
    assert group_by == [dimension], german


# --- every company of the tenant together ------------------------------------------------------------------------
ALL_SCOPES = ("both companies together", "both companies combined", "all companies", "across all companies",
              "group-wide")


def _plan_call(question: str) -> tuple[str, dict[str, Any]]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    return step.arguments["metric"], dict(step.arguments["parameters"])


CHANGE_CASES = _sample([(f"{s} spend last quarter vs the quarter before, {scope}", sid) for s, sid in SUPPLIERS
                        for scope in ALL_SCOPES]
                       + [(f"how did our spend with {s} move from Feb to March 2026 ({scope})?", sid)
                          for s, sid in SUPPLIERS for scope in ALL_SCOPES], 10)


@pytest.mark.parametrize(("question", "supplier"), CHANGE_CASES)
def test_a_change_over_every_company(question: str, supplier: str) -> None:
    metric, params = _plan_call(question)
    assert metric == "finance.spend_comparison" and "company_id" not in params, (question, params)
    assert params["supplier_ids"] == [supplier] and params["reporting_currency"] == "EUR", question


COUNT_CASES = _sample([(f"how many {noun} have we received {p[0]} ({scope})?", p, doc)
                       for noun, doc in (("credit notes", "credit_note"), ("invoices", "invoice"))
                       for p in PERIODS for scope in ALL_SCOPES]
                      + [(f"Wie viele {noun} gab es im 1. Quartal 2026 ({scope})?", PERIODS[0], doc)
                         for noun, doc in (("Gutschriften", "credit_note"), ("Rechnungen", "invoice"))
                         for scope in ("alle Gesellschaften", "über alle Gesellschaften", "alle Firmen")], 10)


@pytest.mark.parametrize(("question", "period", "document_type"), COUNT_CASES)
def test_a_count_over_every_company(question: str, period: tuple[str, str, str], document_type: str) -> None:
    metric, params = _plan_call(question)
    assert metric == "finance.invoice_count" and "company_id" not in params, (question, params)
    assert (params["start_date"], params["end_date"], params["document_types"]) == (*period[1:], [document_type])


@pytest.mark.parametrize("question", [
    "Company A's share of our total spend in Q1 2026", "Company B's share of the overall spend last year",
    "What is Company A's percentage of our combined spend in H2 2025?",
])
def test_a_company_share_of_our_total(question: str) -> None:
    result = _routed(question)
    assert not result.requires_clarification, result.clarification_question
    calls = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"]
    assert all("company_id" not in c["parameters"] for c in calls), calls
    assert any(c["group_by"] == ["company_id"] for c in calls), calls


def test_a_supplier_share_of_our_total_stays_the_company_s() -> None:
    metric, params = _plan_call("Supplier Beta's share of our total spend at Company A in 2025")
    assert (metric, params["company_id"]) == ("finance.supplier_share", "COMP-A")


@pytest.mark.parametrize("question", ["average unit price of PRD-482 in December 2025 (all companies)?",
                                      "Durchschnittlicher Stückpreis von PRD-482 im Dezember 2025 (alle "
                                      "Gesellschaften)?"])
def test_a_unit_price_over_every_company(question: str) -> None:
    result = _routed(question)
    assert not result.requires_clarification, result.clarification_question
    step = next(s for s in result.execution_plan if s.tool == "catalog.unit_price")
    assert step.arguments["company_id"] is None and step.arguments["product_code"] == "PRD-482"


# --- currency mixes ------------------------------------------------------------------------------------------------
MIX_FRAMES = (("{c} {p} currency mix (amounts in each currency + total in EUR)", None),
              ("{c}: EUR spend by invoice currency {p}", None),
              ("{c} spend {p} in each currency, with the EUR total", None),
              ("{c} non-EUR spend {p} by currency, originals and EUR", ["EUR"]),
              ("{c} foreign-currency spend {p} per invoice currency, as billed and in EUR", ["EUR"]))
MIX_CASES = _sample([(f.format(c=c, p=p[0]), p, ex) for f, ex in MIX_FRAMES for c in COMPANIES for p in PERIODS],
                    12)


@pytest.mark.parametrize(("question", "period", "excluded"), MIX_CASES)
def test_a_currency_mix_is_every_currency_s_row(question: str, period: tuple[str, str, str],
                                                excluded: list[str] | None) -> None:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = {s.arguments["metric"]: s.arguments for s in result.execution_plan if s.tool == "metrics.query"}
    rows = calls["finance.document_currency_spend"]
    assert rows["group_by"] == ["currency"] and "document_currency" not in rows["parameters"], question
    assert rows["parameters"].get("exclude_document_currencies") == excluded, question
    total = calls["finance.company_spend"]["parameters"]
    assert total.get("exclude_document_currencies") == excluded, question
    assert (total["start_date"], total["end_date"]) == period[1:], question


# --- a company's period broken down, with no measure word ----------------------------------------------------------
BARE = (("by supplier", ["supplier_id"], None), ("by vendor", ["supplier_id"], None), ("by month", [], "month"),
        ("per quarter", [], "quarter"), ("by product group", ["product_group_id"], None),
        ("by top-level category", ["top_product_group_id"], None))
BARE_CASES = _sample([(f.format(c=c, p=p[0], b=b), p, dims, grain) for f in ("{c} {p} {b}", "{c} {b}, {p}")
                      for c in COMPANIES for p in PERIODS for b, dims, grain in BARE], 12)


@pytest.mark.parametrize(("question", "period", "dims", "grain"), BARE_CASES)
def test_a_bare_breakdown_is_spend(question: str, period: tuple[str, str, str], dims: list[str],
                                   grain: str | None) -> None:
    metric, params, group_by, got_grain = _call(question)
    assert (metric, group_by, got_grain) == ("finance.company_spend", dims, grain), question
    assert (params["start_date"], params["end_date"]) == period[1:], question


@pytest.mark.parametrize("question", ["Company A Q1 2026", "Company A Q1 2026 by cost center",
                                      "Company A invoices Q1 2026 by product group"])
def test_no_breakdown_or_an_unserved_one_is_no_spend_figure(question: str) -> None:
    result = _routed(question)
    assert result.requires_clarification or all(
        s.arguments.get("metric") != "finance.company_spend" for s in result.execution_plan), question


# --- the share of every invoice currency but one -------------------------------------------------------------------
@pytest.mark.parametrize(("question", "company"), [
    ("share of non-EUR spend for Company A in Q1 2026", "COMP-A"),
    ("share of non-EUR spend at Company B in Q4 2025", "COMP-B"),
    ("what share of Company B's spend in Q4 2025 was in foreign currency?", "COMP-B"),
    ("Company A: percentage of spend invoiced in currencies other than EUR, last year", "COMP-A"),
])
def test_a_share_of_the_non_reporting_currencies(question: str, company: str) -> None:
    metric, params = _plan_call(question)
    assert metric == "finance.currency_share", (question, metric)
    assert params["company_id"] == company and params["exclude_document_currencies"] == ["EUR"], question
    assert "document_currencies" not in params, question


def test_a_currency_share_needs_its_part() -> None:
    from semantic.errors import ParameterError
    from semantic.params import check_one_of
    from tests.unit.test_router_rankings_counts import _REGISTRY

    names = _REGISTRY.get("finance.currency_share").definition.one_of
    assert names == ("document_currencies", "exclude_document_currencies")
    check_one_of(names, {"document_currencies": None, "exclude_document_currencies": ["EUR"]})
    with pytest.raises(ParameterError):
        check_one_of(names, {"document_currencies": None, "exclude_document_currencies": None})


@pytest.mark.parametrize("phrase", ["ex credit notes", "ex. credit notes", "ex the credit notes", "excl. credit notes"])
def test_ex_before_credit_notes_leaves_them_out(phrase: str) -> None:
    from router.analysis import document_type_scope

    for frame in ("Company A Q3 2025 spend {x}", "{x}: Company B spend in Q1 2026"):
        assert document_type_scope(frame.format(x=phrase))[0] == ("invoice",), phrase


def test_both_companies_of_a_tenant_with_three_names_no_set() -> None:
    from router.entities import Company, Gazetteer
    from router.routing import RouterInputs, route
    from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS

    three = Gazetteer.build([Company(f"COMP-{c}", f"Company {c}", "EUR") for c in "ABC"], [], [], GROUPS, [])
    for scope, asked in (("both companies", True), ("all companies", False)):
        result = route(f"how many invoices did we get in Q1 2026 ({scope})?",
                       RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=three, metrics=METRICS))
        assert result.requires_clarification is asked, (scope, result.clarification_question)
