"""Tenant-wide scope probes: every company of the tenant named as the scope of every measure, asked through
``/v1/ask`` and compared with the governed metric called directly without a company (all the tenant's companies,
bounded by its row-level security).

``python -m evaluation.probes_tenant_scope [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|none]``

The failures this class guards against: a count, ranking, share, listing, unit price, currency split or largest
invoice "across all companies" (or "in the whole tenant", "tenant 42", "konzernweit", "Company A, B and C
combined") asked back as "which company?", refused as "governed per company", or answered for one company. The
phrasings vary over every scope cue; the measures over every governed metric that takes the company as optional:

* ``total`` (``finance.company_spend``), ``count`` (``finance.invoice_count``), ``ranking``
  (``finance.spend_ranking``), ``share`` (``finance.supplier_share``), ``listing``
  (``finance.invoices_above_threshold``), ``unit_price`` (``catalog.average_unit_price``), ``currency``
  (``finance.document_currency_spend``), ``largest`` (``finance.largest_invoices``), ``lines``
  (``finance.invoice_line_count``);
* ``no_company``: the same measures naming no company at all: a clarification asking which (never a silently
  chosen company), offering all of them.

Seed 1 is the training half, seed 2 the held-out half. Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probes_clarify import SUPPLIERS, Probe, _style, run
from evaluation.probes_combo import table
from evaluation.probes_doctypes import PERIODS

#: Every way a question names all the tenant's (tenant-42: Company A, B and C) companies as one scope.
SCOPES = ("across all companies", "all companies", "group-wide", "for all entities", "konzernweit",
          "in the whole tenant", "tenant 42", "in tenant-42", "across the entire tenant", "all 3 companies",
          "Company A, B and C combined", "Company A, B and C together", "cross-company", "tenant-wide")
PRODUCTS = {"PRD-482": ("PRD-482", "the DPS-482", "PRD-482 differential pressure sensor")}


def _supplier(rng: random.Random) -> tuple[str, str]:
    sid = rng.choice(sorted(SUPPLIERS))
    return sid, rng.choice(SUPPLIERS[sid]["name"] + SUPPLIERS[sid]["no_legal"])


def _total(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    sid, name = _supplier(rng)
    q = rng.choice(("Spend with {s} {p}, {c}", "{c}: spend with {s} {p}", "How much did we spend with {s} {p} {c}?"))
    return q.format(s=name, p=p[0], c=scope), Call("finance.company_spend", {
        "supplier_ids": [sid], "start_date": p[1], "end_date": p[2]}, outputs=("total_spend",))


def _count(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    kind = rng.choice((("invoices", ["invoice"]), ("credit notes", ["credit_note"])))
    q = rng.choice(("How many {k} {p}, {c}?", "Number of {k} {c} {p}", "count of {k} {p} {c}"))
    return q.format(k=kind[0], p=p[0], c=scope), Call("finance.invoice_count", {
        "document_types": kind[1], "start_date": p[1], "end_date": p[2]}, outputs=("invoice_count",))


def _ranking(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    n = rng.choice((2, 3))
    q = rng.choice(("Top {n} suppliers by spend {p}, {c}", "{c}: top {n} vendors {p}", "top {n} suppliers {c} {p}"))
    return q.format(n=n, p=p[0], c=scope), Call("finance.spend_ranking", {
        "start_date": p[1], "end_date": p[2], "limit": n, "direction": "top"}, group_by=("supplier_id",),
        outputs=("total_spend",))


def _share(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    sid, name = _supplier(rng)
    q = rng.choice(("{s}'s share of spend {p}, {c}", "What share of spend {p} went to {s}, {c}?"))
    return q.format(s=name, p=p[0], c=scope), Call("finance.supplier_share", {
        "supplier_ids": [sid], "start_date": p[1], "end_date": p[2]}, outputs=("share_percent",))


def _listing(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    amount = rng.choice((("10,000 EUR", "10000"), ("EUR 20k", "20000"), ("5000 EUR", "5000")))
    q = rng.choice(("Invoices above {a} {p}, {c}", "{c}: which invoices over {a} {p}?"))
    return q.format(a=amount[0], p=p[0], c=scope), Call("finance.invoices_above_threshold", {
        "threshold": amount[1], "direction": "above", "start_date": p[1], "end_date": p[2]},
        outputs=("invoice_number",))


def _unit_price(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    code = rng.choice(sorted(PRODUCTS))
    q = rng.choice(("Average unit price of {x} {p}, {c}", "avg unit price {x} {c} {p}"))
    return q.format(x=rng.choice(PRODUCTS[code]), p=p[0], c=scope), Call("catalog.average_unit_price", {
        "product_code": code, "start_date": p[1], "end_date": p[2]}, outputs=("unit_price",))


def _currency(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    cur = rng.choice(("USD", "GBP"))
    q = rng.choice(("{k} invoices {p}, {c}: amount in {k} and EUR", "Spend on {k} invoices in {k} and EUR {p} {c}"))
    return q.format(k=cur, p=p[0], c=scope), Call("finance.document_currency_spend", {
        "document_currency": cur, "start_date": p[1], "end_date": p[2]}, outputs=("document_spend",))


def _largest(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    q = rng.choice(("Biggest single invoice {p}, {c}", "largest invoice {c} {p}"))
    return q.format(p=p[0], c=scope), Call("finance.largest_invoices", {
        "start_date": p[1], "end_date": p[2], "limit": 1, "direction": "top"}, group_by=("invoice_number",),
        outputs=("grand_total",))


def _lines(rng: random.Random, scope: str, p: tuple[str, str, str]) -> tuple[str, Call]:
    sid, name = _supplier(rng)
    q = rng.choice(("invoice line count for {s} {p}, {c}", "How many invoice lines from {s} {p} {c}?"))
    return q.format(s=name, p=p[0], c=scope), Call("finance.invoice_line_count", {
        "supplier_ids": [sid], "start_date": p[1], "end_date": p[2]}, outputs=("line_count",))


MEASURES: dict[str, Callable[[random.Random, str, tuple[str, str, str]], tuple[str, Call]]] = {
    "total": _total, "count": _count, "ranking": _ranking, "share": _share, "listing": _listing,
    "unit_price": _unit_price, "currency": _currency, "largest": _largest, "lines": _lines,
}


def _no_company(rng: random.Random) -> Probe:
    """A measure that needs the company with none named: asked which, all companies offered."""
    _, name = _supplier(rng)
    p = rng.choice(PERIODS)
    q = rng.choice(("Spend with {s} {p}", "How much did we spend with {s} {p}?", "{s} spend {p}"))
    return Probe("no_company", q.format(s=name, p=p[0]), None, ("company", "companies"))


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each measure (every scope phrasing drawn in turn), duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, make in MEASURES.items():
        seen: set[str] = set()
        for i in itertools.count():
            if len(seen) >= per_class or i > 10 * per_class:
                break
            question, call = make(rng, SCOPES[i % len(SCOPES)], rng.choice(PERIODS))
            question = _style(question, rng)
            if question not in seen:
                seen.add(question)
                found.append(Probe(klass, question, call))
    seen = set()
    for i in itertools.count():
        if len(seen) >= per_class or i > 10 * per_class:
            break
        probe = _no_company(rng)
        if probe.question not in seen:
            seen.add(probe.question)
            found.append(probe)
    return found


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


__all__: list[Any] = ["MEASURES", "SCOPES", "main", "probes"]

if __name__ == "__main__":
    main()
