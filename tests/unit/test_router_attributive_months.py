"""A month named as the adjective of what is counted or summed ("which march invoices", "company a's may spend"):
the month, as "in march" is, for every month name and noun; left unread it was silently dropped (a listing over
every date on file, or a cut-off list read as the open invoices of the posting month). "may" as a verb stays one."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 15)
_MONTHS = (("january", 1), ("Feb", 2), ("march", 3), ("April", 4), ("the may", 5), ("sept", 9), ("December", 12))
_NOUNS = ("invoices", "invoice", "spend", "credit notes", "bills", "purchases", "costs", "payments")


def _latest(month: int) -> dt.date:
    year = AS_OF.year if dt.date(AS_OF.year, month, 1) <= AS_OF else AS_OF.year - 1
    return dt.date(year, month, 1)


@pytest.mark.parametrize(("month", "number"), _MONTHS)
def test_a_month_before_a_document_or_figure_noun_is_that_month(month: str, number: int) -> None:
    for frame, noun in itertools.product(("which {m} {n} of company a", "company a {m} {n}",
                                          "how many {m} {n} did company a get"), _NOUNS):
        question = frame.format(m=month, n=noun)
        read = resolve_period(question, AS_OF)
        assert read.time_range is not None and not read.ambiguous, question
        assert read.time_range.start == _latest(number), question


@pytest.mark.parametrize("question", ["we may spend more on sensors", "they may invoice us later",
                                      "company a spend that may costs rise"])
def test_may_as_a_verb_is_no_month(question: str) -> None:
    read = resolve_period(question, AS_OF)
    assert read.time_range is None, question


def test_a_month_with_its_year_keeps_the_year() -> None:
    read = resolve_period("march 2025 invoices of company a", AS_OF)
    assert read.time_range is not None and read.time_range.start == dt.date(2025, 3, 1)
