"""Expected answers of the tenth blind set (``eval/blind10/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind9_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the tenth set needs:

* the invoices of a selection as a list (``op: invoice_list``: invoice numbers of the counted ``invoice``
  documents, e.g. "which invoices are still open"; credit notes are not invoices);
* ``nonempty`` by default: every question that is not a clarification, a not-found or a document lookup must have
  data (a non-empty list, table, ranking, a figure other than zero, a share with a base, a change with both
  periods) unless its spec says ``expect_empty: true``; a slip in a spec can then never turn a question into a
  "no data" one;
* ``robust_end``: a period written with an explicit last day ("through 15 March") must not have a selected line on
  the day after it, so that readings that take the end inclusive or exclusive agree (the earlier sets'
  ``inclusive_end`` checks the last day itself).

The ninth set's checks (``distinct_from``, ``proper_share``, ``paid_reading``) and the eighth set's
(``same_gross_net``, ``same_as``, ties at a ranking cut or inside a ranking, the net reading of thresholds, totals
on a range bound, rolling-window and to-date boundaries) apply unchanged through
:func:`evaluation.blind9_truth.expect`.

``python -m evaluation.blind10_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind8_truth as b8
from evaluation import blind9_truth as b9
from evaluation.blind3_truth import Tenant, TruthError, _d, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind10" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind10-corpus")
_OWN_KEYS = ("expect_empty", "robust_end")
_NO_DATA_OPS = ("clarification", "not_found", "document")


def _invoice_list(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Invoice numbers of the counted invoice documents of the selection (credit notes are not invoices)."""
    lines = select(t, {**spec, "document_types": ["invoice"]})
    return {"kind": "list", "ids": sorted({ln.invoice_number for ln in lines})}


def _check_robust_end(t: Tenant, spec: Mapping[str, Any]) -> None:
    end = _d(spec["end"])
    if select(t, {**spec, "start": end, "end": end + dt.timedelta(days=1)}):
        raise TruthError(f"a selected line is dated on {end}, the day after the period's last day")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if spec.get("robust_end"):
        _check_robust_end(t, plain)
    if op == "invoice_list":
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**plain, "op": "figure"}, as_of)  # the boundary checks only
        bare = {k: v for k, v in plain.items() if k not in (*b8._CHECK_KEYS, *b9._OWN_KEYS)}
        out = _invoice_list(t, bare)
        if spec.get("distinct_from") and _invoice_list(t, {**bare, **spec["distinct_from"]}) == out:
            raise TruthError(f"the answer does not depend on the filter: {spec['distinct_from']!r}")
    else:
        out = b9.expect(t, plain, as_of)
    empty = b8._empty(out) or (out.get("kind") == "figure" and Decimal(str(out["value"])) == 0)
    if op not in _NO_DATA_OPS and not spec.get("expect_empty") and empty:
        raise TruthError("the question is written to have data, the selection has none (or sums to zero)")
    if spec.get("expect_empty") and not b8._empty(out):
        raise TruthError("the question is written to have no data, the selection has some")
    return out


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind10_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
