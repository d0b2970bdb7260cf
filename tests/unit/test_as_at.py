"""The "as at" day read as a snapshot date (router/as_at.py), with the slots varied by a seeded generator: the day
and how it is written, the period beside it, the status words, the company and supplier names around it."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from router.as_at import find_as_at, overdue_as_at, snapshot_period
from router.open_reading import INVOICES_ONLY_STEP, scope_invoices_only_step
from router.periods import HISTORY_START, resolve_period
from router.reader import Unread, unread_clarifications
from router.reading import parse_amounts

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_COMPANIES = ("Company A", "Kestrel Lebensmittel GmbH", "Xenon Pharma AG", "Ypsilon Retail", "all companies")
_SUPPLIERS = ("", " from Supplier Gamma", " from Northwind Sensors", " with Beta Logistics")
_OPEN = ("open invoices", "unpaid invoices", "outstanding invoices", "open payables balance",
         "invoices still open (posted, not yet paid)", "invoices already settled (status paid)")
_CASES = 120


def _written(day: dt.date, rng: random.Random) -> str:
    """One of the ways a day is written (a slashed day only when it cannot be read month-first)."""
    forms = [day.isoformat(), f"{day.day} {_MONTHS[day.month - 1]} {day.year}",
             f"{_MONTHS[day.month - 1]} {day.day}, {day.year}", f"{day.day:02d}.{day.month:02d}.{day.year}",
             f"{day.day}th of {_MONTHS[day.month - 1][:3]} {day.year}" if day.day > 3 else day.isoformat()]
    if day.day > 12:
        forms.append(f"{day.day:02d}/{day.month:02d}/{day.year}")
    return rng.choice(forms)


def _day(rng: random.Random) -> dt.date:
    return dt.date(rng.choice((2025, 2026)), rng.randint(1, 12), rng.randint(1, 28))


def _read(question: str, as_of: dt.date):  # type: ignore[no-untyped-def]
    return snapshot_period(question, resolve_period(question, as_of), as_of)


@pytest.mark.parametrize("seed", range(_CASES))
def test_open_items_as_at_a_day_are_every_invoice_dated_up_to_it(seed: int) -> None:
    rng = random.Random(seed)
    day = _day(rng)
    question = (f"{rng.choice(('What is the total of', 'List the', 'How many'))} {rng.choice(_OPEN)} of "
                f"{rng.choice(_COMPANIES)}{rng.choice(_SUPPLIERS)} as at {_written(day, rng)}?")
    period = _read(question, dt.date(2026, 5, 15))
    assert period.time_range is not None and not period.ambiguous and period.point_in_time is None, question
    assert (period.time_range.start, period.time_range.end) == (HISTORY_START, day + dt.timedelta(days=1)), question
    assert not parse_amounts(question), question  # the day of the date is no amount


@pytest.mark.parametrize("seed", range(_CASES))
def test_a_period_beside_the_as_at_day_is_read_against_it(seed: int) -> None:
    rng = random.Random(1000 + seed)
    day = _day(rng)
    quarter = rng.randint(1, 4)
    year = day.year
    kinds = {
        "ytd": (f"{year} year to date", dt.date(year, 1, 1), day + dt.timedelta(days=1)),
        "bare_ytd": ("year to date", dt.date(year, 1, 1), day + dt.timedelta(days=1)),
        "to_date": (f"{year} to date", dt.date(year, 1, 1), day + dt.timedelta(days=1)),
        "quarter": (f"Q{quarter} {year - 1}", dt.date(year - 1, 3 * quarter - 2, 1),
                    dt.date(year - 1 + (quarter == 4), (3 * quarter) % 12 + 1, 1)),
    }
    words, start, end = kinds[rng.choice(sorted(kinds))]
    written = _written(day, rng)
    question = rng.choice((f"{rng.choice(_COMPANIES)} spend for {words} as at {written}.",
                           f"As at {written}, what was {rng.choice(_COMPANIES)}'s spend{rng.choice(_SUPPLIERS)} "
                           f"for {words}?",
                           f"Total of {rng.choice(_OPEN)} dated in {words} (as at {written})"))
    period = _read(question, dt.date(2026, 5, 15))
    assert period.time_range is not None and not period.ambiguous and period.point_in_time is None, question
    assert (period.time_range.start, period.time_range.end) == (start, end), question


def test_year_to_date_as_at_the_last_day_of_a_year_is_that_calendar_year() -> None:
    for written in ("31 December 2025", "2025-12-31", "31.12.2025", "December 31, 2025"):
        period = _read(f"What is the total spend of all companies for the year to date as at {written}?",
                       dt.date(2026, 5, 15))
        assert period.time_range is not None
        assert (period.time_range.start, period.time_range.end) == (dt.date(2025, 1, 1), dt.date(2026, 1, 1))


def test_a_plain_figure_as_at_a_day_stays_a_point_in_time() -> None:
    # neither reading follows from the question: the router keeps asking year to date or the day
    period = _read("Company A spend as at 15 May 2026", dt.date(2026, 5, 15))
    assert period.point_in_time is not None


def test_up_to_a_day_on_a_listing_is_everything_dated_up_to_it() -> None:
    rng = random.Random(7)
    for _ in range(30):
        day = _day(rng)
        question = (f"Which {rng.choice(_COMPANIES)} invoices were submitted twice (replicated duplicates) up to "
                    f"{_written(day, rng)}?")
        period = _read(question, dt.date(2026, 5, 15))
        assert period.time_range is not None, question
        assert (period.time_range.start, period.time_range.end) == (HISTORY_START, day + dt.timedelta(days=1))
    # a figure with only an end is still asked about
    assert _read("Company A spend up to 15 May 2026", dt.date(2026, 5, 15)).ambiguous


def test_an_ambiguous_slashed_day_is_not_read() -> None:
    assert find_as_at("open invoices as at 05/04/2026") is None
    assert find_as_at("open invoices as at 15/05/2026") is not None


@pytest.mark.parametrize("question", ["Total open payables (posted, unpaid invoices only) for all companies together",
                                      "open invoices of Companies A, B and C together as at 15 May 2026",
                                      "what do all companies still owe Gamma, combined?"])
def test_an_open_total_of_several_companies_has_the_invoices_only_reading(question: str) -> None:
    filters = {"start_date": "1990-01-01", "end_date": "2026-05-16", "reporting_currency": "EUR",
               "invoice_statuses": ["posted"]}
    step = scope_invoices_only_step(question, filters)
    assert step is not None and step.step_id == INVOICES_ONLY_STEP
    assert step.arguments["parameters"] == {**filters, "document_types": ["invoice"]}
    assert step.arguments["group_by"] == [] and step.arguments["grain"] is None


@pytest.mark.parametrize(("question", "change"), [
    ("open invoices of all companies, credit notes netted in", {}),
    ("open amount of all companies, invoices only", {}),
    ("spend of all companies", {"invoice_statuses": ["posted", "paid"]}),
    ("open amount of all companies", {"document_types": ["invoice"]}),
])
def test_no_second_reading_when_the_documents_are_said_or_the_figure_is_not_open(
        question: str, change: dict[str, object]) -> None:
    filters = {"start_date": "2026-01-01", "end_date": "2026-04-01", "invoice_statuses": ["posted"], **change}
    assert scope_invoices_only_step(question, filters) is None


@pytest.mark.parametrize("seed", range(40))
def test_overdue_as_at_a_day_is_asked_about_never_answered_from_clauses(seed: int) -> None:
    rng = random.Random(5000 + seed)
    day = _day(rng)
    word = rng.choice(("overdue", "past due", "past-due"))
    days = rng.choice(("", f" by more than {rng.randint(1, 120)} days"))
    question = rng.choice((
        f"Which {rng.choice(_COMPANIES)} invoices are {word}{days} as at {_written(day, rng)}, given its terms?",
        f"What is the {word} amount of {rng.choice(_COMPANIES)} as at {_written(day, rng)} in EUR?",
    ))
    at = question.lower().index(word)
    unread = (Unread(word, at, at + len(word), "status"), Unread("terms", 0, 5, "name"))
    asked = overdue_as_at(question, unread)
    assert [u.text for u in asked] == [word], question
    _, questions = unread_clarifications(asked)
    assert "due date" in questions[0] and "not governed data" in questions[0], question
    # without an as-at day (a question about the agreement's clause) nothing is asked here
    assert overdue_as_at(f"What does the agreement say about {word} invoices?", unread) == ()
