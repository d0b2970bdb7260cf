"""Document look-ups and AP checks: document numbers in every notation, a credit note's original invoice with
its amount, duplicates in other wordings, cut-off lists with a posting side written loosely, overdue since a day,
invoices vs. invoices net of credit notes, an invoice pronoun before an amount, and AP fields the data lacks.
Metamorphic: the slots (year, number, notation, company, period, verb, amount) vary and the reading must not.
Database-free."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.ap_fields import split_fields
from router.document_notation import spell_document_numbers
from router.document_nouns import spell_document_nouns
from router.document_scopes import document_scope_parts
from router.duplicates import _DUPLICATE, _status_named
from router.invoice_facts import document_numbers

FAST = settings(max_examples=30, deadline=None, derandomize=True, database=None)
YEARS = st.integers(min_value=2019, max_value=2030)
NUMBERS = st.integers(min_value=1, max_value=9999).map(lambda n: f"{n:04d}")


# -- document numbers in every notation -----------------------------------------------------------------------
@FAST
@given(year=YEARS, number=NUMBERS, notation=st.sampled_from([
    "inv{y}{n}", "INV{y}{n}", "inv {y}/{n}", "inv#{y}-{n}", "INV.{y}.{n}", "invoice {y}-{n}", "invoice no. {y}/{n}",
    "{y}-{n}", "{y}/{n}", "Rechnung Nr. {y}-{n}", "bill {y}/{n}", "inv_{y}_{n}"]),
    ask=st.sampled_from(["what's the gross of {d}?", "{d} - net + VAT pls", "value of {d} (Gamma)?"]))
def test_an_invoice_number_in_any_notation_is_canonical(year: int, number: str, notation: str, ask: str) -> None:
    if number[:2] in ("19", "20") and notation in ("{y}-{n}", "{y}/{n}"):
        return  # "2025-2026" stays a range of years (tested below)
    written = spell_document_numbers(ask.format(d=notation.format(y=year, n=number)))
    assert document_numbers(written) == (f"INV-{year}-{number}",), written


@FAST
@given(year=YEARS, number=NUMBERS, notation=st.sampled_from([
    "cn {y} {n}", "CN{y}{n}", "cn-{y}/{n}", "credit note {y}-{n}", "credit memo {y}/{n}", "Gutschrift {y}-{n}",
    "avoir {y}/{n}"]))
def test_a_credit_note_number_takes_the_type_its_words_name(year: int, number: str, notation: str) -> None:
    if number[:2] in ("19", "20"):
        return
    written = spell_document_numbers(f"{notation.format(y=year, n=number)}: which invoice, and how much?")
    assert document_numbers(written) == (f"CN-{year}-{number}",), written


@FAST
@given(year=YEARS, first=st.integers(min_value=1, max_value=999), step=st.integers(min_value=1, max_value=50),
       joint=st.sampled_from([" and ", ", ", " & ", " + "]),
       shape=st.sampled_from(["{a}{j}{b} from {y}", "{a}{j}{b} of {y}", "{a}{j}{b} ({y})", "INV-{y}-{a}{j}{b}",
                              "invoices {a}{j}{b} from {y}"]))
def test_a_series_with_one_year_names_each_invoice(year: int, first: int, step: int, joint: str, shape: str) -> None:
    a, b = f"{first:04d}", f"{first + step:04d}"
    written = spell_document_numbers(f"{shape.format(a=a, b=b, j=joint, y=year)} - VAT on both together")
    assert document_numbers(written) == (f"INV-{year}-{a}", f"INV-{year}-{b}"), written
    assert str(year) not in written.replace(f"INV-{year}-", ""), written  # the year is the series', not a period


@pytest.mark.parametrize("text", [
    "spend 2025-2026 with Gamma", "FY 2025/2026 total", "invoices dated 2026-05-11", "on 20260504", "Q1 2026 1500 EUR",
    "at 0900 in 2026", "2026-05 spend", "INV-2026-0125 and 15 more", "top 5 suppliers 2025",
])
def test_what_is_no_document_number_stays_as_typed(text: str) -> None:
    assert spell_document_numbers(text) == text


# -- duplicates in other wordings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("verb", ["received", "rcvd", "recvd", "posted", "booked", "entered", "came in", "got",
                                  "billed", "keyed", "uploaded", "showed up", "processed"])
@pytest.mark.parametrize("often", ["twice", "2x", "two times", "more than once", "double"])
def test_a_document_that_came_twice_is_a_duplicate(verb: str, often: str) -> None:
    assert _DUPLICATE.search(f"any invoices {verb} {often} for Company B in Q3?")


@pytest.mark.parametrize("text", ["any double invoices since January?", "doubles in H2?", "double bills from Beta",
                                  "factures en double", "doppelte Rechnungen 2025", "facturas duplicadas"])
def test_double_documents_are_duplicates(text: str) -> None:
    assert _DUPLICATE.search(text)


@pytest.mark.parametrize("text", ["double-check the Q1 total", "spend doubled vs Q4", "twice as much as Beta",
                                  "paid twice the price", "Beta is double the price of Gamma"])
def test_double_without_a_document_is_no_duplicate(text: str) -> None:
    assert _DUPLICATE.search(text) is None


def test_posted_twice_names_no_status() -> None:
    text = "anything posted twice for Company A in 2025?"
    spans = tuple(m.span() for m in _DUPLICATE.finditer(text))
    assert not _status_named(text, spans)
    text = "paid invoices posted twice for Company A in 2025?"
    assert _status_named(text, tuple(m.span() for m in _DUPLICATE.finditer(text)))


# -- an invoice pronoun before an amount ----------------------------------------------------------------------------
@pytest.mark.parametrize("pronoun", ["anything", "something", "any single one", "any items", "stuff", "any docs"])
@pytest.mark.parametrize("bound", ["at least 15,000", "over 10k", ">= 5000 EUR", "above EUR 20,000", "north of 20k",
                                   "under 500"])
def test_an_invoice_pronoun_before_an_amount_is_invoices(pronoun: str, bound: str) -> None:
    assert spell_document_nouns(f"Company B Q3 25 - {pronoun} {bound}?") == f"Company B Q3 25 - any invoices {bound}?"


@pytest.mark.parametrize("text", ["did we spend anything over 15k with Beta?", "anything from Gamma in Q1?",
                                  "anything else?", "did we buy something above 1000 EUR"])
def test_a_pronoun_without_a_bound_or_after_spending_stays(text: str) -> None:
    assert spell_document_nouns(text) == text


# -- invoices vs. invoices net of credit notes --------------------------------------------------------------------
@pytest.mark.parametrize("scope", ["Company A Q1 26:", "Gamma, Company B, H2 2025 -", "Kestrel FY25"])
@pytest.mark.parametrize("compared", [
    "invoices total vs net of credit notes", "invoices only (excl credit notes) gross total vs. incl CNs",
    "net of credit notes vs invoices only", "excluding credit notes and after credit notes",
    "invoice total compared to the total with credit notes",
])
def test_two_document_scopes_are_two_parts(scope: str, compared: str) -> None:
    parts = document_scope_parts(f"{scope} {compared}")
    assert parts is not None
    only, netted = parts
    assert only.startswith(scope) and netted.startswith(scope)
    assert "invoices only, excluding credit notes" in only and "net of credit notes" in netted
    assert " vs" not in only and " vs" not in netted


@pytest.mark.parametrize("text", ["Company A spend in Q1 net of credit notes", "Company A Q1 invoices only",
                                  "how many invoices, incl credit notes?", "invoices vs credit notes count Q1"])
def test_one_scope_is_one_question(text: str) -> None:
    assert document_scope_parts(text) is None


# -- AP fields the data lacks ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("asked", "label"), [
    ("which approver signed off {d}, and the gross amt", "approver"),
    ("{d} gross + the booking clerk who entered it", "booking clerk"),
    ("{d}: amount and the user who booked it?", "booking clerk"),
    ("gross of {d} and who approved it", "approver"),
    ("{d} net, plus the AP clerk", "booking clerk"),
])
@pytest.mark.parametrize("number", ["INV-2026-0521", "INV-2025-0007", "CN-2026-0500"])
def test_a_person_field_is_named_and_the_document_kept(asked: str, label: str, number: str) -> None:
    split = split_fields(asked.format(d=number))
    assert split is not None
    assert [f.label for f in split.fields] == [label]
    assert number in split.rest


# -- cut-off: the posting side written loosely (routed, the unit gazetteer) ---------------------------------------
def _listing(question: str) -> dict[str, object]:
    from tests.unit.test_router_analysis import routed

    result = routed(question)
    steps = [s for s in result.execution_plan if s.tool == "metrics.query"]
    assert len(steps) == 1, (question, result.clarification_question)
    return dict(steps[0].arguments["parameters"])


@pytest.mark.parametrize(("question", "start", "end", "posted_from", "posted_before"), [
    ("Company A - any Q4 2025 invoices only booked in the new year?", "2025-10-01", "2026-01-01", "2026-01-01",
     "2027-01-01"),
    ("cut-off test Company B Q4/25: dated in Q4 but posted 2026", "2025-10-01", "2026-01-01", "2026-01-01",
     "2027-01-01"),
    ("Company A: Q1 2026 invoices posted after 31.03.?", "2026-01-01", "2026-04-01", "2026-04-01", None),
    ("Company B: invoices of H2 2025 booked the following year", "2025-07-01", "2026-01-01", "2026-01-01",
     "2027-01-01"),
    ("Company A: invoices dated 2025 but posted after 15/01", "2025-01-01", "2026-01-01", "2026-01-16", None),
])
def test_a_cutoff_posting_side_without_its_year(question: str, start: str, end: str, posted_from: str,
                                                posted_before: str | None) -> None:
    params = _listing(question)
    assert (params["start_date"], params["end_date"], params["posted_from"]) == (start, end, posted_from)
    assert params.get("posted_before") == posted_before


# -- overdue since a day ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("since", ["since March", "from 1 March on", "from March 1st onwards", "starting 2026-03-01"])
def test_overdue_since_a_day_is_the_first_invoice_date(since: str) -> None:
    from tests.unit.test_router_analysis import AS_OF, routed

    result = routed(f"Company A - open invoices {since} that are past due today?")
    steps = {s.step_id: s for s in result.execution_plan}
    assert "overdue-invoices" in steps, result.clarification_question
    params = steps["overdue-invoices"].arguments["parameters"]
    assert params["start_date"] == "2026-03-01"
    assert params["as_of_date"] == AS_OF.isoformat()


def test_overdue_without_a_period_lists_every_open_invoice() -> None:
    from tests.unit.test_router_analysis import routed

    result = routed("Company A - which invoices are past due today?")
    params = next(s for s in result.execution_plan if s.step_id == "overdue-invoices").arguments["parameters"]
    assert "start_date" not in params


def test_the_day_without_a_year_is_after_the_period() -> None:
    from router.cutoff import _dated_day

    assert _dated_day("posted after 31.03.", dt.date(2026, 3, 31)) == "posted after 2026-03-31"
    assert _dated_day("posted after 15/01", dt.date(2025, 12, 31)) == "posted after 2026-01-15"
    assert _dated_day("posted in 2026", dt.date(2025, 12, 31)) is None


def test_a_month_end_names_the_as_at_day_not_the_first_invoice_date() -> None:
    from tests.unit.test_router_analysis import routed

    result = routed("Company A overdue amount EUR at month end April 2026")
    steps = {s.step_id: s for s in result.execution_plan}
    assert "overdue-invoices" in steps, result.clarification_question
    params = steps["overdue-invoices"].arguments["parameters"]
    assert params["as_of_date"] == "2026-04-30" and "start_date" not in params


@pytest.mark.parametrize("idiom", ["hit the books", "went into the ledger", "made it into the books",
                                   "were recorded in the books"])
def test_posting_idioms_are_the_posting_side(idiom: str) -> None:
    params = _listing(f"Company B Q4 2025 invoices that {idiom} only in January 2026?")
    assert (params["start_date"], params["posted_from"], params["posted_before"]) == ("2025-10-01", "2026-01-01",
                                                                                      "2026-02-01")


@pytest.mark.parametrize(("word", "basis"), [("Bruttobetrag", "gross"), ("Rechnungsbetrag", "gross"),
                                             ("Nettobetrag", "net"), ("MwSt-Betrag", "tax")])
def test_german_amount_compounds_ask_the_document_amount(word: str, basis: str) -> None:
    from tests.unit.test_router_analysis import routed

    result = routed(f"Rechnung 2026/0511: {word}?")
    assert result.workflow == "document_amounts", result.clarification_question
    assert f"invoice_facts:{basis}" in result.rule_hits


@pytest.mark.parametrize("compared", ["gross invoices vs after credits", "invoices gross / net of CNs"])
def test_gross_invoices_against_credits_netted(compared: str) -> None:
    parts = document_scope_parts(f"Company A Q1 2026: {compared}")
    assert parts is not None and all("gross total" in p for p in parts)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("Company A - which invoices were booked after quarter end, Q1 2026?", "2026-01-01", "2026-04-01"),
    ("Company B: which invoices got posted later - Dec 2025", "2025-12-01", "2026-01-01"),
])
def test_a_relative_posting_side_takes_the_period_after_it(question: str, start: str, end: str) -> None:
    params = _listing(question)
    assert (params["start_date"], params["end_date"], params["posted_from"]) == (start, end, end)
    assert "posted_before" not in params


def test_an_amount_beside_a_cutoff_is_asked_not_dropped() -> None:
    from tests.unit.test_router_analysis import routed

    result = routed("Company A - which invoices above 20,000 were booked after quarter end, Q1 2026?")
    assert result.requires_clarification and "amount" in (result.clarification_question or "")


@pytest.mark.parametrize("ask", ["what invoice does it relate to and what was the credit?",
                                 "which invoice, and how much was credited", "orig invoice no.? and the credit amt"])
def test_a_credit_notes_origin_and_its_amount_are_both_planned(ask: str) -> None:
    from tests.unit.test_router_analysis import routed

    result = routed(f"credit note 2026/0009 - {ask}")
    tools = [s.tool for s in result.execution_plan]
    assert result.workflow == "document_amounts", result.clarification_question
    assert "documents.search" in tools and "metrics.query" in tools


# --- the credit-note nouns of every language name the number's type (router/document_words.py's one table) ---------
@pytest.mark.parametrize("word", ["credit note", "creditnota", "Creditnota's", "creditfactuur", "kreditnota",
                                  "nota di credito", "note di  credito"])
@pytest.mark.parametrize("number", ["2026/0007", "2026-0007"])
def test_a_credit_note_word_of_any_language_types_the_number(word: str, number: str) -> None:
    text = spell_document_numbers(f"{word} {number} - amount?")
    assert "CN-2026-0007" in text and "INV-2026-0007" not in text


@pytest.mark.parametrize("word", ["factuur", "invoice", "fattura", ""])
def test_an_invoice_word_or_none_keeps_the_number_an_invoice(word: str) -> None:
    text = spell_document_numbers(f"{word} 2026/0007 - amount?".strip())
    assert "INV-2026-0007" in text and "CN-2026-0007" not in text
