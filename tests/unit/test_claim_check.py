"""Claim checks (router/claim_check.py): a quoted figure is the claim to check, never a filter, in any framing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from router.claim_check import read_claim, verdict

#: Sources, stating verbs and verdicts in several languages and positions: the ask left is the same every time.
_SOURCES = ["the slide says", "our draft has", "the board memo shows", "the CFO presentation quotes",
            "el informe dice", "o relatório diz", "der Bericht sagt"]
_VERDICTS = ["correct?", "is that right?", "ok to publish?", "pls verify", "true?", "¿es correcto?", "stimmt das?",
             "right or wrong? send me the real value"]
_AMOUNTS = [("EUR 12,345.67", Decimal("12345.67"), 2), ("12.345,67 €", Decimal("12345.67"), 2),
            ("€12k", Decimal("12000"), -3), ("12.3K EUR", Decimal("12300.0"), -2), ("12,346 EUR", Decimal("12346"), 0)]


@pytest.mark.parametrize(("source", "closing"), [(s, _VERDICTS[(i * 3 + j) % len(_VERDICTS)])
                                                 for i, s in enumerate(_SOURCES) for j in range(2)])
def test_source_and_verdict_are_taken_out(source: str, closing: str) -> None:
    claim = read_claim(f"{source} EUR 8,100.00 for Gamma at Company B in May 2026, {closing}")
    assert claim is not None
    assert claim.text == "Gamma at Company B in May 2026"
    assert claim.value == Decimal("8100.00") and not claim.count


@pytest.mark.parametrize(("quoted", "value", "places"), _AMOUNTS)
def test_every_notation_is_the_claim_at_its_precision(quoted: str, value: Decimal, places: int) -> None:
    claim = read_claim(f"Company C with Lambda, 2026-02: memo has {quoted}. confirm?")
    assert claim is not None
    assert (claim.text, claim.value, claim.places) == ("Company C with Lambda, 2026-02", value, places)


def test_a_quoted_line_is_the_ask_without_its_amount() -> None:
    claim = read_claim('pls check: "Company A with Zeta: EUR 7.5K spend in 2026-Q2" - accurate?')
    assert claim is not None and claim.text == "Company A with Zeta spend in 2026-Q2"


def test_a_threshold_stays_and_the_claimed_count_goes() -> None:
    claim = read_claim('the deck: "6 invoices above 3.000 EUR at Company B in May 2026". which ones are they actually?')
    assert claim is not None and claim.count
    assert "above 3.000 EUR" in claim.text and "6 invoices" not in claim.text


def test_a_claimed_count_asks_the_count() -> None:
    claim = read_claim("#invoices from Zeta for Company B 2026-04 = 9? pls check")
    assert claim is not None and claim.count and claim.value == 9
    assert claim.text.startswith("number of invoices from Zeta")


@pytest.mark.parametrize("question", [
    "invoices above 10.000 EUR at Company A in March 2026",  # a threshold, no verdict
    "Company A spend in Q1 2026, correct?",  # a verdict, nothing quoted
    "spend between EUR 1,000 and EUR 5,000 at Company A in May, right?",  # a range: its own reader
])
def test_no_claim(question: str) -> None:
    assert read_claim(question) is None


@pytest.mark.parametrize(("quoted", "figure", "matches"), [
    ("€96k", "95941.41", True), ("€96k", "95241.41", False), ("EUR 1,477.62", "1477.62", True),
    ("EUR 1,477.62", "1477.63", False), ("100,211 EUR", "100210.91", True), ("1.9K EUR", "1949.99", True),
])
def test_verdict_compares_at_the_quoted_precision(quoted: str, figure: str, matches: bool) -> None:
    claim = read_claim(f"Company B, May 2026: draft has {quoted}. right?")
    assert claim is not None
    said = verdict(claim, "answered", {"total_spend": figure})
    assert ("does not match" not in said) is matches and figure in said


def test_verdict_of_no_data_and_of_a_question_asked_back() -> None:
    claim = read_claim("Company B, May 2026: draft has €5k. right?")
    assert claim is not None
    assert "no counted data" in verdict(claim, "no_data", {})
    assert verdict(claim, "clarification", {}) == ""


@pytest.mark.parametrize(("question", "ask"), [
    ("the memo says Company B spend fell 40 percent Q2 vs Q1 2026, right?", "Company B spend change Q2 vs Q1 2026"),
    ("draft: Lambda up 12% May vs April 2026. pls verify", "Lambda change May vs April 2026"),
    ('deck: "Zeta accounts for ~9% of Company C spend in 2026-Q1" - true?', "Zeta share of Company C spend in 2026-Q1"),
    ("is it true that valves make up about 4 % of Company A spend in May 2026?",
     "is it true that valves share of Company A spend in May 2026?"),
])
def test_a_claimed_percentage_asks_the_change_or_the_share(question: str, ask: str) -> None:
    claim = read_claim(question)
    assert claim is not None and claim.percent
    assert claim.text == ask


def test_a_document_claim_stays_a_document_question() -> None:
    assert read_claim("the deck says the penalty in the framework agreement is 5% of order value, correct?") is None


# -- negatives: a verdict word inside the ask, a year, a list size or a filter amount is never a claim --------------

@pytest.mark.parametrize("question", [
    "Can you check the 2025 invoices from Company A over EUR 5,000?",  # a year before "invoices", a threshold
    "pls check the 2026 invoices of Company B in May",
    "Please verify the top 5 invoices of Company A in Q1 2026",  # a list size
    "verify the last 3 invoices of Company C in 2025",
    "What is the actual spend with Company A on invoices of EUR 5,000 in Q1 2026?",  # a filter amount
    "real spend with Company A in Q1 2026 excluding the EUR 1,250 credit note",
    "Check invoices of exactly EUR 4,500 at Company A in Q1 2026",
    "actual spend of Company B in May 2026 without the 4,000 EUR invoice",
    "Company A spend in March 2026 on 5 invoices, actual figure",
])
def test_a_verdict_word_in_the_ask_makes_no_claim(question: str) -> None:
    assert read_claim(question) is None


@pytest.mark.parametrize("question", [
    "is it true that Lambda invoiced Company B EUR 8,100.00 in May 2026?",
    "pls verify: Company B spent EUR 8,100.00 with Lambda in May 2026",
    "Company B with Lambda, May 2026 (EUR 8,100.00?) - exact figure pls",
])
def test_a_stated_amount_is_still_the_claim(question: str) -> None:
    claim = read_claim(question)
    assert claim is not None and claim.value == Decimal("8100.00") and "8,100" not in claim.text


def test_the_verdict_compares_with_the_measure_answered() -> None:
    claim = read_claim("the deck says average invoice EUR 4,000 for Company A in Q1 2026, correct?")
    assert claim is not None
    result = {"measure": "average_invoice_value", "average_invoice_value": "7344.88", "total_spend": "139552.69"}
    said = verdict(claim, "answered", result)
    assert "7344.88" in said and "139552.69" not in said
    # a ranking or a comparison has no single total to compare with: no verdict
    ranked = verdict(claim, "answered", {"metric": "finance.spend_ranking", "total_spend": "139552.69"})
    assert "match" not in ranked


def test_a_partial_answer_gives_no_match() -> None:
    claim = read_claim("the deck says EUR 137,589.19 for YTD Company A con orbit porfa, correct?")
    assert claim is not None
    said = verdict(claim, "partial", {"total_spend": "137589.19"})
    assert "matches" not in said and "does not match" not in said and "broader" in said
