"""Expected answers of the twenty-ninth blind set (``eval/blind29/questions.yml``), from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind28_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes). The twenty-ninth set (BI and analytics users typing
terse keyword strings and SQL fragments into a search bar, and data engineers checking numbers before a release)
needs no new answer shape; it adds only one dispatcher that reaches every earlier own op from one place:

* the twenty-eighth set's ``period_ranking`` and, through :func:`evaluation.blind28_truth.expect`, the
  twenty-fifth set's ``idle_vendors``, ``invoice_ranking``, ``approval_validity``, the twenty-sixth set's
  ``company_ranking``, ``difference``, ``unit_price_change`` and follow-ups without context, and everything the
  twenty-fourth set's dispatcher reaches (``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``,
  ``approval_stable``, ``projection``, ``avg_invoice_value``, ``concentration``, ``list_price``,
  ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists and rankings, the clarification checks,
  ``invoices``, ``basis``, ``credit_note_origin``, ``unit_price_ranking``, ``duplicate_list``,
  ``unapproved_vendors``, ``status_matters``, ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds, the agreement version in effect on the as-of date or ``at``);
* the twenty-seventh set's ``first_time_suppliers``, which the twenty-eighth set's dispatcher does not reach;
* parameters the corpus cannot know (``op: not_understood``, ``parameter``: the words as written, e.g. a cost
  centre, GL account, region, PO number or buyer typed as a column; ``inner``: the rest of the ask), with the inner
  spec computed through this dispatcher so that it may use every op above (a period ranking included); the answer
  is marked as the twenty-fifth set marks it (a figure ``status: partial``, a table ``missing``), and every such
  question also accepts a clarification.

``python -m evaluation.blind29_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation import blind27_truth as b27
from evaluation import blind28_truth as b28
from evaluation.blind3_truth import Tenant, TruthError, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind29" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind29-corpus")


def _not_understood(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    words = _list(spec.get("parameter"))
    if not words:
        raise TruthError("not_understood names the parameter the corpus cannot know")
    inner = expect(t, spec["inner"], as_of)
    if inner.get("kind") == "figure" and inner.get("value") is not None:
        return {**inner, "status": "partial", "not_understood": list(words)}
    if inner.get("kind") == "table" and inner.get("rows"):
        return {**inner, "missing": list(words), "not_understood": list(words)}
    raise TruthError("a not-understood parameter is scored on a figure or a table with data")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "not_understood":
        return _not_understood(t, spec, as_of)
    if op == "first_time_suppliers":
        return b27.expect(t, spec, as_of)
    return b28.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
def _own_copy(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """:func:`expect` with no object shared between answers (the supplier labels), so the YAML needs no anchors."""
    return copy.deepcopy(expect(t, spec, as_of))


compute, check = b17.rooted(_own_copy, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind29_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
