"""Expected answers of the sixty-fourth blind set (``eval/blind64/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The sixty-fourth set (Italian-speaking finance and purchasing staff in Italy and Ticino writing English mixed with
Italian finance words -- fornitore, fattura, nota di credito (NC), spesa, importo, imponibile, IVA, totale, società,
trimestre, semestre, esercizio, gruppo merceologico --, Italian number notation with dot thousands and decimal comma
("12.500,00 €", "5 mila €"), day-first dates (dd/mm/yyyy, dd.mm.yy, "3 marzo 2026"), Italian month names and polite
forms) needs no new answer shape: its asks are month, quarter, half-year and year figures, date ranges with an
included end day, year-to-date figures, net (imponibile) and VAT (IVA), breakdowns by month, supplier, product group,
top-level group and company, supplier rankings, shares, changes against another period, amounts by currency,
invoice and credit-note counts and totals, invoices above a threshold, misspelt suppliers, approved vendors,
agreement clauses (payment term, warranty, term), documents that do not exist, "no data" selections, clarifications
(no company named in a multi-company tenant, unknown supplier or product group) and parameters the corpus does not
carry (cost centre, job, budget, region, buyer, department, project, GL account). Every one of them is an op the
earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``approved``, ``above``, ``currency``, ``change``, ``share``,
  ``ranking``, ``table``, ``figure`` with ``basis`` and ``measure``, ``document``, ``not_found``, the clarification
  checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``, ``inclusive_end``,
  ``typo``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind64_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(64, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
