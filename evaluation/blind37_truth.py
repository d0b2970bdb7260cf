"""Expected answers of the thirty-seventh blind set (``eval/blind37/questions.yml``), computed from the raw corpus
files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-seventh set (accounts-payable clerks and internal / external auditors at quarter close: terse,
checklist-like messages, often two or three asks in one, with invoice numbers typed in many formats -- with or
without the ``INV-`` / ``CN-`` prefix, lower case, spaces instead of dashes --, credit notes and the invoices they
correct, documents received twice, counts by status, thresholds written "over 10k", ">= 5.000 EUR", "at least
2,500", invoices in a foreign currency, document numbers that do not exist and lists with totals) needs no new
answer shape: every ask is an op the earlier calculators already compute and the scorer already classifies
(``invoices`` look-ups with ``basis``, ``currency``, ``credit_note_origin``, ``duplicate_list``, ``status_counts``,
``above`` / ``amount_range`` / ``extreme_invoice``, ``invoice_list``, ``unknown_invoice``, ``cutoff_list``,
``overdue``, figures, breakdowns, rankings, changes, the clarification checks and ``not_understood``), so this
module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op and
  every check (``nonempty`` by default, ``to_date``, ``inclusive_end``, ``robust_end``, ``expect_empty``, the net
  reading of thresholds, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind37_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import sys

from evaluation import blind17_truth as b17
from evaluation import blind29_truth as b29

#: every spec goes through the twenty-ninth set's dispatcher, which reaches every earlier op
expect = b29.expect
compute, check, main = b17.thin(37, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
