"""Expected answers of the sixty-third blind set (``eval/blind63/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-third set (people dictating questions to a voice assistant, delivered as raw speech-to-text transcripts:
no punctuation, amounts, numbers, dates and periods spoken as words -- "twenty five thousand euros", "two k", "the
third quarter of twenty twenty five", "march twenty six" --, filler words, self-corrections, misheard or
phonetically spelled company and supplier names, letters spoken as "comp a" or "sup eighteen") needs no new answer
shape: its asks are month, quarter and half-year gross spend by company, supplier and product group, year- and
month-to-date figures, invoice counts, units and average unit prices, breakdowns by month, supplier, product group
and top-level group, supplier rankings, shares, changes against the previous period, currency splits, invoices above
a spoken threshold, approved vendors, payment and warranty clauses of the agreement version in effect, documents
that do not exist, company months without data, clarifications (no company named, "cheaper" without a product, an
unknown supplier) and parameters the corpus does not carry. Every one of them is an op the earlier calculators
already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, the clarification checks, ``document`` with ``wrong_fact``,
  ``not_found``, ``above``, ``approved``, ...) and every check (``nonempty`` by default, ``expect_empty``,
  ``to_date``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind63_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(63, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
