"""Expected answers of the seventh blind set (``eval/blind7/questions.yml``), computed from the raw corpus files only.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...) and
without asking the system: it reuses the corpus reader and spec shapes of the earlier sets' calculators
(:mod:`evaluation.blind3_truth`, :mod:`evaluation.blind5_truth`, :mod:`evaluation.blind6_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds what the seventh set asks for:

* counts of invoice lines (``op: line_count``) and of distinct suppliers with counted spend
  (``op: supplier_count``);
* the lowest / highest single-line unit price of a product (``op: unit_price_extreme``, ``order: asc | desc``;
  net per unit, only over lines billed in EUR so that no conversion reading enters);
* breakdowns by two keys (``op: table`` with ``by`` and ``by2``; a row per pair, keyed ``key1|key2``);
* a check for rolling windows ("past 90 days", "last 6 weeks"): with ``robust_start`` no selected line is dated
  on the day before ``start``, so the readings that count the window from as-of inclusive or exclusive agree;
* a check that a breakdown's rows are all non-zero and distinct (``distinct_rows``), so that a row is never
  matched by another row's value.

``python -m evaluation.blind7_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
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
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind6_truth as b6
from evaluation.blind3_truth import Line, Tenant, TruthError, _d, money, select

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind7" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind7-corpus")


def _key(t: Tenant, ln: Line, by: str) -> str:
    keys = {
        "month": lambda: f"{ln.invoice_date.year:04d}-{ln.invoice_date.month:02d}",
        "quarter": lambda: f"{ln.invoice_date.year:04d}-Q{(ln.invoice_date.month - 1) // 3 + 1}",
        "supplier": lambda: ln.supplier,
        "product": lambda: ln.product,
        "group": lambda: t.products[ln.product][1],
        "top_group": lambda: t.top(t.products[ln.product][1]),
        "company": lambda: ln.company,
        "currency": lambda: ln.currency,
        "status": lambda: ln.status,
        "document_type": lambda: ln.document_type,
    }
    if by not in keys:
        raise TruthError(f"unknown breakdown {by!r}")
    return keys[by]()


def _table(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Spend (EUR) by one or two keys; rows keyed ``key`` or ``key1|key2``."""
    lines = select(t, spec)
    rows: dict[str, Decimal] = defaultdict(Decimal)
    for ln in lines:
        k = _key(t, ln, spec["by"])
        if spec.get("by2"):
            k = f"{k}|{_key(t, ln, spec['by2'])}"
        rows[k] += ln.spend
    if spec.get("distinct_rows"):
        values = [money(v) for v in rows.values()]
        if len(set(values)) != len(values) or "0.00" in values:
            raise TruthError("two rows of the breakdown share a value (or one is zero)")
    return {"kind": "table", "rows": {k: money(rows[k]) for k in sorted(rows)},
            "total": money(sum((ln.spend for ln in lines), Decimal(0))), "currency": "EUR"}


def _line_count(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Counted lines; "invoice lines" may or may not take in credit-note lines, so the spec must say which."""
    if not spec.get("document_types"):
        raise TruthError("a line count must name its document types (invoice lines with or without credit notes)")
    n = len(select(t, spec))
    return {"kind": "figure", "value": str(n) if n else None, "unit": "lines"}


def _supplier_count(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    n = len({ln.supplier for ln in select(t, spec)})
    return {"kind": "figure", "value": str(n) if n else None, "unit": "suppliers"}


def _unit_price_extreme(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """Lowest (``asc``) or highest (``desc``) net price per unit on a single invoice line (EUR lines only)."""
    lines = select(t, {**spec, "document_types": ["invoice"]})
    if not lines:
        return {"kind": "figure", "value": None, "lines": 0, "status": "no_data", "currency": "EUR"}
    if any(ln.currency != "EUR" for ln in lines):
        raise TruthError("a selected line is not billed in EUR (the price would depend on a conversion)")
    prices = sorted(ln.net / ln.quantity for ln in lines)
    value = prices[0] if spec.get("order", "asc") == "asc" else prices[-1]
    return {"kind": "figure", "value": str(value.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)),
            "lines": len(lines), "status": "complete", "currency": "EUR"}


def _check_robust_start(t: Tenant, spec: Mapping[str, Any]) -> None:
    day_before = _d(spec["start"]) - dt.timedelta(days=1)
    if any(ln.invoice_date == day_before for ln in select(t, {**spec, "start": day_before, "end": _d(spec["start"])})):
        raise TruthError(f"a selected line is dated on {day_before}, the day before the rolling window")


def _net_lines(t: Tenant) -> Tenant:
    """The tenant with every line's gross replaced by its net (to test a threshold under the net reading)."""
    lines = [Line(**{**ln.__dict__, "gross": ln.net}) for ln in t.lines]
    return Tenant(t.tenant, t.companies, t.suppliers, t.names, t.aliases, t.groups, t.products, t.documents, lines)


def _check_net_reading(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> None:
    """An amount threshold ("invoices over 10k") must select the same ids whether totals are gross or net."""
    gross, net = b6.expect(t, spec, as_of), b6.expect(_net_lines(t), spec, as_of)
    if gross.get("ids") != net.get("ids") or gross.get("value") != net.get("value"):
        raise TruthError(f"the net reading of the amount differs: {net!r}")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if spec.get("robust_start"):
        _check_robust_start(t, spec)
    if op in ("above", "suppliers_above", "amount_range") or spec.get("threshold") is not None:
        _check_net_reading(t, spec, as_of)
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op in ("line_count", "supplier_count", "unit_price_extreme", "table"):
        if spec.get("to_date") or spec.get("inclusive_end"):
            b5.expect(t, {**spec, "op": "figure", "measure": "spend"}, as_of)  # the boundary checks only
        fn = {"line_count": _line_count, "supplier_count": _supplier_count,
              "unit_price_extreme": _unit_price_extreme, "table": _table}[op]
        return fn(t, spec)
    return b6.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute = b5.computer(expect)


def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
    """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
    return b3.check(corpus, data, compute)


def main(argv: Sequence[str] | None = None) -> int:
    return b5.run(argv, module="evaluation.blind7_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                  corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
