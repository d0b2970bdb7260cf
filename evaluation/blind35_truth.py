"""Expected answers of the thirty-fifth blind set (``eval/blind35/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-fifth set (Group FP&A and the CFO's office preparing board packs and month-end commentary: quarter on
quarter, year on year, month on month and H1 vs H2 comparisons in EUR and in %, shares of total, top-N suppliers,
products, product groups, companies and months, run-rates, projections and averages per month and per invoice,
breakdowns by month, quarter, supplier, group and company; about a third dictated through speech-to-text, with no
punctuation, spoken numbers and years and homophones; clarifications where no company is named in a multi-company
tenant or a comparison lacks its object, parameters the corpus does not carry, and questions whose answer is zero or
no data, e.g. a year-on-year comparison with a base period before the files begin) needs no new answer shape. Every
ask is an op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``period_ranking``, ``company_ranking``, ``difference``,
  ``projection``, ``avg_invoice_value``, ``concentration``, ``run_rate``, ``change``, ``share``, rankings by
  supplier, product and group, the clarification checks, ...) and every check (``nonempty`` by default,
  ``expect_empty``, ``to_date``, ``relative``, ``previous``, ``fiscal``, ``typo``, ``basis``, exclusions with
  ``excluding_matters``, ties, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind35_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(35, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
