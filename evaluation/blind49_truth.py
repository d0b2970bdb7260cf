"""Expected answers of the forty-ninth blind set (``eval/blind49/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-ninth set (integration engineers and API users writing terse structured requests: key=value pairs,
JSON-ish and YAML-ish fragments, ISO dates and half-open or inclusive intervals, ids and codes such as COMP-x,
SUP-nn, PG-xxx, PRD-nnn, snake_case field names, pipes and arrows such as ``spend | comp=... | 2025-Q3 -> by
supplier``) needs no new answer shape: its asks are gross, net and VAT figures, invoice and credit-note counts,
units and average unit prices, breakdowns by month, supplier, product group, top-level group and company, rankings,
shares, changes against another period, currencies, invoices above a threshold, invoice lists and invoice look-ups
by number, the original invoice of credit notes, approved vendors, agreement clauses, documents that do not exist,
selections that are empty (no data), clarifications (no company named in a multi-company tenant, an unknown
supplier, company or product group) and parameters the corpus does not carry (cost centre, GL account, region, PO
number, buyer, project, department). Every one of them is an op the earlier calculators already compute and the
scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``credit_note_origin``, ``invoice_list``, the clarification
  checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``, ``inclusive_end``,
  ``basis``, ``invoices``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind49_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(49, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
