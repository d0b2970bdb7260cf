"""Expected answers of the forty-eighth blind set (``eval/blind48/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-eighth set (office managers and team leads of small subsidiaries who are not finance people: plain
everyday words instead of finance terms -- "how much did we pay", "the sensor people", "stuff we bought" --, vague
time words turned into explicit periods -- "a couple of months ago", "since the summer", "before Christmas" --,
amounts and dates in loose notations, typos, and questions about what they are allowed to buy and from whom) needs
no new answer shape: its asks are monthly, quarterly and yearly figures, breakdowns by month, supplier and product
group, rankings, changes against an earlier period, shares, invoice counts, invoices over an amount, approved
suppliers of a company or a product group, credit notes, replicated duplicates, clarifications (no company named in
a tenant with several, unknown suppliers or product groups) and parameters the corpus does not carry. Every one of
them is an op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op and
  every check (``nonempty`` by default, ``to_date``, ``inclusive_end``, ``expect_zero``, ``expect_empty``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind48_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(48, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
