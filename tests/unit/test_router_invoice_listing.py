"""Invoice listings asked without a listing verb read like "List ...": a bare noun phrase ("Company A invoices in
March 2026?") and "which ... invoices are dated ..." (metamorphic over company, supplier and period, day ranges
included); questions that ask something else of the invoices stay what they were."""

from __future__ import annotations

import itertools

import pytest

from tests.unit.test_router_routing import routed

PERIODS = ["in March 2026", "between 1 and 15 March 2026", "from 1 Jan through 24 Jan 2026", "in Q1 2026",
           "between 2026-02-01 and 2026-02-20", "last quarter"]
#: (phrasing, its "List ..." twin); {c} company, {s} supplier, {p} period.
FRAMES = [
    ("{c} invoices {p}?", "List {c} invoices {p}"),
    ("{c} invoices from {s} {p}", "List {c} invoices from {s} {p}"),
    ("which {s} invoices ({c}) are dated {p}?", "List {c} invoices from {s} {p}"),
    ("Which invoices of {c} were issued {p}?", "List {c} invoices {p}"),
]
COMPANIES = ["Company A", "Company B"]


def _plan(question: str) -> tuple[str, list[tuple[str, dict[str, object]]]]:
    result = routed(question)
    return result.workflow, [(s.tool, s.arguments) for s in result.execution_plan]


CASES = [*itertools.product(FRAMES, PERIODS, COMPANIES[:1]), (FRAMES[0], PERIODS[1], COMPANIES[1])]


@pytest.mark.parametrize(("frame", "period", "company"), CASES)
def test_an_invoice_listing_without_a_verb_reads_as_the_listing(frame: tuple[str, str], period: str,
                                                                 company: str) -> None:
    asked, twin = (f.format(c=company, s="Supplier Beta", p=period) for f in frame)
    plan = _plan(asked)
    assert plan == _plan(twin), asked
    assert any(tool == "finance.invoices_above_threshold" for tool, _ in plan[1]), asked


@pytest.mark.parametrize("question", [
    "How many Company A invoices in March 2026?",
    "Company A invoices in March 2026 - total?",
    "Company A paid invoices in March 2026?",
    "Why are Company A invoices in March 2026 late?",
])
def test_other_questions_about_invoices_are_no_listing(question: str) -> None:
    plan = _plan(question)
    assert not (plan[0] == "metric" and any(tool == "finance.invoices_above_threshold" and
                                            args.get("threshold") == "0.00" for tool, args in plan[1])), question


#: The question word last, after the invoices it asks about: one question, not a listing plus a bare part.
TRAILING = [
    ("{s} invoices {c}, {p}: how many?", "How many {c} invoices from {s} {p}?"),
    ("{c} invoices from {s} {p} - how many?", "How many {c} invoices from {s} {p}?"),
    ("{c} invoices from {s} {p}, how many?", "How many {c} invoices from {s} {p}?"),
    ("{c} invoices from {s} {p} - how much?", "How much did {c} spend with {s} {p}?"),
]


@pytest.mark.parametrize(("frame", "period"), list(itertools.product(TRAILING, PERIODS[:4])))
def test_a_question_word_last_asks_about_the_invoices_before_it(frame: tuple[str, str], period: str) -> None:
    asked, twin = (f.format(c="Company A", s="Supplier Beta", p=period) for f in frame)
    assert _plan(asked) == _plan(twin), asked
