"""Expected answers of the fifth blind set (``eval/blind5/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...): it reuses
the corpus reader and the spec shapes of the third set's calculator (:mod:`evaluation.blind3_truth`, plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds what the fifth set asks for:

* breakdowns by quarter and by product code (``op: table``, ``by: quarter | product``);
* thresholds below / at most (``compare: lt | le``) beside above / at least (``gt | ge``), for invoice lists,
  supplier lists and invoice counts (``measure: invoice_count`` with ``threshold``);
* bottom-N rankings (``order: asc``);
* compound questions whose parts use these shapes.

``python -m evaluation.blind5_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the path is taken as in the third set's
calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation.blind3_truth import Line, Tenant, TruthError, _d, _list, load_corpus, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind5" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind5-corpus")
_COMPARE = {"gt": lambda v, x: v > x, "ge": lambda v, x: v >= x, "lt": lambda v, x: v < x, "le": lambda v, x: v <= x}


def _sum(lines: Sequence[Line]) -> Decimal:
    return sum((ln.spend for ln in lines), Decimal(0))


def _invoice_totals(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Decimal]:
    """Gross EUR total per invoice document (type invoice only) among the selected lines."""
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, {**spec, "document_types": ["invoice"]}):
        totals[ln.invoice_number] += ln.spend
    return totals


def _passes(value: Decimal, spec: Mapping[str, Any]) -> bool:
    compare = str(spec.get("compare", "gt"))
    if compare not in _COMPARE:
        raise TruthError(f"unknown compare {compare!r}")
    return _COMPARE[compare](value, Decimal(str(spec["threshold"])))


def _count(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Distinct documents among the selected lines; with a threshold, invoices whose gross EUR total passes it."""
    if spec.get("threshold") is not None:
        n = sum(1 for v in _invoice_totals(t, spec).values() if _passes(v, spec))
        unit = "invoices"
    else:
        n = len({ln.document_id for ln in select(t, spec)})
        unit = "credit_notes" if _list(spec.get("document_types")) == ["credit_note"] else "invoices"
    return {"kind": "figure", "value": str(n) if n else None, "unit": unit}


def _list_expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    op = spec["op"]
    if op == "above":
        return {"kind": "list", "ids": sorted(n for n, v in _invoice_totals(t, spec).items() if _passes(v, spec))}
    if op == "suppliers_above":
        totals: dict[str, Decimal] = defaultdict(Decimal)
        for ln in select(t, spec):
            totals[ln.supplier] += ln.spend
        return {"kind": "list", "ids": sorted(s for s, v in totals.items() if _passes(v, spec))}
    return b3._list_expect(t, spec, as_of)


def _quarter(d: dt.date) -> str:
    return f"{d.year:04d}-Q{(d.month - 1) // 3 + 1}"


def _table(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    lines = select(t, spec)
    by = spec["by"]
    keys = {
        "month": lambda ln: f"{ln.invoice_date.year:04d}-{ln.invoice_date.month:02d}",
        "quarter": lambda ln: _quarter(ln.invoice_date),
        "supplier": lambda ln: ln.supplier,
        "product": lambda ln: ln.product,
        "group": lambda ln: t.products[ln.product][1],
        "top_group": lambda ln: t.top(t.products[ln.product][1]),
        "company": lambda ln: ln.company,
    }
    if by not in keys:
        raise TruthError(f"unknown breakdown {by!r}")
    rows: dict[str, Decimal] = defaultdict(Decimal)
    for ln in lines:
        rows[keys[by](ln)] += ln.spend
    return {"kind": "table", "rows": {k: money(rows[k]) for k in sorted(rows)}, "total": money(_sum(lines)),
            "currency": "EUR"}


def _ranking(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in select(t, spec):
        totals[ln.supplier] += ln.spend
    ascending = spec.get("order", "desc") == "asc"
    ranked = sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])
    n = int(spec["n"])
    if len(ranked) > n and money(ranked[n - 1][1]) == money(ranked[n][1]):
        raise TruthError("a tie at the ranking cut")
    if any(money(a[1]) == money(b[1]) for a, b in pairwise(ranked[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    top = ranked[:n]
    return {"kind": "ranking", "items": [[s, money(v)] for s, v in top], "labels": {s: t.names[s] for s, _ in top}}


def _clarification(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    for name in _list(spec.get("names")):
        if spec.get("reason") == "unknown_supplier" and b3.normalize(name) in t.aliases:
            raise TruthError(f"{t.tenant}: {name!r} is a known supplier alias")
    out: dict[str, Any] = {"kind": "clarification", "reason": spec["reason"], "names": _list(spec.get("names")),
                           "topics": _list(spec.get("topics"))}
    if spec.get("intended"):
        out["accept_value"] = expect(t, spec["intended"], as_of).get("value")
    return out


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if spec.get("to_date"):  # "YTD", "so far", "since X": end = as_of + 1 day, no line dated on as_of
        if any(ln.invoice_date == as_of for ln in t.lines):
            raise TruthError(f"a line is dated on the as-of date {as_of}")
        if _d(spec["end"]) != as_of + dt.timedelta(days=1):
            raise TruthError("a to-date period must end the day after as_of")
    if spec.get("inclusive_end"):  # "between X and Y": Y included; checked that no selected line is dated on Y
        last = _d(spec["end"]) - dt.timedelta(days=1)
        if any(ln.invoice_date == last for ln in select(t, spec)):
            raise TruthError(f"a selected line is dated on the end date {last}")
    if spec.get("approved_vendors"):
        spec = {**spec, "suppliers": b3.approved_selection(t, spec, as_of), "partial_if_missing": True}
    if op == "figure" and spec.get("measure") == "invoice_count":
        return _count(t, spec)
    if op == "table":
        return _table(t, spec)
    if op in ("above", "suppliers_above", "approved", "products"):
        return _list_expect(t, spec, as_of)
    if op == "ranking":
        return _ranking(t, spec)
    if op == "clarification":
        return _clarification(t, spec, as_of)
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    return b3.expect(t, spec, as_of)  # figure, share, change, currency, document, not_found


# -- the question file ---------------------------------------------------------------------------------------------
Expect = Callable[[Tenant, Mapping[str, Any], dt.date], dict[str, Any]]
Compute = Callable[[Mapping[str, Tenant], Mapping[str, Any]], dict[str, dict[str, Any]]]


def computer(expect_one: Expect) -> Compute:
    """The question-file pass of a set whose answers come from ``expect_one`` (the fifth and later sets share it)."""

    def compute_all(tenants: Mapping[str, Tenant], data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        out = {}
        for q in data["questions"]:
            try:
                out[q["id"]] = expect_one(tenants[q["tenant"]], q["spec"], _d(q["as_of"]))
            except (KeyError, TruthError, ArithmeticError) as exc:
                raise TruthError(f"question {q.get('id')}: {exc!r}") from exc
        return out

    return compute_all


compute = computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


# -- cross-check against the generator's ground_truth.json ------------------------------------------------------
def _q4(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))


def crosscheck(root: Path) -> tuple[int, list[str]]:
    """(quantities compared, disagreements) between this calculator and ``ground_truth.json``."""
    tenants = load_corpus(root)
    truth = json.loads((root / "ground_truth.json").read_text(encoding="utf-8"))
    as_of = _d(truth["as_of"])
    compared, bad = 0, []

    def same(name: str, mine: Any, theirs: Any) -> None:
        nonlocal compared
        compared += 1
        if mine != theirs:
            bad.append(f"{name}: calculator {mine!r} != ground truth {theirs!r}")

    for q in truth["questions"]:
        t, p, e, name = tenants[q["tenant_id"]], q["parameters"], q["expected"], q["name"]
        base = {"company": p["company_id"], "start": p.get("start_date", "1900-01-01"),
                "end": p.get("end_date", "2100-01-01"), "statuses": p.get("invoice_statuses")}
        kind = q["kind"]
        if kind == "aggregate_spend":
            spec = {**base, "suppliers": p["supplier_ids"]}
            if p.get("product_group_name"):
                gid = next(g for g, (n, _) in t.groups.items() if n == p["product_group_name"])
                spec["groups"] = [gid]
            lines = select(t, spec)
            status = "no_data" if not lines else (
                "partial" if any(not any(ln.supplier == s for ln in lines) for s in p["supplier_ids"]) else "complete")
            same(f"{name} total", money(_sum(lines)), e["total_spend"])
            same(f"{name} lines", len(lines), e["matched_line_count"])
            same(f"{name} status", status, e["status"])
            same(f"{name} line ids", sorted(ln.line_id for ln in lines), sorted(e["source_line_ids"]))
        elif kind == "tax_total":
            lines = [ln for ln in select(t, base) if ln.invoice_number in p["invoice_numbers"]]
            same(f"{name} tax", money(sum(((ln.gross - ln.net) * ln.fx for ln in lines), Decimal(0))),
                 e["total_tax"])
        elif kind == "unit_price":
            lines = select(t, {**base, "products": [p["product_code"]]})
            qty = sum((ln.quantity for ln in lines), Decimal(0))
            same(f"{name} price", _q4(sum((ln.net_reporting for ln in lines), Decimal(0)) / qty), e["unit_price"])
            same(f"{name} quantity", str(qty.normalize()), str(Decimal(e["quantity"]).normalize()))
        elif kind == "units_purchased":
            lines = select(t, {**base, "suppliers": [p["supplier_id"]]})
            same(f"{name} units", str(sum((ln.quantity for ln in lines), Decimal(0)).normalize()),
                 str(Decimal(e["units"]).normalize()))
        elif kind == "invoices_above_threshold":
            got = expect(t, {"op": "above", **base, "threshold": p["threshold"]}, as_of)
            same(f"{name} invoices", got["ids"], sorted(e["invoice_numbers"]))
            totals = _invoice_totals(t, base)
            for inv, value in e["invoice_totals"].items():
                same(f"{name} {inv}", money(totals[inv]), value)
        elif kind == "approved_vendors":
            ids = b3.approved(t, p["company_id"], _d(p["start_date"]), _d(p["end_date"]), as_of)
            same(f"{name} suppliers", sorted(ids), sorted(e["supplier_ids"]))
        elif kind == "spend_by_supplier":
            table = _table(t, {**base, "by": "supplier"})
            same(f"{name} total", table["total"], e["total_spend"])
            same(f"{name} rows", table["rows"], {s: v["total_spend"] for s, v in e["suppliers"].items()})
        else:
            bad.append(f"{name}: kind {kind!r} not compared")
    return compared, bad


def run(argv: Sequence[str] | None, *, module: str, doc: str, questions: Path, corpus: Path,
        compute: Compute, check: Callable[[Any, Mapping[str, Any]], list[str]]) -> int:
    """The command line every calculator from the fifth set on shares: ``--check``, ``--write``, ``--crosscheck``."""
    parser = argparse.ArgumentParser(prog=f"python -m {module}", description=doc.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=corpus)
    parser.add_argument("--questions", type=Path, default=questions)
    parser.add_argument("--check", action="store_true", help="recompute and diff (exit 1 on differences)")
    parser.add_argument("--write", action="store_true", help="store the recomputed expected values")
    parser.add_argument("--crosscheck", action="store_true", help="compare with the generator's ground_truth.json")
    args = parser.parse_args(argv)
    if args.crosscheck:
        compared, bad = crosscheck(args.corpus)
        print("\n".join(bad))
        print(f"ground truth: {compared - len(bad)}/{compared} quantities agree")
        return 1 if bad else 0
    return b3.write_or_check(args.questions, args.corpus, args.write, compute, check)


def main(argv: Sequence[str] | None = None) -> int:
    return run(argv, module="evaluation.blind5_truth", doc=__doc__ or "",
               questions=DEFAULT_QUESTIONS, corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
