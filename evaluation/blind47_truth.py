"""Expected answers of the forty-seventh blind set (``eval/blind47/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-seventh set (plant and project controllers of manufacturing sites: site / plant and project-budget
language, budget-vs-actual phrasing, part and catalogue words, unit prices, "run-rate" and "burn", fiscal periods
written P01-P12, "FY26 M3", "FY25 Q4", "H2 FY25", amounts written 12.5k, 1,2 Mio, EUR 0.1m, company names with or
without legal suffix, supplier aliases with one-letter slips, product groups by English or German synonyms) needs no
new answer shape: its asks are month, quarter, half-year, year and to-date figures (gross, net, VAT), spend with a
supplier or a product group, invoice counts, units and average unit prices of a part, breakdowns by month,
supplier, product group, top-level group and company, supplier rankings, shares, changes against the prior month
or quarter, invoices above a threshold, approved vendors, agreement clauses (payment terms, warranty), invoice
look-ups by number, questions without data, documents that do not exist, clarifications (no company named in a
multi-company tenant, unknown supplier, category or company, "cheaper" without a part) and parameters the corpus
does not carry (budget, forecast, cost centre, WBS element, project, GL account, PO, buyer). Every one of them is an
op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``unknown_invoice``, the clarification checks, ...) and every
  check (``nonempty`` by default, ``expect_empty``, ``to_date``, ``typo``, ``basis``, ``fiscal``, ``invoices``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind47_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(47, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
