"""Expected answers of the sixty-second blind set (``eval/blind62/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-second set (procurement analysts asking time-series questions: monthly trends, month over month, quarter
on quarter, trailing 3 / 6 / 12 months and rolling day windows, run-rates and annualised run-rates, first and last
invoice of a supplier, months with no spend, peak and weakest months, year-on-year for the same period -- the files
begin in July 2025, so a prior-year period has no data --, cumulative spend to date, and periods written in many
notations: "Q1-26", "1Q26", "2026-Q1", "Jan-Mar 26", "03/2026", "Mar '26", "H2 FY25", "FY2025/26 YTD" ...; typed
fast, with abbreviations, typos in supplier and group names and amounts written "45k" or "EUR 1.2m") needs one answer
the earlier calculators lack:

* the first or last invoice of a selection (``op: invoice_date_extreme``, ``order: first | last``): the invoice
  number of the counted (posted/paid), non-duplicate, valid document of type ``invoice`` with the earliest (latest)
  ``invoice_date`` in the selection, as a one-id ``list`` (the scorer's existing shape; the question asks for the
  invoice and its date). The calculator refuses two invoices on the extreme date (which one is "first" would be
  undefined), an answer that changes when draft and cancelled invoices are taken in, a selection that runs past the
  as-of date, and runs every period and name check of the earlier sets on the same selection taken as an invoice
  count first (so the selection must have data).

Everything else is an op the earlier calculators already compute and the scorer already classifies, so this module

* dispatches every other spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``period_ranking`` for peak / weakest months and quarters, ``run_rate``, ``projection``, ``change`` with
  ``previous`` for month over month and quarter on quarter, ``not_understood`` with an inner spec of any op, the
  clarification checks, ...) and every check (``nonempty`` by default, ``to_date``, ``relative``, ``window``,
  ``fiscal``, ``typo``, ``open_end``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind62_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation import blind13_truth as b13
from evaluation import blind17_truth as b17
from evaluation import blind29_truth as b29
from evaluation.blind3_truth import Tenant, TruthError, _d

_OWN_KEYS = ("order",)


def _date_extreme(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The invoice number of the first (last) counted invoice of a selection, as a one-id list."""
    order = str(spec.get("order", "first"))
    if order not in ("first", "last"):
        raise TruthError(f"invoice_date_extreme: unknown order {order!r}")
    if _d(spec["end"]) > as_of + dt.timedelta(days=1):
        raise TruthError("invoice_date_extreme: the selection runs past the as-of date")
    plain = {k: v for k, v in spec.items() if k not in (*_OWN_KEYS, "op")}
    plain["document_types"] = ["invoice"]
    # the period, name and non-empty checks of the earlier sets on the same selection
    b29.expect(t, {**plain, "op": "figure", "measure": "invoice_count"}, as_of)
    lines = b3.select(t, b13._plain(t, plain))
    if not lines:
        raise TruthError("the question is written to have data, the selection has no invoice")
    days = sorted({ln.invoice_date for ln in lines})
    day = days[0] if order == "first" else days[-1]
    numbers = sorted({ln.invoice_number for ln in lines if ln.invoice_date == day})
    if len(numbers) != 1:
        raise TruthError(f"{len(numbers)} invoices on the {order} date {day}: 'the {order} invoice' is undefined")
    every = b3.select(t, b13._plain(t, {**plain, "statuses": ["posted", "paid", "draft", "cancelled"]}))
    beyond = [ln for ln in every if (ln.invoice_date < day if order == "first" else ln.invoice_date > day)
              or (ln.invoice_date == day and ln.invoice_number not in numbers)]
    if beyond:
        raise TruthError(f"a draft or cancelled invoice is the {order} one when every status counts")
    return {"kind": "list", "ids": numbers}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "invoice_date_extreme":
        return _date_extreme(t, spec, as_of)
    if op == "not_understood" and isinstance(spec.get("inner"), Mapping) and \
            spec["inner"].get("op") == "invoice_date_extreme":
        raise TruthError("not_understood is scored on a figure or a table")
    return b29.expect(t, spec, as_of)


compute, check, main = b17.thin(62, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
