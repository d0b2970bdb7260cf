"""Expected answers of the sixtieth blind set (``eval/blind60/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixtieth set (group controllers whose questions are full of logical constraints: exclusions -- "all suppliers
except Beta", "excl. credit notes", "other than sensors" --, combinations -- "either A or B", "both companies" --,
amount bounds -- "at least", "no more than", "between 5k and 20k" --, "only", negations -- "which suppliers did NOT
invoice in Q1" --, several constraints in one sentence, and checks of each constraint; typed tersely with
abbreviations, typos, k/m amounts and many date notations) asks figures, breakdowns, rankings, threshold and range
lists, counts, changes and shares under these constraints, clarifications and parameters the corpus does not carry.
All of it is reached through :func:`evaluation.blind29_truth.expect`, except one new op:

* ``op: inactive_suppliers`` ("which suppliers did NOT invoice <company> in <period>"): the tenant's suppliers
  (master data, ``suppliers.json``) less those with at least one counted line (posted/paid, non-duplicate, valid)
  in the selection (``company``, ``start``/``end``, optional ``groups``, ``exclude_suppliers``); a list of supplier
  ids. "Did not invoice" could also be read over every status (drafts and cancelled documents included) or over
  invoices only (a supplier with nothing but a credit note in the period): the calculator refuses a question whose
  answer changes under either reading, and one whose list would be every supplier (the selection would not matter)
  or empty unless ``expect_empty`` says so.

Everything else (``not_understood`` with an inner spec, ``idle_vendors``, ``invoice_ranking``, ``amount_range``,
``above``, ``suppliers_above``, ``supplier_list``, ``invoice_list``, counts with thresholds, exclusions with
``excluding_matters``, ``distinct_from``, ``to_date``, ``inclusive_end``, ``typo``, ``nonempty`` by default,
``expect_zero``, the clarification checks, ...) applies unchanged, and answers are deep copies so that the YAML needs
no anchors.

``python -m evaluation.blind60_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind29_truth as b29
from evaluation.blind3_truth import Tenant, TruthError

_SELECT_KEYS = ("company", "start", "end", "groups", "exclude_suppliers")


def _inactive(t: Tenant, spec: Mapping[str, Any], statuses: tuple[str, ...], invoices_only: bool = False) -> list[str]:
    selection = {k: v for k, v in spec.items() if k in _SELECT_KEYS}
    if invoices_only:
        selection["document_types"] = ["invoice"]
    active = {ln.supplier for ln in b3.select(t, {**selection, "statuses": list(statuses)})}
    pool = set(t.suppliers) - set(b3._list(spec.get("exclude_suppliers")))
    return sorted(pool - active)


def _inactive_suppliers(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    ids = _inactive(t, spec, b3.COUNTED)
    every = _inactive(t, spec, ("posted", "paid", "draft", "cancelled"))
    if ids != every:
        raise TruthError("drafts or cancelled documents change the answer: 'did not invoice' has two readings")
    if ids != _inactive(t, spec, b3.COUNTED, invoices_only=True):
        raise TruthError("a supplier with only credit notes in the selection: 'did not invoice' has two readings")
    if not ids and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, every supplier invoiced")
    if len(ids) == len(set(t.suppliers) - set(b3._list(spec.get("exclude_suppliers")))):
        raise TruthError("no supplier invoiced: the selection does not matter")
    return {"kind": "list", "ids": ids}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec["op"] == "inactive_suppliers":
        return _inactive_suppliers(t, spec)
    return b29.expect(t, spec, as_of)


compute, check, main = b17.thin(60, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
