"""Expected answers of the fortieth blind set (``eval/blind40/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fortieth set (shared-service-centre staff in Germany and Austria writing terse ticket-style English mixed with
German finance words -- Lieferant, Rechnung, Gutschrift, Warengruppe, Gesellschaft, Zeitraum, Summe, Anzahl,
je / pro, bis, seit, Vorjahr --, German number notation "1.234,56 EUR", German dates "31.12.2025", months as
"3/2026", quarters as "Q1/2026" or "1. Quartal", sometimes wrapped in a greeting and a signature) needs no new
answer shape: its asks are month, quarter, half-year, year and to-date figures (gross, net and VAT), invoice and
credit-note counts, units and average unit prices, breakdowns by month, supplier, product group and company,
supplier and company rankings, changes against the previous period, differences between suppliers, shares,
currency splits, thresholds, replicated duplicates, invoice and credit-note look-ups by number, payment terms and
warranty clauses of the agreement version in effect, approved vendors, catalog suppliers, products and list prices,
documents and numbers that do not exist, selections without data, clarifications and parameters the corpus does
not carry. Every one of them is an op the earlier calculators already compute and the scorer already classifies,
so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``company_ranking``, ``difference``, ``unknown_invoice``,
  ``duplicate_list``, ``credit_note_origin``, ``catalog_suppliers``, ``catalog_products``, ``list_price``, the
  clarification checks, ...) and every check (``nonempty`` by default, ``expect_empty``, ``to_date``,
  ``inclusive_end``, ``typo``, ``approval_stable``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind40_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(40, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
