"""Expected answers of the fifty-seventh blind set (``eval/blind57/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-seventh set (reviewers fact-checking figures in draft reports, decks and e-mails before they go out: they
quote a figure, count, ranking, share, change or list -- some right, some wrong -- and ask whether it is right; the
expected answer is always the true figure or list, never a bare yes/no) needs no new answer shape: its asks are
gross, net and VAT figures for months, quarters, halves, ranges and year-to-date, invoice and credit-note counts,
breakdowns by month, supplier, product group, top-level group and company, supplier rankings, shares, changes
against a prior period, amounts by invoice currency, invoices above a threshold, approved vendors, replicated
duplicates, selections with no data, documents that do not exist, clarifications (no company named in a
multi-company tenant, an unknown supplier, a follow-up without context) and parameters the corpus does not carry.
Every one of them is an op the earlier calculators already compute and the scorer already classifies, so this
module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, ``duplicate_list``, ``approved`` with ``approval_stable``, the
  clarification checks ``ambiguous_company`` with ``per_company``, ``unknown_supplier``, ``missing_context``, ...)
  and every check (``nonempty`` by default, ``expect_empty``, ``to_date``, ``basis``, ``proper_share``, ties at a
  ranking cut, the net reading of thresholds, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind57_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(57, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
