"""Questions phrased in German are read like their English counterparts (the same plan, names untouched).

Metamorphic: each German phrasing is generated from slots (company, supplier, group, period, feature) next to
an English phrasing of the same slots; both must route to the same workflow and the same plan arguments.
"""

from __future__ import annotations

import itertools

import pytest

from router.german import read_german
from tests.unit.test_router_routing import routed

#: (German, English) period phrasings of the same half-open range.
PERIODS = [
    ("im 1. Quartal 2026", "in Q1 2026"),
    ("im ersten Quartal 2026", "in Q1 2026"),
    ("im letzten Quartal", "last quarter"),
    ("im Geschäftsjahr 2025", "in FY2025"),
    ("im 2. Halbjahr 2025", "in H2 2025"),
    ("im März 2026", "in March 2026"),
    ("2025", "in 2025"),
    # German "bis" includes its day, as English "until" does
    ("vom 01.02.2026 bis 15.03.2026", "since 2026-02-01 until 2026-03-15"),
]
#: (German, English) question frames; {c} company, {s} supplier, {g} group, {p} period.
FRAMES = [
    ("Ausgaben von {c} {p}", "{c} spend {p}"),
    ("Wie viel hat {c} {p} ausgegeben?", "How much did {c} spend {p}?"),
    ("Ausgaben von {c} für {g} {p}", "{c} spend on {g} {p}"),
    ("Ausgaben von {c} bei {s} {p}", "{c} spend with {s} {p}"),
    ("Ausgaben von {c} {p} nach Monat", "{c} spend {p} by month"),
    ("Ausgaben von {c} {p} nach Lieferant", "{c} spend {p} by supplier"),
    ("Top 5 Lieferanten von {c} {p}", "Top 5 suppliers of {c} {p}"),
    ("Ausgaben von {c} ohne {s} {p}", "{c} spend excluding {s} {p}"),
]
SLOTS = {"c": "Company A", "s": "Supplier Beta", "g": "Monitoring Products"}


def _plan(question: str) -> tuple[str, list[tuple[str, dict[str, object]]]]:
    result = routed(question)
    return result.workflow, [(s.tool, s.arguments) for s in result.execution_plan]


@pytest.mark.parametrize(("frame", "period"), list(itertools.product(FRAMES, PERIODS)),
                         ids=lambda v: v[1] if isinstance(v, tuple) else str(v))
def test_a_german_question_routes_as_its_english_twin(frame: tuple[str, str], period: tuple[str, str]) -> None:
    german = frame[0].format(**SLOTS, p=period[0])
    english = frame[1].format(**SLOTS, p=period[1])
    assert _plan(german) == _plan(english), (german, read_german(german), english)


def test_the_answer_states_the_german_reading() -> None:
    result = routed("Ausgaben von Company A für Monitoring Products im 1. Quartal 2026")
    assert "German phrasing read as 'spend of Company A on Monitoring Products in Q1 2026'" in result.interpretation


@pytest.mark.parametrize("question", [
    "Company A spend on Monitoring Products in Q1 2026",
    "Top 5 suppliers of Company A last quarter?",
    "Spend with Supplier Beta in March 2026 by month",
])
def test_english_questions_pass_unchanged(question: str) -> None:
    assert read_german(question) is None


def test_names_are_never_rewritten() -> None:
    """An unknown German word reaches the reader as typed, and is named back."""
    result = routed("Ausgaben von Company A für Hydraulikpumpen im 1. Quartal 2026")
    assert result.requires_clarification
    assert "Hydraulikpumpen" in (result.clarification_question or "")


#: (German, English) frames of the month-end vocabulary: invoice lists, monthly totals, units, the booked amount
#: and what was bought with the verb last; each crossed with a few periods.
CLOSE_FRAMES = [
    ("Rechnungsnummern {c}, {p}?", "List invoices {c}, {p}?"),
    ("Rechnungsliste {c}, Lieferant {s}, {p}", "List invoices {c}, from {s}, {p}"),
    ("{c} Monatssummen {p}?", "{c} spend by month {p}?"),
    ("Monatliche Aufstellung {c} {p}", "{c} spend by month {p}"),
    ("Wie viele Stück hat {c} {p} von {s} bezogen?", "How many units did {c} buy from {s} {p}?"),
    ("Stückzahl {s} an {c} {p}?", "units {s} to {c} {p}?"),
    ("{s}, {c}, {p}: wie hoch ist der gebuchte Betrag?", "{s}, {c}, {p}: how much is the spend?"),
    ("Bei welchen Lieferanten hat {c} {p} eingekauft?", "Which suppliers did {c} buy from {p}?"),
]


@pytest.mark.parametrize(("frame", "period"), list(itertools.product(CLOSE_FRAMES, PERIODS[:2] + PERIODS[4:6])),
                         ids=lambda v: v[1] if isinstance(v, tuple) else str(v))
def test_month_end_german_routes_as_its_english_twin(frame: tuple[str, str], period: tuple[str, str]) -> None:
    german = frame[0].format(**SLOTS, p=period[0])
    english = frame[1].format(**SLOTS, p=period[1])
    assert _plan(german) == _plan(english), (german, read_german(german), english)
    assert not routed(german).requires_clarification, (german, read_german(german))
