"""Document-type probes: every wording of "which documents" (invoices only, credit notes only, both; negated,
parenthesised, after a dash, German) combined with spend, invoice counts, line counts, vendor counts, statuses and
suppliers, asked through ``/v1/ask`` and compared with the governed metric called directly.

``python -m evaluation.probes_doctypes [--database procura] [--seed 1] [--n 200] [--show wrong|all|none]``

The silent failure this class guards against: a credit-note mention that the question leaves out ("no credit
notes", "leave the credit notes out") or takes along ("invoices and credit notes", "credit notes netted in") read
as "credit notes only", which answers with a confident figure over a handful of credit notes. Each probe draws a
measure, a company, a period, optionally a status and a supplier, and a document-type phrase with the document
types it means; the expected figure is the governed metric called with exactly those types. Outcomes are those of
:func:`evaluation.probes_clarify.classify`. Seed 1 is the training half, seed 2 the held-out half. Written from the
slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_runner import arguments, finish
from evaluation.probes_clarify import COMPANIES, SUPPLIERS, Probe, _style, run
from evaluation.probes_combo import table

INVOICE = ("invoice",)
CREDIT = ("credit_note",)
BOTH = ("invoice", "credit_note")

#: Document-type phrases and the types they mean; ``{sep}`` is where the phrase attaches to the question.
DOC_PHRASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # left out
    ("(invoices only, no credit notes)", INVOICE), ("- invoices only, no credit notes", INVOICE),
    (", leave the credit notes out", INVOICE), ("(ignore credit notes)", INVOICE),
    (", invoices only (ignore credit notes)", INVOICE), ("excluding credit notes", INVOICE),
    ("excl. credit notes", INVOICE), ("without credit notes", INVOICE), ("(credit notes excluded)", INVOICE),
    ("- credit notes left out", INVOICE), (", not counting credit notes", INVOICE),
    (", credit notes not included", INVOICE), ("(no credit notes)", INVOICE), ("invoices only", INVOICE),
    ("- just the invoices", INVOICE), (", disregarding credit notes", INVOICE), ("ohne Gutschriften", INVOICE),
    ("(nur Rechnungen)", INVOICE), ("w/o credit notes", INVOICE), (", credit memos excluded", INVOICE),
    # taken along
    ("(invoices and credit notes)", BOTH), ("- invoices and credit notes", BOTH),
    (", credit notes netted in", BOTH), ("net of credit notes", BOTH), ("including credit notes", BOTH),
    ("incl. credit notes", BOTH), ("(invoices & credit notes)", BOTH), ("(invoices plus credit notes)", BOTH),
    (", with credit notes netted", BOTH), (", credit notes included", BOTH), ("after credit notes", BOTH),
    ("(Rechnungen und Gutschriften)", BOTH), ("inkl. Gutschriften", BOTH), (", credit notes deducted", BOTH),
    ("(invoices/credit notes)", BOTH),
    # credit notes only
    ("(credit notes only)", CREDIT), ("- credit notes only", CREDIT), (", only credit notes", CREDIT),
    ("(nur Gutschriften)", CREDIT), ("- just the credit notes", CREDIT),
)
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in FY2025", "2025-01-01", "2026-01-01"),
    ("in 2025", "2025-01-01", "2026-01-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("since July 2025", "2025-07-01", "2026-05-16"), ("in Q4 2025", "2025-10-01", "2026-01-01"),
    ("since January 2026", "2026-01-01", "2026-05-16"), ("in H1 2025", "2025-01-01", "2025-07-01"),
)
STATUSES: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("", None), ("", None), ("paid", ("paid",)), ("unpaid", ("posted",)), ("open", ("posted",)),
    ("posted, not yet paid,", ("posted",)),
)
#: Measures: the governed metric, its output, and question templates ({c} company, {p} period, {s} supplier
#: clause, {st} status adjective, {d} document phrase).
MEASURES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "spend": ("finance.company_spend", "total_spend", (
        "{c} {st}spend{s} {p} {d}", "What did {c} spend{s} {p} on {st}documents {d}?",
        "{c} - {st}total{s} {p} {d}", "How much was {c}'s {st}spend{s} {p} {d}?")),
    "lines": ("finance.invoice_line_count", "line_count", (
        "How many lines did {c} book{s} {p} on {st}documents {d}?", "count of {st}invoice lines for {c}{s} {p} {d}",
        "{c}: number of {st}line items{s} {p} {d}")),
    "vendors": ("finance.supplier_count", "supplier_count", (
        "How many suppliers invoiced {c} {p} {d}?", "{c} - number of distinct vendors {p} {d}")),
}


def _question(rng: random.Random, measure: str) -> tuple[str, Call] | None:
    metric, output, templates = MEASURES[measure]
    company = rng.choice(sorted(COMPANIES))
    c = COMPANIES[company][0]
    phrase, start, end = rng.choice(PERIODS)
    doc, types = rng.choice(DOC_PHRASES)
    params: dict[str, Any] = {"company_id": company, "start_date": start, "end_date": end,
                              "document_types": list(types)}
    st = ""
    if measure != "vendors":
        word, statuses = rng.choice(STATUSES)
        if statuses is not None:
            st, params["invoice_statuses"] = f"{word} ", list(statuses)
    s = ""
    if measure != "vendors" and rng.random() < 0.5:
        supplier = rng.choice(sorted(SUPPLIERS))
        spelling = rng.choice(SUPPLIERS[supplier]["name"] + SUPPLIERS[supplier]["alias"]
                              + SUPPLIERS[supplier]["no_legal"])
        s = f" with {spelling}"
        params["supplier_ids"] = [supplier]
    question = rng.choice(templates).format(c=c, p=phrase, s=s, st=st, d=doc)
    question = " ".join(question.replace(" ,", ",").replace(" - -", " -").split())
    if measure == "spend" and types == CREDIT and st:
        return None  # "paid credit notes" reads oddly; statuses of credit notes are probed elsewhere
    return question, Call(metric, params, outputs=(output,))


def probes(seed: int, n: int = 200, measures: Sequence[str] = tuple(MEASURES)) -> list[Probe]:
    """``n`` document-type questions: seeded measures, phrases and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    seen: set[str] = set()
    while len(found) < n:
        measure = rng.choice(tuple(measures))
        made = _question(rng, measure)
        if made is None:
            continue
        question, call = made
        question = _style(question, rng)
        if question in seen:
            continue
        seen.add(question)
        kind = {INVOICE: "invoice", CREDIT: "credit", BOTH: "both"}[tuple(call.parameters["document_types"])]
        found.append(Probe(f"{measure}:{kind}", question, call, (), (measure, kind)))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__, count=("--n", 200), select=("--measure", tuple(MEASURES))).parse_args(argv)
    counts = run(args.database, probes(args.seed, args.n, args.measure or tuple(MEASURES)), args.show)
    finish(counts, table(counts))


if __name__ == "__main__":
    main()
