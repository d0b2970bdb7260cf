"""Approved vendors without spend, narrowed by what the list cannot carry (review 38): a currency, an amount, an
invoice status. The idle-vendor list is rebuilt from company, group and period only, so a narrowing is never
dropped silently: it is asked about, naming it. Seeded slots (company, period, narrowing); no database."""

from __future__ import annotations

import random

from router.routing import route
from tests.unit.test_router_compound_parts import INPUTS

_COMPANIES = ("Company A", "Company C", "company b")
_PERIODS = ("in Q1 2026", "in 2025", "in March 2026", "in Q4 2025")
_LEADS = ("Which approved vendors of {c} had no {x} {p}?", "List the approved vendors of {c} with no {x} {p}.",
          "Which of {c}'s approved suppliers had no {x} {p}?")
#: (the narrowing as asked, the word its clarification must name)
_NARROWINGS = (("spend in USD", "USD"), ("spend in GBP", "GBP"), ("spend above 5,000 EUR", "5,000"),
               ("spend over 10k", "10k"), ("posted invoices", "posted"), ("paid invoices", "paid"),
               ("spend at least €2,500", "2,500"))


def test_a_narrowed_idle_vendor_list_is_asked_about() -> None:
    rng = random.Random(3801)
    for _ in range(24):
        c, p = rng.choice(_COMPANIES), rng.choice(_PERIODS)
        x, named = rng.choice(_NARROWINGS)
        q = rng.choice(_LEADS).format(c=c, x=x, p=p)
        result = route(q, INPUTS)
        assert result.requires_clarification, (q, result.workflow, result.execution_plan)
        assert named in (result.clarification_question or ""), (q, result.clarification_question)
        assert not result.idle_vendors, q


def test_the_plain_idle_vendor_list_is_still_routed() -> None:
    rng = random.Random(3802)
    for _ in range(8):
        c, p = rng.choice(_COMPANIES), rng.choice(_PERIODS)
        q = rng.choice(_LEADS).format(c=c, x=rng.choice(("spend", "recognised spend", "invoices")), p=p)
        result = route(q, INPUTS)
        assert result.idle_vendors and not result.requires_clarification, (q, result.clarification_question)
