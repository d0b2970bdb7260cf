"""Expected answers of the sixty-fifth blind set (``eval/blind65/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-fifth set (graduate trainees and new analysts writing textbook-precise, over-specified questions: they
restate definitions and assumptions -- "net spend, i.e. invoices minus credit notes, excl. VAT", "counting only
posted and paid invoices", "inclusive of both end dates", "converted at the invoice-date rate" --, name the measure,
basis, status, currency, grain and sort order, ask for several related figures at once and sometimes state an
assumption the accounting policy contradicts, which is answered per the policy) needs no new answer shape: its asks
are period figures on the gross, net and VAT basis, invoice and credit-note counts, units and average unit prices,
breakdowns by month, supplier, product group and company, rankings, shares, changes against an earlier period,
currency splits, thresholds, compound asks of several figures, credit notes and their invoices, replicated
duplicates, approved vendors, agreement and manual clauses, documents that do not exist, zero and no-data answers,
clarifications (no company named in a tenant with several, unknown suppliers and product groups) and parameters the
corpus does not carry. Every one of them is an op the earlier calculators already compute and the scorer already
classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``duplicate_list``, ``credit_note_origin``, the clarification
  checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``, ``typo``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind65_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(65, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
