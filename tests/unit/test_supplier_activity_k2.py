"""Supplier activity (router/supplier_activity.py): which suppliers did NOT invoice a company in a period, and the
first or last invoice of a selection (no database: routed in memory, composed from fixture listings).

* a negated invoicing ("did not invoice", "didnt bill", "never invoiced", "zero invoices", "keine Rechnung",
  "nessuna fattura") with a supplier noun or "who" is the governed listing ``finance.inactive_suppliers`` for one
  company and one period; a missing company or period, or a constraint it cannot take, is asked about; the
  approved vendors keep their own list (router/idle_vendors.py);
* an ordinal of either end before a singular invoice noun ("first invoice", "1st invoice", "latest <name>
  invoice", "última factura", "son fatura") is ``finance.invoice_date_extreme``: the period named or the whole
  history up to the as-of date; suppliers asked for as new stay router/first_time.py's list;
* the answers list the ids, say "none" for an empty list and a tie for two invoices on the extreme day.
"""

from __future__ import annotations

import random
import types
from typing import Any

import pytest

from router.routing import RouterInputs, route
from router.supplier_activity import (
    EXTREME_METRIC,
    EXTREME_STEP,
    INACTIVE_METRIC,
    INACTIVE_STEP,
    _compose_extreme,
    _compose_inactive,
    extreme_match,
    inactive_spans,
)
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"), ("COMP-A", "COMP-A"), ("Company B", "COMP-B"))
PERIODS = (("Q4 2025", "2025-10-01", "2026-01-01"), ("in Q1-26", "2026-01-01", "2026-04-01"),
           ("in August 2025", "2025-08-01", "2025-09-01"), ("Sep 2025", "2025-09-01", "2025-10-01"),
           ("in Feb 2026", "2026-02-01", "2026-03-01"), ("for March 2026", "2026-03-01", "2026-04-01"))
INACTIVE_FRAMES = (
    "{c}: which suppliers did not invoice {p}?",
    "{p}, {c} - vendors that didn't bill us",
    "{c} {p}: who did NOT send an invoice?",
    "which of our vendors never invoiced {c} {p}",
    "{c}, {p}: suppliers with zero invoices",
    "list the suppliers without any invoices for {c} {p}",
    "{c} {p} - who didnt invoice??",
    "suppliers that have not invoiced {c} {p}, pls",
    "{c} {p}: welche Lieferanten keine Rechnung geschickt",
    "{c} {p} quali fornitori nessuna fattura",
)
SUPPLIERS = (("Beta Supplies GmbH", "SUP-18"), ("Epsilon Instruments Inc", "SUP-22"),
             ("Gamma Controls", "SUP-27"), ("Delta Enclosures Ltd", "SUP-31"))
EXTREME_FRAMES = (
    ("{c}: first invoice from {s} ever?", "first"),
    ("when was the 1st invoice from {s} to {c}", "first"),
    ("{s} to {c}, earliest invoice?", "first"),
    ("most recent {s} invoice for {c} (number/date)", "last"),
    ("{c} - latest invoice from {s}, which inv#?", "last"),
    ("last invoice of {s} at {c}?", "last"),
    ("{c}: the very first {s} invoice we booked", "first"),
    ("{s}: newest invoice to {c}?", "last"),
    ("{c}, {s} invoice - the most recent one?", "last"),
)


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _params(result: Any, metric: str) -> list[dict[str, Any]]:
    return [s.arguments["parameters"] for s in result.execution_plan
            if s.tool == "metrics.query" and s.arguments.get("metric") == metric]


# -- who did not invoice ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(len(INACTIVE_FRAMES)))
def test_did_not_invoice_wordings_route_to_the_governed_listing(seed: int) -> None:
    rng = random.Random(6200 + seed)
    (written, company), (period, start, end) = rng.choice(COMPANIES), rng.choice(PERIODS)
    question = INACTIVE_FRAMES[seed % len(INACTIVE_FRAMES)].format(c=written, p=period)
    result = _routed(question)
    assert result.workflow == "inactive_suppliers", (question, result.clarification_question)
    [params] = _params(result, INACTIVE_METRIC)
    assert (params["company_id"], params["start_date"], params["end_date"]) == (company, start, end), question
    assert "did not invoice" in result.interpretation


@pytest.mark.parametrize(("question", "left_out"), [
    ("Company A Feb 2026: which suppliers did NOT invoice, apart from Epsilon which we know about", ["SUP-22"]),
    ("which vendors didn't invoice Company B in Q4 2025 excluding Beta Supplies GmbH", ["SUP-18"]),
])
def test_a_supplier_left_out_is_a_parameter_never_dropped(question: str, left_out: list[str]) -> None:
    result = _routed(question)
    assert result.workflow == "inactive_suppliers", result.clarification_question
    assert _params(result, INACTIVE_METRIC)[0]["exclude_supplier_ids"] == left_out


@pytest.mark.parametrize(("question", "said"), [
    ("which suppliers did not invoice in Q1 2026?", "which company"),
    ("Company A: who did not invoice?", "which period"),
    ("Company B: which suppliers did not invoice sensors in Q1 2026", "product group"),
    ("Company A: which vendors did not invoice more than 5000 EUR in March 2026", "amount"),
])
def test_a_missing_scope_or_an_unapplicable_constraint_is_asked_about(question: str, said: str) -> None:
    result = _routed(question)
    assert result.requires_clarification, question
    assert said.lower() in (result.clarification_question or "").lower(), result.clarification_question


@pytest.mark.parametrize("text", [
    "Company A spend Q1 2026 by supplier",
    "Company A: which approved vendors had no spend in Q1 2026?",
    "which suppliers are not approved for sensors at Company A?",
    "invoices not paid for Company B in March 2026",
    "Company A: credit notes not included, spend in Q1 2026",
])
def test_other_questions_are_no_inactive_listing(text: str) -> None:
    assert _routed(text).workflow != "inactive_suppliers"


@pytest.mark.parametrize("negation", ["did not invoice", "didnt invoice", "didn't bill", "never invoiced",
                                      "have not sent an invoice", "with no invoices", "zero invoices",
                                      "nicht fakturiert", "keine Rechnung", "n'ont pas facturé", "sin facturas",
                                      "nessuna fattura", "nie wystawili faktury", "fatura kesmeyen",
                                      "nu au facturat", "geen facturen"])
@pytest.mark.parametrize("subject", ["which suppliers", "who", "vendors", "Lieferanten", "fornitori"])
def test_any_negation_with_any_subject_is_read(negation: str, subject: str) -> None:
    assert inactive_spans(f"Company A March 2026 {subject} {negation}")
    assert inactive_spans(f"{subject} {negation} - Company A, March 2026")
    assert not inactive_spans(f"Company A March 2026 {negation}")  # no subject: no list of suppliers
    assert not inactive_spans(f"approved {subject} {negation} in March")  # router/idle_vendors.py's list


# -- first / last invoice ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(len(EXTREME_FRAMES)))
def test_first_and_last_wordings_route_to_the_governed_listing(seed: int) -> None:
    rng = random.Random(6300 + seed)
    (written, company), (name, supplier) = rng.choice(COMPANIES), rng.choice(SUPPLIERS)
    frame, order = EXTREME_FRAMES[seed % len(EXTREME_FRAMES)]
    question = frame.format(c=written, s=name)
    result = _routed(question)
    assert result.workflow == "invoice_extreme", (question, result.clarification_question)
    [params] = _params(result, EXTREME_METRIC)
    assert params["order"] == order and params["company_id"] == company, question
    assert params["supplier_ids"] == [supplier], question
    # no period named: the whole history up to the as-of date
    assert params["start_date"] == "1990-01-01" and params["end_date"] == "2026-05-16", question


@pytest.mark.parametrize(("question", "order", "start", "end"), [
    ("first invoice of FY26 (calendar 2026) for Company B - which one?", "first", "2026-01-01", "2026-05-16"),
    ("Company A: the last invoice in Q1 2026?", "last", "2026-01-01", "2026-04-01"),
    ("company b earliest invoice in March 2026 - inv no and date", "first", "2026-03-01", "2026-04-01"),
])
def test_a_period_bounds_the_selection_never_past_the_as_of_date(question: str, order: str, start: str,
                                                                 end: str) -> None:
    result = _routed(question)
    assert result.workflow == "invoice_extreme", result.clarification_question
    [params] = _params(result, EXTREME_METRIC)
    assert (params["order"], params["start_date"], params["end_date"]) == (order, start, end)
    assert "supplier_ids" not in params


@pytest.mark.parametrize("text", [
    "new suppliers for Company A in Q4 2025 (first invoice ever)?",
    "which vendors sent their first invoice to Company B in Q1 2026?",
    "Company A: who invoiced us for the first time in Aug 2025?",
    "Company A: last 3 invoices from Beta",
    "Company B invoices of last month",
    "Company A spend in the last quarter",
    "first quarter 2026 spend of Company A",
])
def test_suppliers_asked_as_new_or_plural_invoices_are_no_extreme(text: str) -> None:
    assert extreme_match(text) is None
    assert _routed(text).workflow != "invoice_extreme"


@pytest.mark.parametrize(("ordinal", "order"), [
    ("first", "first"), ("1st", "first"), ("earliest", "first"), ("erste", "first"), ("première", "first"),
    ("primera", "first"), ("prima", "first"), ("eerste", "first"), ("pierwsza", "first"), ("ilk", "first"),
    ("last", "last"), ("latest", "last"), ("most recent", "last"), ("letzte", "last"), ("dernière", "last"),
    ("última", "last"), ("ultima", "last"), ("laatste", "last"), ("ostatnia", "last"), ("son", "last"),
    ("poslední", "last"),
])
@pytest.mark.parametrize("noun", ["invoice", "Rechnung", "facture", "factura", "fattura", "fatura", "factuur",
                                  "faktura"])
def test_an_ordinal_of_any_language_before_any_invoice_noun(ordinal: str, noun: str, order: str) -> None:
    found = extreme_match(f"Company A {ordinal} {noun} from Beta?")
    assert found is not None and found[0] == order
    assert extreme_match(f"Company A {ordinal} {noun}s from Beta?") is None or noun != "invoice"


# -- answers ----------------------------------------------------------------------------------------------------------
def _response(metric: str, rows: list[dict[str, Any]], params: dict[str, Any]) -> Any:
    from router.tools import MetricToolResponse

    one = len(rows) == 1
    return MetricToolResponse(metric=metric, status="complete" if rows else "no_data", currency=None, outputs={},
                              values=rows[0] if one else {}, rows=() if one else tuple(rows),
                              matched_line_count=len(rows), source_line_ids=("invoice-1-line-01",) if rows else (),
                              source_line_count=1 if rows else 0, sources_truncated=False, policy={},
                              parameters=params)


def _draft(step: str, listings: list[Any], company: str | None) -> Any:
    from router.answer import _Draft

    outcomes = {f"{step}-{i + 1}": types.SimpleNamespace(status="ok", output=m) for i, m in enumerate(listings)}
    plan = tuple(types.SimpleNamespace(step_id=k) for k in outcomes)
    entities = types.SimpleNamespace(company_id=company, company_name=company and f"Name of {company}",
                                     supplier_names=())
    routing = types.SimpleNamespace(entities=entities, execution_plan=plan, interpretation="Company X, Q4 2025")
    return _Draft(routing=routing, run=types.SimpleNamespace(outcomes=outcomes), shown=[], metrics=[],  # type: ignore[arg-type]
                  spend=None, vendors=None, products=None, failures=[], citations=[], sources=(), period=None,
                  period_text="2025-Q4", failure_text="")


def _idle(ids: list[str]) -> list[dict[str, Any]]:
    return [{"supplier_id": s, "supplier_name": f"Name {s}", "last_invoice_before": "2025-08-01" if i else None,
             "source_document_id": "suppliers"} for i, s in enumerate(ids)]


@pytest.mark.parametrize("ids", [["SUP-18"], ["SUP-18", "SUP-52", "SUP-60"]])
def test_the_inactive_answer_lists_the_ids_and_cites_the_master_data(ids: list[str]) -> None:
    d = _draft(INACTIVE_STEP, [_response(INACTIVE_METRIC, _idle(ids), {"company_id": "COMP-C"})], "COMP-C")
    _compose_inactive(d)
    assert d.status == "answered" and d.result["supplier_ids"] == ids
    assert all(s in d.text for s in ids) and "did not invoice" in d.text
    assert d.sources == ("suppliers",)


def test_an_empty_inactive_list_is_none_not_no_data() -> None:
    d = _draft(INACTIVE_STEP, [_response(INACTIVE_METRIC, [], {"company_id": "COMP-C"})], "COMP-C")
    _compose_inactive(d)
    assert d.status == "answered" and d.result["supplier_ids"] == [] and "none" in d.text
    assert "SUP-" not in d.text


def _invoice(number: str, day: str = "2026-01-27") -> dict[str, Any]:
    return {"invoice_number": number, "invoice_id": number.lower(), "company_id": "COMP-B", "supplier_id": "SUP-22",
            "invoice_date": day, "currency": "EUR", "document_spend": "100.00", "invoice_count": 4, "line_count": 2}


def test_the_extreme_answer_names_the_invoice_and_a_tie_is_said() -> None:
    params = {"company_id": "COMP-B", "order": "last", "supplier_ids": ["SUP-22"]}
    one = _draft(EXTREME_STEP, [_response(EXTREME_METRIC, [_invoice("INV-2026-0516")], params)], "COMP-B")
    _compose_extreme(one)
    assert one.status == "answered" and one.result["invoice_numbers"] == ["INV-2026-0516"]
    assert "INV-2026-0516" in one.text and "2026-01-27" in one.text and "last invoice" in one.text
    tie = _draft(EXTREME_STEP, [_response(EXTREME_METRIC, [_invoice("INV-2026-0516"), _invoice("INV-2026-0517")],
                                          params)], "COMP-B")
    _compose_extreme(tie)
    assert tie.result["invoice_numbers"] == ["INV-2026-0516", "INV-2026-0517"] and "a tie" in tie.text
    none = _draft(EXTREME_STEP, [_response(EXTREME_METRIC, [], params)], "COMP-B")
    _compose_extreme(none)
    assert none.status == "no_data" and "no counted invoice" in none.text


@pytest.mark.parametrize("text", [
    "new suppliers at Company A in Q4 2025 (never invoiced us before)?",
    "Company B: which vendors had not billed us before March 2026 and did in March?",
])
def test_suppliers_new_in_the_period_are_no_inactive_listing(text: str) -> None:
    assert inactive_spans(text) == ()


@pytest.mark.parametrize("text", [
    "unit price on the most recent PRD-650 invoice for Company A",
    "Company B: quantity on the last invoice from Beta?",
])
def test_a_line_measure_on_the_latest_invoice_keeps_the_price_path(text: str) -> None:
    assert _routed(text).workflow != "invoice_extreme"


@pytest.mark.parametrize(("text", "idle"), [
    ("which suppliers can Company A not order from", False),
    ("which vendors could we not buy from in March", False),
    ("which suppliers did we not buy from in March 2026", True),
    ("vendors we didn't order from in Q1", True),
    ("suppliers that did not charge us in Q1", True),
])
def test_a_purchase_verb_is_idle_only_when_the_action_did_not_happen(text: str, idle: bool) -> None:
    assert bool(inactive_spans(text)) is idle


@pytest.mark.parametrize("text", ["Company A: latest invoice date for each supplier",
                                  "first invoice per vendor for Company B in 2026"])
def test_one_invoice_per_row_is_no_single_extreme(text: str) -> None:
    assert _routed(text).workflow != "invoice_extreme"


@pytest.mark.parametrize(("text", "order"), [
    ("when did we last get an invoice from Beta?", "last"),
    ("when was Company A first invoiced by Gamma", "first"),
    ("when did Delta last bill us", "last"),
])
def test_when_did_first_or_last_asks_the_extreme(text: str, order: str) -> None:
    found = extreme_match(text)
    assert found is not None and found[0] == order


@pytest.mark.parametrize("text", ["Company A: suppliers with nothing invoiced in March 2026",
                                  "dormant vendors of Company B in Q1 2026", "idle suppliers, Company A, Feb 2026"])
def test_dormant_and_nothing_invoiced_ask_the_same_list(text: str) -> None:
    assert inactive_spans(text)
