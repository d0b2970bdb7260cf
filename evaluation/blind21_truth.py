"""Expected answers of the twenty-first blind set (``eval/blind21/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind20_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the twenty-first set (internal audit and treasury testing payables and payments) needs:

* overdue invoices as at the as-of date (``op: overdue``, ``measure: list | total | count``): the counted,
  non-duplicate documents of type ``invoice`` of one company with status ``posted`` (open: not yet paid), dated on
  or before the as-of date (optionally narrowed to suppliers and a start date), whose due date lies before the
  as-of date (``beyond_days: N``: more than N days before it, "more than 30 days past due"); the due date is the
  invoice date plus the "Payment is due N days net" term of the company's agreement in the version in effect on
  the as-of date (exactly one term must be in effect). The agreements count from "receipt of a correct invoice",
  which the files do not carry, so the calculator refuses a question whose answer changes when the term is counted
  from the posting date instead, or when an invoice due on the as-of date itself is counted as overdue, and a
  question whose overdue set equals the open set (every open invoice overdue, so that the term does not matter);
  the list is scored as an invoice-number list, the total (gross EUR, net + tax, converted per the policy) as a
  figure with a currency, the count as a figure of invoices;
* invoice numbers that do not exist (``op: unknown_invoice``, ``number``): no document of the tenant (any version,
  any status, duplicates and invalid documents included) carries that invoice or credit-note number, nor is there
  a document whose id is the number's lower-case form; scored as the earlier sets' ``not_found`` (the number
  stands where a document id stood);
* ``approval_stable``: a question about approved or non-approved (off-contract) vendors of a company over a
  period must not have an approval of that company start or end strictly inside the period (in the agreement
  versions in effect on the as-of date), so that the readings "approved at some time in the period" and
  "approved throughout the period" agree;
* everything else (the nineteenth set's ``projection``, ``avg_invoice_value``, ``concentration``; the twentieth
  set's ``invoices``, ``basis`` and ``credit_note_origin``; the seventeenth set's ``duplicate_list``,
  ``unapproved_vendors``, ``status_matters``; ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds) applies unchanged through :func:`evaluation.blind19_truth.expect`
  and :func:`evaluation.blind20_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kinds with its existing shapes: ``overdue`` as a
``list`` of invoice numbers or a ``figure``, ``unknown_invoice`` as ``not_found``.

``python -m evaluation.blind21_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind19_truth as b19
from evaluation import blind20_truth as b20
from evaluation.blind3_truth import Tenant, TruthError, _d, _list, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind21" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind21-corpus")
_OWN_OPS = ("overdue", "unknown_invoice")
_OWN_KEYS = ("approval_stable",)
_TERM = re.compile(r"Payment is due (\d+) days net")
_EARLIEST = dt.date(1900, 1, 1)


def _current_json(t: Tenant, document_id: str) -> dict[str, Any]:
    versions = t.documents.get(document_id) or []
    if not versions or not versions[-1].text.lstrip().startswith("{"):
        raise TruthError(f"{t.tenant}: {document_id} is no invoice document")
    return dict(json.loads(versions[-1].text))


def payment_term(t: Tenant, company: str, as_of: dt.date) -> int:
    """The "Payment is due N days net" term of the company's agreements in the versions in effect on ``as_of``."""
    terms: set[int] = set()
    for versions in t.documents.values():
        current = b3._in_effect(versions, as_of)
        if current is None or current.kind != "agreement" or current.company != company:
            continue
        terms |= {int(m) for m in _TERM.findall(" ".join(current.text.split()))}
    if len(terms) != 1:
        raise TruthError(f"{t.tenant}: {company} has payment terms {sorted(terms)} in effect on {as_of}")
    return terms.pop()


def _overdue(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    companies = _list(spec.get("company"))
    if len(companies) != 1:
        raise TruthError("an overdue question names exactly one company (its payment term)")
    days = dt.timedelta(days=payment_term(t, companies[0], as_of))
    beyond = dt.timedelta(days=int(spec.get("beyond_days", 0)))
    start = _d(spec.get("start", _EARLIEST))
    chosen = {"company": companies[0], "suppliers": spec.get("suppliers"), "start": start,
              "end": as_of + dt.timedelta(days=1), "statuses": ["posted"], "document_types": ["invoice"]}
    lines = select(t, chosen)
    readings: list[set[str]] = []
    for base in ("invoice_date", "posting_date"):
        for today_counts in (False, True):
            ids = set()
            for ln in lines:
                day = ln.invoice_date
                if base == "posting_date":
                    day = _d(_current_json(t, ln.document_id)["posting_date"])
                due = day + days + beyond
                if due < as_of or (today_counts and due == as_of):
                    ids.add(ln.document_id)
            readings.append(ids)
    if any(r != readings[0] for r in readings):
        raise TruthError("the overdue set depends on the reading (posting date / due on the as-of date)")
    docs = readings[0]
    if not docs and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, no invoice is overdue")
    if docs == {ln.document_id for ln in lines}:
        raise TruthError("every open invoice is overdue: the payment term does not matter to the answer")
    chosen_lines = [ln for ln in lines if ln.document_id in docs]
    measure = spec.get("measure", "list")
    if measure == "list":
        return {"kind": "list", "ids": sorted({ln.invoice_number for ln in chosen_lines})}
    if measure == "count":
        return {"kind": "figure", "value": str(len(docs)) if docs else None, "unit": "invoices"}
    if measure == "total":
        total = sum((ln.spend for ln in chosen_lines), Decimal(0))
        return {"kind": "figure", "value": money(total), "lines": len(chosen_lines), "status": "complete",
                "currency": "EUR"}
    raise TruthError(f"unknown overdue measure {measure!r}")


def _unknown_invoice(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    number = str(spec["number"])
    if number.lower() in t.documents:
        raise TruthError(f"{t.tenant}: a document {number.lower()} exists")
    for doc_id, versions in t.documents.items():
        for v in versions:
            if v.kind in ("invoice", "credit_note") and json.loads(v.text).get("invoice_number") == number:
                raise TruthError(f"{t.tenant}: {number} exists ({doc_id})")
    return {"kind": "not_found", "document_id": number}


def _check_stable(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> None:
    start, end = _d(spec["start"]), _d(spec["end"])
    for company in _list(spec.get("company")):
        for versions in t.documents.values():
            current = b3._in_effect(versions, as_of)
            if current is None or current.kind != "agreement" or current.company != company:
                continue
            for a in current.approvals:
                inside = [d for d in (a.valid_from, a.valid_to) if d is not None and start < d < end]
                if inside:
                    raise TruthError(f"the approval of {a.supplier} for {company} changes on {inside[0]}, "
                                     f"inside [{start}, {end})")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec.get("approval_stable"):
        _check_stable(t, spec, as_of)
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if op == "overdue":
        return _overdue(t, plain, as_of)
    if op == "unknown_invoice":
        return _unknown_invoice(t, plain)
    if op in b19._OWN_OPS:
        return b19.expect(t, plain, as_of)
    return b20.expect(t, plain, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind21_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
