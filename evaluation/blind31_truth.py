"""Expected answers of the thirty-first blind set (``eval/blind31/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind30_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirty-first set (procurement business partners and team leads chatting with the assistant in a team chat and
forwarding e-mails to it: short lowercase chat lines with typos and emoji, keyword strings, and forwarded mails whose
ask sits inside greetings, signatures, subject lines and quoted text) needs no new answer shape: its asks are
figures, breakdowns, rankings, shares, changes, counts, averages, lists, approved and off-contract vendors, catalog
hops, unit and list prices, documents, invoice look-ups, unknown ids, duplicates, credit notes, currencies,
clarifications and parameters the corpus does not carry. Every one of them is an op the earlier calculators already
compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``first_time_suppliers``, ``period_ranking``,
  ``company_ranking``, ``difference``, ``unit_price_change``, ``idle_vendors``, ``invoice_ranking``,
  ``approval_validity``, ``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``, ``duplicate_list``,
  ``credit_note_origin``, the clarification checks, ...) and every check (``nonempty`` by default, ``to_date``,
  ``inclusive_end``, ``relative``, ``window``, ``typo``, ``approval_stable``, ``basis``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind31_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(31, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
