"""Expected answers of the eleventh blind set (``eval/blind11/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind10_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the eleventh set needs:

* the suppliers of a selection as a list (``op: supplier_list``: ids of the suppliers with at least one counted
  line, e.g. "which vendors did we buy from in Q1"; a supplier whose lines net to zero still counts, it was bought
  from);
* ``expect_zero``: a figure written to be exactly zero although lines match (an invoice fully reversed by its
  credit note), so that "zero spend" is told apart from "no data"; the earlier ``nonempty`` refuses any zero;
* ``open_end``: a period written past the as-of date ("1H 2026", "this quarter") must give the same answer when it
  is cut at the as-of date (end = as-of + 1 day), so that the reading "the whole half" and the reading "the half so
  far" agree;
* ``mixed`` questions are built from the earlier shapes only (a category of the question file, not of the
  calculator).

The tenth set's checks (``nonempty`` by default, ``robust_end``, ``invoice_list``), the ninth set's
(``distinct_from``, ``proper_share``, ``paid_reading``, ``latest_unit_price``) and the eighth set's
(``same_gross_net``, ``same_as``, ties at a ranking cut or inside a ranking, the net reading of thresholds, totals on
a range bound, rolling-window and to-date boundaries) apply unchanged through :func:`evaluation.blind10_truth.expect`.

``python -m evaluation.blind11_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation import blind10_truth as b10
from evaluation.blind3_truth import Tenant, TruthError, _d, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind11" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind11-corpus")
_OWN_KEYS = ("expect_zero", "open_end")
_INHERITED_CHECKS = (*b8._CHECK_KEYS, *b9._OWN_KEYS, *b10._OWN_KEYS)


def _supplier_list(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Suppliers with at least one counted line in the selection."""
    return {"kind": "list", "ids": sorted({ln.supplier for ln in select(t, spec)})}


def _expect_list(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if spec.get("to_date") or spec.get("inclusive_end"):
        b5.expect(t, {**spec, "op": "figure"}, as_of)  # the boundary checks only
    if spec.get("robust_end"):
        b10._check_robust_end(t, spec)
    bare = {k: v for k, v in spec.items() if k not in _INHERITED_CHECKS}
    out = _supplier_list(t, bare)
    if spec.get("distinct_from") and _supplier_list(t, {**bare, **spec["distinct_from"]}) == out:
        raise TruthError(f"the answer does not depend on the filter: {spec['distinct_from']!r}")
    if not out["ids"] and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, the selection has none")
    return out


def _one(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if spec["op"] == "supplier_list":
        return _expect_list(t, plain, as_of)
    if spec.get("expect_zero"):
        if plain.get("robust_end"):
            b10._check_robust_end(t, plain)
        out = b9.expect(t, {k: v for k, v in plain.items() if k not in b10._OWN_KEYS}, as_of)
        if out.get("kind") != "figure" or out.get("value") is None or Decimal(str(out["value"])) != 0:
            raise TruthError(f"the question is written to sum to zero over matching lines: {out!r}")
        return out
    return b10.expect(t, plain, as_of)


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    out = _one(t, spec, as_of)
    if spec.get("open_end"):
        cut = as_of + dt.timedelta(days=1)
        if _d(spec["end"]) <= cut:
            raise TruthError("open_end: the period does not run past the as-of date")
        if _one(t, {**spec, "open_end": False, "end": cut.isoformat()}, as_of) != out:
            raise TruthError("the period cut at the as-of date gives another answer")
    return out


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind11_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
