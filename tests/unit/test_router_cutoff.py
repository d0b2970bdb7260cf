"""Cut-off lists (router/cutoff.py): the invoice period is read before the posting words, the posting bounds after
them, over varied periods, phrasings, European dates and restatements; a posting inside the invoice period or a
figure about the invoices is no cut-off list. Database-free."""

from __future__ import annotations

import datetime as dt
import random
import types

import pytest

from router.cutoff import cutoff_request, own_word
from router.periods import add_months

AS_OF = dt.date(2026, 5, 20)
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def _ask(text: str) -> object:
    return cutoff_request(types.SimpleNamespace(text=text, as_of=AS_OF))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(12))
def test_month_pairs_read_the_invoice_month_and_the_next(seed: int) -> None:
    rng = random.Random(seed)
    start = dt.date(rng.choice([2024, 2025]), rng.randint(1, 12), 1)
    end = add_months(start, 1)
    inv = f"{MONTHS[start.month - 1]} {start.year}"
    post = f"{MONTHS[end.month - 1]} {end.year}"
    template = rng.choice([
        "Which invoices dated {inv} were only posted in {post}?",
        "invoices of {inv} posted in {post}, all companies",
        "Company A: invoice dated {inv} but posting date in {post}, which ones?",
        "cut-off: invoices with invoice date {inv} booked in {post}",
    ])
    req = _ask(template.format(inv=inv, post=post))
    assert req is not None
    assert (req.start, req.end, req.posted_from, req.posted_before) == (start, end, end, add_months(end, 1))


@pytest.mark.parametrize(("text", "start", "end", "posted_from", "posted_before"), [
    ("Xenon: invoices dated Q1 2026 that were posted after 31.03.2026", "2026-01-01", "2026-04-01", "2026-04-01",
     None),
    ("Invoices of Q1 2026 (invoice date) that are posted in the next quarter", "2026-01-01", "2026-04-01",
     "2026-04-01", None),
    ("Which invoices of the year 2025 were posted only in 2026?", "2025-01-01", "2026-01-01", "2026-01-01",
     "2027-01-01"),
    ("invoices with invoice date in 2025 and posting in a later month... I mean dated october 2025 but posted "
     "november", "2025-10-01", "2025-11-01", "2025-11-01", "2025-12-01"),
    ("April 2026 cut-off: invoices dated in april, posted in may", "2026-04-01", "2026-05-01", "2026-05-01",
     "2026-06-01"),
])
def test_phrasings(text: str, start: str, end: str, posted_from: str, posted_before: str | None) -> None:
    req = _ask(text)
    assert req is not None
    got = (req.start, req.end, req.posted_from, req.posted_before)
    want = (dt.date.fromisoformat(start), dt.date.fromisoformat(end), dt.date.fromisoformat(posted_from),
            dt.date.fromisoformat(posted_before) if posted_before else None)
    assert got == want


@pytest.mark.parametrize("text", [
    "invoices dated March 2026 posted in March 2026",  # no cut-off: posted inside the period
    "how many invoices dated March 2026 were posted in April 2026",  # a count, not the list
    "total of invoices of March 2026 posted in April 2026",
    "spend in March 2026 and April 2026",  # no posting word
    "which invoices were posted in April 2026",  # one period only
])
def test_not_a_cutoff_list(text: str) -> None:
    assert _ask(text) is None


def test_own_words() -> None:
    assert own_word("invoice dated") and own_word("posting") and own_word("ones")
    assert not own_word("Gamma") and not own_word("overdue")


@pytest.mark.parametrize("text", [
    "invoices of Q1 2026 posted but not paid as of 30.04.2026",
    "Which invoices dated in Q1 2026 are still posted (not paid)?",
    "open (posted) invoices of Company A in Q1 2026 - which ones?",
    "invoices dated Q1 2026 posted by Company A and paid in April 2026",
])
def test_a_posting_word_without_its_own_later_period_is_no_cutoff(text: str) -> None:
    assert _ask(text) is None
