"""Expected answers of the fifty-fifth blind set (``eval/blind55/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-fifth set (finance and purchasing staff of Latin-American and Brazilian subsidiaries -- Mexico, Colombia,
Argentina, Brazil -- writing short chat messages and longer e-mails in English mixed with Spanish and Portuguese
words and phrases: gasto / gastos, proveedor / fornecedor, factura / nota fiscal, notas de crédito, trimestre / tri,
acumulado del año, "por favor" / "porfa" / "obrigado"; day-first dd/mm/yyyy dates, amounts with dot thousands and a
decimal comma -- 1.234.567,89 -- or in "mil"; typos and abbreviations) needs no new answer shape: its asks are
period, quarter and year-to-date figures, net, gross and VAT, breakdowns by month, quarter, supplier, company and
product group, rankings of suppliers, products, months and companies, changes against the prior period and
differences between suppliers, shares and concentration, invoice counts, credit notes and their invoices, original
currencies, thresholds, duplicates, overdue and open invoices, invoice look-ups by number, payment terms and
approval validity in the agreements, approved and idle vendors, catalog look-ups, unit prices, documents and
numbers that do not exist, clarifications and parameters the corpus does not carry. Every one of them is an op the
earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``first_time_suppliers``, ``period_ranking``,
  ``company_ranking``, ``difference``, ``unit_price_change``, ``idle_vendors``, ``invoice_ranking``,
  ``approval_validity``, ``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``, ``duplicate_list``,
  ``credit_note_origin``, the clarification checks, ...) and every check (``nonempty`` by default, ``to_date``,
  ``inclusive_end``, ``relative``, ``window``, ``typo``, ``approval_stable``, ``basis``, ``previous``, ``fiscal``,
  ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind55_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(55, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
