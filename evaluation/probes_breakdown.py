"""Breakdown, share, status, exclusion, comparator and German probes: generated from slot grammars, asked through
``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_breakdown [--database procura] [--seed 11] [--per-class 40] [--class german]
[--show wrong|all|none] [--json out.json]`` fills frames of English and German wording with seeded slot values of
the demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15; the vocabulary of
:mod:`evaluation.probes_clarify`): suppliers by id, name, alias, short name, legal-form-less name, case variant
and one-edit typo; companies by name and id; product groups by English name, German synonym (with "und" / "&"),
case and typo; periods in English and German; breakdown phrases (supported grains and dimensions, and ones no
governed metric serves); status words in both languages; exclusion cues; amount comparators and notations
including German number words, fractions and scale abbreviations.

Each probe carries the governed call its slot values mean, or the words a clarification must be about when no
governed metric serves it (a breakdown by cost centre, a disputed status): a constraint is either used or named,
never dropped. Outcomes are those of :func:`evaluation.probes_clarify.classify`.

Seeds: ``--seed 11`` is the training seed the router is fixed on; ``--seed 12`` is held out (only its counts are
read, never its questions). Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probes_clarify import PERIODS, Draw, Probe, _draw, _style, _total, outcome_table, run

#: German synonyms of the demo groups (the catalogue's, some with "und" / "&" and one-edit typos).
GROUPS_DE: dict[str, tuple[str, ...]] = {
    "PG-SENS": ("Sensoren", "Fühler"),
    "PG-PRES": ("Drucksensoren", "Druckaufnehmer", "Drucksenoren"),
    "PG-TEMP": ("Temperatursensoren", "Temperaturfühler"),
    "PG-MCTL": ("Überwachungssteuerungen",),
    "PG-CAB": ("Schaltschränke",),
    "PG-CTRL": ("Steuerungstechnik",),
    "PG-CABL": ("Kabel und Stecker", "Kabel & Stecker", "Kabel und Steckverbinder", "Kabel & Steckverbinder",
                "Kabel und Steker"),
    "PG-CAL": ("Kalibriergeräte", "Kalibriertechnik"),
    "PG-MON": ("Überwachungsprodukte",),
}
#: English group names with "and" / "&" (the "&" spelling is the way analysts abbreviate them).
GROUPS_AND: dict[str, tuple[str, ...]] = {
    "PG-CABL": ("Cables and Connectors", "Cables & Connectors", "cables & connectors", "Cables and Conectors"),
}
#: German period phrases as of 2026-05-15: (phrase, start, end exclusive).
PERIODS_DE: tuple[tuple[str, str, str], ...] = (
    ("im 1. Quartal 2026", "2026-01-01", "2026-04-01"), ("im ersten Quartal 2026", "2026-01-01", "2026-04-01"),
    ("im Q1 2026", "2026-01-01", "2026-04-01"), ("im letzten Quartal", "2026-01-01", "2026-04-01"),
    ("im Jahr 2025", "2025-01-01", "2026-01-01"), ("2025", "2025-01-01", "2026-01-01"),
    ("im Geschäftsjahr 2025", "2025-01-01", "2026-01-01"), ("im ersten Halbjahr 2025", "2025-01-01", "2025-07-01"),
    ("im 2. Halbjahr 2025", "2025-07-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"),
    ("im 4. Quartal 2025", "2025-10-01", "2026-01-01"), ("im Vorjahr", "2025-01-01", "2026-01-01"),
    ("seit Jahresbeginn", "2026-01-01", "2026-05-16"), ("im Februar 2026", "2026-02-01", "2026-03-01"),
)
LANGS = ("en", "de")


def _group_spelling(d: Draw, rng: random.Random, lang: str) -> tuple[str, str]:
    """A (group id, spelling) pair: the draw's group in the language, or a name with "and"/"&" now and then."""
    if rng.random() < 0.3:
        group = "PG-CABL"
        spellings = GROUPS_DE[group] if lang == "de" else GROUPS_AND[group]
        return group, rng.choice(spellings)
    if lang == "de" and d.group in GROUPS_DE:
        return d.group, rng.choice(GROUPS_DE[d.group])
    return d.group, d.g


def _leaves(group: str) -> list[str]:
    from evaluation.probes_clarify import GROUPS

    return list(GROUPS[group][1])


def _period(rng: random.Random, lang: str) -> tuple[str, str, str]:
    return rng.choice(PERIODS_DE) if lang == "de" else rng.choice(PERIODS)


Fill = Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]


def _base(d: Draw, period: tuple[str, str, str], **extra: Any) -> dict[str, Any]:
    return {"company_id": d.company, "start_date": period[1], "end_date": period[2], **extra}


# -- breakdowns ---------------------------------------------------------------------------------------------------
#: (phrase, group_by, grain); group_by None: no governed metric breaks spend down that way (a clarification
#: naming the word in ``grain`` is the answer).
_BREAKDOWNS_EN: tuple[tuple[str, tuple[str, ...] | None, str | None], ...] = (
    ("across suppliers", ("supplier_id",), None), ("split by supplier", ("supplier_id",), None),
    ("broken down by supplier", ("supplier_id",), None), ("per month", (), "month"), ("monthly", (), "month"),
    ("by quarter", (), "quarter"), ("per product group", ("product_group_id",), None),
    ("split by month", (), "month"), ("broken down by month", (), "month"), ("across product groups",
                                                                             ("product_group_id",), None),
    ("per supplier", ("supplier_id",), None), ("by vendor", ("supplier_id",), None),
    ("split by product group", ("product_group_id",), None), ("broken down by quarter", (), "quarter"),
    ("quarter by quarter", (), "quarter"), ("by year", (), "year"), ("per year", (), "year"),
    ("by product", ("product_code",), None), ("across products", ("product_code",), None),
    ("split by supplier and month", ("supplier_id",), "month"), ("per supplier and quarter", ("supplier_id",),
                                                                  "quarter"),
    ("broken down by product group and supplier", ("product_group_id", "supplier_id"), None),
    ("per top-level category", ("top_product_group_id",), None), ("by main category", ("top_product_group_id",), None),
    ("by category", ("product_group_id",), None), ("split per supplier", ("supplier_id",), None),
    ("across all vendors", ("supplier_id",), None), ("on a monthly basis", (), "month"),
    ("on a quarterly basis", (), "quarter"), ("by week", (), "week"),
    ("broken out by supplier", ("supplier_id",), None), ("broken out by month", (), "month"),
    ("by cost center", None, "cost cent"), ("per buyer", None, "buyer"), ("by region", None, "region"),
    ("split by plant", None, "plant"), ("broken down by payment terms", None, "payment terms"),
    ("per department", None, "department"),
)
_BREAKDOWNS_DE: tuple[tuple[str, tuple[str, ...] | None, str | None], ...] = (
    ("nach Lieferanten", ("supplier_id",), None), ("pro Lieferant", ("supplier_id",), None),
    ("je Lieferant", ("supplier_id",), None), ("aufgeteilt nach Lieferanten", ("supplier_id",), None),
    ("nach Monaten", (), "month"), ("pro Monat", (), "month"), ("monatlich", (), "month"),
    ("nach Quartalen", (), "quarter"), ("pro Quartal", (), "quarter"), ("quartalsweise", (), "quarter"),
    ("nach Warengruppen", ("product_group_id",), None), ("pro Warengruppe", ("product_group_id",), None),
    ("nach Hauptwarengruppen", ("top_product_group_id",), None),
    ("aufgeschlüsselt nach Monat", (), "month"), ("nach Produkt", ("product_code",), None),
    ("nach Kostenstelle", None, "cost cent"), ("nach Region", None, "region"),
)


def _breakdown(template: str, lang: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, dims, grain = rng.choice(_BREAKDOWNS_DE if lang == "de" else _BREAKDOWNS_EN)
        period = _period(rng, lang)
        params = _base(d, period)
        g_id, g = _group_spelling(d, rng, lang)
        if scope == "supplier":
            if dims and "supplier_id" in dims:
                phrase, dims, grain = ("pro Monat", (), "month") if lang == "de" else ("per month", (), "month")
            params["supplier_ids"] = [d.supplier]
        if scope == "group":
            if dims and "top_product_group_id" in dims:
                phrase, dims, grain = (("nach Lieferanten", ("supplier_id",), None) if lang == "de"
                                       else ("across suppliers", ("supplier_id",), None))
            params["product_group_ids"] = _leaves(g_id)
        question = template.format(c=d.c, s=d.s, g=g, p=period[0], b=phrase)
        if dims is None:
            # a German grouping word is named back in English ("nach Kostenstelle": cost center)
            return question, None, (str(grain),)
        return question, _total(params, dims, grain), ()
    return fill


# -- shares -------------------------------------------------------------------------------------------------------
def _share(template: str, lang: str, part: str, within: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        period = _period(rng, lang)
        g_id, g = _group_spelling(d, rng, lang)
        if part == "supplier":
            params = _base(d, period, supplier_ids=[d.supplier])
            if within == "group":
                params["product_group_ids"] = _leaves(g_id)
            call = Call("finance.supplier_share", params, outputs=("share_percent",))
        else:
            params = _base(d, period, product_group_ids=_leaves(g_id))
            if within == "supplier":
                params["supplier_ids"] = [d.supplier]
            call = Call("finance.product_group_share", params, outputs=("share_percent",))
        frac = rng.choice(("ein Viertel", "die Hälfte", "zwei Drittel", "ein Drittel", "10 %", "zehn Prozent")
                          if lang == "de" else ("a quarter", "half", "two thirds", "10%", "a third"))
        return template.format(c=d.c, s=d.s, g=g, p=period[0], f=frac), call, ()
    return fill


# -- statuses -----------------------------------------------------------------------------------------------------
#: (word, extra parameters or None, words a clarification must name). Drafts and cancelled invoices never count
#: as spend (the accounting policy); no status records a dispute or an approval workflow.
_STATUS_EN: tuple[tuple[str, dict[str, Any] | None, tuple[str, ...]], ...] = (
    ("paid", {"invoice_statuses": ["paid"]}, ()), ("unpaid", {"invoice_statuses": ["posted"]}, ()),
    ("open", {"invoice_statuses": ["posted"]}, ()), ("outstanding", {"invoice_statuses": ["posted"]}, ()),
    ("settled", {"invoice_statuses": ["paid"]}, ()), ("posted", {"invoice_statuses": ["posted"]}, ()),
    ("fully paid", {"invoice_statuses": ["paid"]}, ()), ("not yet paid", {"invoice_statuses": ["posted"]}, ()),
    ("pending payment", {"invoice_statuses": ["posted"]}, ()),
    ("draft", None, ("draft",)), ("cancelled", None, ("cancel",)), ("canceled", None, ("cancel",)),
    ("disputed", None, ("disputed", "status")), ("voided", None, ("void", "cancel")),
)
_STATUS_DE: tuple[tuple[str, dict[str, Any] | None, tuple[str, ...]], ...] = (
    ("bezahlten", {"invoice_statuses": ["paid"]}, ()), ("offenen", {"invoice_statuses": ["posted"]}, ()),
    ("unbezahlten", {"invoice_statuses": ["posted"]}, ()), ("beglichenen", {"invoice_statuses": ["paid"]}, ()),
    ("stornierten", None, ("storn", "cancel")), ("strittigen", None, ("strittig", "disput", "status")),
)


def _status(template: str, lang: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        word, extra, about = rng.choice(_STATUS_DE if lang == "de" else _STATUS_EN)
        period = _period(rng, lang)
        if scope == "supplier" and extra is not None:
            extra = {**extra, "supplier_ids": [d.supplier]}
        call = _total(_base(d, period, **extra)) if extra is not None else None
        return template.format(c=d.c, s=d.s, p=period[0], st=word), call, about
    return fill


def _credited(template: str, lang: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        period = _period(rng, lang)
        extra: dict[str, Any] = {"document_types": ["credit_note"]}
        if scope == "supplier":
            extra["supplier_ids"] = [d.supplier]
        return template.format(c=d.c, s=d.s, p=period[0]), _total(_base(d, period, **extra)), ()
    return fill


# -- exclusions ---------------------------------------------------------------------------------------------------
_EXCLUDE_EN = ("excluding", "other than", "except", "except for", "but excluding", "not including", "excl.")
_EXCLUDE_DE = ("ohne", "außer", "ausgenommen", "exklusive")


def _exclusion(template: str, lang: str, what: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        word = rng.choice(_EXCLUDE_DE if lang == "de" else _EXCLUDE_EN)
        period = _period(rng, lang)
        g_id, g = _group_spelling(d, rng, lang)
        if what == "supplier":
            params = _base(d, period, exclude_supplier_ids=[d.supplier])
            x = d.s
        elif what == "two":
            params = _base(d, period, exclude_supplier_ids=sorted({d.supplier, d.supplier2}))
            x = f"{d.s} {'und' if lang == 'de' else 'and'} {d.s2}"
        else:
            params = _base(d, period, exclude_product_group_ids=_leaves(g_id))
            x = g
        return template.format(c=d.c, x=x, p=period[0], ex=word), _total(params), ()
    return fill


# -- amounts ------------------------------------------------------------------------------------------------------
#: (phrase, threshold, direction, inclusive, upper, upper inclusive).
_AMOUNTS_EN: tuple[tuple[str, str, str, bool, str | None, bool], ...] = (
    ("of more than or equal to €10,000", "10000.00", "above", True, None, False),
    ("greater than or equal to 5k EUR", "5000.00", "above", True, None, False),
    ("upwards of €20k", "20000.00", "above", True, None, False),
    ("of at least EUR 15,000", "15000.00", "above", True, None, False),
    ("of no more than €2,000", "2000.00", "below", True, None, False),
    ("of not more than 1.5k EUR", "1500.00", "below", True, None, False),
    ("under €750", "750.00", "below", False, None, False),
    ("between €5,000 and €20,000", "5000.00", "above", True, "20000.00", True),
    ("between 1k and 3k EUR", "1000.00", "above", True, "3000.00", True),
    ("of less than or equal to €3,000", "3000.00", "below", True, None, False),
    ("of no less than 10k EUR", "10000.00", "above", True, None, False),
    ("in excess of EUR 25,000", "25000.00", "above", False, None, False),
    (">= €10,000", "10000.00", "above", True, None, False), ("<= 2,000 EUR", "2000.00", "below", True, None, False),
    ("of at most €5k", "5000.00", "below", True, None, False),
    ("over half a million euros", "500000.00", "above", False, None, False),
    ("over a quarter of a million EUR", "250000.00", "above", False, None, False),
    ("of €1.5m or more", "1500000.00", "above", True, None, False),
)
_AMOUNTS_DE: tuple[tuple[str, str, str, bool, str | None, bool], ...] = (
    ("über 10.000 €", "10000.00", "above", False, None, False),
    ("über zehntausend Euro", "10000.00", "above", False, None, False),
    ("von mindestens 5.000 EUR", "5000.00", "above", True, None, False),
    ("unter 1.000 €", "1000.00", "below", False, None, False),
    ("unter 1,5 Tsd. €", "1500.00", "below", False, None, False),
    ("über 1,5 Mio. €", "1500000.00", "above", False, None, False),
    ("von höchstens 2.500 €", "2500.00", "below", True, None, False),
    ("zwischen 5.000 € und 20.000 €", "5000.00", "above", True, "20000.00", True),
    ("über eine halbe Million Euro", "500000.00", "above", False, None, False),
    ("über eine Viertelmillion Euro", "250000.00", "above", False, None, False),
    ("von mehr als fünftausend Euro", "5000.00", "above", False, None, False),
    ("über 20 Tsd. EUR", "20000.00", "above", False, None, False),
    ("unter zweitausendfünfhundert Euro", "2500.00", "below", False, None, False),
)


def _amounts(template: str, lang: str, scope: str = "") -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, threshold, direction, inclusive, upper, upper_incl = rng.choice(
            _AMOUNTS_DE if lang == "de" else _AMOUNTS_EN)
        period = _period(rng, lang)
        params: dict[str, Any] = _base(d, period, threshold=threshold, direction=direction, inclusive=inclusive)
        if upper:
            params |= {"upper_threshold": upper, "upper_inclusive": upper_incl}
        if scope == "supplier":
            params["supplier_ids"] = [d.supplier]
        call = Call("finance.invoices_above_threshold", params, outputs=("invoice_number",))
        return template.format(c=d.c, s=d.s, p=period[0], a=phrase), call, ()
    return fill


# -- German totals (group names with "und" / "&", suppliers, periods) ----------------------------------------------
def _german_total(template: str, scope: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        period = _period(rng, "de")
        g_id, g = _group_spelling(d, rng, "de")
        if scope == "group":
            call = _total(_base(d, period, product_group_ids=_leaves(g_id)))
        elif scope == "supplier":
            call = Call("finance.aggregate_spend", _base(d, period, supplier_ids=[d.supplier]))
        elif scope == "both":
            call = _total(_base(d, period, supplier_ids=[d.supplier], product_group_ids=_leaves(g_id)))
        else:
            call = _total(_base(d, period))
        return template.format(c=d.c, s=d.s, g=g, p=period[0]), call, ()
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "breakdown": (
        _breakdown("{c} spend {p} {b}", "en"), _breakdown("What did {c} spend {p}, {b}?", "en"),
        _breakdown("Show {c}'s spend {b} {p}", "en"), _breakdown("{c} spend with {s} {p} {b}", "en", "supplier"),
        _breakdown("{c} spend on {g} {p} {b}", "en", "group"), _breakdown("{c}: total spend {p} {b}", "en"),
        _breakdown("How much did {c} spend {p} {b}?", "en"), _breakdown("{c} purchases {b} for {p}", "en"),
        _breakdown("Give me {c}'s spend on {g} {b}, {p}", "en", "group"),
        _breakdown("Ausgaben von {c} {p} {b}", "de"), _breakdown("Wie viel hat {c} {p} ausgegeben, {b}?", "de"),
        _breakdown("Ausgaben von {c} für {g} {p} {b}", "de", "group"),
        _breakdown("Ausgaben von {c} bei {s} {p} {b}", "de", "supplier"),
    ),
    "shares": (
        _share("What is {s}'s share of {c}'s spend {p}, in %?", "en", "supplier"),
        _share("{s} share of {c} spend {p} in percent", "en", "supplier"),
        _share("What % of {c}'s {g} spend {p} went to {s}?", "en", "supplier", "group"),
        _share("{g}'s share of {c}'s total spend {p} (%)", "en", "group"),
        _share("What percentage of {c}'s spend with {s} {p} was {g}?", "en", "group", "supplier"),
        _share("Did {s} get more than {f} of {c}'s spend {p}?", "en", "supplier"),
        _share("Was {g} over {f} of {c}'s spend {p}?", "en", "group"),
        _share("Anteil von {s} an den Ausgaben von {c} {p}", "de", "supplier"),
        _share("Welchen Anteil hatte {g} an den Ausgaben von {c} {p}?", "de", "group"),
        _share("Wie hoch war der Anteil von {s} an den Ausgaben von {c} für {g} {p}?", "de", "supplier", "group"),
        _share("Hat {s} mehr als {f} der Ausgaben von {c} {p} bekommen?", "de", "supplier"),
        _share("War der Anteil von {g} an den Ausgaben von {c} {p} über {f}?", "de", "group"),
    ),
    "status": (
        _status("{c} {st} invoices total {p}", "en"), _status("How much of {c}'s spend {p} is {st}?", "en"),
        _status("Total of {st} invoices from {s} {p} for {c}", "en", "supplier"),
        _status("What is the value of {c}'s {st} invoices {p}?", "en"),
        _status("{c}: {st} invoices with {s} {p}, total", "en", "supplier"),
        _credited("How much was credited to {c} {p}?", "en"),
        _credited("How much did {s} credit {c} {p}?", "en", "supplier"),
        _credited("Total credit notes for {c} from {s} {p}", "en", "supplier"),
        _status("Summe der {st} Rechnungen von {c} {p}", "de"),
        _status("Wie viel haben {st} Rechnungen von {s} bei {c} {p} betragen?", "de", "supplier"),
        _credited("Gutschriften von {s} an {c} {p}", "de", "supplier"),
        _credited("Summe der Gutschriften für {c} {p}", "de"),
    ),
    "exclusions": (
        _exclusion("{c} spend {p} {ex} {x}", "en", "supplier"), _exclusion("{c} spend {ex} {x} {p}", "en", "group"),
        _exclusion("How much did {c} spend {p}, {ex} {x}?", "en", "two"),
        _exclusion("{c} total spend {p} on everything {ex} {x}", "en", "group"),
        _exclusion("What did {c} spend with suppliers {ex} {x} {p}?", "en", "supplier"),
        _exclusion("Ausgaben von {c} {p} {ex} {x}", "de", "supplier"),
        _exclusion("Ausgaben von {c} {p} {ex} {x}", "de", "group"),
        _exclusion("Wie viel hat {c} {p} {ex} {x} ausgegeben?", "de", "two"),
    ),
    "amounts": (
        _amounts("{c} invoices {a} {p}", "en"), _amounts("Which invoices {a} did {c} get {p}?", "en"),
        _amounts("List {c}'s invoices from {s} {a} {p}", "en", "supplier"),
        _amounts("Rechnungen von {c} {a} {p}", "de"), _amounts("Welche Rechnungen {a} hatte {c} {p}?", "de"),
        _amounts("Rechnungen von {s} an {c} {a} {p}", "de", "supplier"),
    ),
    "german": (
        _german_total("Ausgaben von {c} für {g} {p}", "group"),
        _german_total("Wie viel hat {c} {p} für {g} ausgegeben?", "group"),
        _german_total("Ausgaben von {c} bei {s} {p}", "supplier"),
        _german_total("Wie viel hat {c} {p} bei {s} ausgegeben?", "supplier"),
        _german_total("Gesamtausgaben von {c} {p}", "all"),
        _german_total("Ausgaben von {c} bei {s} für {g} {p}", "both"),
        _german_total("Was hat {c} {p} für {g} bezahlt?", "group"),
    ),
}


def probes(seed: int, per_class: int = 40) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            fill = rng.choice(frames)
            draw = _draw(rng)
            question, call, about = fill(draw, rng)
            question = _style(question, rng) if rng.random() < 0.5 else question
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, call, about, (draw.s_kind,)))
    return found


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, seed=11, per_class=40)


if __name__ == "__main__":
    main()
