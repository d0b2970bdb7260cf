"""Expected answers of the fifty-eighth blind set (``eval/blind58/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-eighth set (staff of East-Asian subsidiaries -- Japan, Korea, China, Taiwan -- writing second-language
English to group finance: yyyy/mm/dd and yyyy.mm.dd dates, FY and fiscal wording, occasional full-width digits and
punctuation, honorific politeness such as "please kindly teach me", article and plural slips, amounts written
1,234,567 or "1.2 million") needs no new answer shape: its asks are month, quarter, half-year and fiscal-year
figures (gross, net, VAT, invoice counts, units, average unit price), breakdowns by month, supplier, product group
and company, rankings, shares, changes against an earlier period, currency splits, invoices above a threshold,
approved vendors, payment terms and warranty clauses of the agreement version in effect, credit notes and their
invoices, replicated duplicates, documents that do not exist, zero and no-data answers, clarifications and
parameters the corpus does not carry. Every one of them is an op the earlier calculators already compute and the
scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``duplicate_list``, ``credit_note_origin``, the clarification
  checks, ...) and every check (``nonempty`` by default, ``expect_zero``, ``expect_empty``, ``to_date``,
  ``inclusive_end``, ``typo``, ``basis``, ``invoices``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind58_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(58, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
