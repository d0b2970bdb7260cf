"""Governed-figure probes for amounts, counts, currency shares and products named by their catalogue name: questions
generated from slot grammars, asked through ``/v1/ask`` and compared with the governed metric called directly with
the slot values.

``python -m evaluation.probes_governed [--database procura] [--seed 1] [--per-class 30] [--class counts]
[--show wrong|all|none] [--json out.json]`` fills frames of analyst and casual wording with seeded slot values of
the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15; the vocabulary of :mod:`evaluation.probes_clarify`).

Classes:

* ``counts``: distinct suppliers or products bought from or bought ("number of distinct supplers", "how many
  different products", "# of unique vendors"), the counted noun also with a one-edit slip, optionally from one
  supplier or in one product group: ``finance.supplier_count`` / ``finance.product_count``;
* ``currency_share``: the share of the spend invoiced in one currency ("what share of X's spend was billed in
  pounds"), for one company or all of them ("group-wide"): ``finance.currency_share``;
* ``company_shares``: a supplier's or a product group's share of the spend of all the tenant's companies
  ("Beta's share of group-wide spend"): ``finance.supplier_share`` / ``finance.product_group_share`` without a
  company;
* ``two_currencies``: one invoice currency's invoices shown in itself and in the reporting currency ("CHF
  invoices - in francs and in euros", "dollar (USD) invoices, converted to EUR"):
  ``finance.document_currency_spend`` with ``document_currency``;
* ``product_names``: a product named by the model code inside its catalogue name, with its head noun, or by the
  name without the code ("the PT100 probe", "the temperature probe") in unit-price and spend questions:
  ``catalog.average_unit_price`` / ``finance.company_spend`` with the product; a name several products share
  ("the pressure sensor") is a clarification listing them.

An expected answer is the metric's value (a count, a share percent, the invoice-currency and reporting amounts, a
unit price or a total) found in the answer before "Read as:"; a clarification probe expects a clarification naming
the slot (``about``). Outcomes as in :mod:`evaluation.probes_clarify`. ``--seed 1`` is the training half;
``--seed 2`` is held out (only its counts are read). Written from the slot grammar alone, never from an evaluation
question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from evaluation.constraint_probes import _present
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, SUPPLIERS, TENANT, outcome_table

#: Periods whose phrase names one period only (no ranges with a second date-like bound).
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in Q4 2025", "2025-10-01", "2026-01-01"),
    ("in 2025", "2025-01-01", "2026-01-01"), ("in FY2025", "2025-01-01", "2026-01-01"),
    ("in H2 2025", "2025-07-01", "2026-01-01"), ("last quarter", "2026-01-01", "2026-04-01"),
    ("in March 2026", "2026-03-01", "2026-04-01"), ("last year", "2025-01-01", "2026-01-01"),
)
#: Counted nouns: (metric, spellings with one-edit slips).
COUNTED: dict[str, tuple[str, tuple[str, ...]]] = {
    "suppliers": ("finance.supplier_count", ("suppliers", "vendors", "supplers", "vendros", "suppliars")),
    "products": ("finance.product_count", ("products", "product codes", "prodcuts", "producst")),
}
DISTINCT = ("distinct", "different", "unique", "")
#: Currencies other than the reporting currency (EUR): code and words.
FOREIGN: dict[str, tuple[str, ...]] = {
    "USD": ("USD", "US dollars", "dollars"), "GBP": ("GBP", "pounds", "British pounds"),
    "CHF": ("CHF", "Swiss francs", "francs"),
}
REPORTING_WORDS = ("EUR", "euros", "euro")
#: A currency's word written with its code after it ("dollar (USD) invoices").
WORD_AND_CODE = {"USD": ("dollar", "US dollar"), "GBP": ("sterling", "pound"), "CHF": ("Swiss franc", "franc")}
ALL_COMPANIES = ("group-wide", "across all companies", "across the group", "for all companies")
#: Products named by a code inside the name, code + head noun, or the name without its code: (code, phrases).
PRODUCT_NAMES: dict[str, tuple[str, ...]] = {
    "PRD-491": ("PT100", "the PT100 probe", "PT100 probes", "the temperature probe"),
    "PRD-482": ("DPS-482", "the DPS-482 sensor", "the differential pressure sensor"),
    "PRD-611": ("MC-4", "the MC-4 controller"),
    "PRD-510": ("FS-50", "the FS-50 sensor"),
}
#: Names several products share: (phrase, the codes a clarification must list).
SHARED_NAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the pressure sensor", ("PRD-482", "PRD-483", "PRD-530")),
)


@dataclass(frozen=True)
class Call:
    metric: str
    parameters: Mapping[str, Any]
    #: The output columns whose values must be in the answer.
    outputs: tuple[str, ...]


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
    group: str
    g: str
    period: tuple[str, str, str]

    @property
    def p(self) -> str:
        return self.period[0]

    def base(self, **extra: Any) -> dict[str, Any]:
        return {"company_id": self.company, "start_date": self.period[1], "end_date": self.period[2], **extra}

    def scope(self, **extra: Any) -> dict[str, Any]:
        """The period without a company: every company of the tenant."""
        return {"start_date": self.period[1], "end_date": self.period[2], **extra}


def _draw(rng: random.Random) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    supplier = rng.choice(sorted(SUPPLIERS))
    spellings = SUPPLIERS[supplier]
    kind = rng.choice(sorted(k for k in spellings if k not in ("typo", "case")))
    group = rng.choice(sorted(GROUPS))
    return Draw(company, rng.choice(COMPANIES[company]).removesuffix("'s"), supplier, rng.choice(spellings[kind]),
                group, rng.choice(GROUPS[group][0][:2]), rng.choice(PERIODS))


Fill = Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]


def _count(template: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        noun = rng.choice(sorted(COUNTED))
        metric, spellings = COUNTED[noun]
        extra: dict[str, Any] = {}
        if scope == "supplier" and noun == "products":
            extra["supplier_ids"] = [d.supplier]
        if scope == "group":
            extra["product_group_ids"] = list(GROUPS[d.group][1])
        words = " ".join(w for w in (rng.choice(DISTINCT), rng.choice(spellings)) if w)
        verb = "buy from" if noun == "suppliers" else "buy"
        q = template.format(c=d.c, p=d.p, n=words, verb=verb, s=d.s, g=d.g)
        if scope == "supplier" and noun == "suppliers":
            return "", None, ()  # a supplier count of one named supplier is no question
        return q, Call(metric, d.base(**extra), (metric.split(".")[1],)), ()
    return fill


def _currency_share(template: str, everyone: bool = False) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        code = rng.choice(sorted(FOREIGN))
        word = rng.choice(FOREIGN[code])
        q = template.format(c=d.c, p=d.p, w=word, code=code, all=rng.choice(ALL_COMPANIES))
        params = d.scope() if everyone else d.base()
        return q, Call("finance.currency_share", {**params, "document_currencies": [code]}, ("share_percent",)), ()
    return fill


def _company_share(template: str, part: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        q = template.format(s=d.s, g=d.g, p=d.p, all=rng.choice(ALL_COMPANIES))
        if part == "supplier":
            return q, Call("finance.supplier_share", d.scope(supplier_ids=[d.supplier]), ("share_percent",)), ()
        return q, Call("finance.product_group_share", d.scope(product_group_ids=list(GROUPS[d.group][1])),
                       ("share_percent",)), ()
    return fill


def _two_currencies(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        code = rng.choice(sorted(FOREIGN))
        q = template.format(c=d.c, p=d.p, code=code, w=rng.choice(FOREIGN[code]), r=rng.choice(REPORTING_WORDS),
                            wc=f"{rng.choice(WORD_AND_CODE[code])} ({code})")
        return q, Call("finance.document_currency_spend", d.base(document_currency=code),
                       ("document_spend", "total_spend")), ()
    return fill


def _product(template: str, metric: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        # over one calendar month a unit price is catalog.unit_price's; the periods here are longer
        d = replace(d, period=rng.choice([p for p in PERIODS if "March" not in p[0]]))
        code = rng.choice(sorted(PRODUCT_NAMES))
        q = template.format(c=d.c, p=d.p, n=rng.choice(PRODUCT_NAMES[code]))
        if metric == "catalog.average_unit_price":
            return q, Call(metric, {**d.base(), "product_code": code}, ("unit_price",)), ()
        return q, Call(metric, {**d.base(), "product_codes": [code]}, ("total_spend",)), ()
    return fill


def _shared_name(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        name, codes = rng.choice(SHARED_NAMES)
        return template.format(c=d.c, p=d.p, n=name), None, codes
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "counts": (
        _count("number of {n} {c} did {verb} {p}"),
        _count("how many {n} did {c} {verb} {p}?"),
        _count("# of {n} {c} bought from {p}"),
        _count("{c}: how many {n} {p}?"),
        _count("how many {n} did {c} buy from {s} {p}?", scope="supplier"),
        _count("number of {n} in {g} that {c} bought {p}", scope="group"),
    ),
    "currency_share": (
        _currency_share("what share of {c}'s spend {p} was invoiced in {w}?"),
        _currency_share("what fraction of {c}'s spend {p} was billed in {w}?"),
        _currency_share("{c}: percentage of spend {p} on {code} invoices"),
        _currency_share("what share of {all} spend {p} was invoiced in {w}?", everyone=True),
        _currency_share("share of {code} invoices in total spend {all} {p}", everyone=True),
    ),
    "company_shares": (
        _company_share("what share of {all} spend {p} went to {s}?", "supplier"),
        _company_share("{s}'s share of total spend {all} {p}", "supplier"),
        _company_share("share of {g} in spend {all} {p}", "group"),
        _company_share("what percentage of {all} spend {p} was on {g}?", "group"),
    ),
    "two_currencies": (
        _two_currencies("{c} {code} invoices {p} - in {w} and in {r}"),
        _two_currencies("{code} invoices of {c} {p}, in {w} and in {r}"),
        _two_currencies("{c} {p}: {code} invoices in {code} and {r}"),
        _two_currencies("how much did {c} spend on {wc} invoices {p}, converted to EUR?"),
    ),
    "product_names": (
        _product("average unit price of {n} at {c} {p}", "catalog.average_unit_price"),
        _product("what did {c} pay per unit for {n} {p} on average?", "catalog.average_unit_price"),
        _product("{c} spend on {n} {p}", "finance.company_spend"),
        _shared_name("average unit price of {n} at {c} {p}"),
    ),
}


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 6):
            if len(seen) >= per_class:
                break
            question, call, about = rng.choice(frames)(_draw(rng), rng)
            if not question or question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question[:1].upper() + question[1:], call, about))
    return found


def classify(probe: Probe, status: str, text: str, values: Sequence[str]) -> str:
    """The outcome of one answer (see :func:`evaluation.probes_clarify.classify`)."""
    if status == "clarification":
        if probe.expect is None:
            return "clar_ok" if all(a in text for a in probe.about) else "clar_wrong_point"
        return "false_clar"
    if probe.expect is None:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    body = text.split(" Read as:")[0]
    if not values:
        return "exact" if status == "no_data" else "silent_wrong"
    if all(_present(v, body) for v in values):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def _values(client: Any, headers: Mapping[str, str], call: Call) -> list[str]:
    response = client.post(f"/v1/metrics/{call.metric}/query", headers=headers,
                           json={"parameters": dict(call.parameters), "group_by": [], "grain": None})
    if response.status_code != 200:
        raise SystemExit(f"direct {call.metric} call failed: {response.text[:300]}")
    rows = response.json().get("rows") or []
    if not rows:
        return ["0"] if call.metric.endswith("_count") else []
    first = rows[0].get("values") or {}
    return [str(first[o]) for o in call.outputs if first.get(o) is not None]


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        values = _values(session.client, session.headers, probe.expect) if probe.expect else []
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(probe, status, text, values)
        return Checked(probe.klass, outcome,
                       shown(probe.klass, outcome, probe.question, values or probe.about, status, text))

    return run_probes(database, "probes-governed", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES), width=16)


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


if __name__ == "__main__":
    main()
