"""Invoice-list probes: replicated duplicates, invoice counts with a measure word, a status or an amount bound,
asked through ``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_invoice_lists [--database procura] [--seed 1] [--per-class 30] [--class K]
[--show wrong|all|none] [--json out.json]`` fills frames (English and German, analyst and casual wording) with
seeded slot values of the demo vocabulary (``tenant-42``, as of 2026-05-15): companies by name and id (one, two
named together, or none: every company of the tenant), suppliers in every spelling, periods in every form or none
(the whole history), duplicate wordings ("duplicate", "double-exported", "exported twice", "replicated", "replica",
"dupes"; "doppelt eingespielt", "Dubletten", "Duplikate", "Replikat"), measure words ("how many", "number of",
"#", "count of", "wie viele"), statuses and amount bounds in every money notation.

The classes:

* **dup_list** / **dup_de**: which invoices had a replicated copy: ``finance.duplicate_invoices`` (the invoice
  numbers must be listed exactly, no data said as such).
* **dup_count**: how many: the same listing, its number next to the noun and the numbers listed.
* **dup_clarify**: a constraint the listing cannot take (their value, an amount bound, a product group): a
  clarification naming it, never an answer.
* **dup_policy**: spend "excluding duplicates" is the policy itself: ``finance.company_spend`` (never the listing).
* **count_threshold**: "how many invoices over €20k": the number of rows of ``finance.invoices_above_threshold``
  with that bound (never the count without it).
* **status_count**: "how many paid / open invoices": ``finance.invoice_count`` with the status (never spend).
* **open_now**: "what's still open from Beta for Company A": ``finance.company_spend`` with status posted over the
  period named, or (none named) every invoice dated up to the as-of date.
* **status_only**: "paid-only spend", "posted-only": the spend of that status.
* **count_every**: a count naming every company of the tenant ("Company A + B + C", "all companies"): one
  ``finance.invoice_count`` without a company.
* **vendors_every**: "vendors above EUR 0.1m across all companies": ``finance.spend_ranking`` without a company,
  every supplier whose total is above the bound listed.
* **status_every**: "list cancelled (draft) invoices, both/all companies": ``finance.cancelled_draft_invoices``
  called per company, every document of every company listed exactly.

Outcomes are :data:`evaluation.probes_clarify.CLASSES`. The router is fixed on ``--seed 1``; ``--seed 2`` is held
out (counts only). Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from evaluation.constraint_probes import Call, _present
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, PERIODS, SUPPLIERS, TENANT, outcome_table

DUPLICATE_METRIC = "finance.duplicate_invoices"
LISTING_METRIC = "finance.invoices_above_threshold"
COUNT_METRIC = "finance.invoice_count"
SPEND_METRIC = "finance.company_spend"
KINDS = ("dup_list", "dup_de", "dup_count", "dup_clarify", "dup_policy", "count_threshold", "status_count",
         "open_now", "status_only", "count_every", "vendors_every", "status_every")
STATUS_METRIC = "finance.cancelled_draft_invoices"
RANKING_METRIC = "finance.spend_ranking"
_HISTORY = ("1990-01-01", "2026-05-16")
#: Duplicate wordings: (before "invoices", predicate after "invoices").
DUPLICATE_EN = (("duplicate", "that were duplicated"), ("double-exported", "that were exported twice"),
                ("replicated", "that were replicated"), ("duplicated", "that came in twice"),
                ("replica", "with an ERP replica"), ("double-booked", "that were imported twice"))
DUPLICATE_DE = (("doppelten", "die doppelt eingespielt wurden"), ("doppelt erfassten", "die doppelt kamen"),
                ("duplizierten", "mit Replikat"), ("doppelten", "die als Dubletten kamen"))
PERIODS_DE = (("im ersten Quartal 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
              ("im Q4 2025", "2025-10-01", "2026-01-01"), ("2025", "2025-01-01", "2026-01-01"))
#: Money notations of a bound (words, exact value).
AMOUNTS = (("€20k", "20000"), ("EUR 20,000", "20000"), ("20.000 €", "20000"), ("20000 EUR", "20000"),
           ("€ 5k", "5000"), ("5,000 euros", "5000"), ("EUR 10.5k", "10500"), ("€0.01m", "10000"),
           ("12,500.00 EUR", "12500"), ("15 000 EUR", "15000"))
COUNT_WORDS = ("how many", "number of", "# of", "count of", "the number of")
STATUS_WORDS = (("paid", "paid"), ("settled", "paid"), ("open", "posted"), ("unpaid", "posted"),
                ("posted but not paid", "posted"), ("still open", "posted"))


def _spelling(rng: random.Random, supplier: str) -> str:
    kinds = SUPPLIERS[supplier]
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def _company(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """One company, two named together, or none (every company of the tenant)."""
    roll = rng.random()
    if roll < 0.6:
        company = rng.choice(sorted(COMPANIES))
        return rng.choice(COMPANIES[company]).removesuffix("'s"), {"company_id": company}
    if roll < 0.8:
        a, b = rng.sample(sorted(COMPANIES), 2)
        joint = rng.choice((" and ", " + ", " & "))
        return (COMPANIES[a][0].removesuffix("'s") + joint + COMPANIES[b][0].removesuffix("'s"),
                {"company_ids": sorted((a, b))})
    return "", {}


def _duplicates(rng: random.Random, kind: str) -> tuple[str, tuple[Call, ...], str | None]:
    c, params = _company(rng)
    who = ""
    if rng.random() < 0.3:
        supplier = rng.choice(sorted(SUPPLIERS))
        params["supplier_ids"] = [supplier]
        who = f" from {_spelling(rng, supplier)}"
    at = f" for {c}" if c else rng.choice(("", " in our tenant", " across the tenant"))
    frames: tuple[str, ...]
    if kind == "dup_de":
        p, start, end = rng.choice((("", *_HISTORY), *PERIODS_DE))
        adjective, predicate = rng.choice(DUPLICATE_DE)
        bei = f" bei {c}" if c else ""
        frames = (f"Welche Rechnungen{who}{bei} {predicate} {p}?", f"{c}: {adjective} Rechnungen{who} {p}",
                  f"Liste der {adjective} Rechnungen{who}{bei} {p}", f"Dubletten-Prüfung{bei}{who} {p}: welche "
                  f"Rechnungen kamen doppelt?")
        question = rng.choice(frames)
    else:
        p, start, end = rng.choice((("", *_HISTORY), ("", *_HISTORY), *PERIODS))
        adjective, predicate = rng.choice(DUPLICATE_EN)
        if kind == "dup_count":
            n = rng.choice(COUNT_WORDS)
            frames = (f"{n} {adjective} invoices{who}{at} {p}?", f"{c or 'tenant'}: {n} invoices{who} {predicate} "
                      f"{p}", f"{n} dupes{who}{at} {p}")
        elif kind == "dup_clarify":
            what = rng.random()
            if what < 0.4:
                frames = (f"value of the {adjective} invoices{who}{at} {p}", f"how much were the {adjective} "
                          f"invoices{at} worth {p}?")
                named = "value"
            elif what < 0.7:
                words, _ = rng.choice(AMOUNTS)
                frames = (f"{adjective} invoices{at} over {words} {p}", f"which invoices above {words}{at} "
                          f"{predicate} {p}?")
                named = "amount"
            else:
                group = rng.choice(sorted(GROUPS))
                name = GROUPS[group][0][0]
                frames = (f"{adjective} invoices for {name}{at} {p}", f"which {name} invoices{at} {predicate} {p}?")
                named = "product group"
            return " ".join(rng.choice(frames).split()), (), named
        else:
            frames = (f"which invoices{who}{at} {predicate} {p}? invoice numbers pls",
                      f"{adjective} invoices{who}{at} {p} - which ones?", f"list the {adjective} invoices{who}{at} {p}",
                      f"which invoices{who}{at} were {adjective} {p}?", f"{c or 'Tenant'}: {adjective} invoices{who}"
                      f" {p}, which inv numbers?")
        question = rng.choice(frames)
    params |= {"start_date": start, "end_date": end, "document_types": ["invoice"]}
    return question, (Call(DUPLICATE_METRIC, params, outputs=("invoice_number",)),), None


def _policy(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    company = rng.choice(sorted(COMPANIES))
    c = COMPANIES[company][0].removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    frames = (f"{c} spend {p} excluding duplicates", f"{c} spend {p} without duplicate invoices",
              f"{c} total spend {p}, duplicates removed", f"{c} spend {p} (net of replicated duplicates)")
    return rng.choice(frames), (Call(SPEND_METRIC, {"company_id": company, "start_date": start, "end_date": end}),), \
        None


def _count_threshold(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    words, value = rng.choice(AMOUNTS)
    n = rng.choice(COUNT_WORDS)
    comparator, inclusive = rng.choice((("over", False), ("above", False), ("more than", False),
                                        ("at least", True), ("of", True)))
    if comparator == "of":
        words, comparator = f"{words} or more", "of"
    frames = (f"{n} invoices {comparator} {words} for {c} {p}", f"invoice count {comparator} {words}, {c}, {p}",
              f"{c}: {n} invoices {comparator} {words} {p}?")
    params = {"company_id": company, "start_date": start, "end_date": end, "threshold": value,
              "direction": "above", "inclusive": inclusive}
    return rng.choice(frames), (Call(LISTING_METRIC, params, outputs=("invoice_number",)),), "count"


def _status_count(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    word, status = rng.choice(STATUS_WORDS)
    n = rng.choice(COUNT_WORDS)
    frames = (f"{word} invoices count, {c}, {p}", f"{n} {word} invoices for {c} {p}",
              f"{c}: {n} invoices {word} {p}?" if word != "open" else f"{c}: {n} open invoices {p}?")
    params = {"company_id": company, "start_date": start, "end_date": end, "invoice_statuses": [status],
              "document_types": ["invoice"]}
    return rng.choice(frames), (Call(COUNT_METRIC, params, outputs=("invoice_count",)),), None


def _open_now(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    company = rng.choice(sorted(COMPANIES))
    c = COMPANIES[company][0].removesuffix("'s")
    supplier = rng.choice(sorted(SUPPLIERS))
    p, start, end = rng.choice((("", *_HISTORY), ("", *_HISTORY), *PERIODS))
    lead = rng.choice(("what's still open", "what is still open", "how much is outstanding", "what's open",
                       "what is currently unpaid"))
    frames = (f"{lead} (posted, not paid) from {_spelling(rng, supplier)} for {c} {p}, EUR",
              f"{lead} from {_spelling(rng, supplier)} for {c} {p}?", f"{c}: {lead} with "
              f"{_spelling(rng, supplier)} {p}")
    params = {"company_id": company, "supplier_ids": [supplier], "start_date": start, "end_date": end,
              "invoice_statuses": ["posted"]}
    return rng.choice(frames), (Call(SPEND_METRIC, params),), None


def _status_only(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    word, status = rng.choice((("paid-only", "paid"), ("posted-only", "posted"), ("paid only", "paid")))
    frames = (f"{c}: {word} spend {p}", f"{word} spend for {c} {p}", f"{c} spend {p}, {word}")
    params = {"company_id": company, "start_date": start, "end_date": end, "invoice_statuses": [status]}
    return rng.choice(frames), (Call(SPEND_METRIC, params),), None


def _count_every(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    p, start, end = rng.choice(PERIODS)
    names = [rng.choice(COMPANIES[c]).removesuffix("'s") for c in sorted(COMPANIES)]
    rng.shuffle(names)
    who = rng.choice((", ".join(names[:-1]) + " and " + names[-1], " + ".join(names), "all companies",
                      "all three companies"))
    noun, types = rng.choice((("credit notes", ["credit_note"]), ("invoices", ["invoice"])))
    n = rng.choice(COUNT_WORDS)
    # ("received by all companies" reads "by ..." as a breakdown: a wording of the company-set class, not this one)
    by = "received by" if not who.startswith("all") else "received at"
    frames = (f"{n} {noun} {by} {who} {p}", f"{n} {noun} for {who} {p}?", f"{who}: {n} {noun} {p}")
    params = {"start_date": start, "end_date": end, "document_types": types}
    return rng.choice(frames), (Call(COUNT_METRIC, params, outputs=("invoice_count",)),), None


def _vendors_every(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    p, start, end = rng.choice((("in FY2025", "2025-01-01", "2026-01-01"), ("in 2025", "2025-01-01", "2026-01-01"),
                                ("in H2 2025", "2025-07-01", "2026-01-01"), ("in Q1 2026", "2026-01-01", "2026-04-01")))
    words, value = rng.choice((("EUR 0.05m", "50000"), ("€50k", "50000"), ("20,000 EUR", "20000"),
                               ("€ 30.000", "30000"), ("EUR 100k", "100000"), ("40000 euros", "40000")))
    who = rng.choice(("across all companies", "group-wide", "across the group", "for all companies"))
    noun = rng.choice(("vendors", "suppliers"))
    frames = (f"{noun} > {words} spend {who} {p}", f"which {noun} had more than {words} of spend {who} {p}?",
              f"{noun} with spend above {words} {who} {p}")
    params = {"start_date": start, "end_date": end, "limit": 100, "direction": "top"}
    return rng.choice(frames), (Call(RANKING_METRIC, params, ("supplier_id",), outputs=("total_spend",)),), value


def _status_every(rng: random.Random) -> tuple[str, tuple[Call, ...], str | None]:
    p, start, end = rng.choice((("", *_HISTORY), *PERIODS))
    status, word = rng.choice((("cancelled", "cancelled"), ("cancelled", "canceled"), ("draft", "draft")))
    who = rng.choice(("all companies", "all three companies", "every company", "across the group"))
    frames = (f"list {word} invoices {who} {p}", f"which invoices were {word} {p}, {who}?",
              f"{word} invoices - {who}, {p} - which ones?")
    calls = tuple(Call(STATUS_METRIC, {"company_id": c, "invoice_statuses": [status], "start_date": start,
                                       "end_date": end}, ("invoice_number",), outputs=()) for c in sorted(COMPANIES))
    return rng.choice(frames), calls, "union"


@dataclass(frozen=True)
class ListProbe:
    """One generated question, its class, the governed calls it means, and what a clarification must name."""

    klass: str
    question: str
    calls: tuple[Call, ...]
    names: str | None = None


def probes(seed: int, per_class: int = 30, kinds: Sequence[str] = KINDS) -> list[ListProbe]:
    """``per_class`` questions of each class: seeded frames and slot values, repeats dropped."""
    rng = random.Random(seed * 13 + 7)
    found: list[ListProbe] = []
    seen: set[str] = set()
    for kind in kinds:
        made, tries = 0, 0
        while made < per_class and tries < per_class * 50:
            tries += 1
            if kind.startswith("dup_") and kind != "dup_policy":
                question, calls, names = _duplicates(rng, kind)
            elif kind == "dup_policy":
                question, calls, names = _policy(rng)
            elif kind == "count_threshold":
                question, calls, names = _count_threshold(rng)
            elif kind == "status_count":
                question, calls, names = _status_count(rng)
            else:
                question, calls, names = {"open_now": _open_now, "status_only": _status_only,
                                          "count_every": _count_every, "vendors_every": _vendors_every,
                                          "status_every": _status_every}[kind](rng)
            question = " ".join(question.split()).replace(" ?", "?")
            question = question[:1].upper() + question[1:]
            if question in seen:
                continue
            seen.add(question)
            found.append(ListProbe(kind, question, calls, names))
            made += 1
    return found


_INVOICE_ID = re.compile(r"\bINV-\d{4}-\d{4}\b")


def _count_in(n: int | str, text: str) -> bool:
    return bool(re.search(rf"(?<![\w.,-]){n}\s+(?:[\w(),-]+\s+){{0,5}}?(?:invoices?|documents?|credit notes?)\b",
                          text, re.I))


def classify(probe: ListProbe, status: str, text: str, results: Sequence[Mapping[str, Any]]) -> str:
    """``exact`` when the answer holds what the direct calls say (the ids exactly, the count next to its noun, the
    figure), ``clar_ok`` for a clarification naming what the listing cannot take."""
    prose = text.split(" Sources:")[0]
    if probe.klass == "dup_clarify":
        if status == "clarification":
            return "clar_ok" if probe.names and probe.names in prose.lower() else "clar_wrong_point"
        return "silent_wrong" if status in ("answered", "no_data") else "flagged" if status == "partial" \
            else "refusal"
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    ok = True
    if probe.names == "union":  # one listing per company: every document of every company, exactly
        ids = {str((r.get("values") or {}).get("invoice_number")) for res in results for r in res.get("rows") or ()}
        found = set(_INVOICE_ID.findall(prose))
        ok = found == ids if ids else (status == "no_data" or not found)
        return "exact" if ok else "flagged" if "PARTIAL" in prose or status == "partial" else "silent_wrong"
    for call, result in zip(probe.calls, results, strict=True):
        rows = [r.get("values") or {} for r in result.get("rows") or ()]
        if call.metric in (DUPLICATE_METRIC, LISTING_METRIC):
            ids = {str(r["invoice_number"]) for r in rows}
            if not ids:
                ok = ok and (status == "no_data" or bool(re.search(r"\bno\b|\bnone\b|\b0 invoices\b", prose, re.I)))
            elif probe.names == "count":
                ok = ok and _count_in(len(ids), prose)
            else:
                ok = ok and set(_INVOICE_ID.findall(prose)) == ids
            if probe.klass == "dup_count" and ids:
                ok = ok and _count_in(len(ids), prose)
        elif call.metric == RANKING_METRIC:
            above = {str(r["supplier_id"]) for r in rows if Decimal(str(r["total_spend"])) > Decimal(str(probe.names))}
            ok = ok and set(re.findall(r"\bSUP-\d+\b", prose)) == above if above else ok and bool(
                re.search(r"\bno supplier\b|\bnone\b", prose, re.I))
        elif call.metric == COUNT_METRIC:
            ok = ok and _count_in(str(rows[0].get("invoice_count")) if rows else 0, prose)
        else:
            total = str(rows[0].get("total_spend")) if rows else None
            ok = ok and (total is None or _present(total, prose)) and "replicated copy" not in prose
    if ok:
        return "exact"
    return "flagged" if "PARTIAL" in prose or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[ListProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` and compare with its governed calls made directly (tenant-42)."""
    def check(session: ProbeClient, probe: ListProbe) -> Checked:
        results = [session.direct(call, probe.question) for call in probe.calls]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(probe, status, text, results)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question,
                                                   probe.names or [c.parameters for c in probe.calls], status, text))

    return run_probes(database, "probes-invoice-lists", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, KINDS, label="class", width=15, column=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=30)


if __name__ == "__main__":
    main()


__all__ = ["KINDS", "ListProbe", "classify", "probes"]
