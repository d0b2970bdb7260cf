"""Expected answers of the nineteenth blind set (``eval/blind19/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind18_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the nineteenth set (FP&A and group controlling: spend reviews, forecast inputs, run-rates, mixes, currency
exposure) needs:

* a run-rate projected over a horizon (``op: projection``, ``horizon_months``: "annualised", "if April's pace
  holds, what would Q2 land at"): the spend of the spec's whole calendar months divided by their number, times the
  horizon, in EUR rounded to cents at the end only; the period must be whole calendar months none of which holds or
  follows the as-of date (the fourteenth set's run-rate rules, checked through it);
* the average invoice value (``op: avg_invoice_value``): the gross EUR totals (net + tax, converted per the policy)
  of the counted documents of type ``invoice`` of the selection, summed and divided by their number (credit notes
  are not invoices and are left out), rounded to cents; a figure with currency EUR;
* supplier concentration (``op: concentration``, ``n``): the share of the selection's spend that its top ``n``
  suppliers by spend hold, in percent; the calculator ranks the suppliers itself, refuses a tie at the cut and a
  selection with no more than ``n`` suppliers (that share would be 100 %), and answers with the earlier sets'
  share shape (``part`` = the top ``n`` suppliers' spend, ``base`` = the selection's spend);
* everything else (``fiscal``, ``relative``, ``window``, ``previous``, ``to_date``, ``typo``, the exclusions with
  ``excluding_matters``, ``status_matters``, ``unapproved_vendors``, ``open_end``, ``robust_end``, ``nonempty`` by
  default, ``expect_zero``, ``distinct_from``, ``proper_share``, ``same_gross_net``, ``same_as``, ties, the net
  reading of thresholds, ``unit_price_ranking``) applies unchanged through :func:`evaluation.blind18_truth.expect`
  and :func:`evaluation.blind17_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kinds with its existing shapes: ``projection`` and
``avg_invoice_value`` as a ``figure`` with a currency, ``concentration`` as a ``share``.

``python -m evaluation.blind19_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluation import blind5_truth as b5
from evaluation import blind12_truth as b12
from evaluation import blind13_truth as b13
from evaluation import blind17_truth as b17
from evaluation import blind18_truth as b18
from evaluation.blind3_truth import Tenant, TruthError, _d, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind19" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind19-corpus")
_OWN_OPS = ("projection", "avg_invoice_value", "concentration")
_OWN_KEYS = ("horizon_months", "n")


def _inner(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The earlier sets' answer of a spec (the eighteenth set's unit-price ranking, else the seventeenth's chain)."""
    if spec["op"] == "unit_price_ranking":
        return b18.expect(t, spec, as_of)
    return b17.expect(t, spec, as_of)


def _selection(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The spec as a plain selection: exclusions rewritten, this set's own keys dropped."""
    return b13._plain(t, {k: v for k, v in spec.items() if k not in _OWN_KEYS})


def _projection(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    horizon = int(spec["horizon_months"])
    if horizon < 1:
        raise TruthError("a projection needs a horizon of at least one month")
    if spec.get("relative"):  # the fourteenth set's run-rate drops the twelfth set's keys unchecked
        b12._check_relative(spec, as_of)
    checked = _inner(t, {k: v for k, v in spec.items() if k not in _OWN_KEYS} | {"op": "run_rate"}, as_of)
    start, end = _d(spec["start"]), _d(spec["end"])
    months = (end.year - start.year) * 12 + end.month - start.month
    total = sum((ln.spend for ln in select(t, _selection(t, spec))), Decimal(0))
    return {"kind": "figure", "value": money(total * horizon / months), "lines": checked["lines"],
            "status": "complete", "currency": "EUR"}


def _avg_invoice_value(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    _inner(t, plain | {"op": "figure", "document_types": ["invoice"]}, as_of)  # the period and name checks
    totals = b5._invoice_totals(t, _selection(t, spec))
    if not totals:
        raise TruthError("the question is written to have data, no invoice matches")
    value = sum(totals.values(), Decimal(0)) / len(totals)
    return {"kind": "figure", "value": money(value), "lines": len(totals), "status": "complete", "currency": "EUR"}


def _concentration(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    n = int(spec["n"])
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, _selection(t, spec)):
        totals[ln.supplier] += ln.spend
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])
    if len(ranked) <= n:
        raise TruthError(f"{len(ranked)} suppliers in the selection: the top {n} hold all of it")
    if money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the concentration cut")
    share = {k: v for k, v in spec.items() if k not in _OWN_KEYS} | {
        "op": "share", "part": {"suppliers": sorted(s for s, _ in ranked[:n])}, "proper_share": True}
    return _inner(t, share, as_of)


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "projection":
        return _projection(t, spec, as_of)
    if op == "avg_invoice_value":
        return _avg_invoice_value(t, spec, as_of)
    if op == "concentration":
        return _concentration(t, spec, as_of)
    return _inner(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind19_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
