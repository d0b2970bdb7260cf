"""Derived FP&A measures (router/derived.py, router/derived_answer.py): what is read, the base question left,
and the answer derived from a base answer with the governed call stubbed. Slots vary: companies, periods of one,
three and six months, horizon words, N, notation."""

from __future__ import annotations

import datetime as dt
import itertools
import random
from decimal import Decimal
from typing import Any

import pytest

from router.answer import Answer
from router.derived import base_params, carried, detect, one_figure
from router.derived_answer import check_derived, derive
from router.tools import MetricToolResponse

AS_OF = dt.date(2026, 5, 15)
COMPANIES = ("Company A", "Alpenland", "Kestrel", "Ypsilon Retail", "COMP-B")
BASES = ("Q1 2026", "H2 2025", "April 2026", "March 2026", "Q4 2025")
ANNUAL = ("Annualise {c}'s {p} spend.", "What is {c}'s {p} spend on an annualised basis?",
          "Annualized run-rate for {c} based on {p}?", "Based on {p}, what's the annualised spend run-rate for {c}?",
          "Annualise {c}'s {p} spend for the forecast.", "Projected full-year spend for {c} based on {p}?",
          "Give me a full-year projection for {c} from {p}.")


@pytest.mark.parametrize("frame,company,period", [
    (f, c, p) for f, c, p in random.Random(7).sample(list(itertools.product(ANNUAL, COMPANIES, BASES)), 50)])
def test_annualised_reads_twelve_months_and_keeps_the_base(frame: str, company: str, period: str) -> None:
    found = detect(frame.format(c=company, p=period), AS_OF)
    assert found is not None and found.kind == "projection" and found.horizon_months == 12
    assert company in found.base and period in found.base
    assert "annuali" not in found.base.lower() and "forecast" not in found.base.lower()


@pytest.mark.parametrize("target,months", [("Q3 2026", 3), ("H2 2026", 6), ("2027", 12), ("Q4 2026", 3)])
@pytest.mark.parametrize("company", COMPANIES[:3])
def test_pace_reads_the_target_period_as_horizon(target: str, months: int, company: str) -> None:
    found = detect(f"If {company} keeps April 2026's pace, what would {target} land at?", AS_OF)
    assert found is not None and found.horizon_months == months
    assert company in found.base and "April 2026" in found.base and target not in found.base


@pytest.mark.parametrize("span,months", [("half-year", 6), ("year", 12), ("quarter", 3), ("6 months", 6)])
def test_pace_reads_a_full_span(span: str, months: int) -> None:
    found = detect(f"At the Q1 2026 monthly pace, what would Kestrel's spend be for a full {span}?", AS_OF)
    assert found is not None and found.horizon_months == months
    assert "Q1 2026" in found.base and "Kestrel" in found.base and "pace" not in found.base


@pytest.mark.parametrize("question", [
    "Average invoice value for {c} in Q1 2026 (gross, incl. tax)?", "What's the average gross invoice value (incl. "
    "VAT) for {c} in H2 2025?", "Average invoice size incl. tax for {c} in FY2025?", "Mean invoice amount for {c} "
    "in April 2026?", "How big is the average invoice at {c} in 2025, incl. tax?"])
@pytest.mark.parametrize("company", COMPANIES[:3])
def test_average_invoice_value(question: str, company: str) -> None:
    found = detect(question.format(c=company), AS_OF)
    assert found is not None and found.kind == "average_invoice_value"
    assert company in found.base and "spend" in found.base and "gross" not in found.base.lower()


@pytest.mark.parametrize("question", ["Average net invoice value for Company A in Q1 2026?",
                                      "Average invoice value excl. VAT for Company A in Q1 2026?",
                                      "Kestrel's monthly run-rate for Q1 2026?", "Top 3 suppliers of Company A in Q1?",
                                      "What was the average tax rate across the quarter for Company A?",
                                      "Spend of Company A over the whole year 2025?",
                                      "Average invoice count per month for Company A?",
                                      "What is the average invoice processing time?"])
def test_not_a_derived_measure(question: str) -> None:
    assert detect(question, AS_OF) is None


@pytest.mark.parametrize("question,n", [("Top-{n} supplier concentration for {c} in Q1 2026?", None),
                                        ("What share of {c}'s spend in H2 2025 sits with the top {n} suppliers?", None),
                                        ("How concentrated is {c}'s Q1 2026 spend, i.e. the top-{n} vendors' share?",
                                         None)])
@pytest.mark.parametrize("count", [2, 3, 5])
def test_concentration(question: str, n: None, count: int) -> None:
    found = detect(question.format(c="Kestrel", n=count), AS_OF)
    assert found is not None and found.kind == "concentration" and found.top_n == count
    assert found.base.endswith(f"top {count} suppliers by spend?") and "Kestrel" in found.base


def test_base_params_merge_the_plan_filters_and_refuse_conflicts() -> None:
    inputs = {"metric": "finance.company_spend", "company_id": "COMP-A", "start_date": "2026-01-01",
              "end_date": "2026-04-01", "supplier_ids": []}
    plan = [{"tool": "finance.company_spend", "arguments": {"company_id": {"$ref": "x"}, "product_group_ids": ["G"]}}]
    want = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "product_group_ids": ["G"]}
    assert base_params(inputs, plan) == ("finance.company_spend", want)
    clash = [{"tool": "finance.company_spend", "arguments": {"company_id": "COMP-B"}}]
    assert base_params(inputs, clash) is None
    assert carried("finance.average_invoice_value", {"product_group_ids": ["G"]}) is None
    assert not one_figure({"breakdown": []}) and one_figure({"total_spend": "1.00"})


def _response(metric: str, values: dict[str, Any], lines: int) -> MetricToolResponse:
    return MetricToolResponse(metric=metric, status="complete", currency="EUR", outputs={}, values=values,
                              matched_line_count=lines, source_line_ids=("l1",), source_line_count=1,
                              sources_truncated=False, policy={}, parameters={})


def _base(total: str, start: str, end: str) -> Answer:
    inputs = {"metric": "finance.company_spend", "company_id": "COMP-A", "start_date": start, "end_date": end}
    return Answer(status="answered", text=f"Company A's total spend was {total} EUR. Read as: Company A.",
                  result={"total_spend": total, "matched_line_count": 4}, inputs=inputs, sources=("l1",))


@pytest.mark.parametrize("start,end,months", [("2026-01-01", "2026-04-01", 3), ("2026-04-01", "2026-05-01", 1),
                                              ("2025-07-01", "2026-01-01", 6)])
def test_projection_answer_states_the_governed_projection_and_formula(start: str, end: str, months: int) -> None:
    found = detect(f"Annualise Company A's spend from {start}", AS_OF)
    assert found is not None
    calls: list[tuple[str, dict[str, Any]]] = []

    def call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
        calls.append((metric, params))
        return _response(metric, {"total_spend": "100.00", "months": months, "monthly_run_rate": "33.33",
                                  "projected_spend": "400.01"}, 4)

    answer = derive(_base("100.00", start, end), found, AS_OF, call)
    assert answer.status == "answered" and "400.01 EUR" in answer.text and f"/ {months} calendar" in answer.text
    assert calls == [("finance.spend_projection", {"company_id": "COMP-A", "start_date": start, "end_date": end,
                                                   "horizon_months": 12})]


@pytest.mark.parametrize("start,end", [("2026-01-01", "2026-06-01"), ("2026-01-01", "2026-05-16"),
                                       ("2026-05-01", "2026-06-01")])
def test_projection_of_a_running_or_partial_period_is_asked_about(start: str, end: str) -> None:
    found = detect("Annualise Company A's spend", AS_OF)
    assert found is not None

    def call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
        raise AssertionError("no governed call for a period that cannot be projected")

    assert derive(_base("100.00", start, end), found, AS_OF, call).status == "clarification"


def test_projection_that_does_not_reproduce_the_base_is_asked_about() -> None:
    found = detect("Annualise Company A's Q1 2026 spend", AS_OF)
    assert found is not None
    answer = derive(_base("100.00", "2026-01-01", "2026-04-01"), found, AS_OF, lambda m, p: _response(
        m, {"total_spend": "90.00", "months": 3, "monthly_run_rate": "30.00", "projected_spend": "360.00"}, 4))
    assert answer.status == "clarification"


# -- review35 M4/M5/Low: comparisons, count shares, reproduction and the figures' own check --------------------
COMPARED = ("Which invoices are above the average invoice value for {c} in {p}?",
            "List invoices exceeding the average invoice amount for {c} in {p}",
            "How many invoices were below the average invoice value at {c} in {p}?",
            "Is the average invoice value for {c} in {p} higher than for Kestrel?",
            "Compare the average invoice value for {c} and Kestrel in {p}",
            "Show me the invoices over the mean invoice value of {c} in {p}",
            "Average invoice value for {c} in {p} vs Q4 2025?")


@pytest.mark.parametrize("frame,company,period", [
    (f, c, p) for f, c, p in random.Random(35).sample(list(itertools.product(COMPARED, COMPANIES, BASES)), 30)])
def test_a_compared_or_selecting_average_is_refused_not_the_base_total(frame: str, company: str,
                                                                         period: str) -> None:
    found = detect(frame.format(c=company, p=period), AS_OF)
    assert found is not None and found.refused and found.words.lower() in frame.format(c=company, p=period).lower()

    def call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
        raise AssertionError("no governed call for a refused measure")

    answer = derive(_base("100.00", "2026-01-01", "2026-04-01"), found, AS_OF, call)
    assert answer.status == "clarification" and found.words in answer.text and not answer.result


@pytest.mark.parametrize("frame", ["What percentage of {c}'s {p} invoices were from the top {n} suppliers?",
                                   "What share of the invoices of {c} in {p} went to the top {n} vendors?",
                                   "Top-{n} supplier share of {c}'s invoice count in {p}?",
                                   "What proportion of the number of documents of {c} in {p} is with the top {n} "
                                   "suppliers?"])
@pytest.mark.parametrize("company,period,n", [("Company A", "Q1 2026", 3), ("Kestrel", "H2 2025", 2),
                                              ("Alpenland", "March 2026", 5)])
def test_a_count_share_is_not_answered_with_the_spend_share(frame: str, company: str, period: str, n: int) -> None:
    found = detect(frame.format(c=company, p=period, n=n), AS_OF)
    assert found is not None and found.kind == "concentration" and found.refused and "spend" in found.refused


@pytest.mark.parametrize("question", ["What is the average invoice value for {c} in Q1 2026?",
                                      "What share of {c}'s spend in Q1 2026 sits with the top 3 suppliers?",
                                      "Annualise {c}'s Q1 2026 spend."])
@pytest.mark.parametrize("company", COMPANIES)
def test_the_plain_measures_stay_derived(question: str, company: str) -> None:
    found = detect(question.format(c=company), AS_OF)
    assert found is not None and found.refused is None and company in found.base


@pytest.mark.parametrize("types", [["invoice"], ["invoice", "credit_note"], None])
def test_average_reproduces_the_base_with_its_document_types(types: list[str] | None) -> None:
    found = detect("Average invoice value for Company A in Q1 2026?", AS_OF)
    assert found is not None
    base = _base("100.00", "2026-01-01", "2026-04-01")
    if types is not None:
        base = base.model_copy(update={"inputs": {**base.inputs, "document_types": types}})
    calls: list[tuple[str, dict[str, Any]]] = []

    def call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
        calls.append((metric, params))
        if metric == "finance.average_invoice_value":
            assert "document_types" not in params
            return _response(metric, {"average_invoice_value": "50.00", "total_spend": "100.00", "invoice_count": 2},
                             4)
        # the reproduction is the base total only with the base's own document types
        ok = params.get("document_types") == types
        return _response(metric, {"total_spend": "100.00" if ok else "80.00"}, 4)

    answer = derive(base, found, AS_OF, call)
    assert answer.status == "answered" and "50.00" in answer.text
    assert check_derived(answer) and all(c.passed for c in check_derived(answer))


def _ranking(rows: list[tuple[str, str, int]]) -> Answer:
    inputs = {"metrics": [{"metric": "finance.spend_ranking", "parameters": {
        "company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "order_by": "total_spend"}}]}
    result = {"rows": [{"supplier_id": s, "total_spend": v, "rank": r, "tie_count": 1, "groups_ranked": 4}
                       for s, v, r in rows], "dimension": "supplier_id", "order_by": "total_spend"}
    return Answer(status="answered", text="Top suppliers. Read as: Company A.", result=result, inputs=inputs,
                  sources=("l1",))


@pytest.mark.parametrize("part,answered", [("70.00", True), ("70.01", True), ("65.00", False), ("90.00", False)])
def test_concentration_reproduces_the_ranked_part(part: str, answered: bool) -> None:
    found = detect("What share of Company A's Q1 2026 spend sits with the top 2 suppliers?", AS_OF)
    assert found is not None and found.top_n == 2
    base = _ranking([("SUP-1", "40.00", 1), ("SUP-2", "30.00", 2)])

    def call(metric: str, params: dict[str, Any]) -> MetricToolResponse:
        share = str((Decimal(part) * 100 / Decimal("100.00")).quantize(Decimal("0.01")))
        return _response(metric, {"share_percent": share, "part_value": part, "whole_value": "100.00"}, 4)

    answer = derive(base, found, AS_OF, call)
    assert answer.status == ("answered" if answered else "clarification")
    if answered:
        assert all(c.passed for c in check_derived(answer))


@pytest.mark.parametrize("measure,result,ok", [
    ("projection", {"total_spend": "100.00", "months": 3, "horizon_months": 12, "projected_spend": "400.00"}, True),
    ("projection", {"total_spend": "100.00", "months": 3, "horizon_months": 12, "projected_spend": "400.01"}, True),
    ("projection", {"total_spend": "100.00", "months": 1, "horizon_months": 12, "projected_spend": "400.00"}, False),
    ("average_invoice_value", {"total_spend": "100.00", "invoice_count": 3, "average_invoice_value": "33.33"}, True),
    ("average_invoice_value", {"total_spend": "100.00", "invoice_count": 3, "average_invoice_value": "33.53"},
     False),
    ("concentration", {"part": "70.00", "whole": "100.00", "share_percent": "70.00"}, True),
    ("concentration", {"part": "70.00", "whole": "100.00", "share_percent": "7.00"}, False)])
def test_the_derived_figure_is_checked_against_its_formula(measure: str, result: dict[str, Any], ok: bool) -> None:
    figure = next(v for k, v in result.items() if k in ("projected_spend", "average_invoice_value", "share_percent"))
    answer = Answer(status="answered", text=f"The figure is {figure} EUR.", result={**result, "measure": measure},
                    inputs={}, sources=())
    assert all(c.passed for c in check_derived(answer)) is ok
    # a figure the text does not state fails as well
    assert not all(c.passed for c in check_derived(answer.model_copy(update={"text": "No figure."})))
