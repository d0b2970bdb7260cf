"""Expected answers of the forty-fifth blind set (``eval/blind45/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-fifth set (senior executives and their assistants writing long, polite, email-like messages: a greeting
and some context before the ask, a reason for asking, hedges and sign-offs, sometimes two or three related asks in
one message, vague business words -- "how much have we been spending with", "our exposure to", "the bill for" --,
named periods such as "the past quarter", "so far this year", "the whole of last year", and comparisons) needs no
new answer shape: its asks are ordinary spend (gross, net, VAT), invoice and credit-note counts, breakdowns by
month, supplier, product group and company, rankings, shares, changes against another period, thresholds, approved
suppliers, agreement clauses and manuals, documents and invoice numbers that do not exist, figures that are zero or
have no data, clarifications (no company named in a tenant with several, "cheaper" without a product, a supplier the
tenant does not know) and parameters the corpus does not carry. Every one of them is an op the earlier calculators
already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``company_ranking``, ``difference``, ``status_counts``,
  ``unknown_invoice``, ``credit_note_origin``, the clarification checks, ...) and every check (``nonempty`` by
  default, ``expect_empty``, ``to_date``, ``approval_stable``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind45_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import sys

from evaluation import blind17_truth as b17
from evaluation import blind29_truth as b29

#: every spec goes through the twenty-ninth set's dispatcher, which reaches every earlier own op
expect = b29.expect
compute, check, main = b17.thin(45, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
