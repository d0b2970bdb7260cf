"""Negative tests of the review of this stop's merges (findings 4, 5, 7, 10's message, 11): a credit note's
company or supplier is no origin ask, an invoice number beside a company and a period is a document question, a
number with no guess cue and an amount no step uses are named, an ask has no 'figure below', one table each.
Database-free: the router of tests/unit/test_router_metric_shape_k7.py (the lookup-first classifier)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from router.unread_words import unread_note, with_unread_words
from router.unused_spans import counted_question, guess_cue, unplanned_amounts, unused_digit_tokens
from tests.unit.test_router_metric_shape_k7 import PASSAGES, _route

# --- finding 4: "correspond", "initially" are the origin only beside an invoice noun ------------------------------


@pytest.mark.parametrize("question", [
    "Which company does credit note CN-2026-0007 correspond to?",
    "Which supplier issued credit note CN-2026-0007 initially?",
    "CN-2026-0007: when was it issued initially?",
    "credit note CN-2026-0007 corresponds to which vendor?",
])
def test_a_company_supplier_or_date_asked_of_a_credit_note_is_no_origin(question: str) -> None:
    assert _route(question).workflow != "credit_note_origin"


@pytest.mark.parametrize("question", [
    "To which invoice does credit note CN-2026-0007 correspond?",
    "avoir CN-2026-0042 -> facture initiale ?",
    "nota de crédito CN-2026-0042 factura inicial",
])
def test_correspond_or_initial_beside_an_invoice_noun_is_the_origin(question: str) -> None:
    assert _route(question).workflow == "credit_note_origin"


# --- finding 5: an invoice number is a document cue ----------------------------------------------------------------


@pytest.mark.parametrize("question", [
    "Show invoice INV-2026-0120 of Company A from January 2026",
    "Company A Q1 2026 the INV-2026-0120 reference pls",
    "Company A January 2026 INV-2026-0120 pdf",
])
def test_an_invoice_number_beside_a_company_and_period_is_the_document(question: str) -> None:
    result = _route(question)
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow in PASSAGES


# --- finding 7: a number is a guess only with a cue; an amount no step uses is named ------------------------------


@pytest.mark.parametrize(("question", "named"), [
    ("how many Company A invoices in March 2026 had 2 lines", "2"),
    ("how many Company A invoices in March 2026 with 3 positions", "3"),
])
def test_a_count_beside_a_count_plan_without_a_guess_cue_is_named(question: str, named: str) -> None:
    result = _route(question)
    assert result.requires_clarification or named in result.unread


def test_a_count_with_a_guess_cue_is_the_guess() -> None:
    result = _route("how many Company A invoices in March 2026 = 8?")
    assert "8" not in result.unread


@pytest.mark.parametrize(("question", "named"), [
    ("Company A spend 1.250 EUR Q1 2026", "1.250 EUR"),
    ("Company A spend EUR 900 in Q1 2026", "EUR 900"),
])
def test_an_amount_no_step_uses_is_named(question: str, named: str) -> None:
    result = _route(question)
    assert result.requires_clarification or named in result.unread, (result.workflow, result.unread)


@pytest.mark.parametrize("question", [
    "Company A spend Q1 2026 invoices above 1.250 EUR",
    "the report says EUR 12,345.00 for Company A with Gamma Controls in Feb 2026, what is right?",
])
def test_an_amount_the_plan_uses_or_a_claim_is_not_named(question: str) -> None:
    assert not any("EUR" in u for u in _route(question).unread)


def test_guess_cues() -> None:
    text = "how many invoices had 2 lines"
    assert not guess_cue(text, text.index("2"), text.index("2") + 1)
    assert unused_digit_tokens(text, [], kinds=frozenset({"count"})) == ("2",)
    said = "the memo says 8 invoices"
    assert guess_cue(said, said.index("8"), said.index("8") + 1)


def test_unplanned_amounts_checks_the_plans_parameters() -> None:
    text = "Company A spend 1.250 EUR Q1 2026"
    amount = SimpleNamespace(start=16, end=25, value=1250)
    assert unplanned_amounts(text, [amount], "spend", [("finance.company_spend", {"start_date": "2026-01-01"})]) \
        == ("1.250 EUR",)
    assert unplanned_amounts(text, [amount], "spend", [("finance.company_spend", {"threshold": 1250})]) == ()
    assert unplanned_amounts(text, [amount], "spend_threshold", [("finance.company_spend", {})]) == ()


# --- finding 10's message: an ask says nothing of a figure below ----------------------------------------------------


@pytest.mark.parametrize("question", ["Company A spend in March 2026 on 5 invoices",
                                      "Company A spend in March 2026 per 2 weeks"])
def test_an_ask_names_no_figure_below(question: str) -> None:
    result = _route(question)
    assert result.requires_clarification
    assert "figure below" not in (result.clarification_question or "")


def test_a_length_of_time_is_no_list_of_that_many() -> None:
    assert "list of that many" not in counted_question("2 weeks")
    assert "list of that many" in counted_question("5 invoices")


def test_the_unread_note_of_a_clarification_has_no_figure() -> None:
    assert "figure below" not in unread_note(["5"], figure=False)
    asked = SimpleNamespace(status="clarification", result={}, text="Which company?",
                            clarification_question="Which company?")
    asked.model_copy = lambda update: SimpleNamespace(**{**vars(asked), **update})
    marked = with_unread_words(asked, ["5"])
    assert "figure below" not in marked.text and "'5'" in marked.text


# --- finding 11: one table each --------------------------------------------------------------------------------------


def test_one_table_each() -> None:
    from router import envelope, foreign_words, price_phrases

    assert not hasattr(foreign_words, "LIST_PRICE")
    assert {"liste fiyatı", "katalogpris", "preço de tabela"} <= set(price_phrases.LIST_PRICES)
    assert envelope._CHAT_COURTESY <= envelope.CHAT_WORDS and envelope._CHAT_COURTESY <= envelope._COURTESY
    read = foreign_words.read_foreign_words("liste fiyatı PRD-100", foreign_words.Gazetteer.build([], [], [], []))
    assert read is not None and "list price" in read.text
