"""Expected answers of the twenty-eighth blind set (``eval/blind28/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind26_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-eighth set (FP&A analysts
preparing a board pack and BI administrators checking dashboard tiles: year-over-year and quarter-over-quarter
changes, shares and top-N concentration, rankings with exclusions, rolling windows, fiscal periods, averages per
month and per invoice, breakdowns, SQL-like and tile-like asks, and dimensions the data does not have) needs:

* the months (or quarters) of a selection ranked by spend (``op: period_ranking``, ``rank_by: month | quarter``,
  ``n``, ``order: desc | asc``: "which month had the highest spend", "our two weakest quarters"): per calendar month
  (quarter) of ``invoice_date``, the gross EUR spend of the selection (the earlier policy), ranked; the items are
  keyed ``YYYY-MM`` (``YYYY-Qn``) and labelled with the names an analyst writes ("March 2026", "Mar 2026",
  "Q1 2026"); every period and name check of the earlier sets runs on the same selection taken as a figure first;
  the calculator refuses a tie at the cut or inside the ranking and a ranking of every period there is (a selection
  with no more than ``n`` periods); it is scored with the existing ``ranking`` shape;
* one dispatcher for every earlier own op: the twenty-fifth set's ``idle_vendors``, ``invoice_ranking``,
  ``approval_validity`` and ``not_understood`` (a cost centre, region, department, budget or forecast the corpus
  does not carry: the answer to the rest is a partial figure or a table with ``missing``), which the twenty-sixth
  set's dispatcher does not reach, beside the twenty-sixth set's ``company_ranking``, ``difference`` and
  ``unit_price_change``; everything else (``status_counts``, ``cutoff_list``, ``overdue``, ``unknown_invoice``,
  ``approval_stable``, ``projection``, ``avg_invoice_value``, ``concentration``, ``list_price``,
  ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists and rankings, the clarification checks,
  ``invoices``, ``basis``, ``credit_note_origin``, ``unit_price_ranking``, ``duplicate_list``,
  ``unapproved_vendors``, ``status_matters``, ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds, the agreement version in effect on the as-of date or ``at``)
  applies unchanged through :func:`evaluation.blind24_truth.expect`.

``python -m evaluation.blind28_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import copy
import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind13_truth as b13
from evaluation import blind17_truth as b17
from evaluation import blind24_truth as b24
from evaluation import blind25_truth as b25
from evaluation import blind26_truth as b26
from evaluation.blind3_truth import Tenant, TruthError, money

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind28" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind28-corpus")
_OWN_OPS = ("period_ranking",)
_RANK_KEYS = ("n", "order", "rank_by")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _period_key(day: dt.date, by: str) -> str:
    if by == "month":
        return f"{day.year:04d}-{day.month:02d}"
    if by == "quarter":
        return f"{day.year:04d}-Q{(day.month - 1) // 3 + 1}"
    raise TruthError(f"period_ranking ranks months or quarters, not {by!r}")


def _period_labels(key: str) -> list[str]:
    year, rest = key.split("-")
    if rest.startswith("Q"):
        return [f"{rest} {year}", f"{rest}/{year}", f"{rest}-{year}"]
    name = _MONTHS[int(rest) - 1]
    return [f"{name} {year}", f"{name[:3]} {year}", f"{name[:3]}. {year}"]


def _period_ranking(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if spec.get("basis"):
        raise TruthError("a period ranking is on gross spend only")
    plain = {k: v for k, v in spec.items() if k not in _RANK_KEYS}
    b24.expect(t, plain | {"op": "figure"}, as_of)  # the period, name and non-empty checks of the earlier sets
    by = str(spec.get("rank_by", "month"))
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in b3.select(t, b13._plain(t, plain)):
        totals[_period_key(ln.invoice_date, by)] += ln.spend
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if len(ranked) <= n:
        raise TruthError(f"{len(ranked)} {by}s with spend: a top {n} would rank all of them")
    if money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the ranking cut")
    if any(money(a[1]) == money(b[1]) for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    return {"kind": "ranking", "items": [[k, money(v)] for k, v in top],
            "labels": {k: _period_labels(k) for k, _ in top}}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "period_ranking":
        return _period_ranking(t, spec, as_of)
    if op in b25._OWN_OPS:
        return b25.expect(t, spec, as_of)
    if op in b26._OWN_OPS or op == "unit_price_change" or spec.get("reason") == "missing_context":
        return b26.expect(t, spec, as_of)
    return b24.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
def _own_copy(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """:func:`expect` with no object shared between answers (the supplier labels), so the YAML needs no anchors."""
    return copy.deepcopy(expect(t, spec, as_of))


compute, check = b17.rooted(_own_copy, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind28_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
