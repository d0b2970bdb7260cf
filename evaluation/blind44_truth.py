"""Expected answers of the forty-fourth blind set (``eval/blind44/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-fourth set (BI and data analysts who think in SQL and dashboards: semi-technical asks with field-like
words -- ``sum(net_amount) group by supplier``, ``where status = 'posted'``, ``count(*) by month``, ``top 5 order by
spend desc``, ``between 2025-01-01 and 2025-03-31``, ``company_id = COMP-A``, ``filter: currency=USD``, ``dims:
supplier, month`` --, ISO dates, snake_case names, explicit filters and breakdowns, distinct counts, averages,
min/max, shares, period-over-period deltas, plus look-ups and approvals asked the same technical way) needs no new
answer shape: its asks are figures on the gross, net and tax basis, invoice and credit-note counts, distinct supplier
counts, breakdowns by month, quarter, supplier, product group, product, company and status, supplier, company,
period and invoice rankings, shares and concentration, changes against the prior period and differences between two
selections, average invoice values and unit prices, the largest and smallest invoices, thresholds and amount ranges,
currency splits, invoice, supplier and product lists, duplicates, credit notes and their invoices, cut-off lists,
overdue invoices, approved and idle vendors, approval validity, agreement and manual facts, catalog look-ups,
invoice numbers and documents that do not exist, clarifications and parameters the corpus does not carry. Every one
of them is an op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``first_time_suppliers``, ``period_ranking``,
  ``company_ranking``, ``difference``, ``unit_price_change``, ``idle_vendors``, ``invoice_ranking``,
  ``approval_validity``, ``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``, ``duplicate_list``,
  ``credit_note_origin``, the clarification checks, ...) and every check (``nonempty`` by default, ``to_date``,
  ``inclusive_end``, ``relative``, ``window``, ``typo``, ``approval_stable``, ``basis``, ``previous``, ``fiscal``,
  ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind44_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(44, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
