"""Currency and unit-price probes: questions about spend in or by currency and about unit prices, generated from
slot grammars, asked through ``/v1/ask`` and checked against the governed metrics called directly with the slot
values.

``python -m evaluation.probes_currency [--database procura] [--seed 1] [--n 150] [--kind currency|unit_price]
[--show wrong|all|none] [--json out.json]`` fills frames (English and German, analyst and casual wording) with
seeded slot values of the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15): companies by name, case
and id; suppliers by id, name, alias, short name, legal-form-less name, case variant and one-edit typo; product
groups by name; products by code and catalogue name; periods in every form; currencies by ISO code, word and
symbol ("USD", "US dollars", "$", "Swiss francs", "CHF", "£", "Pfund").

What each shape means (the expected answer is the governed metric's, called with these parameters):

* **named**: spend "in USD", "on USD invoices", "USD-invoiced", "billed in pounds" (a currency other than the
  reporting currency EUR) is the spend of the invoices issued in that currency, as invoiced, with the same
  lines' reporting-currency amount: ``finance.document_currency_spend`` with ``document_currency`` (a total
  converted into USD is no governed figure; the answer says which one it gives);
* **eur_invoices**: "EUR invoices", "euro-denominated invoices": the same with ``document_currency`` EUR;
* **original** / **breakdown**: "in original / invoice / local / transaction currency", "as invoiced", "by
  currency", "per currency", "nach Währung": the spend of each invoice currency as invoiced (grouped by
  ``currency``) and the reporting-currency total beside it (``finance.company_spend``);
* **non_eur**: "non-EUR invoices", "foreign-currency invoices", "invoices not in euros": the rows of the
  currency breakdown other than EUR;
* **scoped**: any of these for one supplier (every spelling) or one product group;
* unit prices: **average** (by code or name, a supplier's), **per_supplier**, **cheapest** (the cheapest
  supplier by average unit price), **latest** (the unit price on the product's most recent invoice day:
  ``catalog.average_unit_price`` by day, its last row), **invoice_currency** (the average unit price in the
  invoices' own currencies, ``catalog.document_currency_unit_price`` by currency), **change** (the average unit
  price of two periods: both figures and their difference), and a **cheaper** question without a product (a
  clarification asking which product).

The second generator of each kind (``--frames more``):

* **named_beside**: one invoice currency with the reporting currency beside it ("CHF-invoiced spend, original
  currency + EUR"): ``finance.document_currency_spend`` with that ``document_currency``;
* **how_much_of**: "how much of X's (supplier's) spend was invoiced in GBP": the same amount, no share;
* **share**: "what fraction of X's spend was billed in CHF" (English and German): the currency's invoices in the
  reporting currency (``total_spend`` of the call above) and the whole spend (``finance.company_spend``); their
  percentage to 2 decimals must be in the answer;
* **unit_word**: the price per the product's unit of measure ("per set", "per metre", "per controller");
* **invoices_only**: ``catalog.average_unit_price`` with ``document_types`` [invoice];
* **eur_invoices** (unit price): the average or the lowest/highest price over EUR invoices (``document_currency``);
* **two_products**: the average unit price of each of two products ("A or B? give both averages", "A vs B");
* **units_and_price**: "how many X did we buy and at what average unit price": the quantity, stated as a count
  ("26 units"), and the price;
* **name/de**: "Durchschnittlicher Stückpreis für <German product noun + model code>".

The third generator (``--frames set``): **named_set**, two or three invoice currencies named together ("GBP and
USD invoices", "USD/GBP", "CHF, GBP and USD"): each named currency's row as invoiced
(``finance.document_currency_spend`` by currency with ``document_currencies``) and their reporting-currency total
(``finance.company_spend`` with the same ``document_currencies``). The fourth (``--frames listing``): **listing**,
the invoices of one invoice currency listed ("list the invoices billed in USD"): ``finance.invoices_above_threshold``
at or above zero with ``document_currency``.

Outcomes: ``exact`` (every expected figure and id in the answer; "no data" where the call has none), ``clar_ok``
(a clarification where one is expected, about the expected point), ``false_clar``, ``clar_wrong_point``,
``refusal``, ``flagged`` (different, but said to be partial) and ``silent_wrong`` (different and presented as
complete). A direct call the catalog refuses (a parameter or a metric it does not have) makes the expected
answer a clarification naming the unserved slot.

The seed picks frames and slot values: the router is fixed on ``--seed 1`` and ``--seed 2`` is held out (only its
counts are read, ``--show none``). Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from evaluation.constraint_probes import Call, _present, _tokens
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, finish, run_probes, shown
from evaluation.probes_clarify import COMPANIES, GROUPS, PERIODS, SUPPLIERS, outcome_table

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)
DOC = "finance.document_currency_spend"
AVG = "catalog.average_unit_price"
DOC_PRICE = "catalog.document_currency_unit_price"

#: Products by code and catalogue name (tenant-42).
PRODUCTS: dict[str, tuple[str, ...]] = {
    "PRD-482": ("PRD-482", "Differential pressure sensor DPS-482", "prd-482"),
    "PRD-483": ("PRD-483", "Gauge pressure sensor 0-10 bar"),
    "PRD-491": ("PRD-491", "PT100 temperature probe"),
    "PRD-510": ("PRD-510", "Flow sensor FS-50"),
    "PRD-515": ("PRD-515", "Thermal mass flow meter TMF-2"),
    "PRD-611": ("PRD-611", "Monitoring controller MC-4"),
    "PRD-612": ("PRD-612", "Monitoring controller MC-8"),
    "PRD-625": ("PRD-625", "Control module CM-2"),
    "PRD-701": ("PRD-701", "Control cabinet 800x600"),
    "PRD-820": ("PRD-820", "Control cable 5x1.5 mm2"),
    "PRD-840": ("PRD-840", "Torque wrench set"),
}
#: The words a product's unit of measure is asked with ("price per set"), by product (tenant-42's catalogue units).
UNIT_WORDS: dict[str, tuple[str, ...]] = {
    "PRD-482": ("piece", "unit", "pc", "each"), "PRD-483": ("piece", "unit"), "PRD-491": ("piece", "probe"),
    "PRD-510": ("piece", "unit"), "PRD-515": ("unit", "piece"), "PRD-611": ("unit", "piece", "controller"),
    "PRD-612": ("unit", "controller"), "PRD-625": ("module", "piece"), "PRD-701": ("cabinet", "unit"),
    "PRD-820": ("metre", "meter", "m"), "PRD-840": ("set", "kit"),
}
#: German words for the catalogue names' head nouns (the product is named in German, its model code kept).
PRODUCTS_DE: dict[str, tuple[str, ...]] = {
    "PRD-482": ("Differenzdrucksensor DPS-482", "PRD-482"), "PRD-483": ("Relativdrucksensor 0-10 bar", "PRD-483"),
    "PRD-491": ("PT100-Temperaturfühler", "PRD-491"), "PRD-510": ("Durchflusssensor FS-50", "PRD-510"),
    "PRD-515": ("thermischer Massedurchflussmesser TMF-2", "PRD-515"),
    "PRD-611": ("Überwachungssteuerung MC-4", "PRD-611"), "PRD-612": ("Überwachungssteuerung MC-8", "PRD-612"),
    "PRD-625": ("Steuermodul CM-2", "PRD-625"), "PRD-701": ("Schaltschrank 800x600", "PRD-701"),
    "PRD-820": ("Steuerkabel 5x1.5 mm2", "PRD-820"), "PRD-840": ("Drehmomentschlüsselsatz", "PRD-840"),
}
#: Currencies other than the reporting currency: ISO code, words and symbols (English; German after the bar).
FOREIGN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "USD": (("USD", "US dollars", "dollars", "$", "U.S. dollars", "usd"), ("USD", "US-Dollar", "Dollar")),
    "GBP": (("GBP", "pounds", "British pounds", "£", "pounds sterling", "gbp"), ("GBP", "Pfund", "britischen Pfund")),
    "CHF": (("CHF", "Swiss francs", "francs", "chf"), ("CHF", "Schweizer Franken", "Franken")),
}
GERMAN_PERIODS: tuple[tuple[str, str, str], ...] = (
    ("im ersten Quartal 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
    ("im letzten Quartal", "2026-01-01", "2026-04-01"), ("im Q4 2025", "2025-10-01", "2026-01-01"),
    ("2025", "2025-01-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"),
)
#: Two periods of a price change: (later phrase, its range, earlier phrase, its range).
CHANGES: tuple[tuple[str, tuple[str, str], str, tuple[str, str]], ...] = (
    ("Q1 2026", ("2026-01-01", "2026-04-01"), "Q4 2025", ("2025-10-01", "2026-01-01")),
    ("Q1 2026", ("2026-01-01", "2026-04-01"), "2025", ("2025-01-01", "2026-01-01")),
    ("March 2026", ("2026-03-01", "2026-04-01"), "February 2026", ("2026-02-01", "2026-03-01")),
    ("H1 2026", ("2026-01-01", "2026-07-01"), "H2 2025", ("2025-07-01", "2026-01-01")),
    ("Q1 2026", ("2026-01-01", "2026-04-01"), "Q3 2025", ("2025-07-01", "2025-10-01")),
    ("2026", ("2026-01-01", "2027-01-01"), "2025", ("2025-01-01", "2026-01-01")),
)


@dataclass(frozen=True)
class Expect:
    """A governed call and how its answer is read: the tokens of its rows (``drop`` removes rows whose
    dimension has that value), the last row only (``last``), or the difference of two calls' values."""

    call: Call
    drop: tuple[tuple[str, str], ...] = ()
    last: bool = False


@dataclass(frozen=True)
class Probe:
    kind: str  # currency | unit_price
    shape: str
    question: str
    expect: tuple[Expect, ...]
    #: With no expectation: words one of which the clarification must contain.
    about: tuple[str, ...] = ()
    #: Two unit-price calls whose difference must also be in the answer (a change between periods).
    difference: bool = False
    german: bool = False
    #: Two calls (part, whole) whose percentage (100 * part / whole, 2 decimals) must be in the answer.
    ratio: bool = False
    #: The first call's net quantity must be stated as a count ("26 units", "26 pieces"), as "how many" asks.
    count: bool = False


@dataclass(frozen=True)
class Draw:
    company: str
    c: str
    supplier: str
    s: str
    group: str
    g: str
    period: tuple[str, str, str]
    product: str
    prd: str

    @property
    def p(self) -> str:
        return self.period[0]

    @property
    def pa(self) -> str:
        """The period as an adjective ("Company A's Q1 2026 spend"): without a leading preposition."""
        for lead in ("in the ", "in ", "for ", "from "):
            if self.p.startswith(lead) and not self.p.startswith("from 20"):
                return self.p.removeprefix(lead)
        return self.p

    def base(self, **extra: Any) -> dict[str, Any]:
        return {"company_id": self.company, "start_date": self.period[1], "end_date": self.period[2], **extra}


def _draw(rng: random.Random, german: bool = False) -> Draw:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    supplier = rng.choice(sorted(SUPPLIERS))
    spellings = SUPPLIERS[supplier]
    s = rng.choice(spellings[rng.choice(sorted(spellings))])
    group = rng.choice(sorted(GROUPS))
    product = rng.choice(sorted(PRODUCTS))
    period = rng.choice(GERMAN_PERIODS if german else PERIODS)
    return Draw(company, c, supplier, s, group, rng.choice(GROUPS[group][0]), period, product,
                rng.choice(PRODUCTS[product]))


def _cap(text: str) -> str:
    text = " ".join(text.split())
    return text[:1].upper() + text[1:]


# -- currency -------------------------------------------------------------------------------------------------------
_NAMED = (
    "{c} spend in {w} {p}", "How much did {c} spend in {w} {p}?", "{c}'s spend {p} in {w}",
    "{c} spend on {code} invoices {p}", "{c} spend on invoices in {w} {p}", "{code}-invoiced spend of {c} {p}",
    "What did {c} pay in {w} {p}?", "{c} spend {p} on invoices billed in {w}", "{c}: {code} spend {p}",
    "How much was invoiced to {c} in {w} {p}?", "{c} purchases in {w} {p}", "{c} spend {p} invoiced in {code}",
)
_NAMED_SCOPED = (
    "{c} spend with {s} in {w} {p}", "How much did {c} pay {s} in {w} {p}?", "{c} spend with {s} {p} in {w}",
    "{c}'s {code} invoices from {s} {p}: how much?", "{c} spend on {g} in {w} {p}",
)
_NAMED_DE = (
    "Wie viel hat {c} {p} in {w} ausgegeben?", "Ausgaben von {c} {p} in {w}", "{c} Ausgaben in {w} {p}",
    "Wie hoch waren die {code}-Rechnungen von {c} {p}?",
)
_ORIGINAL_PHRASES = (
    "in original currency", "in the original currencies", "in invoice currency", "in local currency",
    "in the currency invoiced", "in their own currencies", "as invoiced", "in transaction currency",
    "in document currency", "in the invoice currencies", "in local currencies", "in each invoice's currency",
)
_BREAKDOWN_PHRASES = (
    "by currency", "per currency", "broken down by currency", "split by invoice currency", "for each currency",
    "by invoice currency", "grouped by currency", "per invoice currency", "split by currency",
)
_ORIGINAL_DE = ("in Originalwährung", "in Rechnungswährung", "nach Währung", "je Währung",
                "aufgeschlüsselt nach Währung", "in Belegwährung")
_NON_EUR = ("non-EUR invoices", "non-euro invoices", "foreign-currency invoices", "invoices not in EUR",
            "invoices in foreign currencies", "invoices in currencies other than EUR", "non-EUR spend")


def _doc(params: Mapping[str, Any], code: str | None = None) -> Call:
    extra = {"document_currency": code} if code else {}
    return Call(DOC, {**params, **extra}, () if code else ("currency",), outputs=("document_spend", "total_spend"))


def _scope(d: Draw, rng: random.Random, scoped: bool) -> tuple[str, dict[str, Any], str]:
    """'' / 'supplier' / 'group' and the parameters of that scope."""
    if not scoped:
        return "", {}, ""
    if rng.random() < 0.7:
        return "supplier", {"supplier_ids": [d.supplier]}, d.s
    return "group", {"product_group_ids": list(GROUPS[d.group][1])}, d.g


def currency_probes(n: int, seed: int) -> list[Probe]:
    rng = random.Random(seed * 7 + 1)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        roll = rng.random()
        german = roll > 0.85
        d = _draw(rng, german)
        scoped = rng.random() < 0.35
        if roll < 0.32:  # a named foreign currency
            code = rng.choice(sorted(FOREIGN))
            if german:
                w = rng.choice(FOREIGN[code][1])
                template = rng.choice(_NAMED_DE)
                scope, extra = "", dict[str, Any]()
            else:
                w = rng.choice(FOREIGN[code][0])
                if scoped:
                    template = rng.choice(_NAMED_SCOPED)
                    scope, extra = ("group", {"product_group_ids": list(GROUPS[d.group][1])}) if "{g}" in template \
                        else ("supplier", {"supplier_ids": [d.supplier]})
                else:
                    template, scope, extra = rng.choice(_NAMED), "", {}
            q = template.format(c=d.c, p=d.p, w=w, code=code, s=d.s, g=d.g)
            probe = Probe("currency", "named" + (f"/{scope}" if scope else ""), _cap(q),
                          (Expect(_doc(d.base(**extra), code)),), german=german)
        elif roll < 0.40 and not german:  # EUR invoices
            w = rng.choice(("EUR invoices", "euro invoices", "EUR-denominated invoices", "invoices issued in euros",
                            "invoices billed in EUR"))
            q = rng.choice(("{c} spend on {w} {p}", "How much did {c} spend on {w} {p}?")).format(c=d.c, w=w, p=d.p)
            probe = Probe("currency", "eur_invoices", _cap(q), (Expect(_doc(d.base(), "EUR")),))
        elif roll < 0.72 or german:  # original currencies or a currency breakdown
            shape = "breakdown" if roll > 0.56 else "original"
            phrase = rng.choice(_ORIGINAL_DE if german else
                                (_BREAKDOWN_PHRASES if shape == "breakdown" else _ORIGINAL_PHRASES))
            scope, extra, name = _scope(d, rng, scoped and not german)
            if german:
                template = rng.choice(("Ausgaben von {c} {p} {x}", "Wie viel hat {c} {p} ausgegeben, {x}?"))
            elif scope == "supplier":
                template = rng.choice(("{c} spend with {n} {p} {x}", "How much did {c} pay {n} {p} {x}?",
                                       "{c}'s purchases from {n} {p}, {x}"))
            elif scope == "group":
                template = rng.choice(("{c} spend on {n} {p} {x}", "What did {c} spend on {n} {p} {x}?"))
            else:
                template = rng.choice(("{c} spend {p} {x}", "How much did {c} spend {p} {x}?",
                                       "{c}'s total spend {p} {x}", "Show {c}'s spend {x} {p}",
                                       "What was {c}'s spend {p}, {x}?"))
            q = template.format(c=d.c, p=d.p, x=phrase, n=name)
            probe = Probe("currency", shape + (f"/{scope}" if scope else ""), _cap(q),
                          (Expect(_doc(d.base(**extra))),
                           Expect(Call("finance.company_spend", d.base(**extra)))), german=german)
        else:  # non-EUR
            w = rng.choice(_NON_EUR)
            scope, extra, name = _scope(d, rng, scoped)
            if scope == "supplier":
                q = rng.choice(("{c} spend with {n} on {w} {p}", "{c}: spend on {w} from {n} {p}")).format(
                    c=d.c, n=name, w=w, p=d.p)
            elif scope == "group":
                q = f"{d.c} spend on {name} {d.p} on {w}"
            else:
                q = rng.choice(("{c} spend on {w} {p}", "How much did {c} spend on {w} {p}?",
                                "How much was spent on {w} by {c} {p}?")).format(c=d.c, w=w, p=d.p)
            probe = Probe("currency", "non_eur" + (f"/{scope}" if scope else ""), _cap(q),
                          (Expect(_doc(d.base(**extra)), drop=(("currency", "EUR"),)),))
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


_NAMED_BESIDE = (
    "{code}-invoiced spend at {c} {p}, original currency + EUR", "{c} spend on {code} invoices {p}, in {code} and EUR",
    "{c}'s invoices billed in {w} {p}: as billed and converted to EUR",
    "{c} spend invoiced in {code} {p}, both {code} and EUR", "{code} invoices of {c} {p} - amount in {code} and in EUR",
    "{c}: {code}-billed spend {p} (original currency and EUR)",
)
_HOW_MUCH_OF = (
    "How much of {c}'s spend {p} was invoiced in {w}?", "how much of {c}'s {n} spend {p} was billed in {code}?",
    "How much of {c}'s spend with {n} {p} was invoiced in {code}?", "how much of {c}'s {pa} spend was billed in {w}",
    "How much of what {c} spent {p} was invoiced in {w}?",
)
_SHARE = (
    "What fraction of {c}'s spend {p} was billed in {w}?", "{c}: what portion of spend {p} was invoiced in {code}?",
    "What share of {c}'s spend {p} was invoiced in {code}?", "what percentage of {c}'s spend {p} was billed in {w}?",
    "{c}, {p}: what part of the spend was invoiced in {code}?", "share of {code} invoices in {c}'s spend {p}",
    "What proportion of {c}'s {pa} spend was on {code} invoices?",
)
_SHARE_DE = ("Welcher Anteil der Ausgaben von {c} {p} wurde in {w} abgerechnet?",
             "Anteil der {code}-Rechnungen an den Ausgaben von {c} {p}")


def currency_probes_more(n: int, seed: int) -> list[Probe]:
    """The invoices of one named currency with the reporting currency beside them ("CHF-invoiced spend, original
    currency + EUR"), "how much of X was invoiced in GBP" (an amount, not a share) and the share of one invoice
    currency in the spend ("what fraction of spend was billed in CHF": part and whole in the reporting currency)."""
    rng = random.Random(seed * 7 + 3)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        roll = rng.random()
        german = roll > 0.93
        d = _draw(rng, german)
        code = rng.choice(sorted(FOREIGN))
        w = rng.choice(FOREIGN[code][1 if german else 0])
        if roll < 0.3:
            q = rng.choice(_NAMED_BESIDE).format(c=d.c, p=d.p, w=w, code=code)
            probe = Probe("currency", "named_beside", _cap(q), (Expect(_doc(d.base(), code)),))
        elif roll < 0.6:
            template = rng.choice(_HOW_MUCH_OF)
            extra: dict[str, Any] = {}
            name = ""
            if "{n}" in template:
                extra, name = {"supplier_ids": [d.supplier]}, d.s
            q = template.format(c=d.c, p=d.p, pa=d.pa, w=w, code=code, n=name)
            probe = Probe("currency", "how_much_of" + ("/supplier" if extra else ""), _cap(q),
                          (Expect(_doc(d.base(**extra), code)),))
        else:
            q = rng.choice(_SHARE_DE if german else _SHARE).format(c=d.c, p=d.p, pa=d.pa, w=w, code=code)
            part = Call(DOC, {**d.base(), "document_currency": code}, (), outputs=("total_spend",))
            whole = Call("finance.company_spend", d.base())
            probe = Probe("currency", "share", _cap(q), (Expect(part), Expect(whole)), ratio=True, german=german)
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


#: Several invoice currencies named together ("GBP and USD invoices"): ``{cs}`` is their list.
_SET = (
    "{c} {cs} invoices {p} – amounts in original currency and in EUR", "{c} spend in {cs} {p}",
    "{c} spend on {cs} invoices {p}", "{c}: {cs} invoices {p}, as invoiced and in EUR",
    "How much did {c} spend in {cs} {p}?", "{c} invoices billed in {cs} {p}: totals per currency and in EUR",
)
_JOINS = (" and ", "/", ", ", " & ", " + ")


def currency_probes_set(n: int, seed: int) -> list[Probe]:
    """Two or three invoice currencies named together (every order, several separators): each named currency's
    rows as invoiced (``finance.document_currency_spend`` by currency with ``document_currencies``) and their
    reporting-currency total (``finance.company_spend`` with the same ``document_currencies``), no other currency."""
    rng = random.Random(seed * 11 + 5)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        d = _draw(rng)
        codes = rng.sample(sorted(FOREIGN), rng.choice((2, 2, 3)))
        join = rng.choice(_JOINS)
        cs = join.join(codes) if len(codes) == 2 or join != " and " else f"{codes[0]}, {codes[1]} and {codes[2]}"
        q = rng.choice(_SET).format(c=d.c, p=d.p, cs=cs)
        params = d.base(document_currencies=codes)
        rows = Call(DOC, params, ("currency",), outputs=("document_spend", "total_spend"))
        total = Call("finance.company_spend", params)
        probe = Probe("currency", "named_set", _cap(q), (Expect(rows), Expect(total)))
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


_LISTINGS = (
    "List the invoices billed in {w} of {c} {p}", "List {c} {code} invoices {p}", "Show the {code}-invoiced invoices "
    "of {c} {p}", "Invoices of {c} billed in {w} {p}: list them", "List {c}'s invoices in {code} {p}",
    "Show me all {code} invoices of {c} {p}",
)


def currency_listing_probes(n: int, seed: int) -> list[Probe]:
    """The invoices of one invoice currency listed ("list the invoices billed in USD"): the governed listing
    (``finance.invoices_above_threshold`` at or above zero) with that ``document_currency``, every currency of the
    corpus (the reporting currency EUR too)."""
    rng = random.Random(seed * 13 + 7)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        d = _draw(rng)
        code = rng.choice((*sorted(FOREIGN), "EUR"))
        w = rng.choice(FOREIGN[code][0][:3]) if code in FOREIGN else "EUR"
        q = rng.choice(_LISTINGS).format(c=d.c, p=d.p, w=w, code=code)
        call = Call("finance.invoices_above_threshold", d.base(threshold="0.00", inclusive=True,
                                                                document_currency=code), (),
                    outputs=("grand_total",))
        probe = Probe("currency", "listing", _cap(q), (Expect(call),))
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


# -- unit prices ---------------------------------------------------------------------------------------------------
def _avg(params: Mapping[str, Any], group_by: tuple[str, ...] = (), grain: str | None = None) -> Call:
    return Call(AVG, params, group_by, grain, outputs=("unit_price",))


_AVERAGE = ("average unit price of {prd} {p} for {c}", "What did {c} pay per unit for {prd} {p}?",
            "{c} avg price per unit {prd} {p}", "mean unit price of {prd} {p}, {c}",
            "What was the average price {c} paid for {prd} {p}?", "{prd} unit cost {p} ({c})")
_AVERAGE_SUPPLIER = ("average unit price of {prd} from {s} {p} for {c}",
                     "What did {c} pay {s} per unit for {prd} {p}?", "{c}: {s}'s avg unit price for {prd} {p}")
_PER_SUPPLIER = ("average unit price of {prd} per supplier {p} for {c}", "{c}: unit price of {prd} by supplier {p}",
                 "{c} avg price per unit of {prd} {p}, broken down by vendor")
_CHEAPEST = ("Which supplier is cheapest for {prd} {p} ({c})?", "cheapest supplier for {prd} {p} for {c}",
             "Who sold {prd} cheapest to {c} {p}?", "Which supplier was cheaper for {prd} {p} for {c}?",
             "Which vendor offers {prd} at the lowest price {p}, {c}?")
_LATEST = ("latest unit price of {prd} for {c}", "What is the most recent price {c} paid per unit for {prd}?",
           "last price paid for {prd} by {c}", "{c}: latest unit price {prd}", "most recent unit price of {prd} ({c})",
           "What did {c} pay per unit for {prd} most recently?")
_LATEST_PERIOD = ("latest unit price of {prd} {p} for {c}", "last unit price {c} paid for {prd} {p}")
_INVOICE_CURRENCY = ("average unit price of {prd} {p} for {c} in invoice currency",
                     "{c}: unit price of {prd} {p} in original currency",
                     "What did {c} pay per unit for {prd} {p}, as invoiced?",
                     "average unit price of {prd} {p} for {c} by currency")
_CHANGE = ("How did the average unit price of {prd} change from {b} to {a} for {c}?",
           "{c}: unit price of {prd} {a} vs {b}", "Did {c}'s unit price for {prd} go up in {a} compared with {b}?",
           "{c} price per unit of {prd}: {b} versus {a}", "change in {c}'s average unit price of {prd} between {b} "
           "and {a}")
_AVERAGE_DE = ("Durchschnittlicher Stückpreis von {prd} {p} für {c}",
               "Was hat {c} {p} im Schnitt pro Stück für {prd} bezahlt?", "Stückpreis {prd} {p} ({c})")
_CHEAPER_NO_PRODUCT = ("Which supplier is cheaper for {c} {p}?", "Who is the cheapest vendor {p} ({c})?",
                       "Is {s} cheaper than the others {p} for {c}?")


_UNIT_WORD = ("average price per {u} of {prd} {p} for {c}", "{c}: what did we pay per {u} for {prd} {p}?",
              "avg cost per {u} of {prd}, {c}, {p}", "{c} - average price per {u} for {prd} {p}")
_INVOICES_ONLY = ("{c}'s average unit price for {prd} {p}, invoices only (ignore credit notes)",
                  "average unit price of {prd} {p} for {c}, excluding credit notes",
                  "{c} avg unit price {prd} {p} - invoices only", "{c}: unit price of {prd} {p} without credit notes")
_EUR_INVOICES = ("What was the lowest unit price {c} was charged for {prd} (EUR invoices) {p}?",
                 "highest unit price of {prd} on EUR invoices {p}, {c}",
                 "{c}: lowest price per unit paid for {prd} {p}, EUR invoices only",
                 "average unit price of {prd} on EUR invoices {p} for {c}")
_TWO_PRODUCTS = ("which is cheaper per unit for {c} {p}, {a} or {b}? give both averages",
                 "{c} {a} vs {b} {p} - average unit price of each",
                 "average unit price of {a} and of {b} for {c} {p}",
                 "{c}: compare the unit prices of {a} and {b} {p}",
                 "Which was cheaper per unit {p} for {c}: {a} or {b}?")
_UNITS_AND_PRICE = ("{c}: how many {prd} did we buy {p} and at what average unit price?",
                    "How many {prd} did {c} purchase {p}, and at what average price?",
                    "{c} {pa}: how many {prd} were bought and what was the average unit price?")
_AVERAGE_NAME_DE = ("Durchschnittlicher Stückpreis für {prd} bei {c} {p}", "Stückpreis von {prd} für {c} {p}",
                    "Was kostete {prd} {c} {p} im Schnitt pro Stück?")


def unit_price_probes_more(n: int, seed: int) -> list[Probe]:
    """Unit prices asked with the unit's own word ("per set", "per metre"), over invoices only, over EUR invoices
    (an extreme or the average), of two products in one question, with the quantity bought ("how many X and at
    what average unit price") and in German with the product named in German."""
    rng = random.Random(seed * 7 + 4)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        roll = rng.random()
        german = roll > 0.88
        d = _draw(rng, german)
        params: dict[str, Any] = {**d.base(), "product_code": d.product}
        fill = {"c": d.c, "p": d.p, "pa": d.pa, "prd": d.prd}
        if german:
            prd = rng.choice(PRODUCTS_DE[d.product])
            probe = Probe("unit_price", "name/de", _cap(rng.choice(_AVERAGE_NAME_DE).format(**{**fill, "prd": prd})),
                          (Expect(_avg(params)),), german=True)
        elif roll < 0.16:
            u = rng.choice(UNIT_WORDS[d.product])
            probe = Probe("unit_price", "unit_word", _cap(rng.choice(_UNIT_WORD).format(**fill, u=u)),
                          (Expect(_avg(params)),))
        elif roll < 0.32:
            probe = Probe("unit_price", "invoices_only", _cap(rng.choice(_INVOICES_ONLY).format(**fill)),
                          (Expect(_avg({**params, "document_types": ["invoice"]})),))
        elif roll < 0.48:
            template = rng.choice(_EUR_INVOICES)
            eur = {**params, "document_currency": "EUR"}
            if "average" in template:
                call = _avg(eur)
            else:
                out_name = "lowest_unit_price" if "lowest" in template else "highest_unit_price"
                call = Call("catalog.unit_price_range", eur, outputs=(out_name,))
            probe = Probe("unit_price", "eur_invoices", _cap(template.format(**fill)), (Expect(call),))
        elif roll < 0.62:
            other = rng.choice(sorted(set(PRODUCTS) - {d.product}))
            b = rng.choice(PRODUCTS[other])
            probe = Probe("unit_price", "two_products", _cap(rng.choice(_TWO_PRODUCTS).format(**fill, a=d.prd, b=b)),
                          (Expect(_avg(params)), Expect(_avg({**params, "product_code": other}))))
        else:
            call = Call(AVG, params, (), outputs=("quantity", "unit_price"))
            probe = Probe("unit_price", "units_and_price", _cap(rng.choice(_UNITS_AND_PRICE).format(**fill)),
                          (Expect(call),), count=True)
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


def unit_price_probes(n: int, seed: int) -> list[Probe]:
    rng = random.Random(seed * 7 + 2)
    out: list[Probe] = []
    seen: set[str] = set()
    while len(out) < n:
        roll = rng.random()
        german = roll > 0.92
        d = _draw(rng, german)
        fill = {"c": d.c, "p": d.p, "prd": d.prd, "s": d.s}
        params: dict[str, Any] = {**d.base(), "product_code": d.product}
        if german:
            probe = Probe("unit_price", "average/de", _cap(rng.choice(_AVERAGE_DE).format(**fill)),
                          (Expect(_avg(params)),), german=True)
        elif roll < 0.14:
            probe = Probe("unit_price", "average", _cap(rng.choice(_AVERAGE).format(**fill)), (Expect(_avg(params)),))
        elif roll < 0.24:
            probe = Probe("unit_price", "average/supplier", _cap(rng.choice(_AVERAGE_SUPPLIER).format(**fill)),
                          (Expect(_avg({**params, "supplier_ids": [d.supplier]})),))
        elif roll < 0.32:
            probe = Probe("unit_price", "per_supplier", _cap(rng.choice(_PER_SUPPLIER).format(**fill)),
                          (Expect(_avg(params, ("supplier_id",))),))
        elif roll < 0.42:
            probe = Probe("unit_price", "cheapest", _cap(rng.choice(_CHEAPEST).format(**fill)),
                          (Expect(_avg(params, ("supplier_id",))),))
        elif roll < 0.56:
            if rng.random() < 0.7:
                text = rng.choice(_LATEST).format(**fill)
                latest = {"company_id": d.company, "product_code": d.product, "start_date": "1990-01-01",
                          "end_date": (AS_OF + dt.timedelta(days=1)).isoformat()}
            else:
                text = rng.choice(_LATEST_PERIOD).format(**fill)
                latest = params
            probe = Probe("unit_price", "latest", _cap(text), (Expect(_avg(latest, grain="day"), last=True),))
        elif roll < 0.68:
            probe = Probe("unit_price", "invoice_currency", _cap(rng.choice(_INVOICE_CURRENCY).format(**fill)),
                          (Expect(Call(DOC_PRICE, params, ("currency",), outputs=("document_unit_price",))),))
        elif roll < 0.86:
            a, ar, b, br = rng.choice(CHANGES)
            text = rng.choice(_CHANGE).format(c=d.c, prd=d.prd, a=a, b=b)
            base = {"company_id": d.company, "product_code": d.product}
            probe = Probe("unit_price", "change", _cap(text),
                          (Expect(_avg({**base, "start_date": ar[0], "end_date": ar[1]})),
                           Expect(_avg({**base, "start_date": br[0], "end_date": br[1]}))), difference=True)
        else:
            probe = Probe("unit_price", "cheaper_no_product", _cap(rng.choice(_CHEAPER_NO_PRODUCT).format(**fill)),
                          (), about=("product",))
        if probe.question not in seen:
            seen.add(probe.question)
            out.append(probe)
    return out


# -- asking and classifying ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expected:
    """The tokens an answer must contain, or why it has none (no data; the catalog refused the call)."""

    tokens: list[str] = field(default_factory=list)
    no_data: bool = False
    refused: str | None = None
    values: list[str | None] = field(default_factory=list)


def _expected(direct: Mapping[str, Any], e: Expect) -> Expected:
    rows = list(direct.get("rows") or [])
    if e.drop:
        rows = [r for r in rows if not any(str((r.get("values") or {}).get(k)) == v for k, v in e.drop)]
    if e.last:
        rows = [r for r in rows if (r.get("values") or {}).get("unit_price") is not None][-1:]
    result = {**direct, "rows": rows}
    tokens = _tokens(result, e.call)
    priced = [r for r in rows if any((r.get("values") or {}).get(o) is not None for o in e.call.outputs)]
    if e.call.metric == "finance.company_spend":
        priced = [r for r in priced if str((r.get("values") or {}).get("matched_line_count", "1")) != "0"]
    value = None
    if len(priced) == 1 and e.call.outputs:
        value = (priced[0].get("values") or {}).get(e.call.outputs[0])
    return Expected(tokens if priced else [], no_data=not priced, values=[None if value is None else str(value)])


#: The nouns a quantity is stated with when "how many" is asked.
_COUNT_NOUNS = r"(?:units?|pieces|pcs|items|sets?|metres?|meters?|m\b|pairs?|kits?)"
_NO_DATA_WORDS = ("no data", "not found", "no counted", "no validated", "no invoice", "no priced", "no matching",
                  "no spend", "no lines", "no line")


def classify(probe: Probe, status: str, text: str, expected: Sequence[Expected]) -> str:
    refused = [e.refused for e in expected if e.refused]
    if status == "clarification":
        if not probe.expect or refused:
            about = probe.about or ("currency", "not", "cannot")
            return "clar_ok" if any(w.lower() in text.lower() for w in about) else "clar_wrong_point"
        return "false_clar"
    if not probe.expect or refused:
        return "silent_wrong" if status in ("answered", "no_data", "partial") else "refusal"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    ok = True
    for e in expected:
        if e.no_data:
            ok = ok and (status == "no_data" or any(w in text.lower() for w in _NO_DATA_WORDS))
        else:
            ok = ok and all(_present(t, text) for t in e.tokens)
    if ok and probe.ratio:
        part, whole = (e.values[0] for e in expected)
        if part is not None and whole is not None and Decimal(whole) != 0:
            pct = (100 * Decimal(part) / Decimal(whole)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            ok = _present(str(pct), text)
    if ok and probe.count and expected[0].values[0] is not None:
        qty = f"{Decimal(str(expected[0].values[0])).normalize():f}"
        ok = re.search(rf"(?<![\w.,-]){re.escape(qty)}\s+(?:[\w-]+\s+){{0,3}}?{_COUNT_NOUNS}", text, re.I) is not None
    if ok and probe.difference:
        values = [e.values[0] for e in expected]
        if all(v is not None for v in values):
            delta = Decimal(str(values[0])) - Decimal(str(values[1]))
            ok = _present(str(delta.quantize(Decimal("0.0001"))), text) or _present(str(abs(delta)), text)
    if ok:
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        expected: list[Expected] = []
        for e in probe.expect:
            call = e.call
            direct = session.client.post(f"/v1/metrics/{call.metric}/query", headers=session.headers, json={
                "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
            if direct.status_code in (400, 404, 422):
                # a metric, parameter or grouping the catalog does not serve: the answer must name it
                expected.append(Expected(refused=f"{direct.status_code} {direct.text[:120]}"))
                continue
            if direct.status_code != 200:
                raise SystemExit(f"{probe.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
            expected.append(_expected(direct.json(), e))
        status, text, _ = session.ask(probe.question, AS_OF)
        text = text.split(" Sources:")[0]
        klass = classify(probe, status, text, expected)
        said = [e.refused or ("no data" if e.no_data else e.tokens) for e in expected]
        return Checked(f"{probe.kind}/{probe.shape}", klass,
                       shown(f"{probe.kind}/{probe.shape}", klass, probe.question, said, status, text, width=700))

    return run_probes(database, "probes-currency", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    """The shared outcome table (:func:`evaluation.probes_clarify.outcome_table`), one per kind with its total."""
    out = []
    for kind in ("currency", "unit_price"):
        sub = Counter({key: v for key, v in counts.items() if key[0].startswith(kind + "/")})
        if sub:
            out.append(outcome_table(sub, sorted({c for c, _ in sub}), label=kind, width=30))
    return "\n".join(out)


def probes(seed: int, n: int, kinds: Sequence[str] = ("currency", "unit_price"), frames: str = "all") -> list[Probe]:
    """``n`` questions of each generator of the kinds: ``frames`` ``base`` (the first shapes), ``more`` (named
    currency beside EUR, "how much of", currency shares; unit words, invoices only, EUR invoices, two products,
    quantity and price, German product names), ``set`` (several invoice currencies named together), ``listing``
    (one currency's invoices listed) or ``all``."""
    builders: dict[str, tuple[Callable[[int, int], list[Probe]], ...]] = {
        "currency": (currency_probes, currency_probes_more, currency_probes_set, currency_listing_probes),
        "unit_price": (unit_price_probes, unit_price_probes_more)}
    pick = {"base": slice(0, 1), "more": slice(1, 2), "set": slice(2, 3), "listing": slice(3, 4),
            "all": slice(0, 4)}[frames]
    return [p for kind in kinds for build in builders[kind][pick] for p in build(n, seed)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = arguments(__doc__, count=("--n", 150), select=("--kind", ("currency", "unit_price")), counts_file=True)
    parser.add_argument("--frames", choices=("base", "more", "set", "listing", "all"), default="all")
    args = parser.parse_args(argv)
    found = probes(args.seed, args.n, args.kind or ("currency", "unit_price"), args.frames)
    counts = run(args.database, found, args.show)
    finish(counts, table(counts), args.json)


if __name__ == "__main__":
    main()
