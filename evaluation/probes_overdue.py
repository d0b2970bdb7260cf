"""Overdue probes: "which invoices of <company> are overdue as at <day>", "how many ... more than N days past due",
"total overdue amount ... in EUR", generated from slot grammars (company and its name form, as-at day or "today",
bound in days, supplier, list / count / total), asked through ``/v1/ask`` and compared with an oracle computed
from the raw corpus files (:func:`evaluation.blind21_truth._overdue`: the invoice date plus the "Payment is due N
days net" term of the agreement version in force on the as-at day), never with the product's own listing.

``python -m evaluation.probes_overdue --corpus /tmp/blind21-corpus --database procura_h6_b21 [--seed 1] [--count 40]
[--show wrong|all|none]``

A draw the oracle refuses (no single term in force, no invoice overdue, every open invoice overdue, a set that
depends on the posting-date reading) is asked anyway when the company has no term (the answer must say overdue
cannot be computed) and skipped otherwise. ``--seed 1`` is the training seed; ``--seed 2`` is held out. Written from
the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind21_truth as b21
from evaluation.blind3_truth import TruthError

_DAYS = (dt.date(2026, 3, 31), dt.date(2026, 4, 15), dt.date(2026, 4, 30), dt.date(2026, 5, 15))
_DAY_FORMS = ("as at {d:%d %B %Y}", "as of {d:%Y-%m-%d}", "as at {d:%d.%m.%Y}", "on {d:%d %B %Y}")
_BOUNDS = ((0, "overdue"), (0, "past due"), (30, "more than 30 days overdue"), (60, "more than 60 days past due"),
           (90, "overdue by more than 90 days"), (45, "over 45 days past due"), (29, "at least 30 days overdue"))
_SHAPES = (("list", "Which invoices of {c} are {b} {d}?"), ("list", "List {c}'s invoices that are {b} {d}."),
           ("count", "How many invoices of {c} are {b} {d}?"), ("count", "Number of {c} invoices {b} {d}?"),
           ("total", "What is the total amount of {c}'s invoices {b} {d}, in EUR?"),
           ("total", "{c}: total {b} amount {d} (gross, EUR)?"))


def _draw(rng: random.Random, tenants: dict[str, b3.Tenant], as_of: dt.date) -> dict[str, Any]:
    tenant = rng.choice(sorted(tenants))
    t = tenants[tenant]
    company = rng.choice(sorted(t.companies))
    day = rng.choice([d for d in _DAYS if d <= as_of] + [as_of])
    today = day == as_of and rng.random() < 0.3
    beyond, bound = rng.choice(_BOUNDS)
    measure, form = rng.choice(_SHAPES)
    name = rng.choice([t.companies[company], company])
    when = "today" if today else rng.choice(_DAY_FORMS).format(d=day)
    supplier = None
    if rng.random() < 0.25:
        bought = sorted({ln.supplier for ln in t.lines if ln.company == company})
        supplier = rng.choice(bought) if bought else None
    question = form.format(c=name, b=bound, d=when)
    if supplier is not None:
        question = question.rstrip("?.") + f" from {t.suppliers.get(supplier, supplier)}?"
    spec: dict[str, Any] = {"op": "overdue", "company": company, "measure": measure, "beyond_days": beyond}
    if supplier is not None:
        spec["suppliers"] = [supplier]
    return {"tenant": tenant, "question": question, "spec": spec, "as_of": day if today else as_of, "day": day}


def _expected(t: b3.Tenant, draw: dict[str, Any]) -> dict[str, Any] | str:
    try:
        return b21._overdue(t, draw["spec"], draw["day"])
    except TruthError as exc:
        try:
            b21.payment_term(t, draw["spec"]["company"], draw["day"])
        except TruthError:
            return "no_term"
        return f"skip: {exc}"


def _check(expected: dict[str, Any] | str, answer: dict[str, Any]) -> bool:
    result = answer.get("result") or {}
    if expected == "no_term":
        return answer.get("status") in ("unsupported", "clarification") and "cannot be computed" in str(
            answer.get("text"))
    assert isinstance(expected, dict)
    if expected["kind"] == "list":
        return sorted(result.get("invoices") or []) == expected["ids"]
    if expected.get("unit") == "invoices":
        return str(result.get("count")) == expected["value"]
    return Decimal(str(result.get("total"))) == Decimal(expected["value"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/blind21-corpus"))
    parser.add_argument("--database", default="procura_h6_b21")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--as-of", type=dt.date.fromisoformat, default=dt.date(2026, 5, 15))
    parser.add_argument("--show", choices=("wrong", "all", "none"), default="wrong")
    args = parser.parse_args(argv)
    from evaluation.blind_score import ask_all

    tenants = b3.load_corpus(args.corpus)
    rng = random.Random(args.seed)
    draws: list[tuple[dict[str, Any], dict[str, Any] | str]] = []
    skipped = 0
    while len(draws) < args.count and skipped < args.count * 20:
        draw = _draw(rng, tenants, args.as_of)
        expected = _expected(tenants[draw["tenant"]], draw)
        if isinstance(expected, str) and expected.startswith("skip"):
            skipped += 1
            continue
        draws.append((draw, expected))
    questions = [{"tenant": d["tenant"], "question": d["question"], "as_of": d["as_of"]} for d, _ in draws]
    asked = ask_all(questions, args.database, progress=lambda _m: None)
    outcome: Counter[str] = Counter()
    for (draw, expected), (_q, status, body, _ms) in zip(draws, asked, strict=True):
        answer = (body or {}).get("answer") or {} if status == 200 else {}
        ok = _check(expected, answer)
        outcome["ok" if ok else "wrong"] += 1
        if args.show == "all" or (args.show == "wrong" and not ok):
            print(f"{'OK ' if ok else 'BAD'} {draw['tenant']} {draw['question']!r}\n    expected {expected}\n    got "
                  f"{answer.get('status')}: {str(answer.get('text'))[:300]}")
    print(f"overdue probes (seed {args.seed}): {outcome['ok']}/{len(draws)} ok, {skipped} draws skipped")
    return 0 if not outcome["wrong"] else 1


if __name__ == "__main__":
    sys.exit(main())
