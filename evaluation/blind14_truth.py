"""Expected answers of the fourteenth blind set (``eval/blind14/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind12_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
what the fourteenth set needs:

* ``window``: a rolling window written relative to the as-of date ("letzte 60 Tage", "the last 30 days"):
  ``{days: N}`` is the N days ending on the as-of date, ``[as_of - N + 1, as_of + 1)``; the calculator derives the
  dates and refuses a spec whose ``start``/``end`` were typed otherwise, and it requires that no selected line is
  dated on the day before the window nor on the as-of date, so that the readings "N days back from as-of" and
  "N days before as-of" agree;
* ``previous``: a change against the period before ("Vorquartal", "previous month", "prior year"): ``quarter``,
  ``month`` or ``year``; the comparison period must be the unit just before the current one, and the current one
  must be a whole unit of that kind;
* the monthly run-rate of a selection (``op: run_rate``): the spend of whole calendar months divided by their
  number (EUR, rounded to cents); the spec's period must start on the first of a month and end on the first of a
  month, and no month of it may lie after the as-of date;
* the checks of the twelfth set (``typo``, ``relative``, ``product_list``) and of the earlier sets
  (``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``, ``invoice_list``, ``supplier_list``,
  ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, no tie at a ranking cut
  or inside a ranking, the net reading of thresholds, totals on a range bound, rolling-window and to-date
  boundaries) apply unchanged through :func:`evaluation.blind12_truth.expect`.

``python -m evaluation.blind14_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind7_truth as b7
from evaluation import blind12_truth as b12
from evaluation.blind3_truth import Tenant, TruthError, _d, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind14" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind14-corpus")
_OWN_KEYS = ("window", "previous")


def window_period(as_of: dt.date, days: int) -> tuple[dt.date, dt.date]:
    """[start, end) of the ``days`` days ending on ``as_of``."""
    return as_of - dt.timedelta(days=days - 1), as_of + dt.timedelta(days=1)


def _check_window(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> None:
    start, end = window_period(as_of, int(spec["window"]["days"]))
    if (_d(spec["start"]), _d(spec["end"])) != (start, end):
        raise TruthError(f"window {spec['window']!r} on {as_of} is [{start}, {end}), "
                         f"the spec says [{spec['start']}, {spec['end']})")
    bare = {k: v for k, v in spec.items() if k not in (*_OWN_KEYS, "op")}
    if select(t, {**bare, "start": as_of, "end": end}):
        raise TruthError(f"a selected line is dated on the as-of date {as_of}")
    b7._check_robust_start(t, bare)


def _unit_after(start: dt.date, unit: str) -> dt.date:
    return b12._back(start, unit, -1)


def _check_previous(spec: Mapping[str, Any]) -> None:
    unit = str(spec["previous"])
    start, end = _d(spec["start"]), _d(spec["end"])
    if b12._unit_start(start, unit) != start or _unit_after(start, unit) != end:
        raise TruthError(f"the current period [{start}, {end}) is not one whole {unit}")
    base = (b12._back(start, unit, 1), start)
    if (_d(spec["base_start"]), _d(spec["base_end"])) != base:
        raise TruthError(f"the {unit} before [{start}, {end}) is [{base[0]}, {base[1]}), "
                         f"the spec compares with [{spec['base_start']}, {spec['base_end']})")


def _run_rate(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """Spend of whole calendar months divided by their number (EUR, cents)."""
    start, end = _d(spec["start"]), _d(spec["end"])
    if start.day != 1 or end.day != 1 or end <= start:
        raise TruthError("a run-rate needs whole calendar months")
    if end > b12._unit_start(as_of, "month"):
        raise TruthError("a run-rate month lies after (or holds) the as-of date")
    months = (end.year - start.year) * 12 + end.month - start.month
    lines = select(t, spec)
    if not lines:
        raise TruthError("the question is written to have data, the selection has none")
    total = sum((ln.spend for ln in lines), Decimal(0))
    if total == 0:
        raise TruthError("the run-rate sums to zero")
    return {"kind": "figure", "value": money(total / months), "lines": len(lines), "status": "complete",
            "currency": "EUR"}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec.get("window"):
        _check_window(t, spec, as_of)
    if spec.get("previous"):
        _check_previous(spec)
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    if plain["op"] == "clarification" and "intended" in plain:
        intended = {k: v for k, v in plain["intended"].items() if k not in _OWN_KEYS}
        plain = {**plain, "intended": intended}
    if plain["op"] == "run_rate":
        if plain.get("typo"):
            b12._check_typo(t, plain)
        return _run_rate(t, {k: v for k, v in plain.items() if k not in b12._OWN_KEYS}, as_of)
    return b12.expect(t, plain, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind14_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
