"""Compound parts that lost their measure or their own reading (g5): "spend by invoice currency, and the total
VAT" (the VAT is an ask of its own, not the currency rows' amounts), "payment term as at D, and which vendors were
approved on that date" (the fact is an ask of its own, never dropped beside the list), "which X invoices were
duplicated, and X's spend for Q1 with each duplicate counted once" (a period only a later part names is said as a
second reading; "duplicates counted once" is the governed dedup policy, not a duplicate listing). No database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.answer import Answer
from router.compound import AskPart, split_asks, with_other_reading
from router.duplicates import duplicate_request
from router.reader import read
from router.routing import route
from tests.unit.test_router_analysis import FAST, PERIODS
from tests.unit.test_router_compound import AS_OF, GAZETTEER
from tests.unit.test_router_compound_parts import INPUTS, _read

_COMPANIES = ("Company A", "company b")
_VAT = ("the total VAT in EUR", "the total tax", "the total VAT", "and the total net amount")


@given(st.sampled_from(_COMPANIES), st.sampled_from(PERIODS), st.sampled_from(_VAT))
@FAST
def test_a_measure_beside_the_currency_rows_is_an_ask_of_its_own(company: str, period: tuple[str, str, str],
                                                                 vat: str) -> None:
    parts = split_asks(f"{company}, {period[0]}: spend by invoice currency in EUR, and {vat.removeprefix('and ')}.",
                       _read)
    assert len(parts) == 2, parts
    assert period[0] in parts[1].question or period[1] in parts[1].question or "Q1" in parts[1].question


def test_which_currency_and_how_much_stays_one_ask() -> None:
    assert split_asks("invoices to Company A in Q1 2026 - which currency, and the amounts?", _read) == ()


@given(st.sampled_from(_COMPANIES), st.sampled_from(("payment term", "payment terms", "notice period")),
       st.sampled_from(("as at 10 April 2026", "in Q1 2026")))
@FAST
def test_a_document_fact_beside_the_approved_vendors_is_not_dropped(company: str, fact: str, when: str) -> None:
    parts = split_asks(f"What was {company}'s {fact} {when}, and which vendors were approved for it on that date?",
                       _read)
    assert len(parts) == 2, parts
    assert fact in parts[0].question and "approved" in parts[1].question


@given(st.sampled_from(_COMPANIES), st.sampled_from(PERIODS),
       st.sampled_from(("Which {c} invoices were duplicated", "Which invoices of {c} were exported twice")))
@FAST
def test_a_period_only_a_later_part_names_is_a_second_reading(company: str, period: tuple[str, str, str],
                                                              first: str) -> None:
    q = f"{first.format(c=company)}, and what is {company}'s total spend {period[0]} with each duplicate counted once?"
    parts = split_asks(q, _read)
    assert len(parts) == 2, parts
    assert parts[0].without_period == first.format(c=company) and parts[0].carried_period
    assert not parts[1].without_period


def test_a_shared_period_is_no_second_reading() -> None:
    for part in split_asks("For Company A in Q1 2026: the number of invoices and the total spend", _read):
        assert not part.without_period


@given(st.sampled_from(_COMPANIES), st.sampled_from(PERIODS),
       st.sampled_from(("with each duplicate counted once", "with duplicates counted only once",
                        "duplicates counted once")))
@FAST
def test_duplicates_counted_once_is_the_governed_spend(company: str, period: tuple[str, str, str], words: str) -> None:
    question = f"what is {company}'s total spend {period[0]} {words}?"
    assert duplicate_request(read(question, GAZETTEER, AS_OF)) is None
    result = route(question, INPUTS)
    assert not result.requires_clarification, result.clarification_question
    spend = next(s for s in result.execution_plan if s.step_id == "calculate-spend")
    assert (spend.arguments["start_date"], spend.arguments["end_date"]) == period[1:]


def test_the_second_reading_is_said_beside_the_first() -> None:
    part = AskPart("Which Company A invoices were duplicated", "... in Q1 2026", ("in Q1 2026",),
                   without_period="Which Company A invoices were duplicated", carried_period="in Q1 2026")
    first = Answer(status="answered", text="One: INV-1. Sources: a.", result={"ids": ["INV-1"]}, inputs={},
                   sources=("a",))
    other = Answer(status="answered", text="Two: INV-1, INV-2. Sources: b.", result={"ids": ["INV-1", "INV-2"]},
                   inputs={}, sources=("b",))
    merged = with_other_reading(part, first, other)
    assert "may be that part's only" in merged.text and "INV-2" in merged.text
    assert merged.result["ids"] == ["INV-1"] and merged.result["without_period"]["ids"] == ["INV-1", "INV-2"]
    assert merged.sources == ("a", "b")
    refused = Answer(status="clarification", text="?", result={}, inputs={}, sources=())
    assert with_other_reading(part, first, refused) == first


@given(st.sampled_from(("Company A", "Company B")), st.sampled_from(("Q1 2026", "2025", "im März 2026")),
       st.sampled_from(("{c} {p}: Gesamtausgaben und Anzahl Rechnungen?",
                        "{c} {p}: Anzahl Rechnungen und Gesamtausgaben",
                        "Ausgaben von {c} {p} und Anzahl der Rechnungen")))
@FAST
def test_a_german_second_measure_is_an_ask_of_its_own(company: str, period: str, template: str) -> None:
    parts = split_asks(template.format(c=company, p=period), _read)
    assert len(parts) == 2, parts
    assert any("number of invoices" in p.question or "Anzahl" in p.question for p in parts)
    assert any("usgaben" in p.question or "spend" in p.question for p in parts)


def test_a_shared_lead_period_at_the_end_is_no_second_reading() -> None:
    for part in split_asks("Company A: Anzahl Rechnungen und Gesamtausgaben 2025", _read):
        assert not part.without_period


@given(st.sampled_from(_COMPANIES), st.sampled_from(("payment terms", "notice period", "warranty")),
       st.sampled_from(("which of its invoices are overdue as at 15 May 2026?", "which invoices are still open?",
                        "list its open invoices")))
@FAST
def test_a_document_fact_beside_an_invoice_listing_is_not_dropped(company: str, fact: str, listing: str) -> None:
    parts = split_asks(f"What are {company}'s {fact}, and {listing}", _read)
    assert len(parts) == 2, parts
    assert fact in parts[0].question and "invoices" in parts[1].question


def test_a_german_share_of_the_total_before_stays_one_ask() -> None:
    assert split_asks("Company A Q4 2025: Gesamtausgaben und Anteil Delta daran", _read) == ()


@pytest.mark.parametrize(("question", "name"), [
    ("Company A spend with Supplier Beta in Q1 2026 and the VAT amount", "Supplier Beta"),  # review probe
    ("Company A spend with Supplier Beta in Q1 2026, and the gross incl. VAT", "Supplier Beta"),
    ("spend of company b on Pressure Sensors in Q1 2026 and the net", "Pressure Sensors"),
])
def test_a_part_naming_only_a_basis_takes_the_whole_scope(question: str, name: str) -> None:
    # "and the VAT amount" is the VAT of the figure before it: without the supplier (or group) it was the company's
    # VAT over all suppliers, presented as complete
    parts = split_asks(question, _read)
    assert len(parts) == 2, parts
    assert name.lower() in parts[1].question.lower(), parts[1]
    assert "Company" in parts[1].question or "company" in parts[1].question, parts[1]
