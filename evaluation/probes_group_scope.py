"""Group-scope probes: "the group" as every company of the tenant, a company's share of the group, companies asked
each on their own, asked through ``/v1/ask`` and compared with the governed metric called directly.

``python -m evaluation.probes_group_scope [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|none]``

The failures this class guards against: "group spend", "what did the group spend", "the group's March spend",
"Northwind spend (group)" asked back as "which company?" or named as an unknown word; "Company A's share of group
spend" asked as "which supplier's share?"; "A and C each" or "of Xenon and of Ypsilon" asked as "which company?";
"all companies except Company C ... with Supplier Delta" answered with Delta excluded (a silent wrong figure); a
greeting ("Hi AP,") named as an unknown name; and, the other way round, a product group's "group" ("the Sensors
group spend at Company A") widened to the whole tenant. Classes (demo tenant-42: Company A, B and C):

* ``total``: a group word, a period, optionally a supplier or product group: ``finance.company_spend`` without a
  company (every company of the tenant, bounded by its row-level security);
* ``share``: a company's share of the group's spend: its row of ``finance.spend_ranking`` by company
  (``share_of_total_percent``, over the all-companies total);
* ``each``: two companies' shares asked with "each" (or "A's and B's share"): both companies' rows;
* ``separate``: "spend of A and of B": each company's ``finance.company_spend``;
* ``change``: group spend of a period against another: both periods' all-companies totals;
* ``count``: invoices the group booked: ``finance.invoice_count`` without a company;
* ``by_entity``: group spend split by entity / subsidiary: ``finance.company_spend`` by ``company_id``;
* ``except``: all companies except one, with a supplier: ``finance.company_spend`` over the companies left,
  the supplier kept as the filter;
* ``greeting``: "Hi AP, ..." before a company's spend with a supplier: the company's figure;
* ``run_rate``: the group's monthly run-rate: the all-companies total over the calendar months;
* ``restated``: the group word with every company named together ("Total group spend (A + B + C)");
* ``product_group``: a product group's "group" with a company named: that company's spend on the group (the
  tenant-wide figure would be a silent wrong one).

Seed 1 is the training half, seed 2 the held-out half. Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from operator import attrgetter
from typing import Any

from evaluation.constraint_probes import Call, _present, _tokens
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, distinct, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, SUPPLIERS, TENANT, _style, outcome_table

SPEND = "finance.company_spend"
RANKING = "finance.spend_ranking"


@dataclass(frozen=True)
class Probe:
    """One question and how its expected values come from governed calls."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    #: Picks the expected tokens from the calls' results (default: every call's output values).
    pick: Callable[[Sequence[Mapping[str, Any]]], list[str]] | None = None


#: Periods as of 2026-05-15 (phrase, start, end exclusive) and the period before each (for a change).
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("Q4 2025", "2025-10-01", "2026-01-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("in March 2026", "2026-03-01", "2026-04-01"), ("last quarter", "2026-01-01", "2026-04-01"),
    ("YTD", "2026-01-01", "2026-05-16"), ("in 2026 so far", "2026-01-01", "2026-05-16"),
    ("between 1 Jan 2026 and 31 Mar 2026 inclusive", "2026-01-01", "2026-04-01"),
    ("in Feb 2026", "2026-02-01", "2026-03-01"),
)
#: (current phrase, start, end, base phrase, base start, base end) for a change of the group's spend.
CHANGES: tuple[tuple[str, str, str, str, str, str], ...] = (
    ("Q1 2026", "2026-01-01", "2026-04-01", "Q4 2025", "2025-10-01", "2026-01-01"),
    ("April 2026", "2026-04-01", "2026-05-01", "March 2026", "2026-03-01", "2026-04-01"),
    ("March 2026", "2026-03-01", "2026-04-01", "February 2026", "2026-02-01", "2026-03-01"),
    ("Q4 2025", "2025-10-01", "2026-01-01", "Q3 2025", "2025-07-01", "2025-10-01"),
)
#: Frames of a total over the group ({p}: period, {x}: an optional " with <supplier>" / " on <group>").
TOTAL = ("Group spend{x} {p}?", "What did the group spend{x} {p}?", "How much did the group spend{x} {p}?",
         "Total group spend{x} {p}", "the group's spend{x} {p}", "Spend{x} {p} (group)",
         "Group-level spend{x} {p}", "What was our group spend{x} {p}?", "Spend{x} across the group {p}",
         "Whole group spend{x} {p}?", "Spend{x} for the whole group {p}", "total spend at group level{x} {p}")
SHARE = ("What share of group spend {p} did {c} account for?", "{c}'s share of group spend {p}?",
         "{c}'s share of the group's spend {p}", "What % of the group's spend {p} was {c}?",
         "Share of {c} in group spend {p}?")
EACH = ("What share of group spend {p} did {c1} and {c2} each account for?",
        "{c1}'s and {c2}'s share of group spend {p}?", "Share of group spend {p}: {c1} and {c2} each?")
SEPARATE = ("Spend {p} of {c1} and of {c2}?", "What did we spend {p} for {c1} and for {c2}?")
CHANGE = ("Group spend {cur} vs {base}?", "Change in group spend {cur} vs {base} in %?",
          "How did the group's spend move in {cur} vs {base}?")
COUNT = ("How many invoices did the group book {p}?", "Number of group invoices {p}", "group invoice count {p}")
BY_ENTITY = ("Split group spend {p} by entity.", "Group spend {p} by legal entity", "Spend {p} per subsidiary, group",
             "Group spend by company {p}")
EXCEPT = ("What did all companies except {c} spend with {s} {p}?", "Group spend excluding {c} with {s} {p}",
          "Spend with {s} {p}, all companies except {c}")
GREETING = ("Hi AP, how much did {c} spend with {s} {p}?", "Hello procurement team: {c} spend with {s} {p}?",
            "Hi there, what was {c}'s spend with {s} {p}?")
#: Whole-month periods for a run-rate: (phrase, start, end, months).
RATE_PERIODS: tuple[tuple[str, str, str, int], ...] = (
    ("Q1 2026", "2026-01-01", "2026-04-01", 3), ("H2 2025", "2025-07-01", "2026-01-01", 6),
    ("FY2025", "2025-01-01", "2026-01-01", 12), ("the last 3 full months", "2026-02-01", "2026-05-01", 3),
    ("Q4 2025", "2025-10-01", "2026-01-01", 3),
)
RUN_RATE = ("Group monthly run-rate over {p}?", "Monthly run-rate of group spend in {p}",
            "What was the group's monthly run-rate in {p}?")
RESTATED = ("Total group spend ({cs}) {p}?", "Group spend {p}, i.e. {cs} combined", "group-wide spend ({cs}) {p}")
PRODUCT_GROUP = ("{g} group spend at {c} {p}", "What did {c} spend on the {g} group {p}?",
                 "{c}: {g} group spend {p}")


def _supplier(rng: random.Random) -> tuple[str, str]:
    sid = rng.choice(sorted(SUPPLIERS))
    return sid, rng.choice(SUPPLIERS[sid]["name"] + SUPPLIERS[sid]["no_legal"])


def _company(rng: random.Random, exclude: Sequence[str] = ()) -> tuple[str, str]:
    cid = rng.choice([c for c in sorted(COMPANIES) if c not in exclude])
    return cid, rng.choice([s for s in COMPANIES[cid] if not s.endswith("'s")])


def _shares(company_ids: Sequence[str]) -> Callable[[Sequence[Mapping[str, Any]]], list[str]]:
    """The companies' ``share_of_total_percent`` rows of a ranking by company, two decimals."""
    def pick(results: Sequence[Mapping[str, Any]]) -> list[str]:
        rows = [r.get("values", {}) for r in results[0].get("rows", ())]
        return [f"{Decimal(str(v['share_of_total_percent'])).quantize(Decimal('0.01'))}"
                for c in company_ids for v in rows if v.get("company_id") == c]
    return pick


def _ranking(start: str, end: str) -> Call:
    return Call(RANKING, {"start_date": start, "end_date": end, "limit": 10, "direction": "top"},
                group_by=("company_id",), outputs=("share_of_total_percent",))


def _total(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    roll = rng.random()
    extra: dict[str, Any] = {}
    x = ""
    if roll < 0.35:
        sid, name = _supplier(rng)
        x, extra = f" with {name}", {"supplier_ids": [sid]}
    elif roll < 0.6:
        gid = rng.choice(sorted(GROUPS))
        x, extra = f" on {GROUPS[gid][0][0]}", {"product_group_ids": list(GROUPS[gid][1])}
    q = rng.choice(TOTAL).format(p=p, x=x)
    return Probe("total", q, (Call(SPEND, {"start_date": start, "end_date": end, **extra},
                                   outputs=("total_spend",)),))


def _share(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    cid, name = _company(rng)
    q = rng.choice(SHARE).format(p=p, c=name)
    return Probe("share", q, (_ranking(start, end),), _shares([cid]))


def _each(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    c1, n1 = _company(rng)
    c2, n2 = _company(rng, (c1,))
    q = rng.choice(EACH).format(p=p, c1=n1, c2=n2)
    return Probe("each", q, (_ranking(start, end),), _shares([c1, c2]))


def _separate(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    c1, n1 = _company(rng)
    c2, n2 = _company(rng, (c1,))
    q = rng.choice(SEPARATE).format(p=p, c1=n1, c2=n2)
    return Probe("separate", q, tuple(Call(SPEND, {"company_id": c, "start_date": start, "end_date": end},
                                           outputs=("total_spend",)) for c in (c1, c2)))


def _change(rng: random.Random) -> Probe:
    cur, s, e, base, bs, be = rng.choice(CHANGES)
    q = rng.choice(CHANGE).format(cur=cur, base=base)
    return Probe("change", q, (Call(SPEND, {"start_date": s, "end_date": e}, outputs=("total_spend",)),
                               Call(SPEND, {"start_date": bs, "end_date": be}, outputs=("total_spend",))))


def _count(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    q = rng.choice(COUNT).format(p=p)
    return Probe("count", q, (Call("finance.invoice_count", {"start_date": start, "end_date": end,
                                                             "document_types": ["invoice"]},
                                   outputs=("invoice_count",)),))


def _by_entity(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    q = rng.choice(BY_ENTITY).format(p=p)
    return Probe("by_entity", q, (Call(SPEND, {"start_date": start, "end_date": end}, group_by=("company_id",),
                                       outputs=("total_spend",)),))


def _except(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    cid, name = _company(rng)
    sid, sname = _supplier(rng)
    q = rng.choice(EXCEPT).format(p=p, c=name, s=sname)
    left = [c for c in sorted(COMPANIES) if c != cid]
    return Probe("except", q, (Call(SPEND, {"company_ids": left, "supplier_ids": [sid], "start_date": start,
                                            "end_date": end}, outputs=("total_spend",)),))


def _greeting(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    cid, name = _company(rng)
    sid, sname = _supplier(rng)
    q = rng.choice(GREETING).format(p=p, c=name, s=sname)
    return Probe("greeting", q, (Call(SPEND, {"company_id": cid, "supplier_ids": [sid], "start_date": start,
                                              "end_date": end}, outputs=("total_spend",)),))


def _rate(months: int) -> Callable[[Sequence[Mapping[str, Any]]], list[str]]:
    """The all-companies total over the months (router/run_rate.py's derivation): its lower cent."""
    def pick(results: Sequence[Mapping[str, Any]]) -> list[str]:
        from router.run_rate import run_rate_range

        total = (results[0].get("rows") or [{}])[0].get("values", {}).get("total_spend")
        return [] if total is None else [str(run_rate_range(Decimal(str(total)), months)[0])]
    return pick


def _run_rate(rng: random.Random) -> Probe:
    p, start, end, months = rng.choice(RATE_PERIODS)
    q = rng.choice(RUN_RATE).format(p=p)
    return Probe("run_rate", q, (Call(SPEND, {"start_date": start, "end_date": end}, outputs=("total_spend",)),),
                 _rate(months))


def _restated(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    names = [rng.choice([s for s in COMPANIES[c] if not s.endswith("'s")]) for c in sorted(COMPANIES)]
    rng.shuffle(names)
    q = rng.choice(RESTATED).format(p=p, cs=rng.choice((" + ", ", ")).join(names))
    return Probe("restated", q, (Call(SPEND, {"start_date": start, "end_date": end}, outputs=("total_spend",)),))


def _product_group(rng: random.Random) -> Probe:
    p, start, end = rng.choice(PERIODS)
    cid, name = _company(rng)
    gid = rng.choice(sorted(GROUPS))
    q = rng.choice(PRODUCT_GROUP).format(p=p, c=name, g=GROUPS[gid][0][0])
    return Probe("product_group", q, (Call(SPEND, {"company_id": cid, "product_group_ids": list(GROUPS[gid][1]),
                                                   "start_date": start, "end_date": end},
                                           outputs=("total_spend",)),))


MAKERS: dict[str, Callable[[random.Random], Probe]] = {
    "total": _total, "share": _share, "each": _each, "separate": _separate, "change": _change, "count": _count,
    "by_entity": _by_entity, "except": _except, "greeting": _greeting, "restated": _restated, "run_rate": _run_rate,
    "product_group": _product_group,
}


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class (seeded frames and slot values), duplicates dropped."""
    rng = random.Random(seed)
    return [probe for make in MAKERS.values()
            for probe in distinct(partial(_drawn, make, rng), attrgetter("question"), per_class, per_class * 5)]


def _drawn(make: Callable[[random.Random], Probe], rng: random.Random) -> Probe:
    """One probe of ``make``'s class, with analyst noise unless the class's own words are the point."""
    probe = make(rng)
    if probe.klass in ("greeting", "except", "run_rate"):
        return probe
    return Probe(probe.klass, _style(probe.question, rng), probe.calls, probe.pick)


def classify(status: str, text: str, expected: list[str]) -> str:
    """exact: every expected value in the answer; a clarification where a figure is governed: false_clar."""
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if expected and all(_present(t, text) for t in expected):
        return "exact"
    if not expected and status == "no_data":
        return "exact"  # the governed metric has no line either: no data, stated as such
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        results = [session.direct(c, probe.question) for c in probe.calls]
        expected = probe.pick(results) if probe.pick is not None else [
            t for c, r in zip(probe.calls, results, strict=True) for t in _tokens(r, c)]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(status, text, expected)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-group-scope", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(MAKERS))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


__all__ = ["MAKERS", "Probe", "classify", "main", "probes"]

if __name__ == "__main__":
    main()
