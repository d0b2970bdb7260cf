"""Derived FP&A measure probes: run-rate projections, the average invoice value and supplier concentration, asked
through ``/v1/ask`` and compared with the governed metrics called directly with the slot values.

``python -m evaluation.probes_derived [--database procura] [--seed 1] [--per-class 20] [--show wrong|all|none]``

Classes (the silent failure each guards against: a figure that is not the measure, or the measure from a
different base):

* ``annualised``: "annualise {company}'s {period} spend", "{period} spend on an annualised basis", "annualised
  run-rate based on {period}": ``finance.spend_projection`` with ``horizon_months`` 12;
* ``pace``: "if {company} keeps {period}'s pace, what would {target} land at", "at the {period} monthly pace, what
  would the spend be for a full {span}": the horizon is the target's or the span's months;
* ``average``: the average gross invoice value ("average invoice value (incl. tax)", "average gross invoice
  size", "mean invoice amount"): ``finance.average_invoice_value``;
* ``concentration``: the top-N suppliers' share ("top-2 supplier concentration", "what share ... sits with the
  top 3 suppliers"): the top N of ``finance.spend_ranking`` called directly, then ``finance.supplier_share`` with
  them (a tie at the cut must be said, never broken);
* ``running``: a projection whose base period has months not yet over on the as-of date, or is not whole months
  ("annualise 2026 spend" in May): a clarification, never a figure.

Companies are drawn from the demo tenant's companies and "all companies"; periods vary in length (one month, a
quarter, a half-year) and notation. Seed 1 is the training half, seed 2 the held-out half. Written from the slot
grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, distinct, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, TENANT, Probe, _normalize, _style, classify, outcome_table

PROJECTION = "finance.spend_projection"
AVERAGE = "finance.average_invoice_value"
RANKING = "finance.spend_ranking"
SHARE = "finance.supplier_share"
#: Base periods of whole months over before the as-of date (2026-05-15): (phrase, possessive, start, end).
BASES: tuple[tuple[str, str, str, str], ...] = (
    ("Q1 2026", "Q1 2026's", "2026-01-01", "2026-04-01"), ("Q4 2025", "Q4 2025's", "2025-10-01", "2026-01-01"),
    ("H2 2025", "H2 2025's", "2025-07-01", "2026-01-01"), ("April 2026", "April 2026's", "2026-04-01", "2026-05-01"),
    ("March 2026", "March 2026's", "2026-03-01", "2026-04-01"), ("Q3 2025", "Q3 2025's", "2025-07-01", "2025-10-01"),
    ("the last full quarter", "the last full quarter's", "2026-01-01", "2026-04-01"),
    ("Feb 2026", "Feb 2026's", "2026-02-01", "2026-03-01"),
)
#: Projection targets: (phrase, months).
TARGETS: tuple[tuple[str, int], ...] = (("Q3 2026", 3), ("H2 2026", 6), ("Q4 2026", 3), ("2027", 12))
SPANS: tuple[tuple[str, int], ...] = (("half-year", 6), ("year", 12), ("quarter", 3), ("6 months", 6),
                                      ("12 months", 12))
#: Periods for averages and concentration (any half-open period): (phrase, start, end).
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"), ("in April 2026", "2026-04-01", "2026-05-01"),
    ("in Q4 2025", "2025-10-01", "2026-01-01"), ("since January 2026", "2026-01-01", "2026-05-16"),
)
ANNUAL = ("Annualise {cs} {p} spend.", "What is {cs} {p} spend on an annualised basis?",
          "Annualized run-rate for {c} based on {p}?", "Based on {p}, what's the annualised spend run-rate for {c}?",
          "{c}: {p} spend, annualised", "Annualise {cs} {p} spend for the forecast.",
          "Projected full-year spend for {c} based on {p}?", "Give me a full-year projection for {c} from {p}.")
PACE = ("If {c} keeps {pp} pace, what would {t} land at?", "If {c} keeps {pp} pace, what would {t} come to?")
SPAN = ("At the {p} monthly pace, what would {cs} spend be for a full {s}?",
        "At the {p} pace, what would {cs} spend be over a full {s}?")
AVG = ("Average invoice value for {c} {p} (gross, incl. tax)?", "What's the average gross invoice value (incl. VAT) "
       "for {c} {p}?", "Average invoice size incl. tax for {c} {p}?", "Mean invoice amount for {c} {p}?",
       "average invoice value (gross) {c} {p}", "How big is the average invoice at {c} {p}, incl. tax?",
       "Average value per invoice for {c} {p}?")
CONC = ("Top-{n} supplier concentration for {c} {p}?", "What share of {cs} spend {p} sits with the top {n} "
        "suppliers?", "How concentrated is {cs} spend {p}, i.e. the top-{n} vendors' share?",
        "Share of {cs} spend {p} held by the top {n} vendors?")
RUNNING = (("Annualise {cs} 2026 spend.", "2026"), ("Annualise {cs} spend since January 2026.", "since"),
           ("What is {cs} May 2026 spend on an annualised basis?", "May 2026"))
_ALL = ("all companies", "all companies'")


def _company(rng: random.Random) -> tuple[str, str, dict[str, Any]]:
    """(name, possessive, parameters): a company of the tenant or all of them together."""
    if rng.random() < 0.25:
        return _ALL[0], _ALL[1], {}
    cid = rng.choice(sorted(COMPANIES))
    name = rng.choice([s for s in COMPANIES[cid] if not s.endswith("'s")])
    return name, f"{name}'s", {"company_id": cid}


def _annualised(rng: random.Random) -> Probe:
    c, cs, params = _company(rng)
    p, _, start, end = rng.choice(BASES)
    question = rng.choice(ANNUAL).format(c=c, cs=cs, p=p)
    return Probe("annualised", question, Call(PROJECTION, {**params, "start_date": start, "end_date": end,
                                                           "horizon_months": 12}, outputs=("projected_spend",)))


def _pace(rng: random.Random) -> Probe:
    c, cs, params = _company(rng)
    p, pp, start, end = rng.choice(BASES[:6])
    if rng.random() < 0.5:
        t, months = rng.choice(TARGETS)
        question = rng.choice(PACE).format(c=c, pp=pp, t=t)
    else:
        s, months = rng.choice(SPANS)
        question = rng.choice(SPAN).format(cs=cs, p=p, s=s)
    return Probe("pace", question, Call(PROJECTION, {**params, "start_date": start, "end_date": end,
                                                     "horizon_months": months}, outputs=("projected_spend",)))


def _average(rng: random.Random) -> Probe:
    c, _, params = _company(rng)
    p, start, end = rng.choice(PERIODS)
    question = rng.choice(AVG).format(c=c, p=p)
    return Probe("average", question, Call(AVERAGE, {**params, "start_date": start, "end_date": end},
                                           outputs=("average_invoice_value",)))


def _concentration(rng: random.Random) -> Probe:
    c, cs, params = _company(rng)
    p, start, end = rng.choice(PERIODS)
    n = rng.choice((2, 3))
    question = rng.choice(CONC).format(c=c, cs=cs, p=p, n=n)
    # the suppliers are ranked when the probe runs (the ranking called directly); the limit carries N
    return Probe("concentration", question, Call(RANKING, {**params, "start_date": start, "end_date": end,
                                                           "limit": n, "direction": "top",
                                                           "order_by": "total_spend"},
                                                 group_by=("supplier_id",), outputs=("share_percent",)))


def _running(rng: random.Random) -> Probe:
    _, cs, _ = _company(rng)
    frame, about = rng.choice(RUNNING)
    return Probe("running", frame.format(cs=cs), None, ("not yet over", "not whole calendar months", about))


GENERATORS = {"annualised": _annualised, "pace": _pace, "average": _average, "concentration": _concentration,
              "running": _running}


def probes(seed: int, per_class: int = 20) -> list[Probe]:
    """``per_class`` questions of each class: seeded slot values, duplicates dropped (at most ten draws a probe:
    a class with fewer distinct questions stops there)."""
    rng = random.Random(seed)
    return [probe for klass, make in GENERATORS.items()
            for probe in distinct(partial(_drawn, klass, make, rng), attrgetter("question"), per_class,
                                  10 * per_class + 1)]


def _drawn(klass: str, make: Callable[[random.Random], Probe], rng: random.Random) -> Probe:
    probe = make(rng)
    return Probe(klass, _style(probe.question, rng), probe.expect, probe.about)


def _concentration_expected(session: Any, call: Call, question: str) -> tuple[Call | None, tuple[str, ...]]:
    """The share call of the top N suppliers (the ranking called directly), or ``None`` with the words a
    clarification must hold when the top N are not one set (a tie at the cut)."""
    n = int(call.parameters["limit"])
    ranked = session.direct(call, question)
    rows = [r.get("values") or {} for r in ranked.get("rows") or []]
    if any(int(r["rank"]) + int(r.get("tie_count") or 1) - 1 > n for r in rows if int(r["rank"]) <= n):
        return None, ("tied",)
    params = {k: v for k, v in call.parameters.items() if k not in ("limit", "direction", "order_by")}
    ids = [str(r["supplier_id"]) for r in rows if int(r["rank"]) <= n]
    if not ids:
        return None, ("no",)
    return Call(SHARE, {**params, "supplier_ids": ids}, outputs=("share_percent",)), ()


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        expect, about = probe.expect, probe.about
        if expect is not None and expect.metric == RANKING:
            expect, about = _concentration_expected(session, expect, probe.question)
        expected: list[str] | None = None
        no_rows = False
        if expect is not None:
            expected, no_rows = _normalize(expect, session.direct(expect, probe.question))
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(Probe(probe.klass, probe.question, expect, about), status, text, expected, no_rows)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question,
                                                   f"{expected}{' (none)' if no_rows else ''}", status, text))

    return run_probes(database, "probes-derived", (TENANT,), found, check, show)


def table(counts: Mapping[tuple[str, str], int]) -> str:
    return outcome_table(Counter(counts), tuple(GENERATORS), width=14)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=20)


if __name__ == "__main__":
    main()
