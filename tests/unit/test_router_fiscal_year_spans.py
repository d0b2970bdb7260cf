"""A fiscal year written with both calendar years it touches ("FY2025-26", "FY 2025/26", "FY25/26") is one fiscal
year when the fiscal year starts after January, and asked about when it is the calendar year; never read as the
first year with the rest left unread."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 15)


def _spans(seed: int) -> list[tuple[str, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(12):
        first = rng.randint(2019, 2030)
        left = rng.choice([str(first), f"{first % 100:02d}"])
        right = rng.choice([str(first + 1), f"{(first + 1) % 100:02d}"])
        prefix = rng.choice(["FY", "FY ", "fy", "fiscal year ", "financial year "])
        sep = rng.choice(["-", "/", " - ", "–"])
        out.append((f"{prefix}{left}{sep}{right}", first))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_a_span_with_a_calendar_fiscal_year_is_asked(seed: int) -> None:
    for words, first in _spans(seed):
        resolution = resolve_period(f"spend of Company A {words}", AS_OF, 1)
        assert resolution.time_range is None and resolution.ambiguous, words
        assert f"FY{first}" in str(resolution.reason) and f"FY{first + 1}" in str(resolution.reason), words


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("start_month", [4, 7, 10])
def test_a_span_with_a_shifted_fiscal_year_is_the_year_it_ends_in(seed: int, start_month: int) -> None:
    for words, first in _spans(seed):
        period = resolve_period(f"Company B spend {words}", AS_OF, start_month).time_range
        assert period is not None, words
        assert period.start == dt.date(first, start_month, 1), words
        assert period.end == dt.date(first + 1, start_month, 1), words


def test_years_that_do_not_follow_each_other_are_no_fiscal_year() -> None:
    resolution = resolve_period("spend FY2024-26", AS_OF, 1)
    assert resolution.time_range is None and resolution.ambiguous


def test_one_fiscal_year_and_plain_year_spans_are_unchanged() -> None:
    assert resolve_period("spend FY2026", AS_OF, 1).time_range.start == dt.date(2026, 1, 1)  # type: ignore[union-attr]
    span = resolve_period("spend 2025-26", AS_OF, 1).time_range
    assert span is not None and (span.start, span.end) == (dt.date(2025, 1, 1), dt.date(2027, 1, 1))
