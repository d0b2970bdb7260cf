"""Expected answers of the fifty-third blind set (``eval/blind53/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-third set (Excel and spreadsheet power users in finance, who write their asks the way they build a sheet:
SUMIFS-like wording, pivot rows and columns, filters written as ``where col = x``, tab and column names, pasted
header rows, CSV-ish lists, "give me the total for cell ...", mixed with plain sentences, with Excel date notations
such as ``Mar-26``, ``Q1-26``, ``01/03/2026`` (day-first) and amounts such as ``10k``, ``EUR 5,000.00`` or ``2.5k``)
needs no new answer shape: its asks are sums over periods, net, gross and VAT, pivots by month, quarter, supplier,
product group, product and company (one or two keys), top-N and bottom-N rankings of suppliers, products, groups,
months, companies and invoices, changes against another period, differences between two suppliers, shares, counts
of invoices and credit notes, threshold lists, supplier / product / invoice lists, currency splits, average invoice
values and run-rates, duplicates, credit notes and their invoices, invoice numbers that do not exist, payment terms
and warranty clauses of the agreements, approved vendors, catalog products, suppliers and list prices,
clarifications (no company named in a tenant with several, unknown suppliers and product groups, follow-ups without
context) and parameters the corpus does not carry (cost centre, GL account, PO number, region, project). Every one of
them is an op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``first_time_suppliers``, ``period_ranking``,
  ``company_ranking``, ``difference``, ``invoice_ranking``, ``status_counts``, ``unknown_invoice``,
  ``duplicate_list``, ``credit_note_origin``, the clarification checks, ...) and every check (``nonempty`` by
  default, ``to_date``, ``inclusive_end``, ``relative``, ``typo``, ``basis``, ``previous``, ``fiscal``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind53_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(53, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
