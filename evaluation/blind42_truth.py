"""Expected answers of the forty-second blind set (``eval/blind42/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind34_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The forty-second set (internal auditors and compliance officers of three groups -- a logistics / food group, an
industrial group with three companies named "Company A/B/C" and a pharma / retail group -- writing formal, precise
but abbreviated audit queries: "as at 31.03.2026", "Q1/26", "YTD", "EUR 10k", "€7.500", "1 Mio", supplier aliases,
short names and one-letter slips, product groups by English or German synonyms) needs no new answer shape: its
asks are multi-hop questions over approvals, agreements and product groups with dates (approved suppliers of a group
at a date or for a period, how long an approval runs in the agreement version in effect, approved vendors without
activity), invoices and spend outside an approval's validity window, spend restricted to approved or to non-approved
vendors, credit notes and their original invoices (and an invoice net of its credit note, zero included), replicated
duplicate invoices, document look-ups by invoice number, credit-note number and document id (found and not found,
numbers of another tenant included), agreement clauses of the version in effect, counts by status, gross / net / VAT
figures, breakdowns, rankings of suppliers and single invoices, changes against a prior period, invoices above an
amount, invoice lists with their total, answers that are zero or no data, clarifications (no company named in a
multi-company tenant, unknown supplier, company, product group or product, "cheaper" without a product, follow-ups
without context, a fifth quarter) and parameters the corpus does not carry (cost centre, region, project, GL
account, buyer, PO number, department, budget, plant, contract owner). Every one of them is an op the earlier
calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind29_truth.expect`, which reaches every earlier own op
  (``approved``, ``approval_validity``, ``idle_vendors``, ``unapproved_vendors`` / ``approved_vendors`` on figures,
  ``credit_note_origin``, ``invoices``, ``basis``, ``duplicate_list``, ``unknown_invoice``, ``not_found``,
  ``document``, ``status_counts``, ``invoice_list``, ``supplier_list``, ``invoice_ranking``, ``above``, ``change``,
  ``compound``, ``not_understood`` with an inner spec, the clarification checks, ...) and every check (``nonempty``
  by default, ``expect_empty``, ``expect_zero``, ``to_date``, ``inclusive_end``, ``typo``, ``approval_stable``, the
  net reading of thresholds, ...);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind42_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
compute, check, main = b17.thin(42, expect, __doc__ or "")

if __name__ == "__main__":
    sys.exit(main())
