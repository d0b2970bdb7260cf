"""Expected answers of the fifteenth blind set (``eval/blind15/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind14_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes). The
fifteenth set (month-end close in accounts payable) needs one combination the earlier calculators keep apart:

* the thirteenth set's exclusions (``exclude_products``, ``exclude_companies`` rewritten into positive lists, and
  ``excluding_matters``: every exclusion key must change the answer when dropped) together with the fourteenth
  set's shapes (``window``, ``previous``, ``op: run_rate``) and, through them, every check of the earlier sets
  (``nonempty`` by default, ``typo``, ``relative``, ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``,
  ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, no tie
  at a ranking cut or inside a ranking, the net reading of thresholds, no total on a range bound);
* ``status_matters``: a question about one invoice status ("open", "draft", "cancelled", "already paid") must give
  another answer when its ``statuses`` are dropped (the default counted statuses), so that an answer that ignores
  the status word is never scored exact by accident.

``python -m evaluation.blind15_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from evaluation.blind3_truth import Tenant, TruthError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind15" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind15-corpus")
_OWN_KEYS = ("excluding_matters", "status_matters")


def _positive(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The spec with the thirteenth set's exclusions rewritten (also inside ``parts``, ``part``, ``intended`` ...)."""
    out = b13._plain(t, {k: v for k, v in spec.items() if k != "status_matters"})
    if isinstance(out.get("intended"), Mapping):
        out["intended"] = b13._plain(t, out["intended"])
    return out


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    got = b14.expect(t, _positive(t, spec), as_of)
    if spec.get("excluding_matters"):
        keys = [k for k in b13._EXCLUSIONS if spec.get(k)]
        if not keys:
            raise TruthError("excluding_matters on a spec without an exclusion")
        for key in keys:
            without = {k: v for k, v in spec.items() if k not in (key, *_OWN_KEYS)}
            if b14.expect(t, _positive(t, without), as_of) == got:
                raise TruthError(f"dropping {key} gives the same answer: the exclusion does not matter")
    if spec.get("status_matters"):
        if not spec.get("statuses"):
            raise TruthError("status_matters on a spec without statuses")
        without = {k: v for k, v in spec.items() if k not in ("statuses", *_OWN_KEYS)}
        if b14.expect(t, _positive(t, without), as_of) == got:
            raise TruthError("dropping the status filter gives the same answer: the status word does not matter")
    return got


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind15_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
