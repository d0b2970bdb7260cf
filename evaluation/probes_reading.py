"""Reading probes: analyst-style phrasings generated from a slot grammar, asked in-process, counted by outcome.

``python -m evaluation.probes_reading [--database procura] [--limit N] [--show clarification|refusal|all]``
generates terse, lower-case, abbreviated and misspelled phrasings of questions whose every constraint the
governed metrics understand (a supplier, a product group, a product, a status, a currency, an amount range, a
ranking, a breakdown) over the demo vocabulary of ``tenant-42`` (seed 42), asks each through the in-process app
(as :mod:`evaluation.blind_score` does) and counts answered / clarification / refusal per class, with the reason
each clarification gives. It is a *training* set for the reader's vocabulary: it is written from the slot grammar
alone, never from an evaluation question, and lives outside ``eval/``.

The phrasings are generated deterministically (:func:`probes`), so a before/after comparison asks the same
questions. A question whose answer should be a clarification (a currency the company does not report in, an
unknown supplier) is marked ``expect="clarification"``: a clarification there is correct, not a false one.
"""

from __future__ import annotations

import argparse
import os
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

#: The demo tenant's vocabulary (seed 42): supplier spellings by id, groups, products, companies.
SUPPLIERS: dict[str, tuple[str, ...]] = {
    "SUP-18": ("Supplier Beta", "Beta", "beta", "Beta Supplies", "beta supplies gmbh", "BETA"),
    "SUP-22": ("Supplier Epsilon", "Epsilon", "epsilon instruments", "Epsilon Instr."),
    "SUP-27": ("Supplier Gamma", "Gamma", "gamma controls", "Gamma Control Systems AG"),
    "SUP-31": ("Supplier Delta", "Delta", "delta enclosures"),
    "SUP-35": ("Supplier Zeta", "Zeta", "zeta sensorik"),
    "SUP-60": ("Supplier Iota", "iota", "Iota Cables"),
}
GROUPS = {"PG-PRES": ("Pressure Sensors", "pressure sensors"), "PG-TEMP": ("temperature sensors",),
          "PG-CAB": ("Control Cabinets", "control cabinets"), "PG-CONS": ("consumables",),
          "PG-MON": ("Monitoring Products",)}
PRODUCTS = ("PRD-482", "PRD-491", "PRD-510", "PRD-611", "PRD-805")
COMPANIES = ("Company A", "company a", "Company B", "comp a", "COMP-A")
PERIODS = ("in Q1 2026", "q1 2026", "last quarter", "last qtr", "in 2025", "in march 2026", "for 2025", "2025",
           "in Q4 2025", "ytd")


@dataclass(frozen=True)
class Probe:
    """One generated question, its class and the outcome a correct reader gives."""

    klass: str
    question: str
    expect: str = "answer"  # or "clarification"


_FRAMES: dict[str, tuple[str, ...]] = {
    "spend": (
        "how much did {c} pay {s} {p}", "what's {c}'s bill with {s} {p}", "spend w/ {s} {p} for {c}",
        "{s} total {p} {c}", "amt paid to {s} by {c} {p}", "{c} total spend with {s} {p}",
        "how much have we spent with {s} {p}? ({c})", "{c} spend {s} {p}", "what did {c} spend with {s} {p}?",
        "total {c} spend w/ {s}, {p}", "{c}: how much did we pay to {s} {p}", "{c} spending with {s} {p}",
        "how much do we spend with {s} {p} at {c}", "{c} - {s} - {p} - total", "what was our spend with {s} {p}, {c}",
        "{c} purchases from {s} {p}", "how much did {c} buy from {s} {p}", "{c} overall spend with {s} {p}",
        "what's the total we paid {s} {p} ({c})", "{c} expenses with {s} {p}",
    ),
    "group": (
        "{c} spend on {g} {p}", "how much did {c} spend on {g} {p}", "{g} spend {p} for {c}",
        "what did {c} pay for {g} {p}", "{c} total {g} spend {p}", "{c} spending on {g} {p}",
        "how much went on {g} {p} at {c}", "{c}: {g} {p}, total spend",
    ),
    "counts": (
        "how many invoices from {s} {p} for {c}", "how many invoices did {c} get from {s} {p}",
        "number of invoices from {s} {p} ({c})", "{c} invoice count {s} {p}", "# of invoices from {s} {p} {c}",
        "count of {c} invoices from {s} {p}", "how many invoices did we receive from {s} {p}, {c}",
        "how many {s} invoices {p} for {c}", "no. of invoices {c} {s} {p}",
    ),
    "unit_price": (
        "avg price per unit of {prd} {p} for {c}", "average unit price of {prd} {p} ({c})",
        "what did {c} pay per unit for {prd} {p}", "{c} avg unit price {prd} {p}",
        "unit price {prd} {p} {c}", "average price we paid for {prd} {p} at {c}",
        "what's the avg price of {prd} {p} for {c}", "mean unit price for {prd} {p}, {c}",
        "{c}: price per unit {prd} {p}", "how much did {c} pay on average per unit of {prd} {p}",
        "avg cost per unit of {prd} {p} for {c}", "{c} per-unit cost of {prd} {p}", "price of {prd} {p} ({c})",
        "what did {c} pay per piece for {prd} {p}", "{c} average price paid per unit {prd} {p}",
        "{prd} unit cost {p} at {c}", "what was the avg unit price for {prd} {p}, {c}?",
    ),
    "shares": (
        "{s}'s share of spend {p} for {c}", "what % of {c} spend went to {s} {p}",
        "what percentage of {c}'s spend was with {s} {p}", "share of {c} spend with {s} {p}",
        "{s} share of {c} spend {p}", "what share of our spend went to {s} {p}? {c}",
        "how much of {c}'s spend went to {s} {p} in %", "{c}: percent of spend with {s} {p}",
        "what portion of {c} spend was {s} {p}", "{s} as a % of total {c} spend {p}",
        "what fraction of {c}'s spend went to {s} {p}", "how much of {c}'s total spend did {s} account for {p}",
        "{s} % of {c} spend {p}", "{c}: {s}'s percentage of total spend {p}", "proportion of {c} spend with {s} {p}",
    ),
    "status": (
        "unpaid invoices total from {s} {p} {c}", "open invoices with {s} {p} {c}",
        "how much is outstanding with {s} {p} for {c}", "{c} outstanding amount {s} {p}",
        "settled spend with {s} {p} {c}", "{c} paid invoices from {s} {p}", "{c} spend with {s} {p}, paid only",
        "total of unpaid {s} invoices {p} for {c}", "how much do we still owe {s} {p} ({c})",
        "{c} open amount with {s} {p}", "cleared invoices from {s} {p} for {c}",
        "{c}: invoices from {s} not yet paid {p}", "how much of {c}'s spend with {s} {p} is already paid",
        "{c} posted but unpaid invoices {s} {p}",
        "{c} spend with {s} {p} on unpaid invoices", "total open {s} invoices {p} for {c}",
        "{c} outstanding invoices from {s} {p}", "how much have we paid {s} so far {p}? {c}",
        "{c} spend with {s} {p}, settled invoices only", "{c} invoices awaiting payment from {s} {p}",
        "{c} paid spend with {s} {p}", "{c} unpaid spend {s} {p}",
    ),
    "credits": (
        "credit notes from {s} {p} {c}", "{c} credit notes {s} {p}", "total credit notes {p} from {s} for {c}",
        "{c} spend with {s} {p} excluding credit notes", "{c} spend with {s} {p} net of credit notes",
        "{c} credits from {s} {p}", "how much did {s} credit {c} {p}",
    ),
    "currency": (
        "{c} spend with {s} {p} in original currency", "{c} spend with {s} {p} in EUR",
        "{c} spend with {s} {p} in euros", "how much did {c} spend with {s} {p} in the invoice currency",
        "{c} spend with {s} {p} in local currency", "{c} spend {s} {p} in eur", "{c} spend {p} in original currency",
        "{c} spend by currency {p}", "{c} spend with {s} {p}, per invoice currency",
        "{c} USD invoices {p}", "{c} spend on invoices in USD {p}",
    ),
    "amounts": (
        "invoices between 5k and 10k EUR from {s} {p} for {c}", "{c} invoices over 10k {p}",
        "{c} invoices under €500 {p}", "{c} invoices of at least 2,000 EUR {p}", "{c} invoices above EUR 1.5k {p}",
        "which {c} invoices {p} were more than 5,000 euros", "{c} invoices no more than 1k EUR {p}",
        "{c} invoices from {s} above 1000 EUR {p}", "{c} invoices between €1,000 and €5,000 {p}",
        "{c} invoices from 2k to 8k EUR {p}", "list {c} invoices > 5k eur {p}",
        "{c}: invoices >= 10,000 EUR {p}", "invoices over €10k for {c} {p}",
    ),
    "ranking": (
        "top 5 vendors {p} {c}", "biggest 3 suppliers {p} for {c}", "{c} top suppliers by spend {p}",
        "bottom 3 suppliers {p} {c}", "smallest 2 vendors by spend {p}, {c}", "largest supplier {p} {c}",
        "{c} top 3 vendors {p}", "who were {c}'s biggest suppliers {p}", "top 5 product groups {p} for {c}",
        "{c}: top 10 suppliers {p}", "which supplier did {c} spend the most with {p}",
        "top 3 products by spend {p} {c}",
    ),
    "breakdown": (
        "{c} spend {p} split by month", "{c} spend {p} per month", "{c} monthly spend {p}",
        "{c} spend {p} by qtr", "{c} spend with {s} {p} by product code", "{c} spend {p} per supplier",
        "{c} spend {p} by vendor", "{c} spend {p} by category", "{c} spend {p} broken down by supplier",
        "{c} spend with {s} {p} month by month", "{c} spend {p} by product group", "{c} quarterly spend {p}",
        "{c} spend {p}, by month", "{c} spend per product {p}",
    ),
    "exclusions": (
        "{c} spend {p} excluding {s}", "{c} spend {p} except {s}", "{c} spend {p} w/o {s}",
        "{c} spend {p} ex {s}", "{c} spend {p} not counting {s}", "{c} spend on {g} {p} excluding {s}",
    ),
}
#: Frames a correct reader answers with a clarification (a conversion that is not governed, an open choice).
#: "in local currency" is no longer one: it reads as the invoice currencies, the reporting total beside them.
_EXPECT_CLARIFICATION: set[str] = set()


def probes(per_frame: int = 3, seed: int = 42) -> list[Probe]:
    """Deterministic probe questions: each frame filled ``per_frame`` times with seeded slot values."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in _FRAMES.items():
        for frame in frames:
            seen: set[str] = set()
            for _ in range(per_frame):
                sid = rng.choice(sorted(SUPPLIERS))
                question = frame.format(
                    c=rng.choice(COMPANIES), s=rng.choice(SUPPLIERS[sid]), p=rng.choice(PERIODS),
                    g=rng.choice(GROUPS[rng.choice(sorted(GROUPS))]), prd=rng.choice(PRODUCTS),
                )
                if question in seen:
                    continue
                seen.add(question)
                found.append(Probe(klass, question,
                                   "clarification" if frame in _EXPECT_CLARIFICATION else "answer"))
    return found


def outcome(body: object) -> tuple[str, str]:
    """(answered | clarification | refusal | error, the clarification question or the answer's first words)."""
    if not isinstance(body, dict) or "answer" not in body:
        return "error", str(body)[:200]
    answer = body["answer"]
    status = answer.get("status")
    if status in ("answered", "partial", "no_data"):
        return "answered", str(answer.get("text", ""))[:160]
    if status == "clarification":
        return "clarification", str(answer.get("clarification_question") or answer.get("text") or "")[:300]
    return "refusal", f"{status}: {str(answer.get('text', ''))[:240]}"


def run(database: str, per_frame: int) -> Iterator[tuple[Probe, str, str]]:
    from evaluation.blind_score import ask_all

    found = probes(per_frame)
    asked = ask_all([{"tenant": "tenant-42", "as_of": "2026-05-15", "question": p.question} for p in found],
                    database, progress=lambda *a: None)
    for probe, (_, _, body, _) in zip(found, asked, strict=True):
        kind, text = outcome(body)
        yield probe, kind, text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("PROCURA_DB_NAME", "procura"))
    parser.add_argument("--per-frame", type=int, default=3)
    parser.add_argument("--show", choices=("clarification", "refusal", "false", "all", "none"), default="false")
    args = parser.parse_args(argv)
    by_class: dict[str, Counter[str]] = {}
    for probe, kind, text in run(args.database, args.per_frame):
        false = kind != "answered" and not (kind == "clarification" and probe.expect == "clarification")
        label = "false_" + kind if false else kind
        by_class.setdefault(probe.klass, Counter())[label] += 1
        if args.show == "all" or (args.show == "false" and false) or args.show == kind:
            print(f"[{kind}] ({probe.klass}) {probe.question}\n    -> {text}")
    total: Counter[str] = Counter()
    print(f"\n{'class':<12} {'n':>4} {'answered':>9} {'clar_ok':>8} {'false_clar':>11} {'refusal':>8}")
    for klass, counts in by_class.items():
        total.update(counts)
        print(f"{klass:<12} {sum(counts.values()):>4} {counts['answered']:>9} {counts['clarification']:>8} "
              f"{counts['false_clarification']:>11} {counts['false_refusal'] + counts['false_error']:>8}")
    print(f"{'total':<12} {sum(total.values()):>4} {total['answered']:>9} {total['clarification']:>8} "
          f"{total['false_clarification']:>11} {total['false_refusal'] + total['false_error']:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
