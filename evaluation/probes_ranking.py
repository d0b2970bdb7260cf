"""Ranking and count probes: questions generated from slot grammars, asked through ``/v1/ask`` and compared with
the governed metric called directly with the slot values.

``python -m evaluation.probes_ranking [--database procura] [--seed 1] [--per-class 40] [--class count_rank]
[--show wrong|all|none] [--json out.json]`` fills frames of analyst, casual and German wording with seeded slot
values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15; the vocabulary of
:mod:`evaluation.probes_clarify`): suppliers by id, name, alias, short name, legal-form-less name, case variant and
one-edit typo; companies by name and id; product groups by name, case and typo; products by code; periods in
every form; the rank size N as a digit or a word; the direction (top, bottom, most, fewest, least, highest,
lowest); what is ranked (suppliers, product groups, products) and by what (spend, number of invoices);
breakdowns, statuses, document types and exclusions.

Classes: ``count`` (invoice counts), ``count_rank`` (suppliers ranked by their number of invoices), ``spend_rank``
(rankings of spend), ``supplier_count`` (how many suppliers), ``line_count`` (how many invoice lines) and
``clarify`` (questions that must be asked about: no company, an unknown name, a measure no metric computes).

The expected answer of each probe is the governed metric called directly with the slot values
(``finance.invoice_count``, ``finance.spend_ranking``, ``finance.supplier_count``, ``finance.invoice_line_count``);
a ranking by the count is the count grouped by supplier, ordered and cut at N with every supplier tied at the cut
kept, and a tie at the cut must be said. Outcomes as in :mod:`evaluation.probes_clarify`, plus ``silent_wrong``
for a ranking that names a ranked row the direct call does not keep (a cut at the wrong place), or keeps a tie
without saying so.

``--seed 1`` is the training half the router is fixed on; ``--seed 2`` is held out (only its counts are read).
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.constraint_probes import _present, _tokens
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, PERIODS, PRODUCTS, SUPPLIERS, TENANT, outcome_table

#: German period phrases: (phrase, start, end exclusive) as of 2026-05-15.
PERIODS_DE: tuple[tuple[str, str, str], ...] = (
    ("im Q1 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
    ("2025", "2025-01-01", "2026-01-01"), ("im Q4 2025", "2025-10-01", "2026-01-01"),
    ("im 1. Quartal 2026", "2026-01-01", "2026-04-01"), ("im Geschäftsjahr 2025", "2025-01-01", "2026-01-01"),
)
#: Rank sizes as the question writes them: (words, n).
NUMBERS: tuple[tuple[str, int], ...] = (
    ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("two", 2), ("three", 3), ("four", 4), ("five", 5), ("10", 10),
)
NUMBERS_DE: tuple[tuple[str, int], ...] = (("2", 2), ("3", 3), ("5", 5), ("zwei", 2), ("drei", 3), ("fünf", 5))


@dataclass(frozen=True)
class Call:
    """The governed call a probe means; ``cut`` turns a grouped count into a ranking (direction, n or None=all)."""

    metric: str
    parameters: Mapping[str, Any]
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    outputs: tuple[str, ...] = ("total_spend",)
    cut: tuple[str, int | None] | None = None


@dataclass(frozen=True)
class Probe:
    klass: str
    question: str
    expect: Call | None
    about: tuple[str, ...] = ()
    slots: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Draw:
    company: str
    c: str
    supplier: str
    s: str
    s_kind: str
    supplier2: str
    s2: str
    group: str
    g: str
    period: tuple[str, str, str]
    period_de: tuple[str, str, str]
    product: str
    number: tuple[str, int]
    number_de: tuple[str, int]

    def base(self, german: bool = False, **extra: Any) -> dict[str, Any]:
        period = self.period_de if german else self.period
        return {"company_id": self.company, "start_date": period[1], "end_date": period[2], **extra}

    @property
    def leaves(self) -> list[str]:
        return list(GROUPS[self.group][1])

    def fill(self, template: str, **extra: str) -> str:
        return template.format(c=self.c, s=self.s, s2=self.s2, g=self.g, p=self.period[0], pde=self.period_de[0],
                               prd=self.product, n=self.number[0], nde=self.number_de[0], **extra)


def _draw(rng: random.Random) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    supplier, supplier2 = rng.sample(sorted(SUPPLIERS), 2)
    kind = rng.choice(sorted(SUPPLIERS[supplier]))
    group = rng.choice(sorted(GROUPS))
    c = rng.choice(COMPANIES[company])
    if c.endswith("'s"):
        c = c[:-2]
    return Draw(company, c, supplier, rng.choice(SUPPLIERS[supplier][kind]), kind, supplier2,
                rng.choice(SUPPLIERS[supplier2]["name"] + SUPPLIERS[supplier2]["short"]), group,
                rng.choice(GROUPS[group][0]), rng.choice(PERIODS), rng.choice(PERIODS_DE), rng.choice(PRODUCTS),
                rng.choice(NUMBERS), rng.choice(NUMBERS_DE))


Fill = Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]

# -- counts -------------------------------------------------------------------------------------------------------
_COUNT = "finance.invoice_count"
#: Scopes of a count: (slot, extra parameters from the draw).
_STATUS_WORDS: tuple[tuple[str, list[str]], ...] = (
    ("paid", ["paid"]), ("unpaid", ["posted"]), ("open", ["posted"]), ("outstanding", ["posted"]),
    ("settled", ["paid"]), ("not yet paid", ["posted"]),
)
_COUNT_BREAKDOWNS: tuple[tuple[str, tuple[str, ...], str | None], ...] = (
    ("by month", (), "month"), ("per month", (), "month"), ("month by month", (), "month"),
    ("by quarter", (), "quarter"), ("per quarter", (), "quarter"), ("by supplier", ("supplier_id",), None),
    ("per vendor", ("supplier_id",), None), ("broken down by supplier", ("supplier_id",), None),
    ("split by document type", ("document_type",), None),
)


def _count(template: str, scope: str = "", what: str = "invoice", german: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {"document_types": ["credit_note"] if what == "credit_note" else ["invoice"]}
        if what == "both":
            extra["document_types"] = ["invoice", "credit_note"]
        words: dict[str, str] = {}
        group_by: tuple[str, ...] = ()
        grain = None
        if scope == "supplier":
            extra["supplier_ids"] = [d.supplier]
        elif scope == "group":
            extra["product_group_ids"] = d.leaves
        elif scope == "product":
            extra["product_codes"] = [d.product]
        elif scope == "exclude":
            extra["exclude_supplier_ids"] = [d.supplier]
        elif scope == "status":
            word, statuses = rng.choice(_STATUS_WORDS)
            words["st"] = word
            extra["invoice_statuses"] = statuses
        elif scope == "breakdown":
            word, group_by, grain = rng.choice(_COUNT_BREAKDOWNS)
            words["b"] = word
        outputs = ("invoice_count",)
        call = Call(_COUNT, d.base(german, **extra), group_by, grain, outputs)
        return d.fill(template, **words), call, ()
    return fill


# -- rankings by the count ------------------------------------------------------------------------------------------
def _count_rank(template: str, direction: str, n: int | str | None = 1, scope: str = "",
                german: bool = False) -> Fill:
    """``n``: a fixed rank size, ``"n"`` for the drawn number, or None for every supplier ("rank suppliers")."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {"document_types": ["invoice"]}
        if scope == "group":
            extra["product_group_ids"] = d.leaves
        elif scope == "exclude":
            extra["exclude_supplier_ids"] = [d.supplier]
        size = (d.number_de[1] if german else d.number[1]) if n == "n" else n
        call = Call(_COUNT, d.base(german, **extra), ("supplier_id",), None, ("invoice_count",),
                    cut=(direction, size if isinstance(size, int) else None))
        return d.fill(template), call, ()
    return fill


# -- rankings of spend ------------------------------------------------------------------------------------------------
_RANKING = "finance.spend_ranking"
_DIMS = {"supplier_id": ("suppliers", "vendors", "supplier", "vendor"),
         # a bare "category" is the top level; a bare "product group" each product's own catalog group
         "top_product_group_id": ("categories", "main product groups", "category", "main product group"),
         "own_group": ("product groups", "material groups", "product group", "material group"),
         "product_code": ("products", "items", "product", "item"),
         # the level named: each product's own (leaf) group, or the top level
         "leaf_group": ("leaf product groups (lowest level)", "product groups (lowest level)",
                        "leaf product group (lowest level)", "leaf category"),
         "top_level_group": ("top-level product groups", "top-level categories", "top-level product group",
                             "top-level category")}
#: The governed dimension of each ranked noun set.
_DIM_OF = {"leaf_group": "product_group_id", "own_group": "product_group_id",
           "top_level_group": "top_product_group_id"}
#: Ranking wordings: (template over {n} {dims}/{dim}, direction, plural).
_SPEND_RANKS: tuple[tuple[str, str, bool], ...] = (
    ("top {n} {dims}", "top", True), ("the {n} largest {dims}", "top", True), ("{n} biggest {dims}", "top", True),
    ("bottom {n} {dims}", "bottom", True), ("the {n} smallest {dims}", "bottom", True),
    ("{n} lowest-spend {dims}", "bottom", True), ("the {n} {dims} with the highest spend", "top", True),
    ("the {n} {dims} with the lowest spend", "bottom", True), ("the {n} {dims} with the most spend", "top", True),
    ("the {n} {dims} with the least spend", "bottom", True), ("top-{n} {dims}", "top", True),
    ("the {n} {dims} we spent the most on", "top", True), ("the {n} {dims} we spent the least on", "bottom", True),
    ("the top {n} {dims} by spend", "top", True), ("the bottom {n} {dims} by spend", "bottom", True),
    ("the largest {dim}", "top", False), ("the smallest {dim}", "bottom", False),
    ("the {dim} with the highest spend", "top", False), ("the {dim} with the lowest spend", "bottom", False),
    ("the {dim} with the least spend", "bottom", False),
)


def _spend_rank(template: str, dims: tuple[str, ...] = ("supplier_id", "top_product_group_id", "own_group",
                                                       "product_code"),
                scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        dim = rng.choice(dims)
        phrase, direction, plural = rng.choice(_SPEND_RANKS)
        nouns = _DIMS[dim]
        r = phrase.format(n=d.number[0], dims=rng.choice(nouns[:2]), dim=rng.choice(nouns[2:]))
        limit = d.number[1] if plural else 1
        extra: dict[str, Any] = {}
        if scope == "group" and dim != "top_product_group_id":
            extra["product_group_ids"] = d.leaves
        elif scope == "exclude" and dim == "supplier_id":
            extra["exclude_supplier_ids"] = [d.supplier]
        elif scope == "status":
            word, statuses = rng.choice(_STATUS_WORDS[:2])
            r = r.replace("spend", f"{word} spend") if "spend" in r else f"{r} by {word} spend"
            extra["invoice_statuses"] = statuses
        elif scope in ("group", "exclude"):
            return _spend_rank(template, ("supplier_id",), scope)(d, rng)
        call = Call(_RANKING, {**d.base(**extra), "limit": limit, "direction": direction, "order_by": "total_spend"},
                    (_DIM_OF.get(dim, dim),))
        return d.fill(template, r=r), call, ()
    return fill


def _spend_all(template: str, dim: str = "supplier_id", direction: str = "top") -> Fill:
    """"Rank suppliers by spend": every supplier, in order (the metric's largest limit)."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        call = Call(_RANKING, {**d.base(), "limit": 100, "direction": direction, "order_by": "total_spend"}, (dim,))
        return d.fill(template), call, ()
    return fill


def _spend_de(template: str, direction: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        call = Call(_RANKING, {**d.base(True), "limit": d.number_de[1], "direction": direction,
                               "order_by": "total_spend"}, ("supplier_id",))
        return d.fill(template), call, ()
    return fill


# -- supplier and line counts ------------------------------------------------------------------------------------------
def _supplier_count(template: str, scope: str = "", german: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {}
        if scope == "group":
            extra["product_group_ids"] = d.leaves
        elif scope == "product":
            extra["product_codes"] = [d.product]
        call = Call("finance.supplier_count", d.base(german, **extra), outputs=("supplier_count",))
        return d.fill(template), call, ()
    return fill


LINE_COUNT = "finance.invoice_line_count"


def _line_count(template: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {}
        if scope == "supplier":
            extra["supplier_ids"] = [d.supplier]
        elif scope == "group":
            extra["product_group_ids"] = d.leaves
        elif scope == "product":
            extra["product_codes"] = [d.product]
        call = Call(LINE_COUNT, d.base(**extra), outputs=("line_count",))
        return d.fill(template), call, ()
    return fill


def _clarify(template: str, about: tuple[str, ...]) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        return d.fill(template, u=rng.choice(("Omikron Tech", "Supplier Kappa", "Lambda Logistics", "Acme Widgets",
                                               "Sigma Parts"))), None, about
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "count": (
        _count("How many invoices did {c} get from {s} {p}?", "supplier"),
        _count("Number of invoices {c} received {p}"),
        _count("# of invoices from {s} for {c} {p}", "supplier"),
        _count("How many credit notes did {c} receive {p}?", what="credit_note"),
        _count("{c}: count of {st} invoices {p}", "status"),
        _count("How many {st} invoices does {c} have {p}?", "status"),
        _count("How many invoices for {g} did {c} receive {p}?", "group"),
        _count("How many invoices did {c} receive {p} {b}?", "breakdown"),
        _count("{c} invoice count {p} {b}", "breakdown"),
        _count("How many invoices did {c} get {p}, excluding {s}?", "exclude"),
        _count("How many invoices and credit notes did {c} book {p}?", what="both"),
        _count("How many invoices did {s} send {c} {p}?", "supplier"),
        _count("Total number of invoices with {prd} for {c} {p}", "product"),
        _count("Wie viele Rechnungen hat {c} {pde} erhalten?", german=True),
        _count("Anzahl der Rechnungen von {s} an {c} {pde}", "supplier", german=True),
        _count("How often did {s} invoice {c} {p}?", "supplier"),
        _count("{c}: how many bills from {s} {p}", "supplier"),
        _count("What is the number of {st} invoices at {c} {p}?", "status"),
    ),
    "count_rank": (
        _count_rank("Which supplier sent {c} the most invoices {p}?", "top"),
        _count_rank("Which supplier has the fewest invoices at {c} {p}?", "bottom"),
        _count_rank("Which vendor has the most invoices for {c} {p}?", "top"),
        _count_rank("Who sent {c} the fewest invoices {p}?", "bottom"),
        _count_rank("Top {n} suppliers by number of invoices for {c} {p}", "top", "n"),
        _count_rank("Bottom {n} suppliers by invoice count, {c}, {p}", "bottom", "n"),
        _count_rank("Rank {c}'s suppliers by invoice count {p}", "top", None),
        _count_rank("Rank suppliers by number of invoices for {c} {p}", "top", None),
        _count_rank("The {n} suppliers with the most invoices at {c} {p}", "top", "n"),
        _count_rank("The {n} suppliers with the fewest invoices at {c} {p}", "bottom", "n"),
        _count_rank("Which {n} vendors sent {c} the least invoices {p}?", "bottom", "n"),
        _count_rank("{c}: the supplier with the least invoices {p}", "bottom"),
        _count_rank("{c} suppliers ranked by number of invoices {p}", "top", None),
        _count_rank("Which supplier invoiced {c} most often {p}?", "top"),
        _count_rank("Top {n} vendors by invoice count for {g} at {c} {p}", "top", "n", "group"),
        _count_rank("Which supplier sent {c} the most invoices {p}, excluding {s}?", "top", 1, "exclude"),
        _count_rank("Which supplier had the highest number of invoices at {c} {p}?", "top"),
        _count_rank("Which vendor had the lowest number of invoices at {c} {p}?", "bottom"),
        _count_rank("{c}: {n} suppliers with the largest number of invoices {p}", "top", "n"),
        _count_rank("Who billed {c} least often {p}?", "bottom"),
        _count_rank("Welcher Lieferant hat {c} {pde} die meisten Rechnungen geschickt?", "top", 1, german=True),
        _count_rank("Welcher Lieferant hat {c} {pde} die wenigsten Rechnungen geschickt?", "bottom", 1,
                    german=True),
        _count_rank("Die {nde} Lieferanten mit den meisten Rechnungen bei {c} {pde}", "top", "n", german=True),
    ),
    "spend_rank": (
        _spend_rank("{r} of {c} {p}"), _spend_rank("Who were {c}'s {r} {p}?"), _spend_rank("{c}'s {r} {p}"),
        _spend_rank("List {c}'s {r} {p}"), _spend_rank("Show me {r} for {c} {p}"),
        _spend_rank("{c}: {r} {p}", scope="status"), _spend_rank("{r} of {c} for {g} {p}", scope="group"),
        _spend_rank("{r} of {c} {p} excluding {s}", scope="exclude"),
        _spend_rank("What are {r} at {c} {p}?"),
        _spend_all("Rank {c}'s suppliers by spend {p}"), _spend_all("Rank all suppliers of {c} by spend {p}"),
        _spend_all("{c} product groups ranked by spend {p}", "product_group_id"),
        _spend_all("{c} categories ranked by spend {p}", "top_product_group_id"),
        _spend_de("Die Top {nde} Lieferanten von {c} {pde}", "top"),
        _spend_de("Die {nde} kleinsten Lieferanten von {c} {pde}", "bottom"),
        # every group ranked, a count of them that cuts nothing, and the order the list is given in
        _spend_all("Rank all {n} of {c}'s suppliers by spend {p}, highest first"),
        _spend_all("rank the {n} suppliers of {c} by spend {p}"),
        _spend_all("Rank {c}'s suppliers by spend {p}, lowest first", direction="bottom"),
        # an exclusion worded as "ignore"
        _spend_rank("{r} of {c} {p} if we ignore {s}", scope="exclude"),
        _spend_rank("{c}'s {r} {p}, ignoring {s}", scope="exclude"),
        # the level of a product group ranking
        _spend_rank("{c}: {r} {p}", dims=("leaf_group",)),
        _spend_rank("{c}: {r} {p}", dims=("top_level_group",)),
    ),
    "supplier_count": (
        _supplier_count("How many suppliers did {c} buy {g} from {p}?", "group"),
        _supplier_count("How many vendors did {c} buy {prd} from {p}?", "product"),
        _supplier_count("Number of suppliers {c} used {p}"),
        _supplier_count("How many different suppliers invoiced {c} {p}?"),
        _supplier_count("How many suppliers supplied {g} to {c} {p}?", "group"),
        _supplier_count("How many distinct vendors did {c} purchase {g} from {p}?", "group"),
        _supplier_count("From how many suppliers did {c} buy {prd} {p}?", "product"),
        _supplier_count("Wie viele Lieferanten hatte {c} {pde}?", german=True),
        _supplier_count("# of distinct vendors {c} used {p}"),
        _supplier_count("no. of suppliers at {c} {p}"),
        _supplier_count("How many unique suppliers did {c} use {p}?"),
        _supplier_count("{c} - number of distinct vendors with spend {p}?"),
        _supplier_count("count of different vendors {c} bought {g} from {p}", "group"),
    ),
    "line_count": (
        _line_count("How many invoice lines did {c} have {p}?"),
        _line_count("Number of line items on {c}'s invoices from {s} {p}", "supplier"),
        _line_count("How many invoice lines for {g} at {c} {p}?", "group"),
        _line_count("Count of invoice line items {c} {p}"),
        _line_count("How many invoice lines did {s} bill {c} {p}?", "supplier"),
        _line_count("Number of invoice lines with {prd} for {c} {p}", "product"),
        _line_count("{c}: number of line items {p}"),
        _line_count("How many line items did {c} receive {p}?"),
        _line_count("# of invoice lines for {c} {p}"),
        _line_count("no. of line items with {prd} at {c} {p}", "product"),
    ),
    "clarify": (
        _clarify("Which supplier sent the most invoices {p}?", ("company",)),
        _clarify("Top {n} suppliers {p}", ("company",)),
        _clarify("How many invoices from {s} {p}?", ("company",)),
        _clarify("How many invoices did {c} get from {u} {p}?", ("supplier", "vendor", "know")),
        _clarify("Rank {c}'s suppliers by delivery time {p}", ("delivery", "measure")),
        _clarify("Which supplier of {c} had the most late deliveries {p}?", ("deliver", "late", "measure")),
        _clarify("How many purchase orders did {c} place {p}?", ("purchase order", "count", "measure")),
        _clarify("Top {n} suppliers of {c} by number of complaints {p}", ("complaint", "measure")),
        _clarify("{c} top {n} {u} {p}", ("know", "supplier", "rank")),
        _clarify("Which product group had the most invoices at {c} {p}?", ("product group", "rank")),
        _clarify("Top {n} suppliers of {c} by number of invoices {p} by month", ("rank", "break")),
        _clarify("Which supplier had the most returns at {c} {p}?", ("return", "measure")),
        _clarify("Rank {c}'s suppliers by quality score {p}", ("quality", "measure")),
    ),
}

_PREFIXES = ("Quick question: ", "Could you tell me: ", "Hi, ", "Pls: ")
_SUFFIXES = (" please", ", thanks", " - for the monthly report", "??")


def _style(question: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.12:
        return rng.choice(_PREFIXES) + question[0].lower() + question[1:]
    if roll < 0.24:
        return question.rstrip("?") + rng.choice(_SUFFIXES)
    if roll < 0.3:
        return question.lower()
    return question


def probes(seed: int, per_class: int = 40) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            fill = rng.choice(frames)
            draw = _draw(rng)
            question, call, about = fill(draw, rng)
            question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, call, about, (draw.s_kind,)))
    return found


# -- the expected answer -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expected:
    tokens: tuple[str, ...]
    no_rows: bool = False
    #: Ranked ids the answer must not name (rows the cut leaves out), and whether a tie at the cut must be said.
    absent: tuple[str, ...] = ()
    tie: bool = False


def kept_rows(rows: Sequence[Mapping[str, Any]], value: str, direction: str, n: int | None) -> list[Mapping[str, Any]]:
    """Rows ordered by ``value`` (top: largest first) cut at ``n`` ranks, every row tied with the n-th kept."""
    ordered = sorted(rows, key=lambda r: int(r.get(value) or 0), reverse=direction == "top")
    if n is None or n >= len(ordered):
        return list(ordered)
    cut = int(ordered[n - 1].get(value) or 0)
    return [r for r in ordered if (int(r.get(value) or 0) >= cut if direction == "top"
                                   else int(r.get(value) or 0) <= cut)]


def expected(call: Call, result: Mapping[str, Any]) -> Expected:
    rows = [r.get("values") or {} for r in result.get("rows") or []]
    if call.cut is not None:
        direction, n = call.cut
        kept = kept_rows(rows, "invoice_count", direction, n)
        ids = {str(r.get("supplier_id")) for r in kept}
        tokens = tuple(t for r in kept for t in (str(r.get("supplier_id")), str(r.get("invoice_count"))))
        absent = tuple(sorted(str(r.get("supplier_id")) for r in rows if str(r.get("supplier_id")) not in ids))
        return Expected(tokens, not rows, absent, tie=n is not None and len(kept) > n)
    if call.metric in (_COUNT, "finance.supplier_count", LINE_COUNT) and not call.group_by and not call.grain:
        value = rows[0].get(call.outputs[0]) if rows else None
        return Expected((str(value if value is not None else 0),))
    if call.outputs == ("matched_line_count",):
        return Expected((str(rows[0].get("matched_line_count", 0)) if rows else "0",))
    tokens = tuple(_tokens(result, _as_constraint_call(call)))
    if call.metric == _RANKING:
        dim = call.group_by[0]
        ranked = {str(r.get(dim)) for r in rows}
        tie = any(int(r.get("tie_count") or 1) > 1 for r in rows)
        return Expected(tokens, not rows, (), tie and len(ranked) > int(call.parameters.get("limit") or 0))
    return Expected(tokens, not rows)


def _as_constraint_call(call: Call) -> Any:
    from evaluation.constraint_probes import Call as ConstraintCall

    return ConstraintCall(call.metric, call.parameters, call.group_by, call.grain, call.outputs)


_TIE = re.compile(r"\btied\b|\bshare[sd]? (?:the )?(?:rank|place)", re.I)


def classify(probe: Probe, status: str, text: str, exp: Expected | None) -> str:
    """The outcome of one answer (see :func:`evaluation.probes_clarify.classify`)."""
    if status == "clarification":
        if probe.expect is None:
            return "clar_ok" if any(w.lower() in text.lower() for w in probe.about) else "clar_wrong_point"
        return "false_clar"
    if probe.expect is None:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    assert exp is not None
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if exp.no_rows:
        return "exact" if status == "no_data" or "no " in text.lower() or " 0 " in text else "silent_wrong"
    body = text.split(" Read as:")[0]
    if (all(_present(t, text) for t in exp.tokens)
            and not any(re.search(rf"\b{re.escape(a)}\b", body) for a in exp.absent)
            and (not exp.tie or _TIE.search(text))):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def _direct(client: Any, headers: Mapping[str, str], call: Call) -> Mapping[str, Any]:
    response = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
        "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
    if response.status_code == 404 and call.metric == LINE_COUNT:
        # Before finance.invoice_line_count existed: the same counted lines are company spend's matched lines.
        params = {k: v for k, v in call.parameters.items() if k != "document_types"}
        return _direct(client, headers, Call("finance.company_spend", params, outputs=("matched_line_count",)))
    if response.status_code != 200:
        raise SystemExit(f"direct {call.metric} call failed: {response.text[:300]}")
    body: Mapping[str, Any] = response.json()
    return {**body, "_call": call}


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        exp = None
        if probe.expect is not None:
            result = _direct(session.client, session.headers, probe.expect)
            exp = expected(result["_call"], result)
        status, text, _ = session.ask(probe.question, AS_OF)
        klass = classify(probe, status, text, exp)
        said = f"{list(exp.tokens)} absent {list(exp.absent)} tie {exp.tie}" if exp else "clarification"
        return Checked(probe.klass, klass, shown(probe.klass, klass, probe.question, said, status, text))

    return run_probes(database, "probes-ranking", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES), width=14)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=40)


if __name__ == "__main__":
    main()
