"""Invoice- and credit-note-level probes: a named document's amount (gross, net excl. VAT, VAT; as invoiced and in
EUR), several documents combined, a cancelled one, a number that does not exist, the invoice a credit note
corrects, net spend and VAT over a period, and a document named by its kind that does not exist; asked through
``/v1/ask`` and compared with governed metrics called directly (or with the document's own record).

``python -m evaluation.probes_invoice_facts [--database procura] [--seed 1] [--per-class 10] [--class K]
[--show wrong|all|none] [--json out.json]`` fills frames (analyst, helpdesk and German wording) with seeded slot
values of the demo tenant (``tenant-42``, as of 2026-05-15). The documents are drawn at run time from the governed
listing of the whole history (sorted, so a seed always draws the same ones of one database).

The classes and where each expectation comes from:

* **doc_amount**: one document's amount on the basis asked: gross and net from ``finance.document_amounts``, the
  VAT from ``finance.tax_total`` (another governed metric over the same number); when the question asks for both
  currencies, the amount as invoiced too.
* **doc_combined**: two or three documents together: the sum of the same direct calls.
* **doc_cancelled**: a cancelled document by its number: its value from ``finance.cancelled_draft_invoices``.
* **doc_missing**: a number the tenant does not have: "not found", and no figure.
* **cn_origin**: the invoice a credit note corrects: the ``original_invoice_number`` of the credit note's stored
  JSON record (the document's own data), one or two credit notes.
* **period_net** / **period_tax**: net spend excl. VAT and VAT of a company (with a supplier or by supplier) over a
  period: VAT = ``finance.tax_total`` over the period's documents, net = ``finance.company_spend`` - that VAT (each
  supplier's the same way), so the expectation never reads the amounts the answer sums (the difference of two
  rounded figures may be a cent off the exact net: within a cent counts).
* **period_clarify**: net spend or VAT without a company (not group-wide) or without a period: a clarification
  naming the company or the period.
* **doc_conflict**: a document number left out of a figure ("net spend ... without INV-..."), checked against one
  ("..., and is INV-... in it?") or named beside a period: a clarification naming the number, never the
  document's own amount presented as the answer.
* **doc_unknown_kind**: "service bulletin bulletin-0042", "document memo-2026-07": not found, never passages.

Outcomes are :data:`evaluation.probes_clarify.CLASSES`. Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, SUPPLIERS, TENANT, outcome_table

AMOUNTS = "finance.document_amounts"
TAX = "finance.tax_total"
STATUS = "finance.cancelled_draft_invoices"
SPEND = "finance.company_spend"
KINDS = ("doc_amount", "doc_combined", "doc_cancelled", "doc_missing", "cn_origin", "period_net", "period_tax",
         "period_clarify", "doc_conflict", "doc_unknown_kind")
HISTORY = {"start_date": "1990-01-01", "end_date": "2101-01-01"}
#: Basis wordings: (words, basis). "{n}" is the document number.
BASIS_FRAMES: tuple[tuple[str, str], ...] = (
    ("What's the EUR gross total of {n}?", "gross"), ("Total of {n} incl. VAT?", "gross"),
    ("How much was {n} in EUR?", "gross"), ("Amount of {n} including tax, please", "gross"),
    ("Net amount (excl. VAT) of {n} in EUR?", "net"), ("{n}: net value before tax?", "net"),
    ("What is the net of {n}?", "net"), ("Betrag von {n} ohne MwSt?", "net"),
    ("How much VAT is on {n}?", "tax"), ("VAT amount of {n}", "tax"), ("Tax on {n} in EUR?", "tax"),
    ("MwSt auf {n}?", "tax"),
)
BOTH_FRAMES = ("{n} was billed in {cur} - what's the {cur} amount and the EUR equivalent?",
               "Total of {n}? It was billed in {cur}, please give both.",
               "{n}: amount as invoiced ({cur}) and in EUR?")
COMBINED_FRAMES: tuple[tuple[str, str], ...] = (
    ("Combined VAT on {ns}?", "tax"), ("Total VAT of {ns}", "tax"), ("Net total of {ns} (excl. VAT)?", "net"),
    ("What do {ns} add up to, incl. VAT?", "gross"), ("Gross total of {ns} together?", "gross"),
)
CANCELLED_FRAMES = ("What was the amount of the cancelled invoice {n} in EUR?", "Value of {n} (cancelled)?",
                    "How much was {n}? I think it got cancelled.")
MISSING_FRAMES = ("What's the total of {n}?", "Net amount of {n}?", "VAT on {n}?", "EUR value of credit note {n}?")
ORIGIN_FRAMES = ("Which invoice does credit note {ns} refer to?", "{ns} - what's the original invoice number?",
                 "Which invoice was credit note {ns} issued against?", "Credit notes {ns} - which invoices do they "
                 "correct?", "Zu welcher Rechnung gehört die Gutschrift {ns}?")
NET_FRAMES = ("What was {c}'s net spend (excl. VAT) with {s} {p}?", "{c} net spend excluding VAT, {s}, {p}",
              "Net spend excl. VAT by supplier for {c} {p}?", "{c}: spend before tax per supplier {p}?")
TAX_FRAMES = ("How much VAT was charged on {c}'s purchases from {s} {p}?", "VAT paid by {c} to {s} {p}?",
              "VAT per supplier for {c} {p}?", "{c}: how much tax per supplier {p}?")
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("last quarter", "2026-01-01", "2026-04-01"),
           ("in April 2026", "2026-04-01", "2026-05-01"), ("in Q4 2025", "2025-10-01", "2026-01-01"),
           ("in March 2026", "2026-03-01", "2026-04-01"))
#: Net/VAT questions lacking the company or the period: a clarification naming it, never a figure or a refusal.
CLARIFY_FRAMES = (("How much VAT did we pay on purchases from {s} {p}?", "company"),
                  ("Net spend excl. VAT with {s} {p}?", "company"),
                  ("{c}'s net spend excluding VAT with {s}?", "period"), ("VAT per supplier for {c}?", "period"))
#: A number beside a figure it is not the whole of: {c} company, {p} period, {n} the number.
CONFLICT_FRAMES = ("What was {c}'s net spend (excl. VAT) {p} without {n}?", "{c} VAT {p}, excluding invoice {n}",
                   "Total spend of {c} {p}, and is {n} in it?", "Does {c}'s spend {p} include {n}?",
                   "How much VAT is on {n} {p}?", "{c} spend {p} other than {n}")
KIND_FRAMES = ("What does service bulletin bulletin-{k} say?", "Show me document memo-2026-{k}.",
               "Summarise the certificate certificate-{k}.")


@dataclass(frozen=True)
class FactProbe:
    """One probe: its class, a frame and the seeded draws (indices into the run-time listings, names)."""

    klass: str
    frame: str
    basis: str = "gross"
    picks: tuple[int, ...] = ()
    company: str = ""
    supplier: str = ""
    period: tuple[str, str, str] = ("", "", "")
    by_supplier: bool = False


def probes(seed: int, per_class: int) -> list[FactProbe]:
    rng = random.Random(seed)
    out: list[FactProbe] = []
    for _ in range(per_class):
        frame, basis = rng.choice(BASIS_FRAMES)
        if rng.random() < 0.3:
            frame, basis = rng.choice(BOTH_FRAMES), "both"
        out.append(FactProbe("doc_amount", frame, basis, (rng.randrange(10_000),)))
        frame, basis = rng.choice(COMBINED_FRAMES)
        out.append(FactProbe("doc_combined", frame, basis, tuple(rng.randrange(10_000)
                                                                 for _ in range(rng.choice((2, 3))))))
        out.append(FactProbe("doc_cancelled", rng.choice(CANCELLED_FRAMES), picks=(rng.randrange(10_000),)))
        out.append(FactProbe("doc_missing", rng.choice(MISSING_FRAMES), picks=(rng.randrange(1, 999),
                                                                               rng.choice((0, 1)))))
        out.append(FactProbe("cn_origin", rng.choice(ORIGIN_FRAMES),
                             picks=tuple(rng.randrange(10_000) for _ in range(rng.choice((1, 1, 2))))))
        for klass, frames in (("period_net", NET_FRAMES), ("period_tax", TAX_FRAMES)):
            frame = rng.choice(frames)
            company = rng.choice(sorted(COMPANIES))
            supplier = rng.choice(sorted(SUPPLIERS)) if "{s}" in frame else ""
            out.append(FactProbe(klass, frame, "net" if klass == "period_net" else "tax", company=company,
                                 supplier=supplier, period=rng.choice(PERIODS), by_supplier="{s}" not in frame))
        frame, about = rng.choice(CLARIFY_FRAMES)
        out.append(FactProbe("period_clarify", frame, about, company=rng.choice(sorted(COMPANIES)),
                             supplier=rng.choice(sorted(SUPPLIERS)), period=rng.choice(PERIODS)))
        out.append(FactProbe("doc_conflict", rng.choice(CONFLICT_FRAMES), picks=(rng.randrange(10_000),),
                             company=rng.choice(sorted(COMPANIES)), period=rng.choice(PERIODS)))
        out.append(FactProbe("doc_unknown_kind", rng.choice(KIND_FRAMES), picks=(rng.randrange(900, 999),)))
    return out


def _cents(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _rows(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [r["values"] for r in body.get("rows") or ()] or ([body["values"]] if body.get("values") else [])


@dataclass(frozen=True)
class World:
    """The run-time listings the draws index into (sorted, unique numbers only)."""

    documents: tuple[Mapping[str, Any], ...]
    cancelled: tuple[Mapping[str, Any], ...]
    origins: tuple[tuple[str, str], ...]


def _world(session: Any, database: str) -> World:
    import psycopg

    from procura.settings import get_settings

    listing = _rows(session.direct(Call(AMOUNTS, dict(HISTORY)), "listing"))
    counts = Counter(str(r["invoice_number"]) for r in listing)
    documents = tuple(r for r in listing if counts[str(r["invoice_number"])] == 1)
    status = _rows(session.direct(Call(STATUS, {**HISTORY, "invoice_statuses": ["cancelled"]},
                                       group_by=("invoice_number", "invoice_status")), "cancelled"))
    cancelled = tuple(r for r in status if counts[str(r["invoice_number"])] == 0
                      and sum(1 for x in status if x["invoice_number"] == r["invoice_number"]) == 1)
    # the credit notes' own records: the original invoice number each states (the document's data)
    origins: dict[str, set[str]] = {}
    with psycopg.connect(get_settings().owner_url) as conn:
        for (content,) in conn.execute(
                "select v.original_content from ingest.document_versions v join ingest.documents d "
                "on d.document_id = v.document_id and d.active_version = v.document_version "
                "where d.tenant_id = %s and d.document_type = 'credit_note' and not d.is_deleted", (TENANT,)):
            try:
                doc = json.loads(bytes(content))
            except ValueError:
                continue
            origins.setdefault(str(doc.get("invoice_number")), set()).add(str(doc.get("original_invoice_number")))
    return World(documents=documents, cancelled=cancelled,
                 origins=tuple(sorted((k, next(iter(v))) for k, v in origins.items() if len(v) == 1)))


def _value(body: Mapping[str, Any], name: str) -> Decimal:
    """One output of an ungrouped metric response (0 when no line matched)."""
    rows = _rows(body)
    return Decimal(str(rows[0].get(name) or 0)) if rows else Decimal(0)


def _amount(session: Any, number: str, basis: str) -> tuple[Decimal, Mapping[str, Any]]:
    row = _rows(session.direct(Call(AMOUNTS, {**HISTORY, "invoice_numbers": [number]}), number))[0]
    if basis == "tax":
        return _value(session.direct(Call(TAX, {"invoice_numbers": [number]}), number), "total_tax"), row
    return Decimal(str(row["net_amount" if basis == "net" else "gross_amount"])), row


def _present(value: str, text: str) -> bool:
    """Whether one of the alternatives ``a|b|c`` is in the answer's prose."""
    prose = text.split(" Sources:")[0]
    return any(v in prose for v in value.split("|"))


def _outcome(status: str, text: str, wanted: Sequence[str], forbidden: Sequence[str] = ()) -> str:
    if status in ("clarification",):
        return "false_clar"
    if status in ("unsupported", "failed", "validation_failed"):
        return "refusal"
    if all(_present(w, text) for w in wanted) and not any(_present(f, text) for f in forbidden):
        return "exact"
    return "flagged" if status == "partial" else "silent_wrong"


def _supplier_words(rng: random.Random, supplier: str) -> str:
    kinds = SUPPLIERS[supplier]
    return rng.choice(kinds[rng.choice(sorted(k for k in kinds if k != "typo"))])


def _ask_one(session: Any, world: World, p: FactProbe, rng: random.Random) -> tuple[str, list[str], str, str, str]:
    """(question, wanted strings, status, text, outcome) of one probe."""
    docs = world.documents
    if p.klass == "doc_amount":
        row = docs[p.picks[0] % len(docs)]
        number = str(row["invoice_number"])
        if p.basis == "both":
            foreign = [r for r in docs if r["currency"] != "EUR"]
            row = foreign[p.picks[0] % len(foreign)]
            number = str(row["invoice_number"])
            question = p.frame.format(n=number, cur=row["currency"])
            value, row = _amount(session, number, "gross")
            wanted = [f"{_cents(value)} EUR", f"{_cents(Decimal(str(row['document_gross_amount'])))} {row['currency']}"]
        else:
            question = p.frame.format(n=number)
            value, _ = _amount(session, number, p.basis)
            wanted = [f"{_cents(value)} EUR"]
        status, text, _ = session.ask(question, AS_OF)
        return question, wanted, status, text, _outcome(status, text, wanted)
    if p.klass == "doc_combined":
        numbers = list(dict.fromkeys(str(docs[i % len(docs)]["invoice_number"]) for i in p.picks))
        question = p.frame.format(ns=", ".join(numbers[:-1]) + " and " + numbers[-1] if len(numbers) > 1
                                  else numbers[0])
        total = sum((_amount(session, n, p.basis)[0] for n in numbers), Decimal(0))
        wanted = [f"{_cents(total)} EUR"]
        status, text, _ = session.ask(question, AS_OF)
        return question, wanted, status, text, _outcome(status, text, wanted)
    if p.klass == "doc_cancelled":
        if not world.cancelled:
            return "", [], "", "", "exact"
        row = world.cancelled[p.picks[0] % len(world.cancelled)]
        question = p.frame.format(n=row["invoice_number"])
        wanted = [f"{_cents(Decimal(str(row['total_amount'])))} EUR", "not spend"]
        status, text, _ = session.ask(question, AS_OF)
        return question, wanted, status, text, _outcome(status, text, wanted)
    if p.klass == "doc_missing":
        number = f"{'CN' if p.picks[1] else 'INV'}-2031-{p.picks[0]:04d}"
        question = p.frame.format(n=number)
        status, text, _ = session.ask(question, AS_OF)
        # (a tax question keeps finance.tax_total's own not-found wording, which need not repeat the number)
        ok = status == "not_found" and " EUR" not in text.split(" Sources:")[0]
        return question, ["not found"], status, text, "exact" if ok else _outcome(status, text, ["\x00"])
    if p.klass == "cn_origin":
        pairs = list(dict.fromkeys(world.origins[i % len(world.origins)] for i in p.picks))
        numbers = [n for n, _ in pairs]
        question = p.frame.format(ns=" and ".join(numbers))
        wanted = [inv for _, inv in pairs]
        status, text, answer = session.ask(question, AS_OF)
        got = set((answer.get("result") or {}).get("original_invoice_numbers") or ())
        ok = status == "answered" and got == set(wanted) and all(_present(w, text) for w in wanted)
        return question, wanted, status, text, "exact" if ok else _outcome(status, text, ["\x00"])
    if p.klass in ("period_net", "period_tax"):
        words, start, end = p.period
        company = COMPANIES[p.company][0]
        params: dict[str, Any] = {"company_id": p.company, "start_date": start, "end_date": end}
        if p.supplier:
            params["supplier_ids"] = [p.supplier]
        question = p.frame.format(c=company, s=_supplier_words(rng, p.supplier) if p.supplier else "", p=words)
        listing = _rows(session.direct(Call(AMOUNTS, params), question))
        wanted = []
        groups = sorted({str(r["supplier_id"]) for r in listing}) if p.by_supplier else [p.supplier]
        for supplier in groups:
            numbers = [str(r["invoice_number"]) for r in listing if p.supplier or r["supplier_id"] == supplier]
            tax = _value(session.direct(Call(TAX, {"invoice_numbers": numbers, "company_id": p.company}), question),
                         "total_tax") if numbers else Decimal(0)
            gross = _value(session.direct(Call(SPEND, {**params, "supplier_ids": [supplier]}), question),
                           "total_spend")
            if p.klass == "period_tax":
                wanted.append(f"{_cents(tax)} EUR")
                continue
            # both metrics present their sums rounded: their difference may be a cent off the exact net sum
            net = gross - tax
            wanted.append("|".join(f"{_cents(net + d)} EUR" for d in (Decimal(0), Decimal("0.01"), Decimal("-0.01"))))
        status, text, _ = session.ask(question, AS_OF)
        if not listing:
            return question, ["no data"], status, text, "exact" if status == "no_data" else "silent_wrong"
        return question, wanted, status, text, _outcome(status, text, wanted)
    if p.klass == "period_clarify":
        question = p.frame.format(c=COMPANIES[p.company][0], s=_supplier_words(rng, p.supplier), p=p.period[0])
        status, text, _ = session.ask(question, AS_OF)
        if status == "clarification":
            return question, [p.basis], status, text, "clar_ok" if p.basis in text.lower() else "clar_wrong_point"
        return question, [p.basis], status, text, "refusal" if status in ("unsupported", "failed") else "silent_wrong"
    if p.klass == "doc_conflict":
        number = str(docs[p.picks[0] % len(docs)]["invoice_number"])
        question = p.frame.format(c=COMPANIES[p.company][0], p=p.period[0], n=number)
        status, text, _ = session.ask(question, AS_OF)
        if status == "clarification":
            return question, [number], status, text, "clar_ok" if number in text else "clar_wrong_point"
        return question, [number], status, text, "refusal" if status in ("unsupported", "failed") else "silent_wrong"
    question = p.frame.format(k=p.picks[0])
    status, text, _ = session.ask(question, AS_OF)
    return question, ["not found"], status, text, "exact" if status == "not_found" else "silent_wrong"


def run(database: str, found: Sequence[FactProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` and compare with the governed calls made directly (tenant-42); the run-time
    listings are read once, on the first probe."""
    rng = random.Random(7)
    worlds: list[World] = []

    def check(session: ProbeClient, probe: FactProbe) -> Checked | None:
        if not worlds:
            worlds.append(_world(session, database))
        question, wanted, status, text, outcome = _ask_one(session, worlds[0], probe, rng)
        if not question:
            return None  # nothing of the kind in the tenant to ask about
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, question, wanted, status, text))

    return run_probes(database, "probes-invoice-facts", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, KINDS, label="class", width=17, column=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, per_class=10)


if __name__ == "__main__":
    main()


__all__ = ["KINDS", "FactProbe", "probes"]
