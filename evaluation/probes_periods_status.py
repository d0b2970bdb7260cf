"""Period-form and status/count probes: periods written many ways, paid as a predicate, counts by symbol, drafts
without a period and monthly run-rates, generated from slot grammars, asked through ``/v1/ask`` and compared with
the governed metric called directly with the slot values.

``python -m evaluation.probes_periods_status [--database procura] [--seed 1] [--n 150] [--show wrong|all|none]``
fills frames with seeded slot values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15). Each
period is computed here from the slots (day, month, year, how many units back), never by the router's reader:

* **day_span**: days of one month ("between 1 and 13 March 2026", "1-13 Mar 2026", "from the 1st to the 13th of
  March 2026", "March 1-13, 2026"): both days included.
* **between_range**: "between Jul and Dec 2025", "between Q1 and Q3 2025": from the first period's start to the
  second's end.
* **full_unit**: "the last full quarter", "the most recent complete month": the last whole unit.
* **units_back**: "the month before last", "the quarter before last", "two quarters ago", "3 months ago".
* **open_end**: a start and an end day without its year ("from the start of 2026 through 12 Feb", "from 1 Jan
  2026 until Feb 12").
* **month_yy**: a month and a two-digit year with a space ("mar 26", "nov 25"), alone and in a comparison.
* **to_date**: a period opened to the as-of date ("FY-to-date 2026", "Q3 2025 to date", "2026 so far").
* **german**: "im Vorquartal", "in den ersten drei Monaten 2026", "in den ersten zwei Quartalen 2025", "2026
  bisher", "seit Q3 2025 bis dato".
* **paid_count**: how many invoices of a period are (have been) paid: ``finance.invoice_count`` with ``paid``.
* **paid_part**: how much of a period's spend has been paid: ``finance.company_spend`` with ``paid``.
* **status_share**: what share of a period's spend is paid (or still open): both governed totals (the status's
  and the period's, ``finance.company_spend``) and their ratio.
* **hash_count** / **line_count**: "# invoices", "count the invoice lines": the count metrics.
* **draft_value**: the value of a company's drafts, no period (every draft up to the as-of date).
* **run_rate**: the monthly run-rate over whole months (the direct total divided by the months, to the cent).
* **one_before**: "last quarter vs the one before": ``finance.spend_comparison`` against the previous period.

Outcomes are those of :func:`evaluation.probes_status.classify`. The router is fixed on ``--seed 1``; ``--seed 2``
is held out (only its counts are read, ``--show none``). Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, finish, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, TENANT, outcome_table
from evaluation.probes_status import Expected, classify, expected_of

SPEND = "finance.company_spend"
COUNT = "finance.invoice_count"
LINES = "finance.invoice_line_count"
STATUS = "finance.cancelled_draft_invoices"
CHANGE = "finance.spend_comparison"
PERIOD_KINDS = ("day_span", "between_range", "full_unit", "units_back", "open_end", "month_yy", "to_date", "german")
STATUS_KINDS = ("paid_count", "paid_part", "status_share", "hash_count", "line_count", "draft_value", "run_rate",
                "one_before")
KINDS = PERIOD_KINDS + STATUS_KINDS
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_NUMBERS_DE = {2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"}
_HISTORY = ("1990-01-01", "2026-05-16")
#: Whole-month periods the demo data covers: (phrase, start, end, months).
_WHOLE = (("Q1 2026", "2026-01-01", "2026-04-01", 3), ("H2 2025", "2025-07-01", "2026-01-01", 6),
          ("Q4 2025", "2025-10-01", "2026-01-01", 3), ("2025", "2025-01-01", "2026-01-01", 12),
          ("March 2026", "2026-03-01", "2026-04-01", 1), ("Jan-Apr 2026", "2026-01-01", "2026-05-01", 4))


@dataclass(frozen=True)
class PeriodProbe:
    """One generated question, its class, the period it names (half-open) and the governed calls it means."""

    klass: str
    question: str
    start: dt.date | None
    end: dt.date | None
    calls: tuple[Call, ...]
    #: A figure derived from the first call's total: the months it is divided by (a run-rate).
    per_months: int | None = None


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _month_start(year: int, month: int, back: int = 0) -> dt.date:
    index = year * 12 + month - 1 - back
    return dt.date(index // 12, index % 12 + 1, 1)


def _unit_start(unit: str, back: int) -> tuple[dt.date, dt.date]:
    """The calendar unit ``back`` units before the one holding the as-of date (computed from the slots)."""
    size = {"month": 1, "quarter": 3, "year": 12}[unit]
    current = (AS_OF.year * 12 + (AS_OF.month - 1) // size * size) if unit != "year" else AS_OF.year * 12
    first = current - back * size
    start = dt.date(first // 12, first % 12 + 1, 1)
    return start, _month_start(start.year, start.month, -size)


def _company(rng: random.Random) -> tuple[str, str]:
    company = rng.choice(sorted(COMPANIES))
    return company, rng.choice(COMPANIES[company]).removesuffix("'s")


def _spend_frame(rng: random.Random, c: str, p: str) -> str:
    return rng.choice((f"{c} spend {p}", f"What did {c} spend {p}?", f"total spend of {c} {p}",
                       f"how much did {c} spend {p}", f"{c}: spend {p}"))


def _period(rng: random.Random, kind: str) -> tuple[str, dt.date, dt.date]:
    """A period phrase of ``kind`` and its half-open range."""
    if kind == "day_span":
        year, month = rng.choice(((2025, 7), (2025, 9), (2025, 11), (2026, 1), (2026, 2), (2026, 3), (2026, 4)))
        first = rng.randint(1, 12)
        last = rng.randint(first + 1, 28)
        name = _MONTHS[month - 1]
        short = name[:3]
        phrase = rng.choice((f"between {first} and {last} {name} {year}", f"{first}-{last} {short} {year}",
                             f"from the {_ordinal(first)} to the {_ordinal(last)} of {name} {year}",
                             f"{name} {first}-{last}, {year}", f"from {first} to {last} {name} {year}"))
        return phrase, dt.date(year, month, first), dt.date(year, month, last) + dt.timedelta(days=1)
    if kind == "between_range":
        if rng.random() < 0.6:
            first = rng.randint(1, 9)
            last = rng.randint(first + 1, 12)
            year = rng.choice((2025,))
            a, b = _MONTHS[first - 1], _MONTHS[last - 1]
            a, b = (a[:3].lower(), b[:3].lower()) if rng.random() < 0.5 else (a, b)
            return f"between {a} and {b} {year}", dt.date(year, first, 1), _month_start(year, last, -1)
        first = rng.randint(1, 3)
        last = rng.randint(first + 1, 4)
        return (f"between Q{first} and Q{last} 2025", dt.date(2025, 3 * first - 2, 1),
                _month_start(2025, 3 * last - 2, -3))
    if kind == "full_unit":
        unit = rng.choice(("quarter", "month", "year"))
        words = rng.choice(("the last full", "the most recent complete", "the previous full", "the last completed",
                            "the last closed"))
        start, end = _unit_start(unit, 1)
        return f"in {words} {unit}", start, end
    if kind == "units_back":
        unit = rng.choice(("quarter", "month"))
        back = rng.randint(2, 4)
        start, end = _unit_start(unit, back)
        if back == 2 and rng.random() < 0.5:
            return f"in the {unit} before last", start, end
        number = _NUMBERS[back] if rng.random() < 0.5 else str(back)
        return f"{number} {unit}s ago", start, end
    if kind == "open_end":
        month = rng.randint(1, 4)
        day = rng.randint(2, 27)
        end = dt.date(2026, month, day)
        written = rng.choice((f"{day} {_MONTHS[month - 1][:3]}", f"{_MONTHS[month - 1]} {day}",
                              f"{_ordinal(day)} {_MONTHS[month - 1]}"))
        phrase = rng.choice((f"from the start of 2026 through {written}", f"from 1 Jan 2026 through {written}",
                             f"since the beginning of 2026 up to and including {written}"))
        return phrase, dt.date(2026, 1, 1), end + dt.timedelta(days=1)
    if kind == "month_yy":
        year, month = rng.choice(((2025, 8), (2025, 10), (2025, 12), (2026, 2), (2026, 3)))
        return (f"in {_MONTHS[month - 1][:3].lower()} {year % 100}", dt.date(year, month, 1),
                _month_start(year, month, -1))
    if kind == "to_date":
        tomorrow = AS_OF + dt.timedelta(days=1)
        return rng.choice((("FY-to-date 2026", dt.date(2026, 1, 1), tomorrow),
                           ("fiscal year to date", dt.date(2026, 1, 1), tomorrow),
                           ("Q3 2025 to date", dt.date(2025, 7, 1), tomorrow),
                           ("Q4 2025 to date", dt.date(2025, 10, 1), tomorrow),
                           ("2026 so far", dt.date(2026, 1, 1), tomorrow),
                           ("H2 2025 to date", dt.date(2025, 7, 1), tomorrow)))
    count = rng.randint(2, 4)
    if rng.random() < 0.25:
        tomorrow = AS_OF + dt.timedelta(days=1)
        return rng.choice((("2026 bisher", dt.date(2026, 1, 1), tomorrow),
                           ("im Jahr 2026 bis heute", dt.date(2026, 1, 1), tomorrow),
                           ("seit Q3 2025 bis dato", dt.date(2025, 7, 1), tomorrow)))
    if rng.random() < 0.35:
        start, end = _unit_start("quarter", 1)
        return "im Vorquartal", start, end
    if rng.random() < 0.5:
        return (f"in den ersten {_NUMBERS_DE[count]} Monaten 2026", dt.date(2026, 1, 1),
                dt.date(2026, count + 1, 1))
    quarters = min(count, 3)
    return (f"in den ersten {_NUMBERS_DE[quarters]} Quartalen 2025", dt.date(2025, 1, 1),
            dt.date(2025, 3 * quarters + 1, 1))


def _period_probe(rng: random.Random, kind: str) -> PeriodProbe:
    company, c = _company(rng)
    phrase, start, end = _period(rng, kind)
    if kind == "german":
        question = rng.choice((f"Ausgaben von {c} {phrase}", f"Wie viel hat {c} {phrase} ausgegeben?",
                               f"Spend {c} {phrase}?"))
    else:
        question = _spend_frame(rng, c, phrase)
    params = {"company_id": company, "start_date": start.isoformat(), "end_date": end.isoformat()}
    return PeriodProbe(kind, question, start, end, (Call(SPEND, params),))


_STATUS_PERIODS = (("Q1 2026", "2026-01-01", "2026-04-01"), ("Q4 2025", "2025-10-01", "2026-01-01"),
                   ("2025", "2025-01-01", "2026-01-01"), ("March 2026", "2026-03-01", "2026-04-01"),
                   ("H2 2025", "2025-07-01", "2026-01-01"))


def _status_probe(rng: random.Random, kind: str) -> PeriodProbe:
    company, c = _company(rng)
    p, start, end = rng.choice(_STATUS_PERIODS)
    period = {"company_id": company, "start_date": start, "end_date": end}
    calls: tuple[Call, ...]
    months = None
    if kind == "paid_count":
        question = rng.choice((f"how many {c} invoices from {p} have been paid?",
                               f"{c}: how many invoices paid in {p}?", f"How many {c} invoices from {p} are paid?",
                               f"number of {c} invoices of {p} that are already paid",
                               f"how many invoices from {p} were paid at {c}?"))
        calls = (Call(COUNT, period | {"invoice_statuses": ["paid"], "document_types": ["invoice"]},
                      outputs=("invoice_count",)),)
    elif kind == "paid_part":
        question = rng.choice((f"how much of {c}'s {p} spend has been paid?", f"how much of {c}'s spend in {p} is "
                               "already paid?", f"{c}: how much of the {p} spend has been paid so far?"))
        calls = (Call(SPEND, period | {"invoice_statuses": ["paid"]}),)
    elif kind == "status_share":
        status, word = rng.choice((("paid", "already paid"), ("paid", "paid"), ("posted", "still unpaid"),
                                   ("posted", "still open")))
        question = rng.choice((f"what share of {c}'s {p} spend is {word}?",
                               f"what percentage of {c} spend in {p} is {word}?",
                               f"{c}: what share of the {p} spend is {word}?"))
        calls = (Call(SPEND, period | {"invoice_statuses": [status]}), Call(SPEND, period))
    elif kind == "hash_count":
        question = rng.choice((f"# invoices {c} {p}", f"# of invoices {c} {p}", f"{c} # invoices {p}"))
        calls = (Call(COUNT, period | {"document_types": ["invoice"]}, outputs=("invoice_count",)),)
    elif kind == "line_count":
        question = rng.choice((f"count the invoice lines for {c} in {p}", f"count all invoice lines of {c}, {p}",
                               f"count the line items for {c} in {p}, credit notes included"))
        calls = (Call(LINES, period, outputs=("line_count",)),)
    elif kind == "draft_value":
        question = rng.choice((f"total value of {c}'s draft invoices", f"draft invoices at {c}: how much are they "
                               "worth?", f"what are {c}'s drafts worth?", f"value of the invoices still in draft at "
                               f"{c}"))
        start, end = _HISTORY
        calls = (Call(STATUS, {"company_id": company, "start_date": start, "end_date": end,
                               "invoice_statuses": ["draft"]}, outputs=("total_amount",)),)
    elif kind == "run_rate":
        p, start, end, months = rng.choice(_WHOLE)
        question = rng.choice((f"Monthly run-rate of {c} spend over {p}", f"What's {c}'s monthly run-rate for {p}?",
                               f"{c} average spend per month in {p}", f"{c} spend run rate {p}"))
        calls = (Call(SPEND, {"company_id": company, "start_date": start, "end_date": end}),)
    else:
        unit = rng.choice(("quarter", "month"))
        question = rng.choice((f"{c} spend: last {unit} vs the one before",
                               f"{c} spend last {unit} compared with the one before",
                               f"how did {c}'s spend change from the {unit} before to last {unit}?"))
        current, end_date = _unit_start(unit, 1)
        start, end = current.isoformat(), end_date.isoformat()
        calls = (Call(CHANGE, {"company_id": company, "start_date": start, "end_date": end,
                               "compare_to": "previous_period"}, outputs=("total_spend", "base_value")),)
    return PeriodProbe(kind, question, dt.date.fromisoformat(start), dt.date.fromisoformat(end), calls, months)


def probes(seed: int, n: int = 150, kinds: Sequence[str] = KINDS) -> list[PeriodProbe]:
    """``n`` questions of the given classes: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed * 13 + 7)
    found: list[PeriodProbe] = []
    seen: set[str] = set()
    tries = 0
    while len(found) < n and tries < n * 50:
        tries += 1
        kind = rng.choice(tuple(kinds))
        probe = _period_probe(rng, kind) if kind in PERIOD_KINDS else _status_probe(rng, kind)
        question = " ".join(probe.question.split())
        question = question[:1].upper() + question[1:]
        if question in seen:
            continue
        seen.add(question)
        found.append(PeriodProbe(probe.klass, question, probe.start, probe.end, probe.calls, probe.per_months))
    return found


def _derived(expected: Expected, months: int) -> Expected:
    """The run-rate expectation: the direct total divided by the months, to the cent (half up)."""
    if expected.no_data or not expected.tokens:
        return expected
    total = Decimal(expected.tokens[-1])
    rate = (total / months).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return Expected(tokens=(*expected.tokens, str(rate)))


def run(database: str, found: Sequence[PeriodProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` and compare with its governed calls made directly (tenant-42)."""
    def check(session: ProbeClient, probe: PeriodProbe) -> Checked:
        expected: list[Expected] = []
        for call in probe.calls:
            got = expected_of(call, session.direct(call, probe.question))
            if call.metric in (COUNT, LINES) and not got.no_data:
                got = Expected(tokens=got.tokens)  # a count is a number of its own noun, checked as a token
            expected.append(_derived(got, probe.per_months) if probe.per_months else got)
        if probe.klass == "status_share" and all(e.tokens for e in expected):
            part, whole = Decimal(expected[0].tokens[-1]), Decimal(expected[1].tokens[-1])
            if whole:
                percent = (part * 100 / whole).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
                expected.append(Expected(tokens=(str(percent),)))
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(status, text, expected)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-periods-status", (TENANT,), found, check, show)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__, count=("--n", 150), select=("--kind", KINDS),
                     select_help="classes to ask (default: all)").parse_args(argv)
    counts = run(args.database, probes(args.seed, args.n, args.kind or KINDS), args.show)
    finish(counts, outcome_table(counts, KINDS, label="class", width=13, column=16))


if __name__ == "__main__":
    main()


__all__ = ["KINDS", "PERIOD_KINDS", "STATUS_KINDS", "PeriodProbe", "probes"]
