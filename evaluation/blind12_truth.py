"""Expected answers of the twelfth blind set (``eval/blind12/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind11_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the twelfth set needs:

* the products of a selection as a list (``op: product_list``: catalog codes with at least one counted line, e.g.
  "which products did we buy from Zeta in Q1"; a product whose lines net to zero still counts, it was bought);
* ``typo``: a supplier written with a one-letter slip ("Nortwind") must not be a known alias itself, must lie one
  edit (insertion, deletion, substitution or swap of neighbours) from an alias of the spec's supplier, and more than
  one edit from every alias of every other supplier, so that the intended supplier is the only fair reading;
* ``relative``: a period written relative to the as-of date ("last quarter", "the past two full months", "this
  year so far") carries its unit and count, and the calculator derives the dates from the question's as-of date
  and refuses a spec whose ``start``/``end`` were typed otherwise (``{unit: quarter|month|year, back: N}``: the N
  complete units before the one holding as-of; ``back: 0``: the unit holding as-of, to date);
* the checks of the eleventh set (``expect_zero``, ``open_end``) and of the earlier sets (``nonempty`` by default,
  ``robust_end``, ``invoice_list``, ``supplier_list``, ``distinct_from``, ``proper_share``, ``paid_reading``,
  ``same_gross_net``, ``same_as``, no tie at a ranking cut or inside a ranking, the net reading of thresholds,
  totals on a range bound, rolling-window and to-date boundaries) apply unchanged through
  :func:`evaluation.blind11_truth.expect`.

``python -m evaluation.blind12_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind8_truth as b8
from evaluation import blind9_truth as b9
from evaluation import blind10_truth as b10
from evaluation import blind11_truth as b11
from evaluation.blind3_truth import Tenant, TruthError, _d, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind12" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind12-corpus")
_OWN_KEYS = ("typo", "relative")
_LIST_CHECKS = (*b8._CHECK_KEYS, *b9._OWN_KEYS, *b10._OWN_KEYS, *b11._OWN_KEYS)


def _product_list(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Catalog codes with at least one counted line in the selection."""
    return {"kind": "list", "ids": sorted({ln.product for ln in select(t, spec)})}


def _expect_products(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if spec.get("to_date") or spec.get("inclusive_end"):
        b5.expect(t, {**spec, "op": "figure"}, as_of)  # the boundary checks only
    if spec.get("robust_end"):
        b10._check_robust_end(t, spec)
    bare = {k: v for k, v in spec.items() if k not in _LIST_CHECKS}
    out = _product_list(t, bare)
    if spec.get("distinct_from") and _product_list(t, {**bare, **spec["distinct_from"]}) == out:
        raise TruthError(f"the answer does not depend on the filter: {spec['distinct_from']!r}")
    if not out["ids"] and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, the selection has none")
    return out


def _one_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or neighbour swap."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _near(name: str, alias: str) -> bool:
    """One edit apart, as whole names or in one word of the name (the other words equal)."""
    if _one_edit(name, alias):
        return True
    w1, w2 = name.split(), alias.split()
    if len(w1) > len(w2) or not w1:
        return False
    for start in range(len(w2) - len(w1) + 1):
        window = w2[start:start + len(w1)]
        diffs = [(x, y) for x, y in zip(w1, window, strict=True) if x != y]
        if len(diffs) == 1 and _one_edit(*diffs[0]):
            return True
    return False


def _check_typo(t: Tenant, spec: Mapping[str, Any]) -> None:
    name = b3.normalize(str(spec["typo"]))
    if name in t.aliases:
        raise TruthError(f"{t.tenant}: {spec['typo']!r} is a known alias, not a slip")
    wanted = set(b3._list(spec.get("suppliers")))
    if len(wanted) != 1:
        raise TruthError("a misspelt supplier needs exactly one intended supplier in the spec")
    near = {sid for alias, sid in t.aliases.items() if _near(name, alias)}
    if near != wanted:
        raise TruthError(f"{t.tenant}: {spec['typo']!r} is one edit from {sorted(near)}, the spec wants {wanted}")


def _unit_start(d: dt.date, unit: str) -> dt.date:
    if unit == "month":
        return d.replace(day=1)
    if unit == "quarter":
        return d.replace(month=(d.month - 1) // 3 * 3 + 1, day=1)
    if unit == "year":
        return d.replace(month=1, day=1)
    raise TruthError(f"unknown relative unit {unit!r}")


def _back(d: dt.date, unit: str, n: int) -> dt.date:
    months = {"month": 1, "quarter": 3, "year": 12}[unit] * n
    index = d.year * 12 + d.month - 1 - months
    return dt.date(index // 12, index % 12 + 1, 1)


def relative_period(as_of: dt.date, relative: Mapping[str, Any]) -> tuple[dt.date, dt.date]:
    """[start, end) of a period written relative to ``as_of`` (see the module docstring)."""
    unit, back = str(relative["unit"]), int(relative["back"])
    current = _unit_start(as_of, unit)
    if back == 0:
        return current, as_of + dt.timedelta(days=1)
    return _back(current, unit, back), current


def _check_relative(spec: Mapping[str, Any], as_of: dt.date) -> None:
    start, end = relative_period(as_of, spec["relative"])
    if (_d(spec["start"]), _d(spec["end"])) != (start, end):
        raise TruthError(f"relative period {spec['relative']!r} on {as_of} is [{start}, {end}), "
                         f"the spec says [{spec['start']}, {spec['end']})")
    if int(spec["relative"]["back"]) == 0 and not spec.get("to_date"):
        raise TruthError("a period 'so far' must carry to_date (no line on the as-of date)")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec.get("typo"):
        _check_typo(t, spec)
    if spec.get("relative"):
        _check_relative(spec, as_of)
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if spec["op"] == "clarification" and "intended" in plain:
        plain = {**plain, "intended": {k: v for k, v in plain["intended"].items() if k not in _OWN_KEYS}}
    if plain["op"] != "product_list":
        return b11.expect(t, plain, as_of)
    out = _expect_products(t, {k: v for k, v in plain.items() if k != "open_end"}, as_of)
    if plain.get("open_end"):
        cut = as_of + dt.timedelta(days=1)
        if _d(plain["end"]) <= cut or _product_list(t, {**plain, "end": cut.isoformat()}) != out:
            raise TruthError("open_end: the period does not run past as-of, or its cut gives another answer")
    return out


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind12_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
