"""Expected answers of the thirtieth blind set (``eval/blind30/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind28_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes).

The thirtieth set (new hires in their first weeks and external auditors sending "provided by client" request lists:
long, polite messages with greetings, signatures, ticket and meeting references, quoted lines, hedges and
self-corrections around the real ask, and numbered two- or three-part requests) needs no new answer shape: its
asks are totals, counts, breakdowns, status counts, cut-off and duplicate lists, credit notes and their original
invoices, currency conversions, approved and off-contract suppliers, invoice look-ups by number, agreement clauses
and versions, payment terms, manual facts, clarifications and parameters the corpus does not carry. Every one of
them is an op the earlier calculators already compute and the scorer already classifies, so this module only

* dispatches every spec through :func:`evaluation.blind28_truth.expect` (which reaches every earlier own op:
  ``period_ranking``, ``company_ranking``, ``difference``, ``unit_price_change``, ``idle_vendors``,
  ``invoice_ranking``, ``approval_validity``, ``not_understood``, ``status_counts``, ``cutoff_list``, ``overdue``,
  ``unknown_invoice``, ``duplicate_list``, ``credit_note_origin``, the clarification checks, ... and every check:
  ``nonempty`` by default, ``to_date``, ``inclusive_end``, ``robust_end``, ``open_end``, ``relative``, ``window``,
  ``fiscal``, ``typo``, ``distinct_from``, ``same_as``, ``status_matters``, ``approval_stable``,
  ``excluding_matters``, ...), parts of a ``compound`` included;
* checks that the auditor's numbered requests are really separate asks: a ``compound`` has two or three parts, and
  no two parts of one question have the same expected answer (otherwise one figure would be scored for two asks);
* keeps answers free of shared objects (so the YAML needs no anchors), as the twenty-sixth set's calculator does.

``python -m evaluation.blind30_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import copy
import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation import blind17_truth as b17
from evaluation import blind28_truth as b28
from evaluation.blind3_truth import Tenant, TruthError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind30" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind30-corpus")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        parts = list(spec["parts"])
        if not 2 <= len(parts) <= 3:
            raise TruthError(f"a numbered request has two or three parts, not {len(parts)}")
        answers = [expect(t, p, as_of) for p in parts]
        shown = [repr(a) for a in answers]
        if len(set(shown)) != len(shown):
            raise TruthError("two parts of one request have the same expected answer")
        return {"kind": "compound", "parts": answers}
    return b28.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
def _own_copy(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """:func:`expect` with no object shared between answers (the supplier labels), so the YAML needs no anchors."""
    return copy.deepcopy(expect(t, spec, as_of))


compute, check = b17.rooted(_own_copy, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind30_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
