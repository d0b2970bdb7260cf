"""Clarification probes: questions whose every constraint the governed metrics serve, generated from slot grammars,
asked through ``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_clarify [--database procura] [--seed 1] [--per-class 40] [--class change]
[--show wrong|all|none] [--json out.json]`` fills frames of analyst and casual wording (breakdowns incl. two keys,
currencies, period changes, counts, rankings, shares, statuses, exclusions, supplier spellings, amount notations,
periods, unit prices) with seeded slot values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15):
suppliers by id, name, alias, short name, legal-form-less name, case variant and one-edit typo; companies by name
and id; product groups by name, case and typo; products by code; periods in every form; amounts in every notation.

Each probe carries the governed call its slot values mean (:class:`evaluation.constraint_probes.Call`), or the
words a clarification must be about when no governed metric serves it. Outcomes:

* ``exact``: every figure (and id) of the direct call is in the answer (no data where the call has none);
* ``clar_ok``: a clarification where one is expected, about the expected point;
* ``false_clar``: a clarification where the direct call answers the question;
* ``clar_wrong_point``: a clarification where one is expected, about another point;
* ``refusal``: not found / unsupported / failed where an answer was expected;
* ``silent_wrong``: another answer presented as complete (``flagged`` when it says it is partial).

The seed picks frames and slot values, so ``--seed 1`` (the training half the router is fixed on) and ``--seed 2``
(the held-out half, only measured) ask different questions from the same grammar. Written from the slot grammar
alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from evaluation.constraint_probes import Call, _present, _tokens
from evaluation.probe_client import ProbeClient, cli
from evaluation.probe_runner import Checked, run_probes, shown

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)

# -- vocabulary (demo tenant-42, seed 42) -----------------------------------------------------------------------
#: Supplier spellings by kind: the id, the master name, aliases, the short name, the alias without its legal form,
#: case variants and one-edit typos.
SUPPLIERS: dict[str, dict[str, tuple[str, ...]]] = {
    "SUP-18": {"id": ("SUP-18",), "name": ("Supplier Beta",), "alias": ("Beta Supplies GmbH", "BETA SUPPLIES"),
               "short": ("Beta",), "no_legal": ("Beta Supplies",), "case": ("beta", "supplier beta", "BETA"),
               "typo": ("Suplier Beta", "Beta Suplies")},
    "SUP-22": {"id": ("SUP-22",), "name": ("Supplier Epsilon",), "alias": ("Epsilon Instruments Inc",
                                                                            "Epsilon Instr."),
               "short": ("Epsilon",), "no_legal": ("Epsilon Instruments",), "case": ("epsilon", "EPSILON"),
               "typo": ("Epsilom", "Epsilon Instrumets")},
    "SUP-27": {"id": ("SUP-27",), "name": ("Supplier Gamma",), "alias": ("Gamma Control Systems AG",
                                                                          "Gamma Controls"),
               "short": ("Gamma",), "no_legal": ("Gamma Control Systems",), "case": ("gamma", "gamma controls"),
               "typo": ("Gamma Contrls", "Supplier Gama")},
    "SUP-31": {"id": ("SUP-31",), "name": ("Supplier Delta",), "alias": ("Delta Enclosures Ltd", "DELTA ENCLOSURES"),
               "short": ("Delta",), "no_legal": ("Delta Enclosures",), "case": ("delta", "delta enclosures"),
               "typo": ("Delta Enclosure", "Delta Enclosurs")},
    "SUP-35": {"id": ("SUP-35",), "name": ("Supplier Zeta",), "alias": ("Zeta Sensorik GmbH", "Zeta Sensorik"),
               "short": ("Zeta",), "no_legal": ("Zeta Sensorik",), "case": ("zeta", "ZETA SENSORIK"),
               "typo": ("Zeta Sensorick", "Zeta Snsorik")},
    "SUP-52": {"id": ("SUP-52",), "name": ("Supplier Theta",), "alias": ("Theta Präzision AG",),
               "short": ("Theta",), "no_legal": ("Theta Präzision",), "case": ("theta", "THETA"),
               "typo": ("Theta Prazision",)},
    "SUP-60": {"id": ("SUP-60",), "name": ("Supplier Iota",), "alias": ("Iota Cable Works Ltd", "Iota Cables"),
               "short": ("Iota",), "no_legal": ("Iota Cable Works",), "case": ("iota", "iota cables"),
               "typo": ("Iota Cabels", "Iota Cable Work")},
}
COMPANIES: dict[str, tuple[str, ...]] = {
    "COMP-A": ("Company A", "company A", "COMP-A", "Company A's"),
    "COMP-B": ("Company B", "company b", "COMP-B"),
    "COMP-C": ("Company C", "COMP-C"),
}
#: Product groups: spellings and the leaf ids the group covers (itself and its subgroups).
GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "PG-SENS": (("Sensors", "sensors", "Sensor"), ("PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP")),
    "PG-PRES": (("Pressure Sensors", "pressure sensors", "Presure Sensors"), ("PG-PRES", "PG-PRES-WL")),
    "PG-TEMP": (("Temperature Sensors", "temperature sensors", "Temperatur Sensors"), ("PG-TEMP",)),
    "PG-MCTL": (("Monitoring Controllers", "monitoring controllers"), ("PG-MCTL",)),
    "PG-CAB": (("Control Cabinets", "control cabinets", "Control Cabinet"), ("PG-CAB", "PG-CAB-ACC")),
    "PG-CTRL": (("Control Equipment", "control equipment"), ("PG-CAB", "PG-CAB-ACC", "PG-CMOD", "PG-CTRL",
                                                             "PG-PLC")),
    "PG-CABL": (("Cables and Connectors", "cables and connectors"), ("PG-CABL",)),
    "PG-CAL": (("Calibration Equipment", "calibration equipment"), ("PG-CAL",)),
    "PG-MON": (("Monitoring Products", "monitoring products"), ("PG-FLOW", "PG-MCTL", "PG-MON", "PG-PRES",
                                                                 "PG-PRES-WL", "PG-SENS", "PG-TEMP")),
}
PRODUCTS = ("PRD-482", "PRD-483", "PRD-491", "PRD-510", "PRD-611", "PRD-620", "PRD-701", "PRD-820", "PRD-805")


#: Period phrases as of 2026-05-15: (phrase, start, end exclusive).
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("Q1 2026", "2026-01-01", "2026-04-01"),
    ("in 1Q26", "2026-01-01", "2026-04-01"), ("in Q1'26", "2026-01-01", "2026-04-01"),
    ("last quarter", "2026-01-01", "2026-04-01"), ("last qtr", "2026-01-01", "2026-04-01"),
    ("in Q4 2025", "2025-10-01", "2026-01-01"), ("the last quarter of 2025", "2025-10-01", "2026-01-01"),
    ("in 2025", "2025-01-01", "2026-01-01"), ("FY2025", "2025-01-01", "2026-01-01"),
    ("for FY 2025", "2025-01-01", "2026-01-01"), ("last year", "2025-01-01", "2026-01-01"),
    ("in H1 2025", "2025-01-01", "2025-07-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("in the first half of 2025", "2025-01-01", "2025-07-01"), ("YTD", "2026-01-01", "2026-05-16"),
    ("year to date", "2026-01-01", "2026-05-16"), ("since March", "2026-03-01", "2026-05-16"),
    ("in March 2026", "2026-03-01", "2026-04-01"), ("in Feb 2026", "2026-02-01", "2026-03-01"),
    ("last month", "2026-04-01", "2026-05-01"), ("between Jan 1 and Mar 31 2026", "2026-01-01", "2026-04-01"),
    ("from 2025-07-01 to 2025-12-31", "2025-07-01", "2026-01-01"), ("in Jan-Mar 2026", "2026-01-01", "2026-04-01"),
    ("in Q3 2025", "2025-07-01", "2025-10-01"), ("in 2026", "2026-01-01", "2027-01-01"),
)
#: Periods a comparison reads with its base: (phrase, start, end, compare_to, base start, base end).
CHANGES: tuple[tuple[str, str, str, str, str | None, str | None], ...] = (
    ("QoQ for Q1 2026", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("MoM for March 2026", "2026-03-01", "2026-04-01", "previous_period", None, None),
    ("in Q1 2026 relative to Q1 2025", "2026-01-01", "2026-04-01", "same_period_last_year", None, None),
    ("between Q4 2025 and Q1 2026", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("from Q4 2025 to Q1 2026", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("from H1 2025 to H2 2025", "2025-07-01", "2026-01-01", "previous_period", None, None),
    ("in Q1 2026 against the prior quarter", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("in Q1 2026 vs the same quarter last year", "2026-01-01", "2026-04-01", "same_period_last_year", None, None),
    ("in Feb 2026 vs Jan 2026", "2026-02-01", "2026-03-01", "previous_period", None, None),
    ("in Q1 2026 vs Q4 2025", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("in Q1 2026 compared with Q4 2025", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("in Q1 2026 vs the previous quarter", "2026-01-01", "2026-04-01", "previous_period", None, None),
    ("in Q1 2026 vs Q1 2025", "2026-01-01", "2026-04-01", "same_period_last_year", None, None),
    ("in Q1 2026 year over year", "2026-01-01", "2026-04-01", "same_period_last_year", None, None),
    ("in March 2026 vs February 2026", "2026-03-01", "2026-04-01", "previous_period", None, None),
    ("2026 YTD vs the same period last year", "2026-01-01", "2026-05-16", "same_period_last_year", None, None),
    ("in H2 2025 compared to H1 2025", "2025-07-01", "2026-01-01", "previous_period", None, None),
    ("in Q4 2025 versus Q3 2025", "2025-10-01", "2026-01-01", "previous_period", None, None),
    ("in Q1 2026 compared with Q3 2025", "2026-01-01", "2026-04-01", "custom", "2025-07-01", "2025-10-01"),
)
#: Amount notations: (phrase, threshold, direction, inclusive, upper, upper_inclusive).
AMOUNTS: tuple[tuple[str, str, str, bool, str | None, bool], ...] = (
    ("over €10k", "10000.00", "above", False, None, False), ("above 10k EUR", "10000.00", "above", False, None, False),
    ("over EUR 1.5k", "1500.00", "above", False, None, False),
    ("over 10,000.50 EUR", "10000.50", "above", False, None, False),
    ("over 10.000,50 €", "10000.50", "above", False, None, False),
    ("more than 5,000 euros", "5000.00", "above", False, None, False),
    ("under €500", "500.00", "below", False, None, False),
    ("below 2k EUR", "2000.00", "below", False, None, False),
    ("of at least 20,000 EUR", "20000.00", "above", True, None, False),
    ("> 25k", "25000.00", "above", False, None, False),
    ("between 5k and 10k EUR", "5000.00", "above", True, "10000.00", True),
    ("between €1,000 and €5,000", "1000.00", "above", True, "5000.00", True),
    ("over EUR 0.02m", "20000.00", "above", False, None, False),
    ("exceeding 15 000 EUR", "15000.00", "above", False, None, False),
    ("greater than 10 thousand euros", "10000.00", "above", False, None, False),
    ("of EUR 10,000 or more", "10000.00", "above", True, None, False),
    ("< 1k EUR", "1000.00", "below", False, None, False), ("up to €1,000", "1000.00", "below", True, None, False),
    ("between 5 and 10 thousand EUR", "5000.00", "above", True, "10000.00", True),
    ("north of €25k", "25000.00", "above", False, None, False), ("over 25.000 EUR", "25000.00", "above", False,
                                                                  None, False),
)


@dataclass(frozen=True)
class Probe:
    """One generated question: its class, the slot kinds it varied, and what a correct reader gives."""

    klass: str
    question: str
    expect: Call | None
    #: Words one of which a clarification must contain, when a clarification is the right answer.
    about: tuple[str, ...] = ()
    slots: tuple[str, ...] = field(default=())


# -- slot draws ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Draw:
    company: str
    c: str
    supplier: str
    s: str
    s_kind: str
    supplier2: str
    s2: str
    group: str
    g: str
    period: tuple[str, str, str]
    product: str

    @property
    def p(self) -> str:
        return self.period[0]

    def base(self, **extra: Any) -> dict[str, Any]:
        return {"company_id": self.company, "start_date": self.period[1], "end_date": self.period[2], **extra}

    @property
    def leaves(self) -> list[str]:
        return list(GROUPS[self.group][1])


def _draw(rng: random.Random) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    supplier, supplier2 = rng.sample(sorted(SUPPLIERS), 2)
    kind = rng.choice(sorted(SUPPLIERS[supplier]))
    group = rng.choice(sorted(GROUPS))
    c = rng.choice(COMPANIES[company])
    if c.endswith("'s"):
        c = c[:-2]
    return Draw(company, c, supplier, rng.choice(SUPPLIERS[supplier][kind]), kind, supplier2,
                rng.choice(SUPPLIERS[supplier2]["name"] + SUPPLIERS[supplier2]["short"]), group,
                rng.choice(GROUPS[group][0]), rng.choice(PERIODS), rng.choice(PRODUCTS))


def _total(params: Mapping[str, Any], group_by: tuple[str, ...] = (), grain: str | None = None) -> Call:
    return Call("finance.company_spend", params, group_by, grain)


Frame = tuple[str, Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]]


def _f(template: str, build: Callable[[Draw], Call | None], about: tuple[str, ...] = ()) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        return template.format(c=d.c, s=d.s, s2=d.s2, g=d.g, p=d.p, prd=d.product), build(d), about
    return template, fill


# -- frames by class ----------------------------------------------------------------------------------------------
_BREAKDOWNS: tuple[tuple[str, tuple[str, ...], str | None], ...] = (
    ("by month", (), "month"), ("per month", (), "month"), ("month by month", (), "month"), ("monthly", (), "month"),
    ("broken down by month", (), "month"), ("by quarter", (), "quarter"), ("per quarter", (), "quarter"),
    ("quarterly", (), "quarter"), ("by supplier", ("supplier_id",), None), ("per vendor", ("supplier_id",), None),
    ("broken down by supplier", ("supplier_id",), None), ("split by supplier", ("supplier_id",), None),
    ("by product group", ("top_product_group_id",), None), ("by category", ("product_group_id",), None),
    ("per product", ("product_code",), None), ("by product code", ("product_code",), None),
    ("by supplier and month", ("supplier_id",), "month"), ("per supplier per quarter", ("supplier_id",), "quarter"),
    ("by supplier and product group", ("supplier_id", "top_product_group_id"), None),
    ("by category and month", ("product_group_id",), "month"), ("by vendor and product", ("supplier_id",
                                                                                           "product_code"), None),
    ("grouped by vendor", ("supplier_id",), None), ("for each supplier", ("supplier_id",), None),
    ("per calendar month", (), "month"), ("by week", (), "week"), ("weekly", (), "week"),
    ("by SKU", ("product_code",), None), ("per item", ("product_code",), None),
    ("with a supplier breakdown", ("supplier_id",), None), ("as a monthly breakdown", (), "month"),
    ("across suppliers", ("supplier_id",), None), ("by product category", ("top_product_group_id",), None),
    ("month-by-month", (), "month"), ("by month, per supplier", ("supplier_id",), "month"),
    ("by part number", ("product_code",), None), ("by material group", ("top_product_group_id",), None),
    ("by commodity", ("top_product_group_id",), None), ("per calendar quarter", (), "quarter"),
)


def _breakdown(template: str, scoped: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, dims, grain = rng.choice(_BREAKDOWNS)
        params = d.base()
        if scoped == "supplier":
            if "supplier_id" in dims:
                phrase, dims, grain = "by month", (), "month"
            params["supplier_ids"] = [d.supplier]
        if scoped == "group":
            if "top_product_group_id" in dims:
                phrase, dims, grain = "by supplier", ("supplier_id",), None
            params["product_group_ids"] = d.leaves
        return (template.format(c=d.c, s=d.s, g=d.g, p=d.p, b=phrase), _total(params, dims, grain), ())
    return template, fill


_CURRENCY_ORIGINAL = ("in original currency", "in the original currencies", "in invoice currency",
                      "in the currency invoiced", "in document currency", "by currency", "per currency",
                      "in their own currency", "as invoiced (no conversion)", "in transaction currency",
                      "unconverted, per currency", "in the invoices' currencies", "before FX conversion",
                      "in native currency", "split by invoice currency", "broken down by currency")
_CURRENCY_EUR = ("in EUR", "in euros", "in €", "converted to EUR", "in reporting currency", "in eur",
                 "in EUR equivalent", "translated to euros", "(EUR)", "expressed in EUR", "in group currency EUR")


def _currency(template: str, with_supplier: bool) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra = {"supplier_ids": [d.supplier]} if with_supplier else {}
        roll = rng.random()
        if roll < 0.45:
            phrase = rng.choice(_CURRENCY_ORIGINAL)
            call = Call("finance.document_currency_spend", {**d.base(**extra), "reporting_currency": "EUR"},
                        ("currency",), outputs=("document_spend",))
        elif roll < 0.75:
            phrase = rng.choice(_CURRENCY_EUR)
            call = _total(d.base(**extra))
        elif with_supplier and roll < 0.85:
            # a named supplier's spend "in USD": a conversion into USD is no governed figure, the supplier's USD
            # invoices are (as invoiced, beside their EUR amount; router/currency.py)
            cur, word = rng.choice((("USD", "USD"), ("USD", "US dollars"), ("GBP", "GBP"), ("GBP", "pounds"),
                                    ("CHF", "CHF"), ("CHF", "Swiss francs")))
            call = Call("finance.document_currency_spend", {**d.base(**extra), "document_currency": cur},
                        outputs=("document_spend",))
            return template.format(c=d.c, s=d.s, p=d.p, cur=f"in {word}"), call, ()
        else:
            cur = rng.choice(("USD", "GBP", "CHF"))
            phrase = rng.choice((f"on {cur} invoices", f"invoiced in {cur}", f"in {cur} (as invoiced)",
                                 f"on invoices denominated in {cur}", f"for {cur}-denominated invoices",
                                 f"on invoices in {cur}"))
            call = Call("finance.document_currency_spend", {**d.base(**extra), "document_currency": cur},
                        outputs=("document_spend",))
        return template.format(c=d.c, s=d.s, p=d.p, cur=phrase), call, ()
    return template, fill


def _change(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, start, end, rule, bs, be = rng.choice(CHANGES)
        params: dict[str, Any] = {"company_id": d.company, "start_date": start, "end_date": end, "compare_to": rule}
        if bs:
            params |= {"base_start_date": bs, "base_end_date": be}
        if scope == "supplier":
            params["supplier_ids"] = [d.supplier]
        elif scope == "group":
            params["product_group_ids"] = d.leaves
        call = Call("finance.spend_comparison", params, outputs=("total_spend", "base_value", "change"))
        return template.format(c=d.c, s=d.s, g=d.g, cp=phrase), call, ()
    return template, fill


def _counts(template: str, what: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {}
        if scope == "supplier":
            extra["supplier_ids"] = [d.supplier]
        elif scope == "group":
            extra["product_group_ids"] = d.leaves
        if what == "credit_note":
            extra["document_types"] = ["credit_note"]
        elif what == "invoice":
            extra["document_types"] = ["invoice"]
        call = Call("finance.invoice_count", d.base(**extra), outputs=("invoice_count",))
        return template.format(c=d.c, s=d.s, g=d.g, p=d.p), call, ()
    return template, fill


_RANKS: tuple[tuple[str, int, str, str], ...] = (
    ("top five suppliers", 5, "top", "supplier_id"), ("five largest vendors", 5, "top", "supplier_id"),
    ("top-3 suppliers", 3, "top", "supplier_id"), ("three smallest suppliers", 3, "bottom", "supplier_id"),
    ("highest-spend supplier", 1, "top", "supplier_id"), ("top three product categories", 3, "top",
                                                           "top_product_group_id"),
    ("top 10 products", 10, "top", "product_code"), ("lowest-spend vendor", 1, "bottom", "supplier_id"),
    ("top 5 suppliers", 5, "top", "supplier_id"), ("top 3 vendors", 3, "top", "supplier_id"),
    ("3 biggest suppliers", 3, "top", "supplier_id"), ("largest supplier", 1, "top", "supplier_id"),
    ("bottom 3 suppliers", 3, "bottom", "supplier_id"), ("2 smallest vendors", 2, "bottom", "supplier_id"),
    ("top 3 product groups", 3, "top", "top_product_group_id"), ("top 5 products", 5, "top", "product_code"),
    ("least used supplier", 1, "bottom", "supplier_id"), ("top 2 categories", 2, "top", "top_product_group_id"),
    ("biggest product group", 1, "top", "top_product_group_id"), ("top supplier", 1, "top", "supplier_id"),
)


def _ranking(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, limit, direction, dim = rng.choice(_RANKS)
        extra: dict[str, Any] = {}
        if scope == "group":
            if dim == "top_product_group_id":
                phrase, limit, direction, dim = "top 3 suppliers", 3, "top", "supplier_id"
            extra["product_group_ids"] = d.leaves
        elif scope == "exclude":
            if dim != "supplier_id":
                phrase, limit, direction, dim = "top 3 suppliers", 3, "top", "supplier_id"
            extra["exclude_supplier_ids"] = [d.supplier]
        call = Call("finance.spend_ranking", {**d.base(**extra), "limit": limit, "direction": direction,
                                              "order_by": "total_spend"}, (dim,))
        return template.format(c=d.c, s=d.s, g=d.g, p=d.p, r=phrase), call, ()
    return template, fill


def _most(template: str, dim: str, direction: str = "top") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        call = Call("finance.spend_ranking", {**d.base(), "limit": 1, "direction": direction,
                                              "order_by": "total_spend"}, (dim,))
        return template.format(c=d.c, p=d.p), call, ()
    return template, fill


def _share(template: str, part: str, within: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        if part == "supplier":
            params = d.base(supplier_ids=[d.supplier])
            if within == "group":
                params["product_group_ids"] = d.leaves
            call = Call("finance.supplier_share", params, outputs=("share_percent",))
        else:
            params = d.base(product_group_ids=d.leaves)
            call = Call("finance.product_group_share", params, outputs=("share_percent",))
        return template.format(c=d.c, s=d.s, g=d.g, p=d.p), call, ()
    return template, fill


_STATUSES: tuple[tuple[str, dict[str, Any] | None, tuple[str, ...]], ...] = (
    ("paid", {"invoice_statuses": ["paid"]}, ()), ("unpaid", {"invoice_statuses": ["posted"]}, ()),
    ("open", {"invoice_statuses": ["posted"]}, ()), ("outstanding", {"invoice_statuses": ["posted"]}, ()),
    # Drafts never count as spend (the accounting policy): a clarification naming them is the right answer.
    ("settled", {"invoice_statuses": ["paid"]}, ()), ("draft", None, ("draft",)),
    ("not yet paid", {"invoice_statuses": ["posted"]}, ()), ("still open", {"invoice_statuses": ["posted"]}, ()),
    ("already paid", {"invoice_statuses": ["paid"]}, ()), ("cleared", {"invoice_statuses": ["paid"]}, ()),
    ("overdue", None, ("overdue", "status", "due")), ("disputed", None, ("disputed", "status")),
)


def _status(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        word, extra, about = rng.choice(_STATUSES)
        if scope == "supplier" and extra is not None:
            extra = {**extra, "supplier_ids": [d.supplier]}
        call = _total(d.base(**extra)) if extra is not None else None
        return template.format(c=d.c, s=d.s, p=d.p, st=word), call, about
    return template, fill


def _credit(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        extra: dict[str, Any] = {"document_types": ["credit_note"]}
        if scope == "supplier":
            extra["supplier_ids"] = [d.supplier]
        if "excluding credit notes" in template or "without credit notes" in template:
            extra["document_types"] = ["invoice"]
        return template.format(c=d.c, s=d.s, p=d.p), _total(d.base(**extra)), ()
    return template, fill


_EXCLUDE = ("excluding", "other than", "except", "without", "not counting", "apart from", "except for",
            "leaving out", "ex.", "excl.", "minus", "but not", "w/o", "ignoring", "besides")


def _exclusion(template: str, what: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        word = rng.choice(_EXCLUDE)
        if what == "supplier":
            params = d.base(exclude_supplier_ids=[d.supplier])
            x = d.s
        elif what == "two":
            params = d.base(exclude_supplier_ids=sorted({d.supplier, d.supplier2}))
            x = f"{d.s} and {d.s2}"
        else:
            params = d.base(exclude_product_group_ids=d.leaves)
            x = d.g
        return template.format(c=d.c, x=x, p=d.p, ex=word), _total(params), ()
    return template, fill


def _alias(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        call = Call("finance.aggregate_spend", d.base(supplier_ids=[d.supplier]))
        return template.format(c=d.c, s=d.s, p=d.p), call, ()
    return template, fill


def _amounts(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, threshold, direction, inclusive, upper, upper_incl = rng.choice(AMOUNTS)
        params: dict[str, Any] = d.base(threshold=threshold, direction=direction, inclusive=inclusive)
        if upper:
            params |= {"upper_threshold": upper, "upper_inclusive": upper_incl}
        if scope == "supplier":
            params["supplier_ids"] = [d.supplier]
        call = Call("finance.invoices_above_threshold", params, outputs=("invoice_number",))
        return template.format(c=d.c, s=d.s, p=d.p, a=phrase), call, ()
    return template, fill


def _unit(template: str, scope: str = "") -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        params: dict[str, Any] = {"product_code": d.product, "start_date": d.period[1], "end_date": d.period[2],
                                  "company_id": d.company}
        if scope == "all":
            params.pop("company_id")
        call = Call("catalog.average_unit_price", params, outputs=("unit_price",))
        if scope == "cheapest":
            params.pop("company_id")
            call = Call("catalog.average_unit_price", params, ("supplier_id",), outputs=("unit_price",))
        return template.format(c=d.c, s=d.s, p=d.p, prd=d.product), call, ()
    return template, fill


def _period(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        return template.format(c=d.c, p=d.p), _total(d.base()), ()
    return template, fill


def _missing_company(template: str, about: tuple[str, ...]) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        return template.format(s=d.s, p=d.p, g=d.g, prd=d.product), None, about
    return template, fill


def _lines(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        call = Call("finance.company_spend", d.base(), outputs=("matched_line_count",))
        return template.format(c=d.c, p=d.p), call, ()
    return template, fill


def _unknown(template: str, about: tuple[str, ...]) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        name = rng.choice(("Supplier Omega", "Omikron Tools GmbH", "Hydraulic Pumps", "Kappa Industries"))
        return template.format(c=d.c, p=d.p, u=name), None, (name.split()[0], *about)
    return template, fill


FRAMES: dict[str, tuple[Frame, ...]] = {
    "breakdown": (
        _breakdown("{c} spend {p} {b}"), _breakdown("What did {c} spend {p}, {b}?"),
        _breakdown("Show {c}'s spend {p} {b}"), _breakdown("{c} spend with {s} {p} {b}", "supplier"),
        _breakdown("{c} spend on {g} {p} {b}", "group"), _breakdown("{c} total spend {b} {p}"),
        _breakdown("Break down {c} spend {p} {b}"), _breakdown("How much did {c} spend {p} {b}?"),
        _breakdown("Give me {c}'s spend {p} {b}, please"), _breakdown("{c}: spend {p}, {b}"),
        _breakdown("Can you show {c}'s spend {b} for {p}?"), _breakdown("{c} purchases {p} {b}"),
        _breakdown("I need {c}'s spend with {s} {p} {b}", "supplier"),
        _breakdown("What was {c}'s spend on {g} {p}, {b}?", "group"),
        _breakdown("{c} spend {b}, {p}"), _breakdown("Please split {c}'s spend {p} {b}"),
        _breakdown("{c}'s total purchases {p} {b}"), _breakdown("Spend of {c} {p} {b}"),
    ),
    "currency": (
        _currency("{c} spend {p} {cur}", False), _currency("{c} spend with {s} {p} {cur}", True),
        _currency("How much did {c} spend {p} {cur}?", False), _currency("What did {c} pay {s} {p} {cur}", True),
        _currency("{c} total spend {cur} {p}", False), _currency("Show {c}'s spend {p} {cur}", False),
        _currency("What was {c}'s spend with {s} {p}, {cur}?", True),
        _currency("{c}'s purchases from {s} {p} {cur}", True),
    ),
    "change": (
        _change("How did {c}'s spend change {cp}?"), _change("{c} spend {cp}"),
        _change("{c} spend growth {cp}"), _change("{c} spend with {s} {cp}", "supplier"),
        _change("Delta in {c} spend on {g} {cp}", "group"), _change("Is {c}'s spend up or down {cp}?"),
        _change("% change in {c} spend {cp}"), _change("{c}: spend with {s} {cp}, change", "supplier"),
        _change("How much did {c}'s spend on {g} grow {cp}?", "group"),
        _change("By how much did {c}'s spend move {cp}?"), _change("Difference in {c}'s spend {cp}"),
        _change("Did {c} spend more or less with {s} {cp}?", "supplier"),
        _change("What's the variance in {c} spend {cp}?"), _change("{c} spend change {cp}, in % and EUR"),
        _change("How much more or less did {c} spend with {s} {cp}?", "supplier"),
        _change("{c}: {g} spend change {cp}", "group"), _change("Compare {c}'s spend {cp}"),
        _change("{c}'s spend trend {cp}: up or down?"), _change("{c} spend on {g} {cp}: increase or decrease?",
                                                                   "group"),
    ),
    "counts": (
        _counts("How many invoices did {c} receive {p}?", "invoice"),
        _counts("How many invoices from {s} {p} for {c}", "invoice", "supplier"),
        _counts("Number of invoices {c} got {p}", "invoice"),
        _counts("How many credit notes did {c} get {p}?", "credit_note"),
        _counts("Count of credit notes from {s} for {c} {p}", "credit_note", "supplier"),
        _counts("# of invoices {c} {p}", "invoice"), _counts("{c} invoice count {p}", "invoice"),
        _counts("How many invoices for {g} did {c} receive {p}", "invoice", "group"),
        _counts("How many documents (invoices and credit notes) did {c} get from {s} {p}", "all", "supplier"),
        _counts("How many invoices did {s} send {c} {p}?", "invoice", "supplier"),
        _counts("How many bills did {c} get from {s} {p}?", "invoice", "supplier"),
        _counts("Total number of {s} invoices for {c} {p}", "invoice", "supplier"),
        _lines("How many invoice lines did {c} have {p}?"), _lines("Number of invoice lines for {c} {p}"),
        _counts("How many times did {s} invoice {c} {p}?", "invoice", "supplier"),
        _counts("Invoice volume (count) from {s} for {c} {p}", "invoice", "supplier"),
        _counts("How many credit memos did {s} issue to {c} {p}?", "credit_note", "supplier"),
        _counts("{c}: number of credit notes received {p}", "credit_note"),
        _counts("How many invoices has {c} booked from {s} {p}?", "invoice", "supplier"),
        _counts("Count the invoices {c} received {p}", "invoice"),
    ),
    "ranking": (
        _ranking("{r} of {c} {p}"), _ranking("{c}'s {r} {p}"), _ranking("Who were {c}'s {r} {p}?"),
        _ranking("{c} {r} by spend {p}"), _ranking("{c} {r} for {g} {p}", "group"),
        _ranking("{c} {r} {p} excluding {s}", "exclude"), _ranking("Show me the {r} for {c} {p}"),
        _ranking("List {c}'s {r} {p}"), _ranking("What are the {r} at {c} {p}?"),
        _most("Which supplier did {c} spend most with {p}?", "supplier_id"),
        _most("Which vendor did {c} spend the least with {p}?", "supplier_id", "bottom"),
        _most("Which product group did {c} spend the most on {p}?", "top_product_group_id"),
        _most("Who got the most of {c}'s money {p}?", "supplier_id"),
        _most("{c}'s number one supplier {p}", "supplier_id"),
        _most("Which product did {c} spend the most on {p}?", "product_code"),
        _most("{c} supplier with the highest spend {p}", "supplier_id"),
        _most("{c} supplier with the lowest spend {p}", "supplier_id", "bottom"),
        _ranking("Rank {c}'s {r} {p}"), _ranking("{c} - {r} - {p}"), _ranking("Name the {r} of {c} {p}"),
        _most("Which vendor received the most from {c} {p}?", "supplier_id"),
        _most("Who did {c} buy the most from {p}?", "supplier_id"),
        _most("Rank {c}'s suppliers by spend {p}", "supplier_id"),
    ),
    "shares": (
        _share("What % of {c}'s spend {p} went to {s}?", "supplier"),
        _share("{s}'s share of {c} spend {p}", "supplier"),
        _share("What portion of {c} spend {p} was with {s}", "supplier"),
        _share("What fraction of {c}'s spend went to {s} {p}", "supplier"),
        _share("{s} as a percentage of {c}'s total spend {p}", "supplier"),
        _share("What share of {c}'s {g} spend {p} went to {s}?", "supplier", "group"),
        _share("What % of {c} spend {p} was on {g}?", "group"),
        _share("{g} share of {c} spend {p}", "group"),
        _share("How much of {c}'s spend {p} was {g}, in percent", "group"),
        _share("What percent of {c}'s spend {p} was with {s}?", "supplier"),
        _share("How big a share of {c}'s spend did {s} get {p}?", "supplier"),
        _share("What proportion of {c}'s spend {p} went to {g}?", "group"),
        _share("{s}'s slice of {c}'s spend {p}", "supplier"),
        _share("Percentage of {c} spend with {s} {p}", "supplier"),
        _share("{s} % share of {c} spend {p}", "supplier"),
        _share("What percent of {c}'s spend {p} was {g}?", "group"),
        _share("{c}: share of spend going to {s} {p}", "supplier"),
        _share("What share of wallet did {s} have at {c} {p}?", "supplier"),
        _share("{g} as a share of {c}'s total spend {p}", "group"),
    ),
    "status": (
        _status("{c} {st} invoices total {p}"), _status("{c} spend {p} on {st} invoices"),
        _status("How much of {c}'s spend {p} is {st}?"), _status("{c} {st} spend with {s} {p}", "supplier"),
        _status("Total of {st} invoices from {s} {p} for {c}", "supplier"),
        _status("What is the value of {c}'s {st} invoices {p}?"),
        _status("Sum of {st} invoices from {s} for {c} {p}", "supplier"),
        _status("How much is {st} with {s} for {c} {p}?", "supplier"),
        _status("{c} total {st} amount {p}"), _status("{c}: {st} invoices from {s} {p}, total value", "supplier"),
        _credit("{c} credit notes {p}"), _credit("Total credit notes from {s} {p} for {c}", "supplier"),
        _credit("{c} spend {p} excluding credit notes"), _credit("{c} spend with {s} {p} without credit notes",
                                                                 "supplier"),
        _credit("How much did {s} credit {c} {p}?", "supplier"),
    ),
    "exclusions": (
        _exclusion("{c} spend {p} {ex} {x}", "supplier"), _exclusion("{c} spend {ex} {x} {p}", "supplier"),
        _exclusion("How much did {c} spend {p}, {ex} {x}?", "supplier"),
        _exclusion("{c} spend {p} {ex} {x}", "two"), _exclusion("{c} spend {p} {ex} {x}", "group"),
        _exclusion("Total {c} spend {ex} {x} {p}", "group"),
        _exclusion("What did {c} spend {p} with suppliers {ex} {x}?", "supplier"),
        _exclusion("{c} spend {p} on everything {ex} {x}", "group"),
        _exclusion("{c}'s spend {p} {ex} {x}", "two"),
        _exclusion("{c} spend {p} with all suppliers {ex} {x}", "supplier"),
        _exclusion("{c} spend {p} ({ex} {x})", "supplier"), _exclusion("{c} spend {p} ({ex} {x})", "group"),
    ),
    "alias": (
        _alias("How much did {c} spend with {s} {p}?"), _alias("{c} spend with {s} {p}"),
        _alias("What did {c} pay {s} {p}"), _alias("{s} spend {p} for {c}"), _alias("{c}: total paid to {s} {p}"),
        _alias("spend w/ {s} {p} ({c})"), _alias("What did {c} spend at {s} {p}?"),
        _alias("{c}'s spend on {s} {p}"), _alias("{c} purchases from {s} {p}"),
        _alias("How much did {c} buy from {s} {p}?"), _alias("{c}'s {s} spend {p}"),
        _alias("{c}'s spend at {s} {p}"), _alias("How much went to {s} {p} ({c})?"),
        _alias("{c} vendor spend - {s} - {p}"), _alias("Total invoiced by {s} to {c} {p}"),
        _alias("How much has {c} spent with {s} {p}?"),
    ),
    "amounts": (
        _amounts("{c} invoices {a} {p}"), _amounts("Which invoices {a} did {c} get {p}?"),
        _amounts("List {c} invoices {a} {p}"), _amounts("{c} invoices from {s} {a} {p}", "supplier"),
        _amounts("Invoices {a} for {c} {p}"), _amounts("Show me {c}'s invoices {a} {p}"),
        _amounts("Any {c} invoices {a} {p}?"),
    ),
    "periods": (
        _period("{c} spend {p}"), _period("How much did {c} spend {p}?"), _period("Total spend for {c} {p}"),
        _period("What was {c}'s spend {p}"), _period("{c}: what did we spend {p}?"),
    ),
    "unit_price": (
        _unit("avg unit price of {prd} for {c} {p}"), _unit("Price per unit of {prd} {p} at {c}"),
        _unit("What did {c} pay per unit for {prd} {p}?"), _unit("Average price of {prd} {p} ({c})"),
        _unit("avg unit price {prd} {p}", "all"), _unit("Which supplier was cheapest for {prd} {p}?", "cheapest"),
        _unit("{prd} unit cost {p}, {c}"), _unit("Who sold {prd} cheapest {p}?", "cheapest"),
        _unit("What was the average unit price {c} paid for {prd} {p}?"),
        _unit("Mean price per unit of {prd} across all companies {p}", "all"),
        _unit("What's the avg price {c} paid per unit of {prd} {p}?"), _unit("{prd} avg unit price {p} {c}"),
        _unit("{prd}: average cost per piece {p} at {c}"), _unit("Which vendor offered {prd} cheapest {p}?",
                                                                   "cheapest"),
    ),
    "clarify": (
        _missing_company("How much did we spend with {s} {p}?", ("company",)),
        _missing_company("Top 3 suppliers {p}", ("company",)),
        _missing_company("Spend on {g} {p}", ("company",)),
        _missing_company("How many invoices from {s} {p}?", ("company",)),
        _unknown("{c} spend with {u} {p}", ("supplier", "vendor", "product group", "category")),
        _unknown("How much did {c} spend on {u} {p}?", ("supplier", "vendor", "product group", "category")),
        _unknown("{c} invoices from {u} {p}", ("supplier", "vendor")),
    ),
}


_PREFIXES = ("Quick question: ", "Could you tell me: ", "For the board deck, ", "Hi, ", "Pls: ", "FYI need: ")
_SUFFIXES = (" please", ", thanks", " - need it for the monthly report", " (approx is fine)", "??", " asap")


def _style(question: str, rng: random.Random) -> str:
    """Analyst noise: a greeting or a request prefix, a trailing courtesy, Title Case words."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(_PREFIXES) + question[0].lower() + question[1:]
    if roll < 0.3:
        return question.rstrip("?") + rng.choice(_SUFFIXES)
    if roll < 0.4:
        return " ".join(w[0].upper() + w[1:] if w.isalpha() and w.islower() and len(w) > 3 else w
                        for w in question.split(" "))
    return question


def probes(seed: int, per_class: int = 30) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 3):
            if len(seen) >= per_class:
                break
            _, fill = rng.choice(frames)
            draw = _draw(rng)
            question, call, about = fill(draw, rng)
            question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, call, about, (draw.s_kind,)))
    return found


# -- asking and classifying ---------------------------------------------------------------------------------------
def classify(probe: Probe, status: str, text: str, expected: list[str] | None, no_rows: bool) -> str:
    """The outcome of one answer (see the module docstring)."""
    if status == "clarification":
        if probe.expect is None:
            return "clar_ok" if any(w.lower() in text.lower() for w in probe.about) else "clar_wrong_point"
        return "false_clar"
    if probe.expect is None:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if no_rows:
        # a share over an empty whole is "undefined": no data, stated as such
        return "exact" if status == "no_data" or "no " in text.lower() or " 0 " in text \
            or "undefined" in text.lower() else "silent_wrong"
    if expected and all(_present(t, text) for t in expected):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def _normalize(call: Call, result: Mapping[str, Any]) -> tuple[list[str], bool]:
    rows = result.get("rows") or []
    tokens = _tokens(result, call)
    if call.metric == "finance.invoice_count":
        return tokens or ["0"], False  # 0 is a count
    if call.outputs == ("matched_line_count",):
        return [str((rows[0].get("values") or {}).get("matched_line_count", 0)) if rows else "0"], False
    empty = not rows or all(not any(v is not None for k, v in (r.get("values") or {}).items()
                                    if k in call.outputs) for r in rows)
    if call.metric in ("finance.company_spend", "finance.aggregate_spend") and rows:
        empty = all(str((r.get("values") or {}).get("matched_line_count", "1")) == "0" for r in rows)
    if call.metric == "catalog.average_unit_price" and call.group_by and rows:
        # "which supplier was cheapest": the cheapest supplier's id and price
        priced = [r for r in rows if (r.get("values") or {}).get("unit_price") is not None]
        if priced:
            best = min(priced, key=lambda r: float(r["values"]["unit_price"]))
            return [str(best["values"]["supplier_id"]), str(best["values"]["unit_price"])], False
    return tokens, empty


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        expected: list[str] | None = None
        no_rows = False
        if probe.expect is not None:
            expected, no_rows = _normalize(probe.expect, session.direct(probe.expect, probe.question))
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(probe, status, text, expected, no_rows)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question,
                                                   f"{expected}{' (none)' if no_rows else ''}", status, text))

    return run_probes(database, "probes-clarify", (TENANT,), found, check, show)


CLASSES = ("exact", "clar_ok", "false_clar", "clar_wrong_point", "refusal", "flagged", "silent_wrong")


def outcome_table(counts: Counter[tuple[str, str]], rows: Sequence[str], *, label: str = "class", width: int = 12,
                  column: int = 16, total: bool = True, every_row: bool = False) -> str:
    """Counts by (row, outcome class) as a text table: the rows in the order given (those without counts left
    out unless ``every_row``) and a total line; every probe generator prints its results with it."""
    lines = [f"{label:{width}} " + " ".join(f"{k:>{column}}" for k in CLASSES)]
    for row in rows:
        if every_row or any(c == row for c, _ in counts):
            lines.append(f"{row:{width}} " + " ".join(f"{counts[(row, k)]:>{column}}" for k in CLASSES))
    if total:
        lines.append(f"{'total':{width}} " + " ".join(
            f"{sum(v for (_, c), v in counts.items() if c == k):>{column}}" for k in CLASSES))
    return "\n".join(lines)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table)


if __name__ == "__main__":
    main()
