"""Measure words varied slot by slot (evaluation/probes_measures.py), routed in memory: every generated question
plans the governed call its slots name, or is a clarification naming the unknown word. Seeded and bounded."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from typing import Any

import pytest

from evaluation.probes_measures import KINDS, MeasureProbe, german_twins, probes, typos
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, ProductGroup
from router.measure_words import MEASURE_WORDS, measure_for, one_edit
from router.read_answer import measure_slot_noun
from router.routing import RouterInputs, route
from semantic.params import base_period
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_reading_metamorphic import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
#: Bounded: every class, 60 questions each, on two seeds (the generator is deterministic per seed).
PROBES = [p for seed in (1, 2) for kind in KINDS for p in probes(seed, 60, (kind,))]


def planned_call(result: RoutingResult) -> tuple[str, Mapping[str, Any]] | None:
    """The governed call the plan makes: (metric, parameters), the company resolved to its id."""
    for step in result.execution_plan:
        if step.tool == "metrics.query":
            return str(step.arguments["metric"]), step.arguments["parameters"]
        if step.tool in ("finance.company_spend", "finance.aggregate_spend"):
            return "finance.company_spend", {**step.arguments, "company_id": result.entities.company_id}
    return None


def _base(params: Mapping[str, Any]) -> tuple[str, str]:
    if params.get("compare_to", "custom") == "custom":
        return str(params["base_start_date"]), str(params["base_end_date"])
    start, end = (base_period(dt.date.fromisoformat(params["start_date"]), dt.date.fromisoformat(params["end_date"]),
                              params["compare_to"]))
    return start.isoformat(), end.isoformat()


def _check(probe: MeasureProbe) -> None:
    result = route(probe.question, INPUTS)
    if not probe.calls and not result.requires_clarification:
        # a word of the language in the measure slot ("ruse", "coke"): read as the default figure and named as read
        # (router/default_measure.py), never dropped
        # (or, a word of no list, the spend of what was read answered PARTIAL naming it: router/read_answer.py)
        # a noun of goods or of a figure there ("outliers", "furniture") is never named only: it is asked
        assert probe.names and (probe.names in result.assumed_measure or (
            probe.names in result.unread and measure_slot_noun((probe.names,)) is None)), \
            (probe.question, result.execution_plan)
        return
    if not probe.calls:
        assert result.requires_clarification, (probe.question, result.execution_plan)
        assert probe.names and probe.names in (result.clarification_question or ""), \
            (probe.question, result.clarification_question)
        return
    assert not result.requires_clarification, (probe.question, result.clarification_question)
    planned = planned_call(result)
    assert planned is not None, (probe.question, result.workflow, result.execution_plan)
    metric, params = planned
    call = probe.calls[0]
    assert metric == call.metric, (probe.question, metric, params)
    for key, value in call.parameters.items():
        if key in ("compare_to", "base_start_date", "base_end_date"):
            continue
        if key == "invoice_statuses" and call.metric == "finance.company_spend":
            continue
        assert params.get(key) == value, (probe.question, key, params.get(key), value)
    if call.metric == "finance.spend_comparison":
        assert _base(params) == _base(call.parameters), (probe.question, params)


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: f"{p.klass}:{p.question[:40]}")
def test_a_generated_question_plans_its_governed_call_or_names_the_unknown_word(probe: MeasureProbe) -> None:
    _check(probe)


@pytest.mark.parametrize("word", ("spend", "spending", "expenses", "expenditure", "purchases"))
def test_every_one_edit_typo_of_a_spend_word_reads_as_spend(word: str) -> None:
    # every typo of "spend" (the word typed most), a seeded sample of the longer words' (hundreds each)
    found = typos(word)
    for typo in found if word == "spend" else random.Random(word).sample(found, 60):
        result = route(f"Company A {typo} in Q1 2026", INPUTS)
        planned = planned_call(result)
        assert planned is not None and planned[0] == "finance.company_spend", (typo, result.clarification_question)
        assert f"read {typo!r} as" in (result.interpretation or ""), (typo, result.interpretation)


def test_a_typo_is_one_edit_and_never_an_english_word_or_a_measure() -> None:
    assert measure_for("spnd") == "spend" and measure_for("expendture") == "expenditure"
    assert measure_for("speed") is None and measure_for("spend") is None and measure_for("xyzzy") is None
    assert all(not one_edit(m, m) for m in MEASURE_WORDS)


def test_a_measure_word_typed_right_is_never_rewritten() -> None:
    result = route("Company A spend in Q1 2026", INPUTS)
    assert "read '" not in (result.interpretation or "")


#: The same tenant with the catalogue's German group synonyms (as the marts carry them).
GERMAN_GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, name in GAZETTEER.supplier_names.items()],
    [(alias, sid) for alias, ids in GAZETTEER.supplier_aliases.items() for sid in ids],
    [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in GAZETTEER.product_groups],
    [("Drucksensoren", "PG-PRES"), ("Temperatursensoren", "PG-TEMP"), ("Schaltschränke", "PG-CAB")],
)
TWINS = german_twins(1, 200, ("Beta", "Supplier Gamma", "Zeta Sensorik"),
                     (("Drucksensoren", "pressure sensors"), ("Temperatursensoren", "Temperature Sensors"),
                      ("Schaltschränke", "control cabinets")))


@pytest.mark.parametrize(("german", "english"), TWINS, ids=lambda q: q[:40])
def test_a_german_question_reads_as_its_english_twin(german: str, english: str) -> None:
    inputs = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GERMAN_GAZETTEER, metrics=METRICS)
    de, en = route(german, inputs), route(english, inputs)
    assert not en.requires_clarification, (english, en.clarification_question)
    assert not de.requires_clarification, (german, de.interpretation, de.clarification_question)
    assert de.workflow == en.workflow and planned_call(de) == planned_call(en), (german, de.interpretation)


# --- period notations analysts type (router/periods.py), every month and year of the slot ------------------------
_MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December")


def _month_range(year: int, first: int, last: int) -> tuple[dt.date, dt.date]:
    end = dt.date(year + (last == 12), last % 12 + 1, 1)
    return dt.date(year, first, 1), end


def _notations() -> list[tuple[str, dt.date, dt.date]]:
    cases = []
    for year in (2024, 2025, 2026):
        for month in range(1, 13):
            name = _MONTH_NAMES[month - 1]
            start, end = _month_range(year, month, month)
            yy = f"{year % 100:02d}"
            cases += [(f"{name} '{yy}", start, end), (f"{name[:3]} '{yy}", start, end),
                      (f"{name[:3]}-{yy}", start, end), (f"{month:02d}/{year}", start, end),
                      (f"{month:02d}/{yy}", start, end), (f"{month}/{year}", start, end)]
            for last in range(month + 1, 13):
                s, e = _month_range(year, month, last)
                cases += [(f"{name} to {_MONTH_NAMES[last - 1]} {year}", s, e),
                          (f"{name[:3]}-{_MONTH_NAMES[last - 1][:3]} '{yy}", s, e),
                          (f"{name[:3]} through {_MONTH_NAMES[last - 1][:3]} '{yy}", s, e)]
    return cases


@pytest.mark.parametrize("frame", ("Company A spend in {p}", "what did Company A spend over {p}?",
                                   "Company A invoices dated {p}"))
def test_every_month_notation_reads_its_month_or_range(frame: str) -> None:
    from router.periods import resolve_period

    for phrase, start, end in _notations():
        found = resolve_period(frame.format(p=phrase), dt.date(2026, 12, 31)).time_range
        assert found is not None and (found.start, found.end) == (start, end), (phrase, found)


@pytest.mark.parametrize("as_of", [dt.date(2026, m, d) for m in range(1, 13) for d in (1, 10, 28)])
def test_so_far_and_full_units_are_read_against_the_as_of_date(as_of: dt.date) -> None:
    from router.periods import resolve_period

    first_of_month = as_of.replace(day=1)
    quarter_start = dt.date(as_of.year, 3 * ((as_of.month - 1) // 3) + 1, 1)
    expected = {
        "this quarter so far": (quarter_start, as_of + dt.timedelta(days=1)),
        "so far this month": (first_of_month, as_of + dt.timedelta(days=1)),
        "this year to date": (dt.date(as_of.year, 1, 1), as_of + dt.timedelta(days=1)),
    }
    for n, word in ((2, "two"), (3, "3"), (6, "six")):
        back = first_of_month.month - 1 - n
        expected[f"the past {word} full months"] = (dt.date(first_of_month.year + back // 12, back % 12 + 1, 1),
                                                     first_of_month)
        back_q = quarter_start.month - 1 - 3 * n
        expected[f"the last {word} complete quarters"] = (
            dt.date(quarter_start.year + back_q // 12, back_q % 12 + 1, 1), quarter_start)
    for phrase, (start, end) in expected.items():
        found = resolve_period(f"Company A spend {phrase}", as_of).time_range
        assert found is not None and (found.start, found.end) == (start, end), (phrase, as_of, found)


@pytest.mark.parametrize("phrase", ["02/2026", "08/25", "12/2025", "3/2026"])
def test_a_month_with_a_slash_after_over_is_a_period_not_an_amount(phrase: str) -> None:
    from router.reading import parse_amounts

    assert parse_amounts(f"what did Company A spend with Beta over {phrase}?") == ()
