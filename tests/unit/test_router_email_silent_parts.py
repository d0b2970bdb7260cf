"""Silent parts of long e-mails: "between <day> and today" (a range to the as-of date, never the day alone),
"including drafts and cancelled ones" in a count by status (beside the other statuses, never the only ones), and a
credit note named as context of a net figure ("I know there was a credit note, I want the net figure": netted in,
never credit notes alone). Seeded variations of the slot; each compared with the reading asked plainly."""

from __future__ import annotations

import datetime as dt
import random

from router.analysis import document_type_scope
from router.periods import resolve_period
from router.status_counts import STATUS_ORDER, status_table

_MONTHS = ("January", "February", "March", "April", "May", "June")


def test_between_a_day_and_today_runs_to_the_as_of_date() -> None:
    rng = random.Random(38)
    for _ in range(60):
        month = rng.randrange(1, 7)
        day = rng.randrange(1, 28)
        as_of = dt.date(2026, 9, rng.randrange(1, 28))
        written = rng.choice((f"{day} {_MONTHS[month - 1]} 2026", f"{_MONTHS[month - 1]} {day}, 2026",
                              f"2026-{month:02d}-{day:02d}"))
        lead, glue, end = rng.choice(("between", "from")), rng.choice(("and", "to", "until")), \
            rng.choice(("today", "now"))
        if lead == "between" and glue != "and":
            glue = "and"
        q = f"Which invoices of Company A {lead} {written} {glue} {end} were over EUR 10,000?"
        got = resolve_period(q, as_of)
        plain = resolve_period(f"Which invoices of Company A since {written} were over EUR 10,000?", as_of)
        assert not got.ambiguous, q
        assert got.time_range is not None and plain.time_range is not None
        assert (got.time_range.start, got.time_range.end) == (dt.date(2026, month, day), as_of + dt.timedelta(1)), q
        assert (got.time_range.start, got.time_range.end) == (plain.time_range.start, plain.time_range.end), q


def test_between_two_days_is_unchanged() -> None:
    got = resolve_period("spend between 1 April 2026 and 10 May 2026", dt.date(2026, 12, 31))
    assert got.time_range is not None and got.time_range.start == dt.date(2026, 4, 1)
    assert got.time_range.end == dt.date(2026, 5, 11)  # (days in words: both ends in)


def test_statuses_included_are_beside_the_others() -> None:
    rng = random.Random(5)
    for _ in range(40):
        named = rng.sample(("drafts", "cancelled ones", "the cancelled", "draft invoices"), rng.randrange(1, 3))
        cue = rng.choice(("including", "incl.", "also", "as well as", "plus"))
        listed = " and ".join(named)
        q = f"Count of Company C's invoices and credit notes by status for Q1 2026, please - {cue} {listed}."
        assert status_table(q) == (STATUS_ORDER, ()), q
    # restricted on purpose: only the statuses named, and the included ones beside them
    assert status_table("invoices per status (posted and paid only), including drafts")[0] == \
        ("draft", "posted", "paid")
    assert status_table("count of draft and cancelled invoices by status")[0] == ("draft", "cancelled")
    assert status_table("invoices by status, excluding drafts")[0] == ("posted", "paid", "cancelled")


def test_credit_note_as_context_of_a_net_figure_is_netted_in() -> None:
    rng = random.Random(7)
    for _ in range(40):
        context = rng.choice(("I know there was a credit note", "I believe there were two credit notes",
                              "we received a credit note", "there has been a partial credit note"))
        ask = rng.choice(("I want the net figure", "please give the net amount", "what is the net total"))
        q = f"What's Company C's spend with Iota in Q1 2026? {context}, {ask}."
        assert document_type_scope(q)[0] == ("invoice", "credit_note"), q
    # asked about the credit note itself: credit notes only
    assert document_type_scope("there was a credit note from Beta in March, how much was it?")[0] == \
        ("credit_note",)
    assert document_type_scope("how many credit notes did Beta issue?")[0] == ("credit_note",)
