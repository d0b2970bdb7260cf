"""Expected answers of the thirty-ninth blind set (``eval/blind39/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-ninth set (treasury and payables-planning staff of a multi-company group: precise but hurried, heavy on
abbreviations -- AP, FX, ccy, QoQ, MoM, YoY, H2, FY25, L90D, YTD, k/m -- with typos and noise) needs no new answer
shape: its asks are spend per company and period (quarters, halves, fiscal = calendar years, months, rolling
windows, year to date, last quarter / month), spend per invoice currency in the native currency and in EUR, the
share of one currency, breakdowns by company, month, quarter and supplier, quarter-over-quarter and month-over-month
changes, differences between companies and between quarters, the largest invoices with their totals, suppliers and
companies ranked by spend, invoices above a threshold and their counts, invoice and credit-note counts, answers of
zero or "no data" (a currency, supplier or product group without invoices, thresholds nobody reaches, a prior year
before the files begin, invoice numbers that do not exist), clarifications (no company named in a multi-company
tenant, "cheaper" without a product, unknown suppliers, companies and product groups) and parameters the corpus does
not carry (cost centre, project, bank account, GL account, department, region, budget line, PO, payment run,
buyer). Every one of them is an op the earlier calculators already compute and the scorer already classifies, so
this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``currency``, ``share``, ``change``, ``difference``, ``invoice_ranking``, ``company_ranking``, ``above``,
  ``unknown_invoice``, ``not_understood`` with an inner spec, the clarification checks, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``to_date``, ``window``, ``relative``, ``fiscal``, ``previous``,
  ``typo``, ``proper_share``, ties, the net reading of thresholds and of "largest", ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind39_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(39, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
