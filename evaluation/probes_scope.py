"""Scope probes: company names with typos, grains over open ranges, compound asks that share (or do not share) a
scope, partitive rankings and rankings of product-group levels; asked through ``/v1/ask`` and compared with the
governed metrics called directly with the slot values.

``python -m evaluation.probes_scope [--database procura] [--seed 5] [--per-class 30] [--class grain_range]
[--show wrong|all|none] [--json out.json]`` fills frames with seeded slot values of the demo vocabulary
(``tenant-42``, seed 42, as of 2026-05-15; the vocabulary of :mod:`evaluation.probes_clarify`).

Classes:

* ``company_typo``: a company named with one edit (swap, drop, double or replace one letter of a word of at least
  five letters): the figure of that company, exactly as when it is spelled right;
* ``company_unknown``: a company-like name one edit from none (or a letter no company has): a clarification about
  the company, never the figure of another one;
* ``grain_range``: a grain ("per quarter", "monthly") over a range that runs to the as-of date or to a later period
  ("since Q3 2025", "from Q3 2025 up to today", "from H2 2025 onwards", "from Q3 2025 through Q1 2026"): every
  bucket of the range;
* ``two_measures``: two measures over one scope ("total spend and number of invoices"): both, the second over the
  whole scope of the first (company, period, supplier);
* ``two_periods``: parts that each name their own period: each part's figure over its own period, no
  clarification about "more than one period";
* ``anaphora``: "..., and which invoices are they?" after a status-filtered figure: the invoices of the first
  part's company, period and statuses;
* ``partitive_rank``: "of the suppliers X bought from in P, which two had the lowest spend": one ranking;
* ``group_rank``: "biggest product sub-group" / "top-level group": groups of that level ranked, not products; a
  bare "product group" is each product's own catalog group, a bare "category" the top level;
* ``all_companies``: "all companies", "alle Gesellschaften", "X's share of our total": a change, an invoice count or
  a company's share over every company of the tenant together (one reporting currency), in one governed call;
* ``bare_breakdown``: "{company} {period} by supplier" / "by month" with no measure word: the spend broken down;
* ``currency_mix``: "currency mix", "non-EUR spend by currency, originals and EUR", "EUR spend by invoice
  currency": each invoice currency's row (the non-EUR ones only when asked) with the reporting total; "share of
  non-EUR spend": every invoice currency but the reporting one as the part of the share.

Each probe carries the governed calls its slot values mean (one per part of a compound), or the words a
clarification must be about. Outcomes are those of :func:`evaluation.probes_clarify.classify`: ``exact`` when every
value of every call is in the answer. ``--seed 5`` is the training seed; ``--seed 6`` is held out (counts only).
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.constraint_probes import Call, _present
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import (
    AS_OF,
    COMPANIES,
    GROUPS,
    PERIODS,
    SUPPLIERS,
    TENANT,
    _normalize,
    outcome_table,
)

SPEND = "finance.company_spend"
SUPPLIER_SPEND = "finance.aggregate_spend"
COUNT = "finance.invoice_count"
RANKING = "finance.spend_ranking"
LISTING = "finance.invoices_above_threshold"
#: Not a metric: checked in the plan (tests/unit), not called directly by :func:`run`.
APPROVED = "graph.find_approved_vendors"
DEFAULT_STATUSES = ["posted", "paid"]
TODAY_END = "2026-05-16"  # the day after the as-of date: "up to today" is inclusive

#: Ranges a grain runs over: (phrase, start, end exclusive) as of 2026-05-15.
RANGES: tuple[tuple[str, str, str], ...] = (
    ("since Q3 2025", "2025-07-01", TODAY_END), ("from Q3 2025 up to today", "2025-07-01", TODAY_END),
    ("from Q4 2025 until now", "2025-10-01", TODAY_END), ("from H2 2025 onwards", "2025-07-01", TODAY_END),
    ("starting Q1 2026", "2026-01-01", TODAY_END), ("since 2025", "2025-01-01", TODAY_END),
    ("from Q3 2025 through Q1 2026", "2025-07-01", "2026-04-01"), ("since January 2026", "2026-01-01", TODAY_END),
    ("from November 2025 to date", "2025-11-01", TODAY_END), ("since H2 2025", "2025-07-01", TODAY_END),
    ("from Q2 2025 up to now", "2025-04-01", TODAY_END), ("from 2025 until Q1 2026", "2025-01-01", "2026-04-01"),
    ("starting in Q4 2025", "2025-10-01", TODAY_END), ("since the start of 2026", "2026-01-01", TODAY_END),
    ("since last quarter", "2026-01-01", TODAY_END), ("from Q3 2025 to date", "2025-07-01", TODAY_END),
    ("since October", "2025-10-01", TODAY_END), ("from H1 2025 through Q4 2025", "2025-01-01", "2026-01-01"),
    # with a grain, "from X to Y" is one range (a change between X and Y has no grain)
    ("from Q3 2025 to Q1 2026", "2025-07-01", "2026-04-01"), ("from October 2025 to March 2026", "2025-10-01",
                                                              "2026-04-01"),
)
GRAINS: tuple[tuple[str, str], ...] = (
    ("per quarter", "quarter"), ("by quarter", "quarter"), ("quarterly", "quarter"), ("quarter by quarter", "quarter"),
    ("per month", "month"), ("by month", "month"), ("monthly", "month"), ("month by month", "month"),
)
#: Status phrases of an amount and the statuses they select.
STATUS_PHRASES: tuple[tuple[str, list[str]], ...] = (
    ("open", ["posted"]), ("unpaid", ["posted"]), ("outstanding", ["posted"]), ("paid", ["paid"]),
    ("open (posted, not paid)", ["posted"]), ("settled", ["paid"]),
)
#: Rank sizes: (words, n).
NUMBERS: tuple[tuple[str, int], ...] = (("two", 2), ("three", 3), ("2", 2), ("3", 3), ("one", 1))
#: Product-group levels: (words, governed dimension).
LEVELS: tuple[tuple[str, str], ...] = (
    ("product sub-group", "product_group_id"), ("sub-group", "product_group_id"), ("subgroup", "product_group_id"),
    ("product subcategory", "product_group_id"), ("sub-category", "product_group_id"),
    ("leaf product group", "product_group_id"), ("top-level group", "top_product_group_id"),
    ("top-level product group", "top_product_group_id"), ("top-level category", "top_product_group_id"),
    ("product group", "product_group_id"), ("main product group", "top_product_group_id"),
    ("category", "top_product_group_id"), ("material group", "product_group_id"),
)
#: All-company scope words (tenant-42 has three companies).
ALL_SCOPE: tuple[str, ...] = ("all companies", "all companies together", "across all companies", "group-wide",
                              "all three companies combined", "all entities")
ALL_SCOPE_DE: tuple[str, ...] = ("alle Gesellschaften", "über alle Gesellschaften", "alle Firmen", "konzernweit")
COMPARISON = "finance.spend_comparison"
DOCUMENT = "finance.document_currency_spend"
SHARE_OF_ALL = "finance.spend_ranking"


@dataclass(frozen=True)
class Probe:
    """One generated question: its class, the governed call of each of its parts (empty: a clarification is the
    answer, about one of ``about``)."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    about: tuple[str, ...] = ()
    slots: tuple[str, ...] = field(default=())


def typo(word: str, rng: random.Random) -> str:
    """``word`` with one edit a typist makes: two neighbours swapped, a letter dropped, doubled or replaced."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    while True:
        i = rng.randrange(1, len(word) - 1)  # the first letter is kept: typos rarely hit it
        kind = rng.choice(("swap", "drop", "double", "replace"))
        if kind == "swap":
            out = word[:i] + word[i + 1] + word[i] + word[i + 2:]
        elif kind == "drop":
            out = word[:i] + word[i + 1:]
        elif kind == "double":
            out = word[:i] + word[i] + word[i:]
        else:
            out = word[:i] + rng.choice([c for c in letters if c != word[i].lower()]) + word[i + 1:]
        if out.lower() != word.lower():
            return out


def typo_name(name: str, rng: random.Random) -> str:
    """A company name with one of its long words (five letters or more) misspelt by one edit."""
    words = name.split()
    long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    i = rng.choice(long)
    words[i] = typo(words[i], rng)
    return " ".join(words)


@dataclass(frozen=True)
class Draw:
    company: str
    c: str
    supplier: str
    s: str
    group: str
    period: tuple[str, str, str]
    period2: tuple[str, str, str]

    def base(self, period: tuple[str, str, str] | None = None, **extra: Any) -> dict[str, Any]:
        p = period or self.period
        return {"company_id": self.company, "start_date": p[1], "end_date": p[2], **extra}


def _draw(rng: random.Random) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    supplier = rng.choice(sorted(SUPPLIERS))
    spellings = SUPPLIERS[supplier]
    s = rng.choice(spellings["name"] + spellings["alias"] + spellings["short"])
    p1, p2 = rng.sample([p for p in PERIODS if not p[0].startswith(("since", "YTD", "year to"))], 2)
    while (p1[1], p1[2]) == (p2[1], p2[2]):
        p2 = rng.choice(PERIODS)
    name = next(c for c in COMPANIES[company] if not c.startswith("COMP") and not c.endswith("'s"))
    return Draw(company, name, supplier, s, rng.choice(sorted(GROUPS)), p1, p2)


Fill = Callable[[Draw, random.Random], tuple[str, tuple[Call, ...], tuple[str, ...]]]


def _spend(d: Draw, period: tuple[str, str, str] | None = None, **extra: Any) -> Call:
    return Call(SPEND, d.base(period, **extra))


def _count(d: Draw, period: tuple[str, str, str] | None = None, **extra: Any) -> Call:
    return Call(COUNT, d.base(period, document_types=["invoice"], invoice_statuses=DEFAULT_STATUSES, **extra),
                outputs=("invoice_count",))


# -- frames -------------------------------------------------------------------------------------------------------
def _company_typo(template: str, what: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        c = typo_name(d.c, rng)
        if what == "split":
            call = Call(SPEND, d.base(), ("supplier_id",))
        elif what == "supplier":
            call = Call(SUPPLIER_SPEND, d.base(supplier_ids=[d.supplier]))
        elif what == "rank":
            call = Call(RANKING, {**d.base(), "limit": 3, "direction": "top", "order_by": "total_spend"},
                        ("supplier_id",))
        else:
            call = _spend(d)
        return template.format(c=c, s=d.s, p=d.period[0]), (call,), ()
    return fill


def _company_abbreviated(template: str) -> Fill:
    """"Co. A", "Comp B", "Co C": the word "company" as analysts abbreviate it."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        c = d.c.replace("Company", rng.choice(("Co.", "Co", "Comp", "Comp.")))
        return template.format(c=c, s=d.s, p=d.period[0]), (_spend(d),), ()
    return fill


def _each_apart(template: str, what: str) -> Fill:
    """"with A and with B", "in P1 and in P2": the preposition said again asks for each figure on its own."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        if what == "suppliers":
            other = next(sid for sid in sorted(SUPPLIERS) if sid != d.supplier)
            s2 = SUPPLIERS[other]["name"][0]
            calls = (Call(SUPPLIER_SPEND, d.base(supplier_ids=[d.supplier])),
                     Call(SUPPLIER_SPEND, d.base(supplier_ids=[other])))
            return template.format(c=d.c, s=d.s, s2=s2, p=d.period[0]), calls, ()
        p1, p2 = d.period, d.period2
        calls = (Call(SUPPLIER_SPEND, d.base(p1, supplier_ids=[d.supplier])),
                 Call(SUPPLIER_SPEND, d.base(p2, supplier_ids=[d.supplier])))
        words = [p if p.startswith(("in ", "for ")) else f"in {p}" for p in (p1[0], p2[0])]
        return template.format(c=d.c, s=d.s, p1=words[0], p2=words[1]), calls, ()
    return fill


def _company_unknown(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        name = rng.choice(("Company D", "Company Q", "Compnay Z", "Comapny X", "Company F"))
        return template.format(c=name, s=d.s, p=d.period[0]), (), ("company", name)
    return fill


def _grain_range(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        r, start, end = rng.choice(RANGES)
        b, grain = rng.choice(GRAINS)
        call = Call(SPEND, {"company_id": d.company, "start_date": start, "end_date": end}, (), grain)
        return template.format(c=d.c, r=r, b=b), (call,), ()
    return fill


def _two_measures(template: str, supplier: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        extra: dict[str, Any] = {"supplier_ids": [d.supplier]} if supplier else {}
        figure = Call(SUPPLIER_SPEND, d.base(**extra)) if supplier else _spend(d)
        return template.format(c=d.c, s=d.s, p=d.period[0]), (figure, _count(d, **extra)), ()
    return fill


def _total_and_supplier(template: str) -> Fill:
    """A bare total before a supplier's total: the company's total beside the supplier's, never the supplier's
    twice."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        calls = (_spend(d), Call(SUPPLIER_SPEND, d.base(supplier_ids=[d.supplier])))
        return template.format(c=d.c, s=d.s, p=d.period[0]), calls, ()
    return fill


def _two_periods(template: str, second: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        figure = Call(SUPPLIER_SPEND, d.base(supplier_ids=[d.supplier]))
        if second == "approved":
            other = Call(APPROVED, d.base(d.period2))
        elif second == "count":
            other = _count(d, d.period2)
        else:
            other = _spend(d, d.period2)
        return template.format(c=d.c, s=d.s, p=d.period[0], p2=d.period2[0]), (figure, other), ()
    return fill


def _anaphora(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        words, statuses = rng.choice(STATUS_PHRASES)
        listing = Call(LISTING, {**d.base(), "reporting_currency": "EUR", "threshold": "0", "direction": "above",
                                 "inclusive": True, "invoice_statuses": statuses}, outputs=("invoice_number",))
        # the amount part's own call is the status reading's (not this class); the listing must be the same
        # selection: the first part's company, period and statuses
        return template.format(c=d.c, p=d.period[0], st=words), (listing,), ()
    return fill


def _partitive_rank(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        n_words, n = rng.choice(NUMBERS)
        low = rng.random() < 0.5
        direction_words = rng.choice(("lowest", "smallest", "least")) if low else rng.choice(
            ("highest", "largest", "most"))
        dims = rng.choice(("suppliers", "vendors"))
        call = Call(RANKING, {**d.base(), "limit": n, "direction": "bottom" if low else "top",
                              "order_by": "total_spend"}, ("supplier_id",))
        return template.format(c=d.c, p=d.period[0], n=n_words, dims=dims, dir=direction_words), (call,), ()
    return fill


def _group_rank(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        words, dim = rng.choice(LEVELS)
        low = rng.random() < 0.4
        size = rng.choice(("smallest", "lowest-spend")) if low else rng.choice(("biggest", "largest"))
        call = Call(RANKING, {**d.base(), "limit": 1, "direction": "bottom" if low else "top",
                              "order_by": "total_spend"}, (dim,))
        return template.format(c=d.c, p=d.period[0], size=size, lvl=words), (call,), ()
    return fill


def _everyone(d: Draw, **extra: Any) -> dict[str, Any]:
    """Parameters over every company of the tenant: no company, the tenant's one reporting currency."""
    return {"start_date": d.period[1], "end_date": d.period[2], **extra}


def _all_change(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        call = Call(COMPARISON, _everyone(d, supplier_ids=[d.supplier], reporting_currency="EUR",
                                          compare_to="previous_period"),
                    outputs=("total_spend", "base_value", "change"))
        return template.format(s=d.s, p=d.period[0], all=rng.choice(ALL_SCOPE)), (call,), ()
    return fill


def _all_count(template: str, german: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        credit = rng.random() < 0.5
        noun = (("Gutschriften" if credit else "Rechnungen") if german else
                ("credit notes" if credit else "invoices"))
        call = Call(COUNT, _everyone(d, document_types=["credit_note" if credit else "invoice"],
                                     invoice_statuses=DEFAULT_STATUSES), outputs=("invoice_count",))
        scope = rng.choice(ALL_SCOPE_DE if german else ALL_SCOPE)
        period = d.period[0] if not german else {"2026-01-01": "im 1. Quartal 2026", "2025-10-01": "im 4. Quartal "
                                                 "2025", "2025-01-01": "im Jahr 2025"}.get(d.period[1])
        if period is None:
            period, call = "im Jahr 2025", Call(COUNT, {**call.parameters, "start_date": "2025-01-01",
                                                        "end_date": "2026-01-01"}, outputs=("invoice_count",))
        return template.format(noun=noun, p=period, all=scope), (call,), ()
    return fill


def _company_share_of_all(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        call = Call(SPEND, _everyone(d, reporting_currency="EUR"))
        return template.format(c=d.c, p=d.period[0]), (call,), ()
    return fill


def _bare_breakdown(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        word, dims, grain = rng.choice((("by supplier", ("supplier_id",), None),
                                        ("by vendor", ("supplier_id",), None),
                                        ("by month", (), "month"), ("per quarter", (), "quarter"),
                                        ("by top-level category", ("top_product_group_id",), None),
                                        ("by product group", ("product_group_id",), None)))
        call = Call(SPEND, d.base(reporting_currency="EUR"), dims, grain)
        return template.format(c=d.c, p=d.period[0], b=word), (call,), ()
    return fill


def _currency_mix(template: str, non_reporting: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        extra: dict[str, Any] = {"exclude_document_currencies": ["EUR"]} if non_reporting else {}
        rows = Call(DOCUMENT, d.base(reporting_currency="EUR", **extra), ("currency",),
                    outputs=("document_spend", "total_spend"))
        return template.format(c=d.c, p=d.period[0]), (rows,), ()
    return fill


def _rest_share(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, tuple[Call, ...], tuple[str, ...]]:
        call = Call("finance.currency_share", d.base(reporting_currency="EUR", exclude_document_currencies=["EUR"]),
                    outputs=("share_percent", "part_value", "whole_value"))
        return template.format(c=d.c, p=d.period[0]), (call,), ()
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "company_typo": (
        _company_typo("{c} spend {p}", "total"), _company_typo("{c} {p} spend split by supplier", "split"),
        _company_typo("How much did {c} spend with {s} {p}?", "supplier"),
        _company_typo("top 3 suppliers of {c} {p}", "rank"), _company_typo("what was {c}'s total spend {p}?", "total"),
        _company_abbreviated("{c} spend {p}"), _company_abbreviated("what did {c} spend {p}?"),
    ),
    "company_unknown": (
        _company_unknown("{c} spend {p}"), _company_unknown("How much did {c} spend with {s} {p}?"),
    ),
    "grain_range": (
        _grain_range("{c} spend {b} {r}"), _grain_range("{c} spend {r}, {b}"), _grain_range("{b} spend of {c} {r}"),
        _grain_range("How much did {c} spend {b} {r}?"),
    ),
    "two_measures": (
        _two_measures("{c} {p} - total spend and number of invoices?"),
        _two_measures("{c} {p}: number of invoices and total spend"),
        _two_measures("total spend and number of invoices for {c} {p}"),
        _two_measures("How much did {c} spend with {s} {p} and invoice count?", supplier=True),
        _two_measures("{c} spend with {s} {p}, and the number of invoices?", supplier=True),
        _two_measures("{c} {p} spend & number of invoices"), _two_measures("{c} {p}: spend and how many invoices?"),
        _two_measures("{c} total spend plus invoice count {p}"),
        _two_measures("{c} {p}: number of invoices & total spend"),
        _total_and_supplier("The total spend. Also, total spend with {s} - {c}, {p}"),
        _total_and_supplier("{c} {p}: the total spend, and the total spend with {s}?"),
    ),
    "two_periods": (
        _two_periods("{s} spend at {c} {p}, and which vendors are approved for {c} {p2}?", "approved"),
        _two_periods("How much did {c} spend with {s} {p}, and how many invoices did {c} get {p2}?", "count"),
        _two_periods("{c} spend with {s} {p}; and {c}'s total spend {p2}?", "spend"),
        _each_apart("{c} {p}: spend with {s} and with {s2}", "suppliers"),
        _each_apart("{c}: spend with {s} {p1} and {p2}", "periods"),
    ),
    "anaphora": (
        _anaphora("{c} {p} - {st} invoice amount, and which invoices are they?"),
        _anaphora("{st} invoices of {c} {p}: total, and which invoices are they?"),
        _anaphora("{c} {p}: total of {st} invoices and which invoices were those?"),
    ),
    "partitive_rank": (
        _partitive_rank("of the {dims} {c} bought from {p}, which {n} had the {dir} spend?"),
        _partitive_rank("among {c}'s {dims} {p}, which {n} had the {dir} spend?"),
        _partitive_rank("Of all {dims} {c} used {p}, which {n} had the {dir} spend?"),
    ),
    "group_rank": (
        _group_rank("{c}'s {size} {lvl} {p}?"), _group_rank("what was the {size} {lvl} of {c} {p}?"),
        _group_rank("{size} {lvl} by spend for {c} {p}"),
    ),
    "all_companies": (
        _all_change("{s} spend {p} vs the period before, {all}"),
        _all_change("how did our spend with {s} change {p} against the previous period ({all})?"),
        _all_count("how many {noun} did we get {p} ({all})?"), _all_count("number of {noun} {p}, {all}"),
        _all_count("Wie viele {noun} gab es {p} ({all})?", german=True),
        _company_share_of_all("{c}'s share of our total spend {p}"),
        _company_share_of_all("{c}'s share of the overall spend {p}"),
    ),
    "bare_breakdown": (
        _bare_breakdown("{c} {p} {b}"), _bare_breakdown("{c}, {p}, {b}"), _bare_breakdown("{c} {b}, {p}"),
    ),
    "currency_mix": (
        _currency_mix("{c} {p} currency mix (amounts in each currency + total in EUR)"),
        _currency_mix("{c}: EUR spend by invoice currency {p}"),
        _currency_mix("{c} spend {p} in each currency, with the EUR total"),
        _currency_mix("{c} non-EUR spend {p} by currency, originals and EUR", non_reporting=True),
        _currency_mix("{c} foreign-currency spend {p} per invoice currency, as billed and in EUR",
                      non_reporting=True),
        _rest_share("share of non-EUR spend for {c} {p}"), _rest_share("what share of {c}'s spend {p} was non-EUR?"),
        _rest_share("{c}: percentage of spend {p} invoiced in foreign currencies"),
    ),
}


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            fill = rng.choice(frames)
            question, calls, about = fill(_draw(rng), rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, calls, about))
    return found


# -- asking and classifying ---------------------------------------------------------------------------------------
def classify(probe: Probe, status: str, text: str, expected: Sequence[list[str]]) -> str:
    """The outcome of one answer (see :func:`evaluation.probes_clarify.classify`)."""
    if status == "clarification":
        if not probe.calls:
            return "clar_ok" if any(w.lower() in text.lower() for w in probe.about) else "clar_wrong_point"
        return "false_clar"
    if not probe.calls:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if all(all(_present(t, text) for t in tokens) for tokens in expected):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        # an APPROVED call is a graph listing: its plan is checked in tests/unit
        expected = [_normalize(call, session.direct(call, probe.question))[0] for call in probe.calls
                    if call.metric != APPROVED]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(probe, status, text, expected)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-scope", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES), width=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, seed=5)


if __name__ == "__main__":
    main()
