"""Review 38: an agent's unmarked end_date / period_end / date_to / valid_to is inclusive (its last day counted).

Written "from a to b" the reader took b as excluded ("start_date=2026-03-01, end_date=2026-03-18" summed to 03-17);
by convention such parameters are inclusive unless marked exclusive. Seeded: the parameter names, separators, days
and the exclusive markers vary; the resolved period is compared with the days meant.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from router.periods import resolve_period
from router.tool_syntax import tool_style

_STARTS = ("start_date", "period_start", "date_from", "from_date", "valid_from")
_ENDS = ("end_date", "period_end", "date_to", "to_date", "valid_to")
_EXCLUSIVE = (" (exclusive)", " (excl.)", " (end exclusive)", " exclusive", " (not included)")


@pytest.mark.parametrize("seed", range(60))
def test_unmarked_end_is_inclusive_marked_end_exclusive(seed: int) -> None:
    rng = random.Random(3800 + seed)
    a = dt.date(2025, 7, 1) + dt.timedelta(days=rng.randrange(400))
    b = a + dt.timedelta(days=rng.randint(1, 90))
    sep = rng.choice(("=", ": ", " ", "="))
    joint = rng.choice((", ", "; ", " and ", ", "))
    marked = rng.random() < 0.4
    tail = rng.choice(_EXCLUSIVE) if marked else ""
    form = f"{rng.choice(_STARTS)}{sep}{a}{joint}{rng.choice(_ENDS)}{sep}{b}{tail}"
    text = tool_style(f"{form}: spend of {rng.choice(('Company A', 'COMP-B', 'Company C'))}")
    found = resolve_period(text, dt.date(2026, 12, 31)).time_range
    end = b if marked else b + dt.timedelta(days=1)
    assert found is not None and (found.start, found.end) == (a, end), (form, text, found)
    assert ("through" in text) != marked, text
