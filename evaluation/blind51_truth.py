"""Expected answers of the fifty-first blind set (``eval/blind51/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-first set (accounts-payable and spend-reporting staff of a global business-services centre in India and
the Philippines, writing ticket-style Indian / Philippine English -- "kindly", "PFB", "revert", "do the needful",
"same may be shared" --, Indian digit grouping with lakh, day-first dates in dd-mm-yy, dd/mm/yyyy and dd-Mon-yy,
calendar quarters written as CY because their own fiscal year runs April-March) needs no new answer shape: its asks
are month, quarter, half-year, date-range, year-to-date and month-to-date figures, gross, net and VAT, breakdowns by
month, supplier, product group, top-level group and company, rankings (top and bottom), changes against the
previous month or quarter, shares, currency splits, invoices above a threshold, invoice and credit-note counts,
invoice look-ups by number and the original invoice of credit notes, duplicates, approved vendor lists, payment
terms and other agreement clauses (one of them amended), documents and invoice numbers that do not exist, figures
with no data, clarifications (no company named, unknown supplier, product group or company, impossible period,
"cheaper" without a product) and parameters the corpus does not carry. Every one of them is an op the earlier
calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``credit_note_origin``, ``duplicate_list``,
  ``unknown_invoice``, the clarification checks, ...) and every check (``nonempty`` by default, ``expect_empty``,
  ``to_date``, ``inclusive_end``, ``approval_stable``, ``basis``, ``invoices``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind51_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(51, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
