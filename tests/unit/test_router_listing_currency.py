"""An invoice listing "in EUR" (issue 20): naming the company's reporting currency says how the listing's amounts
are shown, which they are anyway; it never turns the listing into another question. A non-reporting currency is an
invoice currency the governed listing cannot filter by: still asked about, never dropped.

Slots vary over the listing verb, the company spelling, the period and how the currency is written; a seeded
bounded sample, each compared with the same listing asked without the currency.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.unit.test_router_analysis import PERIODS, routed

SEED = 20
_VERBS = ("List", "Show", "Show me", "Display", "Pull", "Please list", "Can you list")
_COMPANIES = (("Company A's", "COMP-A"), ("COMP-A", "COMP-A"), ("Company B's", "COMP-B"), ("company b", "COMP-B"),
              ("COMP-B", "COMP-B"))
_REPORTING = (" in EUR", " in euros", " in €", ", amounts in EUR", " with amounts in EUR", ", shown in EUR",
              " in eur")
_OTHER = (" in USD", " in GBP", " in CHF", " in US dollars", ", amounts in USD")


def _listing(result: Any) -> dict[str, Any]:
    assert not result.requires_clarification, result.clarification_question
    [step] = [s for s in result.execution_plan if s.tool == "finance.invoices_above_threshold"]
    return dict(step.arguments)


def _cases(n: int, tails: tuple[str, ...]) -> list[tuple[str, str, str]]:
    rng = random.Random(SEED + len(tails))
    out: list[tuple[str, str, str]] = []
    for _ in range(n):
        company, cid = rng.choice(_COMPANIES)
        period = rng.choice(PERIODS)[0]
        plain = f"{rng.choice(_VERBS)} {company} invoices {period}"
        out.append((plain, plain + rng.choice(tails), cid))
    return out


@pytest.mark.parametrize(("plain", "question", "company"), _cases(30, _REPORTING), ids=lambda v: str(v)[:60])
def test_a_listing_in_the_reporting_currency_is_the_listing(plain: str, question: str, company: str) -> None:
    expected = _listing(routed(plain))
    assert expected["threshold"] == "0.00" and expected["inclusive"], (plain, expected)
    resolved = [s.arguments for s in routed(question).execution_plan if s.tool == "entity.resolve_company"]
    assert resolved == [{"company_id": company}], (question, resolved)
    assert _listing(routed(question)) == expected, question


@pytest.mark.parametrize(("plain", "question", "company"), _cases(15, _OTHER), ids=lambda v: str(v)[:60])
def test_a_listing_in_another_currency_is_still_asked_about(plain: str, question: str, company: str) -> None:
    result = routed(question)
    assert result.requires_clarification, (question, result.execution_plan)
    assert "cannot be limited to an invoice currency" in (result.clarification_question or ""), question
