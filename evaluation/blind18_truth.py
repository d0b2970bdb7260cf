"""Expected answers of the eighteenth blind set (``eval/blind18/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind16_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the eighteenth set (category managers and buyers preparing sourcing negotiations) needs:

* suppliers (or products) ranked by their average net unit price in EUR over a selection (``op:
  unit_price_ranking``, ``rank_by: supplier | product``, ``order: asc`` for "cheapest per unit" / ``desc``, ``n``):
  per key, ``sum(sign * line_net_amount * fx) / sum(sign * quantity)`` over the counted, non-duplicate lines of the
  selection (the same average the generator's ``unit_price`` uses), rounded to 4 decimals; a key whose quantities
  net to zero has no price and is left out; no tie at the cut or inside the ranking; a question written to have
  data must have at least two ranked keys when it compares, so ``n`` may not exceed the keys with a price;
* everything else (``fiscal``, the exclusions with ``excluding_matters``, ``window``, ``previous``, ``relative``,
  ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``, ``inclusive_end``,
  ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, ties, the net reading of
  thresholds) applies unchanged through :func:`evaluation.blind16_truth.expect`.

``python -m evaluation.blind18_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind12_truth as b12
from evaluation import blind13_truth as b13
from evaluation import blind16_truth as b16
from evaluation.blind3_truth import Tenant, TruthError, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind18" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind18-corpus")
_Q4 = Decimal("0.0001")
_SELECTION_CHECKS = ("to_date", "inclusive_end", "relative", "typo")


def _unit_price_ranking(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """Suppliers or products ranked by average net unit price (EUR) over the selected counted lines."""
    plain = b13._plain(t, spec)
    if any(plain.get(k) for k in _SELECTION_CHECKS):  # the period and name checks of the earlier sets
        b16.expect(t, {k: v for k, v in plain.items() if k not in ("order", "n", "rank_by")} | {"op": "figure"},
                   as_of)
    by = spec.get("rank_by", "supplier")
    if by not in ("supplier", "product"):
        raise TruthError(f"unknown rank_by {by!r}")
    net: dict[str, Decimal] = defaultdict(Decimal)
    qty: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, plain):
        key = ln.supplier if by == "supplier" else ln.product
        net[key] += ln.net_reporting
        qty[key] += ln.quantity
    prices = {k: (net[k] / qty[k]).quantize(_Q4, rounding=ROUND_HALF_UP) for k in net if qty[k] != 0}
    ascending = spec.get("order", "asc") == "asc"
    ranked = sorted(prices.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if len(ranked) < max(n, 2):
        raise TruthError(f"{len(ranked)} keys with a unit price, the question ranks {n} (and compares at least 2)")
    if len(ranked) > n and ranked[n - 1][1] == ranked[n][1]:
        raise TruthError("a tie at the ranking cut")
    if any(a[1] == b[1] for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    labels = {k: list(t.names[k]) if by == "supplier" else [t.products[k][0]] for k, _ in top}
    return {"kind": "ranking", "items": [[k, str(v)] for k, v in top], "labels": labels}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec["op"] == "unit_price_ranking":
        if spec.get("relative"):
            b12._check_relative(spec, as_of)
        return _unit_price_ranking(t, spec, as_of)
    return b16.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind18_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
