"""German shop-floor and board-pack shorthand and elliptic fragments (router/german_shopfloor.py,
router/elliptic.py), routed without a database.

Each class is generated from seeded slots (company, supplier alias, product, year, quarter, half, months, days,
amounts; umlauts typed or as ae/oe/ue, capitals or not, with or without the abbreviation's dot) and the shorthand
question must be planned exactly as the spelled-out English question with the same slots: the same governed
metric called with the same parameters and grouping. The period of each is also checked against the dates the
slots name (computed here, never by the reader). A fragment that names another figure is never read as spend.
Bounded: 12 generated questions per class.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from procura.demo.masterdata import TENANT_42
from router.elliptic import elliptic_spend
from router.german import read_german
from router.routing import RouterInputs, route
from tests.unit.test_router_rankings_counts import CATALOG
from tests.unit.test_router_statuses import AS_OF, CTX, GAZETTEER, METRICS, _calls

_INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG)
_N = 12
_COMPANIES = ("Company A", "Company B", "Company C", "company a", "company b")
_SUPPLIERS = tuple(a for s in TENANT_42.suppliers for a in s.aliases if a.isascii() and "." not in a)
_MONTHS_DE = (("Jan", "Januar"), ("Feb", "Februar"), ("Mär", "März"), ("Apr", "April"), ("Mai", "Mai"),
              ("Jun", "Juni"), ("Jul", "Juli"), ("Aug", "August"), ("Sep", "September"), ("Okt", "Oktober"),
              ("Nov", "November"), ("Dez", "Dezember"))
_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December")
#: (shorthand German question, the English question meaning the same, the period the slots name or None)
Case = tuple[str, str, tuple[dt.date, dt.date] | None]


def _next_month(year: int, month: int) -> dt.date:
    return dt.date(year + month // 12, month % 12 + 1, 1)


def _fiscal_years(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, s, y = rng.choice(_COMPANIES), rng.choice(_SUPPLIERS), rng.choice((2024, 2025))
        word = rng.choice(("GJ", "gj", "GJ.", "Geschäftsjahr", "Geschaeftsjahr", "geschäftsjahr"))
        yield (f"{c} {s} im {word} {y}", f"{c} spend with {s} in {y}",
               (dt.date(y, 1, 1), dt.date(y + 1, 1, 1)))


def _halves(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, y, h = rng.choice(_COMPANIES), rng.choice((2024, 2025)), rng.choice((1, 2))
        form = rng.choice((f"{h}. HJ {y}", f"HJ {h}/{y}", f"Halbjahr {h}/{y}", f"{h}. Halbjahr {y}",
                           f"im {h}. hj {y}", f"H{h}/{y}"))
        yield f"Ausgaben {c} {form}", f"{c} spend in H{h} {y}", (dt.date(y, 6 * h - 5, 1), _next_month(y, 6 * h))


def _month_ranges(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, y = rng.choice(_COMPANIES), rng.choice((2024, 2025))
        m1 = rng.randrange(0, 11)
        m2 = rng.randrange(m1 + 1, 12)
        a, b = _MONTHS_DE[m1][0], _MONTHS_DE[m2][0]
        a, b = (a.lower(), b.lower()) if rng.random() < 0.3 else (a, b)
        dot = rng.choice(("", "."))
        sep = rng.choice((" bis ", "–", "-", " – "))
        yield (f"{c}, Ausgaben {a}{dot}{sep}{b}{dot} {y}", f"{c} spend {_MONTHS_EN[m1]} to {_MONTHS_EN[m2]} {y}",
               (dt.date(y, m1 + 1, 1), _next_month(y, m2 + 1)))


def _day_ranges(rng: random.Random) -> Iterator[Case]:
    # the first day of the range is never lost ("zwischen 1. und 15. März" was read as 15 March alone)
    for _ in range(_N):
        c, y, m = rng.choice(_COMPANIES), 2025, rng.randrange(1, 13)
        d1 = rng.randrange(1, 14)
        d2 = rng.randrange(d1 + 1, 28)
        month = _MONTHS_DE[m - 1][1]
        iso1, iso2 = dt.date(y, m, d1), dt.date(y, m, d2)
        form = rng.randrange(4)
        if form == 0:
            # German "zwischen dem 1. und 15." names both days (as "between 1 and 15 March" does)
            yield (f"{c} Ausgaben zwischen {d1}. und {d2}. {month} {y}", f"{c} spend since {iso1} until {iso2}",
                   (iso1, iso2 + dt.timedelta(days=1)))
        elif form == 1:
            yield (f"{c} Ausgaben zwischen dem {d1}. und dem {d2}.{m}.{y}", f"{c} spend since {iso1} until {iso2}",
                   (iso1, iso2 + dt.timedelta(days=1)))
        elif form == 2:
            yield (f"{c} Ausgaben {d1}.-{d2}.{m}.{y}", f"{c} spend since {iso1} until {iso2}",
                   (iso1, iso2 + dt.timedelta(days=1)))
        else:
            yield (f"{c} Ausgaben vom {d1}. bis {d2}. {month} {y}", f"{c} spend since {iso1} until {iso2}",
                   (iso1, iso2 + dt.timedelta(days=1)))


def _documents(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, q, y = rng.choice(_COMPANIES), rng.randrange(1, 5), rng.choice((2025, 2026))
        amount = rng.choice((5000, 10000, 12500, 20000))
        rg = rng.choice(("Rg.", "rg.", "Rgn.", "Rg", "Rechnungen"))
        de = f"{amount:,}".replace(",", ".")
        if rng.random() < 0.5:
            yield (f"wie viele {rg} über {de} EUR hatte {c} im Q{q} {y}?",
                   f"how many invoices over {amount} EUR did {c} have in Q{q} {y}?", None)
        else:
            yield (f"welche {rg} über {de} EUR hatte {c} im Q{q} {y}?",
                   f"which invoices over {amount} EUR did {c} have in Q{q} {y}?", None)


def _suppliers(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, q, y, n = rng.choice(_COMPANIES), rng.randrange(1, 5), rng.choice((2025, 2026)), rng.randrange(2, 6)
        form = rng.choice((f"Top {n} Lief.", f"Top {n} lief.", f"Top-{n}-Lieferanten", f"Top {n} Lieferanten"))
        yield f"{form} {c} Q{q} {y}", f"top {n} suppliers of {c} by spend in Q{q} {y}", None


def _companies(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        q, y = rng.randrange(1, 5), rng.choice((2025, 2026))
        form = rng.choice(("je Gesellschaft", "pro Gesellschaft", "nach Gesellschaften", "je Gesellschaft (A, B, C)"))
        yield f"Q{q} {y} Ausgaben {form}", f"Q{q} {y} spend by company", None


def _net(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, s, q, y = rng.choice(_COMPANIES), rng.choice(_SUPPLIERS), rng.randrange(1, 5), rng.choice((2025, 2026))
        form = rng.choice(("netto ohne MwSt", "ohne MwSt.", "exkl. MwSt", "netto", "ohne mwst"))
        yield f"{s}, {c}, Q{q} {y} {form}", f"{c} net spend with {s} in Q{q} {y}", None


def _shares(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, s, h, y = rng.choice(_COMPANIES), rng.choice(_SUPPLIERS), rng.choice((1, 2)), rng.choice((2025, 2026))
        form = rng.choice(("wie viel % gingen an", "wie viel Prozent gingen an", "wieviel % gingen an",
                           "wie viel % entfielen auf"))
        yield f"{c} H{h} {y} – {form} {s}?", f"what share of {c} spend in H{h} {y} went to {s}?", None


def _statuses(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, q, y = rng.choice(_COMPANIES), rng.randrange(1, 5), rng.choice((2025, 2026))
        form = rng.choice(("nach Status bezahlt / gebucht", "nach Status", "je Status (bezahlt, gebucht)",
                           "nach Status gebucht/bezahlt"))
        yield f"{c} Q{q} {y} {form}", f"{c} spend in Q{q} {y} by status", None


def _changes(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        s, y = rng.choice(_SUPPLIERS), 2025
        c = rng.choice(_COMPANIES)
        q = rng.randrange(2, 5)
        vs = rng.choice(("ggü.", "ggue.", "gegenüber"))
        word = rng.choice(("Differenz?", "Veränderung?", "Veraenderung?"))
        want = "difference" if word.startswith("Diff") else "change"
        yield (f"{c} {s}: Q{q} {y} {vs} Q{q - 1} – {word}", f"{c} spend with {s}: Q{q} {y} vs Q{q - 1} {want}?",
               None)


def _unit_prices(rng: random.Random) -> Iterator[Case]:
    products = [p for p in TENANT_42.products if p.product_code in ("PRD-482", "PRD-483", "PRD-491", "PRD-530")]
    for _ in range(_N):
        p, c, h, y = rng.choice(products), rng.choice(_COMPANIES), rng.choice((1, 2)), 2025
        low = rng.random() < 0.5
        word = rng.choice(("günstigster Einzelpreis", "niedrigster Stückpreis", "guenstigster Stueckpreis")) \
            if low else rng.choice(("höchster Stückpreis", "hoechster Einzelpreis", "teuerster Stückpreis"))
        yield (f"{word} {p.product_code} {c} im {h}. HJ {y}",
               f"{'lowest' if low else 'highest'} unit price {p.product_code} {c} in H{h} {y}",
               (dt.date(y, 6 * h - 5, 1), _next_month(y, 6 * h)))


def _units(rng: random.Random) -> Iterator[Case]:
    products = [p for p in TENANT_42.products if p.product_code in ("PRD-482", "PRD-483", "PRD-491", "PRD-530")]
    for _ in range(_N):
        p, c, q, y = rng.choice(products), rng.choice(_COMPANIES), rng.randrange(1, 5), 2025
        word = rng.choice(("Stückzahl", "Stueckzahl", "Anzahl", "Meter"))
        yield f"{word} {p.product_code} {c} Q{q} {y}", f"units of {p.product_code} {c} Q{q} {y}", None


def _elliptic(rng: random.Random) -> Iterator[Case]:
    for _ in range(_N):
        c, s = rng.choice(_COMPANIES), rng.choice(_SUPPLIERS)
        q, y = rng.randrange(1, 5), 2025
        form = rng.choice((f"{s} Q{q} {y}, {c}", f"{c} bei {s} im Q{q} {y}?", f"{c} bei {s} Q{q} {y}",
                           f"{s} im Q{q} {y}, {c}"))
        yield form, f"{c} spend with {s} in Q{q} {y}", (dt.date(y, 3 * q - 2, 1), _next_month(y, 3 * q))


CLASSES: dict[str, Callable[[random.Random], Iterator[Case]]] = {
    "fiscal_year": _fiscal_years, "half": _halves, "month_range": _month_ranges, "day_range": _day_ranges,
    "documents": _documents, "suppliers": _suppliers, "companies": _companies, "net": _net, "share": _shares,
    "status": _statuses, "change": _changes, "unit_price": _unit_prices, "units": _units, "elliptic": _elliptic,
}


def _plan(question: str) -> tuple[Any, ...]:
    result = route(question, _INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.workflow != "unsupported", question
    calls = _calls(result) or [(s.tool, dict(s.arguments), []) for s in result.execution_plan]
    return tuple((m, sorted((k, str(v)) for k, v in p.items()), g) for m, p, g in calls)


def _period(question: str) -> tuple[str, str] | None:
    result = route(question, _INPUTS)
    for _, params, _ in _calls(result):
        if "start_date" in params:
            return str(params["start_date"]), str(params["end_date"])
    for step in result.execution_plan:
        args = dict(step.arguments)
        if "start_date" in args:
            return str(args["start_date"]), str(args["end_date"])
    return None


@pytest.mark.parametrize("klass", sorted(CLASSES))
def test_shorthand_is_planned_as_its_english_meaning(klass: str) -> None:
    wrong = []
    for german, english, period in CLASSES[klass](random.Random(f"{klass}-3")):
        try:
            got, want = _plan(german), _plan(english)
        except AssertionError as exc:
            wrong.append((german, str(exc)[:200]))
            continue
        if got != want:
            wrong.append((german, read_german(german), got, want))
        elif period is not None and _period(german) != (period[0].isoformat(), period[1].isoformat()):
            wrong.append((german, _period(german), period))
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("fragment", [
    "Company B Rechnungen Q1 2026", "Company B approved vendors Q1 2026", "Company A Lief. Q1 2026",
    "Company A Vertrag Zahlungsziel", "Company A PRD-482 Stückpreis Q1 2026", "Company B offene Posten",
    "Company A which suppliers Q1 2026",
])
def test_a_fragment_asking_for_something_else_is_never_read_as_spend(fragment: str) -> None:
    assert elliptic_spend(read_german(fragment) or fragment) is None


def test_an_unknown_word_in_a_fragment_is_still_named_back() -> None:
    result = route("Company B bei Xyzzy im Q1 2026", _INPUTS)
    assert result.requires_clarification
    assert "Xyzzy" in (result.clarification_question or "")


@pytest.mark.parametrize("form", ["excluding VAT", "net of VAT", "excl. VAT", "without VAT", "before VAT"])
def test_vat_named_as_vat_is_the_net_spend(form: str) -> None:
    for c, q in (("Company A", 1), ("Company C", 4)):
        assert _plan(f"{c} spend Q{q} 2025 {form}") == _plan(f"{c} net spend Q{q} 2025")


@pytest.mark.parametrize(("question", "parts"), [
    ("Company B Q1 2026: Gesamtausgaben und Anzahl Rechnungen?", 2),
    ("Company A Q4 2025: Ausgaben und Anzahl Gutschriften", 2),
    ("Company C 2025: Anzahl Rechnungen und Gesamtausgaben", 2),
])
def test_a_german_second_measure_after_und_is_an_ask_of_its_own(question: str, parts: int) -> None:
    from router.compound import split_asks
    from router.reader import read

    def read_part(text: str) -> Any:
        return read(read_german(text) or text, GAZETTEER, AS_OF, CATALOG)

    assert len(split_asks(question, read_part)) == parts


@pytest.mark.parametrize(("german", "english"), [
    ("Company B Gutschriften Anzahl Q1 2026", "number of credit notes of Company B in Q1 2026"),
    ("Company A Rg. Anzahl Q4 2025", "number of invoices of Company A in Q4 2025"),
    ("Gutschriften Company C 2. Halbjahr 2025 – Anzahl?", "number of credit notes of Company C in H2 2025"),
])
def test_a_count_named_after_what_is_counted_is_the_count(german: str, english: str) -> None:
    assert _plan(german) == _plan(english)


@pytest.mark.parametrize(("german", "english"), [
    ("Company A Ausgaben lfd. GJ", "Company A spend year to date"),
    ("Company B Beta letztes GJ", "Company B spend with Beta last year"),
    ("Ausgaben Company C vorheriges Geschaeftsjahr", "Company C spend last year"),
    ("Company A Zeta letztes HJ", "Company A spend with Zeta last half-year"),
    ("Company B Ausgaben im vergangenen Halbjahr", "Company B spend last half-year"),
])
def test_a_fiscal_year_or_half_without_a_number_is_the_relative_period(german: str, english: str) -> None:
    assert _plan(german) == _plan(english)


@pytest.mark.parametrize("part", ["what share of it was sensors?", "and how much of that was Beta?",
                                  "their share in Q1 2026?", "wie viel davon ging an Beta?"])
def test_a_part_that_refers_back_is_never_read_as_plain_spend(part: str) -> None:
    assert elliptic_spend(read_german(part) or part) is None


@pytest.mark.parametrize(("question", "period"), [
    ("company b Ausgaben zwischen 7. und 22. Oktober 2025", ("2025-10-07", "2025-10-23")),
    ("company a Ausgaben vom 6. bis 23. Oktober 2025", ("2025-10-06", "2025-10-24")),
    ("Company C spend between 7th and 22nd Oktober 2025", ("2025-10-07", "2025-10-23"))])
def test_a_day_range_keeps_its_first_day_when_the_month_is_foreign(question: str, period: tuple[str, str]) -> None:
    # a German month after a dotted day was written out alone ("22. October 2025"), leaving "7." unread: the range
    # was planned as its last day only, a silent one-day figure
    assert _period(question) == period
