"""Review 37: a count per status takes the status filters the question names (router/status_counts.py).

"unpaid invoices of Company A in 2025 per status", "... by status, excluding paid", "except drafts", "(posted and
paid only)": the columns are the statuses named minus the statuses left out, in document order; none named is every
status. A status word no document has ("approved invoices per status") is asked about, never answered with the full
table. The questions are generated from slots (seeded), never from an evaluation set.
"""

from __future__ import annotations

import random

import pytest

from router.routing import route
from router.status_counts import status_table
from tests.unit.test_router_status_counts import INPUTS, PERIODS, STEP_PREFIX, _calls

ALL = ("draft", "posted", "paid", "cancelled")
COMPANIES = ("Company A", "Company B", "Company C")
#: (template with {c} company, {p} period, the columns the table has).
FILTERS = (
    ("unpaid invoices of {c} {p} per status", ("posted",)),
    ("open invoices of {c} {p} by status", ("posted",)),
    ("{c} outstanding invoices {p}, how many per status", ("posted",)),
    ("{c} invoices {p} by status, excluding paid", ("draft", "posted", "cancelled")),
    ("{c} invoices {p} by status, except drafts", ("posted", "paid", "cancelled")),
    ("{c} invoices {p} per status, without the cancelled ones", ("draft", "posted", "paid")),
    ("{c} invoices {p} by status (posted and paid only)", ("posted", "paid")),
    ("{c} invoices {p} per status, drafts and cancelled excluded", ("posted", "paid")),
    ("how many paid invoices per status for {c} {p}", ("paid",)),
    ("how many invoices per status for {c} {p}", ALL),
    ("{c}: number of invoices per status (draft, posted, paid, cancelled) {p}", ALL),
)


def _probes(seed: int, n: int) -> list[tuple[str, tuple[str, ...]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        template, columns = rng.choice(FILTERS)
        out.append((template.format(c=rng.choice(COMPANIES), p=rng.choice(PERIODS)[0]), columns))
    return out


@pytest.mark.parametrize(("question", "columns"), _probes(37, 40))
def test_the_status_filters_are_the_table_columns(question: str, columns: tuple[str, ...]) -> None:
    result = route(question, INPUTS)
    calls = _calls(result)
    if "cancelled" in columns and result.requires_clarification:
        # (a tenant-wide table with cancelled documents asks which company: not the case with a company named)
        pytest.fail(f"{question}: {result.clarification_question}")
    assert not result.requires_clarification, (question, result.clarification_question)
    assert tuple(s for s in ALL if f"{STEP_PREFIX}{s}" in calls) == columns, (question, sorted(calls))
    for step, (_, params) in calls.items():
        assert params["invoice_statuses"] == [step[len(STEP_PREFIX):]], (question, step, params)


@pytest.mark.parametrize("word", ["approved", "disputed", "rejected", "booked", "archived"])
@pytest.mark.parametrize("company", COMPANIES)
def test_a_status_no_document_has_is_asked_about(word: str, company: str) -> None:
    result = route(f"{company} {word} invoices in 2025 per status", INPUTS)
    assert result.requires_clarification and word in (result.clarification_question or ""), result


def test_a_word_of_another_noun_is_no_status() -> None:
    assert status_table("invoices from approved suppliers per status") == (ALL, ())
    assert status_table("invoices per status excluding credit notes, drafts and cancelled") == (("posted", "paid"), ())
