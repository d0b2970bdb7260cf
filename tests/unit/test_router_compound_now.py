"""A compound part with its own time ("approved vendors company c now + their spend in q1 26"): the list is as of
the as-of date, never the later part's period carried into it; the figure part keeps its own period. Seeded slot
variation over companies, periods and joiners."""

from __future__ import annotations

import random

import pytest

from router.compound import split_asks
from router.reader import read
from tests.unit.test_router_analysis import AS_OF
from tests.unit.test_router_company_sets import GAZETTEERS

COMPANIES = ("company c", "Company A", "company b")
PERIODS = ("q1 26", "Q1 2026", "2025", "H2 2025")
JOINERS = (" + ", ", and ", " and also ", "; ")
NOWS = ("now", "right now", "currently", "today")


@pytest.mark.parametrize("seed", range(16))
def test_the_approved_list_now_keeps_its_own_time(seed: int) -> None:
    rng = random.Random(seed)
    company, period = rng.choice(COMPANIES), rng.choice(PERIODS)
    question = (f"approved vendors {company} {rng.choice(NOWS)}{rng.choice(JOINERS)}their spend in {period}")
    parts = split_asks(question, lambda t: read(t, GAZETTEERS["letters"], AS_OF, (), None))
    assert len(parts) == 2, (question, parts)
    assert period not in parts[0].question and period not in parts[0].carried, (question, parts[0])
    assert period in parts[1].question, (question, parts[1])
