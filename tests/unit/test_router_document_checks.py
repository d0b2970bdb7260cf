"""Documents, approvals and invoice checks in other words: French and Spanish check words (duplicates, the close,
approvals, a document's currency, the payment term), "between <day> and the end of <month>", cut-offs "after the
period end", a credit note's "orig inv", one named document asked in several sentences, remarks and announced asks
set aside, approved vendors "with zero spend". Phrasings written for these tests; database-free and fast."""

from __future__ import annotations

import datetime as dt
import types

import pytest

from router.compound import split_asks
from router.context_noise import set_aside_context
from router.cutoff import cutoff_request
from router.duplicates import _DUPLICATE, _OTHER_NOUN
from router.idle_vendors import idle_spans
from router.invoice_facts import document_request
from router.periods import resolve_period
from router.reader import read
from router.romance import read_romance
from tests.unit.test_router_routing import AS_OF, GAZETTEER, routed


def _read(text: str):  # type: ignore[no-untyped-def]
    return read(text, GAZETTEER, AS_OF)


@pytest.mark.parametrize(("question", "expected"), [
    ("¿Hay facturas duplicadas de la Cie B en 2025?", "duplicate invoices"),
    ("doublons chez Company A au T1 2026", "duplicates"),
    ("factures enregistrées deux fois en 2025 ?", "received twice"),
    ("facturas recibidas dos veces en enero de 2026", "received twice"),
    ("factures de mars 2026 comptabilisées après la clôture", "March 2026"),
    ("factures de mars 2026 comptabilisées après la clôture", "period end"),
    ("fournisseurs agréés de la Cie A pour le T3 2026", "approved suppliers"),
    ("proveedores aprobados para Company C en 2026", "approved suppliers"),
    ("en quelle devise est la facture INV-2026-0101 ?", "currency"),
    ("plazo de pago del contrato de Company B", "payment terms"),
    ("Company C: conditions de paiement et garantie ?", "payment terms"),
    ("Company A invoices over 5 000 € in T2/2026", "Q2 2026"),
])
def test_romance_check_words_read_in_english(question: str, expected: str) -> None:
    assert expected in (read_romance(question) or ""), read_romance(question)


def test_a_name_or_an_english_question_is_not_rewritten() -> None:
    assert read_romance("Mars Wrigley spend in Q1 2026") is None  # "Mars" without a year after it is a name
    assert read_romance("which invoices were exported twice in 2025?") is None


@pytest.mark.parametrize(("text", "start", "end"), [
    ("between 15 March 2025 and the end of June 2025", dt.date(2025, 3, 15), dt.date(2025, 7, 1)),
    ("between 2025-10-01 and end of January 2026", dt.date(2025, 10, 1), dt.date(2026, 2, 1)),
    ("between Feb 2026 and end of May 2026", dt.date(2026, 2, 1), dt.date(2026, 6, 1)),
    ("between September 2025 and the end of December 2025", dt.date(2025, 9, 1), dt.date(2026, 1, 1)),
])
def test_a_range_to_the_end_of_a_month_includes_that_month(text: str, start: dt.date, end: dt.date) -> None:
    found = resolve_period(text, AS_OF)
    assert found.time_range is not None and not found.ambiguous, found
    assert (found.time_range.start, found.time_range.end) == (start, end)


def test_duplicated_supplier_invoices_are_documents_not_suppliers() -> None:
    for text in ("duplicated supplier invoices for Company B", "duplicate vendor invoices in Q1",
                 "duplicated supplier credit notes"):
        found = _DUPLICATE.search(text)
        assert found is not None and _OTHER_NOUN.match(text[found.end():]) is None, text
    for text in ("duplicate suppliers in the master data", "duplicated vendor records"):
        found = _DUPLICATE.search(text)
        assert found is not None and _OTHER_NOUN.match(text[found.end():]) is not None, text


@pytest.mark.parametrize("posting", ["posted after the period end", "booked after quarter-end",
                                     "only posted after the close", "booked after the month end (cut-off)"])
def test_a_cut_off_after_the_period_end_is_open_ended_from_it(posting: str) -> None:
    req = cutoff_request(types.SimpleNamespace(text=f"which invoices dated May 2026 were {posting}?",
                                               as_of=dt.date(2026, 7, 1)))  # type: ignore[arg-type]
    assert req is not None, posting
    assert (req.start, req.end, req.posted_from, req.posted_before) == (
        dt.date(2026, 5, 1), dt.date(2026, 6, 1), dt.date(2026, 6, 1), None)


@pytest.mark.parametrize("question", ["CN-2026-0042 orig inv?", "orig. invoice of CN-2026-0042",
                                      "CN-2026-0042: orig inv number please"])
def test_orig_asks_the_credit_notes_original_invoice(question: str) -> None:
    req = document_request(_read(question))
    assert req is not None and req.kind == "origin", req


def test_a_date_beside_a_credit_notes_reference_does_not_date_its_record() -> None:
    result = routed("which original invoice was CN-2026-0042 raised against (see minutes of 12/03/2026)?")
    assert result.workflow == "credit_note_origin"
    assert result.constraints.time_range is None


@pytest.mark.parametrize("question", [
    "Please pull up invoice INV-2026-0101. What is its gross total?",
    "Invoice INV-2026-0101 - in which currency was it issued, and what is it in EUR?",
    "INV-2026-0101 for Company B, how much VAT?",
    "Can you find INV-2026-0101 for me? Its amount excl. VAT is what I need.",
])
def test_sentences_about_one_named_document_are_one_question(question: str) -> None:
    assert split_asks(question, _read) == (), question


def test_a_figure_beside_a_named_document_is_an_ask_of_its_own() -> None:
    parts = split_asks("What is the gross total of INV-2026-0101, and what did Company A spend in Q1 2026?", _read)
    assert len(parts) == 2


@pytest.mark.parametrize(("message", "kept", "gone"), [
    ("What is the gross of INV-2026-0101? The vendor claims it was posted in February.", "INV-2026-0101",
     "February"),
    ("Is INV-2026-0101 paid, and what is its total? I saw it in the ledger last week.", "its total", "ledger"),
    ("Which invoices came in twice in Q1 2026? At my previous job we called this the double-posting check.",
     "Q1 2026", "double-posting"),
])
def test_a_remark_after_the_ask_is_set_aside(message: str, kept: str, gone: str) -> None:
    pruned = set_aside_context(message.replace("At my previous job", "In my previous job"), ())
    assert kept in pruned.text and gone not in pruned.text, pruned
    assert any(a.startswith("remark") for a in pruned.aside)


def test_a_hedge_or_a_name_in_a_remark_stays_a_constraint() -> None:
    for message in ("Which invoices were posted late? I think it was in Q1 2026.",
                    "Which invoices came in twice? The supplier says it was Company B."):
        pruned = set_aside_context(message, ())
        assert not any(a.startswith("remark") for a in pruned.aside), pruned


def test_announced_asks_are_set_aside_the_company_kept() -> None:
    pruned = set_aside_context("Three questions from the audit checklist (Company B): spend in Q1 2026, its invoice "
                               "count, and duplicate invoices in Q1 2026", ())
    assert pruned.text.startswith("(Company B)"), pruned
    assert any(a.startswith("announced asks") for a in pruned.aside)


@pytest.mark.parametrize("question", ["approved vendors with zero spend for Company A in Q1 2026",
                                      "which approved suppliers had 0 invoices in 2025?",
                                      "Company B approved vendors having zero purchases last quarter"])
def test_approved_vendors_with_zero_spend_are_the_idle_list(question: str) -> None:
    assert idle_spans(question), question


def test_swiss_thousands_are_one_amount_in_the_rewritten_reading() -> None:
    # the notation pass (router.notation) runs before the French/Spanish rewrite and joins the Swiss thousands
    from router.notation import read_notation

    notation = read_notation("Cie B : factures over 12'500.00 EUR (TTC) au T3 2025", ["Company B"])
    assert "over 12500.00 EUR" in (read_romance(notation) or "")


@pytest.mark.parametrize(("question", "topic"), [
    ("Company B sanctions screening threshold", "sanctions screening"),
    ("above which order value does Company C's agreement require a sanctions check?", "sanctions screening"),
    ("for how long does Company A's contract keep spare parts available?", "spare parts"),
    ("Company C: does the agreement cover spare parts after the last delivery, and for how long?", "spare parts"),
])
def test_sanctions_and_spare_parts_are_clauses_of_the_agreement(question: str, topic: str) -> None:
    from router.agreement_clauses import clause_request

    req = clause_request(_read(question))
    assert req is not None and req.topics == (topic,), req


def test_a_signing_limit_is_still_the_signatories_clause() -> None:
    from router.agreement_clauses import clause_request

    req = clause_request(_read("Company A agreement: signing threshold for orders?"))
    assert req is not None and req.topics == ("signatories",), req


@pytest.mark.parametrize("question", ["gamma approval company a valid to", "approval of Beta for Company B valid until",
                                      "Zeta approval at Company C valid through?"])
def test_an_approval_valid_to_asks_its_end(question: str) -> None:
    from router.approval_validity import asks_approval_end

    assert asks_approval_end(question), question


def test_an_agreement_named_by_a_group_subject_is_its_approval_list() -> None:
    from router.agreement_subject import agreement_by_subject

    groups = ["Sensors", "Monitoring Products"]
    found = agreement_by_subject("who is approved for Company A under the sensors supply agreement in Q1 2026?",
                                 groups)
    assert found is not None and found.text == "who is approved for Company A under the supply agreement in Q1 2026?"
    # a clause, a figure, or a company's or supplier's agreement keep their reading
    assert agreement_by_subject("payment terms of the sensors agreement", groups) is None
    assert agreement_by_subject("approved vendors under the Company A agreement", groups) is None
    assert agreement_by_subject("approved vendors for Sensors at Company A", groups) is None


def test_a_heard_amendment_after_the_ask_is_a_remark() -> None:
    pruned = set_aside_context("Which vendors are approved for Company C in Q3 2026? We heard there was an amendment "
                               "in spring.", ())
    assert pruned.text.rstrip("?") == "Which vendors are approved for Company C in Q3 2026", pruned
