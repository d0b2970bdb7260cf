"""Independent calculator of the second blind set (``eval/blind2/questions.yml``), from the raw corpus files only.

It reuses the corpus reader and the accounting policy of :mod:`evaluation.blind_truth` (which imports nothing of
Procura) and adds the operations analysts ask next (issue 22): rankings, shares, period-over-period changes,
exclusions, status and document-type filters, spend in the invoice's own currency, and invoice / credit-note
counts. Everything is :class:`decimal.Decimal`.

Run ``python -m evaluation.blind2_truth --corpus DIR --check`` to recompute and diff the stored ``expected``
blocks (exit 1 on any difference), ``--write`` to store them.

Readings of the policy added to those of :mod:`evaluation.blind_truth` (where the documents leave room):

* Exclusions (``exclude_suppliers``, ``exclude_groups`` incl. subgroups, ``exclude_products``) remove lines after
  every other filter; excluding a supplier with no lines changes nothing.
* ``statuses: [posted]`` is "unpaid" / "open" / "not yet paid" (a posted invoice is booked, not paid); the default
  stays ``posted`` + ``paid``. ``document_types: [credit_note]`` is "credit notes only": their spend is negative
  (a question may accept the magnitude, ``accept_abs``).
* A ranking orders the groups (supplier or product) by spend, descending, ties broken by id; ``ties_at_cut`` says
  whether the N-th and the (N+1)-th have equal spend. Only groups with counted lines take part.
* A share is ``100 * part / base`` where ``base`` is the spend of the spec and ``part`` that of the spec further
  restricted by ``part`` (a supplier, a group); rounded half away from zero to 2 decimals. A zero base has no share.
* A change compares the spec's period with ``base_start``/``base_end`` (resolved when writing the question:
  the previous period of the same length, or the same period a year earlier): ``delta = current - base`` and
  ``percent = 100 * delta / base``. When the base period has no counted line the percent is undefined (``None``)
  and the expected answer says there is no data for the comparison period; a base of exactly zero also has no
  percent.
* Spend in the original currency sums ``sign * (net + tax)`` in the invoice currency per currency (no FX); the
  reporting-currency total of the same lines is stated beside it.
* A count counts distinct non-duplicate documents of the requested type(s) (default ``invoice``) with a
  recognized status, dated in the period, with at least one line matching the filters.
* A period written "between X and Y" includes Y; the YAML stores the half-open ``[X, Y + 1 day)`` and
  ``check`` fails when a counted line is dated on Y (so the inclusive and the exclusive readings agree).
* Product-group names in another language (``group_names``) resolve only when the catalog carries them (as a
  group name or in any other field of the group); otherwise the expected answer is a clarification naming them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from evaluation import blind_truth as bt

DEFAULT_QUESTIONS = Path(__file__).resolve().parent.parent / "eval" / "blind2" / "questions.yml"
_EXCLUDES = ("exclude_suppliers", "exclude_groups", "exclude_products")
_FILTER_KEYS = ("suppliers", "groups", "products", "approved_for")


def _d(value: Any, where: str) -> dt.date:
    return bt._date(str(value), where)


def group_ids_by_name(t: bt.Tenant, names: Sequence[str]) -> tuple[list[str], list[str]]:
    """(group ids, names that the catalog does not carry) for product-group names in any language."""
    found: list[str] = []
    unknown: list[str] = []
    for name in names:
        want = name.casefold()
        hits = []
        for gid, g in t.groups.items():
            values: list[str] = []
            for v in g.values():
                values.extend([v] if isinstance(v, str) else [x for x in v if isinstance(x, str)]
                              if isinstance(v, list) else [])
            if any(v.casefold() == want for v in values):
                hits.append(gid)
        if hits:
            found.extend(hits)
        else:
            unknown.append(name)
    return found, unknown


def select(t: bt.Tenant, spec: Mapping[str, Any], as_of: dt.date) -> list[bt.Line]:
    """The counted lines of ``spec`` with its exclusions applied."""
    lines = bt.select(t, {k: v for k, v in spec.items() if k not in _EXCLUDES}, as_of)
    no_sup = set(spec.get("exclude_suppliers") or [])
    no_prd = set(spec.get("exclude_products") or [])
    if spec.get("exclude_groups"):
        gs = bt.subgroups(t, spec["exclude_groups"])
        no_prd |= {c for c, p in t.products.items() if p["product_group_id"] in gs}
    return [x for x in lines if x.supplier_id not in no_sup and x.product_code not in no_prd]


def spend(lines: Sequence[bt.Line]) -> Decimal:
    return sum((x.spend for x in lines), Decimal(0))


def _pct(part: Decimal, base: Decimal) -> str | None:
    return None if base == 0 else bt.money(100 * part / base)


def _ranking(lines: Sequence[bt.Line], by: str, n: int) -> dict[str, Any]:
    cells: dict[str, Decimal] = {}
    for x in lines:
        key = bt._group_key(x, by)
        cells[key] = cells.get(key, Decimal(0)) + x.spend
    order = sorted(cells.items(), key=lambda kv: (-kv[1], kv[0]))
    ties = len(order) > n and bt.money(order[n - 1][1]) == bt.money(order[n][1])
    return {"kind": "ranking", "by": by, "n": n, "items": [[k, bt.money(v)] for k, v in order[:n]],
            "groups": len(order), "ties_at_cut": ties, "currency": "EUR"}


def labels(t: bt.Tenant, key: str) -> list[str]:
    """The names a ranked supplier or product may be presented by (besides its id)."""
    if key in t.suppliers:
        s = t.suppliers[key]
        return sorted({s["supplier_name"], *s.get("aliases", [])})
    if key in t.products:
        return [t.products[key]["product_name"]]
    return []


def _documents(lines: Sequence[bt.Line]) -> set[str]:
    return {x.document_id for x in lines}


def compute(tenants: Mapping[str, bt.Tenant], q: Mapping[str, Any]) -> dict[str, Any]:
    """The ``expected`` block of one question from its ``spec``."""
    spec = dict(q["spec"])
    t = tenants[q["tenant"]]
    as_of = _d(q["as_of"], f"{q['id']}: as_of")
    op = spec["op"]
    if spec.get("group_names"):
        ids, unknown = group_ids_by_name(t, spec["group_names"])
        if unknown:
            # the intended figure (from ``groups``, the writer's reading) is accepted too: the system may carry
            # synonyms outside the corpus files
            intended = select(t, spec, as_of) if spec.get("groups") else []
            out: dict[str, Any] = {"kind": "clarification", "reason": "unknown_category", "names": unknown}
            if intended:
                out["accept_value"] = bt.money(spend(intended))
            return out
        spec["groups"] = sorted(set(spec.get("groups") or []) | set(ids))
    if op in ("clarification", "not_found", "document", "approved", "products_of", "unit_price", "above") or \
            (op == "count" and "threshold" in spec):
        out = bt.compute(tenants, {**q, "spec": spec})
        if op == "clarification" and spec.get("topics"):
            out["topics"] = list(spec["topics"])
        return out
    if op == "compound":
        # two workflows: the first part selects an entity (a top-1 ranking), a later part states a document fact
        # about it; ``approves_top_of: k`` checks that the document's version in effect approves part k's entity
        parts: list[dict[str, Any]] = []
        for i, part in enumerate(spec["parts"]):
            got = compute(tenants, {**q, "id": f"{q['id']}.{i}", "spec": {k: v for k, v in part.items()
                                                                            if k != "approves_top_of"}})
            if "approves_top_of" in part:
                top = parts[int(part["approves_top_of"])]["items"][0][0]
                versions = t.agreements.get(part["document_id"], [])
                usable = [v for v in versions if v[0] <= as_of] or versions[:1]
                if not usable or top not in {a.supplier_id for a in usable[-1][2]}:
                    raise bt.BlindTruthError(f"{q['id']}: {part['document_id']} does not approve {top}")
            parts.append(got)
        return {"kind": "compound", "parts": parts}
    if op == "figure":
        lines = select(t, spec, as_of)
        measure = spec.get("measure", "spend")
        out = {"kind": "figure", "value": bt._fmt(bt._measure(lines, measure), measure) if lines else None,
               "lines": len(lines), "status": "complete" if lines else "no_data"}
        missing = bt._missing(t, spec, as_of, lines)
        if lines and missing:
            out["status"] = "partial"
            out["missing"] = missing
        if measure != "units":
            out["currency"] = "EUR"
        return out
    if op == "table":
        lines = select(t, spec, as_of)
        by = spec["by"]
        cells: dict[str, list[bt.Line]] = {}
        for x in lines:
            cells.setdefault(bt._group_key(x, by), []).append(x)
        return {"kind": "table", "by": by, "rows": {k: bt.money(spend(v)) for k, v in sorted(cells.items())},
                "total": bt.money(spend(lines)), "currency": "EUR"}
    if op == "count":
        types = spec.get("document_types") or ["invoice"]
        lines = select(t, {**spec, "document_types": types}, as_of)
        unit = "credit_notes" if types == ["credit_note"] else "invoices"
        return {"kind": "figure", "value": str(len(_documents(lines))), "unit": unit}
    if op == "rank":
        out = _ranking(select(t, spec, as_of), spec["by"], int(spec["n"]))
        out["labels"] = {k: labels(t, k) for k, _ in out["items"]}
        return out
    if op == "share":
        base_lines = select(t, spec, as_of)
        part_spec = {**spec, **spec["part"]}
        part_lines = select(t, part_spec, as_of)
        base, part = spend(base_lines), spend(part_lines)
        return {"kind": "share", "percent": _pct(part, base), "part": bt.money(part), "base": bt.money(base),
                "currency": "EUR"}
    if op == "change":
        cur_lines = select(t, spec, as_of)
        base_lines = select(t, {**spec, "start": spec["base_start"], "end": spec["base_end"]}, as_of)
        cur = spend(cur_lines)
        out = {"kind": "change", "want": spec.get("want", "both"),
               "current": bt.money(cur) if cur_lines else None,
               "base": bt.money(spend(base_lines)) if base_lines else None, "currency": "EUR"}
        if base_lines and cur_lines:
            base = spend(base_lines)
            out["delta"] = bt.money(cur - base)
            out["percent"] = _pct(cur - base, base)
        else:
            out["delta"] = None
            out["percent"] = None
        return out
    if op == "currency":
        lines = select(t, spec, as_of)
        if spec.get("currencies"):
            lines = [x for x in lines if x.currency in spec["currencies"]]
        rows: dict[str, Decimal] = {}
        for x in lines:
            rows[x.currency] = rows.get(x.currency, Decimal(0)) + x.net + x.tax
        return {"kind": "currency", "rows": {k: bt.money(v) for k, v in sorted(rows.items())},
                "reporting": bt.money(spend(lines)) if lines else None, "currency": "EUR"}
    raise bt.BlindTruthError(f"{q['id']}: unknown op {op!r}")


def _inclusive_end(tenants: Mapping[str, bt.Tenant], q: Mapping[str, Any]) -> list[str]:
    """"between X and Y": no counted line of the question's filters may be dated on Y (= end - 1 day)."""
    spec = q["spec"]
    if not spec.get("inclusive_end"):
        return []
    last = _d(spec["end"], "end") - dt.timedelta(days=1)
    as_of = _d(q["as_of"], "as_of")
    lines = [x for x in select(tenants[q["tenant"]], {**spec, "start": last.isoformat()}, as_of)]
    return [f"{q['id']}: {len(lines)} counted line(s) dated on the inclusive end {last}"] if lines else []


def check(tenants: Mapping[str, bt.Tenant], data: Mapping[str, Any]) -> list[str]:
    problems = []
    for q in data["questions"]:
        got = compute(tenants, q)
        if bt._strip(q.get("expected") or {}) != got:
            problems.append(f"{q['id']}: stored {q.get('expected')!r} != computed {got!r}")
        if got.get("robust") is False:
            problems.append(f"{q['id']}: threshold reading is not robust (gross and net sets differ)")
        if got.get("kind") == "ranking" and got.get("ties_at_cut"):
            problems.append(f"{q['id']}: a tie at the ranking's cut (reword the question)")
        problems.extend(bt._boundary(tenants, q))
        problems.extend(_inclusive_end(tenants, q))
    return problems


def write(tenants: Mapping[str, bt.Tenant], path: Path) -> int:
    data = bt.load_questions(path)
    for q in data["questions"]:
        q["expected"] = compute(tenants, q)
    header = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if not raw.startswith("#"):
            break
        header.append(raw)
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    path.write_text("\n".join(header) + ("\n" if header else "") + body, encoding="utf-8")
    return len(data["questions"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.blind2_truth", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="demo corpus root (holds manifest.json)")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="recompute and diff against the stored values")
    mode.add_argument("--write", action="store_true", help="store the recomputed values")
    args = parser.parse_args(argv)
    tenants = bt.load(args.corpus)
    if args.write:
        print(f"wrote expected values of {write(tenants, args.questions)} questions to {args.questions}")
        return 0
    problems = check(tenants, bt.load_questions(args.questions))
    for p in problems:
        print(p)
    print(f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
