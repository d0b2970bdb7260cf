"""Expected answers of the ninth blind set (``eval/blind9/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...) and
without asking the system: it reuses the corpus reader, the accounting policy and the spec shapes of the earlier
sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind8_truth`: plain Python ``Decimal`` over
the files ``procura demo generate`` writes) and adds what the ninth set needs:

* the latest unit price of a product (``op: latest_unit_price``): net per unit on the newest counted invoice line
  (EUR lines only, so that no conversion reading enters); two lines on the newest date with different prices make
  "latest" ambiguous and are refused;
* ``distinct_from`` for every kind of answer (the eighth set compared figures and rows only): a list, ranking or
  share asked with a filter must differ from the answer without it, so that an answer that drops the filter is not
  scored exact by accident;
* ``proper_share``: a share must lie strictly between 0 and 100 %, so that "all of it" or "none of it" is not
  matched by an answer that read the part as the whole;
* ``paid_reading``: a question that says what "we paid" (a unit price, a spend) may be read as "invoices with
  status paid" or as every counted invoice; the answer must be the same under both readings;
* ``nonempty`` also refuses a figure of zero (a question written to have data must not sum to nothing).

The eighth set's checks (``same_gross_net``, ``same_as``, ``nonempty``, ties at a ranking cut or inside a ranking,
totals on a range bound, rolling-window and to-date boundaries) apply unchanged through
:func:`evaluation.blind8_truth.expect`.

``python -m evaluation.blind9_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind8_truth as b8
from evaluation.blind3_truth import Tenant, TruthError, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind9" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind9-corpus")
_OWN_KEYS = ("distinct_from", "proper_share", "paid_reading")


def _latest_unit_price(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Net price per unit on the newest counted invoice line of the selection (EUR lines only)."""
    lines = select(t, {**spec, "document_types": ["invoice"]})
    if not lines:
        return {"kind": "figure", "value": None, "lines": 0, "status": "no_data", "currency": "EUR"}
    newest = max(ln.invoice_date for ln in lines)
    last = [ln for ln in lines if ln.invoice_date == newest]
    if any(ln.currency != "EUR" for ln in last):
        raise TruthError("the newest line is not billed in EUR (the price would depend on a conversion)")
    prices = {(ln.net / ln.quantity).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP) for ln in last}
    if len(prices) > 1:
        raise TruthError(f"two lines on the newest date {newest} with different unit prices")
    return {"kind": "figure", "value": str(prices.pop()), "lines": 1, "status": "complete", "currency": "EUR"}


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    keys = ("value", "rows", "ids", "items", "percent", "current", "base", "reporting")
    return all(a.get(k) == b.get(k) for k in keys)


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if spec["op"] == "latest_unit_price":
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**plain, "op": "figure"}, as_of)  # the boundary checks only
        out = _latest_unit_price(t, plain)
        if plain.get("nonempty") and out["value"] is None:
            raise TruthError("the question is written to have data, the selection has none")
    else:
        out = b8.expect(t, plain, as_of)
    if plain.get("nonempty") and out.get("kind") == "figure" and out.get("value") is not None and \
            Decimal(str(out["value"])) == 0:
        raise TruthError("the question is written to have data, the selection sums to zero")
    bare = {k: v for k, v in plain.items() if k not in b8._CHECK_KEYS}
    if spec.get("distinct_from"):
        other = expect(t, {**bare, **spec["distinct_from"]}, as_of)
        if _same(out, other):
            raise TruthError(f"the answer does not depend on the filter: {spec['distinct_from']!r}")
    if spec.get("proper_share"):
        pct = out.get("percent")
        if pct is None or not Decimal(0) < Decimal(pct) < Decimal(100):
            raise TruthError(f"the share is not strictly between 0 and 100 %: {pct}")
    if spec.get("paid_reading"):
        other = expect(t, {**bare, "statuses": ["paid"]}, as_of)
        if not _same(out, other):
            raise TruthError("the reading 'status paid' of what we paid changes the answer")
    return out


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind9_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
