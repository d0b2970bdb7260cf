"""Compound and unit-price probes: generated from slot grammars, asked through ``/v1/ask``, checked against the
governed metrics called directly with the slot values.

``python -m evaluation.probes_compound [--database procura] [--seed 42] [--n 120] [--kind compound|unit_price|
frames|reading_n] [--verbose]`` generates (seeded) questions over the demo vocabulary of ``tenant-42`` (seed 42, as
of 2026-05-15):

* **reading_n**: calendar years and halves of last year, a change between two named periods ("drop from Q3 to
  Q4", "Q1 26 vs Q4 25 growth", "abs + %"), two figures asked as "both numbers", asks joined by "+", a count and
  "which was the biggest one", and the all-companies scope (the tenant's total with each company's part, a
  ranking across companies, one company's share of the total), with questions naming no company that must stay
  clarifications. Seed 42 trains; seed 8 is held out (only its counts are read).

* **compound**: two or three asks of different kinds (a spend figure, a ranking, a count, a share, a breakdown, a
  group's spend, an average unit price) joined the ways analysts join them ("X and also Y", "X; Y", "X, plus Y",
  "X - and Y", "X? And Y?", "X as well as Y", German "und"), each part with its own constraints, with the company
  and period stated once for all parts ("For Company A in Q1 2026: X and Y"), or with a pronoun carrying the
  first part's supplier over ("spend with Gamma in Q1 and its invoice count");
* **unit_price**: average / lowest / highest unit price of a product by code or name, per supplier, over a period,
  "the cheapest supplier for PRD-x", "did the price of X go up", "price per unit we paid"; and the quantity bought
  of a product ("how many units of X", "which product did we buy the most units of").

Every part's expected figures come from calling its governed metric directly (``/v1/metrics/{name}/query``) with
the slot values; an answer is ``exact`` when every part's figures are in it, ``flagged`` when a part is missing but
the answer says PARTIAL, ``silent_wrong`` when a part is missing or different and the answer reads as complete,
``clarify_wrong`` / ``refusal`` when a clarification or a refusal replaces an answer. The seed picks the slot
values and the wordings: fix a failure class with one seed and report another (held out) before and after. This is
a training set outside ``eval/``; no evaluation question was read to write it.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import pairwise
from typing import Any

from evaluation.constraint_probes import AS_OF, MON, PRES, SENS, TENANT, Call, _present, _tokens
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, finish, run_probes

#: Spellings of the demo suppliers (tenant-42) that have lines for Company A.
SUPPLIERS: dict[str, tuple[str, ...]] = {
    "SUP-18": ("Supplier Beta", "Beta", "beta", "Beta Supplies"),
    "SUP-27": ("Supplier Gamma", "Gamma", "gamma controls"),
    "SUP-35": ("Supplier Zeta", "Zeta", "zeta sensorik"),
    "SUP-31": ("Supplier Delta", "Delta"),
    "SUP-60": ("Supplier Iota", "Iota Cables"),
}
COMPANIES: dict[str, tuple[str, ...]] = {"COMP-A": ("Company A", "company a", "COMP-A"), "COMP-B": ("Company B",)}
#: Period phrasings -> [start, end) as of 2026-05-15.
PERIODS: dict[str, tuple[str, str]] = {
    "in Q1 2026": ("2026-01-01", "2026-04-01"), "in 2025": ("2025-01-01", "2026-01-01"),
    "last quarter": ("2026-01-01", "2026-04-01"), "in Q4 2025": ("2025-10-01", "2026-01-01"),
    "in March 2026": ("2026-03-01", "2026-04-01"), "in H2 2025": ("2025-07-01", "2026-01-01"),
    "in the first quarter of 2026": ("2026-01-01", "2026-04-01"), "in FY2025": ("2025-01-01", "2026-01-01"),
}
GERMAN_PERIODS: dict[str, tuple[str, str]] = {
    "im ersten Quartal 2026": ("2026-01-01", "2026-04-01"), "im Jahr 2025": ("2025-01-01", "2026-01-01"),
    "im letzten Quartal": ("2026-01-01", "2026-04-01"),
}
GROUPS: dict[str, list[str]] = {"Pressure Sensors": PRES, "Sensors": SENS, "Monitoring Products": MON,
                                "Temperature Sensors": ["PG-TEMP"]}
#: Products bought by Company A in the periods above, by code and by catalogue name.
PRODUCTS: dict[str, tuple[str, ...]] = {
    "PRD-482": ("PRD-482", "Differential pressure sensor DPS-482"), "PRD-510": ("PRD-510", "Flow sensor FS-50"),
    "PRD-611": ("PRD-611", "Monitoring controller MC-4"), "PRD-491": ("PRD-491", "PT100 temperature probe"),
    "PRD-625": ("PRD-625", "Control module CM-2"), "PRD-483": ("PRD-483", "PRD-483"),
}
CONNECTORS = ("{a} and also {b}", "{a}; {b}", "{a}, plus {b}", "{a} - and {b}", "{a}? And {b}?", "{a} as well as {b}",
              "{a}, and {b}", "{a}. Also, {b}")


@dataclass(frozen=True)
class Slots:
    company: str
    company_text: str
    supplier: str
    supplier_text: str
    period: tuple[str, str]
    period_text: str
    group: str
    product: str
    product_text: str


@dataclass(frozen=True)
class Ask:
    """One ask: its wording with the company and period (``full``), without them (``bare``: shared), and the call."""

    kind: str
    full: str
    bare: str
    call: Callable[[Slots], Call]


def _base(s: Slots, **extra: Any) -> dict[str, Any]:
    return {"company_id": s.company, "start_date": s.period[0], "end_date": s.period[1], **extra}


def _rank(s: Slots, dim: str, limit: int) -> Call:
    return Call("finance.spend_ranking", _base(s, limit=limit, direction="top", order_by="total_spend"), (dim,))


def _count(s: Slots) -> Call:
    # "invoices" are invoices: credit notes are documents of their own kind, counted only when asked for.
    return Call("finance.invoice_count", _base(s, supplier_ids=[s.supplier], document_types=["invoice"]),
                outputs=("invoice_count",))


ASKS: tuple[Ask, ...] = (
    Ask("spend", "how much did {c} spend with {s} {p}", "the spend with {s}",
        lambda s: Call("finance.company_spend", _base(s, supplier_ids=[s.supplier]))),
    Ask("spend", "{c} spend with {s} {p}", "total spend with {s}",
        lambda s: Call("finance.company_spend", _base(s, supplier_ids=[s.supplier]))),
    Ask("total", "{c}'s total spend {p}", "the total spend",
        lambda s: Call("finance.company_spend", _base(s))),
    Ask("group", "what did {c} spend on {g} {p}", "the spend on {g}",
        lambda s: Call("finance.company_spend", _base(s, product_group_ids=GROUPS[s.group]))),
    Ask("ranking", "the top 3 suppliers of {c} {p}", "the top 3 suppliers",
        lambda s: _rank(s, "supplier_id", 3)),
    Ask("ranking", "which supplier did {c} spend the most with {p}", "which supplier we spent the most with",
        lambda s: _rank(s, "supplier_id", 1)),
    Ask("ranking", "{c}'s top 2 product groups {p}", "the top 2 product groups",
        lambda s: _rank(s, "top_product_group_id", 2)),
    Ask("count", "how many invoices {c} got from {s} {p}", "how many invoices came from {s}",
        lambda s: _count(s)),
    Ask("count", "the number of invoices from {s} {p} for {c}", "the number of invoices from {s}",
        lambda s: _count(s)),
    Ask("share", "{s}'s share of {c}'s spend {p}", "{s}'s share of spend",
        lambda s: Call("finance.supplier_share", _base(s, supplier_ids=[s.supplier]), outputs=("share_percent",))),
    Ask("breakdown", "{c}'s spend {p} by month", "the spend by month",
        lambda s: Call("finance.company_spend", _base(s), grain="month")),
    Ask("breakdown", "{c} spend {p} per supplier", "the spend per supplier",
        lambda s: Call("finance.company_spend", _base(s), ("supplier_id",))),
    Ask("unit_price", "the average unit price of {prd} for {c} {p}", "the average unit price of {prd}",
        lambda s: Call("catalog.average_unit_price", {**_base(s), "product_code": s.product},
                       outputs=("unit_price",))),
)
#: A second ask that refers back to the first one's supplier ("its", "that"): the supplier and period carry over.
PRONOUN_ASKS: tuple[Ask, ...] = (
    Ask("count", "", "how many invoices was that",
        lambda s: _count(s)),
    Ask("count", "", "its invoice count",
        lambda s: _count(s)),
    Ask("share", "", "what share of the total spend is that",
        lambda s: Call("finance.supplier_share", _base(s, supplier_ids=[s.supplier]), outputs=("share_percent",))),
    Ask("breakdown", "", "the same by month",
        lambda s: Call("finance.company_spend", _base(s, supplier_ids=[s.supplier]), grain="month")),
)
GERMAN_ASKS: tuple[Ask, ...] = (
    Ask("spend", "wie viel hat {c} {p} bei {s} ausgegeben", "",
        lambda s: Call("finance.company_spend", _base(s, supplier_ids=[s.supplier]))),
    Ask("count", "wie viele Rechnungen hat {c} {p} von {s} erhalten", "",
        lambda s: _count(s)),
    Ask("ranking", "die drei größten Lieferanten von {c} {p}", "",
        lambda s: _rank(s, "supplier_id", 3)),
)


@dataclass(frozen=True)
class Probe:
    kind: str  # compound | unit_price | frames
    shape: str  # which generator wrote it (for counts by shape)
    question: str
    parts: tuple[Call, ...]
    #: No figure is right: a clarification whose text contains every one of these words (case-insensitive).
    clarify: tuple[str, ...] = ()
    #: ``share``: the first part's reporting total as a percentage of the second's must be stated too.
    derived: str = ""


def _slots(rng: random.Random, german: bool = False) -> Slots:
    company = rng.choice(["COMP-A", "COMP-A", "COMP-A", "COMP-B"])
    supplier = rng.choice(sorted(SUPPLIERS))
    periods = GERMAN_PERIODS if german else PERIODS
    period_text = rng.choice(sorted(periods))
    product = rng.choice(sorted(PRODUCTS))
    return Slots(company, rng.choice(COMPANIES[company]), supplier, rng.choice(SUPPLIERS[supplier]),
                 periods[period_text], period_text, rng.choice(sorted(GROUPS)), product,
                 rng.choice(PRODUCTS[product]))


def _fill(template: str, s: Slots, with_cp: bool = True) -> str:
    text = template.format(c=s.company_text if with_cp else "", p=s.period_text if with_cp else "",
                           s=s.supplier_text, g=s.group, prd=s.product_text)
    return " ".join(text.split())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def compound_probes(n: int, seed: int) -> list[Probe]:
    """``n`` compound questions (seeded): two asks of different kinds, sometimes three, joined in every way."""
    rng = random.Random(seed)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        shape = rng.choice(("full", "full", "shared", "pronoun", "three", "german"))
        s = _slots(rng, german=shape == "german")
        if shape == "german":
            a, b = rng.sample(GERMAN_ASKS, 2)
            question = _cap(f"{_fill(a.full, s)} und {_fill(b.full, s)}?")
            parts: tuple[Call, ...] = (a.call(s), b.call(s))
        elif shape == "pronoun":
            a = rng.choice([x for x in ASKS if x.kind == "spend"])
            b = rng.choice(PRONOUN_ASKS)
            joined = rng.choice(CONNECTORS).format(a=_fill(a.full, s), b=b.bare)
            question = _cap(joined if joined.endswith("?") else joined + "?")
            parts = (a.call(s), b.call(s))
        else:
            count = 3 if shape == "three" else 2
            chosen: list[Ask] = []
            for ask in rng.sample(ASKS, len(ASKS)):
                if ask.kind not in {c.kind for c in chosen}:
                    chosen.append(ask)
                if len(chosen) == count:
                    break
            if shape == "shared":
                texts = [_fill(x.bare, s, with_cp=False) for x in chosen]
                body = rng.choice(CONNECTORS).format(a=texts[0], b=texts[1])
                question = _cap(rng.choice((f"For {s.company_text} {s.period_text}: {body}",
                                            f"{body} - {s.company_text}, {s.period_text}")))
            elif shape == "three":
                texts = [_fill(x.full, s) for x in chosen]
                question = _cap(f"{texts[0]}, {texts[1]} and {texts[2]}?")
            else:
                texts = [_fill(x.full, s) for x in chosen]
                question = _cap(rng.choice(CONNECTORS).format(a=texts[0], b=texts[1]))
            parts = tuple(x.call(s) for x in chosen)
        if question not in seen:
            seen.add(question)
            out.append(Probe("compound", shape, question, parts))
    return out


#: "..., and separately on <group>": the second figure is about what follows the cue, over the same company and period.
SWITCH_CUES = (", and separately on {g}?", " and separately on {g}", "; separately {g}", ", and individually on {g}?")
#: A second ask about what the first selected.
ADD_UP = ("what do they add up to", "what do they come to", "what do they amount to")
UNITS = ("number of units", "units", "the quantity")


def followup_probes(n: int, seed: int) -> list[Probe]:
    """``n`` questions (seeded) whose second ask switches the scope ("spend with Beta at Company A in Q1, and
    separately on Sensors") or asks about what the first selected ("how many credit notes ... and what do they add
    up to", "average unit price and number of units")."""
    rng = random.Random(seed)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        shape = rng.choice(("switch", "add_up", "units"))
        s = _slots(rng)
        if shape == "switch":
            first = rng.choice(("spend with {s} at {c} {p}", "what did {c} spend with {s} {p}"))
            question = _cap(_fill(first, s) + rng.choice(SWITCH_CUES).format(g=s.group))
            parts: tuple[Call, ...] = (Call("finance.company_spend", _base(s, supplier_ids=[s.supplier])),
                                       Call("finance.company_spend", _base(s, product_group_ids=GROUPS[s.group])))
        elif shape == "add_up":
            question = _cap(f"how many credit notes did {s.company_text} get {s.period_text} and "
                            f"{rng.choice(ADD_UP)}?")
            parts = (Call("finance.invoice_count", _base(s, document_types=["credit_note"]),
                          outputs=("invoice_count",)),
                     Call("finance.company_spend", _base(s, document_types=["credit_note"])))
        else:
            question = _cap(f"{s.product} {s.period_text} for {s.company_text}: average unit price and "
                            f"{rng.choice(UNITS)}")
            parts = (_avg(s), Call("catalog.average_unit_price", {**_base(s), "product_code": s.product},
                                   outputs=("quantity",)))
        if question not in seen:
            seen.add(question)
            out.append(Probe("followup", shape, question, parts))
    return out


#: Quarters and months with their [start, end) (as of 2026-05-15), for asks that name two periods.
TWO_PERIODS: tuple[tuple[str, tuple[str, str]], ...] = (
    ("Q3 2025", ("2025-07-01", "2025-10-01")), ("Q4 2025", ("2025-10-01", "2026-01-01")),
    ("Q1 2026", ("2026-01-01", "2026-04-01")), ("H2 2025", ("2025-07-01", "2026-01-01")),
    ("January 2026", ("2026-01-01", "2026-02-01")), ("February 2026", ("2026-02-01", "2026-03-01")),
    ("March 2026", ("2026-03-01", "2026-04-01")),
)
INVALID_PERIODS = ("Q5 2025", "Q0 2026", "the 13th month of 2025", "H3 2025", "2025-13", "month 14 of 2025",
                   "the fifth quarter of 2025", "Q7")
#: Invoice currencies of Company A's demo lines (EUR is the reporting currency).
SHARE_CURRENCIES = ("USD", "CHF", "EUR")


def _spend(company: str, period: tuple[str, str], **extra: Any) -> Call:
    return Call("finance.company_spend", {"company_id": company, "start_date": period[0], "end_date": period[1],
                                          **extra})


def _frame(rng: random.Random) -> Probe:
    """One question of the reading-k frames: compounds asked apart or together, supplier ellipsis, units and their
    spend, invalid periods, measure words that are supplier names, monthly comparisons, currency shares and
    currencies side by side, unit prices without a product, an agreement without its parties."""
    s = _slots(rng)
    c, cid = s.company_text, s.company
    (p1, r1), (p2, r2) = rng.sample([x for x in TWO_PERIODS if x[0] != "H2 2025"], 2)
    if r1 > r2:
        (p1, r1), (p2, r2) = (p2, r2), (p1, r1)
    shape = rng.choice(("separately", "together", "ellipsis", "suppliers_apart", "units_spend", "invalid_period",
                        "delta", "monthly_comparison", "currency_share", "side_by_side", "missing_product",
                        "agreement"))
    if shape == "separately":
        q = rng.choice(("{c} spend in {a} and, separately, in {b}", "{c} spend {a} and {b} separately please",
                        "{c}: spend in {a} and in {b}, one figure each", "{c} spend for {a} and {b}, separately",
                        "What did {c} spend in {a} and, separately, in {b}?"))
        return Probe("frames", shape, _cap(q.format(c=c, a=p1, b=p2)), (_spend(cid, r1), _spend(cid, r2)))
    if shape == "together":
        adjacent = [(x, y) for x, y in pairwise(TWO_PERIODS) if x[1][1] == y[1][0] and "H2" not in x[0] + y[0]]
        (a, ra), (b, rb) = rng.choice(adjacent)
        q = rng.choice(("{c} spend for {a} and {b} together", "{c} spend in {a} and {b} combined",
                        "{c}: total spend {a} and {b} taken together"))
        return Probe("frames", shape, _cap(q.format(c=c, a=a, b=b)), (_spend(cid, (ra[0], rb[1])),))
    other = rng.choice([x for x in sorted(SUPPLIERS) if x != s.supplier])
    other_text = SUPPLIERS[other][0]
    if shape == "ellipsis":
        q = rng.choice(("What did {c} spend with {s} {p}, and what with {o}?",
                        "How much did {c} spend with {s} {p}, and how much with {o}?"))
        return Probe("frames", shape, q.format(c=c, s=s.supplier_text, p=s.period_text, o=other_text),
                     (_spend(cid, s.period, supplier_ids=[s.supplier]), _spend(cid, s.period, supplier_ids=[other])))
    if shape == "suppliers_apart":
        q = rng.choice(("{c} spend with {s} {p} and with {o} {p}, separately",
                        "{c} spend with {s} and with {o} {p}, separately please"))
        return Probe("frames", shape, _cap(q.format(c=c, s=s.supplier_text, p=s.period_text, o=other_text)),
                     (_spend(cid, s.period, supplier_ids=[s.supplier]), _spend(cid, s.period, supplier_ids=[other])))
    if shape == "units_spend":
        q = rng.choice(("{c} units bought from {s} {p} and what we spent on them",
                        "how many units did {c} buy from {s} {p}, and how much did we spend on those?"))
        base = {"company_id": cid, "supplier_id": s.supplier, "start_date": s.period[0], "end_date": s.period[1]}
        return Probe("frames", shape, _cap(q.format(c=c, s=s.supplier_text, p=s.period_text)),
                     (Call("finance.units_purchased", base, outputs=("units_purchased",)),
                      _spend(cid, s.period, supplier_ids=[s.supplier])))
    if shape == "invalid_period":
        bad = rng.choice(INVALID_PERIODS)
        q = rng.choice(("{c} spend in {b}", "what did {c} spend with {s} in {b}?", "{c} top 3 suppliers in {b}"))
        return Probe("frames", shape, _cap(q.format(c=c, b=bad, s=s.supplier_text)), (),
                     clarify=(bad.split(" of ")[0].replace("the ", ""),))
    if shape == "delta":
        now, then, (start, end) = rng.choice([("Q1 2026", "Q4 2025", ("2026-01-01", "2026-04-01")),
                                              ("Q4 2025", "Q3 2025", ("2025-10-01", "2026-01-01")),
                                              ("March 2026", "February 2026", ("2026-03-01", "2026-04-01"))])
        q = rng.choice(("{c} spend {a} vs {b} - delta and percentage", "{c} spend {a} vs {b}: the delta in EUR and %",
                        "{c} spend {a} compared with {b}, delta and percent change"))
        return Probe("frames", shape, _cap(q.format(c=c, a=now, b=then)),
                     (Call("finance.spend_comparison", {"company_id": cid, "start_date": start, "end_date": end,
                                                        "compare_to": "previous_period"},
                           outputs=("total_spend", "base_value", "change")),))
    if shape == "monthly_comparison":
        now, then, (start, end) = rng.choice([("March 2026", "February 2026", ("2026-03-01", "2026-04-01")),
                                              ("February 2026", "January 2026", ("2026-02-01", "2026-03-01"))])
        q = rng.choice(("{c} monthly comparison: {a} vs {b} spend", "{c} monthly change {a} vs {b}",
                        "{c}: month-over-month comparison, {a} vs {b}"))
        return Probe("frames", shape, _cap(q.format(c=c, a=now, b=then)),
                     (Call("finance.spend_comparison", {"company_id": cid, "start_date": start, "end_date": end,
                                                        "compare_to": "previous_period"},
                           outputs=("total_spend", "base_value", "change")),))
    if shape == "currency_share":
        code = rng.choice(SHARE_CURRENCIES)
        q = rng.choice(("{c}: what portion of {p} spend was invoiced in {u}?",
                        "{c}, {p}: what fraction of spend was billed in {u}?",
                        "what share of {c}'s spend {p} was invoiced in {u}?"))
        return Probe("frames", shape, _cap(q.format(c=c, p=s.period_text, u=code)),
                     (Call("finance.document_currency_spend", {"company_id": cid, "start_date": s.period[0],
                                                               "end_date": s.period[1], "document_currency": code},
                           outputs=("total_spend",)), _spend(cid, s.period)), derived="share")
    if shape == "side_by_side":
        q = rng.choice(("{c} spend with {s} {p} in the original invoice currency and in EUR",
                        "{c} spend {p}, show USD, CHF and EUR",
                        "{c} spend with {s} {p} as billed, and converted to EUR",
                        "{c} {p} spend per invoice currency plus EUR total",
                        "{c} with {s} {p} - invoice currency amounts vs reporting currency"))
        extra = {"supplier_ids": [s.supplier]} if "{s}" in q else {}
        params = {"company_id": cid, "start_date": s.period[0], "end_date": s.period[1], **extra}
        return Probe("frames", shape, _cap(q.format(c=c, s=s.supplier_text, p=s.period_text)),
                     (Call("finance.document_currency_spend", params, ("currency",), outputs=("document_spend",)),
                      _spend(cid, s.period, **extra)))
    if shape == "missing_product":
        q = rng.choice(("what is the average unit price {c} paid?", "average unit price {c} paid {p}",
                        "What did {c} pay per unit on average {p}?"))
        return Probe("frames", shape, _cap(q.format(c=c, p=s.period_text)), (), clarify=("product",))
    q = rng.choice(("what are the payment terms in our agreement?", "what is the notice period of our contract?",
                    "Which warranty does the agreement give?"))
    return Probe("frames", "agreement", q, (), clarify=("agreement", "company"))


def frame_probes(n: int, seed: int) -> list[Probe]:
    """``n`` questions of the reading-k frames (seeded; see :func:`_frame`)."""
    rng = random.Random(seed + 104729)
    out: list[Probe] = []
    seen: set[str] = set()
    for _ in range(n * 20):
        probe = _frame(rng)
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
        if len(out) == n:
            break
    return out


#: The tenant's companies (tenant-42): an all-companies question is answered over every one of them.
ALL_COMPANIES = ("COMP-A", "COMP-B", "COMP-C")
#: Period phrases of the reading-n frames -> [start, end) as of 2026-05-15.
SCOPE_PERIODS: dict[str, tuple[str, str]] = {
    "for calendar year 2025": ("2025-01-01", "2026-01-01"), "in calendar 2025": ("2025-01-01", "2026-01-01"),
    "in the last calendar year": ("2025-01-01", "2026-01-01"), "in Q1 2026": ("2026-01-01", "2026-04-01"),
    "second half of last year": ("2025-07-01", "2026-01-01"), "first half of last year": ("2025-01-01", "2025-07-01"),
    "in the second half of 2025": ("2025-07-01", "2026-01-01"), "in Q4 2025": ("2025-10-01", "2026-01-01"),
    "in H2 of last year": ("2025-07-01", "2026-01-01"), "in March 2026": ("2026-03-01", "2026-04-01"),
}
#: (current, base, base as written after "from", [start, end) of the current period): adjacent periods, so the
#: governed previous period is the base.
CHANGES: tuple[tuple[str, str, str, tuple[str, str]], ...] = (
    ("Q1 2026", "Q4 2025", "Q4 2025", ("2026-01-01", "2026-04-01")),
    ("Q4 2025", "Q3 2025", "Q3", ("2025-10-01", "2026-01-01")),
    ("Q1 26", "Q4 25", "Q4 25", ("2026-01-01", "2026-04-01")),
    ("Q4 25", "Q3 25", "Q3 25", ("2025-10-01", "2026-01-01")),
    ("March 2026", "February 2026", "February", ("2026-03-01", "2026-04-01")),
)
_SCOPE_WORDS = ("across all companies", "group-wide", "for all three entities", "across the group",
                "for all companies", "all three companies together")


def _compare(company: str, period: tuple[str, str], percent: bool, **extra: Any) -> Call:
    outputs = ("total_spend", "base_value", "change", *(("change_percent",) if percent else ()))
    return Call("finance.spend_comparison", {"company_id": company, "start_date": period[0], "end_date": period[1],
                                             "compare_to": "previous_period", **extra}, outputs=outputs)


def _frame_n(rng: random.Random) -> Probe:
    """One question of the reading-n frames: periods by calendar year and halves of last year, changes between
    two named periods ("drop from Q3 to Q4", "Q1 26 vs Q4 25 growth", "abs + %"), two figures asked as "both
    numbers", asks joined by "+", a count and the biggest invoice, and the all-companies scope (a total, a
    breakdown by company, a ranking and a company's share of the group), with questions that name no company
    at all (asked about)."""
    s = _slots(rng)
    c, cid = s.company_text, s.company
    shape = rng.choice(("period", "change", "both_numbers", "plus", "biggest", "scope_total", "scope_by_company",
                        "scope_ranking", "scope_share", "no_company"))
    if shape == "period":
        words = rng.choice(sorted(SCOPE_PERIODS))
        q = rng.choice(("{c} spend {p}", "{c}, {p} - total spend?", "what did {c} spend with {s} {p}?",
                        "{c} spend on {g} {p}"))
        extra: dict[str, Any] = ({"supplier_ids": [s.supplier]} if "{s}" in q else
                                 {"product_group_ids": GROUPS[s.group]} if "{g}" in q else {})
        return Probe("reading_n", shape, _cap(q.format(c=c, p=words, s=s.supplier_text, g=s.group)),
                     (_spend(cid, SCOPE_PERIODS[words], **extra),))
    if shape == "change":
        now, then, short, period = rng.choice(CHANGES)
        q, percent, supplier = rng.choice((
            ("how much did {c}'s {s} spend drop from {f} to {a}, in euros", False, True),
            ("how much did {c}'s spend with {s} change from {f} to {a}?", False, True),
            ("{c} / {s}: {a} vs {b} growth", True, True),
            ("{s} at {c} - {a} vs {b}, abs + %", True, True),
            ("{c} spend {a} vs {b}: abs and %", True, False),
            ("{c}: {a} vs {b} spend growth", True, False),
            ("by how much did {c}'s spend rise from {f} to {a}?", False, False)))
        extra = {"supplier_ids": [s.supplier]} if supplier else {}
        return Probe("reading_n", shape, _cap(q.format(c=c, s=s.supplier_text, a=now, b=then, f=short)),
                     (_compare(cid, period, percent, **extra),))
    if shape == "both_numbers":
        (p1, r1), (p2, r2) = rng.sample([x for x in TWO_PERIODS if x[0] != "H2 2025"], 2)
        q = rng.choice(("{c} spend {a} and {b} - both numbers please", "{c} spend {a} and {b}, both figures please",
                        "{c} spend in {a} and in {b}: give me both numbers", "{c} spend {a} and {b}, each figure",
                        "{c} spend with {s} {a} and {b} - both numbers please"))
        extra = {"supplier_ids": [s.supplier]} if "{s}" in q else {}
        return Probe("reading_n", shape, _cap(q.format(c=c, a=p1, b=p2, s=s.supplier_text)),
                     (_spend(cid, r1, **extra), _spend(cid, r2, **extra)))
    if shape == "plus":
        chosen: list[Ask] = []
        for ask in rng.sample(ASKS, len(ASKS)):
            # (not the top-level group ranking: the demo database may predate its column)
            if ask.kind not in {x.kind for x in chosen} and "product groups" not in ask.full:
                chosen.append(ask)
            if len(chosen) == 2:
                break
        return Probe("reading_n", shape, _cap(f"{_fill(chosen[0].full, s)} + {_fill(chosen[1].full, s)}?"),
                     tuple(x.call(s) for x in chosen))
    if shape == "biggest":
        q = rng.choice(("how many invoices did {c} get from {s} {p}, and which was the biggest one?",
                        "{c}: number of invoices from {s} {p} and which one was the largest?"))
        base = _base(s, supplier_ids=[s.supplier])
        return Probe("reading_n", shape, _cap(q.format(c=c, s=s.supplier_text, p=s.period_text)),
                     (_count(s), Call("finance.largest_invoices", {**base, "limit": 1, "direction": "top"},
                                      ("invoice_number",), outputs=("grand_total",))))
    words = rng.choice(sorted(SCOPE_PERIODS))
    period = SCOPE_PERIODS[words]
    scope = rng.choice(_SCOPE_WORDS)
    # each company's spend and the governed spend of all of them (without a company: the tenant's rows)
    each = (*(_spend(x, period) for x in ALL_COMPANIES), Call("finance.company_spend", {
        "start_date": period[0], "end_date": period[1]}))
    if shape == "scope_total":
        q = rng.choice(("total spend {w} {p}", "{w}: spend {p}", "what did we spend {p}, {w}?"))
        return Probe("reading_n", shape, _cap(q.format(w=scope, p=words)), each)
    if shape == "scope_by_company":
        q = rng.choice(("spend per company {p}, all three entities", "spend {p} by company, {w}",
                        "{g} spend {w} {p}, by company"))
        if "{g}" in q:
            each = (*(_spend(x, period, product_group_ids=GROUPS[s.group]) for x in ALL_COMPANIES),
                    Call("finance.company_spend", {"start_date": period[0], "end_date": period[1],
                                                   "product_group_ids": GROUPS[s.group]}))
        return Probe("reading_n", shape, _cap(q.format(w=scope, p=words, g=s.group)), each)
    if shape == "scope_ranking":
        q = rng.choice(("top 3 vendors {w} {p}", "the 3 biggest suppliers {w} {p}"))
        call = Call("finance.spend_ranking", {"start_date": period[0], "end_date": period[1], "limit": 3,
                                              "direction": "top", "order_by": "total_spend"}, ("supplier_id",))
        return Probe("reading_n", shape, _cap(q.format(w=scope.replace("for all three", "across all three"),
                                                       p=words)), (call,))
    if shape == "scope_share":
        q = rng.choice(("{c}'s share of group-wide spend {p} (all three companies)",
                        "what share of the spend of all companies {p} was {c}'s?"))
        return Probe("reading_n", shape, _cap(q.format(c=c, p=words)), (_spend(cid, period), each[-1]),
                     derived="share")
    q = rng.choice(("total spend {p}", "top 3 suppliers {p}", "how much did we spend with {s} {p}?"))
    return Probe("reading_n", shape, _cap(q.format(p=words, s=s.supplier_text)), (), clarify=("company",))


def reading_n_probes(n: int, seed: int) -> list[Probe]:
    """``n`` questions of the reading-n frames (seeded; see :func:`_frame_n`)."""
    rng = random.Random(seed + 15485863)
    out: list[Probe] = []
    seen: set[str] = set()
    for _ in range(n * 20):
        probe = _frame_n(rng)
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
        if len(out) == n:
            break
    return out


def _avg(s: Slots, **extra: Any) -> Call:
    return Call("catalog.average_unit_price", {**_base(s), "product_code": s.product, **extra},
                outputs=("unit_price",))


def _range(s: Slots, output: str) -> Call:
    return Call("catalog.unit_price_range", {**_base(s), "product_code": s.product}, outputs=(output,))


_UNIT_PRICE: tuple[tuple[str, tuple[str, ...], Callable[[Slots], tuple[Call, ...]]], ...] = (
    ("average", ("average unit price of {prd} {p} for {c}", "what did {c} pay per unit for {prd} {p}",
                 "{c} avg price per unit {prd} {p}", "price per unit we paid for {prd} {p} ({c})",
                 "mean unit price of {prd} {p}, {c}"), lambda s: (_avg(s),)),
    ("per_supplier", ("average unit price of {prd} per supplier {p} for {c}",
                      "{c}: unit price of {prd} by supplier {p}"),
     lambda s: (Call("catalog.average_unit_price", {**_base(s), "product_code": s.product}, ("supplier_id",),
                     outputs=("unit_price",)),)),
    ("lowest", ("lowest unit price {c} paid for {prd} {p}", "what was the minimum price per unit of {prd} {p} "
                "for {c}", "{c} cheapest unit price of {prd} {p}"), lambda s: (_range(s, "lowest_unit_price"),)),
    ("highest", ("highest unit price {c} paid for {prd} {p}", "max unit price of {prd} {p} for {c}",
                 "what's the most {c} paid per unit for {prd} {p}"), lambda s: (_range(s, "highest_unit_price"),)),
    ("cheapest_supplier", ("which supplier is cheapest for {prd} {p} ({c})",
                           "cheapest supplier for {prd} {p} for {c}", "who sells {prd} cheapest to {c} {p}"),
     lambda s: (Call("catalog.average_unit_price", {**_base(s), "product_code": s.product}, ("supplier_id",),
                     outputs=("unit_price",)),)),
    ("eur", ("average unit price of {prd} in EUR {p} for {c}",), lambda s: (_avg(s),)),
    ("units", ("how many units of {prd} did {c} buy {p}", "quantity of {prd} bought by {c} {p}",
               "{c}: number of units of {prd} purchased {p}"),
     lambda s: (Call("catalog.average_unit_price", {**_base(s), "product_code": s.product}, outputs=("quantity",)),)),
    ("most_units", ("which product did {c} buy the most units of {p}", "the product {c} bought the most units of {p}"),
     lambda s: (Call("finance.spend_ranking", _base(s, limit=1, direction="top", order_by="units"), ("product_code",),
                     outputs=("units",)),)),
)


def _price_change(rng: random.Random) -> Probe:
    s = _slots(rng)
    cur, base = rng.choice([(("2026-01-01", "2026-04-01"), ("2025-10-01", "2026-01-01")),
                            (("2026-03-01", "2026-04-01"), ("2026-02-01", "2026-03-01"))])
    words = {"2026-01-01": "Q1 2026", "2025-10-01": "Q4 2025", "2026-03-01": "March 2026",
             "2026-02-01": "February 2026"}
    template = rng.choice(("Did the unit price of {prd} go up in {a} vs {b} for {c}?",
                           "How did {c}'s average unit price of {prd} change from {b} to {a}?",
                           "{c}: average price per unit of {prd} in {a} compared with {b}"))
    question = template.format(prd=s.product_text, a=words[cur[0]], b=words[base[0]], c=s.company_text)
    parts = (Call("catalog.average_unit_price", {"company_id": s.company, "product_code": s.product,
                                                 "start_date": cur[0], "end_date": cur[1]}, outputs=("unit_price",)),
             Call("catalog.average_unit_price", {"company_id": s.company, "product_code": s.product,
                                                 "start_date": base[0], "end_date": base[1]}, outputs=("unit_price",)))
    return Probe("unit_price", "change", question, parts)


def unit_price_probes(n: int, seed: int) -> list[Probe]:
    """``n`` unit-price questions (seeded)."""
    rng = random.Random(seed + 7919)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        if rng.random() < 0.12:
            probe = _price_change(rng)
        else:
            shape, templates, calls = rng.choice(_UNIT_PRICE)
            s = _slots(rng)
            probe = Probe("unit_price", shape, _cap(_fill(rng.choice(templates), s)), calls(s))
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


_ANSWERED = ("answered", "partial", "no_data")
_NO_DATA = re.compile(r"\bno (?:validated |counted |priced |matching )?(?:data|invoices?|lines?|spend|counted "
                      r"document)\b|\b0 invoices\b", re.I)


def classify(status: str, text: str, expected: Sequence[list[str]]) -> tuple[str, str]:
    """(class, reason): every part's tokens present -> exact; else by status and whether PARTIAL is said."""
    if status == "clarification":
        return "clarify_wrong", "clarification where an answer was expected"
    if status not in ("answered", "partial", "no_data"):
        return "refusal", status
    missing = [i + 1 for i, tokens in enumerate(expected)
               if not (all(_present(t, text) for t in tokens) if tokens else
                       status == "no_data" or _NO_DATA.search(text))]
    if not missing:
        return "exact", ""
    flagged = status == "partial" or "PARTIAL" in text or "not answered" in text.lower()
    return ("flagged" if flagged else "silent_wrong"), f"part(s) {missing} missing or different"


def run(database: str, probes: Sequence[Probe], verbose: bool = False) -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        client, headers = session.client, session.headers
        expected: list[list[str]] = []
        for call in probe.parts:
            direct = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
                "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
            if direct.status_code == 404:  # a measure not built yet (before/after runs): never matched
                expected.append([f"<no metric {call.metric}>"])
                continue
            if direct.status_code in (400, 422) and "company_id" not in call.parameters:
                # a metric that cannot yet be asked without a company (before/after runs): never matched
                expected.append([f"<{call.metric} needs a company>"])
                continue
            if direct.status_code != 200:
                raise SystemExit(f"{probe.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
            expected.append(_tokens(direct.json(), call))
        if probe.derived == "share" and all(len(e) == 1 and not e[0].startswith("<") for e in expected):
            part, whole = (Decimal(e[0]) for e in expected[:2])
            expected.append([f"{(100 * part / whole).quantize(Decimal('0.01'))}"] if whole else [])
        status, text, _ = session.ask(probe.question, AS_OF)
        text = text.split(" Sources:")[0]
        if probe.clarify:
            named = all(w.casefold() in text.casefold() for w in probe.clarify)
            klass, reason = (("exact", "") if status == "clarification" and named else
                             ("clarify_wrong", "clarification about something else") if status == "clarification"
                             else ("silent_wrong" if status in _ANSWERED else "refusal",
                                   f"{status} instead of a clarification naming {probe.clarify}"))
        else:
            klass, reason = classify(status, text, expected)
        return Checked(f"{probe.kind}/{probe.shape}", klass,
                       f"[{probe.kind}/{probe.shape}/{klass}] {probe.question}\n    expected {expected} {reason}\n"
                       f"    -> {status}: {text[:900]}")

    return run_probes(database, "compound-probes", (TENANT,), probes, check, "all" if verbose else "wrong",
                      right=("exact",))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="procura")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--n", type=int, default=120, help="questions per kind")
    parser.add_argument("--kind", choices=("compound", "unit_price", "frames", "reading_n", "followup"),
                        action="append",
                        default=[])
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", help="write the counts as JSON to this file")
    args = parser.parse_args(argv)
    kinds = args.kind or ["compound", "unit_price", "frames", "reading_n"]
    probes = [*(compound_probes(args.n, args.seed) if "compound" in kinds else []),
              *(unit_price_probes(args.n, args.seed) if "unit_price" in kinds else []),
              *(frame_probes(args.n, args.seed) if "frames" in kinds else []),
              *(reading_n_probes(args.n, args.seed) if "reading_n" in kinds else []),
              *(followup_probes(args.n, args.seed) if "followup" in kinds else [])]
    counts = run(args.database, probes, args.verbose)
    classes = ("exact", "clarify_wrong", "refusal", "flagged", "silent_wrong")
    lines = [f"{'shape':28} " + " ".join(f"{k:>13}" for k in classes)]
    for shape in sorted({c for c, _ in counts}):
        lines.append(f"{shape:28} " + " ".join(f"{counts[(shape, k)]:>13}" for k in classes))
    for kind in kinds:
        lines.append(f"{kind + ' total':28} " + " ".join(
            f"{sum(v for (c, k), v in counts.items() if k == cl and c.startswith(kind)):>13}" for cl in classes))
    finish(counts, "\n".join(lines), args.json)


if __name__ == "__main__":
    main()
