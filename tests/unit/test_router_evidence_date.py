"""Which date documents are quoted as of: the date the question names, else the as-of date (no database)."""

from __future__ import annotations

import datetime as dt

import pytest

from router.routing import RouterInputs, route
from router.service import evidence_date
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS


def _date(question: str) -> dt.date:
    return evidence_date(route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)),
                         AS_OF)


@pytest.mark.parametrize(("question", "expected"), [
    ("What is the warranty period in Company B's framework agreement?", AS_OF),
    ("What was the warranty period in Company B's framework agreement on 2026-03-01?", dt.date(2026, 3, 1)),
    ("What was the warranty period in Company B's framework agreement in Q1 2026?", dt.date(2026, 3, 31)),
    ("What was the warranty period in Company B's framework agreement in March 2026?", dt.date(2026, 3, 31)),
    # a period still running is read as far as it has run
    ("What is the warranty period in Company B's framework agreement in 2026?", AS_OF),
    # a figure's period does not date the documents; a single day does
    ("What did Company A spend with Supplier Beta in Q1 2026?", AS_OF),
])
def test_the_question_dates_the_evidence(question: str, expected: dt.date) -> None:
    assert _date(question) == expected


@pytest.mark.parametrize("question", [
    'Which documents mention "Incoterms 2020"?',
    "Which documents mention “Incoterms 2020”?",
])
def test_a_year_inside_a_quoted_phrase_dates_nothing(question: str) -> None:
    assert _date(question) == AS_OF
