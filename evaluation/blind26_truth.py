"""Expected answers of the twenty-sixth blind set (``eval/blind26/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind24_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-sixth set (executives and
a new junior buyer talking to a voice assistant: lowercase speech-to-text transcripts with spelled-out numbers,
mis-heard names, rough asks and follow-ups without context) needs:

* companies ranked by spend (``op: company_ranking``, ``n``, ``order``: "which of our companies spent the most",
  "rank our companies by spend"): per company of the tenant, the gross EUR spend of the selection (the earlier
  policy), ranked; no tie at the cut or inside the ranking; the items are company ids labelled with the company
  names of ``companies.json``; every period and name check of the earlier sets runs on the same selection taken as a
  figure first; scored with the existing ``ranking`` shape;
* the difference between two selections (``op: difference``, ``a`` and ``b``: the keys that make each side,
  the rest of the spec shared: "how much more did we spend with Gamma than with Beta", "how much more did Kestrel
  spend than Alpenland"): ``current`` is side ``a``, ``base`` side ``b``, ``delta`` = a - b from the exact sums
  rounded half away from zero to cents, ``percent`` = 100 * delta / b; the calculator refuses a question whose side
  ``a`` is not larger than side ``b`` (the wording says "more"), a side without data, and a delta whose exact and
  presented (difference of the rounded sides) readings differ by a cent; scored with the existing ``change`` shape
  with ``want: abs`` (the amount more; the percent is stored for information only);
* the twenty-third set's ``unit_price_change``, which the twenty-fourth set's dispatcher does not reach, is
  dispatched here beside the twenty-fourth set's ops;
* follow-up questions without context ("and what about the previous quarter", "same for the other company"): a
  clarification with ``reason: missing_context`` and the ``topics`` the asked-back question must be about (the
  scorer takes a question's own ``topics``); the calculator requires at least one topic;
* everything else (``status_counts``, ``cutoff_list`` of the twenty-fourth set; ``overdue``, ``unknown_invoice``,
  ``approval_stable``, ``projection``, ``avg_invoice_value``, ``concentration`` of the nineteenth and twenty-first;
  ``list_price``, ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists and rankings and the
  clarification checks of the twenty-second; ``invoices``, ``basis``, ``credit_note_origin``;
  ``unit_price_ranking``; ``duplicate_list``, ``unapproved_vendors``, ``status_matters``; ``fiscal``, exclusions
  with ``excluding_matters``, ``window``, ``previous``, ``relative``, ``typo``, ``nonempty`` by default,
  ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``, ``inclusive_end``, ``distinct_from``,
  ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, ties, the net reading of thresholds, the
  agreement version in effect on the as-of date or ``at``) applies unchanged through
  :func:`evaluation.blind24_truth.expect`.

``python -m evaluation.blind26_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind13_truth as b13
from evaluation import blind17_truth as b17
from evaluation import blind23_truth as b23
from evaluation import blind24_truth as b24
from evaluation.blind3_truth import Tenant, TruthError, money

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind26" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind26-corpus")
_OWN_OPS = ("company_ranking", "difference")
_RANK_KEYS = ("n", "order")
_SIDE_KEYS = ("a", "b", "want")
#: keys whose meaning the exact sums of a difference would not see (they rewrite the tenant or the suppliers)
_NOT_IN_DIFFERENCE = ("basis", "invoices", "approved_vendors", "unapproved_vendors")
_CENT = Decimal("0.01")


def _selection(t: Tenant, spec: Mapping[str, Any]) -> list[b3.Line]:
    return b3.select(t, b13._plain(t, spec))


def _company_ranking(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    plain = {k: v for k, v in spec.items() if k not in _RANK_KEYS}
    b24.expect(t, plain | {"op": "figure"}, as_of)  # the period, name and non-empty checks of the earlier sets
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in _selection(t, plain):
        totals[ln.company] += ln.spend
    if len(totals) < 2:
        raise TruthError("a company ranking needs at least two companies with spend")
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if n > len(ranked):
        raise TruthError(f"{len(ranked)} companies with spend, the question ranks {n}")
    if len(ranked) > n and money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the ranking cut")
    if any(money(a[1]) == money(b[1]) for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    return {"kind": "ranking", "items": [[c, money(v)] for c, v in top],
            "labels": {c: [t.companies[c]] for c, _ in top}}


def _difference(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if any(spec.get(k) for k in _NOT_IN_DIFFERENCE):
        raise TruthError(f"a difference takes none of {_NOT_IN_DIFFERENCE}")
    shared = {k: v for k, v in spec.items() if k not in _SIDE_KEYS}
    sides = []
    for key in ("a", "b"):
        side = shared | dict(spec[key]) | {"op": "figure"}
        shown = b24.expect(t, side, as_of)  # every check of the earlier sets, incl. non-empty
        if shown.get("value") is None:
            raise TruthError(f"side {key} has no data")
        exact = sum((ln.spend for ln in _selection(t, side)), Decimal(0))
        if money(exact) != shown["value"]:
            raise TruthError(f"side {key}: exact sum {exact} does not present as {shown['value']}")
        sides.append((exact, Decimal(shown["value"])))
    (a_exact, a_shown), (b_exact, b_shown) = sides
    if a_exact <= b_exact:
        raise TruthError("side a is not larger than side b: the question asks how much more")
    delta = money(a_exact - b_exact)
    if Decimal(delta) != a_shown - b_shown:
        raise TruthError("the exact and the presented difference differ by a cent")
    percent = (100 * (a_exact - b_exact) / b_exact).quantize(_CENT, rounding=ROUND_HALF_UP)
    return {"kind": "change", "current": str(a_shown), "base": str(b_shown), "delta": delta,
            "percent": str(percent), "want": str(spec.get("want", "abs"))}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "company_ranking":
        return _company_ranking(t, spec, as_of)
    if op == "difference":
        return _difference(t, spec, as_of)
    if op == "unit_price_change":
        return b23._unit_price_change(t, spec, as_of)
    if op == "clarification" and spec.get("reason") == "missing_context" and not b3._list(spec.get("topics")):
        raise TruthError("a follow-up without context names the topics the asked-back question must be about")
    return b24.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
def _own_copy(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """:func:`expect` with no object shared between answers (the supplier labels), so the YAML needs no anchors."""
    return copy.deepcopy(expect(t, spec, as_of))


compute, check = b17.rooted(_own_copy, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind26_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
