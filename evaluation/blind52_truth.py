"""Expected answers of the fifty-second blind set (``eval/blind52/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind50_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-second set (IT-asset, facilities and indirect buyers who think in products: product codes typed as
``PRD-482``, ``prd 482`` or ``PRD482``, product names shortened the way a buyer says them -- "DP-10", "PT100 probes",
"A4 copy paper", "torque wrenches" --, product groups by English or German synonyms and with typos, unit prices and
quantities, "which supplier is cheaper per unit", catalog-style asks -- list prices, what a group holds, who supplies
it, what a supplier carries --, comparison and quantity-aware wording, company names with or without legal suffix,
supplier aliases, short names and one-letter slips, periods as Q1/26, 1Q26, Jan-Mar 2026, H2 2025, 09/2025, YTD)
needs no new answer shape: its asks are average net unit prices per product (``measure: avg_unit_price``), units
bought (``measure: units``), product and product-group spend (gross or net), suppliers and products ranked by
average unit price (``unit_price_ranking``), catalog list prices (``list_price``), catalog products and catalog
suppliers of a group (``catalog_products``, ``catalog_suppliers``), products ranked by spend (``ranking`` with
``rank_by: product``), breakdowns by product and by month, the latest and the lowest / highest single-line unit
price (``latest_unit_price``, ``unit_price_extreme``), unit-price changes between periods (``unit_price_change``),
the products bought from a supplier (``product_list``), product manuals that do not exist (``not_found``), answers
that are zero or "no data", clarifications (no company named in a tenant with several, "cheaper" without a product,
product codes, product groups and suppliers the corpus does not know) and parameters the corpus does not carry
(``not_understood``: asset tags, cost centres, buildings, requesters). Every one of them is an op the earlier
calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``list_price``, ``catalog_products``, ``catalog_suppliers``, ``unit_price_ranking``, ``unit_price_change``,
  ``latest_unit_price``, ``unit_price_extreme``, ``product_list``, ``not_understood`` with an inner spec of any op,
  the clarification checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``,
  ``typo``, ``previous``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind52_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(52, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
