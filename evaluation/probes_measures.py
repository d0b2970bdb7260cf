"""Measure-word probes: the word that says which figure is wanted, varied slot by slot, asked through ``/v1/ask`` and
compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_measures [--database procura] [--seed 1] [--n 200] [--show wrong|all|none]``
fills frames with seeded slot values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15). Classes:

* **typo**: a measure word with every one-edit typo (deletion, insertion, substitution, swap of neighbours) that
  is no English word: ``finance.company_spend`` over the company and period.
* **unknown**: a made-up word where the measure word stands (two edits or more from every measure word): a
  clarification that names it.
* **comparison**: a company and two periods set against each other with no measure word, or with "compare",
  "monthly comparison", "by what percentage did spend grow from A to B": ``finance.spend_comparison`` with the
  later period as the period and the earlier as its base.
* **german**: the German phrasing of a spend total, an open-invoice listing and a draft count, each the same
  governed call as its English twin.
* **status_now**: documents in a state *now* ("how many invoices are still sitting in draft"): no period needed,
  ``finance.cancelled_draft_invoices`` over every date up to the as-of date.

:func:`probes` is pure (the unit test ``tests/unit/test_router_measure_words.py`` routes a bounded number of them
in memory and checks the plan's governed call); :func:`evaluation.probes_status.run` asks them against a database.
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_runner import arguments, finish
from router.measure_words import MEASURE_WORDS, measure_for, one_edit

KINDS = ("typo", "unknown", "comparison", "german", "status_now")
SPEND_METRIC = "finance.company_spend"
COMPARISON_METRIC = "finance.spend_comparison"
STATUS_METRIC = "finance.cancelled_draft_invoices"
LISTING_METRIC = "finance.invoices_above_threshold"
AS_OF_NEXT = "2026-05-16"
HISTORY_START = "1990-01-01"
COMPANIES = {"COMP-A": ("Company A", "company a", "COMP-A"), "COMP-B": ("Company B", "company b")}
#: Periods as of 2026-05-15: (phrase, start, end exclusive), English and German.
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("YTD", "2026-01-01", AS_OF_NEXT),
           ("in 2025", "2025-01-01", "2026-01-01"), ("in March 2026", "2026-03-01", "2026-04-01"),
           ("H2 2025", "2025-07-01", "2026-01-01"), ("last quarter", "2026-01-01", "2026-04-01"))
PERIODS_DE = (("im ersten Quartal 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
              ("im 2. Halbjahr 2025", "2025-07-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"))
#: The measure words a spend total is asked with (each read as spend by the reader).
SPEND_WORDS = ("spend", "spending", "expenses", "expenditure", "purchases")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@dataclass(frozen=True)
class MeasureProbe:
    """One generated question, its class, the governed calls its answer must match, or the span a clarification
    must name (``calls`` empty)."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    names: str | None = None


def typos(word: str) -> tuple[str, ...]:
    """Every one-edit typo of ``word`` (lower-case letters) the reader must read back as a measure word: those
    that are no measure word and no listed English word (:func:`router.measure_words.measure_for`)."""
    letters = string.ascii_lowercase
    found = {word[:i] + word[i + 1:] for i in range(len(word))}
    found |= {word[:i] + c + word[i + 1:] for i in range(len(word)) for c in letters}
    found |= {word[:i] + c + word[i:] for i in range(len(word) + 1) for c in letters}
    found |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)}
    return tuple(sorted(t for t in found if t != word and measure_for(t) is not None))


def _nonsense(rng: random.Random) -> str:
    """A made-up word two edits or more from every measure word."""
    while True:
        word = "".join(rng.choice("bcdfghjklmnpqrstvwxz") + rng.choice("aeiou") for _ in range(rng.choice((2, 3))))
        if not any(one_edit(word, m) or word == m for m in MEASURE_WORDS):
            return word


def _company(rng: random.Random) -> tuple[str, str]:
    company = rng.choice(sorted(COMPANIES))
    return company, rng.choice(COMPANIES[company])


def _typo(rng: random.Random) -> MeasureProbe:
    company, c = _company(rng)
    p, start, end = rng.choice(PERIODS)
    word = rng.choice(typos(rng.choice(SPEND_WORDS)))
    frame = rng.choice(("{c} {w} {p}", "{c} total {w} {p}", "what was {c}'s {w} {p}?", "{w} {c} {p}"))
    params = {"company_id": company, "start_date": start, "end_date": end}
    return MeasureProbe("typo", frame.format(c=c, w=word, p=p), (Call(SPEND_METRIC, params),))


def _unknown(rng: random.Random) -> MeasureProbe:
    _, c = _company(rng)
    p, _, _ = rng.choice(PERIODS)
    word = _nonsense(rng)
    frame = rng.choice(("{c} {w} {p}", "{c} {w} {p}?", "show {c} {w} {p}"))
    return MeasureProbe("unknown", frame.format(c=c, w=word, p=p), (), names=word)


def _first_of_month(year: int, month: int) -> str:
    """The first day of a month, months past December running into the next year."""
    return f"{year + (month - 1) // 12}-{(month - 1) % 12 + 1:02d}-01"


def _two_periods(rng: random.Random) -> tuple[str, str, tuple[str, str, str, str], str]:
    """Two periods of one year: (earlier words, later words, (start, end, base start, base end), the year) --
    months or quarters, neither after the as-of date."""
    if rng.random() < 0.5:
        year = rng.choice((2025, 2026))
        later = rng.randrange(2, (4 if year == 2026 else 12) + 1)
        earlier = rng.randrange(1, later)
        return _MONTHS[earlier - 1], _MONTHS[later - 1], (
            _first_of_month(year, later), _first_of_month(year, later + 1), _first_of_month(year, earlier),
            _first_of_month(year, earlier + 1)), str(year)
    year = 2025
    later = rng.randrange(2, 5)
    earlier = rng.randrange(1, later)
    return f"Q{earlier}", f"Q{later}", (
        _first_of_month(year, 3 * later - 2), _first_of_month(year, 3 * later + 1),
        _first_of_month(year, 3 * earlier - 2), _first_of_month(year, 3 * earlier + 1)), str(year)


def _comparison(rng: random.Random) -> MeasureProbe:
    company, c = _company(rng)
    earlier, later, (start, end, base_start, base_end), year = _two_periods(rng)
    a, b = (later, earlier) if rng.random() < 0.5 else (earlier, later)
    frame = rng.choice((
        "{c}: {a} vs {b} {y}", "monthly comparison for {c}: {a} vs {b} {y}", "{c} {a} versus {b} {y}",
        "compare {c} {a} against {b} {y}", "{c} - {a} compared with {b} {y}", "{c} spend {a} vs {b} {y}",
        "by what percentage did {c}'s spending {verb} from {e} to {l} {y}?",
        "by what percent did {c} spend {verb} from {e} to {l} {y}",
        "compare {c} {a} and {b} {y}", "{c}: how did {l} compare to {e} {y}?", "{c}: {a} vs {b} {y}, abs and %",
        "{c} {a} vs {b} {y} - delta in %", "{c}: change from {e} to {l} {y}",
    ))
    verb = rng.choice(("grow", "increase", "change", "fall", "rise"))
    question = frame.format(c=c, a=a, b=b, y=year, e=earlier, l=later, verb=verb)
    params: dict[str, Any] = {"company_id": company, "start_date": start, "end_date": end, "compare_to": "custom",
                              "base_start_date": base_start, "base_end_date": base_end}
    return MeasureProbe("comparison", question, (Call(COMPARISON_METRIC, params,
                                                      outputs=("total_spend", "base_value", "change")),))


def _german(rng: random.Random) -> MeasureProbe:
    company, c = _company(rng)
    p, start, end = rng.choice(PERIODS_DE)
    kind = rng.choice(("spend", "open", "draft"))
    if kind == "spend":
        frame = rng.choice(("Ausgaben von {c} {p}", "Wie hoch waren die Ausgaben von {c} {p}?",
                            "Gesamtausgaben {c} {p}", "Wie viel hat {c} {p} ausgegeben?"))
        return MeasureProbe("german", frame.format(c=c, p=p), (Call(SPEND_METRIC, {
            "company_id": company, "start_date": start, "end_date": end}),))
    if kind == "open":
        frame = rng.choice(("Welche Rechnungen von {c} {p} sind noch offen?",
                            "Welche Rechnungen von {c} aus {pa} sind noch offen?",
                            "Welche Rechnungen von {c} {p} sind noch nicht bezahlt?"))
        pa = p.replace("im Jahr ", "").replace("im ", "dem ")
        params = {"company_id": company, "start_date": start, "end_date": end, "invoice_statuses": ["posted"],
                  "threshold": "0", "direction": "above", "inclusive": True}
        return MeasureProbe("german", frame.format(c=c, p=p, pa=pa),
                            (Call(LISTING_METRIC, params, outputs=("invoice_number",)),))
    frame = rng.choice(("Wie viele Rechnungen von {c} sind noch im Entwurf?",
                        "Wie viele Rechnungsentwürfe hat {c}?"))
    params = {"company_id": company, "start_date": HISTORY_START, "end_date": AS_OF_NEXT,
              "invoice_statuses": ["draft"]}
    return MeasureProbe("german", frame.format(c=c), (Call(STATUS_METRIC, params, outputs=("document_count",)),))


def _status_now(rng: random.Random) -> MeasureProbe:
    company, c = _company(rng)
    status = rng.choice(("draft", "cancelled"))
    words = ("are still sitting in draft", "are still in draft", "are drafts right now", "are in draft status",
             "are currently in draft", "are waiting in draft status", "are still unposted") \
        if status == "draft" else ("were cancelled", "have been cancelled", "are cancelled", "have been voided")
    frame = rng.choice(("how many invoices {w} at {c}?", "{c}: how many invoices {w}?",
                        "number of invoices that {w} at {c}"))
    params = {"company_id": company, "start_date": HISTORY_START, "end_date": AS_OF_NEXT, "invoice_statuses": [status]}
    return MeasureProbe("status_now", frame.format(c=c, w=rng.choice(words)),
                        (Call(STATUS_METRIC, params, outputs=("document_count",)),))


#: German phrasings of each measure and their English twins: {c} company, {s} supplier, {g}/{ge} group (German /
#: English), {p}/{pe} period, {n} a count. Both must be read the same (the same plan, or the same clarification).
GERMAN_TWINS: tuple[tuple[str, str], ...] = (
    ("Ausgaben von {c} {p}", "{c} spend {pe}"),
    ("Wie viel hat {c} {p} ausgegeben?", "How much did {c} spend {pe}?"),
    ("Ausgaben von {c} bei {s} {p}", "{c} spend with {s} {pe}"),
    ("Ausgaben von {c} für {g} {p}", "{c} spend on {ge} {pe}"),
    ("Anteil von {s} an den Ausgaben von {c} {p}", "share of {s} in {c}'s spend {pe}"),
    ("Anteil der {g} an den Ausgaben von {c} {p}", "share of {ge} in {c}'s spend {pe}"),
    ("Wie viele Rechnungen hatte {c} {p}?", "How many invoices did {c} have {pe}?"),
    ("Anzahl der Rechnungen von {c} {p}", "number of invoices of {c} {pe}"),
    ("Ausgaben von {c} {p} nach Lieferant", "{c} spend {pe} by supplier"),
    ("Monatliche Ausgaben von {c} {p}", "monthly spend of {c} {pe}"),
    ("Ausgaben von {c} {p} pro Monat", "{c} spend {pe} by month"),
    ("Die {n} größten Lieferanten von {c} nach Ausgaben {p}", "top {n} suppliers of {c} by spend {pe}"),
    ("Welche Rechnungen von {c} {p} sind noch offen?", "which invoices of {c} {pe} are still open?"),
    ("Welche Rechnungen von {c} {p} sind noch offen (gebucht, nicht bezahlt)?",
     "which invoices of {c} {pe} are still open (posted, not yet paid)?"),
    ("Ausgaben von {c} {p}, bitte", "{c} spend {pe}"),
    # "gebucht" as the verb (booked) names no status; as the status it is posted
    ("Wie viele Rechnungen hat {c} {p} gebucht?", "How many invoices did {c} have {pe}?"),
    ("gebuchte Rechnungen von {c} {p}, Summe", "{c} posted invoices total {pe}"),
    ("Offene Posten von {c} {p}", "{c} unpaid amount {pe}"),
    ("Wie viele stornierte Rechnungen hatte {c} {p}?", "How many cancelled invoices did {c} have {pe}?"),
    ("Wie viele Rechnungen von {c} sind noch im Entwurf?", "how many invoices of {c} are still in draft?"),
    ("{c}: März gegenüber Februar 2026", "{c}: March vs February 2026"),
    ("Ausgaben von {c}, Q1 gegenüber Q4 2025", "{c} spend, Q1 vs Q4 2025"),
    ("Ausgaben von {c} im ersten Quartal 2026 gegenüber dem Vorquartal",
     "{c} spend in Q1 2026 compared with the previous quarter"),
    ("Um wie viel Prozent sind die Ausgaben von {c} vom Q3 zum Q4 2025 gestiegen?",
     "by what percentage did {c}'s spend increase from Q3 to Q4 2025?"),
)


def german_twins(seed: int, n: int, suppliers: Sequence[str], groups: Sequence[tuple[str, str]]) -> list[
        tuple[str, str]]:
    """``n`` (German, English) question pairs: every measure of :data:`GERMAN_TWINS` with seeded companies,
    suppliers (``suppliers``: spellings), groups (``groups``: (German, English) names) and periods."""
    rng = random.Random(seed * 17 + 3)
    pairs = []
    for i in range(n):
        de, en = GERMAN_TWINS[i % len(GERMAN_TWINS)]
        _, c = _company(rng)
        p, pe = rng.choice(tuple(zip((d for d, _, _ in PERIODS_DE), _PERIODS_EN, strict=True)))
        g, ge = rng.choice(tuple(groups))
        slots = {"c": c, "s": rng.choice(tuple(suppliers)), "g": g, "ge": ge, "p": p, "pe": pe,
                 "n": str(rng.choice((2, 3, 5)))}
        pairs.append((de.format(**slots), en.format(**slots)))
    return pairs


#: :data:`PERIODS_DE` in English, in the same order.
_PERIODS_EN = ("in Q1 2026", "in 2025", "in H2 2025", "in March 2026")


_MAKERS = {"typo": _typo, "unknown": _unknown, "comparison": _comparison, "german": _german,
           "status_now": _status_now}


def probes(seed: int, n: int = 200, kinds: Sequence[str] = KINDS) -> list[MeasureProbe]:
    """``n`` questions of the given classes: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed * 13 + 7)
    found: list[MeasureProbe] = []
    seen: set[str] = set()
    tries = 0
    while len(found) < n and tries < n * 50:
        tries += 1
        probe = _MAKERS[rng.choice(tuple(kinds))](rng)
        question = " ".join(probe.question.split())
        if question in seen:
            continue
        seen.add(question)
        found.append(MeasureProbe(probe.klass, question, probe.calls, probe.names))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    from evaluation.probes_clarify import outcome_table
    from evaluation.probes_status import StatusProbe, run

    args = arguments(__doc__, count=("--n", 200), select=("--kind", KINDS),
                     select_help="classes to ask (default: all)").parse_args(argv)
    # a clarification naming the unknown word is the right answer there: only the answered classes are asked
    found = [StatusProbe(p.klass, p.question, p.calls)
             for p in probes(args.seed, args.n, args.kind or KINDS) if p.calls]
    counts = run(args.database, found, args.show)
    finish(counts, outcome_table(counts, KINDS, label="class", width=15, column=16))


if __name__ == "__main__":
    main()


__all__ = ["GERMAN_TWINS", "KINDS", "MeasureProbe", "german_twins", "probes", "typos"]
