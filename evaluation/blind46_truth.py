"""Expected answers of the forty-sixth blind set (``eval/blind46/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-sixth set (finance and purchasing staff of Dutch, Nordic and Polish subsidiaries of three groups --
Alpenland / Kestrel, Company A / B / C, Xenon / Ypsilon -- writing English as a second language: literal
translations such as "how much we have spent by Beta in last quarter", "give me the spendings per month", "which
vendors has approval for", "the amount of invoices" meaning their count, "until now this year", "in the half year
second", "from which supplier we buy the most"; wrong prepositions and plurals, missing articles, false friends
("actual" for current), native words for supplier, invoice, credit note, VAT and months -- leverancier /
leverantör / dostawca, factuur / faktura, creditnota / kreditnota / korekta, BTW / moms, maart / mars / marzec --,
amounts as "5.000 EUR", "€ 5.000,-", "10k", "7 500 €", periods as "Q1/26", "1e kwartaal 2026", "2. halvår 2025",
"kwiecień 2026", "09.2025", "t/m" ranges, supplier aliases, short names and one-letter slips, product groups by
synonyms and native words) needs no new answer shape: its asks are gross, net and VAT figures, invoice and credit-note
counts and sums, rankings, breakdowns by month, supplier, product group, top-level group and company, shares,
changes against the prior period, currency splits, approved vendors on the as-of date, average and list prices,
invoices and suppliers above an amount, counts by status, replicated duplicates, credit notes and their invoices,
invoice look-ups by number, agreement clauses of the version in effect, documents and numbers that do not exist,
answers that are no data or an empty list, clarifications (no company named in a multi-company tenant, unknown
supplier, company or product group, "cheaper" without a product, a fifth quarter, follow-ups without context) and
parameters the corpus does not carry (cost centre, project, region, department, buyer, budget, GL account, plant,
store, PO number). Every one of them is an op the earlier calculators already compute and the scorer already
classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, ``status_counts``, ``duplicate_list``, ``credit_note_origin``,
  ``unknown_invoice``, ``list_price``, ``invoices``, ``basis``, ``approved``, ``above``, ``suppliers_above``,
  ``share``, ``change``, ``currency``, ``document``, ``not_found``, the clarification checks, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``to_date``, ``relative``, ``typo``, ``proper_share``, the net
  reading of thresholds, ties, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind46_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(46, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
