"""Expected answers of the fifty-fourth blind set (``eval/blind54/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-fourth set (legal counsel and contract managers who also ask about money, writing in legal register --
"please confirm", "as at", "in respect of", "for the avoidance of doubt" -- with their abbreviations: agmt, Co.,
LDs, T&Cs, day-first dates, "Q4-25", "2H 2025", "€10k", "25.000 EUR") needs no new answer shape: its asks are
agreement clauses in the version in effect on the as-of date or on a date the question names (payment terms,
warranty, liability insurance, signatory thresholds, liquidated damages, notice periods, the effective date of an
amendment, each with the other version's wording as the wrong fact where a clause changed), document ids of
manuals, documents and invoice numbers that do not exist, approved vendors of a company on one day (optionally of a
product group), how long an approval runs, spend with approved and with non-approved vendors, plain spend, net and
VAT figures, invoice and credit-note counts, breakdowns, rankings, changes against the prior period, shares,
currencies, thresholds, duplicates, credit notes and their invoices, clarifications and parameters the corpus does
not carry. Every one of them is an op the earlier calculators already compute and the scorer already classifies, so
this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``approval_validity``, ``invoice_ranking``, ``unknown_invoice``, ``duplicate_list``, ``credit_note_origin``,
  ``not_understood`` with an inner spec of any op, the clarification checks, ...) and every check (``nonempty`` by
  default, ``expect_empty``, ``to_date``, ``fiscal``, ``previous``, ``typo``, ``approval_stable``, ``basis``,
  ``status_matters``, ``unapproved_vendors``, ``approved_vendors``, ``proper_share``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind54_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(54, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
