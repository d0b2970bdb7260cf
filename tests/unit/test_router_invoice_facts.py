"""Invoice- and credit-note-level questions read without a database: which documents are named, which amount
(gross, net excl. VAT, VAT) or the credit note's original invoice is asked, the period net/VAT shapes, a product
manual's fact as an ask of its own beside a figure, and documents named by their kind. Seeded slot variation."""

from __future__ import annotations

import random

import pytest

from retrieval.documents import named_with_kind
from router.compound import _segments
from router.invoice_facts import amount_basis, document_numbers

SEEDS = range(40)
NUMBERS = ("INV-2026-0148", "INV-2025-0515", "CN-2026-0009", "CN-2026-0501", "INV-2026-0211")
SPELLINGS = (lambda n: n, lambda n: n.lower(), lambda n: n.replace("-", " ", 1), lambda n: n.replace("-", "_"))
GROSS = ("What's the EUR gross total of {n}?", "Total of {n} incl. VAT?", "How much was {n}?",
         "Amount of {n} including tax", "{n} brutto?", "EUR value of {n}?", "Total of {n}, VAT inclusive")
NET = ("Net amount (excl. VAT) of {n}?", "{n}: value before tax?", "What is the net of {n}?",
       "Betrag von {n} ohne MwSt?", "{n} excluding VAT", "{n} amount w/o tax", "Netto von {n}?")
TAX = ("How much VAT is on {n}?", "VAT amount of {n}", "Tax on {n} in EUR?", "MwSt auf {n}?",
       "Combined VAT on {n} and {m}?", "sales tax of {n}")


@pytest.mark.parametrize("seed", SEEDS)
def test_numbers_and_basis_whatever_the_spelling(seed: int) -> None:
    rng = random.Random(seed)
    n, m = rng.sample(NUMBERS, 2)
    spell = rng.choice(SPELLINGS)
    for frames, basis in ((GROSS, "gross"), (NET, "net"), (TAX, "tax")):
        frame = rng.choice(frames)
        text = frame.format(n=spell(n), m=spell(m))
        assert document_numbers(text)[0] == n, text
        masked = text.replace(spell(n), " ").replace(spell(m), " ")
        assert amount_basis(masked) == basis, text


def test_document_numbers_keep_order_and_drop_non_numbers() -> None:
    assert document_numbers("CN-2026-0500 and CN-2026-0501 vs INV-2026-0503; PRD-482, 2026-03-15") == (
        "CN-2026-0500", "CN-2026-0501", "INV-2026-0503")
    assert document_numbers("spend in 2026-Q1 with SUP-18") == ()


@pytest.mark.parametrize("seed", range(12))
def test_a_manual_fact_beside_a_figure_is_an_ask_of_its_own(seed: int) -> None:
    rng = random.Random(seed)
    code = rng.choice(("PRD-482", "PRD-530", "PRD-710"))
    fact = rng.choice(("Calibration interval for {c}", "What's the maintenance interval of {c}",
                       "Operating temperature range of {c}", "the torque from the {c} manual",
                       "{c} accuracy"))
    figure = rng.choice(("how many {c} did Company A buy in Q1 2026?", "what did Company B spend on {c} last quarter?",
                         "units of {c} bought by Company C in 2025?"))
    question = f"{fact.format(c=code)}, and {figure.format(c=code)}"
    parts = _segments(question)
    assert len(parts) == 2, parts
    assert parts[0] == fact.format(c=code)


def test_a_figure_without_a_manual_fact_stays_one_ask() -> None:
    assert len(_segments("Spend on PRD-482 for Company A in Q1 2026 and by supplier")) == 1


@pytest.mark.parametrize(("text", "ids", "kept"), [
    ("What does service bulletin bulletin-0007 say?", ("bulletin-0007",), ("bulletin-0007",)),
    ("Show document memo-2026-01", ("memo-2026-01",), ("memo-2026-01",)),
    ("the certificate certificate-2031-x, please", ("certificate-2031-x",), ("certificate-2031-x",)),
    ("spend in mid-2026 for Company A", ("mid-2026",), ()),
    ("And what about q1-2026?", ("q1-2026",), ()),
])
def test_documents_named_by_their_kind_are_looked_up(text: str, ids: tuple[str, ...], kept: tuple[str, ...]) -> None:
    assert named_with_kind(text, ids) == kept


def test_a_document_asked_for_itself_keeps_its_passages() -> None:
    from router.invoice_facts import _AMOUNT_WORDS, _NUMBER

    for text in ("pull up INV-2026-0161", "Do we have invoice INV-2026-0777 on file?", "Show me invoice INV-2026-0148",
                 "What's the status of invoice INV-2026-0161?"):
        assert not _AMOUNT_WORDS.search(_NUMBER.sub(" ", text)), text
