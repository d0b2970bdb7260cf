"""Period probes of short and terse period forms: two-digit years after a quarter, half or month ("Q3 25", "H2 25",
"jul 25"), their ranges ("jul 25 - dec 25", "Q3 25 - Q1 26"), comparisons ("q3 25 vs q4 25", "Q1 2026 vs same qtr
last year"), "last yr", "since 1 Jan", "2026 ytd", "2025+2026 so far", a parenthesis that restates the period
("last 12 months (May-Apr)") and the words for every date on file ("ever", "all periods"), each over several as-of
dates, asked through ``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_short_years [--database procura] [--seed 1] [--n 120] [--show wrong|all|none]``
fills frames with seeded slot values of the demo vocabulary (``tenant-42``). Each period is computed here from the
slots (quarter, half, month, two-digit year, as-of date), never by the router's reader. A two-digit year far from
the as-of date ("Q3 40", "mar 17": March 2017 or the 17th of March?) must be asked about (class ``unclear``): a
wrong year is never read silently.

The router is fixed on ``--seed 1``; ``--seed 2`` is held out (only its counts are read, ``--show none``). Written
from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, finish, run_probes, shown
from evaluation.probes_clarify import COMPANIES, TENANT, outcome_table
from evaluation.probes_status import classify, expected_of

SPEND = "finance.company_spend"
CHANGE = "finance.spend_comparison"
LISTING = "finance.invoices_above_threshold"
KINDS = ("quarter_yy", "half_yy", "month_yy", "since_yy", "range_yy", "compare_yy", "same_last_year", "last_yr",
         "since_day", "year_ytd", "so_far_union", "gloss", "history", "unclear")
#: As-of dates across the year: the reading of a short year must not depend on where in the year it is asked.
AS_OFS = (dt.date(2026, 1, 15), dt.date(2026, 4, 10), dt.date(2026, 5, 15), dt.date(2026, 9, 15),
          dt.date(2026, 12, 6))
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")
HISTORY_START = dt.date(1990, 1, 1)


@dataclass(frozen=True)
class ShortYearProbe:
    """One generated question, its as-of date, the period it names (half-open; ``None`` when it must be asked
    about), the comparison base if any, and the governed calls it means."""

    klass: str
    question: str
    as_of: dt.date
    start: dt.date | None
    end: dt.date | None
    base: tuple[dt.date, dt.date] | None
    calls: tuple[Call, ...]


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _quarter(year: int, q: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, 3 * q - 2, 1)
    return start, _add_months(start, 3)


def _half(year: int, h: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, 6 * h - 5, 1)
    return start, _add_months(start, 6)


def _month(year: int, m: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, m, 1)
    return start, _add_months(start, 1)


def _q(rng: random.Random, q: int, yy: int) -> str:
    return rng.choice((f"Q{q} {yy}", f"q{q} {yy}"))


def _m(rng: random.Random, m: int, yy: int) -> str:
    name = rng.choice((_MONTHS[m - 1], _MONTHS[m - 1].title(), _MONTH_NAMES[m - 1], _MONTH_NAMES[m - 1].lower()))
    return f"{name} {yy}"


def _frame(rng: random.Random, c: str, p: str) -> str:
    return rng.choice((f"{c} spend {p}", f"what did {c} spend in {p}", f"{c}: total spend {p}",
                       f"how much did {c} spend {p}?", f"spend {c} {p}"))


def _spend(company: str, start: dt.date, end: dt.date) -> Call:
    return Call(SPEND, {"company_id": company, "start_date": start.isoformat(), "end_date": end.isoformat()})


def _probe(rng: random.Random, kind: str) -> ShortYearProbe:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    as_of = rng.choice(AS_OFS)
    yy = rng.choice((25, 26)) if kind != "unclear" else 0
    span: tuple[dt.date, dt.date] | None = None
    base: tuple[dt.date, dt.date] | None = None
    if kind == "quarter_yy":
        q = rng.randint(1, 4)
        span, question = _quarter(2000 + yy, q), _frame(rng, c, _q(rng, q, yy))
    elif kind == "half_yy":
        h = rng.randint(1, 2)
        span, question = _half(2000 + yy, h), _frame(rng, c, rng.choice((f"H{h} {yy}", f"h{h} {yy}")))
    elif kind == "month_yy":
        m = rng.randint(1, 12)
        span, question = _month(2000 + yy, m), _frame(rng, c, _m(rng, m, yy))
    elif kind == "since_yy":
        if rng.random() < 0.5:
            m = rng.randint(1, 12)
            start, words = dt.date(2025, m, 1), _m(rng, m, 25)
        else:
            q = rng.randint(1, 4)
            start, words = _quarter(2025, q)[0], _q(rng, q, 25)
        span = (start, as_of + dt.timedelta(days=1))
        question = rng.choice((f"{c} spend since {words}", f"how much did {c} spend since {words}?",
                               f"{c}: spend since {words}"))
    elif kind == "range_yy":
        if rng.random() < 0.5:
            first, last = rng.randint(1, 12), rng.randint(1, 12)
            span = (dt.date(2025, first, 1), _month(2026 if last <= first else 2025, last)[1])
            glue = rng.choice((" - ", "-", " to ", " – "))
            question = _frame(rng, c, f"{_m(rng, first, 25)}{glue}{_m(rng, last, 26 if last <= first else 25)}")
        else:
            first, last = rng.randint(2, 4), rng.randint(1, 2)
            span = (_quarter(2025, first)[0], _quarter(2026, last)[1])
            glue = rng.choice((" - ", " to ", " – "))
            question = rng.choice((f"{c} spend by quarter, {_q(rng, first, 25)}{glue}{_q(rng, last, 26)}",
                                   _frame(rng, c, f"{_q(rng, first, 25)}{glue}{_q(rng, last, 26)}")))
    elif kind == "compare_yy":
        q = rng.randint(1, 3)
        base, span = _quarter(2025, q), _quarter(2025, q + 1)
        cue = rng.choice(("vs", "versus", "compared with"))
        question = rng.choice((f"{c} spend {_q(rng, q + 1, 25)} {cue} {_q(rng, q, 25)}, change in %",
                               f"{c}: {_q(rng, q, 25)} {cue} {_q(rng, q + 1, 25)} spend change"))
    elif kind == "same_last_year":
        q = rng.randint(1, 4)
        year = 2026 if _quarter(2026, q)[1] <= as_of + dt.timedelta(days=1) else 2025
        span = _quarter(year, q)
        base = _quarter(year - 1, q)
        same = rng.choice(("same qtr last year", "same quarter last yr", "the same quarter a year earlier",
                           "same period last year"))
        question = f"{c} spend Q{q} {year} vs {same}"
    elif kind == "last_yr":
        span = (dt.date(as_of.year - 1, 1, 1), dt.date(as_of.year, 1, 1))
        question = _frame(rng, c, rng.choice(("last yr", "last year", "prev yr")).replace("prev yr", "previous yr"))
    elif kind == "since_day":
        m = rng.randint(1, as_of.month)
        d = rng.randint(1, 28) if m < as_of.month else rng.randint(1, as_of.day)
        start = dt.date(as_of.year, m, d)
        span = (start, as_of + dt.timedelta(days=1))
        # ("August 26" alone is August 2026 when 26 is a year near the as-of date: a day is written with its
        # suffix or before the month)
        suffix = "th" if 10 <= d <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
        day = rng.choice((f"{d} {_MONTHS[m - 1].title()}", f"{_MONTH_NAMES[m - 1]} {d}{suffix}",
                          f"{d} {_MONTH_NAMES[m - 1]}"))
        question = rng.choice((f"{c} spend since {day}?", f"how much did {c} spend since {day}"))
    elif kind == "year_ytd":
        span = (dt.date(as_of.year, 1, 1), as_of + dt.timedelta(days=1))
        question = _frame(rng, c, rng.choice((f"{as_of.year} ytd", f"{as_of.year} YTD", f"YTD {as_of.year}")))
    elif kind == "so_far_union":
        span = (dt.date(as_of.year - 1, 1, 1), as_of + dt.timedelta(days=1))
        glue = rng.choice(("+", " + ", " and ", " & "))
        question = _frame(rng, c, f"{as_of.year - 1}{glue}{as_of.year} {rng.choice(('so far', 'to date'))}")
    elif kind == "gloss":
        opens = _add_months(dt.date(as_of.year, as_of.month, 1), -12)
        span = (opens, _add_months(opens, 12))
        closes = _add_months(opens, 11)
        question = _frame(rng, c, f"last 12 months ({_MONTHS[opens.month - 1].title()}-"
                                  f"{_MONTHS[closes.month - 1].title()})")
    elif kind == "history":
        span = (HISTORY_START, as_of + dt.timedelta(days=1))
        words = rng.choice(("(any period)", "all periods", "whole period on file", "ever", "of all time"))
        amount = rng.choice(("30k", "30.000 EUR", "EUR 30,000"))
        question = rng.choice((f"list {c} invoices over {amount}, {words}", f"{c} invoices above {amount} {words}"))
        listing = (Call(LISTING, {"company_id": company, "start_date": span[0].isoformat(),
                                "end_date": span[1].isoformat(), "threshold": "30000", "direction": "above"},
                      outputs=("invoice_number",)),)
        return ShortYearProbe(kind, question, as_of, span[0], span[1], None, listing)
    else:  # unclear: a two-digit year far from the as-of date
        far = rng.choice((40, 45, 99, 12, 14, 15))  # none within ten years before 2026 or one after
        form = rng.choice(("quarter", "month"))
        if form == "month" and far > 31:
            form = "quarter"
        words = f"Q{rng.randint(1, 4)} {far}" if form == "quarter" else f"{_MONTHS[rng.randint(0, 11)]} {far}"
        return ShortYearProbe(kind, _frame(rng, c, words), as_of, None, None, None, ())
    assert span is not None
    calls: tuple[Call, ...]
    if base is not None:
        calls = (Call(CHANGE, {
            "company_id": company, "start_date": span[0].isoformat(), "end_date": span[1].isoformat(),
            "compare_to": "custom", "base_start_date": base[0].isoformat(), "base_end_date": base[1].isoformat()},
            outputs=("total_spend", "base_value")),)
    else:
        calls = (_spend(company, *span),)
    return ShortYearProbe(kind, question, as_of, span[0], span[1], base, calls)


def probes(seed: int, n: int = 120, kinds: Sequence[str] = KINDS) -> list[ShortYearProbe]:
    """``n`` questions of the given classes: seeded frames, slot values and as-of dates, duplicates dropped."""
    rng = random.Random(seed * 31 + 5)
    found: list[ShortYearProbe] = []
    seen: set[tuple[str, dt.date]] = set()
    tries = 0
    while len(found) < n and tries < n * 50:
        tries += 1
        probe = _probe(rng, rng.choice(tuple(kinds)))
        if probe.end is not None and probe.end > probe.as_of + dt.timedelta(days=1):
            continue  # a period that has not ended by the as-of date is another question (a partial one)
        question = " ".join(probe.question.split())
        if (question, probe.as_of) in seen:
            continue
        seen.add((question, probe.as_of))
        found.append(ShortYearProbe(probe.klass, question, probe.as_of, probe.start, probe.end, probe.base,
                                    probe.calls))
    return found


def run(database: str, found: Sequence[ShortYearProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` at its as-of date and compare with its governed calls made directly."""
    def check(session: ProbeClient, probe: ShortYearProbe) -> Checked:
        status, text, _ = session.ask(probe.question, probe.as_of)
        if probe.klass == "unclear":
            outcome = "clar_ok" if status == "clarification" else "silent_wrong"
            return Checked(probe.klass, outcome,
                           shown(probe.klass, outcome, probe.question, "a clarification", status, text))
        expected = [expected_of(call, session.direct(call, probe.question)) for call in probe.calls]
        outcome = classify(status, text, expected)
        if (probe.klass == "history" and expected[0].no_data and status == "answered"
                and text.startswith("No invoices")):
            outcome = "exact"  # an empty listing is its answer, said as such
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-short-years", (TENANT,), found, check, show)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__, count=("--n", 120), select=("--kind", KINDS),
                     select_help="classes to ask (default: all)").parse_args(argv)
    counts = run(args.database, probes(args.seed, args.n, args.kind or KINDS), args.show)
    finish(counts, outcome_table(counts, KINDS, label="class", width=15, column=16))


if __name__ == "__main__":
    main()


__all__ = ["AS_OFS", "KINDS", "ShortYearProbe", "probes"]
