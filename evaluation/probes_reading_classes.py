"""Reading-class probes (issue 20): every constraint read, generated from slot grammars, asked through ``/v1/ask``
and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_reading_classes [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|
none]`` fills frames with seeded slot values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15):
every company spelling, every product group and its spellings, every supplier alias, the periods written many
ways. Each period and each expected call is computed here from the slots, never by the router's reader:

* **qualified_part**: a quarter or half with its fiscal or calendar year ("Q1 FY26", "H2 FY2025", "Q3 of
  calendar 2025", "FY26 Q1", "the second half of fiscal 2025"): one period, ``finance.company_spend``.
* **window_to_now**: "the 30 days up to and including today", "trailing 60-day", "the 8 weeks ending today".
* **unit_ending**: "the quarter ending 31 Dec 2025", "the month ended 28 Feb 2026": that whole unit.
* **year_to_now**: "where is X's spend for the year at, as of today", "spend for the year so far": the year to date.
* **group_bare**: a company, a product group and a period with no measure word ("Company A control cabinets Q1
  2026", "Company B – sensors, H2 2025"): the spend on the group and its subgroups.
* **product_breakdown**: "Company A product breakdown Q1 2026": the spend by product.
* **bought_list**: "list the product codes purchased", "List the catalog items X bought from Y in Q1": the spend
  by product (every product code and its amount).
* **vendor_list**: "X's active vendor list for Q1 2026 (anyone with a counted invoice)": the spend by supplier.
* **number_one**: "who's our #1 supplier at X in Q1 2026": ``finance.spend_ranking`` with limit 1.
* **anything_from**: "X – anything from Y in Q4 2025?": the spend with the supplier (no data said as such).
* **invoices_from**: "Which invoices from Y did X get in Q1 2026?": the invoice listing (threshold 0).
* **net_after_credits**: "Net spend of X with Y in Q1 2026 – after credits?": the governed (credit-netted) spend.

Outcomes are those of :func:`evaluation.probes_status.classify`. Written from the slot grammar alone, never from an
evaluation question; ``--seed 1`` is the one the reader was fixed on, other seeds are for counts only.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, SUPPLIERS, TENANT, outcome_table
from evaluation.probes_status import LISTING_METRIC, Expected, classify, expected_of

SPEND = "finance.company_spend"
RANKING = "finance.spend_ranking"
KINDS = ("qualified_part", "window_to_now", "unit_ending", "year_to_now", "group_bare", "product_breakdown",
         "bought_list", "vendor_list", "number_one", "anything_from", "invoices_from", "net_after_credits")
#: Whole periods the demo data covers, with the words that name them plainly: (phrase, start, end).
PLAIN = (("Q1 2026", "2026-01-01", "2026-04-01"), ("Q4 2025", "2025-10-01", "2026-01-01"),
         ("H2 2025", "2025-07-01", "2026-01-01"), ("2025", "2025-01-01", "2026-01-01"),
         ("March 2026", "2026-03-01", "2026-04-01"), ("Q3 2025", "2025-07-01", "2025-10-01"))
_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_NEXT = (AS_OF + dt.timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class ReadingProbe:
    """One generated question, its class and the governed calls whose values the answer must hold."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    #: Only the largest row of the first call is expected (a "#1" ranking asked through the plain breakdown).
    top_one: bool = False


def _month(year: int, month: int) -> dt.date:
    return dt.date(year + (month - 1) // 12, (month - 1) % 12 + 1, 1)


def _company(rng: random.Random) -> tuple[str, str]:
    company = rng.choice(sorted(COMPANIES))
    return company, rng.choice(COMPANIES[company]).removesuffix("'s")


def _supplier(rng: random.Random) -> tuple[str, str]:
    supplier = rng.choice(sorted(SUPPLIERS))
    kinds = SUPPLIERS[supplier]
    return supplier, rng.choice(kinds[rng.choice(sorted(k for k in kinds if k not in ("typo", "id")))])


def _spend(company: str, start: str, end: str, **more: Any) -> Call:
    return Call(SPEND, {"company_id": company, "start_date": start, "end_date": end, **more})


def _qualified_part(rng: random.Random) -> tuple[str, str, str]:
    year = rng.choice((2025, 2026))
    half = year == 2025 and rng.random() < 0.4  # (only whole periods before the as-of date)
    number = rng.randint(1, 2 if half else (1 if year == 2026 else 4))
    qualifier = rng.choice(("FY", "FY ", "fiscal year ", "fiscal ", "calendar ", "calendar year ", "CY"))
    written = f"{qualifier}{year % 100}" if qualifier in ("FY", "CY") and rng.random() < 0.5 else f"{qualifier}{year}"
    part = f"{'H' if half else 'Q'}{number}"
    phrase = rng.choice((f"{part} {written}", f"{part} of {written}", f"{written} {part}",
                         f"the {_ORDINAL[number]} {'half' if half else 'quarter'} of {written}"))
    months = 6 if half else 3
    start = _month(year, 1 + months * (number - 1))
    return phrase, start.isoformat(), _month(start.year, start.month + months).isoformat()


def _window(rng: random.Random) -> tuple[str, str, str]:
    unit = rng.choice(("day", "week", "month"))
    count = rng.randint(2, {"day": 120, "week": 20, "month": 6}[unit])
    end = AS_OF + dt.timedelta(days=1)
    if unit == "month":
        year, month = divmod(end.year * 12 + end.month - 1 - count, 12)
        start = dt.date(year, month + 1, min(end.day, calendar.monthrange(year, month + 1)[1]))
    else:
        start = end - dt.timedelta(days=count * (7 if unit == "week" else 1))
    phrase = rng.choice((f"in the {count} {unit}s up to and including today", f"over the {count} {unit}s up to today",
                         f"in the {count} {unit}s ending today", f"trailing {count}-{unit}", f"rolling {count}-{unit}"))
    return phrase, start.isoformat(), end.isoformat()


def _unit_ending(rng: random.Random) -> tuple[str, str, str]:
    word, months = rng.choice((("quarter", 3), ("month", 1), ("half-year", 6)))
    ends = {3: ((2025, 9), (2025, 12), (2026, 3)), 1: ((2025, 11), (2026, 2), (2026, 3)),
            6: ((2025, 6), (2025, 12))}[months]
    year, last = rng.choice(ends)
    day = calendar.monthrange(year, last)[1]
    written = rng.choice((f"{day} {calendar.month_name[last]} {year}", f"{day} {calendar.month_abbr[last]} {year}",
                          f"{calendar.month_name[last]} {day}, {year}", f"{year}-{last:02d}-{day:02d}"))
    end = _month(year, last + 1)
    start = _month(end.year, end.month - months)
    return (f"for the {word} {rng.choice(('ending', 'ended', 'ending on'))} {written}", start.isoformat(),
            end.isoformat())


def _plain(rng: random.Random) -> tuple[str, str, str]:
    return rng.choice(PLAIN)


def _probe(rng: random.Random, kind: str) -> ReadingProbe:
    company, c = _company(rng)
    if kind in ("qualified_part", "window_to_now", "unit_ending"):
        p, start, end = {"qualified_part": _qualified_part, "window_to_now": _window,
                         "unit_ending": _unit_ending}[kind](rng)
        question = rng.choice((f"{c} spend {p}", f"What did {c} spend {p}?", f"{c}: total spend {p}",
                               f"how much did {c} spend {p}?", f"{c}, {p} spend?"))
        return ReadingProbe(kind, question, (_spend(company, start, end),))
    if kind == "year_to_now":
        question = rng.choice((f"Where is {c}'s spend for the year at, as of today?", f"{c} spend for the year so far",
                               f"what's {c}'s spend for the year to date?", f"{c}: spend in the year as of today"))
        return ReadingProbe(kind, question, (_spend(company, f"{AS_OF.year}-01-01", _NEXT),))
    p, start, end = _plain(rng)
    if kind == "group_bare":
        group = rng.choice(sorted(GROUPS))
        spellings, leaves = GROUPS[group]
        g = rng.choice([s for s in spellings if s.lower() == s or s.istitle()])
        question = rng.choice((f"{c} {g} {p}", f"{c} – {g}, {p}", f"{g} only – {c}, {p}", f"{c}: {g}, {p}",
                               f"{c} {g} for {p}"))
        return ReadingProbe(kind, question, (_spend(company, start, end, product_group_ids=list(leaves)),))
    if kind == "product_breakdown":
        question = rng.choice((f"{c} product breakdown {p}", f"{c}: product breakdown for {p}",
                               f"product breakdown, {c}, {p}"))
        return ReadingProbe(kind, question, (Call(SPEND, _spend(company, start, end).parameters, ("product_code",)),))
    if kind == "bought_list":
        noun = rng.choice(("product codes", "catalog items", "products", "items", "SKUs"))
        verb = rng.choice(("purchased", "bought", "ordered"))
        supplier, s = _supplier(rng)
        if rng.random() < 0.5:
            question = rng.choice((f"{c} {p}: list the {noun} {verb}", f"{c}, {p} - list the {noun} {verb}"))
            call = Call(SPEND, _spend(company, start, end).parameters, ("product_code",))
        else:
            question = rng.choice((f"List the {noun} {c} {verb} from {s} in {p}",
                                   f"Show me the {noun} {c} {verb} from {s} in {p}"))
            call = Call(SPEND, _spend(company, start, end, supplier_ids=[supplier]).parameters, ("product_code",))
        return ReadingProbe(kind, question, (call,))
    if kind == "vendor_list":
        question = rng.choice((f"{c}'s active vendor list for {p} (anyone with a counted invoice)",
                               f"{c} active supplier list, {p}", f"list of active vendors at {c} in {p}",
                               f"{c}: vendor list for {p}"))
        return ReadingProbe(kind, question, (Call(SPEND, _spend(company, start, end).parameters, ("supplier_id",)),))
    if kind == "number_one":
        noun = rng.choice(("supplier", "vendor"))
        question = rng.choice((f"who's our #1 {noun} at {c} in {p}?", f"{c}: #1 {noun} in {p}",
                               f"which is {c}'s #1 {noun} for {p}?"))
        call = Call(RANKING, {"company_id": company, "start_date": start, "end_date": end, "limit": 1,
                              "direction": "top", "order_by": "total_spend"}, ("supplier_id",))
        return ReadingProbe(kind, question, (call,))
    supplier, s = _supplier(rng)
    if kind == "anything_from":
        question = rng.choice((f"{c} – anything from {s} in {p}?", f"{c}: anything bought from {s} in {p}?",
                               f"anything from {s} at {c} in {p}?"))
        return ReadingProbe(kind, question, (_spend(company, start, end, supplier_ids=[supplier]),))
    if kind == "invoices_from":
        question = rng.choice((f"Which invoices from {s} did {c} get in {p}?",
                               f"which invoices from {s} has {c} received in {p}?"))
        params = {"company_id": company, "start_date": start, "end_date": end, "supplier_ids": [supplier],
                  "threshold": "0", "direction": "above", "inclusive": True}
        return ReadingProbe(kind, question, (Call(LISTING_METRIC, params, outputs=("invoice_number",)),))
    after = rng.choice(("after credits", "net of credits", "after credit notes", "after all credits"))
    question = rng.choice((f"Net spend of {c} with {s} in {p} – {after}?", f"{c} net spend with {s}, {p}, {after}"))
    return ReadingProbe(kind, question, (_spend(company, start, end, supplier_ids=[supplier]),))


def probes(seed: int, per_class: int = 30, kinds: Sequence[str] = KINDS) -> list[ReadingProbe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed * 31 + 5)
    found: list[ReadingProbe] = []
    seen: set[str] = set()
    for kind in kinds:
        made = tries = 0
        while made < per_class and tries < per_class * 20:
            tries += 1
            probe = _probe(rng, kind)
            question = " ".join(probe.question.split())
            question = question[:1].upper() + question[1:]
            if question in seen:
                continue
            seen.add(question)
            found.append(ReadingProbe(probe.klass, question, probe.calls, probe.top_one))
            made += 1
    return found


def _expected(session: Any, call: Call) -> Expected:
    direct = session.client.post(f"/v1/metrics/{call.metric}/query", headers=session.headers, json={
        "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
    if direct.status_code != 200:
        raise SystemExit(f"direct {call.metric} call failed: {direct.text[:300]}")
    return expected_of(call, direct.json())


def run(database: str, found: Sequence[ReadingProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` and compare with its governed calls made directly (tenant-42)."""
    def check(session: ProbeClient, probe: ReadingProbe) -> Checked:
        expected = [_expected(session, call) for call in probe.calls]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(status, text, expected)
        if (outcome == "silent_wrong" and all(e.no_data and e.ids is not None for e in expected)
                and text.startswith("No invoices")):
            outcome = "exact"  # an empty listing said as such ("No invoices of Company C dated in ...")
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-reading-classes", (TENANT,), found, check, show)


def _table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, KINDS, label="class", width=18, column=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=_table)


if __name__ == "__main__":
    main()


__all__ = ["KINDS", "ReadingProbe", "probes", "run"]
