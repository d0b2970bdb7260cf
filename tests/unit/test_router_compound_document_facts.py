"""A document fact beside a figure or a list in one e-mail ("how often does the manual require a calibration, and
what did Company A spend on PRD-482 in Q1 2026?"): every document-fact kind paired with every figure/list kind and
every joiner splits into two parts, the fact first (answered from the documents on its own, never dropped for the
figure), the figure part exactly as it reads asked alone. Seeded and bounded."""

from __future__ import annotations

import itertools
import random

from router.answer import Answer
from router.compound import document_fact_ask, merge_answers, split_asks
from router.german import read_german
from router.reader import read
from tests.unit.test_router_compound import AS_OF, GAZETTEER

FACTS = [
    "how often does the manual require a differential pressure calibration",
    "what order value triggers the two-signatory rule in Company A's purchasing agreement",
    "above which order value is sanctions screening required",
    "when did Company A's agreement take effect",
    "what warranty does the agreement set",
    "how long does the maintenance interval in the PRD-482 manual run",
    "was the Company A agreement in force on 22 April 2026",
]
FIGURES = [
    "what did Company A spend on PRD-482 in Q1 2026?",
    "list Company A's invoices above 25,000 EUR from H2 2025",
    "which vendors were approved for Company A on 15 January 2026?",
    "how many invoices did Company A get from Beta in Q1 2026?",
    "what was Company A's total spend in Q4 2025?",
]
JOINERS = ["{a}, and {b}", "{a}, and also {b}", "{a}; {b}", "{a}? Also, {b}", "Two items please: {a}, and {b}"]


def _read(text: str):  # type: ignore[no-untyped-def]
    return read(read_german(text) or text, GAZETTEER, AS_OF)


def test_document_fact_is_its_own_part_beside_a_figure() -> None:
    rng = random.Random(25)
    cases = list(itertools.product(FACTS, FIGURES, JOINERS))
    for fact, figure, joiner in rng.sample(cases, 40):
        question = joiner.format(a=fact[0].upper() + fact[1:] if not joiner.startswith("Two") else fact, b=figure)
        parts = split_asks(question, _read)
        assert len(parts) == 2, question
        assert document_fact_ask(parts[0].asked), question
        # the figure part reads as it does asked alone (it names its own company and period)
        alone = _read(figure)
        got = _read(parts[1].question)
        assert got.entities.company_id == alone.entities.company_id, question
        assert got.period == alone.period, question


def test_figures_are_no_document_fact() -> None:
    for figure in FIGURES:
        assert not document_fact_ask(figure), figure
    for fact in FACTS:
        assert document_fact_ask(fact), fact


def _answer(status: str, text: str) -> Answer:
    return Answer(status=status, text=text, result={}, inputs={}, sources=(), **(
        {"clarification_question": text} if status == "clarification" else {}))


def test_a_part_referring_to_an_unclear_part_is_one_clarification() -> None:
    rng = random.Random(26)
    names = ["Packaging", "Omega Automation", "Blue Widgets", "Acme Tools"]
    refs = ["who is approved for it?", "what did we spend with them in Q4 2025?", "and its invoice count",
            "which suppliers are they from?"]
    for _ in range(20):
        name, ref = rng.choice(names), rng.choice(refs)
        unclear = _answer("clarification", f"I do not know '{name}' in your data. Which one do you mean?")
        first = f"What was Company B's spend on {name} in H2 2025"
        parts = split_asks(f"{first}, and {ref}", _read)
        assert len(parts) == 2 and parts[1].refers, ref
        merged = merge_answers([(parts[0], unclear), (parts[1], _answer("answered", "SUP-18 is approved."))])
        assert merged.status == "clarification" and name in (merged.clarification_question or ""), ref
        assert "SUP-18" not in merged.text
    # a part naming its own scope, beside an unclear one: each part on its own (PARTIAL)
    own = split_asks("What was Company B's spend on Packaging in H2 2025, and which vendors are approved for "
                     "Company B on 1 June 2026?", _read)
    assert len(own) == 2 and not own[1].refers
    merged = merge_answers([(own[0], _answer("clarification", "I do not know 'Packaging'.")),
                            (own[1], _answer("answered", "SUP-18 is approved."))])
    assert merged.status == "partial"


def test_a_stated_claim_is_context_of_the_part_after_it() -> None:
    rng = random.Random(27)
    claims = ["I keep hearing that Zeta is approved for Company A", "Somebody told me Beta is approved for Company A",
              "Our records say Delta is approved for Company A", "I believe Gamma is approved for Company A"]
    for _ in range(12):
        claim = rng.choice(claims)
        question = (f"{claim}. Can you check who is actually approved for Company A on 15 May 2026, and how much "
                    "Company A spent with Zeta in Q1 2026?")
        parts = split_asks(question, _read)
        assert len(parts) == 2, question
        assert parts[0].asked.startswith(claim), question


def test_a_reported_event_and_tell_me_whether() -> None:
    rng = random.Random(28)
    for _ in range(10):
        company, supplier = rng.choice(("Company A", "Company B", "Company C")), rng.choice(("Gamma", "Beta", "Zeta"))
        question = (f"{company} got Supplier {supplier} approved from April. Could you confirm {company}'s approved "
                    f"vendors as of today and tell me whether we have spent anything with {supplier} since 1 April "
                    "2026?")
        parts = split_asks(question, _read)
        assert len(parts) == 2, question
        assert parts[0].asked.startswith(f"{company} got"), question
        assert parts[1].question.count(company) == 1, parts[1].question


def test_drafts_do_not_count_restates_the_policy() -> None:
    for rest in ("Drafts don't count for us.", "Draft invoices do not count.", "Cancelled ones should not count."):
        question = f"Did Company A have any spend with Beta in Q1 2026? {rest}"
        assert split_asks(question, _read) == (), question
        assert _read(question).asked_statuses == (), question
    assert _read("How many drafts did Company A have in Q1 2026?").asked_statuses == ("draft",)


def test_a_fact_of_it_takes_the_product_of_the_other_part() -> None:
    for figure in ("avg unit price PRD-482 march 2026 at company a", "what did Company A spend on PRD-483 in Q1 2026"):
        code = "PRD-482" if "482" in figure else "PRD-483"
        for fact in ("how often does it need calibrating?", "how often does the manual require a calibration?"):
            parts = split_asks(f"{figure}, and {fact}", _read)
            assert len(parts) == 2, fact
            assert code in parts[1].question, parts[1].question
