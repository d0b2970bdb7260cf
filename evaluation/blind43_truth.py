"""Expected answers of the forty-third blind set (``eval/blind43/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind42_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-third set (French-speaking finance staff in France, Belgium and Switzerland writing English mixed with
French finance words -- fournisseur, facture, avoir, société, trimestre, semestre, exercice, montant, HT / TTC,
TVA, groupe de produits, par, depuis, entre, jusqu'au, l'an dernier --, French notation of amounts and dates
(1 234,56 €, 12 k€, 31/12/2025, T3 2025, S1, janv. 2026), dropped accents, French typos and word order) needs no new
answer shape: its asks are spend, net and VAT figures, invoice and credit-note counts, breakdowns by month,
supplier, product group and company, rankings, shares, changes against another period, currencies, thresholds,
duplicates, credit notes and their invoices, approved suppliers, agreement look-ups, documents that do not exist,
clarifications and parameters the corpus does not carry. Every one of them is an op the earlier calculators already
compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``not_understood`` with an inner spec of any op, ``duplicate_list``, ``credit_note_origin``, ``approved``,
  ``above``, the clarification checks, ...) and every check (``nonempty`` by default, ``expect_empty``,
  ``to_date``, ``inclusive_end``, ``basis``, ``fiscal``, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind43_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(43, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
