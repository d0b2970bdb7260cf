"""Class k4 of the question reader: first-time suppliers, AP fields the data does not have, and the cut-off across
companies (no database: routed in memory, composed from fixture listings).

* first-time suppliers ("new suppliers", "first-time vendors", "who invoiced us for the first time", "suppliers
  billing for the first time") are the governed listing ``finance.first_time_suppliers`` for one company and one
  period, never the period's supplier breakdown; several companies named get a list each; a missing company or
  period, or a figure over them, is asked about;
* an AP field the invoices do not carry (payment date, payment run, house-bank account, GL account, PO number,
  approver, due-date extension), asked beside a figure, is split off and named; the rest is answered and marked
  partial; a field used as a limit ("for cost centre 4711") stays a clarification (router/dimensions.py);
* a cut-off list names several companies together, and a "cut-off Q3/Q4 2025:" header is no clash of periods.
"""

from __future__ import annotations

import datetime as dt
import random
import types
from typing import Any

import pytest

from router.ap_fields import split_fields, unknown_fields, with_unknown_fields
from router.compound import split_asks
from router.cutoff import cutoff_request
from router.dimensions import unknown_dimensions
from router.first_time import FIRST_TIME_METRIC, first_time_spans
from router.periods import resolve_period
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"), ("COMP-A", "COMP-A"), ("Company B", "COMP-B"))
PERIODS = (("Q4 2025", "2025-10-01", "2026-01-01"), ("in Q1-26", "2026-01-01", "2026-04-01"),
           ("1Q2026", "2026-01-01", "2026-04-01"), ("Oct-Dec 2025", "2025-10-01", "2026-01-01"),
           ("in August 2025", "2025-08-01", "2025-09-01"), ("Aug-25", "2025-08-01", "2025-09-01"),
           ("Sep 2025", "2025-09-01", "2025-10-01"), ("in Feb 2026", "2026-02-01", "2026-03-01"))
FIRST_TIME_FRAMES = (
    "new suppliers for {c} {p} (first invoice ever)?",
    "Which vendors invoiced {c} for the first time {p}?",
    "{c} - any supplier that billed us for the first time {p}?",
    "first-time vendors for {c} {p}",
    "{c}: who invoiced us for the first time {p}?",
    "{c}, {p}: new suppliers (first invoice)?",
    "{c} - suppliers billing for the first time {p}",
    "{c}: first-time suppliers {p}?",
    "{p}: first time vendors of {c}, pls",
    "list the new vendors of {c} {p}",
    "{c} new suppliers {p}",
    "which suppliers invoiced {c} for the very first time {p}?",
)


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _listing(result: Any) -> list[dict[str, Any]]:
    return [s.arguments["parameters"] for s in result.execution_plan
            if s.tool == "metrics.query" and s.arguments.get("metric") == FIRST_TIME_METRIC]


# -- first-time suppliers --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(24))
def test_first_time_wordings_route_to_the_governed_listing(seed: int) -> None:
    rng = random.Random(4000 + seed)
    (written, company), (period, start, end) = rng.choice(COMPANIES), rng.choice(PERIODS)
    frame = FIRST_TIME_FRAMES[seed % len(FIRST_TIME_FRAMES)]
    question = frame.format(c=written, p=period)
    result = _routed(question)
    assert result.workflow == "first_time_suppliers", (question, result.clarification_question)
    assert _listing(result) == [{"company_id": company, "start_date": start, "end_date": end}], question
    assert "first-time suppliers" in result.interpretation


@pytest.mark.parametrize("question", [
    "Company A and Company B: new suppliers in Q4 2025",
    "new vendors of COMP-A and COMP-B in Q1 2026?",
    "Company B / Company A - who invoiced us for the first time in Aug 2025",
    "first-time suppliers for Company A and Company B, Sep 2025",
])
def test_several_companies_get_a_list_each(question: str) -> None:
    result = _routed(question)
    assert result.workflow == "first_time_suppliers", result.clarification_question
    assert sorted(p["company_id"] for p in _listing(result)) == ["COMP-A", "COMP-B"]


@pytest.mark.parametrize(("question", "said"), [
    ("new suppliers in Q1 2026", "Which company"),
    ("who invoiced us for the first time in August 2025?", "Which company"),
    ("Company A new suppliers", "which period"),
    ("first-time vendors of Company B?", "which period"),
    ("spend with new suppliers, Company A Q4 2025", "their spend"),
    ("how much did the first-time vendors of Company B bill in Q1 2026?", "their spend"),
])
def test_a_missing_company_or_period_or_a_figure_is_asked_about(question: str, said: str) -> None:
    result = _routed(question)
    assert result.requires_clarification, question
    assert said.lower() in (result.clarification_question or "").lower(), result.clarification_question
    assert not any(h.startswith("first_time:list") for h in result.rule_hits)


@pytest.mark.parametrize("text", [
    "Company A spend Q1 2026 by supplier",
    "spend passed 50k for the first time in March?",
    "Company A: which suppliers are approved for sensors?",
    "what's new in the Beta agreement",
])
def test_other_questions_are_no_first_time_listing(text: str) -> None:
    assert first_time_spans(text) == ()
    assert _routed(text).workflow != "first_time_suppliers"


def test_a_named_supplier_keeps_its_own_path() -> None:
    result = _routed("Was Beta a new supplier for Company A in Q4 2025?")
    assert result.workflow != "first_time_suppliers"


@pytest.mark.parametrize(("question", "periods"), [
    ("Company A: duplicates in 2026 and new suppliers in Aug 2025", ("2026", "Aug 2025")),
    ("Company B duplicate invoices in Q1 2026 and first-time vendors in Q4 2025", ("Q1 2026", "Q4 2025")),
    ("COMP-A: dupes 2025 and the new suppliers in Sep 2025", ("2025", "Sep 2025")),
    ("Company B: double-posted invoices in 2026 and new vendors in Q1 2026", ("2026", "Q1 2026")),
])
def test_a_compound_question_keeps_each_part_its_period(question: str, periods: tuple[str, str]) -> None:
    parts = split_asks(question, lambda t: read(t, GAZETTEER, AS_OF))
    assert len(parts) == 2, parts
    assert periods[0] in parts[0].question and periods[1] in parts[1].question
    second = _routed(parts[1].question)
    assert second.workflow == "first_time_suppliers", second.clarification_question


def _response(rows: list[dict[str, Any]], company: str, *, truncated: bool = False) -> Any:
    from router.tools import MetricToolResponse

    return MetricToolResponse(metric=FIRST_TIME_METRIC, status="complete", currency=None, outputs={}, values={},
                              rows=tuple(rows), matched_line_count=len(rows), source_line_ids=(),
                              source_line_count=0, sources_truncated=False, truncated=truncated, policy={},
                              parameters={"company_id": company, "start_date": "2025-10-01",
                                          "end_date": "2026-01-01"})


def _composed(listings: list[Any], company: str | None) -> Any:
    from router.answer import _Draft
    from router.first_time import STEP, _compose_first_time

    outcomes = {f"{STEP}-{i + 1}": types.SimpleNamespace(status="ok", output=m) for i, m in enumerate(listings)}
    plan = tuple(types.SimpleNamespace(step_id=k) for k in outcomes)
    entities = types.SimpleNamespace(company_id=company, company_name=company and f"Name of {company}")
    routing = types.SimpleNamespace(entities=entities, execution_plan=plan, interpretation="Company X, Q4 2025")
    d = _Draft(routing=routing, run=types.SimpleNamespace(outcomes=outcomes), shown=[], metrics=[], spend=None,  # type: ignore[arg-type]
               vendors=None, products=None, failures=[], citations=[], sources=(), period=None,
               period_text="2025-Q4", failure_text="")
    _compose_first_time(d)
    return d


def _rows(ids: list[str], history: str = "2024-01-05") -> list[dict[str, Any]]:
    return [{"supplier_id": s, "first_invoice_date": "2025-11-0" + str(i + 1), "invoice_count": 1,
             "history_start": history, "line_count": 2} for i, s in enumerate(ids)]


def test_the_answer_lists_the_new_suppliers_and_says_none_apart() -> None:
    d = _composed([_response(_rows(["SUP-18", "SUP-52"]), "COMP-C")], "COMP-C")
    assert d.status == "answered" and d.result["supplier_ids"] == ["SUP-18", "SUP-52"]
    assert "SUP-18" in d.text and "Read as:" in d.text
    empty = _composed([_response([], "COMP-C")], "COMP-C")
    assert empty.status == "no_data" and "no supplier" in empty.text and empty.result["supplier_ids"] == []


def test_a_history_that_starts_in_the_period_or_a_cut_listing_is_partial() -> None:
    young = _composed([_response(_rows(["SUP-18"], history="2025-10-02"), "COMP-C")], "COMP-C")
    assert young.status == "partial" and "begins on 2025-10-02" in young.text
    cut = _composed([_response(_rows(["SUP-18"]), "COMP-C", truncated=True)], "COMP-C")
    assert cut.status == "partial" and "PARTIAL" in cut.text


def test_several_companies_are_answered_each() -> None:
    d = _composed([_response(_rows(["SUP-22"]), "COMP-A"), _response([], "COMP-B")], None)
    assert d.status == "answered"
    assert [c["company_id"] for c in d.result["companies"]] == ["COMP-A", "COMP-B"]
    assert "COMP-A: 1 supplier" in d.text and "COMP-B: no supplier" in d.text


# -- AP fields the data does not have ------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "rest", "label"), [
    ("INV-2026-0165 - amount in EUR and the date it was paid out?", "INV-2026-0165 - amount in EUR?", "payment date"),
    ("Alpenland Feb 2026 total and the payment run date", "Alpenland Feb 2026 total", "payment run"),
    ("what did Company C pay to Delta in Q1 2026 and from which of our house-bank accounts?",
     "what did Company C pay to Delta in Q1 2026?", "house-bank account"),
    ("What did Company B pay Gamma in March 2026, and from which house bank?",
     "What did Company B pay Gamma in March 2026?", "house-bank account"),
    ("Payment date and amount of INV-2026-0148?", "amount of INV-2026-0148?", "payment date"),
    ("Company A Q1 2026 spend, which GL account?", "Company A Q1 2026 spend?", "GL account"),
    ("Gamma spend for Company B in H2 2025 plus the PO numbers", "Gamma spend for Company B in H2 2025",
     "purchase order number"),
    ("Company A total Q1 2026 and any due-date extensions", "Company A total Q1 2026", "due-date extension"),
    ("INV-2026-0165: amount, and when was it paid?", "INV-2026-0165: amount?", "payment date"),
    ("Beta invoices in March 2026, with the approver", "Beta invoices in March 2026", "approver"),
    ("Company A spend Q1 2026 and which cost centre it was booked on", "Company A spend Q1 2026", "cost centre"),
    ("Kestrel Q4 2025 spend with Theta + the pay run", "Kestrel Q4 2025 spend with Theta", "payment run"),
])
def test_an_asked_ap_field_is_split_off_and_named(question: str, rest: str, label: str) -> None:
    split = split_fields(question)
    assert split is not None and split.rest == rest, split
    assert label in [f.label for f in split.fields]


@pytest.mark.parametrize("question", [
    "Ypsilon - how much have we already paid out on invoices dated Q1-26? EUR",
    "Company A spend by supplier Q1 2026 for cost centre 4711",
    "Kestrel spend Q1 2026 on PO 4500012345",
    "Company B spend by cost centre, Q1 2026",
    "Company A spend Q1 2026 and the PO number 4500012345",
    "paid invoices of Company A in Q1 2026",
    "date it was posted for INV-2026-0165",
    "what are the payment terms of Beta?",
    "the payment run date",
])
def test_limits_statuses_and_fields_alone_are_not_split(question: str) -> None:
    assert split_fields(question) is None


@pytest.mark.parametrize(("question", "value"), [
    ("Company A spend by supplier Q1 2026 for cost centre 4711", "4711"),
    ("Company B total 2025, cost center 0815", "0815"),
    ("Kestrel spend FY2025 for cost centre 9100", "9100"),
    ("Xenon Q1 2026 spend, cost centre 3300", "3300"),
])
def test_a_numeric_cost_centre_is_a_limit_named_back(question: str, value: str) -> None:
    assert [(d.label, d.value) for d in unknown_dimensions(question)] == [("cost centre", value)]
    assert _routed(question).requires_clarification


def test_a_year_after_a_dimension_noun_is_still_the_period() -> None:
    assert unknown_dimensions("spend by region 2025") == ()


def _answer(status: str) -> Any:
    from router.answer import Answer

    return Answer(status=status, text="Company A's total spend was 100.00 EUR.", result={"status": "complete"},
                  inputs={}, sources=(), clarification_question="Which period?" if status == "clarification" else None)


def test_the_rest_is_answered_partial_naming_the_field() -> None:
    fields = unknown_fields("Company A Q1 total and the payment run date")
    partial = with_unknown_fields(_answer("answered"), fields)
    assert partial.status == "partial" and partial.result["status"] == "partial"
    assert partial.result["not_understood"] == ["the payment run date"]
    assert "'the payment run date'" in partial.text and "100.00 EUR" in partial.text
    asked = with_unknown_fields(_answer("clarification"), fields)
    assert asked.status == "clarification" and "payment run" in (asked.clarification_question or "")
    none = with_unknown_fields(_answer("no_data"), fields)
    assert none.status == "no_data" and "payment run" in none.text


def test_our_house_bank_is_no_personal_data_request() -> None:
    split = split_fields("what did Company A pay to Beta in Q1 2026 and from which of our house-bank accounts?")
    assert split is not None
    result = _routed(split.rest)
    assert result.personal_data is None and not result.requires_clarification


# -- cut-off across companies ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "companies"), [
    ("Company A/Company B: which Aug-2025 invoices got posted in Sept?", ["COMP-A", "COMP-B"]),
    ("COMP-A and COMP-B invoices dated March 2026 posted in April 2026", ["COMP-A", "COMP-B"]),
    ("Company B & Company A: invoices of Dec 2025 booked in Jan 2026?", ["COMP-B", "COMP-A"]),
    ("which Feb-2026 invoices of Company A and Company B were posted in March?", ["COMP-A", "COMP-B"]),
])
def test_a_cutoff_list_names_several_companies_together(question: str, companies: list[str]) -> None:
    result = _routed(question)
    assert result.workflow == "status_documents", result.clarification_question
    params = result.execution_plan[0].arguments["parameters"]
    assert sorted(params["company_ids"]) == sorted(companies) and "company_id" not in params
    assert params["posted_from"] == params["end_date"]


@pytest.mark.parametrize(("question", "start", "posted"), [
    ("cut-off Q3/Q4 2025: invoices dated Q3 posted in Q4?", "2025-07-01", "2025-10-01"),
    ("cut-off Q4 25/Q1 26: invoices dated December posted in January?", "2025-12-01", "2026-01-01"),
    ("Cut-off check Q1/Q2 2026: invoices dated Q1 but posted in Q2", "2026-01-01", "2026-04-01"),
    ("cut-off H1/H2 2025: invoices dated H1 posted in H2", "2025-01-01", "2025-07-01"),
])
def test_a_cutoff_header_names_the_two_sides(question: str, start: str, posted: str) -> None:
    req = cutoff_request(read(question, GAZETTEER, AS_OF))
    assert req is not None and req.start.isoformat() == start and req.posted_from.isoformat() == posted


@pytest.mark.parametrize(("written", "label"), [("Aug-2025", "2025-08"), ("Sep-2025", "2025-09"),
                                                ("March-2026", "2026-03"), ("dec-2025", "2025-12")])
def test_a_month_hyphen_year_is_that_month(written: str, label: str) -> None:
    tr = resolve_period(f"Company A spend {written}", dt.date(2026, 5, 15)).time_range
    assert tr is not None and tr.label == label
