"""Expected answers of the fifty-ninth blind set (``eval/blind59/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-ninth set (staff of Eastern-European and Turkish subsidiaries -- Polish, Czech, Romanian, Ukrainian,
Russian and Turkish speakers -- writing second-language English: dropped articles, "please to show", "how much we
paid", dd.mm.yyyy dates and ranges, month names of their own language (styczen, březen, ianuarie, ocak, lystopad),
quarter and half-year notations such as "I kw.", "1. čtvrtletí", "1. çeyrek", "trimestrul IV", "II półrocze",
amounts with space grouping and decimal comma, "tys.", "k", "bin", "mln", words of their own language for product
groups, invoices and duplicates) needs no new answer shape: its asks are gross EUR spend of a company in a period
(with a supplier or a product group, to date, or of all companies together), invoice and credit-note counts and
totals, units and average unit prices of a product, breakdowns by month, supplier, product group, top-level group
and company, supplier rankings, shares, changes against the previous month or quarter, currency splits, invoices
above a threshold, approved vendors, replicated duplicates, payment terms, warranty and signature limits of the
agreement version in effect, documents that do not exist, figures with no data, clarifications (no company named in
a multi-company tenant, an unknown supplier or product group, a unit price without a product) and parameters the
corpus does not carry (cost centre, MPK, project, GL account, department, PO number, ...). Every one of them is an
op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec, ``duplicate_list``, ``approved``, ``above``, ``currency``, ``change``,
  ``share``, ``ranking``, ``table``, ``document``, ``not_found``, the clarification checks, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``to_date``, ``inclusive_end``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind59_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(59, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
