"""Invoice and supplier list probes: cut-off lists (dated in one period, posted in a later one), invoices dated in
an explicit (European) date range over all companies, invoices of one invoice currency, and the suppliers that
invoiced a company, asked through ``/v1/ask`` and compared with the governed metric called directly.

``python -m evaluation.probes_cutoff [--database procura] [--seed 1] [--per-class 20] [--class K]
[--show wrong|all|none] [--json out.json]`` fills frames with seeded slot values of the demo vocabulary
(``tenant-42``, as of 2026-05-15): a company by name or id, or none / "all companies" (every company of the
tenant), months, quarters and years as invoice periods, the posting side as the next period, "after DD.MM.YYYY" or
"in the next quarter", phrasings of the cut-off ("dated X but only posted in Y", "invoice date X, posting date Y",
"booked in Y"), European and ISO date ranges, invoice currencies by code, and the ways of asking which suppliers
invoiced a company.

The classes and their expectations:

* **cutoff**: ``finance.invoices_above_threshold`` (no amount bound) with ``posted_from`` / ``posted_before``:
  the invoice numbers listed exactly (none matching said as no data).
* **range**: the same listing over the date range (end day included), every company of the tenant.
* **currency**: the same listing with ``document_currency``.
* **suppliers**: ``finance.company_spend`` by supplier: exactly the suppliers with counted lines named.

Outcomes: ``exact``, ``wrong`` (another set, or an answer where a clarification was due), ``clar`` (asked where
an answer was expected). Seed 1 is the training half, seed 2 the held-out half. Written from the slot grammar
alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, distinct, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, TENANT

CLASSES = ("cutoff", "range", "currency", "suppliers")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_LISTING = "finance.invoices_above_threshold"
_SPEND = "finance.company_spend"


@dataclass(frozen=True)
class ListProbe:
    """One question, the governed call its answer must equal, and what is compared (invoices or suppliers)."""

    klass: str
    question: str
    call: Call
    compared: str


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _company(rng: random.Random) -> tuple[str, str | None]:
    """A company's spelling and id, or a scope naming every company (id ``None``)."""
    if rng.random() < 0.35:
        return rng.choice(("", ", all companies", " across all companies", " (all entities)")), None
    company = rng.choice(sorted(COMPANIES))
    return rng.choice(COMPANIES[company]), company


def _scoped(question: str, spelling: str, company: str | None) -> str:
    if company is None:
        return question.format(c="", all=spelling)
    return question.format(c=f"{spelling}: ", all="")


def _listing(params: dict[str, Any], company: str | None) -> Call:
    base = {"threshold": "0", "direction": "above", "inclusive": True}
    return Call(_LISTING, {**base, **params, **({"company_id": company} if company else {})})


def _cutoff(rng: random.Random) -> ListProbe:
    spelling, company = _company(rng)
    kind = rng.choice(("month", "month", "quarter", "year"))
    if kind == "month":
        start = dt.date(rng.choice((2025, 2026)), rng.randint(1, 12), 1)
        start = min(start, dt.date(2026, 3, 1))
        end = _add_months(start, 1)
        inv = rng.choice((f"{MONTHS[start.month - 1]} {start.year}", f"{MONTHS[start.month - 1].lower()} "
                          f"{start.year}"))
        nxt = f"{MONTHS[end.month - 1]} {end.year}"
    elif kind == "quarter":
        q = rng.randint(1, 4) if rng.random() < 0.5 else 1
        year = 2025 if q > 1 else rng.choice((2025, 2026))
        start = dt.date(year, 3 * q - 2, 1)
        end = _add_months(start, 3)
        inv = rng.choice((f"Q{q} {year}", f"Q{q}/{year}"))
        nxt = f"Q{(q % 4) + 1} {end.year}"
    else:
        start, end = dt.date(2025, 1, 1), dt.date(2026, 1, 1)
        inv, nxt = "2025", "2026"
    posting = rng.choice(("next", "after", "later")) if kind != "year" else "next"
    if posting == "next":
        post_words, bounds = f"in {nxt}", {"posted_from": end.isoformat(),
                                           "posted_before": _add_months(end, {"month": 1, "quarter": 3,
                                                                               "year": 12}[kind]).isoformat()}
    elif posting == "after":
        last = end - dt.timedelta(days=1)
        post_words, bounds = f"after {last:%d.%m.%Y}", {"posted_from": end.isoformat()}
    else:
        post_words = rng.choice((f"in the next {kind}", f"in a later {kind}", f"in the following {kind}"))
        bounds = {"posted_from": end.isoformat()}
    frame = rng.choice((
        "{c}which invoices dated {inv} were only posted {post}{all}?",
        "{c}invoices of {inv} posted {post}{all}",
        "Cut-off check {c}invoices with invoice date {inv} but posting date {post}{all}",
        "{c}invoices dated {inv} that were booked {post}{all} - which ones?",
    ))
    question = _scoped(frame.replace("{inv}", inv).replace("{post}", post_words), spelling, company)
    call = _listing({"start_date": start.isoformat(), "end_date": end.isoformat(), **bounds}, company)
    return ListProbe("cutoff", " ".join(question.split()), call, "invoices")


def _range(rng: random.Random) -> ListProbe:
    # (the period reader's convention: a second day is the exclusive end unless it closes its month or follows
    # "through"; both inclusive forms are drawn here, the answer restates the end it took either way)
    end = _add_months(dt.date(2026, rng.randint(1, 4), 1), 1)
    through = rng.random() < 0.5
    last = end - dt.timedelta(days=1) if not through else end - dt.timedelta(days=rng.randint(3, 12))
    start = last - dt.timedelta(days=rng.randint(2, 8))
    european = rng.random() < 0.7
    a, b = (f"{start:%d.%m.%Y}", f"{last:%d.%m.%Y}") if european else (start.isoformat(), last.isoformat())
    to = "through" if through else rng.choice(("to", "-"))
    question = rng.choice((f"Invoices dated {a} {to} {b}, all companies", f"invoices from {a} {to} {b}, all companies",
                           f"List the invoices dated {a} {to} {b} across all companies"))
    call = _listing({"start_date": start.isoformat(), "end_date": (last + dt.timedelta(days=1)).isoformat()}, None)
    return ListProbe("range", question, call, "invoices")


def _currency(rng: random.Random) -> ListProbe:
    company = rng.choice(sorted(COMPANIES))
    spelling = COMPANIES[company][0]
    code = rng.choice(("USD", "GBP", "CHF"))
    period, start, end = rng.choice((("during 2026", "2026-01-01", "2026-05-16"), ("in Q1 2026", "2026-01-01",
                                                                                       "2026-04-01"),
                                     ("in 2025", "2025-01-01", "2026-01-01")))
    question = rng.choice((f"Invoices of {spelling} in {code} {period}",
                           f"Which invoices of {spelling} were billed in {code} {period}?",
                           f"which {spelling} invoices were invoiced in {code} {period}?"))
    call = _listing({"start_date": start, "end_date": end, "document_currency": code}, company)
    return ListProbe("currency", question, call, "invoices")


def _suppliers(rng: random.Random) -> ListProbe:
    company = rng.choice(sorted(COMPANIES))
    spelling = rng.choice(COMPANIES[company][:3] if len(COMPANIES[company]) > 3 else COMPANIES[company])
    period, start, end = rng.choice((("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01",
                                                                                   "2026-01-01"),
                                     ("in H2 2025", "2025-07-01", "2026-01-01")))
    question = rng.choice((f"Which suppliers had invoices for {spelling} {period}?",
                           f"which vendors invoiced {spelling} {period}",
                           f"Vendors we bought from at {spelling} {period}",
                           f"suppliers {spelling} bought from {period}"))
    call = Call(_SPEND, {"company_id": company, "start_date": start, "end_date": end}, group_by=("supplier_id",))
    return ListProbe("suppliers", question, call, "suppliers")


_DRAW = {"cutoff": _cutoff, "range": _range, "currency": _currency, "suppliers": _suppliers}


def _question_of(probe: ListProbe) -> str:
    return probe.question


def probes(seed: int, per_class: int = 20) -> list[ListProbe]:
    rng = random.Random(seed)
    found: list[ListProbe] = []
    for klass in CLASSES:
        draw = _DRAW[klass]

        def drawn(draw: Callable[[random.Random], ListProbe] = draw) -> ListProbe:
            return draw(rng)

        found.extend(distinct(drawn, _question_of, per_class, per_class * 5))
    return found


def _expected(body: Mapping[str, Any], compared: str) -> set[str]:
    """The invoice numbers (or supplier ids) of the direct call's rows (each row's values hold its dimensions)."""
    key = "invoice_number" if compared == "invoices" else "supplier_id"
    values = [{**(r.get("dimensions") or {}), **(r.get("values") or {})} for r in body.get("rows") or ()]
    return {str(v[key]) for v in values if v.get(key)}


def _named(text: str, compared: str) -> set[str]:
    body = text.split(" Read as:")[0]
    return set(re.findall(r"\bINV-\d{4}-\d{3,5}\b" if compared == "invoices" else r"\bSUP-\d+\b", body))


def check(session: ProbeClient, probe: ListProbe) -> Checked:
    want = _expected(session.direct(probe.call, probe.question), probe.compared)
    status, text, _ = session.ask(probe.question, AS_OF)
    if status == "clarification":
        outcome = "clar"
    elif status in ("answered", "no_data") and _named(text, probe.compared) == want:
        outcome = "exact"
    else:
        outcome = "wrong"
    return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, sorted(want), status, text))


def run(database: str, found: Sequence[ListProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    return run_probes(database, "probe-cutoff", (TENANT,), found, check, show, right=("exact",))


def table(counts: Counter[tuple[str, str]]) -> str:
    rows = [f"{'class':<10} {'exact':>6} {'clar':>6} {'wrong':>6}"]
    for klass in CLASSES:
        rows.append(f"{klass:<10} {counts[(klass, 'exact')]:>6} {counts[(klass, 'clar')]:>6} "
                    f"{counts[(klass, 'wrong')]:>6}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=20)


if __name__ == "__main__":
    main()
