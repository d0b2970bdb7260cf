"""Expected answers of the twenty-third blind set (``eval/blind23/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind22_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-third set (strategic
sourcing and category managers preparing supplier negotiations and tenders) needs:

* the change of a unit price between two periods (``op: unit_price_change``, ``start``/``end`` and
  ``base_start``/``base_end`` as in the earlier ``op: change``; usually one product, optionally one supplier):
  the average net unit price in EUR of each period, ``sum(sign * line_net_amount * fx) / sum(sign * quantity)``
  over the counted, non-duplicate lines (the earlier ``measure: avg_unit_price``, computed through it so that every
  period and name check of the earlier sets applies to both periods), rounded to 4 decimals; the delta is the
  difference of the rounded prices and the percent ``100 * delta / base`` rounded to 2 decimals. It is scored with
  the existing ``change`` shape (``current``, ``base``, ``delta``, ``percent``, ``want``); the calculator refuses a
  question where either period has no priced quantity or where the price did not change (a "no change" answer
  would then be scored as a change);
* the dispatch of every earlier own op in one place: the nineteenth set's ``projection``, ``avg_invoice_value`` and
  ``concentration`` and the twenty-first set's ``overdue``, ``unknown_invoice`` and ``approval_stable`` through
  :func:`evaluation.blind21_truth.expect`; everything else (the twenty-second set's ``list_price``,
  ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists and rankings and its clarification
  checks; ``invoices``, ``basis``, ``credit_note_origin``; ``unit_price_ranking``; ``duplicate_list``,
  ``unapproved_vendors``, ``status_matters``; ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds, the version of an agreement in effect on the as-of date or on
  ``at``) through :func:`evaluation.blind22_truth.expect`.

``python -m evaluation.blind23_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from evaluation import blind17_truth as b17
from evaluation import blind19_truth as b19
from evaluation import blind21_truth as b21
from evaluation import blind22_truth as b22
from evaluation.blind3_truth import Tenant, TruthError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind23" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind23-corpus")
_BASE_KEYS = ("base_start", "base_end", "want")
#: keys that describe the current period only (its checks run on the current period, not on the base)
_CURRENT_ONLY = ("relative", "to_date", "fiscal", "window", "open_end", "robust_end", "inclusive_end", "previous")
_Q4 = Decimal("0.0001")
_CENT = Decimal("0.01")


def _unit_price_change(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    plain = {k: v for k, v in spec.items() if k not in _BASE_KEYS} | {"op": "figure", "measure": "avg_unit_price"}
    current = b22.expect(t, plain, as_of)
    base_spec = {k: v for k, v in plain.items() if k not in _CURRENT_ONLY} | {
        "start": spec["base_start"], "end": spec["base_end"]}
    base = b22.expect(t, base_spec, as_of)
    if current.get("value") is None or base.get("value") is None:
        raise TruthError("a unit-price change needs a priced quantity in both periods")
    cur, old = Decimal(current["value"]), Decimal(base["value"])
    delta = cur - old
    if delta == 0:
        raise TruthError("the unit price did not change: a change question would have no change to state")
    percent = (100 * delta / old).quantize(_CENT, rounding=ROUND_HALF_UP)
    return {"kind": "change", "current": str(cur.quantize(_Q4)), "base": str(old.quantize(_Q4)),
            "delta": str(delta.quantize(_Q4)), "percent": str(percent), "want": spec.get("want", "both")}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "unit_price_change":
        return _unit_price_change(t, spec, as_of)
    if op in b19._OWN_OPS or op in b21._OWN_OPS or spec.get("approval_stable"):
        return b21.expect(t, spec, as_of)
    return b22.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind23_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
