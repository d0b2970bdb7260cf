"""Expected answers of the twenty-fourth blind set (``eval/blind24/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind22_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-fourth set (month-end and
year-end close: subsidiary accountants writing English as a second language, external auditors doing cut-off and
completeness checks, a BI administrator reconciling dashboard figures) needs:

* document counts by status (``op: status_counts``, optional ``document_types``, ``company``, ``suppliers``,
  period): the number of distinct non-duplicate, valid documents of the selection per ``status`` (``draft``,
  ``posted``, ``paid``, ``cancelled``; every status is taken unless the spec's ``statuses`` narrow them), dated by
  ``invoice_date`` in the half-open period; a ``table`` without currency (rows keyed by the status word, the value a
  count), which the scorer reads as a unit table (the count next to its status word); a status with no document is
  not a row, and the calculator refuses a table with fewer than two rows (the breakdown would be one count);
* the cut-off list (``op: cutoff_list``): the numbers of the documents of type ``invoice`` dated (``invoice_date``)
  inside the period but posted (``posting_date`` of the current version) on or after its end, i.e. booked in the
  next period ("invoices of March posted only in April"); counted statuses unless ``statuses`` say otherwise;
  scored as a ``list`` of invoice numbers; the calculator refuses an empty list unless ``expect_empty``;
* the twenty-first set's shapes (``overdue``, ``unknown_invoice``, ``approval_stable``, and through it the
  nineteenth set's ``projection``, ``avg_invoice_value``, ``concentration``) are reached through
  :func:`evaluation.blind21_truth.expect`, which the twenty-second set's dispatcher does not call;
* everything else (``list_price``, ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists and
  rankings and the clarification checks of the twenty-second set; ``invoices``, ``basis``, ``credit_note_origin``
  of the twentieth; ``unit_price_ranking`` of the eighteenth; ``duplicate_list``, ``unapproved_vendors``,
  ``status_matters`` of the seventeenth; ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds, the agreement version in effect on the as-of date or ``at``)
  applies unchanged through :func:`evaluation.blind22_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kinds with its existing shapes: ``status_counts`` as a
``table`` without currency, ``cutoff_list`` as a ``list`` of ``INV-`` numbers.

``python -m evaluation.blind24_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind19_truth as b19
from evaluation import blind21_truth as b21
from evaluation import blind22_truth as b22
from evaluation.blind3_truth import Tenant, TruthError, _d, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind24" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind24-corpus")
_OWN_OPS = ("status_counts", "cutoff_list")
_ALL_STATUSES = ("draft", "posted", "paid", "cancelled")


def _status_counts(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    chosen = {**spec, "statuses": _list(spec.get("statuses")) or list(_ALL_STATUSES)}
    docs: dict[str, set[str]] = defaultdict(set)
    for ln in b3.select(t, chosen):
        docs[ln.status].add(ln.document_id)
    if len(docs) < 2:
        raise TruthError("a count by status needs at least two statuses with documents")
    return {"kind": "table", "rows": {s: str(len(docs[s])) for s in sorted(docs)},
            "total": str(sum(len(v) for v in docs.values()))}


def _cutoff_list(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    end = _d(spec["end"])
    numbers = set()
    for ln in b3.select(t, {**spec, "document_types": ["invoice"]}):
        posted = _d(b21._current_json(t, ln.document_id)["posting_date"])
        if posted >= end:
            numbers.add(ln.invoice_number)
    if not numbers and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, no invoice of the period is posted after it")
    return {"kind": "list", "ids": sorted(numbers)}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "status_counts":
        return _status_counts(t, spec)
    if op == "cutoff_list":
        return _cutoff_list(t, spec)
    if op in b21._OWN_OPS or op in b19._OWN_OPS or spec.get("approval_stable"):
        return b21.expect(t, spec, as_of)
    return b22.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind24_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
