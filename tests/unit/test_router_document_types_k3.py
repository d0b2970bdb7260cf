"""The AP clerk's document questions (no database): credit notes by their shorthand ("CNs", "credit memo"), a
credit-note number that names one document, document counts by status ("docs", "document counts"), a count and
an amount of one selection, invoices and credit notes as two figures, the netted figure "after the credit note",
invoice listings asked last or with a bare "which", and counts in one invoice currency (the governed listing,
never every currency counted)."""

from __future__ import annotations

from typing import Any

import pytest

from router.contract import clean_question
from router.currency_counts import listing_question, unlisted_reason
from router.document_asks import document_asks
from router.document_words import document_words
from router.evidence import credit_note_documents
from tests.unit.test_router_analysis import routed

LISTING = "finance.invoices_above_threshold"


def _queries(result: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(s.arguments["metric"], s.arguments["parameters"]) for s in result.execution_plan
            if s.tool == "metrics.query"]


def _listing(result: Any) -> dict[str, Any]:
    return next(s.arguments for s in result.execution_plan if s.tool == LISTING)


def _parts(question: str) -> list[str]:
    """The asks of a rewritten ticket, as the compound splitter cuts them ("X? And Y?")."""
    return [p.strip() for p in document_asks(clean_question(question)).split("? And ")]


@pytest.mark.parametrize(("said", "written"), [
    ("Number of CNs for Xenon", "Number of credit notes for Xenon"),
    ("invoices only (ignore CNs)", "invoices only (ignore credit notes)"),
    ("any CN's from Beta?", "any credit notes from Beta?"),
    ("one CN for Iota", "one credit note for Iota"),
    ("credit memos of Gamma", "credit notes of Gamma"),
    ("the credit-memo from Delta", "the credit note from Delta"),
    ("Company A docs by status", "Company A documents by status"),
    ("CN-2026-0042 booked?", "CN-2026-0042 booked?"),
    ("CN 2026-0042 booked?", "CN 2026-0042 booked?"),
    ("cn_2026_0042", "cn_2026_0042"),
])
def test_the_shorthand_is_written_out_and_numbers_stay(said: str, written: str) -> None:
    assert document_words(said) == written


@pytest.mark.parametrize(("question", "company", "supplier"), [
    ("Number of CNs for Company A between 01.01.2026 and 31.03.2026", "COMP-A", None),
    ("how many CNs did Company B get from Beta in H2 2025?", "COMP-B", "SUP-18"),
    ("count of credit memos, company a, Q1 2026", "COMP-A", None),
    ("Gamma CNs Company B 2025: how many?", "COMP-B", "SUP-27"),
])
def test_a_count_of_cns_counts_credit_notes(question: str, company: str, supplier: str | None) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    (metric, params), = _queries(result)
    assert metric == "finance.invoice_count" and params["document_types"] == ["credit_note"]
    assert params["company_id"] == company and params.get("supplier_ids") == ([supplier] if supplier else None)


@pytest.mark.parametrize("question", [
    "Company A: invoices only (ignore CNs) from Beta, H2 2025 - EUR?",
    "Company B invoices only, no CNs, Gamma Q1 2026 total",
    "Company A spend with Iota in March 2026, invoices only (excluding credit memos)",
    "Beta spend for Company B 2025 without CNs",
])
def test_invoices_only_leaves_the_cns_out(question: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert all(p.get("document_types") == ["invoice"] for _, p in _queries(result)), _queries(result)


@pytest.mark.parametrize("question", [
    "Breakdown of Company A docs by status for Oct-Dec 2025 pls",
    "Dashboard check: document counts by status, Company B, Q1 2026",
    "company a docs per status, H2 2025",
    "document count by status for Company B in March 2026",
])
def test_documents_by_status_count_invoices_and_credit_notes(question: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    queries = _queries(result)
    assert queries and all(p["document_types"] == ["invoice", "credit_note"] for _, p in queries), queries


def test_a_credit_note_number_names_its_one_document() -> None:
    assert credit_note_documents(["CN-2026-0042"], {"invoice_number": ()}) == ["credit-note-2026-0042"]
    assert credit_note_documents(["cn_2025_0007"], {"invoice_number": ()}) == ["credit-note-2025-0007"]
    assert credit_note_documents(["CN-2026-0042"], {"invoice_number": ("INV-2026-0148",)}) is None
    assert credit_note_documents([], {"invoice_number": ()}) is None
    result = routed("CN-2026-0042 - is that credit note booked?")
    assert result.workflow == "identifier_lookup" and result.entities.invoice_numbers == ("CN-2026-0042",)


@pytest.mark.parametrize(("question", "statuses", "supplier"), [
    ("Company B paid invoices Q4 2025: count and EUR total", ["paid"], None),
    ("Company A posted invoices from Beta in Q1 2026 - number and value", ["posted"], "SUP-18"),
    ("company b paid invoices from Gamma, H2 2025: total and count", ["paid"], "SUP-27"),
    ("Company A paid invoices March 2026: how many and how much?", ["paid"], None),
])
def test_a_count_and_a_total_are_two_figures_of_one_selection(question: str, statuses: list[str],
                                                              supplier: str | None) -> None:
    counted, summed = _parts(question)
    count = routed(counted)
    assert not count.requires_clarification, (counted, count.clarification_question)
    (metric, params), = _queries(count)
    assert metric == "finance.invoice_count" and params["invoice_statuses"] == statuses
    assert params.get("supplier_ids") == ([supplier] if supplier else None)
    total = routed(summed)
    assert not total.requires_clarification, (summed, total.clarification_question)
    assert total.constraints.invoice_status == tuple(statuses)
    assert all(p.get("invoice_statuses", statuses) == statuses for _, p in _queries(total))
    # the total is of the documents counted: the invoices, not netted with credit notes
    assert _queries(total) and all(p.get("document_types") == ["invoice"] for _, p in _queries(total))


@pytest.mark.parametrize(("question", "status", "start"), [
    ("open (posted, unpaid) invoices of Company A - how many, dated 2026?", "posted", "2026-01-01"),
    ("paid invoices of Company B from Gamma - how many, dated Q1 2026?", "paid", "2026-01-01"),
    ("unpaid invoices Company B: how many, in H2 2025", "posted", "2025-07-01"),
    ("Company A posted invoices from Iota - how many, for 2025?", "posted", "2025-01-01"),
])
def test_the_count_word_before_the_last_qualifier_counts(question: str, status: str, start: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    (metric, params), = _queries(result)
    assert metric == "finance.invoice_count" and params["invoice_statuses"] == [status]
    assert params["start_date"] == start


@pytest.mark.parametrize(("question", "supplier"), [
    ("Gamma Controls: invoices vs credit notes Q1 2026 for Company A - gross invoiced and credited", "SUP-27"),
    ("Beta: credit notes versus invoices H2 2025 for Company B", "SUP-18"),
    ("Company A invoices vs credit notes from Iota in March 2026 - invoiced and credited", "SUP-60"),
    ("Delta invoices against credit notes 2025, Company B", "SUP-31"),
])
def test_invoices_and_credit_notes_are_two_figures(question: str, supplier: str) -> None:
    invoiced, credited = _parts(question)
    for part, types in ((invoiced, ["invoice"]), (credited, ["credit_note"])):
        result = routed(part)
        assert not result.requires_clarification, (part, result.clarification_question)
        queries = _queries(result)
        assert queries and all(p.get("document_types") == types for _, p in queries), (part, queries)
        assert all(p.get("supplier_ids") == [supplier] for _, p in queries), (part, queries)


@pytest.mark.parametrize(("question", "company", "supplier"), [
    ("what did Beta net out to for Company A in Q1 2026 after the credit note?", "COMP-A", "SUP-18"),
    ("what did Gamma net out to after credit notes, Company B, H2 2025", "COMP-B", "SUP-27"),
    ("What did Iota net out to for company b in March 2026, after its credit notes?", "COMP-B", "SUP-60"),
    ("what did Delta Enclosures net out to in 2025 for Company A after the credit notes", "COMP-A", "SUP-31"),
])
def test_net_out_after_the_credit_note_is_the_netted_spend(question: str, company: str, supplier: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.entities.company_id == company and result.entities.supplier_ids == (supplier,)
    assert result.workflow == "spend"
    assert not any(p.get("document_types") for _, p in _queries(result))  # both types: the governed default


@pytest.mark.parametrize(("question", "currency", "supplier"), [
    ("GBP invoices of Company A in Q1 2026 - list the numbers", "GBP", None),
    ("Which Company B invoices from Beta in Q1 2026?", None, "SUP-18"),
    ("Company A invoices from Gamma in March 2026: list the invoice numbers", None, "SUP-27"),
    ("Which company a invoices from Iota in H2 2025", None, "SUP-60"),
    ("USD invoices of Company B, 2025 - give me the numbers pls", "USD", None),
])
def test_invoice_lists_are_listings(question: str, currency: str | None, supplier: str | None) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    args = _listing(result)
    assert args["threshold"] == "0.00" and args["inclusive"] is True
    assert args.get("document_currency") == currency and args.get("supplier_ids") == ([supplier] if supplier else None)


@pytest.mark.parametrize(("question", "currency", "supplier", "start", "end"), [
    ("how many invoices did Company A receive in USD in 2025?", "USD", None, "2025-01-01", "2026-01-01"),
    ("number of GBP invoices from Beta for Company B in Q1 2026", "GBP", "SUP-18", "2026-01-01", "2026-04-01"),
    ("Company A invoices billed in CHF, H2 2025: how many?", "CHF", None, "2025-07-01", "2026-01-01"),
    ("how many CHF invoices did company b get from Gamma in March 2026", "CHF", "SUP-27", "2026-03-01", "2026-04-01"),
])
def test_a_count_in_one_invoice_currency_is_the_listing(question: str, currency: str, supplier: str | None,
                                                        start: str, end: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert not any(m == "finance.invoice_count" for m, _ in _queries(result))
    args = _listing(result)
    assert (args["document_currency"], args["start_date"], args["end_date"]) == (currency, start, end)
    assert args.get("supplier_ids") == ([supplier] if supplier else None)
    assert args["threshold"] == "0.00" and args["inclusive"] is True


@pytest.mark.parametrize("question", [
    "how many credit notes in USD did Company A get in 2025",
    "number of USD invoices of Company B per status in 2025",
])
def test_a_currency_count_the_listing_cannot_carry_is_asked(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification and "USD" in (result.clarification_question or ""), question
    assert not _queries(result)


def test_the_listing_of_a_count_reads_back_its_scope() -> None:
    params = {"company_id": "COMP-B", "start_date": "2026-01-01", "end_date": "2026-04-01",
              "document_types": ["invoice"], "invoice_statuses": ["posted", "paid"]}
    assert unlisted_reason(params, (), ()) is None
    assert listing_question("USD", params) == "list the invoices billed in USD of COMP-B from 2026-01-01 to 2026-03-31"
    assert unlisted_reason({**params, "invoice_statuses": ["paid"]}, (), ()) == "statuses other than posted and paid"
    assert unlisted_reason({**params, "document_types": ["credit_note"]}, (), ()) == "credit notes counted"


@pytest.mark.parametrize("question", [
    "how many invoices vs credit notes did Company A get in Q1 2026",
    "invoices vs credit notes by supplier, Company A, Q1 2026",
    "Company A spend Q1 2026",
    "which invoices of Beta are above 5000 EUR in Q1 2026?",
    "Which Company B invoices from Gamma did we pay in March 2026?",
    "what did Company A spend with Beta, net of VAT, in Q1 2026",
])
def test_other_questions_are_left_as_written(question: str) -> None:
    assert document_asks(question) == question


@pytest.mark.parametrize("question", [
    "Company B paid invoices Q4 2025: count and EUR total",
    "open (posted, unpaid) invoices of Company A - how many, dated 2026?",
    "Gamma Controls: invoices vs credit notes Q1 2026 for Company A - gross invoiced and credited",
    "what did Beta net out to for Company A in Q1 2026 after the credit note?",
    "GBP invoices of Company A in Q1 2026 - list the numbers",
    "Which Company B invoices from Beta in Q1 2026?",
])
def test_the_written_out_asks_are_read_once(question: str) -> None:
    once = document_asks(question)
    assert once != question and document_asks(once) == once


@pytest.mark.parametrize("question", [
    "Company A: number of paid line items in Q1 2026 (credit notes excluded)",
    "Company B paid line items in Q4 2025, credit notes not included",
    "how many paid line items did Company A have in Q1 2026? CNs left out",
])
def test_credit_notes_left_out_after_the_ask_are_no_credit_note_ask(question: str) -> None:
    # the exclusion said after the credit notes was read as asking for them: the invoices-only count was refused
    result = routed(question)
    assert "planned over invoices only" not in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("question", ["CN-2026-0042 - is that credit note booked?",
                                      "is credit note CN-2025-0007 paid?"])
def test_a_credit_note_looked_up_by_number_is_no_invoices_only_figure(question: str) -> None:
    result = routed(question)
    assert "planned over invoices only" not in (result.clarification_question or ""), result.clarification_question
