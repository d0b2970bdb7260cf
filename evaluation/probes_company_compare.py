"""Probes of questions across the companies of a tenant, asked through ``/v1/ask`` and compared with the governed
metric called directly (``finance.company_spend``, per company or per side).

``python -m evaluation.probes_company_compare [--database procura] [--seed 1] [--per-class 20] [--show wrong|all]``

The failures this class guards against: "which of our companies spent the most" or "who spent more, A or B"
answered with "which company do you mean?" although the question names all of them or both; "how much more did A
spend than B" asked back, or answered with one side's figure; "how much more did A spend with Gamma than with
Beta" answered with the two suppliers' total; a side that names nothing governed ("than planned") dropped. Classes:

* ``ranking``: every company of the tenant ranked by spend in a period (most or least first): the companies in the
  governed per-company order, each with its governed figure;
* ``named_pair``: "who spent more in P, A or B": the two named companies in that order;
* ``company_difference``: "how much more did A spend than B in P": both governed figures and their difference;
* ``supplier_difference``: "how much more did C spend with X than with Y in P": both and their difference;
* ``refused``: "how much more did A spend than planned/budget/forecast": a clarification naming the word.

Seed 1 is the training half, seed 2 the held-out half. Written from the slot grammar alone, never from an evaluation
question.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from evaluation.constraint_probes import Call, _present
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, SUPPLIERS, TENANT, outcome_table

SPEND = "finance.company_spend"
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
    ("last quarter", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("last year", "2025-01-01", "2026-01-01"), ("in Q4 2025", "2025-10-01", "2026-01-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"))
RANK = (("Which of our companies spent the most {p}?", "top"), ("which company spent the least {p}", "bottom"),
        ("Rank our companies by spend {p}", "top"), ("Which company had the highest spend {p}?", "top"),
        ("rank all companies by spend {p}", "top"), ("Which of the three companies spent less {p}?", "bottom"))
PAIR = (("Who spent more {p}, {a} or {b}?", "top"), ("which company spent more {p}: {a} or {b}", "top"),
        ("who spent less {p} {a} or {b}", "bottom"))
DIFF = ("How much more did {a} spend than {b} {p}?", "how much more did {a} spend than {b} did {p}",
        "How much less did {a} spend than {b} {p}?")
SUPPLIER_DIFF = ("How much more did {c} spend with {x} than with {y} {p}?",
                 "how much more did {c} spend on {x} than on {y} {p}")
REFUSED = ("planned", "budget", "forecast", "usual", "target")


@dataclass(frozen=True)
class Probe:
    klass: str
    question: str
    #: the governed calls: one grouped by company (rankings) or one per side (differences); none: a clarification
    calls: tuple[Call, ...] = ()
    direction: str = "top"
    #: the companies a ranking is bounded by (named in the question)
    named: tuple[str, ...] = ()
    about: str = ""


def _company(rng: random.Random, cid: str) -> str:
    return rng.choice([s for s in COMPANIES[cid] if not s.endswith("'s")])


def _supplier(rng: random.Random, sid: str) -> str:
    return rng.choice(SUPPLIERS[sid]["name"] + SUPPLIERS[sid]["short"] + SUPPLIERS[sid]["no_legal"])


def _ranking(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    frame, direction = rng.choice(RANK)
    return Probe("ranking", frame.format(p=p), (Call(SPEND, {"start_date": start, "end_date": end},
                                                     group_by=("company_id",)),), direction)


def _pair(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    a, b = rng.sample(sorted(COMPANIES), 2)
    frame, direction = rng.choice(PAIR)
    return Probe("named_pair", frame.format(p=p, a=_company(rng, a), b=_company(rng, b)),
                 (Call(SPEND, {"start_date": start, "end_date": end}, group_by=("company_id",)),), direction,
                 named=(a, b))


def _difference(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    a, b = rng.sample(sorted(COMPANIES), 2)
    question = rng.choice(DIFF).format(a=_company(rng, a), b=_company(rng, b), p=p)
    return Probe("company_difference", question, tuple(
        Call(SPEND, {"company_id": c, "start_date": start, "end_date": end}) for c in (a, b)))


def _supplier_difference(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    c = rng.choice(sorted(COMPANIES))
    x, y = rng.sample(sorted(SUPPLIERS), 2)
    question = rng.choice(SUPPLIER_DIFF).format(c=_company(rng, c), x=_supplier(rng, x), y=_supplier(rng, y), p=p)
    return Probe("supplier_difference", question, tuple(
        Call(SPEND, {"company_id": c, "supplier_ids": [s], "start_date": start, "end_date": end}) for s in (x, y)))


def _refused(rng: random.Random) -> Probe:
    p, _, _ = rng.choice(PERIODS)
    word = rng.choice(REFUSED)
    question = f"How much more did {_company(rng, rng.choice(sorted(COMPANIES)))} spend than {word} {p}?"
    return Probe("refused", question, about=word)


GENERATORS = {"ranking": _ranking, "named_pair": _pair, "company_difference": _difference,
              "supplier_difference": _supplier_difference, "refused": _refused}


def probes(seed: int, per_class: int = 20) -> list[Probe]:
    """``per_class`` questions of each class: seeded slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for make in GENERATORS.values():
        seen: set[str] = set()
        for _ in itertools.count():
            if len(seen) >= per_class or len(seen) > 10 * per_class:
                break
            probe = make(rng)
            if probe.question not in seen:
                seen.add(probe.question)
                found.append(probe)
    return found


def _values(session: ProbeClient, call: Call, question: str) -> list[dict[str, Any]]:
    return [dict(r.get("values") or {}) for r in session.direct(call, question).get("rows") or ()]


def _ordered(text: str, ids: Sequence[str]) -> bool:
    at = [text.find(f"({cid})") for cid in ids]
    return all(i >= 0 for i in at) and at == sorted(at)


def expected(session: ProbeClient, probe: Probe) -> tuple[list[str], list[str]] | None:
    """The tokens the answer must hold and, for a ranking, the company ids in order (``None``: no expectation,
    e.g. a tie or a side without data, left out)."""
    if probe.klass in ("ranking", "named_pair"):
        rows = [r for r in _values(session, probe.calls[0], probe.question)
                if str(r.get("matched_line_count", "1")) != "0"]
        rows = [r for r in rows if not probe.named or r["company_id"] in probe.named]
        values = [Decimal(str(r["total_spend"])) for r in rows]
        if len(set(values)) != len(values) or not rows:
            return None  # a tie: its order is no single answer
        rows.sort(key=lambda r: Decimal(str(r["total_spend"])), reverse=probe.direction == "top")
        return [str(r["total_spend"]) for r in rows], [str(r["company_id"]) for r in rows]
    if probe.calls:
        sides = [_values(session, c, probe.question) for c in probe.calls]
        if any(not s or s[0].get("total_spend") is None or str(s[0].get("matched_line_count")) == "0"
               for s in sides):
            return None  # a side without data: no difference is stated (said, not checked here)
        a, b = (Decimal(str(s[0]["total_spend"])) for s in sides)
        return [str(a), str(b), str(abs(a - b))], []
    return [], []


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked | None:
        want = expected(session, probe)
        if want is None:
            return None
        tokens, order = want
        status, text, _ = session.ask(probe.question, AS_OF)
        if not probe.calls:
            outcome = ("clar_ok" if probe.about in text else "clar_wrong_point") if status == "clarification" \
                else "silent_wrong"
        elif status == "clarification":
            outcome = "false_clar"
        elif status != "answered":
            outcome = "refusal"
        else:
            ok = all(_present(t, text) for t in tokens) and (not order or _ordered(text.split(" From:")[0], order))
            outcome = "exact" if ok else "silent_wrong"
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, (tokens, order), status,
                                                   text))

    return run_probes(database, "probes-company-compare", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, list(GENERATORS), width=20)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=20)


if __name__ == "__main__":
    main()
