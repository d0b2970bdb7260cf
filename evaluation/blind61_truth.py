"""Expected answers of the sixty-first blind set (``eval/blind61/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-first set (UK, Irish, Australian and New Zealand operations and site managers typing colloquial English:
'quid', 'k', 'a fortnight', 'last FY', 'this financial year', 'Q3 just gone', 'the back half of the year', 'cheers',
'reckon', 'mate', British spellings, dd/mm/yy dates, lowercase, typos and missing punctuation; corpus seed 431) needs
no new answer shape: its asks are gross, net and VAT figures for months, quarters, halves, the calendar financial
year, fortnights, inclusive day ranges and to-date periods, invoice and credit-note counts, units and average unit
prices, breakdowns by month, supplier, product group, top-level group and company, supplier rankings, changes
against the prior month or quarter, shares, currency splits, invoices above a threshold, approved vendors, payment
terms and warranty clauses of the agreement version in effect, documents that do not exist, replicated duplicates,
selections with no data, clarifications (no company named in a multi-company tenant, unknown suppliers and product
groups, follow-ups without context) and parameters the corpus does not carry. Every one of them is an op the earlier
calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, ``duplicate_list``, ``approved`` with ``approval_stable``, the
  clarification checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``,
  ``inclusive_end``, ``fiscal``, ``basis``, ``proper_share``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the thirty-fourth set's calculator does.

``python -m evaluation.blind61_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(61, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
