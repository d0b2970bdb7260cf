"""Expected answers of the fiftieth blind set (``eval/blind50/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind29_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The fiftieth set (audit-committee and board members asking compound analytical questions: several constraints in one
sentence, quarter-over-quarter and month-over-month trends, comparisons between companies and between suppliers,
conditionals -- "if we exclude X", "setting Y aside", "all entities except Z" --, "and also" follow-ups in the same
message, percentages, shares and supplier concentration, rankings of suppliers, companies, months, top-level
product groups and single invoices, thresholds with their counts and lists, gross / net / VAT, credit notes, written
with board-pack abbreviations -- QoQ, MoM, YTD, CNs, AC pack, ARC --, company names with and without legal form,
supplier short names and typos, product groups by synonym or misspelt, quarters as Q1'26 / 1Q26 / Q1 FY26 /
Jan-Mar 2026, amounts as EUR 25,000 / 25.000 EUR / 25k / 25 000 EUR) needs no new answer shape: every ask is an op
the earlier calculators already compute and the scorer already classifies (``compound``, ``change`` with
``previous``, ``share``, ``concentration``, ``difference``, ``ranking``, ``company_ranking``, ``period_ranking``,
``invoice_ranking``, ``table``, ``figure`` with ``basis``, thresholds and ``above``, ``avg_invoice_value``,
``supplier_count``, exclusions with ``excluding_matters``, ``status_matters``, ``typo``, ``relative``,
``to_date``, ``expect_empty``, the clarification checks and ``not_understood``), so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op and
  every check (``nonempty`` by default, ``to_date``, ``relative``, ``typo``, ``previous``, ``proper_share``,
  ``excluding_matters``, ties, the net reading of thresholds and of "largest", ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind50_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(50, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
