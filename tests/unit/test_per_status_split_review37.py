"""Review 37: a per-status tail after a figure is an ask of its own (router/compound.py, split_asks).

"Company C spend 2026 with Supplier Beta, and how many invoices per status?": the spend is a figure of its own, so
the question has two parts (the spend, and the count per status with the company and period shared), never only the
status table with the spend dropped. "Company C invoices 2026 - how many in each status?" names documents with no
figure of their own: one question, the count of those invoices per status. Questions are generated from slots
(seeded), never from an evaluation set.
"""

from __future__ import annotations

import random

import pytest

from router.compound import split_asks
from router.reader import read
from tests.unit.test_router_status_counts import AS_OF, GAZETTEER, METRICS

COMPANIES = ("Company A", "Company B", "Company C")
SUPPLIERS = ("Supplier Beta", "Supplier Epsilon", "Beta Supplies GmbH")
PERIODS = ("2026", "in 2025", "in Q1 2026", "for Q4 2025")
FIGURES = ("{c} spend {p} with {s}", "{c} spending with {s} {p}", "total spend of {c} with {s} {p}",
           "how much did {c} spend with {s} {p}", "{c} spend amount with {s} {p}")
DOCUMENTS = ("{c} invoices {p}", "{c} invoices from {s} {p}", "the invoices of {c} with {s} {p}")
TAILS = (", and how many invoices per status?", " - how many in each status?", "; how many invoices per status?",
         ", and how many per status?", " - and how many documents by status?", ", plus how many per status")


def _read(text: str):  # type: ignore[no-untyped-def]
    return read(text, GAZETTEER, AS_OF, METRICS)


def _questions(seed: int, n: int, heads: tuple[str, ...]) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(heads).format(c=rng.choice(COMPANIES), s=rng.choice(SUPPLIERS), p=rng.choice(PERIODS))
            + rng.choice(TAILS) for _ in range(n)]


@pytest.mark.parametrize("question", _questions(37, 25, FIGURES))
def test_a_figure_before_a_per_status_tail_is_kept_as_its_own_part(question: str) -> None:
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    assert "status" in parts[1].question and "status" not in parts[0].question, (question, parts)


@pytest.mark.parametrize("question", _questions(38, 15, DOCUMENTS))
def test_documents_before_a_per_status_tail_are_one_question(question: str) -> None:
    assert split_asks(question, _read) == (), question
