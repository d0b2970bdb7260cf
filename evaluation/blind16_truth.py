"""Expected answers of the sixteenth blind set (``eval/blind16/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind14_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the sixteenth set (board packs and quarterly reviews) needs:

* the exclusions of the thirteenth set (``exclude_products``, ``exclude_companies`` rewritten into positive lists;
  ``excluding_matters``: dropping any one exclusion key must change the answer) combined with the fourteenth set's
  ``window`` and ``previous`` periods, which :mod:`evaluation.blind14_truth` alone does not take together with
  the thirteenth set's exclusion rewriting;
* ``fiscal``: a period written as a fiscal period ("FY26", "H2 FY2025", "Q1 FY26") is the calendar period of that
  name, since every company of the corpus reports on the calendar year; the key names the unit
  (``year``, ``half``, ``quarter``) and the calculator refuses a spec whose ``start``/``end`` are not one whole
  calendar unit of that kind;
* everything else (``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``,
  ``relative``, ``typo``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``,
  no tie at a ranking cut or inside a ranking, the net reading of thresholds, rolling-window boundaries) applies
  unchanged through :func:`evaluation.blind14_truth.expect`.

``python -m evaluation.blind16_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation import blind13_truth as b13
from evaluation import blind14_truth as b14
from evaluation.blind3_truth import Tenant, TruthError, _d

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind16" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind16-corpus")
_OWN_KEYS = ("fiscal",)
_MONTHS = {"year": 12, "half": 6, "quarter": 3}


def _check_fiscal(spec: Mapping[str, Any]) -> None:
    unit = str(spec["fiscal"])
    if unit not in _MONTHS:
        raise TruthError(f"unknown fiscal unit {unit!r}")
    start, end = _d(spec["start"]), _d(spec["end"])
    months = _MONTHS[unit]
    if start.day != 1 or (start.month - 1) % months:
        raise TruthError(f"a fiscal {unit} starts on the first day of a calendar {unit}, not {start}")
    index = start.year * 12 + start.month - 1 + months
    if end != dt.date(index // 12, index % 12 + 1, 1):
        raise TruthError(f"[{start}, {end}) is not one whole fiscal {unit}")


def _bare(spec: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if isinstance(out.get("intended"), Mapping):
        out["intended"] = _bare(out["intended"])
    return out


def _answer(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    return b14.expect(t, b13._plain(t, spec), as_of)


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec.get("fiscal"):
        _check_fiscal(spec)
    plain = _bare(spec)
    got = _answer(t, plain, as_of)
    if plain.get("excluding_matters"):
        keys = [k for k in b13._EXCLUSIONS if plain.get(k)]
        if not keys:
            raise TruthError("excluding_matters on a spec without an exclusion")
        for key in keys:
            if _answer(t, {k: v for k, v in plain.items() if k != key}, as_of) == got:
                raise TruthError(f"dropping {key} gives the same answer: the exclusion does not matter")
    return got


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind16_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
