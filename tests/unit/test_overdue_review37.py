"""Review 37 of the overdue reading (router/overdue.py): a negated overdue word is asked about, never answered
with the overdue list; a question about what a document says of overdue payments goes to the document search;
constraints the governed listing does not take are named, never dropped; a truncated or partial listing gives a
partial answer; an as-at day in the past says the status is today's (no database: routed in memory).

Each case varies the slot (seeded): the company spelling, the negation or document wording, the constraint.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

COMPANIES = ("Company A", "company a", "COMP-A")


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


@pytest.mark.parametrize("seed", range(8))
def test_a_negated_overdue_word_is_asked_about(seed: int) -> None:
    rng = random.Random(370 + seed)
    company = rng.choice(COMPANIES)
    words = rng.choice(["not yet overdue", "not overdue", "not past due", "not yet past due"])
    frame = rng.choice(["{c} open invoices that are {w}", "Which invoices of {c} are {w}?",
                        "List the invoices of {c} which are {w} today"])
    result = _routed(frame.format(c=company, w=words))
    assert result.requires_clarification, (frame, words)
    assert words in (result.clarification_question or ""), result.clarification_question
    assert result.workflow != "overdue_invoices"


@pytest.mark.parametrize("seed", range(8))
def test_what_a_document_says_of_overdue_payments_is_no_listing(seed: int) -> None:
    rng = random.Random(470 + seed)
    company = rng.choice(COMPANIES)
    frame = rng.choice(["What does the agreement of {c} say about overdue invoices?",
                        "What interest is charged on overdue payments under the {c} agreement?",
                        "What does the {c} contract state about past due invoices?",
                        "Which penalty applies to overdue invoices in the agreement of {c}?",
                        "What happens under the {c} contract terms when an invoice is overdue?"])
    result = _routed(frame.format(c=company))
    assert result.workflow != "overdue_invoices", frame
    assert not any(h.startswith("overdue:") for h in result.rule_hits), (frame, result.rule_hits)


@pytest.mark.parametrize("seed", range(6))
def test_a_plain_overdue_question_still_lists(seed: int) -> None:
    rng = random.Random(570 + seed)
    company = rng.choice(COMPANIES)
    frame = rng.choice(["Which invoices of {c} are overdue?", "How many invoices of {c} are overdue today?",
                        "Which invoices of {c} are overdue under the payment terms of the agreement?"])
    result = _routed(frame.format(c=company))
    assert result.workflow == "overdue_invoices", (frame, result.clarification_question)


@pytest.mark.parametrize("seed", range(10))
def test_a_constraint_the_listing_does_not_take_is_named(seed: int) -> None:
    rng = random.Random(670 + seed)
    company = rng.choice(COMPANIES)
    frame, named = rng.choice([
        ("Which {g} invoices of {c} are overdue?", "product group"),
        ("Which invoices of {c} are overdue, excluding Supplier Beta?", "exclusion"),
        ("Which overdue {cur} invoices does {c} have?", "invoice currency"),
        ("Which invoices of {c} over EUR {n:,} are overdue?", "amount"),
        ("How many invoices of {c} above {n} EUR are past due?", "amount"),
        ("Which {st} invoices of {c} are overdue?", "status"),
    ])
    question = frame.format(c=company, g=rng.choice(["sensors", "Control Cabinets", "consumables"]),
                            cur=rng.choice(["USD", "GBP", "CHF"]), n=rng.choice([500, 5000, 12000]),
                            st=rng.choice(["paid", "draft", "cancelled"]))
    result = _routed(question)
    assert result.requires_clarification, question
    assert named in (result.clarification_question or ""), (question, result.clarification_question)
    assert result.workflow != "overdue_invoices"


@pytest.mark.parametrize("seed", range(6))
def test_the_constraints_the_listing_takes_still_list(seed: int) -> None:
    rng = random.Random(770 + seed)
    company = rng.choice(COMPANIES)
    question = rng.choice(["Which open invoices of {c} are overdue?", "Total overdue amount of {c} in EUR",
                           "Which invoices of {c} from Supplier Beta are overdue?",
                           "How many posted invoices of {c} are past due?"]).format(c=company)
    result = _routed(question)
    assert result.workflow == "overdue_invoices", (question, result.clarification_question)
