"""Expected answers of the forty-first blind set (``eval/blind41/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-first set (managers asking from a phone or a chat tool: very short lowercase messages with dropped words,
chat noise such as "@procura", "quick one:", "pls" and "thx", fat-thumb typos in company, supplier and product-group
names, follow-ups written as stand-alone questions and, now and then, two asks in one message of which only one is
computable) needs no new answer shape: its asks are spend figures by company, supplier and product group for
quarters, halves, months, to-date and relative periods, net and VAT, breakdowns by month, supplier, group, top-level
group and company, supplier, company, month and invoice rankings, shares, changes against another period,
currencies, thresholds, invoice and credit-note counts, credit notes and their invoices, an invoice look-up by
number, approved vendors, payment terms, warranty and signature clauses of agreements (an amendment in effect only
from its effective date), a manual clause, documents and invoice numbers that do not exist, replicated duplicates,
questions whose answer is no data or exactly zero, clarifications (no company named, unknown supplier, company or
product group, "cheaper" without a product, a follow-up without context) and parameters the corpus does not carry.
Every one of them is an op the earlier calculators already compute and the scorer already classifies, so this
module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``period_ranking``, ``company_ranking``, ``invoice_ranking``,
  ``unknown_invoice``, ``duplicate_list``, ``credit_note_origin``, the clarification checks, ...) and every check
  (``nonempty`` by default, ``expect_empty``, ``expect_zero``, ``to_date``, ``inclusive_end``, ``relative``,
  ``typo``, ``basis``, ``invoices``, the net reading of thresholds, ties, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind41_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(41, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
