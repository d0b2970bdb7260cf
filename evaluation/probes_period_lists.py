"""Period-list probes: adjacent periods named as a list ("spend H2 2025 and Q1 2026", "Jan and Feb 2026") asked
through ``/v1/ask`` and compared with the governed spend called directly, over the union and over each part.

``python -m evaluation.probes_period_lists [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|none]``

A list of adjacent periods reads two ways: the total over the parts, or a figure for each part. Answering one
reading alone is a silent guess at the other, so a spend answer gives the union's figure and each part's figure;
"together" / "combined" asks for the union alone. The failure this class guards against: "Kestrel: spend H2 2025
and Q1 2026" answered with the union only, where each half was asked. Classes (demo tenant-42, as of 2026-05-15):

* ``listed``: a list of two or three adjacent periods (months, quarters, halves, mixed grains, the year written
  once or on each part), with or without a supplier: the union's ``finance.company_spend`` and every part's;
* ``together``: the same list with "together" / "combined" / "in total": the union's figure;
* ``gap``: two periods with a gap between them ("Q3 2025 and Q1 2026"): every part's figure (no union).

Seed 1 is the training half, seed 2 the held-out half. Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import attrgetter

from evaluation.constraint_probes import Call, _present, _tokens
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, distinct, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, SUPPLIERS, TENANT, _style, outcome_table

SPEND = "finance.company_spend"

#: Adjacent lists: (phrase, parts as (start, end exclusive)); every part has ended by the as-of date.
LISTED: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("H2 2025 and Q1 2026", (("2025-07-01", "2026-01-01"), ("2026-01-01", "2026-04-01"))),
    ("Q4 2025 and Q1 2026", (("2025-10-01", "2026-01-01"), ("2026-01-01", "2026-04-01"))),
    ("Q1 and Q2 2025", (("2025-01-01", "2025-04-01"), ("2025-04-01", "2025-07-01"))),
    ("Q3 and Q4 2025", (("2025-07-01", "2025-10-01"), ("2025-10-01", "2026-01-01"))),
    ("Jan and Feb 2026", (("2026-01-01", "2026-02-01"), ("2026-02-01", "2026-03-01"))),
    ("January, February and March 2026", (("2026-01-01", "2026-02-01"), ("2026-02-01", "2026-03-01"),
                                          ("2026-03-01", "2026-04-01"))),
    ("Dec 2025 and Jan 2026", (("2025-12-01", "2026-01-01"), ("2026-01-01", "2026-02-01"))),
    ("H1 and H2 2025", (("2025-01-01", "2025-07-01"), ("2025-07-01", "2026-01-01"))),
    ("Q3 2025 and Q4 2025", (("2025-07-01", "2025-10-01"), ("2025-10-01", "2026-01-01"))),
    ("March and April 2026", (("2026-03-01", "2026-04-01"), ("2026-04-01", "2026-05-01"))),
)
#: Lists with a gap between the parts: one figure each.
GAPPED: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("Q3 2025 and Q1 2026", (("2025-07-01", "2025-10-01"), ("2026-01-01", "2026-04-01"))),
    ("January 2026 and March 2026", (("2026-01-01", "2026-02-01"), ("2026-03-01", "2026-04-01"))),
    ("Q2 2025 and Q4 2025", (("2025-04-01", "2025-07-01"), ("2025-10-01", "2026-01-01"))),
)
LIST_FRAMES = ("{c}: spend{x} {p}", "{c} spend{x} {p}?", "What did {c} spend{x} in {p}?",
               "How much did {c} spend{x} in {p}?", "{c}'s spend{x} for {p}", "Spend of {c}{x}, {p}")
TOGETHER = ("together", "combined", "in total")


@dataclass(frozen=True)
class Probe:
    """One question and the governed calls whose totals must all appear in the answer."""

    klass: str
    question: str
    calls: tuple[Call, ...]


def _call(company: str, supplier: str | None, start: str, end: str) -> Call:
    return Call(SPEND, {"company_id": company, "start_date": start, "end_date": end,
                        **({"supplier_ids": [supplier]} if supplier else {})})


def _slots(rng: random.Random) -> tuple[str, str, str | None, str]:
    """A company (id, name), and optionally a supplier (id, " with <name>")."""
    cid = rng.choice(sorted(COMPANIES))
    name = rng.choice(COMPANIES[cid])
    if rng.random() < 0.5:
        return cid, name, None, ""
    sid = rng.choice(sorted(SUPPLIERS))
    return cid, name, sid, f" with {rng.choice(SUPPLIERS[sid]['name'] + SUPPLIERS[sid]['no_legal'])}"


def _listed(rng: random.Random) -> Probe:
    cid, name, sid, x = _slots(rng)
    phrase, parts = rng.choice(LISTED)
    question = rng.choice(LIST_FRAMES).format(c=name, x=x, p=phrase)
    union = _call(cid, sid, parts[0][0], parts[-1][1])
    return Probe("listed", question, (union, *(_call(cid, sid, a, b) for a, b in parts)))


def _together(rng: random.Random) -> Probe:
    cid, name, sid, x = _slots(rng)
    phrase, parts = rng.choice(LISTED)
    question = rng.choice(LIST_FRAMES).format(c=name, x=x, p=f"{phrase} {rng.choice(TOGETHER)}")
    return Probe("together", question, (_call(cid, sid, parts[0][0], parts[-1][1]),))


def _gap(rng: random.Random) -> Probe:
    cid, name, sid, x = _slots(rng)
    phrase, parts = rng.choice(GAPPED)
    question = rng.choice(LIST_FRAMES).format(c=name, x=x, p=phrase)
    return Probe("gap", question, tuple(_call(cid, sid, a, b) for a, b in parts))


MAKERS: dict[str, Callable[[random.Random], Probe]] = {"listed": _listed, "together": _together, "gap": _gap}


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class (seeded frames and slot values), duplicates dropped."""
    rng = random.Random(seed)
    return [probe for make in MAKERS.values()
            for probe in distinct(partial(_drawn, make, rng), attrgetter("question"), per_class, per_class * 5)]


def _drawn(make: Callable[[random.Random], Probe], rng: random.Random) -> Probe:
    probe = make(rng)
    return Probe(probe.klass, _style(probe.question, rng), probe.calls)


def classify(status: str, text: str, expected: list[str], data: bool) -> str:
    """exact: every expected total in the answer (no data stated as such when no call has data); a clarification
    where the figures are governed: false_clar."""
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if not data:
        return "exact" if status == "no_data" else "silent_wrong"
    if all(_present(t, text) for t in expected):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        results = [session.direct(c, probe.question) for c in probe.calls]
        expected = [t for c, r in zip(probe.calls, results, strict=True) for t in _tokens(r, c)]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(status, text, expected, bool(expected))
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-period-lists", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(MAKERS))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


__all__ = ["MAKERS", "Probe", "classify", "main", "probes"]

if __name__ == "__main__":
    main()
