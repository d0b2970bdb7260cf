"""Expected answers of the sixty-sixth blind set (``eval/blind66/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-sixth set (service-desk tickets and forwarded e-mail threads pasted into the tool: the ask is buried under
ticket metadata -- "Ticket #48211 | Priority: P3 | Category: Reporting" --, "FW:" / "RE:" headers, quoted earlier
messages with figures and dates that are not the question's, signatures, disclaimers and phone numbers) needs no new
answer shape: its asks are spend figures for months, quarters, half-years, month ranges and year to date (by
company, supplier -- alias, short name or a one-letter slip -- and product group, by name, German synonym or typo),
invoice and credit-note counts, breakdowns by month, supplier, product group and top-level group, supplier
rankings, supplier shares, changes against the prior month or quarter, invoice-currency splits, invoices above a
threshold, approved vendors, payment terms and warranty clauses of agreements (amended ones included), documents
that do not exist, asks with no data, clarifications (no company named in a multi-company tenant, unknown
suppliers, companies or product groups) and parameters the corpus does not carry (cost centre, GL account,
project, region, buyer, PO number, department, plant). Every one of them is an op the earlier calculators already
compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, ``period_ranking``, ``company_ranking``, ``difference``, the
  clarification checks with ``per_company`` for an ambiguous company, ...) and every check (``nonempty`` by default
  with ``expect_empty`` for the no-data asks, ``to_date``, ``typo``, ``wrong_fact`` of an amended agreement, ties at
  a ranking cut, the net reading of thresholds, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind66_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(66, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
