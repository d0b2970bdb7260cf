"""Explicit date ranges and periods that do not exist, read by router/periods.py (and router/german.py's days).

Classes (issue 20, g4):
- slashed days whose order the question settles ("for the period 01/07/2025 to 31/12/2025": a first part above 12
  makes them day/month; "07/01/2025 to 12/31/2025" month/day) are that range, the last day included when it ends
  a month; slashed days nothing settles ("01/02/2025 to 01/03/2025") are asked about, never guessed;
- German days of one month ("zwischen 1. und 15. März 2026", "vom 3. bis 20. Februar") are that span, both days
  included;
- ordinals past the parts of a year ("the 5th half-year", "the seventh quarter", "5. Halbjahr", "13. Monat",
  "KW 60") are asked about naming the words, never read as the year around them (a silent wrong figure); a
  valid ordinal month ("the 12th month of 2025") is asked about like the other parts of a period;
- "the second half-year of 2025" is H2 2025.

Slots vary over days, months, years, separators, ordinals and frames; a seeded bounded sample.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random

import pytest

from router.german import read_german
from router.periods import resolve_period, slashed_days


def _german(question: str) -> str:
    """The question as the router reads it (German function words in English; an English question unchanged)."""
    return read_german(question) or question

AS_OF = dt.date(2026, 5, 15)
SEED = 36
_FRAMES = ("Company A spend for the period {r}?", "Spend with Beta {r}", "What did we spend {r}?")


def _slashed_cases(n: int) -> list[tuple[str, dt.date, dt.date]]:
    rng = random.Random(SEED)
    out = []
    while len(out) < n:
        year = rng.choice((2024, 2025, 2026))
        first = dt.date(year, rng.randint(1, 6), rng.randint(1, 12))
        last_month = rng.randint(first.month + 1, 12)
        last = dt.date(year, last_month, calendar.monthrange(year, last_month)[1])  # a month's last day (> 12)
        if rng.random() < 0.5:
            words = f"{first.day:02d}/{first.month:02d}/{year}", f"{last.day}/{last.month:02d}/{year}"
        else:
            words = f"{first.month}/{first.day}/{year}", f"{last.month:02d}/{last.day}/{year}"
        glue = rng.choice(("from {a} to {b}", "{a} to {b}", "between {a} and {b}", "{a} - {b}"))
        out.append((rng.choice(_FRAMES).format(r=glue.format(a=words[0], b=words[1])), first,
                    last + dt.timedelta(days=1)))
    return out


@pytest.mark.parametrize(("question", "start", "end"), _slashed_cases(30), ids=lambda v: str(v)[:60])
def test_slashed_days_the_question_settles_are_their_range(question: str, start: dt.date, end: dt.date) -> None:
    resolved = resolve_period(question, AS_OF)
    assert not resolved.ambiguous, (question, resolved)
    assert resolved.time_range is not None
    assert (resolved.time_range.start, resolved.time_range.end) == (start, end), question
    assert len(slashed_days(question)) == len(question)  # spans stay where they were


@pytest.mark.parametrize("i", range(10))
def test_slashed_days_nothing_settles_are_asked_about(i: int) -> None:
    rng = random.Random(SEED + i)
    a, b = (f"{rng.randint(1, 12):02d}/{rng.randint(1, 12):02d}/2025" for _ in range(2))
    question = rng.choice(_FRAMES).format(r=f"from {a} to {b}")
    resolved = resolve_period(question, AS_OF)
    assert resolved.time_range is None, (question, resolved)


@pytest.mark.parametrize("i", range(12))
def test_german_days_of_one_month_are_that_span(i: int) -> None:
    rng = random.Random(SEED * 7 + i)
    year, month = rng.choice((2025, 2026)), rng.randint(1, 12)
    first = rng.randint(1, 14)
    last = rng.randint(first + 1, 28)
    german = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
              "November", "Dezember")[month - 1]
    frame = rng.choice(("Company C Ausgaben zwischen {a}. und {b}. {m} {y}", "Ausgaben vom {a}. bis {b}. {m} {y}",
                        "Company B Ausgaben {a}.-{b}. {m} {y}"))
    question = _german(frame.format(a=first, b=last, m=german, y=year))
    resolved = resolve_period(question, AS_OF)
    assert resolved.time_range is not None, (question, resolved)
    assert (resolved.time_range.start, resolved.time_range.end) == (
        dt.date(year, month, first), dt.date(year, month, last) + dt.timedelta(days=1)), question


_INVALID = ("the {n}th half-year of {y}", "the {n}th quarter of {y}", "the {n}th month of {y}", "Q{q} {y}",
            "H{h} {y}", "KW {w} {y}", "week {w} of {y}")
_INVALID_DE = ("im {n}. Halbjahr {y}", "im {q}. Quartal {y}", "im {m}. Monat {y}")


@pytest.mark.parametrize("i", range(28))
def test_a_period_that_does_not_exist_is_asked_about_by_name(i: int) -> None:
    rng = random.Random(SEED * 11 + i)
    y = rng.choice((2025, 2026))
    slots = {"n": rng.randint(13, 19), "q": rng.randint(5, 9), "h": rng.randint(3, 9), "w": rng.randint(54, 99),
             "m": rng.randint(13, 40), "y": y}
    german = i % 3 == 0
    frame = rng.choice(_INVALID_DE if german else _INVALID)
    words = frame.format(**slots)
    question = f"Company A spend {words}" if not german else f"Company A Ausgaben {words}"
    text = _german(question)
    resolved = resolve_period(text, AS_OF)
    assert resolved.time_range is None and resolved.ambiguous, (question, resolved)
    named = " ".join(resolved.mentions)
    core = words.replace("im ", "").split(f" {y}")[0].replace("the ", "")
    assert core.lower() in named.lower(), (question, resolved.mentions)


@pytest.mark.parametrize(("ordinal", "half"), [("first", 1), ("second", 2), ("1st", 1), ("2nd", 2)])
@pytest.mark.parametrize("joint", [" half-year of ", " half year ", " half of "])
def test_a_half_year_is_the_half(ordinal: str, half: int, joint: str) -> None:
    resolved = resolve_period(f"Company A spend in the {ordinal}{joint}2025", AS_OF)
    assert resolved.time_range is not None
    assert resolved.time_range.start == dt.date(2025, 1 if half == 1 else 7, 1)


@pytest.mark.parametrize("words", ["the 12th month of 2025", "the ninth month of 2025", "12. Monat 2025"])
def test_a_month_counted_in_a_year_is_asked_about(words: str) -> None:
    resolved = resolve_period(_german(f"Company A Ausgaben im {words}"), AS_OF)
    assert resolved.time_range is None and resolved.ambiguous, (words, resolved)


@pytest.mark.parametrize("unit", ["days", "day", "weeks", "months", "Tage", "business days"])
@pytest.mark.parametrize("lead", ["more than", "over", "above", "mehr als"])
def test_a_length_of_time_after_a_threshold_word_is_no_money(lead: str, unit: str) -> None:
    from router.reading import parse_amounts

    n = random.Random(f"{lead}{unit}").randint(2, 120)
    assert parse_amounts(f"invoices {lead} {n} {unit} overdue as at 15 May 2026") == ()
    assert [a.value for a in parse_amounts(f"invoices {lead} {n} EUR")] == [n]


@pytest.mark.parametrize("tail", ["past due", "overdue", "old", ""])
@pytest.mark.parametrize("frame", ["How many of Company B's invoices are {t} {p}?", "List Company A invoices {t} {p}",
                                   "Which Company C invoices are {t} {p}?"])
def test_an_age_threshold_of_invoices_is_named_never_dropped(tail: str, frame: str) -> None:
    from tests.unit.test_router_company_sets import _route

    rng = random.Random(f"{tail}{frame}")
    words = f"{rng.choice(['more than', 'over', 'at least'])} {rng.randint(2, 120)} days {tail}".strip()
    question = frame.format(t=words, p=rng.choice(["in Q1 2026", "in 2025", "in March 2026"]))
    for result in _route(question, "letters"):
        assert result.requires_clarification, (question, result.interpretation)
        asked = result.clarification_question or ""
        # the age words are named, or the overdue status they qualify is (no due dates are governed, so no age
        # of an overdue invoice can be read either)
        assert words in asked or (tail and f"{tail!r} needs each invoice's due date" in asked), (question, asked)


@pytest.mark.parametrize("period", ["KW 60 2026", "Q5 2025", "H3 2025", "the 5th half-year of 2025", "week 54 of 2025"])
@pytest.mark.parametrize("frame", ["Top Lieferant Company A in {p}?", "Frobnicate the Company A widgets in {p}",
                                   "Company A spend per carbon tonne in {p}"])
def test_a_period_that_does_not_exist_is_named_whatever_else_is_missing(period: str, frame: str) -> None:
    from tests.unit.test_router_company_sets import _route

    question = frame.format(p=period)
    for result in _route(question, "letters"):
        text = result.clarification_question or ""
        assert result.requires_clarification and "does not exist" in text, (question, result.workflow, text)


_DE_ABBREVIATIONS = {1: "Jän", 3: "Mrz", 10: "Okt", 12: "Dez", 2: "Feb", 5: "Mai", 9: "Sep", 11: "Nov"}


@pytest.mark.parametrize("i", range(16))
def test_german_month_abbreviations_make_a_month_range(i: int) -> None:
    rng = random.Random(SEED * 13 + i)
    first, last = sorted(rng.sample(sorted(_DE_ABBREVIATIONS), 2))
    year = rng.choice((2025, 2026))
    a, b = _DE_ABBREVIATIONS[first], _DE_ABBREVIATIONS[last]
    dot = "." if rng.random() < 0.5 and a in ("Jän", "Mrz", "Okt", "Dez") else ""
    glue = rng.choice((" bis ", " - ", "-"))
    question = _german(f"Company B Ausgaben {a}{dot}{glue}{b} {year}")
    resolved = resolve_period(question, AS_OF)
    assert resolved.time_range is not None, (question, resolved)
    end = dt.date(year + 1, 1, 1) if last == 12 else dt.date(year, last + 1, 1)
    assert (resolved.time_range.start, resolved.time_range.end) == (dt.date(year, first, 1), end), question
