"""Expected answers of the thirty-eighth blind set (``eval/blind38/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-eighth set (everyday users of a new analytics chat tool at a mid-size group: operations, sales and
logistics managers who are not finance specialists, typing "how much did we pay", "money spent", "bills", "vendors",
"stuff from", many of them Italian, Dutch or Portuguese speakers writing English with words of their own language --
fattura / factuur / fatura, fornitore / leverancier / fornecedor, IVA / BTW, trimestre / kwartaal -- and day-first
dates, month names of their language and euro amounts with dot thousands separators) needs no new answer shape: its
asks are month, quarter, half-year and day-range figures (gross, net and tax), spend with a supplier (also misspelt)
or a product group named by a synonym, "so far" figures to the as-of date, breakdowns by month, supplier, product
group and top-level group, supplier rankings, shares, changes against the preceding month or quarter, currencies,
invoices above an amount, invoice counts, approved suppliers, payment terms and warranties of the agreement version
in effect, documents that do not exist, selections with no data, clarifications (no company named, an unknown
supplier, "cheaper" without a product) and parameters the corpus does not carry. Every one of them is an op the
earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, the clarification checks, ``approved``, ``above``, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``to_date``, ``inclusive_end``, ``typo``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind38_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(38, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
