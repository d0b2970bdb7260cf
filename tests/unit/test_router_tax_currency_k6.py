"""Tax basis and currency-list words: every tax name is VAT, "incl"/"ex" before it says the basis, and currencies
listed as examples ask for every currency's row (router/tax_words.py, router/currency_lists.py)."""

from __future__ import annotations

from typing import Any

import pytest

from router.currency_lists import example_spans, list_codes
from router.foreign_words import read_foreign_words
from router.period_grammar import _INCLUDED_AFTER
from router.tax_words import BARE_WITH, other_tax_names
from tests.unit.test_router_company_sets import GAZETTEERS

TAXES = ("GST", "gst", "KDV", "DPH", "TVA", "IVA", "BTW", "MwSt", "ÁFA", "PDV", "ПДВ", "HST", "VAT")
EXCLUDING = ("ex-{t}", "ex {t}", "excl. {t}", "excluding {t}", "bez {t}", "fără {t}", "sin {t}", "without {t}",
             "{t} excluded", "{t} hariç", "{t} exkl.", "net of {t}")
INCLUDING = ("incl {t}", "incl. {t}", "including {t}", "inkl. {t}", "z {t}", "s {t}", "cu {t}", "con {t}",
             "{t} included", "{t} dahil", "{t}-inclusive")


def _read(text: str) -> str:
    found = read_foreign_words(text, GAZETTEERS["letters"])
    return found.text if found is not None else text


def _pairs(phrases: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each phrase with three of the tax names, in turn (every name meets several phrases); a bare preposition
    ("z", "s") only with an unambiguous name ("z gst" may name a supplier: tests/unit/test_router_tax_names_f1.py)."""
    pairs = [(TAXES[(i * 3 + k) % len(TAXES)], p) for i, p in enumerate(phrases) for k in range(3)]
    return [(t, p) for t, p in pairs if not (p.split()[0] in BARE_WITH and t.islower())]


@pytest.mark.parametrize(("tax", "phrase"), _pairs(EXCLUDING))
def test_a_tax_name_after_an_excluding_word_is_the_net_basis(tax: str, phrase: str) -> None:
    for frame in ("Company A spend {p} in Q1 2026", "{p}: what did Company B spend last quarter?"):
        read = _read(frame.format(p=phrase.format(t=tax)))
        assert "excluding VAT" in read, read


@pytest.mark.parametrize(("tax", "phrase"), _pairs(INCLUDING))
def test_a_tax_name_after_an_including_word_is_the_gross_basis(tax: str, phrase: str) -> None:
    read = _read(f"Company C total spend {phrase.format(t=tax)} for March 2026")
    assert "including VAT" in read, read


@pytest.mark.parametrize(("text", "expected"), [
    ("Company A spend Q1 2026 HT", "excluding VAT"), ("Company A spend Q1 2026 TTC", "including VAT"),
    ("total GST Company A 2025", "total VAT"), ("Company A's DPH in May 2026", "VAT"),
    ("Company B Q4 2025 lordo", "gross"), ("Company B Q4 2025 bruto", "gross"), ("Company B Q4 2025 nettó", "net"),
])
def test_acronyms_and_basis_words_of_other_languages(text: str, expected: str) -> None:
    assert expected in _read(text)


@pytest.mark.parametrize("text", ["btw, Company A spend Q1 2026", "Company A ht spend", "Company's spend in May 2026"])
def test_words_that_are_no_tax_name_stay_as_typed(text: str) -> None:
    assert _read(text) == text


def test_the_answer_names_the_tax_read_as_vat() -> None:
    assert other_tax_names("spend ex-GST and the KDV", "spend excluding VAT and the VAT") == ("GST", "KDV")
    found = read_foreign_words("how much ex-GST did Company C spend in Q1 2026", GAZETTEERS["letters"])
    assert found is not None and ("GST", "VAT") in found.read


@pytest.mark.parametrize("word", ["incl", "incl.", "inkl.", "included", "inclusive"])
@pytest.mark.parametrize("after", ["VAT", "gst", "tax", "credit notes", "the credit notes", "CNs", "KDV"])
def test_incl_before_a_tax_or_credit_notes_is_no_inclusive_end(word: str, after: str) -> None:
    assert _INCLUDED_AFTER.match(f" {word} {after}") is None
    assert _INCLUDED_AFTER.match(f" {word}") is not None
    assert _INCLUDED_AFTER.match(f" {word}, cheers") is not None


@pytest.mark.parametrize("listed", ["GBP, CHF etc", "GBP/CHF etc.", "quid vs euros vs anything else",
                                    "USD and others", "e.g. GBP/USD", "such as CHF and GBP", "GBP, USD usw.",
                                    "EUR, PLN itd.", "dollars, pounds and so on", "z.B. CHF, GBP",
                                    "GBP vs everything else", "CHF, GBP or any other currency"])
@pytest.mark.parametrize("frame", ["Company A spend by invoice currency Q3 2025 - {l}",
                                   "how much did Company B pay in {l} last quarter"])
def test_currencies_listed_as_examples_are_read_as_examples(listed: str, frame: str) -> None:
    text = frame.format(l=listed)
    assert any(listed.split()[0] in text[a:b] for a, b in example_spans(text)), text


@pytest.mark.parametrize("text", ["GBP or USD invoices only", "spend in GBP and USD", "CHF invoices", "in EUR"])
def test_currencies_named_as_a_filter_are_no_examples(text: str) -> None:
    assert example_spans(text) == ()


@pytest.mark.parametrize(("listed", "codes"), [
    ("quid, francs, euros", ("GBP", "CHF", "EUR")), ("GBP or USD", ("GBP", "USD")), ("bucks and quid", ("USD", "GBP")),
    ("złoty/EUR", ("PLN", "EUR")),
])
def test_listed_currency_words_are_their_codes(listed: str, codes: tuple[str, ...]) -> None:
    assert list_codes(listed) == codes


# --- routed (no database) -----------------------------------------------------------------------------------------
def _routed(question: str) -> Any:
    from tests.unit.test_router_invoice_facts import _routed as routed

    return routed(question)


def _params(routed: Any) -> dict[str, Any]:
    return next(dict(s.arguments.get("parameters") or {}) for s in routed.execution_plan)


@pytest.mark.parametrize("question", ["Company A total spend jul-dec 25 incl gst/vat cheers",
                                      "Company B Q1 2026 KDV dahil", "Company C spend Mar 2026 TTC"])
def test_the_gross_basis_is_the_governed_spend_never_the_tax(question: str) -> None:
    routed = _routed(question)
    assert not routed.requires_clarification, routed.clarification_question
    assert not any("period_tax" in (s.arguments.get("metric") or "") for s in routed.execution_plan), question


@pytest.mark.parametrize("question", ["how much ex-GST did Company B spend with Supplier Beta in Q3 2025",
                                      "Company A spend Q1 2026 bez VAT", "Company C Q4 2025 spend HT"])
def test_the_net_basis_is_the_net_measure(question: str) -> None:
    routed = _routed(question)
    assert any(s.arguments.get("metric") == "finance.net_spend" for s in routed.execution_plan), question


@pytest.mark.parametrize("question", ["how much did Company A pay in quid vs euros vs anything else in Q1 2026",
                                      "Company B spend by invoice currency Q3 2025 - GBP, CHF etc",
                                      "split of Company A spend by currency Q1 2026 - quid, francs, euros"])
def test_currency_examples_ask_every_currency(question: str) -> None:
    routed = _routed(question)
    assert not routed.requires_clarification, routed.clarification_question
    params = _params(routed)
    assert "document_currencies" not in params and "document_currency" not in params, params


def test_two_currencies_joined_by_or_are_a_filter_of_both() -> None:
    assert _params(_routed("Company A spend Q1 2026 GBP or USD invoices only"))["document_currencies"] == ["GBP",
                                                                                                          "USD"]


def test_incl_credit_notes_after_a_period_takes_both_document_types() -> None:
    routed = _routed("Company B spend with Supplier Beta, Jul 25 - Mar 26 incl. credit notes: net effect?")
    assert all("document_types" not in (s.arguments.get("parameters") or {}) for s in routed.execution_plan)


@pytest.mark.parametrize("noun", ["position", "effect", "balance", "result"])
@pytest.mark.parametrize("frame", ["Supplier Beta, Company B, net {n} Feb+Mar 2026 (after the credit note)?",
                                   "Company A net {n} with Supplier Gamma in Q1 2026"])
def test_net_before_a_netting_noun_is_the_spend_with_credit_notes_netted(noun: str, frame: str) -> None:
    read = _read(frame.format(n=noun))
    assert "spend" in read and f"net {noun}" not in read, read
