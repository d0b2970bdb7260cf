"""Expected answers of the twenty-seventh blind set (``eval/blind27/questions.yml``), from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind26_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-seventh set
(accounts-payable clerks and treasury staff in a shared-service centre writing short tickets with ids and mixed date
and amount formats) needs:

* suppliers invoicing a company for the first time in a period (``op: first_time_suppliers``, ``company``,
  ``start``/``end``): the suppliers with at least one counted (posted/paid), non-duplicate, valid document of type
  ``invoice`` for the company dated (``invoice_date``) in the half-open period, and no document of any type or
  status of that supplier for that company dated before the period. The corpus begins with its first export, so
  "first time" means first time in the files; the calculator refuses a question whose answer changes when the
  history counts only posted/paid documents, or when a draft/cancelled invoice in the period also counts as
  "invoicing", a company without history before the period (every supplier would be new), an answer equal to the
  period's plain supplier list (the history would not matter) and an empty list unless ``expect_empty``; a ``list``
  of ``SUP-`` ids;
* parameters the corpus cannot know (the twenty-fifth set's ``op: not_understood``: a payment date, a PO number, an
  approver's name, a cost centre) with an ``inner`` spec computed through this calculator, so that the inner answer
  may use every op of the earlier sets, the twenty-fifth's and twenty-sixth's included; the answer is marked as the
  twenty-fifth set marks it (a figure ``status: partial``, a table ``missing``), and every such question also
  accepts a clarification;
* the dispatch of the twenty-fifth set's own ops (``idle_vendors``, ``invoice_ranking``, ``approval_validity``)
  beside the twenty-sixth set's (``company_ranking``, ``difference``, ``unit_price_change``, follow-ups without
  context), which the twenty-sixth set's dispatcher does not reach;
* everything else (``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``, ``approval_stable``,
  ``projection``, ``avg_invoice_value``, ``concentration``, ``list_price``, ``catalog_products``,
  ``catalog_suppliers``, ``approved_vendors`` on lists and rankings, the clarification checks, ``invoices``,
  ``basis``, ``credit_note_origin``, ``unit_price_ranking``, ``duplicate_list``, ``unapproved_vendors``,
  ``status_matters``, ``fiscal``, exclusions with ``excluding_matters``, ``window``, ``previous``, ``relative``,
  ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``, ``inclusive_end``,
  ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, ties, the net reading of
  thresholds, the agreement version in effect on the as-of date or ``at``) applies unchanged through
  :func:`evaluation.blind26_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kind with its existing shapes: ``first_time_suppliers`` as
a ``list`` of ``SUP-`` ids; ``not_understood`` as a partial ``figure`` or a ``table`` with ``missing``.

``python -m evaluation.blind27_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import copy
import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind25_truth as b25
from evaluation import blind26_truth as b26
from evaluation.blind3_truth import Tenant, TruthError, _d, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind27" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind27-corpus")
_OWN_OPS = ("first_time_suppliers", "not_understood")
_ALL_STATUSES = ("draft", "posted", "paid", "cancelled")


def _first_time(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    companies = _list(spec.get("company"))
    if len(companies) != 1:
        raise TruthError("first_time_suppliers names exactly one company")
    company = companies[0]
    start, end = _d(spec["start"]), _d(spec["end"])

    def new(history_statuses: Sequence[str], period_statuses: Sequence[str]) -> set[str]:
        earlier = {ln.supplier for ln in t.lines if ln.company == company and ln.invoice_date < start
                   and ln.status in history_statuses}
        now = {ln.supplier for ln in b3.select(t, {"company": company, "start": start, "end": end,
                                                   "statuses": list(period_statuses),
                                                   "document_types": ["invoice"]})}
        return now - earlier

    ids = new(_ALL_STATUSES, b3.COUNTED)
    if new(b3.COUNTED, b3.COUNTED) != ids:
        raise TruthError("the history read as posted/paid only gives another answer")
    if new(_ALL_STATUSES, _ALL_STATUSES) != ids:
        raise TruthError("a draft or cancelled invoice in the period changes the answer")
    if not any(ln.company == company and ln.invoice_date < start for ln in t.lines):
        raise TruthError("the company has no history before the period: every supplier would be new")
    plain = {ln.supplier for ln in b3.select(t, {"company": company, "start": start, "end": end})}
    if ids == plain:
        raise TruthError("every supplier of the period is new: the history does not matter")
    if not ids and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, no supplier is new in the period")
    return {"kind": "list", "ids": sorted(ids)}


def _not_understood(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    words = _list(spec.get("parameter"))
    if not words:
        raise TruthError("not_understood names the parameter the corpus cannot know")
    inner = expect(t, spec["inner"], as_of)
    if inner.get("kind") == "figure" and inner.get("value") is not None:
        return {**inner, "status": "partial", "not_understood": words}
    if inner.get("kind") == "table" and inner.get("rows"):
        return {**inner, "missing": words, "not_understood": words}
    raise TruthError("a not-understood parameter is scored on a figure or a table with data")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "first_time_suppliers":
        return _first_time(t, spec)
    if op == "not_understood":
        return _not_understood(t, spec, as_of)
    if op in b25._OWN_OPS:
        return b25.expect(t, spec, as_of)
    return b26.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
def _own_copy(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """:func:`expect` with no object shared between answers (the supplier labels), so the YAML needs no anchors."""
    return copy.deepcopy(expect(t, spec, as_of))


compute, check = b17.rooted(_own_copy, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind27_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
