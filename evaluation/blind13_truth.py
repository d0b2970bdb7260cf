"""Expected answers of the thirteenth blind set (``eval/blind13/questions.yml``), from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind12_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the thirteenth set needs:

* exclusions beyond suppliers and product groups: ``exclude_products`` ("excluding the PT100 probe") and
  ``exclude_companies`` ("all companies other than Company B") are rewritten into the positive lists the earlier
  selection takes (the tenant's catalog codes / companies less the excluded ones, intersected with any positive list
  of the spec), so every later check sees an ordinary spec;
* ``excluding_matters``: every exclusion key of a spec (``exclude_suppliers``, ``exclude_groups``,
  ``exclude_products``, ``exclude_companies``) must change the answer when it is dropped, one key at a time, so that
  an answer that ignores "except X" / "ohne X" is never scored exact by accident;
* the twelfth set's shapes and checks (``product_list``, ``typo``, ``relative``) and the earlier ones
  (``expect_zero``, ``open_end``, ``nonempty`` by default, ``robust_end``, ``invoice_list``, ``supplier_list``,
  ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, no tie at a ranking cut or
  inside a ranking, the net reading of thresholds, totals on a range bound, rolling-window and to-date boundaries)
  apply unchanged through :func:`evaluation.blind12_truth.expect`.

``python -m evaluation.blind13_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation import blind12_truth as b12
from evaluation.blind3_truth import Tenant, TruthError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind13" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind13-corpus")
_EXCLUSIONS = ("exclude_suppliers", "exclude_groups", "exclude_products", "exclude_companies")
_OWN_KEYS = ("excluding_matters",)


def _positive(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The spec with ``exclude_products`` / ``exclude_companies`` turned into positive lists."""
    out = {k: v for k, v in spec.items() if k not in ("exclude_products", "exclude_companies", *_OWN_KEYS)}
    if spec.get("exclude_products"):
        dropped = set(b3._list(spec["exclude_products"]))
        unknown = dropped - set(t.products)
        if unknown:
            raise TruthError(f"{t.tenant}: excluded products {sorted(unknown)} are not in the catalog")
        keep = set(t.products) - dropped
        if spec.get("products"):
            keep &= set(b3._list(spec["products"]))
        out["products"] = sorted(keep)
    if spec.get("exclude_companies"):
        dropped = set(b3._list(spec["exclude_companies"]))
        if dropped - set(t.companies):
            raise TruthError(f"{t.tenant}: excluded companies {sorted(dropped - set(t.companies))} are unknown")
        keep = set(t.companies) - dropped
        if spec.get("company"):
            keep &= set(b3._list(spec["company"]))
        out["company"] = sorted(keep)
    return out


def _plain(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    out = _positive(t, spec)
    for key in ("parts",):
        if key in out:
            out[key] = [_plain(t, p) for p in out[key]]
    for key in ("intended", "part", "distinct_from"):
        if isinstance(out.get(key), Mapping):
            out[key] = _positive(t, out[key])
    return out


def _check_exclusions(t: Tenant, spec: Mapping[str, Any], as_of: dt.date, got: Mapping[str, Any]) -> None:
    keys = [k for k in _EXCLUSIONS if spec.get(k)]
    if not keys:
        raise TruthError("excluding_matters on a spec without an exclusion")
    for key in keys:
        without = {k: v for k, v in spec.items() if k not in (key, *_OWN_KEYS)}
        if b12.expect(t, _plain(t, without), as_of) == got:
            raise TruthError(f"dropping {key} gives the same answer: the exclusion does not matter")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    got = b12.expect(t, _plain(t, spec), as_of)
    if spec.get("excluding_matters"):
        _check_exclusions(t, spec, as_of, got)
    return got


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind13_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
