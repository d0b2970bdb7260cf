"""Expected answers of the thirty-sixth blind set (``eval/blind36/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-sixth set (procurement category managers and buyers typing short, noisy asks: approved / preferred vendors
of a company and a product group on a date, which suppliers the catalog names for a group and which products a
supplier carries within a group, average and latest unit prices, catalog list prices, the cheapest supplier or product
of a group by average unit price, unit-price changes between quarters, payment terms, warranty and other agreement
clauses in the version in effect on the as-of date or on a named date (amendments included), how long an approval
runs, spend with approved and with non-approved vendors, multi-hop asks such as "spend on group X from the approved
vendors of company Y in a period", subgroup against top-level group scope, supplier spend with aliases, short names
and one-letter slips, answers that are zero or "no data", clarifications and parameters the corpus does not carry)
needs no new answer shape. Every ask is an op the earlier calculators already compute and the scorer already
classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``approved``, ``approval_validity``, ``catalog_products``, ``catalog_suppliers``, ``list_price``,
  ``unit_price_ranking``, ``unit_price_change``, ``latest_unit_price``, ``idle_vendors``, ``product_list``,
  ``supplier_list``, ``not_understood`` with an inner spec, the clarification checks, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``expect_zero``, ``to_date``, ``relative``, ``typo``,
  ``approval_stable``, ``approved_vendors`` and ``unapproved_vendors``, ``proper_share``, the agreement version in
  effect on the as-of date or ``at``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind36_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(36, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
