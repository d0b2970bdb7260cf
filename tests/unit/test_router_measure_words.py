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
