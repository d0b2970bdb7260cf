"""Review 38: "which company spent more than <amount>", "which company paid the most invoices" are no spend ranking.

A ranking of the companies by spend answers "which company spent the most"; a threshold ("more than 150,000
EUR"), a second side ("more with Beta than with Gamma") or a count ("the most invoices", "the most suppliers")
after the cue asks something else, so the comparison is asked (the span named), never the spend ranking in its
place. Seeded frames vary the subject wording, the verb, the direction, the amount, the suppliers and the period.
"""

from __future__ import annotations

import random

import pytest

from tests.unit.test_router_company_compare import PERIODS, SUPPLIERS, _ask

SEED, N = 38, 30
SUBJECTS = ("which company", "which companies", "which of our companies", "what company",
            "which of the three companies", "which entity", "which subsidiaries")
VERBS = ("spent", "did spend", "has spent", "paid", "bought", "purchased")
COUNTS = ("invoices", "suppliers", "vendors", "orders", "products", "invoice lines", "items", "units",
          "different suppliers", "purchase orders")


def _threshold_cases() -> list[str]:
    rng = random.Random(SEED)
    out = []
    for _ in range(N):
        p = rng.choice(PERIODS)[0]
        subject, verb = rng.choice(SUBJECTS), rng.choice(VERBS)
        word = rng.choice(("more", "less", "more money", "less money"))
        if rng.random() < 0.6:
            amount = rng.choice((f"{rng.randint(1, 900)},000 EUR", f"EUR {rng.randint(10, 900)}k",
                                 f"{rng.randint(1000, 99999)} euros", f"${rng.randint(1, 9)}m"))
            out.append(f"{subject} {verb} {word} than {amount} {p}?")
        else:
            x, y = rng.sample(sorted(SUPPLIERS), 2)
            out.append(f"{subject} {verb} {word} with {rng.choice(SUPPLIERS[x])} than with "
                       f"{rng.choice(SUPPLIERS[y])} {p}")
    return out


@pytest.mark.parametrize("question", _threshold_cases())
def test_more_than_after_the_cue_is_asked(question: str) -> None:
    ask = _ask(question)
    # never the spend ranking of every company in its place; a refusal names the words compared
    assert ask is None or (ask.refused is not None and not ask.bases and "than" in ask.refused), (question, ask)


def _count_cases() -> list[tuple[str, str]]:
    rng = random.Random(SEED + 1)
    out = []
    for _ in range(N):
        p = rng.choice(PERIODS)[0]
        count = rng.choice(COUNTS)
        verb = rng.choice(("paid", "used", "bought", "had", "purchased", "received"))
        if verb in ("had", "received"):
            verb = "paid"
        most = rng.choice(("the most", "the fewest", "most", "more", "the least"))
        out.append((f"{rng.choice(SUBJECTS)} {verb} {most} {count} {p}", count))
    return out


@pytest.mark.parametrize(("question", "count"), _count_cases())
def test_a_count_after_the_cue_is_asked(question: str, count: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.refused is not None and not ask.bases, (question, ask)
    assert count in ask.refused


@pytest.mark.parametrize("question", [
    "which company spent the most in 2025", "which of our companies spent the least last quarter",
    "which company spent more money in Q1 2026", "who spent more in 2025, Company A or Company C"])
def test_the_spend_ranking_still_reads(question: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "company_ranking" and ask.refused is None and ask.bases, question
