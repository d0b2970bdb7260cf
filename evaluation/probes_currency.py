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

Outcomes: ``exact`` (every expected figure and id in the answer; "no data" where the call has none), ``clar_ok``
(a clarification where one is expected, about the expected point), ``false_clar``, ``clar_wrong_point``,
``refusal``, ``flagged`` (different, but said to be partial) and ``silent_wrong`` (different and presented as
complete). A direct call the catalog refuses (a parameter or a metric it does not have) makes the expected
answer a clarification naming the unserved slot.

The seed picks frames and slot values: the router is fixed on ``--seed 1`` and ``--seed 2`` is held out (only its
counts are read, ``--show none``). Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from evaluation.constraint_probes import Call, _present, _tokens
from evaluation.probes_clarify import CLASSES, COMPANIES, GROUPS, PERIODS, SUPPLIERS

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
    if ok and probe.difference:
        values = [e.values[0] for e in expected]
        if all(v is not None for v in values):
            delta = Decimal(str(values[0])) - Decimal(str(values[1]))
            ok = _present(str(delta.quantize(Decimal("0.0001"))), text) or _present(str(abs(delta)), text)
    if ok:
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    import psycopg
    from fastapi.testclient import TestClient

    from api.main import create_app
    from procura.auth import create_key
    from procura.settings import get_settings

    os.environ["PROCURA_DB_NAME"] = database
    get_settings.cache_clear()
    settings = get_settings()
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        key = create_key(conn, tenant_id=TENANT, scopes=("invoice:aggregate", "procurement:read"),
                         principal_id="probes-currency", rate_limit_per_minute=1_000_000).key
    headers = {"Authorization": f"Bearer {key}"}
    counts: Counter[tuple[str, str]] = Counter()
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        for probe in found:
            expected: list[Expected] = []
            for e in probe.expect:
                call = e.call
                direct = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
                    "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
                if direct.status_code in (400, 404, 422):
                    # a metric, parameter or grouping the catalog does not serve: the answer must name it
                    expected.append(Expected(refused=f"{direct.status_code} {direct.text[:120]}"))
                    continue
                if direct.status_code != 200:
                    raise SystemExit(f"{probe.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
                expected.append(_expected(direct.json(), e))
            body = client.post("/v1/ask", headers=headers,
                               json={"question": probe.question, "as_of": AS_OF.isoformat()}).json()
            answer: Mapping[str, Any] = body.get("answer", {}) if isinstance(body, dict) else {}
            status = str(answer.get("status"))
            text = str(answer.get("text") or answer.get("clarification_question") or "").split(" Sources:")[0]
            klass = classify(probe, status, text, expected)
            counts[(f"{probe.kind}/{probe.shape}", klass)] += 1
            if show == "all" or (show == "wrong" and klass not in ("exact", "clar_ok")):
                shown = [e.refused or ("no data" if e.no_data else e.tokens) for e in expected]
                print(f"[{probe.kind}/{probe.shape}/{klass}] {probe.question}\n    expected {shown}"
                      f"\n    -> {status}: {text[:700]}")
    return counts


def table(counts: Counter[tuple[str, str]]) -> str:
    lines = [f"{'shape':30} " + " ".join(f"{k:>16}" for k in CLASSES)]
    for shape in sorted({c for c, _ in counts}):
        lines.append(f"{shape:30} " + " ".join(f"{counts[(shape, k)]:>16}" for k in CLASSES))
    for kind in ("currency", "unit_price"):
        if any(c.startswith(kind) for c, _ in counts):
            lines.append(f"{kind + ' total':30} " + " ".join(
                f"{sum(v for (c, k), v in counts.items() if k == cl and c.startswith(kind)):>16}" for cl in CLASSES))
    return "\n".join(lines)


def probes(seed: int, n: int, kinds: Sequence[str] = ("currency", "unit_price")) -> list[Probe]:
    builders: dict[str, Callable[[int, int], list[Probe]]] = {"currency": currency_probes,
                                                               "unit_price": unit_price_probes}
    return [p for kind in kinds for p in builders[kind](n, seed)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--database", default="procura")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--n", type=int, default=150, help="questions per kind")
    parser.add_argument("--kind", choices=("currency", "unit_price"), action="append", default=[])
    parser.add_argument("--show", choices=("wrong", "all", "none"), default="wrong")
    parser.add_argument("--json", help="write the counts as JSON to this file")
    args = parser.parse_args(argv)
    counts = run(args.database, probes(args.seed, args.n, args.kind or ("currency", "unit_price")), args.show)
    print(table(counts))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({f"{c}/{k}": v for (c, k), v in sorted(counts.items())}, out, indent=1)


if __name__ == "__main__":
    main()
