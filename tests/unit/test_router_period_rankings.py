"""FP&A readings (router/period_ranking.py, router/derived.py, router/run_rate.py): the months (quarters) of a
selection ranked by spend, top-N concentration without the word supplier, averages per invoice in more wordings,
projections to a named span, with the governed breakdown stubbed. Slots vary: companies, suppliers, periods, N,
word order and abbreviations."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from router.answer import Answer
from router.derived import detect
from router.derived_answer import check_derived, derive
from router.period_ranking import detect as detect_ranking
from router.period_ranking import period_label, rank
from router.run_rate import RUN_RATE
from router.tools import MetricToolResponse

AS_OF = dt.date(2026, 5, 15)


# -- periods ranked by spend ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("question,n,order,grain,kept", [
    ("Which month had the highest spend for Company C in FY2025?", 1, "desc", "month", "Company C in FY2025"),
    ("What month saw the lowest spending at Alpenland in 2025?", 1, "asc", "month", "at Alpenland in 2025"),
    ("Top 3 months by spend for Kestrel, Jul 2025 - Apr 2026", 3, "desc", "month", "Kestrel, Jul 2025 - Apr 2026"),
    ("top 2 months by spend for Alpenland in 2026 YTD", 2, "desc", "month", "Alpenland in 2026 YTD"),
    ("Weakest quarter for Ypsilon spend so far (Q3 2025 - Q1 2026)?", 1, "asc", "quarter", "Ypsilon spend"),
    ("What were Xenon's two busiest months in H2 2025?", 2, "desc", "month", "Xenon in H2 2025"),
    ("Company B: lowest-spend quarter of 2025?", 1, "asc", "quarter", "Company B"),
    ("the 3 quietest months for Gamma spend at Company A in FY2025", 3, "asc", "month", "Gamma spend at Company A"),
    ("peak month of Kestrel spend in 2025", 1, "desc", "month", "Kestrel spend in 2025"),
    ("Which quarter had the most spend on sensors for Company B in 2025?", 1, "desc", "quarter", "sensors"),
    ("month with the highest spend, Alpenland Q1 2026", 1, "desc", "month", "Alpenland Q1 2026"),
    ("Company A's biggest qtr in 2025?", 1, "desc", "quarter", "Company A"),
])
def test_a_period_ranking_is_read_with_its_base(question: str, n: int, order: str, grain: str, kept: str) -> None:
    found = detect(question, AS_OF)
    assert found is not None and found.kind == "period_ranking" and found.periods is not None
    assert (found.periods.n, found.periods.order, found.periods.grain) == (n, order, grain)
    assert kept in found.base and found.base.endswith(f"by {grain}?") and "spend" in found.base
    assert found.refused is None


@pytest.mark.parametrize("question", [
    "Company A spend last month", "top 3 suppliers by spend last month", "invoices overdue by at least 3 months",
    "the month with the most invoices for Company A in 2025", "largest month-over-month increase for Company A",
    "Kestrel spend by month in Q1 2026", "which supplier had the highest spend in March 2026?",
    "busiest month by invoice count for Kestrel in 2025", "spend over the last 3 months for Company B"])
def test_not_a_period_ranking(question: str) -> None:
    assert detect_ranking(question) is None


@pytest.mark.parametrize(("question", "order"), [
    ("Company B: best month in 2025?", "desc"), ("worst quarter for Kestrel in FY2025", "asc"),
    ("Which month was the best for Alpenland in 2025?", "desc"), ("the two worst months, Xenon", "asc")])
def test_best_is_the_highest_spend_and_worst_the_lowest_said_in_the_answer(question: str, order: str) -> None:
    found = detect_ranking(question)
    assert found is not None and found.refused is None and found.order == order
    assert ("lowest" if order == "asc" else "highest") in found.words
    answer = derive(_breakdown([("2025-01-01", "10.00", 1), ("2025-02-01", "20.00", 1)]),
                    detect(question, AS_OF), AS_OF, _no_call)  # type: ignore[arg-type]
    assert answer.status == "answered" and ("read as the lowest" if order == "asc" else "read as the highest") \
        in answer.text


def _breakdown(rows: list[tuple[str, str, int]], start: str = "2025-01-01", end: str = "2025-07-01") -> Answer:
    inputs = {"metric": "finance.company_spend", "company_id": "COMP-C", "start_date": start, "end_date": end}
    total = sum((Decimal(v) for _, v, _ in rows), Decimal(0))
    result = {"status": "complete", "total_spend": str(total), "currency": "EUR", "matched_line_count": 9,
              "breakdown": [{"dimension": "period_start", "key": k, "total_spend": v, "matched_line_count": n}
                            for k, v, n in rows]}
    return Answer(status="answered", text=f"Company C's total spend was {total} EUR. By period: ... Read as: Company "
                  f"C (COMP-C), {start} to {end} (end exclusive).", result=result, inputs=inputs, sources=("l1",))


def _no_call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
    raise AssertionError("a period ranking ranks the governed breakdown: no further call")


ROWS = [("2025-01-01", "120.00", 3), ("2025-02-01", "-15.00", 1), ("2025-04-01", "300.50", 4),
        ("2025-05-01", "80.25", 2), ("2025-06-01", "119.99", 5)]


@pytest.mark.parametrize("question,want", [
    ("Which month had the highest spend for Company C in H1 2025?", ["April 2025"]),
    ("Top 3 months by spend for Company C in H1 2025", ["April 2025", "January 2025", "June 2025"]),
    ("Company C's two weakest months in H1 2025?", ["February 2025", "May 2025"]),
    ("lowest-spend month for Company C, H1 2025", ["February 2025"])])
def test_the_ranking_names_each_period_with_its_governed_amount(question: str, want: list[str]) -> None:
    found = detect(question, AS_OF)
    assert found is not None
    answer = derive(_breakdown(ROWS), found, AS_OF, _no_call)
    assert answer.status == "answered"
    assert [i["label"] for i in answer.result["items"]] == want
    positions = [answer.text.index(w) for w in want]
    assert positions == sorted(positions)
    # March 2025 had no invoice: said as no data, never ranked as a zero
    assert answer.result["periods_without_data"] == ["2025-03"] and "March 2025" in answer.text
    assert "Read as: Company C" in answer.text
    assert all(c.passed for c in check_derived(answer))


def test_quarters_sum_their_months_and_are_keyed_as_analysts_write_them() -> None:
    ranked = rank([{"key": k, "total_spend": v, "matched_line_count": n} for k, v, n in ROWS], 1, "asc", "quarter",
                  dt.date(2025, 1, 1), dt.date(2025, 10, 1))
    assert ranked is not None and ranked.items == (("2025-Q1", Decimal("105.00"), 4),)
    assert ranked.without_data == ("2025-Q3",) and period_label("2025-Q1") == "Q1 2025"


@pytest.mark.parametrize("question,n", [("Top 2 months by spend for Company C in H1 2025", 2),
                                        ("Which month had the lowest spend for Company C in H1 2025?", 1)])
def test_a_tie_at_the_cut_is_asked_about(question: str, n: int) -> None:
    rows = [("2025-01-01", "50.00", 1), ("2025-02-01", "80.00", 1), ("2025-03-01", "50.00", 2),
            ("2025-04-01", "80.00", 1), ("2025-05-01", "90.00", 1)]
    found = detect(question, AS_OF)
    assert found is not None
    answer = derive(_breakdown(rows), found, AS_OF, _no_call)
    assert answer.status == "clarification" and "same spend" in answer.text
    assert "50.00" not in answer.text and "80.00" not in answer.text


def test_fewer_periods_than_asked_are_all_ranked_and_said() -> None:
    found = detect("Top 5 months by spend for Company C in H1 2025", AS_OF)
    assert found is not None
    answer = derive(_breakdown(ROWS[:2], end="2025-03-01"), found, AS_OF, _no_call)
    assert answer.status == "answered" and "Only 2 months" in answer.text and "all of them" in answer.text
    assert [i["period"] for i in answer.result["items"]] == ["2025-01", "2025-02"]


@pytest.mark.parametrize("question,order,kept", [
    ("rank the months of Q1 2026 by spend for Company A", "desc", "Q1 2026 for Company A"),
    ("Kestrel months ranked by spend in 2025", "desc", "Kestrel in 2025"),
    ("Sort the quarters of 2025 by spend for Company B, lowest first", "asc", "2025 for Company B"),
    ("Xenon: quarters sorted by spending, FY2025, ascending", "asc", "Xenon")])
def test_every_period_ranked(question: str, order: str, kept: str) -> None:
    found = detect_ranking(question)
    assert found is not None and found.n == 0 and found.order == order and kept in found.base
    assert "first" not in found.base and "ascending" not in found.base and found.base.count("spend") == 1


def test_all_companies_rank_the_rows_of_their_period_breakdown() -> None:
    found = detect("Which month had the highest spend across all companies in H1 2025?", AS_OF)
    assert found is not None
    base = _breakdown(ROWS)
    rows = [{"period_start": r["key"], "total_spend": r["total_spend"], "matched_line_count": r["matched_line_count"]}
            for r in base.result["breakdown"]]
    result = {k: v for k, v in base.result.items() if k != "breakdown"} | {"rows": rows}
    inputs = {"company_id": None, "metrics": [{"metric": "finance.company_spend", "parameters": {
        "start_date": "2025-01-01", "end_date": "2025-07-01"}}]}
    answer = derive(base.model_copy(update={"result": result, "inputs": inputs}), found, AS_OF, _no_call)
    assert answer.status == "answered" and answer.result["items"][0]["period"] == "2025-04"


def test_a_base_without_a_monthly_breakdown_is_asked_about() -> None:
    found = detect("Which month had the highest spend for Company C in FY2025?", AS_OF)
    assert found is not None
    base = _breakdown(ROWS)
    flat = base.model_copy(update={"result": {k: v for k, v in base.result.items() if k != "breakdown"}})
    assert derive(flat, found, AS_OF, _no_call).status == "clarification"


# -- top-N concentration ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question,n,kept", [
    ("top-3 concentration Company C Q1 2026", 3, "Company C Q1 2026"),
    ("top-2 concentration of Company B sensors spend in H2 2025", 2, "Company B sensors spend in H2 2025"),
    ("Kestrel top 4 vendor concentration, FY2025", 4, "Kestrel"),
    ("concentration of the top 3 suppliers at Alpenland in Q4 2025", 3, "at Alpenland in Q4 2025"),
    ("Top two concentration for Xenon, H1 2025?", 2, "Xenon"),
    ("concentration ratio of the top 5 at Ypsilon in 2025", 5, "Ypsilon in 2025")])
def test_a_concentration_without_the_word_supplier(question: str, n: int, kept: str) -> None:
    found = detect(question, AS_OF)
    assert found is not None and found.kind == "concentration" and found.top_n == n
    assert kept in found.base and found.base.endswith(f"top {n} suppliers by spend?")
    assert "concentration" not in found.base


# -- averages per invoice ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question,kept,gone", [
    ("What is Alpenland's average spend per invoice with Gamma in FY2025?", "Alpenland with Gamma in FY2025", "'s"),
    ("Kestrel: average per invoice from Orbis Packaging in H2 2025?", "from Orbis Packaging in H2 2025", "per"),
    ("mean amount per invoice for Company B from Theta, Q1 2026", "Company B from Theta, Q1 2026", "mean"),
    ("Xenon avg spend per bill from Helix in 2025", "Xenon", "avg"),
    ("avg invoice Epsilon Instruments in Q4 2025 (all entities)", "Epsilon Instruments in Q4 2025", "avg"),
    ("average invoice Beta Logistics, Ypsilon, 2025", "Beta Logistics, Ypsilon, 2025", "average"),
    ("avg invoice value Company A Q1 2026 (EUR, gross)?", "Company A Q1 2026", "EUR"),
    ("Xenon: mean invoice value Q1/2026 EUR", "Xenon: Q1/2026", "EUR"),
    ("Company C average invoice value in EUR for Q4 2025", "Company C for Q4 2025", "EUR"),
    ("average invoice size for Kestrel H2 2025, in EUR", "Kestrel H2 2025", "EUR")])
def test_an_average_per_invoice_in_other_words(question: str, kept: str, gone: str) -> None:
    found = detect(question, AS_OF)
    assert found is not None and found.kind == "average_invoice_value" and not found.refused
    assert kept in found.base and gone not in found.base and "spend" in found.base


@pytest.mark.parametrize("question", ["average invoice count for Company A in 2025",
                                      "average invoice lines per invoice for Kestrel",
                                      "Average invoice count per month for Company A?"])
def test_an_average_of_something_else_is_not_the_invoice_value(question: str) -> None:
    found = detect(question, AS_OF)
    assert found is None or found.kind != "average_invoice_value"


def test_an_invoice_currency_filter_stays_a_filter() -> None:
    found = detect("average invoice value of EUR invoices for Company A in Q1 2026", AS_OF)
    assert found is not None and "EUR invoices" in found.base


# -- projections to a named span and run-rates -------------------------------------------------------------------
@pytest.mark.parametrize("question,months,kept", [
    ("If Kestrel's Q1 2026 monthly pace holds, what would a full year be?", 12, "Q1 2026"),
    ("If Company A's H2 2025 pace continues, what would the whole year come to?", 12, "H2 2025"),
    ("At Alpenland's March 2026 run-rate, what would a full quarter total?", 3, "March 2026"),
    ("Xenon Q1 2026 spend: if the monthly pace is maintained, what would 6 months be?", 6, "Q1 2026"),
    ("If Ypsilon's Q4 2025 pace persists, what would a half-year be?", 6, "Q4 2025")])
def test_a_projection_to_a_named_span(question: str, months: int, kept: str) -> None:
    found = detect(question, AS_OF)
    assert found is not None and found.kind == "projection" and found.horizon_months == months
    assert kept in found.base and "pace" not in found.base and "holds" not in found.base


@pytest.mark.parametrize("question", ["Avg spend per month for Kestrel, Jan-Apr 2026",
                                      "avg. spend per month, Company B, H2 2025",
                                      "What does Alpenland spend in a typical month in Q1 2026?",
                                      "typically how much does Xenon spend per month in 2025?"])
def test_a_monthly_average_is_a_run_rate(question: str) -> None:
    assert RUN_RATE.search(question)


@pytest.mark.parametrize("question", ["whats company a spending per month in the second half of 2025",
                                      "What's Kestrel spending per month in Q1 2026?",
                                      "what is Ypsilon Retail spending a month, H2 2025",
                                      "What are we spending per month with Gamma at Company B in 2025?"])
def test_the_spending_rate_in_the_progressive_is_a_run_rate(question: str) -> None:
    assert RUN_RATE.search(question)


@pytest.mark.parametrize("question", ["Company B spend per month since March",
                                      "Alpenland spend per month in Q4 2025?", "company A spend per month Q1 2026",
                                      "Kestrel monthly spend Jan through Apr 2026"])
def test_the_spend_per_month_stays_a_breakdown(question: str) -> None:
    assert not RUN_RATE.search(question)


@pytest.mark.parametrize("question, order, base", [
    ("Which month in 2026 had the highest spend for Alpenland?", "desc", "spend for Alpenland in 2026 by month?"),
    ("Which month in 2026 was the lowest for Alpenland?", "asc", "spend for Alpenland in 2026 by month?"),
    ("which quarter of 2025 for Kestrel had the lowest spend", "asc", "spend of 2025 for Kestrel by quarter?"),
    ("What month during H2 2025 saw the highest spending at Xenon?", "desc",
     "spend at Xenon during H2 2025 by month?"),
])
def test_scope_between_period_and_verb_is_kept(question: str, order: str, base: str) -> None:
    # before, "which month in 2026 had ..." missed the ranking and the year's total was answered as complete
    found = detect_ranking(question)
    assert found is not None and found.order == order and found.base == base
