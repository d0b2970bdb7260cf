"""Silent-wrong probes: questions generated from a seeded slot grammar, asked through ``/v1/ask`` and checked
against the governed metric called directly with the slot values.

``python -m evaluation.probes_silent [--database procura] [--seed 42] [--per-frame 3] [--category amounts]
[--show silent_wrong|all|none]`` generates questions over the demo vocabulary of ``tenant-42`` (seed 42, as of
2026-05-15): amounts in every notation and comparator, shares (a supplier's or a group's share of a company's,
a group's or a supplier's spend), German phrasings of every metric, currencies, exclusions, unit prices,
supplier aliases and short names, changes between periods, counts, statuses, and questions whose right answer
is a clarification (no company, an unknown or ambiguous name, a measure no metric serves, an amount in another
currency). Each answer is classified as in :mod:`evaluation.constraint_probes`: ``exact``, ``clarify_ok``,
``clarify_wrong``, ``refusal``, ``flagged`` or ``silent_wrong`` (a different figure or id set presented as
complete). A listed id set must match exactly: an invoice number in the answer that the direct call does not
return makes the answer wrong.

It is a training set for failure classes (the router is tuned on it, never on an evaluation question); a
second seed (``--seed 7``) fills the same frames with other slot values and serves as the held-out half.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from evaluation.constraint_probes import Call, _present, _tokens

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)

COMPANIES: dict[str, tuple[str, ...]] = {
    "COMP-A": ("Company A", "company a", "COMP-A", "Company A's"),
    "COMP-B": ("Company B", "company b", "COMP-B"),
    "COMP-C": ("Company C", "COMP-C"),
}
#: Suppliers with lines at every company, spelled as the alias table knows them and as analysts type them.
SUPPLIERS: dict[str, tuple[str, ...]] = {
    "SUP-18": ("Supplier Beta", "Beta", "Beta Supplies", "beta supplies gmbh", "BETA", "Beta Supplies GmbH"),
    "SUP-22": ("Supplier Epsilon", "Epsilon", "Epsilon Instruments", "Epsilon Instr.", "epsilon instruments inc"),
    "SUP-27": ("Supplier Gamma", "Gamma", "Gamma Controls", "Gamma Control Systems", "gamma control systems ag"),
    "SUP-31": ("Supplier Delta", "Delta", "Delta Enclosures", "delta enclosures ltd"),
    "SUP-35": ("Supplier Zeta", "Zeta", "Zeta Sensorik", "zeta sensorik gmbh"),
    "SUP-60": ("Supplier Iota", "Iota", "Iota Cables", "Iota Cable Works"),
    "SUP-52": ("Supplier Theta", "Theta", "Theta Präzision", "Theta Praezision AG"),
}
SENS = ("PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP")
GROUPS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("PG-PRES", "PG-PRES-WL"): ("Pressure Sensors", "pressure sensors", "Pressure Sensor"),
    SENS: ("Sensors", "sensors"),
    ("PG-TEMP",): ("Temperature Sensors", "temperature sensors"),
    ("PG-FLOW",): ("Flow Sensors",),
    ("PG-CAB", "PG-CAB-ACC", "PG-CMOD", "PG-CTRL", "PG-PLC"): ("Control Equipment",),
    ("PG-CAB", "PG-CAB-ACC"): ("Control Cabinets", "control cabinets"),
    ("PG-CABL",): ("Cables and Connectors",),
    ("PG-FLOW", "PG-MCTL", "PG-MON", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"): ("Monitoring Products",),
}
GERMAN_GROUPS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("PG-PRES", "PG-PRES-WL"): ("Drucksensoren",), SENS: ("Sensoren",), ("PG-TEMP",): ("Temperatursensoren",),
    ("PG-CAB", "PG-CAB-ACC"): ("Schaltschränke",), ("PG-CABL",): ("Kabel und Stecker",),
}
PRODUCTS = ("PRD-611", "PRD-620", "PRD-482", "PRD-515", "PRD-510", "PRD-486")


def _d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


#: (phrase, start, end exclusive)
PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in Q4 2025", "2025-10-01", "2026-01-01"),
    ("in 2025", "2025-01-01", "2026-01-01"), ("in March 2026", "2026-03-01", "2026-04-01"),
    ("in H2 2025", "2025-07-01", "2026-01-01"), ("from January to March 2026", "2026-01-01", "2026-04-01"),
    ("YTD", "2026-01-01", "2026-05-16"), ("in the last 90 days", "2026-02-15", "2026-05-16"),
    ("last quarter", "2026-01-01", "2026-04-01"), ("in Q3 2025", "2025-07-01", "2025-10-01"),
    ("between 2025-11-01 and 2026-02-28", "2025-11-01", "2026-03-01"), ("in Feb 2026", "2026-02-01", "2026-03-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"), ("since January 2026", "2026-01-01", "2026-05-16"),
)
GERMAN_PERIODS: tuple[tuple[str, str, str], ...] = (
    ("im ersten Quartal 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
    ("im März 2026", "2026-03-01", "2026-04-01"), ("im zweiten Halbjahr 2025", "2025-07-01", "2026-01-01"),
    ("seit Januar 2026", "2026-01-01", "2026-05-16"), ("im vierten Quartal 2025", "2025-10-01", "2026-01-01"),
    ("in der zweiten Hälfte 2025", "2025-07-01", "2026-01-01"), ("im Februar 2026", "2026-02-01", "2026-03-01"),
    ("vom dritten März 2026 bis zum 31. März 2026", "2026-03-03", "2026-04-01"),
    ("vom 1. Januar bis Ende des ersten Quartals 2026", "2026-01-01", "2026-04-01"),
    ("im letzten Quartal", "2026-01-01", "2026-04-01"), ("in den letzten drei Monaten", "2026-02-16", "2026-05-16"),
)
#: (phrase, the amount in EUR)
AMOUNTS: tuple[tuple[str, str], ...] = (
    ("€10k", "10000"), ("10k EUR", "10000"), ("EUR 1.5m", "1500000"), ("10,000.50", "10000.50"),
    ("10.000,50 €", "10000.50"), ("5.000 EUR", "5000"), ("€2,500", "2500"), ("2.5k EUR", "2500"),
    ("EUR 20,000", "20000"), ("€ 7.5k", "7500"), ("15 thousand euros", "15000"), ("EUR 12.345,67", "12345.67"),
    ("€3k", "3000"), ("25000 EUR", "25000"), ("EUR 0.01m", "10000"), ("€4,999.99", "4999.99"),
)
GERMAN_AMOUNTS: tuple[tuple[str, str], ...] = (
    ("10.000 €", "10000"), ("5.000,00 EUR", "5000"), ("zwanzigtausend Euro", "20000"), ("2.500 Euro", "2500"),
    ("10 Tsd. €", "10000"), ("7.500,50 €", "7500.50"), ("15.000 Euro", "15000"),
)
#: (comparator phrase, direction, inclusive)
RELATIONS: tuple[tuple[str, str, bool], ...] = (
    ("over", "above", False), ("above", "above", False), ("more than", "above", False),
    ("greater than", "above", False), ("exceeding", "above", False), ("at least", "above", True),
    ("no less than", "above", True), ("under", "below", False), ("below", "below", False),
    ("less than", "below", False), ("at most", "below", True), ("no more than", "below", True),
    (">", "above", False), (">=", "above", True), ("<", "below", False),
)
GERMAN_RELATIONS: tuple[tuple[str, str, bool], ...] = (
    ("über", "above", False), ("mehr als", "above", False), ("mindestens", "above", True),
    ("unter", "below", False), ("weniger als", "below", False), ("höchstens", "below", True),
)


@dataclass(frozen=True)
class Probe:
    """One generated question, the governed calls whose figures the answer must carry (none: a clarification
    is the right answer, naming one of ``about``)."""

    category: str
    question: str
    expect: tuple[Call, ...] = ()
    about: tuple[str, ...] = ()
    #: A refusal (unsupported / not found) is as right as a clarification.
    refusal_ok: bool = False
    #: Output names whose listed values must be the complete set (no value beyond the expected ones).
    exact_set: str = ""
    frame: str = ""


@dataclass
class _Slots:
    rng: random.Random
    german: bool = False
    chosen: dict[str, Any] = field(default_factory=dict)

    def company(self, possessive: bool = False) -> tuple[str, str]:
        cid = self.rng.choice(sorted(COMPANIES))
        name = self.rng.choice([n for n in COMPANIES[cid] if not n.endswith("'s")])
        return cid, name

    def supplier(self, exclude: Sequence[str] = ()) -> tuple[str, str]:
        sid = self.rng.choice([s for s in sorted(SUPPLIERS) if s not in exclude])
        return sid, self.rng.choice(SUPPLIERS[sid])

    def group(self, german: bool = False) -> tuple[tuple[str, ...], str]:
        table = GERMAN_GROUPS if german else GROUPS
        ids = self.rng.choice(sorted(table))
        return ids, self.rng.choice(table[ids])

    def period(self, german: bool = False) -> tuple[str, dict[str, str]]:
        phrase, start, end = self.rng.choice(GERMAN_PERIODS if german else PERIODS)
        return phrase, {"start_date": start, "end_date": end}


def _total(params: Mapping[str, Any], **kw: Any) -> Call:
    return Call("finance.company_spend", params, **kw)


def _share(params: Mapping[str, Any], metric: str = "finance.supplier_share") -> Call:
    return Call(metric, params, outputs=("share_percent",))


def _cmp(params: Mapping[str, Any], rule: str) -> Call:
    return Call("finance.spend_comparison", {**params, "compare_to": rule}, outputs=("total_spend", "base_value"))


def _invoices(params: Mapping[str, Any]) -> Call:
    return Call("finance.invoices_above_threshold", params, outputs=("invoice_number",))


Builder = Callable[[_Slots], Probe | None]


def _amounts(s: _Slots) -> Probe | None:
    german = s.rng.random() < 0.25
    cid, cname = s.company()
    phrase, period = s.period(german)
    rel, direction, inclusive = s.rng.choice(GERMAN_RELATIONS if german else RELATIONS)
    amount, value = s.rng.choice(GERMAN_AMOUNTS if german else AMOUNTS)
    params: dict[str, Any] = {"company_id": cid, **period, "threshold": value, "direction": direction,
                              **({"inclusive": True} if inclusive else {})}
    with_supplier = s.rng.random() < 0.3
    sid, sname = s.supplier()
    if with_supplier:
        params["supplier_ids"] = [sid]
    if german:
        frame = s.rng.choice(("Rechnungen von {c}{sup} {rel} {a} {p}", "Welche Rechnungen von {c}{sup} lagen {p} "
                              "{rel} {a}?", "Liste der Rechnungen {p} {rel} {a} für {c}{sup}"))
        sup = f" von {sname}" if with_supplier else ""
    else:
        frame = s.rng.choice(("{c} invoices{sup} {rel} {a} {p}", "which {c} invoices{sup} {p} were {rel} {a}",
                              "list {c}'s invoices {rel} {a}{sup} {p}", "{c}: invoices{sup} {p} with a total {rel} {a}",
                              "show invoices{sup} {rel} {a} for {c} {p}", "invoices {rel} {a} {p}{sup} at {c}"))
        sup = f" from {sname}" if with_supplier else ""
    question = frame.format(c=cname, sup=sup, rel=rel, a=amount, p=phrase)
    return Probe("amounts", question, (_invoices(params),), exact_set="invoice_number", frame=frame)


def _amount_ranges(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    low, high = sorted(s.rng.sample([("€2k", "2000"), ("5,000 EUR", "5000"), ("€10k", "10000"),
                                     ("EUR 20,000", "20000"), ("3.000 €", "3000"), ("15k", "15000")], 2),
                       key=lambda a: Decimal(a[1]))
    frame = s.rng.choice(("{c} invoices between {lo} and {hi} {p}", "{c} invoices from {lo} to {hi} {p}",
                          "invoices of {c} {p} between {lo} and {hi}"))
    params = {"company_id": cid, **period, "threshold": low[1], "inclusive": True, "upper_threshold": high[1],
              "upper_inclusive": True}
    return Probe("amounts", frame.format(c=cname, lo=low[0], hi=high[0], p=phrase), (_invoices(params),),
                 exact_set="invoice_number", frame=frame)


def _amount_foreign(s: _Slots) -> Probe | None:
    _, cname = s.company()
    phrase, _ = s.period()
    amount = s.rng.choice(("$10k", "USD 5,000", "£2,000", "CHF 10.000", "10k USD"))
    frame = s.rng.choice(("{c} invoices over {a} {p}", "which {c} invoices {p} were above {a}"))
    return Probe("clarify", frame.format(c=cname, a=amount, p=phrase),
                 about=("USD", "GBP", "CHF", "currency", "$", "£"), refusal_ok=True, frame="foreign amount")


def _shares(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    kind = s.rng.randrange(4)
    if kind == 0:
        frame = s.rng.choice(("what share of {c}'s spend {p} went to {s}", "what percentage of {c}'s spend {p} was "
                              "with {s}", "what portion of {c} spend {p} went to {s}", "{s}'s share of {c}'s spend {p}",
                              "how much of {c}'s spend {p} went to {s}, in percent", "{s} as a % of {c} spend {p}"))
        return Probe("shares", frame.format(c=cname, s=sname, p=phrase),
                     (_share({"company_id": cid, **period, "supplier_ids": [sid]}),), frame=frame)
    gids, gname = s.group()
    if kind == 1:
        frame = s.rng.choice(("what share of {c}'s {g} spend {p} went to {s}", "what percentage of {c}'s spend on "
                              "{g} {p} was with {s}", "{s}'s share of {c}'s {g} spend {p}"))
        return Probe("shares", frame.format(c=cname, s=sname, g=gname, p=phrase),
                     (_share({"company_id": cid, **period, "supplier_ids": [sid],
                              "product_group_ids": list(gids)}),), frame=frame)
    if kind == 2:
        frame = s.rng.choice(("what share of {c}'s spend {p} was on {g}", "what percentage of {c}'s spend {p} went "
                              "to {g}", "{g} as a share of {c}'s spend {p}"))
        return Probe("shares", frame.format(c=cname, g=gname, p=phrase),
                     (_share({"company_id": cid, **period, "product_group_ids": list(gids)},
                             "finance.product_group_share"),), frame=frame)
    frame = s.rng.choice(("what share of {c}'s spend with {s} {p} was on {g}", "what percentage of {c}'s {s} spend "
                          "{p} went to {g}"))
    return Probe("shares", frame.format(c=cname, s=sname, g=gname, p=phrase),
                 (_share({"company_id": cid, **period, "product_group_ids": list(gids), "supplier_ids": [sid]},
                         "finance.product_group_share"),), frame=frame)


def _group_of_group(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    part, pname = s.rng.choice(((("PG-PRES", "PG-PRES-WL"), "Pressure Sensors"), (("PG-TEMP",), "Temperature Sensors"),
                                (("PG-FLOW",), "Flow Sensors")))
    whole, wname = s.rng.choice(((SENS, "Sensors"), (GROUPS_BY_NAME["Monitoring Products"], "Monitoring Products")))
    frame = s.rng.choice(("what share of {c}'s {w} spend {p} was {g}", "{g}' share of {c}'s {w} spend {p}",
                          "what percentage of {c}'s spend on {w} {p} went to {g}"))
    return Probe("shares", frame.format(c=cname, w=wname, g=pname, p=phrase),
                 (_share({"company_id": cid, **period, "product_group_ids": list(part),
                          "within_product_group_ids": list(whole)}, "finance.product_group_share"),), frame=frame)


GROUPS_BY_NAME = {name: ids for ids, names in GROUPS.items() for name in names}


def _german(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period(True)
    sid, sname = s.supplier()
    base = {"company_id": cid, **period}
    kind = s.rng.randrange(9)
    if kind == 0:
        frame = s.rng.choice(("Ausgaben von {c} bei {s} {p}", "Wie viel hat {c} {p} bei {s} ausgegeben?",
                              "Was hat {c} {p} an {s} gezahlt?"))
        return Probe("german", frame.format(c=cname, s=sname, p=phrase), (_total({**base, "supplier_ids": [sid]}),),
                     frame=frame)
    if kind == 1:
        gids, gname = s.group(True)
        frame = s.rng.choice(("Ausgaben von {c} für {g} {p}", "Wie viel hat {c} {p} für {g} ausgegeben?"))
        return Probe("german", frame.format(c=cname, g=gname, p=phrase),
                     (_total({**base, "product_group_ids": list(gids)}),), frame=frame)
    if kind == 2:
        frame = s.rng.choice(("Wie viele Rechnungen hat {c} {p} von {s} erhalten?",
                              "Anzahl der Rechnungen von {s} an {c} {p}"))
        return Probe("german", frame.format(c=cname, s=sname, p=phrase),
                     (Call("finance.invoice_count", {**base, "supplier_ids": [sid], "document_types": ["invoice"]},
                           outputs=("invoice_count",)),),
                     frame=frame)
    if kind == 3:
        frame = s.rng.choice(("Welcher Anteil der Ausgaben von {c} {p} ging an {s}?",
                              "Wie hoch war der Anteil von {s} an den Ausgaben von {c} {p}?"))
        return Probe("german", frame.format(c=cname, s=sname, p=phrase),
                     (_share({**base, "supplier_ids": [sid]}),), frame=frame)
    if kind == 4:
        n = s.rng.choice((("drei", 3), ("5", 5), ("zwei", 2)))
        frame = s.rng.choice(("Die {n} größten Lieferanten von {c} {p}", "Top {n} Lieferanten von {c} {p}"))
        return Probe("german", frame.format(c=cname, n=n[0], p=phrase),
                     (Call("finance.spend_ranking", {**base, "limit": n[1], "direction": "top",
                                                     "order_by": "total_spend"}, ("supplier_id",)),), frame=frame)
    if kind == 5:
        frame = s.rng.choice(("Ausgaben von {c} {p} ohne {s}", "Ausgaben von {c} {p} außer {s}"))
        return Probe("german", frame.format(c=cname, s=sname, p=phrase),
                     (_total({**base, "exclude_supplier_ids": [sid]}),), frame=frame)
    if kind == 6:
        frame = s.rng.choice(("offene Rechnungen von {c} bei {s} {p}", "offene Posten von {c} bei {s} {p}",
                              "unbezahlte Rechnungen von {c} bei {s} {p}"))
        return Probe("german", frame.format(c=cname, s=sname, p=phrase),
                     (_total({**base, "supplier_ids": [sid], "invoice_statuses": ["posted"]}),), frame=frame)
    if kind == 7:
        prd = s.rng.choice(PRODUCTS)
        frame = s.rng.choice(("Durchschnittlicher Stückpreis von {prd} {p} bei {c}",
                              "Was hat {c} {p} im Schnitt pro Stück für {prd} bezahlt?"))
        return Probe("german", frame.format(c=cname, prd=prd, p=phrase),
                     (Call("catalog.average_unit_price", {**base, "product_code": prd}, outputs=("unit_price",)),),
                     frame=frame)
    frame = s.rng.choice(("Wie haben sich die Ausgaben von {c} bei {s} im ersten Quartal 2026 gegenüber dem "
                          "Vorquartal verändert?", "Ausgaben von {c} bei {s} im ersten Quartal 2026 im Vergleich "
                          "zum Vorjahr"))
    rule = "previous_period" if "Vorquartal" in frame else "same_period_last_year"
    return Probe("german", frame.format(c=cname, s=sname),
                 (_cmp({"company_id": cid, "start_date": "2026-01-01", "end_date": "2026-04-01",
                        "supplier_ids": [sid]}, rule),), frame=frame)


def _currency(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    base = {"company_id": cid, **period}
    kind = s.rng.randrange(4)
    if kind == 0:
        cur = s.rng.choice(("USD", "GBP", "CHF"))
        frame = s.rng.choice(("{c} spend on {cur} invoices {p}", "{c} spend with {s} on invoices in {cur} {p}",
                              "how much did {c} pay in {cur} invoices {p}"))
        params = {**base, "document_currency": cur, **({"supplier_ids": [sid]} if "{s}" in frame else {})}
        return Probe("currency", frame.format(c=cname, s=sname, cur=cur, p=phrase),
                     (Call("finance.document_currency_spend", params, outputs=("document_spend",)),), frame=frame)
    if kind == 1:
        frame = s.rng.choice(("{c} spend {p} in original currency", "{c} spend {p} by invoice currency",
                              "{c} spend with {s} {p} in the original currencies"))
        params = {**base, **({"supplier_ids": [sid]} if "{s}" in frame else {})}
        return Probe("currency", frame.format(c=cname, s=sname, p=phrase),
                     (Call("finance.document_currency_spend", params, ("currency",), outputs=("document_spend",)),),
                     frame=frame)
    if kind == 2:
        frame = s.rng.choice(("{c} spend with {s} {p} in EUR", "{c} spend with {s} {p} in euros"))
        return Probe("currency", frame.format(c=cname, s=sname, p=phrase),
                     (_total({**base, "supplier_ids": [sid]}),), frame=frame)
    # A conversion into a currency the company does not report in is not governed.
    cur = s.rng.choice(("USD", "US dollars", "GBP", "CHF", "Swiss francs"))
    frame = s.rng.choice(("{c} spend with {s} {p} in {cur}", "what did {c} spend {p} in {cur}?",
                          "{c} total spend {p}, converted to {cur}"))
    return Probe("currency", frame.format(c=cname, s=sname, cur=cur, p=phrase),
                 about=("USD", "GBP", "CHF", "dollar", "franc", "currency"), refusal_ok=True, frame=frame)


def _exclusions(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    base = {"company_id": cid, **period}
    kind = s.rng.randrange(4)
    cue = s.rng.choice(("excluding", "except", "without", "other than", "not counting", "apart from", "ex.", "w/o"))
    if kind == 0:
        frame = "{c} spend {p} {x} {s}"
        return Probe("exclusions", frame.format(c=cname, p=phrase, x=cue, s=sname),
                     (_total({**base, "exclude_supplier_ids": [sid]}),), frame=frame + cue)
    gids, gname = s.group()
    if kind == 1:
        frame = "{c} spend on {g} {p} {x} {s}"
        return Probe("exclusions", frame.format(c=cname, g=gname, p=phrase, x=cue, s=sname),
                     (_total({**base, "product_group_ids": list(gids), "exclude_supplier_ids": [sid]}),),
                     frame=frame + cue)
    if kind == 2:
        frame = "{c} spend with {s} {p} {x} {g}"
        return Probe("exclusions", frame.format(c=cname, g=gname, p=phrase, x=cue, s=sname),
                     (_total({**base, "supplier_ids": [sid], "exclude_product_group_ids": list(gids)}),),
                     frame=frame + cue)
    sid2, sname2 = s.supplier(exclude=[sid])
    frame = "what share of {c}'s spend {p} {x} {s2} went to {s}"
    return Probe("exclusions", frame.format(c=cname, p=phrase, x=cue, s=sname, s2=sname2),
                 (_share({**base, "supplier_ids": [sid], "exclude_supplier_ids": [sid2]}),), frame=frame + cue)


def _unit_price(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    prd = s.rng.choice(PRODUCTS)
    frame = s.rng.choice(("avg unit price of {prd} {p} for {c}", "what did {c} pay per unit for {prd} {p}",
                          "{c} average price per unit {prd} {p}", "mean unit cost of {prd} {p} at {c}",
                          "average unit price of {prd} from {s} {p} ({c})", "{c}: unit price {prd} {p} from {s}"))
    sid, sname = s.supplier()
    params = {"company_id": cid, **period, "product_code": prd, **({"supplier_ids": [sid]} if "{s}" in frame else {})}
    return Probe("unit_price", frame.format(c=cname, prd=prd, p=phrase, s=sname),
                 (Call("catalog.average_unit_price", params, outputs=("unit_price",)),), frame=frame)


def _alias(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    frame = s.rng.choice(("how much did {c} spend with {s} {p}", "{c} spend w/ {s} {p}", "{s} total {p} for {c}",
                          "what did {c} pay {s} {p}?", "{c} purchases from {s} {p}", "spend of {c} at {s} {p}"))
    return Probe("alias", frame.format(c=cname, s=sname, p=phrase),
                 (_total({"company_id": cid, **period, "supplier_ids": [sid]}),), frame=frame)


def _change(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    sid, sname = s.supplier()
    forms = (
        ("{c} spend with {s} in Q1 2026 vs Q4 2025", "2026-01-01", "2026-04-01", "previous_period"),
        ("how did {c}'s spend with {s} change in Q1 2026 compared with the previous quarter", "2026-01-01",
         "2026-04-01", "previous_period"),
        ("{c} spend with {s} in March 2026 vs February 2026", "2026-03-01", "2026-04-01", "previous_period"),
        ("{c} spend with {s} Q1 2026 QoQ", "2026-01-01", "2026-04-01", "previous_period"),
        ("{c} spend with {s} in Q1 2026 year over year", "2026-01-01", "2026-04-01", "same_period_last_year"),
        ("{c} spend with {s} in Q4 2025 vs Q3 2025", "2025-10-01", "2026-01-01", "previous_period"),
        ("did {c} spend more with {s} in Q1 2026 than in Q4 2025?", "2026-01-01", "2026-04-01", "previous_period"),
        ("{c}'s spend with {s}: April 2026 compared to March 2026", "2026-04-01", "2026-05-01", "previous_period"),
    )
    frame, start, end, rule = s.rng.choice(forms)
    return Probe("change", frame.format(c=cname, s=sname),
                 (_cmp({"company_id": cid, "start_date": start, "end_date": end, "supplier_ids": [sid]}, rule),),
                 frame=frame)


def _status(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    frame, statuses = s.rng.choice((
        ("{c} open items with {s} {p}", ["posted"]), ("{c} unpaid invoices from {s} {p}", ["posted"]),
        ("open invoices of {c} with {s} {p}", ["posted"]), ("{c} paid invoices from {s} {p}", ["paid"]),
        ("how much does {c} still owe {s} for invoices {p}", ["posted"]),
        ("{c} settled spend with {s} {p}", ["paid"]), ("{c} draft invoices from {s} {p}", ["draft"]),
    ))
    return Probe("status", frame.format(c=cname, s=sname, p=phrase),
                 (_total({"company_id": cid, **period, "supplier_ids": [sid], "invoice_statuses": statuses}),),
                 frame=frame)


def _counts(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    frame = s.rng.choice(("how many invoices did {c} get from {s} {p}", "number of {s} invoices {p} for {c}",
                          "{c} invoice count with {s} {p}", "how many invoices from {s} did {c} receive {p}?"))
    return Probe("counts", frame.format(c=cname, s=sname, p=phrase),
                 (Call("finance.invoice_count", {"company_id": cid, **period, "supplier_ids": [sid],
                                               "document_types": ["invoice"]}, outputs=("invoice_count",)),),
                 frame=frame)


def _new(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    if s.rng.random() < 0.5:
        frame = s.rng.choice(("what was {c}'s biggest invoice {p}", "largest invoice of {c} {p}",
                              "{c}'s single largest invoice {p}", "the 3 largest invoices of {c} {p}"))
        limit = 3 if "3 largest" in frame else 1
        return Probe("new", frame.format(c=cname, p=phrase),
                     (Call("finance.largest_invoices", {"company_id": cid, **period, "limit": limit},
                           ("invoice_number",), outputs=("grand_total",)),), exact_set="invoice_number", frame=frame)
    frame = s.rng.choice(("how many suppliers did {c} buy from {p}", "number of suppliers {c} used {p}",
                          "how many vendors did {c} pay {p}", "{c} supplier count {p}"))
    return Probe("new", frame.format(c=cname, p=phrase),
                 (Call("finance.supplier_count", {"company_id": cid, **period}, outputs=("supplier_count",)),),
                 frame=frame)


def _gapped(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    first, second = s.rng.choice(((("Q3 2025", "2025-07-01", "2025-10-01"), ("Q1 2026", "2026-01-01", "2026-04-01")),
                                  (("January 2026", "2026-01-01", "2026-02-01"), ("March 2026", "2026-03-01",
                                                                                   "2026-04-01"))))
    frame = s.rng.choice(("{c} spend in {a} and {b}", "how much did {c} spend in {a} and in {b}"))
    calls = tuple(_total({"company_id": cid, "start_date": p[1], "end_date": p[2]}) for p in (first, second))
    return Probe("periods", frame.format(c=cname, a=first[0], b=second[0]), calls, frame=frame)


def _clarify(s: _Slots) -> Probe | None:
    phrase, _ = s.period()
    _, sname = s.supplier()
    _, cname = s.company()
    kind = s.rng.randrange(5)
    if kind == 0:
        frame = s.rng.choice(("total spend with {s} {p}", "how much did we spend with {s} {p}",
                              "{s} spend {p}", "top 3 suppliers {p}", "invoices over €10k {p}"))
        return Probe("clarify", frame.format(s=sname, p=phrase), about=("company", "Company"), frame=frame)
    if kind == 1:
        unknown = s.rng.choice(("Supplier Omega", "Omega Industrial", "Acme Corp", "Supplier Kappa", "Lambda GmbH"))
        frame = s.rng.choice(("{c} spend with {u} {p}", "how much did {c} pay {u} {p}",
                              "what share of {c}'s spend {p} went to {u}"))
        return Probe("clarify", frame.format(c=cname, u=unknown, p=phrase), about=tuple(unknown.split()),
                     refusal_ok=True, frame=frame)
    if kind == 2:
        unknown = s.rng.choice(("Company Z", "Company Q", "Globex"))
        frame = s.rng.choice(("{u} spend with {s} {p}", "how much did {u} spend {p}"))
        return Probe("clarify", frame.format(u=unknown, s=sname, p=phrase), about=(unknown.split()[-1], "company"),
                     refusal_ok=True, frame=frame)
    if kind == 3:
        measure = s.rng.choice(("average payment days", "days payable outstanding", "savings", "on-time delivery rate",
                                "contract value", "budget", "average discount", "late payment fees", "lead time",
                                "return rate", "CO2 emissions", "headcount"))
        frame = s.rng.choice(("what was {c}'s {m} with {s} {p}", "{c} {m} {s} {p}", "show {m} for {c} {p}"))
        return Probe("clarify", frame.format(c=cname, m=measure, s=sname, p=phrase),
                     about=(*measure.split(), "supported", "measure", "metric"), refusal_ok=True, frame=frame)
    unknown = s.rng.choice(("Hydraulic Pumps", "Office Furniture", "Software Licenses", "Valves"))
    frame = s.rng.choice(("{c} spend on {u} {p}", "what share of {c}'s spend {p} was on {u}"))
    return Probe("clarify", frame.format(c=cname, u=unknown, p=phrase), about=tuple(unknown.split()),
                 refusal_ok=True, frame=frame)


def _clarify_more(s: _Slots) -> Probe | None:
    """More questions a correct reader asks about: a missing period, an ambiguous name, an unknown product, a
    figure no metric defines, a price comparison without its product."""
    phrase, _ = s.period()
    sid, sname = s.supplier()
    _, cname = s.company()
    kind = s.rng.randrange(6)
    if kind == 0:
        frame = s.rng.choice(("{c} spend with {s}", "how much did {c} pay {s}?",
                              "what share of {c}'s spend went to {s}", "{c} invoices over €10k",
                              "top 3 suppliers of {c}"))
        return Probe("clarify", frame.format(c=cname, s=sname), about=("period", "when", "which period"),
                     frame=frame)
    if kind == 1:
        word = s.rng.choice(("Control", "Delta Gamma", "Cables"))
        frame = s.rng.choice(("{c} spend on {w} {p}", "{c} spend with {w} {p}"))
        return Probe("clarify", frame.format(c=cname, w=word, p=phrase), about=tuple(word.split()),
                     refusal_ok=True, frame=frame)
    if kind == 2:
        code = s.rng.choice(("PRD-999", "PRD-000", "PRD-12345"))
        frame = s.rng.choice(("avg unit price of {prd} {p} for {c}", "{c} spend on {prd} {p}"))
        return Probe("clarify", frame.format(c=cname, prd=code, p=phrase), about=(code,), refusal_ok=True,
                     frame=frame)
    if kind == 3:
        measure = s.rng.choice(("average invoice value", "median invoice", "maverick spend", "tail spend",
                                "spend per employee", "price variance", "budget variance", "rebates", "freight costs",
                                "spend under management", "payment term compliance", "inflation"))
        frame = s.rng.choice(("what was {c}'s {m} with {s} {p}", "{c} {m} {p}"))
        return Probe("clarify", frame.format(c=cname, m=measure, s=sname, p=phrase),
                     about=(*measure.split(), "supported", "measure", "metric"), refusal_ok=True, frame=frame)
    if kind == 4:
        _, sname2 = s.supplier(exclude=[sid])
        frame = s.rng.choice(("which is cheaper, {s} or {s2}, for {c} {p}", "is {s} cheaper than {s2} ({c}, {p})"))
        return Probe("clarify", frame.format(c=cname, s=sname, s2=sname2, p=phrase), about=("product",),
                     refusal_ok=True, frame=frame)
    frame = s.rng.choice(("what share of spend went to {s} {p}", "how many invoices did we get from {s} {p}",
                          "average unit price of PRD-611 from {s} {p}?"))
    return Probe("clarify", frame.format(s=sname, p=phrase), about=("company", "Company"), refusal_ok=False,
                 frame=frame)


_MORE_AMOUNTS = (("10 000 €", "10000"), ("€10.000", "10000"), ("EUR10k", "10000"), ("10K", "10000"),
                 ("1.2M EUR", "1200000"), ("1,2 Mio. €", "1200000"), ("2 500,00 €", "2500"), ("€ 2'500", "2500"),
                 ("EUR 5,000.00", "5000"), ("5000€", "5000"), ("twenty thousand euros", "20000"))
_MORE_RELATIONS = (("in excess of", "above", False), ("upwards of", "above", True), ("not more than", "below", True),
                   ("≥", "above", True), ("≤", "below", True), ("more than or equal to", "above", True),
                   ("smaller than", "below", False), ("larger than", "above", False), ("up to", "below", True))


def _amounts_more(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    rel, direction, inclusive = s.rng.choice(_MORE_RELATIONS + RELATIONS[:6])
    amount, value = s.rng.choice(_MORE_AMOUNTS)
    params: dict[str, Any] = {"company_id": cid, **period, "threshold": value, "direction": direction,
                              **({"inclusive": True} if inclusive else {})}
    frame = s.rng.choice(("{c} invoices {rel} {a} {p}", "all invoices of {c} {p} {rel} {a}",
                          "{c}: which invoices were {rel} {a} {p}?"))
    return Probe("amounts", frame.format(c=cname, rel=rel, a=amount, p=phrase), (_invoices(params),),
                 exact_set="invoice_number", frame=frame)


def _alias_more(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, spelling = s.rng.choice((("SUP-27", "Gamam"), ("SUP-18", "Supplier Bta"), ("SUP-35", "Zeta Sensorick"),
                                  ("SUP-27", "GAMMA-CONTROLS"), ("SUP-18", "beta supplies, gmbh"),
                                  ("SUP-22", "Epsilon Instrument"), ("SUP-31", "Delta Enclosure"),
                                  ("SUP-60", "iota cable works ltd."), ("SUP-52", "Theta Prazision")))
    frame = s.rng.choice(("{c} spend with {s} {p}", "how much did {c} pay {s} {p}?"))
    return Probe("alias", frame.format(c=cname, s=spelling, p=phrase),
                 (_total({"company_id": cid, **period, "supplier_ids": [sid]}),), frame=frame)


def _change_more(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    sid, sname = s.supplier()
    forms: tuple[tuple[str, str, str, str, dict[str, str]], ...] = (
        ("how much did {c}'s spend with {s} grow in Q1 2026 vs Q4 2025", "2026-01-01", "2026-04-01",
         "previous_period", {}),
        ("{c} spend with {s} March 2026 MoM", "2026-03-01", "2026-04-01", "previous_period", {}),
        ("{c} spend with {s} Q1 2026 vs same quarter last year", "2026-01-01", "2026-04-01", "same_period_last_year",
         {}),
        ("{c} spend with {s} from Q4 2025 to Q1 2026: change", "2026-01-01", "2026-04-01", "previous_period", {}),
        ("{c} spend with {s} in Q1 2026 compared to Q3 2025", "2026-01-01", "2026-04-01", "custom",
         {"base_start_date": "2025-07-01", "base_end_date": "2025-10-01"}),
        ("by how much did {c}'s spend with {s} drop in April 2026 versus March 2026", "2026-04-01", "2026-05-01",
         "previous_period", {}),
    )
    frame, start, end, rule, extra = s.rng.choice(forms)
    return Probe("change", frame.format(c=cname, s=sname),
                 (_cmp({"company_id": cid, "start_date": start, "end_date": end, "supplier_ids": [sid], **extra},
                       rule),), frame=frame)


def _exclusions_more(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    sid2, sname2 = s.supplier(exclude=[sid])
    cue = s.rng.choice(("excl.", "minus", "leaving out", "but not", "aside from", "with the exception of"))
    frame = "{c} spend {p} {x} {s} and {s2}"
    return Probe("exclusions", frame.format(c=cname, p=phrase, x=cue, s=sname, s2=sname2),
                 (_total({"company_id": cid, **period, "exclude_supplier_ids": sorted([sid, sid2])}),),
                 frame=frame + cue)


def _shares_more(s: _Slots) -> Probe | None:
    cid, cname = s.company()
    phrase, period = s.period()
    sid, sname = s.supplier()
    sid2, sname2 = s.supplier(exclude=[sid])
    frame = s.rng.choice(("what fraction of {c}'s spend {p} went to {s} and {s2} together",
                          "combined share of {s} and {s2} in {c}'s spend {p}",
                          "proportion of {c} spend {p} with {s} or {s2}"))
    return Probe("shares", frame.format(c=cname, s=sname, s2=sname2, p=phrase),
                 (_share({"company_id": cid, **period, "supplier_ids": sorted([sid, sid2])}),), frame=frame)


BUILDERS: dict[str, tuple[Builder, ...]] = {
    "amounts": (_amounts, _amounts, _amount_ranges, _amounts_more),
    "shares": (_shares, _shares, _group_of_group, _shares_more),
    "german": (_german, _german, _german),
    "currency": (_currency,),
    "exclusions": (_exclusions, _exclusions_more),
    "unit_price": (_unit_price,),
    "alias": (_alias, _alias_more),
    "change": (_change, _change_more),
    "status": (_status,),
    "counts": (_counts,),
    "new": (_new,),
    "periods": (_gapped,),
    "clarify": (_clarify, _clarify, _amount_foreign, _clarify_more, _clarify_more),
}


def probes(seed: int = 42, per_builder: int = 12, categories: Sequence[str] = ()) -> list[Probe]:
    """Deterministic probes: each builder called ``per_builder`` times with a seeded random source."""
    rng = random.Random(seed)
    found: list[Probe] = []
    seen: set[str] = set()
    for category, builders in BUILDERS.items():
        for builder in builders:
            for _ in range(per_builder):
                probe = builder(_Slots(rng))
                if probe is None or probe.question in seen or (categories and category not in categories):
                    continue
                seen.add(probe.question)
                found.append(probe)
    return found


_INVOICE_NUMBER = re.compile(r"\b(?:INV|CN)-[\w/-]*\d\b")


def classify(probe: Probe, status: str, text: str, expected: list[str] | None,
             listed: set[str] | None = None) -> str:
    """exact / clarify_ok / clarify_wrong / refusal / flagged / silent_wrong (see the module docstring)."""
    if status == "clarification":
        if not probe.expect:
            return "clarify_ok" if not probe.about or any(w.lower() in text.lower() for w in probe.about) \
                else "clarify_wrong"
        return "clarify_wrong"
    if not probe.expect:
        if status in ("answered", "no_data", "partial"):
            return "flagged" if status == "partial" else "silent_wrong"
        return "clarify_ok" if probe.refusal_ok else "refusal"
    if expected == [] and status in ("no_data", "not_found"):
        return "exact"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    complete = expected is not None and all(_present(t, text) for t in expected)
    if complete and probe.exact_set and listed is not None:
        complete = set(_INVOICE_NUMBER.findall(text)) <= listed
    if complete and expected == [] and status != "no_data" and _INVOICE_NUMBER.search(text):
        complete = False
    if complete:
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe]) -> Iterator[tuple[Probe, str, str, str, list[str] | None]]:
    """(probe, class, status, answer text, expected tokens) per probe."""
    from evaluation.probe_client import probe_client

    with probe_client(database, "silent-probes", (TENANT,)) as session:
        client, headers = session.client, dict(session.headers)
        for probe in found:
            expected: list[str] | None = None
            listed: set[str] | None = None
            if probe.expect:
                expected, listed = [], set()
                for call in probe.expect:
                    direct = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
                        "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
                    if direct.status_code != 200:
                        expected = None
                        break
                    result = direct.json()
                    expected += _tokens(result, call)
                    listed |= {str(r.get("values", {}).get(probe.exact_set)) for r in result.get("rows", ())}
            body = client.post("/v1/ask", headers=headers,
                               json={"question": probe.question, "as_of": AS_OF.isoformat()}).json()
            answer = body.get("answer", {}) if isinstance(body, dict) else {}
            status = str(answer.get("status"))
            text = str(answer.get("text") or answer.get("clarification_question") or "")
            if probe.expect and expected is None:
                yield probe, "no_metric", status, text, expected
                continue
            yield probe, classify(probe, status, text, expected, listed), status, text, expected


CLASSES = ("exact", "clarify_ok", "clarify_wrong", "refusal", "flagged", "silent_wrong", "no_metric")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=os.environ.get("PROCURA_DB_NAME", "procura"))
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--per-builder", type=int, default=12)
    parser.add_argument("--category", action="append", default=[])
    parser.add_argument("--show", default="silent_wrong", help="classes to print, comma-separated, or all/none")
    args = parser.parse_args(argv)
    shown = set(CLASSES) if args.show == "all" else set(args.show.split(","))
    counts: Counter[tuple[str, str]] = Counter()
    for probe, klass, status, text, expected in run(args.database, probes(args.seed, args.per_builder,
                                                                          args.category)):
        counts[(probe.category, klass)] += 1
        if klass in shown:
            print(f"[{probe.category}/{klass}] {probe.question}\n    expected {expected}\n    -> {status}: "
                  f"{text.split(' Sources:')[0][:500]}")
    print("category     " + " ".join(f"{k:>13}" for k in CLASSES))
    for category in sorted({c for c, _ in counts}):
        print(f"{category:12} " + " ".join(f"{counts[(category, k)]:>13}" for k in CLASSES))
    print(f"{'total':12} " + " ".join(f"{sum(v for (_, c), v in counts.items() if c == k):>13}" for k in CLASSES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
