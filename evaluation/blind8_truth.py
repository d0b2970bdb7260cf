"""Expected answers of the eighth blind set (``eval/blind8/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...) and
without asking the system: it reuses the corpus reader, the accounting policy and the spec shapes of the earlier
sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind7_truth`: plain Python ``Decimal`` over
the files ``procura demo generate`` writes) and adds the checks the eighth set needs so that no question keeps two
readings:

* ``same_gross_net``: a spend figure, ranking or breakdown asked with an amount word that could be read net must
  not depend on it (rankings and breakdowns keep their order and rows under the net reading); thresholds are
  checked under both readings as in the seventh set;
* ``distinct_from``: a figure asked for one status (or one company, one currency ...) must differ from the figure
  without that restriction, so that an answer that drops the filter is not scored exact by accident;
* ``same_as``: the opposite check, for a word that may or may not take something in ("how many invoices was
  that" after a spend that counts credit notes): the figure must not change when it is taken in;
* ``nonempty``: a question written to have data must have it (a list, a table, a figure), so that a slip in the
  spec does not turn the question into a "no data" one;
* suppliers ranked by their number of invoices (``op: count_ranking``, type invoice only; no tie at the cut or
  inside the ranking).

``python -m evaluation.blind8_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind7_truth as b7
from evaluation.blind3_truth import Tenant, TruthError, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind8" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind8-corpus")
_CHECK_KEYS = ("same_gross_net", "distinct_from", "same_as", "nonempty")


def _plain(spec: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k not in _CHECK_KEYS}


def _empty(out: Mapping[str, Any]) -> bool:
    kind = out.get("kind")
    if kind == "figure":
        return out.get("value") is None
    if kind in ("table", "currency"):
        return not out.get("rows")
    if kind == "list":
        return not out.get("ids")
    if kind == "ranking":
        return not out.get("items")
    if kind == "share":
        return out.get("percent") is None
    if kind == "change":
        return out.get("current") is None or out.get("base") is None
    return False


def _count_ranking(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Top/bottom N suppliers by the number of distinct invoices (credit notes not counted)."""
    docs: dict[str, set[str]] = defaultdict(set)
    for ln in select(t, {**spec, "document_types": ["invoice"]}):
        docs[ln.supplier].add(ln.document_id)
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(((s, len(d)) for s, d in docs.items()), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if len(ranked) > n and ranked[n - 1][1] == ranked[n][1]:
        raise TruthError("a tie at the ranking cut")
    if any(a[1] == b[1] for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    return {"kind": "ranking", "items": [[s, str(c)] for s, c in top], "labels": {s: t.names[s] for s, _ in top}}


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    plain = _plain(spec)
    if spec["op"] == "count_ranking":
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**plain, "op": "figure"}, as_of)  # the boundary checks only
        out = _count_ranking(t, plain)
    else:
        out = b7.expect(t, plain, as_of)
    if spec.get("nonempty") and _empty(out):
        raise TruthError("the question is written to have data, the selection has none")
    if spec.get("same_gross_net"):
        net = b7.expect(b7._net_lines(t), plain, as_of)
        if out.get("kind") == "ranking":
            same = [k for k, _ in out["items"]] == [k for k, _ in net["items"]]
        elif out.get("kind") == "table":
            same = sorted(out["rows"]) == sorted(net["rows"])
        else:
            same = out.get("ids") == net.get("ids")
        if not same:
            raise TruthError("the net reading of the amount changes the answer")
    if spec.get("distinct_from"):
        other = b7.expect(t, {**plain, **spec["distinct_from"]}, as_of)
        if other.get("value") == out.get("value") and other.get("rows") == out.get("rows"):
            raise TruthError(f"the figure does not depend on the filter: {spec['distinct_from']!r}")
    if spec.get("same_as"):
        other = b7.expect(t, {**plain, **spec["same_as"]}, as_of)
        if other.get("value") != out.get("value"):
            raise TruthError(f"the other reading changes the figure: {spec['same_as']!r} gives {other.get('value')}")
    return out


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind8_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
