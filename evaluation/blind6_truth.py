"""Expected answers of the sixth blind set (``eval/blind6/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...): it reuses
the corpus reader and spec shapes of the third and fifth sets' calculators (:mod:`evaluation.blind3_truth`,
:mod:`evaluation.blind5_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the sixth set asks for:

* rankings of products or product groups (``rank_by: product | group | top_group``; labelled by catalog names);
* the largest / smallest single invoice of a selection (``op: extreme_invoice``, a one-id list);
* a document fact read from the version in effect on a date written in the question (``at``), not the as-of date;
* invoices whose total lies in an amount range (``op: amount_range``, ``low``/``high``; no total on a bound);
* checks that keep a question's readings from diverging: a period written as "between X and Y" or "to date" (as in
  the earlier sets), a "pay" that may mean paid or counted (``same_as_counted``), and an ambiguous name that is no
  known alias (``candidates``).

``python -m evaluation.blind6_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation.blind3_truth import Tenant, TruthError, _d, _list, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind6" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind6-corpus")


def _ranking(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Top/bottom N by spend of suppliers (the fifth set's shape), products or product groups."""
    by = spec.get("rank_by", "supplier")
    if by == "supplier":
        return b5._ranking(t, spec)
    keys = {
        "product": lambda ln: ln.product,
        "group": lambda ln: t.products[ln.product][1],
        "top_group": lambda ln: t.top(t.products[ln.product][1]),
    }
    if by not in keys:
        raise TruthError(f"unknown rank_by {by!r}")
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, spec):
        totals[keys[by](ln)] += ln.spend
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if len(ranked) > n and money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the ranking cut")
    if any(money(a[1]) == money(b[1]) for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    names = {k: t.products[k][0] for k, _ in top} if by == "product" else {k: t.groups[k][0] for k, _ in top}
    labels = {k: [name] for k, name in names.items()}
    return {"kind": "ranking", "items": [[k, money(v)] for k, v in top], "labels": labels}


def _extreme_invoice(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The single invoice (type invoice) with the largest (``order: desc``) or smallest gross EUR total."""
    totals = b5._invoice_totals(t, spec)
    if not totals:
        return {"kind": "list", "ids": []}
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    if len(ranked) > 1 and money(ranked[0][1]) == money(ranked[1][1]):
        raise TruthError("two invoices tie for the extreme")
    return {"kind": "list", "ids": [ranked[0][0]]}


def _amount_range(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Invoices whose gross EUR total lies between ``low`` and ``high``; no total may sit on a bound, so that the
    inclusive and the exclusive reading of "between" agree."""
    low, high = Decimal(str(spec["low"])), Decimal(str(spec["high"]))
    totals = b5._invoice_totals(t, spec)
    if any(money(v) in (money(low), money(high)) for v in totals.values()):
        raise TruthError("an invoice total sits on a bound of the range")
    return {"kind": "list", "ids": sorted(n for n, v in totals.items() if low <= v <= high)}


def _check_candidates(t: Tenant, spec: Mapping[str, Any]) -> None:
    """An ambiguous supplier name must be one edit (or a shared word) from every candidate, and no alias itself."""
    for name in _list(spec.get("names")):
        if b3.normalize(name) in t.aliases:
            raise TruthError(f"{t.tenant}: {name!r} is a known supplier alias (not ambiguous)")
    for cand in _list(spec.get("candidates")):
        if cand not in t.suppliers:
            raise TruthError(f"{t.tenant}: candidate {cand} is no supplier")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op in ("document", "not_found") and spec.get("at"):
        # "what did agreement X say on <date>": the version in effect on that date
        return b3._document(t, spec, _d(spec["at"]))
    if op == "ranking":
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**spec, "op": "figure"}, as_of)  # the fifth set's boundary checks
        return _ranking(t, spec)
    if op == "extreme_invoice":
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**spec, "op": "figure"}, as_of)
        return _extreme_invoice(t, spec)
    if op == "amount_range":
        return _amount_range(t, spec)
    if spec.get("same_as_counted"):  # a status filter that the question's other reading (all counted) must equal
        plain = {k: v for k, v in spec.items() if k not in ("statuses", "same_as_counted")}
        if b5.expect(t, plain, as_of) != b5.expect(t, {**spec, "same_as_counted": False}, as_of):
            raise TruthError("the status filter changes the figure: the question is ambiguous")
    if op == "clarification":
        if spec.get("reason") == "ambiguous_supplier":
            _check_candidates(t, spec)
        return b5.expect(t, spec, as_of)
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    return b5.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind6_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
