"""Currency exposure, document counts and supplier listings as treasury and AP write them (the classes of
``evaluation/probes_exposure_counts.py``), checked on the plan the router builds: the governed metric and its
parameters, with the slot varied (companies, currencies, periods, list orders, amount notations)."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest

from evaluation.probes_exposure_counts import FRAMES, Probe, expected_tokens, probes
from router.analysis import document_type_scope
from router.listings import read_purchase_listing
from router.off_contract import _NEGATION
from router.periods import resolve_period
from router.reading import asked_statuses, parse_amounts, parse_breakdown
from tests.unit.test_router_analysis import AS_OF
from tests.unit.test_router_rankings_counts import _queries, _routed

COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"), ("COMP-B", "COMP-B"), ("company A", "COMP-A"))
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
           ("in FY2026 YTD", "2026-01-01", "2026-05-16"), ("FY26 YTD", "2026-01-01", "2026-05-16"))


def _metric(question: str, metric: str) -> dict[str, Any]:
    found = [q for q in _queries(question) if q.get("metric") == metric]
    assert found, (question, _queries(question))
    return found[0]


def _slots() -> list[tuple[str, str, str, str, str]]:
    return [(c, cid, p, s, e) for (c, cid), (p, s, e) in itertools.product(COMPANIES, PERIODS)]


# --- currency exposure ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("frame", [
    "FX exposure: {c}'s spend {p} by original invoice currency, with the EUR total.",
    "Currency exposure of {c} {p}: original-currency totals and EUR",
    "{c} spend {p} by billing currency, with the EUR total",
    "{c}: spend per original invoice currency {p}",
    "FX exposure of {c} {p}",
])
@pytest.mark.parametrize(("c", "cid", "p", "start", "end"), _slots()[::3])
def test_exposure_is_the_spend_of_each_invoice_currency(frame: str, c: str, cid: str, p: str, start: str,
                                                        end: str) -> None:
    query = _metric(frame.format(c=c, p=p), "finance.document_currency_spend")
    assert query["group_by"] == ["currency"]
    assert (query["parameters"]["company_id"], query["parameters"]["start_date"],
            query["parameters"]["end_date"]) == (cid, start, end)
    assert not query["parameters"].get("document_currency")


@pytest.mark.parametrize(("frame", "code"), [
    ("GBP exposure of {c} {p}, in EUR?", "GBP"), ("What is {c}'s exposure to USD {p}?", "USD"),
    ("{c} Swiss franc exposure {p}", "CHF"), ("How much USD-denominated spend did {c} have {p}, in EUR?", "USD"),
    ("{c}'s sterling exposure {p}", "GBP"),
])
@pytest.mark.parametrize(("c", "cid", "p", "start", "end"), _slots()[1::3])
def test_one_currency_exposure_is_that_currencys_invoices(frame: str, code: str, c: str, cid: str, p: str,
                                                          start: str, end: str) -> None:
    query = _metric(frame.format(c=c, p=p), "finance.document_currency_spend")
    assert query["parameters"]["document_currency"] == code
    assert (query["parameters"]["company_id"], query["parameters"]["start_date"]) == (cid, start)


@pytest.mark.parametrize("text", ["spend by original invoice currency", "per billing ccy", "by invoice currency",
                                  "split by transaction currency", "by the original document currency"])
def test_qualified_currency_groupings_are_the_currency_dimension(text: str) -> None:
    breakdown = parse_breakdown(text)
    assert breakdown.group_by == ("currency",) and not breakdown.unknown


# --- periods: the fiscal year to date -------------------------------------------------------------------------------
@pytest.mark.parametrize("phrase", ["FY2026 YTD", "FY26 YTD", "FY'26 YTD", "FY 2026 ytd", "fiscal 2026 year-to-date",
                                    "FY-2026 YTD", "FY2026 FYTD", "FYTD 2026"])
def test_fiscal_year_to_date_is_one_period(phrase: str) -> None:
    resolved = resolve_period(f"credit notes booked in {phrase}?", AS_OF)
    assert not resolved.ambiguous and resolved.time_range is not None
    assert (resolved.time_range.start.isoformat(), resolved.time_range.end.isoformat()) == ("2026-01-01", "2026-05-16")


# --- counts: left-out lists, credit notes, invoice lines --------------------------------------------------------------
_LEFT_OUT = ("(excluding credit notes, drafts and cancelled)", "excl. credit notes/drafts/cancelled",
             "excluding drafts, cancelled and credit notes", "without credit notes, drafts or cancelled ones",
             "(credit notes, drafts and cancelled excluded)",
             "not counting credit notes, drafts and cancelled invoices")


@pytest.mark.parametrize("left", _LEFT_OUT)
def test_a_left_out_list_leaves_every_item_out(left: str) -> None:
    assert document_type_scope(f"how many invoices {left}")[0] == ("invoice",)


@pytest.mark.parametrize(("left", "slot"), list(zip(_LEFT_OUT, itertools.cycle(_slots()), strict=False)))
def test_invoice_count_with_a_left_out_list_counts_invoices(left: str, slot: tuple[str, ...]) -> None:
    c, cid, p, start, _ = slot
    query = _metric(f"How many invoices did {c} receive {p} {left}?", "finance.invoice_count")
    assert query["parameters"]["document_types"] == ["invoice"]
    assert not set(query["parameters"].get("invoice_statuses") or ()) & {"draft", "cancelled"}
    assert (query["parameters"]["company_id"], query["parameters"]["start_date"]) == (cid, start)


def test_drafts_still_asked_for_are_a_status_question() -> None:
    assert asked_statuses("how many drafts and cancelled invoices") == ("draft", "cancelled")
    assert document_type_scope("how many credit notes and drafts")[0] == ("credit_note",)


@pytest.mark.parametrize(("c", "cid", "p", "start", "end"), _slots()[::2])
def test_credit_notes_booked_in_any_period_form(c: str, cid: str, p: str, start: str, end: str) -> None:
    query = _metric(f"Number of credit notes booked by {c} {p}?", "finance.invoice_count")
    assert query["parameters"]["document_types"] == ["credit_note"]
    assert (query["parameters"]["start_date"], query["parameters"]["end_date"]) == (start, end)


@pytest.mark.parametrize(("question", "types"), [
    ("How many invoice lines did {c} book {p}?", ["invoice"]),
    ("number of invoice lines for {c} {p}", ["invoice"]),
    ("How many invoice lines did {c} book {p}, credit notes included?", None),
    ("count of invoice lines (invoices and credit notes) for {c} {p}", None),
    ("how many lines on credit notes did {c} have {p}?", ["credit_note"]),
])
def test_invoice_lines_leave_credit_notes_out_unless_taken_along(question: str, types: list[str] | None) -> None:
    for c, cid, p, _, _ in _slots()[::4]:
        query = _metric(question.format(c=c, p=p), "finance.invoice_line_count")
        assert query["parameters"].get("document_types") == types, question
        assert query["parameters"]["company_id"] == cid


@pytest.mark.parametrize("frame", ["Gross invoiced amount for {c} {p} before credit notes?",
                                   "{c} spend {p} gross of credit notes", "{c} spend {p}, prior to credit notes"])
def test_before_credit_notes_is_invoices_only(frame: str) -> None:
    assert document_type_scope(frame.format(c="Company A", p="in March 2026"))[0] == ("invoice",)


# --- listings ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("frame", "value"), [
    ("Which suppliers crossed {a} of {c} spend {p}?", None), ("Did any supplier pass {a} of {c} spend {p}?", None),
    ("Which vendors exceeded {a} with {c} {p}?", None),
])
@pytest.mark.parametrize(("amount", "expected"), [("EUR 0.1m", "100000"), ("250k", "250000"),
                                                  ("100,000 EUR", "100000"), ("50.000 EUR", "50000")])
def test_suppliers_crossing_an_amount(frame: str, value: None, amount: str, expected: str) -> None:
    question = frame.format(a=amount, c="Company A", p="in FY2025")
    (found,) = [a for a in parse_amounts(question) if a.comparator == "above"]
    assert found.value == Decimal(expected)
    result = _routed(question)
    assert not result.requires_clarification, result.clarification_question


@pytest.mark.parametrize("verb", ["use", "work with", "deal with", "do business with", "engage"])
def test_suppliers_used_are_the_spend_by_supplier(verb: str) -> None:
    for c, _, p, _, _ in _slots()[::5]:
        read = read_purchase_listing(f"Which suppliers did {c} {verb} {p}?")
        assert read is not None and read.endswith(", by supplier") and c in read


@pytest.mark.parametrize("phrase", ["vendors outside its approved list", "suppliers off the approved vendor list",
                                    "vendors not among the approved suppliers", "suppliers outside the AVL",
                                    "suppliers missing from the approved supplier list", "non-approved suppliers"])
def test_outside_the_approved_list_is_the_negation(phrase: str) -> None:
    assert _NEGATION.search(f"What did Company A spend with {phrase} in Q1 2026?")
    question = f"What did Company A spend with {phrase} in Q1 2026?"
    steps = {s.tool: s for s in _routed(question).execution_plan}
    assert "exclude_supplier_ids" in steps["finance.company_spend"].arguments


def test_the_approved_list_itself_is_no_negation() -> None:
    assert _NEGATION.search("What did Company A spend with vendors on its approved list in Q1 2026?") is None


# --- the probe generator ---------------------------------------------------------------------------------------------
def test_probe_generator_is_seeded_and_covers_every_class() -> None:
    first, again = probes(1, 5), probes(1, 5)
    assert [p.question for p in first] == [p.question for p in again]
    assert {p.klass for p in first} == set(FRAMES)


def test_crossed_probe_expects_the_suppliers_above_the_amount() -> None:
    probe = Probe("crossed", "q", (), pick="above", threshold="100000")
    rows = {"rows": [{"values": {"supplier_id": "SUP-1", "total_spend": "100000.00"}},
                     {"values": {"supplier_id": "SUP-2", "total_spend": "100000.01"}}]}
    assert expected_tokens(probe, [rows]) == ["SUP-2"]
