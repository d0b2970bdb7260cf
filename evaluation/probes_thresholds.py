"""Threshold probes: amounts that bound each supplier's (product group's, product's) TOTAL over a period, and amounts
that bound single invoices, asked through ``/v1/ask`` and compared with the governed metric called directly.

``python -m evaluation.probes_thresholds [--database procura] [--seed 1] [--per-class 30] [--class supplier_total]
[--show wrong|all|none] [--json out.json]`` fills frames of analyst, casual and German wording with seeded slot
values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15; the vocabulary of
:mod:`evaluation.probes_clarify`): companies, suppliers in every spelling, product groups, periods in every form,
amounts in every notation (``50k``, ``EUR 0.05m``, ``10.000 €``, ``30 000 EUR``, ``0,1 Mio. €``), the side
("more than", "above", "at least", "less than", "under", "at most", "between ... and ...") and what is bounded.

Classes:

* ``supplier_total``: "suppliers with more than 50k spend", "which vendors did we spend less than 10.000 EUR with";
* ``crossing``: a verb of crossing the amount ("which suppliers crossed 0,02 Mio. EUR", "stayed under 20 TEUR");
* ``named_total``: "did we spend more than 20k with Beta" (the named supplier's total);
* ``group_total``: top-level product groups, leaf groups (lowest level) and products bounded by their totals;
* ``filtered_total``: supplier totals within a product group, without an excluded supplier, over paid invoices;
* ``invoice_listing``: the amount bounds single invoices ("invoices above 5k"): the invoice listing, never totals;
* ``clarify``: no company, or an amount in a currency that is not the reporting one.

The expected answer of a total probe is ``finance.spend_ranking`` called directly with the slot values at its
largest limit (every group with spend in the period), kept on the asked side of the amount here with exact
decimals (the boundary as the wording gives it): the answer must name every qualifying id with its total and no
other ranked id before "Read as:". An invoice probe expects ``finance.invoices_above_threshold``'s invoice
numbers. Outcomes as in :mod:`evaluation.probes_clarify` (the shared outcome table).

``--seed 1`` is the training half the router is fixed on; ``--seed 2`` is held out (only its counts are read).
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from evaluation.constraint_probes import _present
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, PERIODS, SUPPLIERS, TENANT, outcome_table
from evaluation.probes_ranking import _style

RANKING = "finance.spend_ranking"
INVOICES = "finance.invoices_above_threshold"

#: Amount notations: (words, value). Values sit where the demo's supplier totals fall (a few k to a few 100k).
NOTATIONS: tuple[tuple[str, str], ...] = (
    ("50k", "50000"), ("€50k", "50000"), ("50k EUR", "50000"), ("EUR 0.05m", "50000"), ("50,000 EUR", "50000"),
    ("10.000 EUR", "10000"), ("10 000 €", "10000"), ("€10,000", "10000"), ("10k", "10000"), ("EUR 10k", "10000"),
    ("30 000 EUR", "30000"), ("30k €", "30000"), ("25,000.00 EUR", "25000"), ("€ 25.000", "25000"),
    ("0,1 Mio. €", "100000"), ("EUR 0.1m", "100000"), ("100k", "100000"), ("5,000 euros", "5000"), ("5k", "5000"),
    ("20k EUR", "20000"), ("EUR 20,000", "20000"), ("15.000,00 €", "15000"),
    # German and ledger notations: "Mio." / "Tsd." / "TEUR" scale the number, "," is the decimal comma
    ("0,02 Mio. EUR", "20000"), ("0,05 Mio. €", "50000"), ("20 Tsd. EUR", "20000"), ("20 TEUR", "20000"),
    ("10.000,50 €", "10000.50"), ("EUR 10,000.50", "10000.50"), ("€10k", "10000"), ("EUR 0.02m", "20000"),
    ("20.000,- €", "20000"), ("EUR 1.5m", "1500000"),
)
#: Verbs of crossing a line ("which suppliers crossed 20k"): (words, direction, inclusive).
VERBS: tuple[tuple[str, str, bool], ...] = (
    ("crossed", "above", False), ("exceeded", "above", False), ("went over", "above", False),
    ("topped", "above", False), ("surpassed", "above", False), ("passed the", "above", False),
    ("went past", "above", False), ("went above", "above", False), ("stayed under", "below", False),
    ("stayed below", "below", False), ("came in under", "below", False),
)
#: The side of the amount: (words, direction, inclusive).
SIDES: tuple[tuple[str, str, bool], ...] = (
    ("more than", "above", False), ("above", "above", False), ("over", "above", False),
    ("at least", "above", True), ("exceeding", "above", False), ("greater than", "above", False),
    ("less than", "below", False), ("under", "below", False), ("below", "below", False),
    ("at most", "below", True), ("not more than", "below", True),
)


@dataclass(frozen=True)
class Call:
    """The direct call; ``bounds`` keeps rows of a ranking on the asked side: (direction, amount, inclusive, upper,
    upper inclusive); ``key`` is the id column and ``value`` the compared output."""

    metric: str
    parameters: Mapping[str, Any]
    group_by: tuple[str, ...] = ()
    bounds: tuple[str, str, bool, str | None, bool] | None = None
    key: str = "supplier_id"
    value: str = "total_spend"


@dataclass(frozen=True)
class Probe:
    klass: str
    question: str
    expect: Call | None
    about: tuple[str, ...] = ()


@dataclass(frozen=True)
class Draw:
    company: str
    c: str
    supplier: str
    s: str
    supplier2: str
    s2: str
    group: str
    g: str
    period: tuple[str, str, str]
    amount: tuple[str, str]
    side: tuple[str, str, bool]

    def base(self, **extra: Any) -> dict[str, Any]:
        return {"company_id": self.company, "start_date": self.period[1], "end_date": self.period[2], **extra}

    @property
    def leaves(self) -> list[str]:
        return list(GROUPS[self.group][1])

    def fill(self, template: str, **extra: str) -> str:
        return template.format(c=self.c, s=self.s, s2=self.s2, g=self.g, p=self.period[0], a=self.amount[0],
                               side=self.side[0], **extra)

    def ranking(self, dim: str = "supplier_id", value: str = "total_spend", **extra: Any) -> Call:
        direction, inclusive = self.side[1], self.side[2]
        params = {**self.base(**extra), "limit": 100, "direction": "bottom" if direction == "below" else "top",
                  "order_by": value}
        return Call(RANKING, params, (dim,), (direction, self.amount[1], inclusive, None, False), dim, value)


def _draw(rng: random.Random) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    supplier, supplier2 = rng.sample(sorted(SUPPLIERS), 2)
    kind = rng.choice(sorted(k for k in SUPPLIERS[supplier] if k != "id"))
    group = rng.choice(sorted(GROUPS))
    c = rng.choice(COMPANIES[company])
    if c.endswith("'s"):
        c = c[:-2]
    periods = [p for p in PERIODS if not p[0].startswith(("between", "from"))]  # no second amount-like bound
    return Draw(company, c, supplier, rng.choice(SUPPLIERS[supplier][kind]), supplier2,
                rng.choice(SUPPLIERS[supplier2]["name"] + SUPPLIERS[supplier2]["short"]), group,
                rng.choice(GROUPS[group][0]), rng.choice(periods), rng.choice(NOTATIONS), rng.choice(SIDES))


Fill = Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]


def _total(template: str, dim: str = "supplier_id", scope: str = "", verb: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        if verb:
            d = replace(d, side=rng.choice(VERBS))
        extra: dict[str, Any] = {}
        words: dict[str, str] = {}
        if scope == "named":
            extra["supplier_ids"] = [d.supplier]
        elif scope == "group":
            extra["product_group_ids"] = d.leaves
        elif scope == "exclude":
            extra["exclude_supplier_ids"] = [d.supplier]
        elif scope == "paid":
            extra["invoice_statuses"] = ["paid"]
        call = d.ranking(dim, **extra)
        return d.fill(template, **words), call, ()
    return fill


def _range(template: str) -> Fill:
    """"between 10k and 50k": both bounds inclusive."""
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        low, low_value, high, high_value = rng.choice((("10k", "10000", "50k", "50000"),
                                                       ("€5,000", "5000", "€20,000", "20000"),
                                                       ("20k EUR", "20000", "100k EUR", "100000")))
        call = Call(RANKING, {**d.base(), "limit": 100, "direction": "top", "order_by": "total_spend"},
                    ("supplier_id",), ("above", low_value, True, high_value, True))
        return template.format(c=d.c, p=d.period[0], lo=low, hi=high), call, ()
    return fill


def _invoices(template: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        direction, inclusive = d.side[1], d.side[2]
        params = d.base(threshold=d.amount[1], direction=direction, inclusive=inclusive)
        if scope == "supplier":
            params["supplier_ids"] = [d.supplier]
        return d.fill(template), Call(INVOICES, params, key="invoice_number", value="grand_total"), ()
    return fill


def _clarify(template: str, about: tuple[str, ...]) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        return d.fill(template, cur=rng.choice(("USD", "GBP", "CHF"))), None, about
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "supplier_total": (
        _total("suppliers with {side} {a} spend at {c} {p}"),
        _total("which suppliers did {c} spend {side} {a} with {p}?"),
        _total("suppliers where {c} spent {side} {a} {p}"),
        _total("{c}: suppliers with spend {side} {a} {p}"),
        _total("Which vendors did {c} pay {side} {a} {p}?"),
        _total("List the suppliers {c} spent {side} {a} with {p}"),
        _total("vendors with total spend {side} {a} at {c} {p}"),
        _total("{c} - which suppliers had {side} {a} of spend {p}?"),
        _total("which suppliers got {side} {a} from {c} {p}"),
        _total("Show me {c}'s suppliers with {side} {a} in spend {p}"),
    ),
    "crossing": (
        _total("which suppliers {side} {a} of spend at {c} {p}?", verb=True),
        _total("which suppliers {side} {a} in spend at {c} {p}", verb=True),
        _total("{c}: vendors whose spend {side} {a} {p}", verb=True),
        _total("which vendors' total spend at {c} {side} {a} {p}?", verb=True),
        _total("suppliers that {side} {a} of spend with {c} {p}", verb=True),
    ),
    "named_total": (
        _total("did {c} spend {side} {a} with {s} {p}?", scope="named"),
        _total("Was {c}'s spend with {s} {side} {a} {p}?", scope="named"),
        _total("{c}: did we pay {s} {side} {a} {p}?", scope="named"),
    ),
    "group_total": (
        _total("product groups with spend {side} {a} at {c} {p}", "product_group_id"),
        _total("categories with spend {side} {a} at {c} {p}", "top_product_group_id"),
        _total("which top-level categories did {c} spend {side} {a} on {p}?", "top_product_group_id"),
        _total("leaf product groups (lowest level) with {side} {a} spend at {c} {p}", "product_group_id"),
        _total("which products did {c} spend {side} {a} on {p}?", "product_code"),
        _total("{c}: products with total spend {side} {a} {p}", "product_code"),
    ),
    "filtered_total": (
        _total("suppliers of {g} with {side} {a} spend at {c} {p}", scope="group"),
        _total("which suppliers did {c} spend {side} {a} with on {g} {p}?", scope="group"),
        _total("suppliers with {side} {a} spend at {c} {p}, excluding {s}", scope="exclude"),
        _total("which suppliers did {c} spend {side} {a} with {p} if we ignore {s}?", scope="exclude"),
        _total("suppliers with paid spend {side} {a} at {c} {p}", scope="paid"),
        _range("suppliers with spend between {lo} and {hi} at {c} {p}"),
        _range("which suppliers did {c} spend between {lo} and {hi} with {p}?"),
    ),
    "invoice_listing": (
        _invoices("{c} invoices {side} {a} {p}"),
        _invoices("which invoices of {c} were {side} {a} {p}?"),
        _invoices("{c} invoices from {s} {side} {a} {p}", "supplier"),
        _invoices("list {c}'s invoices {side} {a} {p}"),
    ),
    "clarify": (
        _clarify("suppliers with {side} {a} spend {p}", ("company",)),
        _clarify("which suppliers did {c} spend more than 50,000 {cur} with {p}?", ("currency", "reporting")),
    ),
}

def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            fill = rng.choice(frames)
            question, call, about = fill(_draw(rng), rng)
            question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, call, about))
    return found


# -- the expected answer -----------------------------------------------------------------------------------------------
def keep(value: Decimal, bounds: tuple[str, str, bool, str | None, bool]) -> bool:
    """Whether a total is on the asked side (computed here from the bounds, independently of the router)."""
    direction, amount, inclusive, upper, upper_inclusive = bounds
    a = Decimal(amount)
    if direction == "below":
        return value <= a if inclusive else value < a
    ok = value >= a if inclusive else value > a
    if ok and upper is not None:
        ok = value <= Decimal(upper) if upper_inclusive else value < Decimal(upper)
    return ok


@dataclass(frozen=True)
class Expected:
    tokens: tuple[str, ...]
    absent: tuple[str, ...] = ()
    no_rows: bool = False
    #: The total of the one named supplier (a yes/no question about it).
    named_total: str | None = None


def expected(call: Call, result: Mapping[str, Any]) -> Expected:
    rows = [r.get("values") or {} for r in result.get("rows") or []]
    if call.bounds is None:
        return Expected(tuple(str(r.get(call.key)) for r in rows), no_rows=False)
    kept = [r for r in rows if r.get(call.value) is not None and keep(Decimal(str(r[call.value])), call.bounds)]
    ids = {str(r.get(call.key)) for r in kept}
    tokens = tuple(t for r in kept for t in (str(r.get(call.key)), str(r.get(call.value))))
    absent = tuple(sorted(str(r.get(call.key)) for r in rows if str(r.get(call.key)) not in ids))
    named = [str(r.get(call.value)) for r in rows if r.get(call.value) is not None]
    return Expected(tokens, absent, no_rows=not rows, named_total=named[0] if len(rows) == 1 else None)


def classify(probe: Probe, status: str, text: str, exp: Expected | None) -> str:
    """The outcome of one answer (see :func:`evaluation.probes_clarify.classify`)."""
    if status == "clarification":
        if probe.expect is None:
            return "clar_ok" if any(w.lower() in text.lower() for w in probe.about) else "clar_wrong_point"
        return "false_clar"
    if probe.expect is None:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    assert exp is not None
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    body = text.split(" Read as:")[0]
    if probe.expect.bounds is not None and not re.search(r"\btotal", body, re.I):
        # an answer about single invoices (or any figure that is no total) is another question's answer
        return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"
    if exp.no_rows:
        return "exact" if status == "no_data" or re.search(r"\bno\b", text, re.I) else "silent_wrong"
    named = probe.expect.parameters.get("supplier_ids")
    if named and probe.expect.bounds is not None:
        # one named supplier: its total and the verdict (yes when it is on the asked side)
        total = exp.named_total
        verdict = re.match(r"\s*(yes|no)\b", body, re.I)
        right = verdict is not None and (verdict.group(1).lower() == "yes") == bool(exp.tokens)
        if right and total is not None and _present(total, body):
            return "exact"
        return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"
    if not exp.tokens and re.search(r"\bno\b", body, re.I) and not any(
            re.search(rf"\b{re.escape(a)}\b", body.split(". ")[0]) for a in exp.absent):
        ok = True
    else:
        ok = bool(exp.tokens) and all(_present(t, body) for t in exp.tokens)
    if ok and not any(re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", body) for a in exp.absent):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def _direct(client: Any, headers: Mapping[str, str], call: Call) -> Mapping[str, Any]:
    response = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
        "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": None})
    if response.status_code != 200:
        raise SystemExit(f"direct {call.metric} call failed: {response.text[:300]}")
    body: Mapping[str, Any] = response.json()
    return body


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        exp = expected(probe.expect, _direct(session.client, session.headers, probe.expect)) if probe.expect else None
        status, text, _ = session.ask(probe.question, AS_OF)
        said = f"{list(exp.tokens)} absent {list(exp.absent)}" if exp else "clarification"
        outcome = classify(probe, status, text, exp)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, said, status, text))

    return run_probes(database, "probes-thresholds", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES), width=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


if __name__ == "__main__":
    main()
