"""Company-set probes: several companies in one spend question, asked through ``/v1/ask`` and compared with the
governed metric called directly (``finance.company_spend`` with exactly those companies, ``company_ids``).

``python -m evaluation.probes_company_sets [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|none]``

The silent failures this class guards against: "across Company A, B and C" answered with Company A's figure alone,
"X and Y combined" or "group-wide excluding Company C" asked about (or summed outside the governed layer), and an
approved-vendor question "for <category>" that drops a category it did not read. Classes:

* ``together``: two or three companies with a word that adds them up ("combined", "together", "+", "in total");
* ``elided``: an elided list ("Company A, B and C", "Company A and C");
* ``excluded``: all companies but one ("group-wide spend excluding Company C");
* ``per_company``: "which companies bought from <supplier> ... and how much each" (the figure grouped by company);
* ``table``: two or three companies named "per company and combined", "X vs Y ... per company" (their table and
  their total, never "which company do you mean?");
* ``unknown_category``: approved vendors "for <a category no group has>": a clarification naming it.

Each probe draws the companies, their spellings, a period and optionally a supplier; the expected figure is the
governed metric with those slot values. Outcomes are those of :func:`evaluation.probes_clarify.classify`. Seed 1
is the training half, seed 2 the held-out half. Written from the slot grammar alone, never from an evaluation
question.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probes_clarify import COMPANIES, SUPPLIERS, Probe, _style, run
from evaluation.probes_combo import table
from evaluation.probes_doctypes import PERIODS

SPEND = "finance.company_spend"
#: Frames that add the named companies up ({cs}: the companies joined, {p}: period, {s}: supplier clause).
TOGETHER = ("{cs} combined spend {p}{s}", "Total spend of {cs} together {p}{s}", "{cs}: combined spend {p}{s}?",
            "What did {cs} spend in total {p}{s}?", "{cs} together - spend {p}{s}", "Spend {p}{s}, {cs} combined")
EXCLUDED = ("Group-wide spend excluding {c}, {p}{s}", "Total spend across all companies except {c} {p}{s}",
            "Spend {p}{s} for all entities other than {c}", "How much did all companies spend {p}{s}, {c} excluded?")
PER_COMPANY = ("Which companies bought from {sup} {p} and how much each?",
               "Which companies bought from {sup} {p}, and how much did each spend?")
TABLE = ("Spend of {cs} {p}{s}, per company and combined", "{cs} spend {p}{s}, per company and in total",
         "What did {cs} spend per company {p}{s}?", "{cs}: spend {p}{s} split by company, with the total")
UNKNOWN = ("hydraulics", "pneumatics", "office chairs", "forklift parts", "valves", "lubricants", "welding gas")
APPROVED = ("Approved vendors of {c} for {g} {p}?", "Who is approved for {g} at {c} as of today?",
            "Which suppliers are approved for {g} at {c}?")


def _joined(names: Sequence[str], rng: random.Random) -> str:
    if len(names) == 2:
        return rng.choice((" and ", " + ", " & ")).join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _supplier(rng: random.Random) -> tuple[str, dict[str, Any]]:
    if rng.random() < 0.6:
        return "", {}
    sid = rng.choice(sorted(SUPPLIERS))
    name = rng.choice(SUPPLIERS[sid]["name"] + SUPPLIERS[sid]["no_legal"])
    return f" with {name}", {"supplier_ids": [sid]}


def _spelling(company: str, rng: random.Random) -> str:
    return rng.choice([s for s in COMPANIES[company] if not s.endswith("'s")])


def _together(rng: random.Random) -> Probe:
    ids = sorted(rng.sample(sorted(COMPANIES), rng.choice((2, 2, 3))))
    phrase, start, end = rng.choice(PERIODS)
    s, supplier = _supplier(rng)
    names = [_spelling(c, rng) for c in ids]
    rng.shuffle(names)
    question = rng.choice(TOGETHER).format(cs=_joined(names, rng), p=phrase, s=s)
    return Probe("together", question, Call(SPEND, {"company_ids": ids, "start_date": start, "end_date": end,
                                                    **supplier}, outputs=("total_spend",)))


def _elided(rng: random.Random) -> Probe:
    ids = sorted(rng.sample(sorted(COMPANIES), rng.choice((2, 3))))
    phrase, start, end = rng.choice(PERIODS)
    letters = [c.removeprefix("COMP-") for c in ids]
    listed = f"Company {letters[0]}" + (f" and {letters[1]}" if len(letters) == 2
                                        else f", {letters[1]} and {letters[2]}")
    question = rng.choice(("Total spend across {l} {p}", "{l} combined spend {p}", "Spend of {l} together {p}"))
    return Probe("elided", question.format(l=listed, p=phrase),
                 Call(SPEND, {"company_ids": ids, "start_date": start, "end_date": end}, outputs=("total_spend",)))


def _excluded(rng: random.Random) -> Probe:
    out = rng.choice(sorted(COMPANIES))
    phrase, start, end = rng.choice(PERIODS)
    s, supplier = _supplier(rng)
    left = sorted(c for c in COMPANIES if c != out)
    question = rng.choice(EXCLUDED).format(c=_spelling(out, rng), p=phrase, s=s)
    return Probe("excluded", question, Call(SPEND, {"company_ids": left, "start_date": start, "end_date": end,
                                                    **supplier}, outputs=("total_spend",)))


def _per_company(rng: random.Random) -> Probe:
    sid = rng.choice(sorted(SUPPLIERS))
    phrase, start, end = rng.choice(PERIODS)
    question = rng.choice(PER_COMPANY).format(sup=rng.choice(SUPPLIERS[sid]["name"] + SUPPLIERS[sid]["no_legal"]),
                                              p=phrase)
    return Probe("per_company", question, Call(SPEND, {"supplier_ids": [sid], "start_date": start,
                                                       "end_date": end}, outputs=("total_spend",)))


def _table(rng: random.Random) -> Probe:
    ids = sorted(rng.sample(sorted(COMPANIES), rng.choice((2, 2, 3))))
    phrase, start, end = rng.choice(PERIODS)
    s, supplier = _supplier(rng)
    names = [_spelling(c, rng) for c in ids]
    rng.shuffle(names)
    joined = " vs ".join(names) if len(names) == 2 and rng.random() < 0.3 else _joined(names, rng)
    question = rng.choice(TABLE).format(cs=joined, p=phrase, s=s)
    return Probe("table", question, Call(SPEND, {"company_ids": ids, "start_date": start, "end_date": end,
                                                 **supplier}, outputs=("total_spend",)))


def _unknown_category(rng: random.Random) -> Probe:
    category = rng.choice(UNKNOWN)
    question = rng.choice(APPROVED).format(c=_spelling(rng.choice(sorted(COMPANIES)), rng), g=category,
                                           p=rng.choice(("in 2026", "as of today", "in Q1 2026")))
    return Probe("unknown_category", question, None, (category,))


GENERATORS = {"together": _together, "elided": _elided, "excluded": _excluded, "per_company": _per_company,
              "table": _table, "unknown_category": _unknown_category}


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class: seeded slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, make in GENERATORS.items():
        seen: set[str] = set()
        for _ in itertools.count():
            if len(seen) >= per_class or len(seen) > 10 * per_class:
                break
            probe = make(rng)
            question = _style(probe.question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, probe.expect, probe.about))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


if __name__ == "__main__":
    main()
