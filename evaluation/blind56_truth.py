"""Expected answers of the fifty-sixth blind set (``eval/blind56/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fifty-sixth set (spend-analytics consultants and procurement-transformation advisors building a spend cube for
the group: spend cube, tail spend, Pareto / top-N share, supplier consolidation, addressable spend, baseline period,
category tree levels, run-rate; terse analyst shorthand and slide-title wording, typos in supplier and category
names, periods written as H2'25, 1Q26, Jul-25 to Apr-26, LTM, YTD / MTD) needs no new answer shape: its asks are
period figures of a company (with a supplier or a product group and its subgroups), to-date figures, breakdowns by
supplier, top-level ("L1") group, catalog group, month and company, top-N supplier rankings, top-N supplier
concentration (``concentration``, scored as a share), shares of a group or a supplier, changes against a prior
period, invoice counts, suppliers above a spend threshold, asks with no data (a supplier, a group or a future period
without counted lines, ``expect_empty``), documents that do not exist, clarifications (no company named in a
multi-company tenant, unknown suppliers and companies, a price comparison without a product) and parameters the
corpus does not carry (``not_understood``: cost centre, GL account, UNSPSC, region, business unit, buyer, PO number,
project). Every one of them is an op the earlier calculators already compute and the scorer already classifies, so
this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op and
  every check (``nonempty`` by default, ``expect_empty``, ``to_date``, ties at a ranking or concentration cut, the
  clarification checks of the twenty-second set, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind56_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(56, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
