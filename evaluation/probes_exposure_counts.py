"""Currency exposure, document counts and supplier listings: probes generated from slot grammars, asked through
``/v1/ask`` and compared with the governed metrics called directly with the slot values.

``python -m evaluation.probes_exposure_counts [--database procura] [--seed 1] [--per-class 20] [--class exposure]
[--show wrong|all|none]``

The failures this class guards against: treasury wording of the per-currency split ("by original invoice
currency", "FX exposure", "GBP exposure ... in EUR") asked back or refused; "FY2026 YTD" read as two periods;
"(excluding credit notes, drafts and cancelled)" answered with the drafts; "before credit notes" answered with
the credit notes only; "how many invoice lines" counting credit-note lines; "which suppliers crossed / passed
EUR 0.1m" and "which suppliers did X use" not understood. Classes (tenant-42 of the demo corpus, as of
2026-05-15; the company slot is one company by any spelling or all companies together):

* ``exposure``: the spend of each invoice currency as invoiced with the reporting-currency total:
  ``finance.document_currency_spend`` by ``currency`` (``document_spend``) and ``finance.company_spend``;
* ``exposure_one``: one currency's invoices ("GBP exposure", "exposure to USD", "USD-denominated spend ... in
  EUR"): ``finance.document_currency_spend`` with ``document_currency`` (``total_spend``, the reporting amount);
* ``count_excl``: invoices with credit notes, drafts and cancelled named as left out (in any order, any list
  form): ``finance.invoice_count`` with ``document_types`` [invoice];
* ``credit_count``: credit notes booked: ``finance.invoice_count`` with ``document_types`` [credit_note];
* ``lines``: invoice lines with no document type named (invoice lines only) or credit notes taken along (both):
  ``finance.invoice_line_count``;
* ``gross``: spend "before credit notes", "gross of credit notes": ``finance.company_spend`` with
  ``document_types`` [invoice];
* ``crossed``: suppliers whose total in the period crossed an amount (every notation: "EUR 0.1m", "250k",
  "100,000 EUR"): ``finance.company_spend`` by supplier, the ids above the amount (none: "no supplier" said);
* ``used``: which suppliers a company used, worked with, dealt with: ``finance.company_spend`` by supplier;
* ``largest``: the single largest invoice: ``finance.largest_invoices`` with ``limit`` 1.

Outcomes as in :mod:`evaluation.probes_clarify`. ``--seed 1`` is the training seed; ``--seed 2`` is held out.
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from operator import attrgetter
from typing import Any

from evaluation.constraint_probes import Call, _tokens
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, distinct, run_probes, shown
from evaluation.probes_clarify import outcome_table
from evaluation.probes_group_scope import classify as classify_figures

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)
#: The company slot: one company by its spellings, or all of them together (no ``company_id``: the tenant).
COMPANIES: tuple[tuple[str | None, tuple[str, ...]], ...] = (
    ("COMP-A", ("Company A", "company A", "COMP-A")), ("COMP-B", ("Company B", "company b", "COMP-B")),
    ("COMP-C", ("Company C", "COMP-C")), (None, ("all companies", "all companies together", "all 3 companies")),
)
#: Periods, with the fiscal-year-to-date notations ("FY2026 YTD") beside the usual ones.
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"), ("in 2025", "2025-01-01", "2026-01-01"),
    ("in FY2026 YTD", "2026-01-01", "2026-05-16"), ("FY26 YTD", "2026-01-01", "2026-05-16"),
    ("in fiscal 2026 year-to-date", "2026-01-01", "2026-05-16"), ("YTD", "2026-01-01", "2026-05-16"),
    ("in March 2026", "2026-03-01", "2026-04-01"), ("last quarter", "2026-01-01", "2026-04-01"),
    ("in Q4 2025", "2025-10-01", "2026-01-01"), ("since July 2025", "2025-07-01", "2026-05-16"),
)
CURRENCIES: dict[str, tuple[str, ...]] = {"USD": ("USD", "US dollar"), "GBP": ("GBP", "sterling", "GBP"),
                                          "CHF": ("CHF", "Swiss franc")}
#: Amount notations and their value.
AMOUNTS: tuple[tuple[str, str], ...] = (
    ("EUR 0.1m", "100000"), ("100k", "100000"), ("100,000 EUR", "100000"), ("EUR 50k", "50000"),
    ("50.000 EUR", "50000"), ("25k EUR", "25000"), ("EUR 0.05m", "50000"), ("250k", "250000"),
)
_NONE_SAID = re.compile(r"\bno (?:supplier|vendor)s?\b|\bnone\b", re.I)


@dataclass(frozen=True)
class Probe:
    """One generated question, the governed calls behind its answer and how their results become the expected
    tokens (``tokens``: every output and dimension value; ``above``: the supplier ids over ``threshold``)."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    pick: str = "tokens"
    threshold: str | None = None


def _scope(rng: random.Random) -> tuple[dict[str, Any], str]:
    company, names = rng.choice(COMPANIES)
    return ({"company_id": company} if company else {}), rng.choice(names)


def _window(p: tuple[str, str, str]) -> dict[str, Any]:
    return {"start_date": p[1], "end_date": p[2]}


def _exposure(rng: random.Random) -> Probe:
    scope, c = _scope(rng)
    p = rng.choice(PERIODS)
    q = rng.choice(("FX exposure: {c}'s spend {p} by original invoice currency, with the EUR total.",
                    "Currency exposure of {c} {p}: original-currency totals and EUR",
                    "{c} {p} invoice amounts per currency (original) and in EUR",
                    "{c} spend {p} by billing currency, with the EUR total",
                    "FX exposure of {c} {p}", "{c}: spend per original invoice currency {p}"))
    params = {**scope, **_window(p)}
    return Probe("exposure", q.format(c=c, p=p[0]), (
        Call("finance.document_currency_spend", params, group_by=("currency",), outputs=("document_spend",)),
        Call("finance.company_spend", params, outputs=("total_spend",))))


def _exposure_one(rng: random.Random) -> Probe:
    scope, c = _scope(rng)
    p = rng.choice(PERIODS)
    code = rng.choice(sorted(CURRENCIES))
    word = rng.choice(CURRENCIES[code])
    q = rng.choice(("{k} exposure of {c} {p}, in EUR?", "What is {c}'s exposure to {k} {p}?",
                    "How much {k}-denominated spend did {c} have {p}, in EUR?", "{c} {k} exposure {p}"))
    return Probe("exposure_one", q.format(c=c, p=p[0], k=word if "{k}-" not in q else code), (
        Call("finance.document_currency_spend", {**scope, **_window(p), "document_currency": code},
             outputs=("total_spend",)),))


_LEFT_OUT = ("excluding credit notes, drafts and cancelled", "excl. credit notes/drafts/cancelled",
             "excluding drafts, cancelled and credit notes", "without credit notes, drafts or cancelled ones",
             "not counting credit notes, drafts and cancelled invoices", "credit notes, drafts and cancelled excluded")


def _one_call(klass: str, frames: tuple[str, ...], metric: str, extra: Mapping[str, Any], outputs: tuple[str, ...],
              group_by: tuple[str, ...] = (), left_out: tuple[str, ...] = ()) -> Callable[[random.Random], Probe]:
    """A class asked with a company and a period (and, with ``left_out``, the documents named as left out: ``{x}``)
    whose answer is one governed call over them with ``extra`` parameters."""
    def make(rng: random.Random) -> Probe:
        scope, c = _scope(rng)
        p = rng.choice(PERIODS)
        left = rng.choice(left_out) if left_out else ""
        q = rng.choice(frames)
        return Probe(klass, q.format(c=c, p=p[0], x=left), (
            Call(metric, {**scope, **_window(p), **extra}, group_by=group_by, outputs=outputs),))
    return make


_count_excl = _one_call("count_excl", ("How many invoices did {c} receive {p} ({x})?",
                                       "Number of invoices for {c} {p}, {x}", "{c}: count of invoices {p} ({x})"),
                        "finance.invoice_count", {"document_types": ["invoice"]}, ("invoice_count",),
                        left_out=_LEFT_OUT)
_credit_count = _one_call("credit_count", ("Number of credit notes booked by {c} {p}?",
                                           "How many credit notes did {c} book {p}?", "count of credit notes {c} {p}"),
                          "finance.invoice_count", {"document_types": ["credit_note"]}, ("invoice_count",))


def _lines(rng: random.Random) -> Probe:
    scope, c = _scope(rng)
    p = rng.choice(PERIODS)
    both = rng.random() < 0.3
    q = (rng.choice(("How many invoice lines did {c} book {p}, credit notes included?",
                     "number of invoice lines (invoices and credit notes) for {c} {p}")) if both else
         rng.choice(("How many invoice lines did {c} book {p}?", "number of invoice lines for {c} {p}",
                     "count of invoice lines {c} {p}")))
    params = {**scope, **_window(p), **({} if both else {"document_types": ["invoice"]})}
    return Probe("lines", q.format(c=c, p=p[0]), (
        Call("finance.invoice_line_count", params, outputs=("line_count",)),))


_gross = _one_call("gross", ("Gross invoiced amount for {c} {p} before credit notes?",
                            "{c} spend {p} gross of credit notes", "What did {c} spend {p} before credit notes?",
                            "{c} spend {p}, prior to credit notes"),
                   "finance.company_spend", {"document_types": ["invoice"]}, ("total_spend",))


def _crossed(rng: random.Random) -> Probe:
    scope, c = _scope(rng)
    p = rng.choice(PERIODS)
    words, value = rng.choice(AMOUNTS)
    q = rng.choice(("Which suppliers crossed {a} of {c} spend {p}?",
                    "Did any supplier pass {a} of {c} spend {p}? Which ones?",
                    "Which vendors exceeded {a} with {c} {p}?", "{c}: suppliers that topped {a} {p}"))
    return Probe("crossed", q.format(c=c, p=p[0], a=words), (
        Call("finance.company_spend", {**scope, **_window(p)}, group_by=("supplier_id",), outputs=()),),
        pick="above", threshold=value)


_used = _one_call("used", ("Which suppliers did {c} use {p}?", "Which vendors has {c} worked with {p}?",
                          "which suppliers did {c} deal with {p}?", "What vendors did {c} do business with {p}?"),
                  "finance.company_spend", {}, (), ("supplier_id",))
_largest = _one_call("largest", ("What was the single largest invoice of {c} {p}?",
                                 "{c}'s biggest single invoice {p}", "largest invoice {c} {p}"),
                     "finance.largest_invoices", {"limit": 1, "direction": "top"}, ("grand_total",),
                     ("invoice_number",))


FRAMES: dict[str, Callable[[random.Random], Probe]] = {
    "exposure": _exposure, "exposure_one": _exposure_one, "count_excl": _count_excl, "credit_count": _credit_count,
    "lines": _lines, "gross": _gross, "crossed": _crossed, "used": _used, "largest": _largest,
}


def probes(seed: int, per_class: int = 20) -> list[Probe]:
    """``per_class`` distinct questions of each class."""
    rng = random.Random(seed)
    return [probe for make in FRAMES.values()
            for probe in distinct(partial(make, rng), attrgetter("question"), per_class, 10 * per_class + 1)]


def expected_tokens(probe: Probe, results: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the answer must contain: every output and dimension value of the calls, or (``above``) the ids of the
    suppliers whose total is over the threshold (empty: none qualifies)."""
    if probe.pick == "above":
        assert probe.threshold is not None
        bound = Decimal(probe.threshold)
        return [str(r["values"]["supplier_id"]) for r in results[0].get("rows", ())
                if Decimal(str(r["values"].get("total_spend") or 0)) > bound]
    tokens = [t for call, result in zip(probe.calls, results, strict=True) for t in _tokens(result, call)]
    if not tokens and probe.calls[0].metric in _COUNTS:
        return ["0"]  # no matching document or line is a count of 0, not missing data
    return tokens


_COUNTS = frozenset({"finance.invoice_count", "finance.invoice_line_count"})


def classify(probe: Probe, status: str, text: str, expected: list[str]) -> str:
    """``exact`` when every expected token is in the answer ("no supplier" said when none qualifies)."""
    if expected or status not in ("answered", "no_data", "partial"):
        return classify_figures(status, text, expected)
    if probe.pick == "above":
        return "exact" if _NONE_SAID.search(text) else "silent_wrong"
    return "exact" if status == "no_data" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        expected = expected_tokens(probe, [session.direct(call, probe.question) for call in probe.calls])
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(probe, status, text, expected)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-exposure-counts", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=20)


if __name__ == "__main__":
    main()
