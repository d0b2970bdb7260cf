"""Scope classes of ``evaluation/probes_scope.py``, routed in memory (no database).

Company names with one-edit typos, grains over open ranges ("per quarter since Q3 2025"), compound asks (two
measures over one scope, parts with their own periods, "which invoices are they?" after a status-filtered amount),
partitive rankings ("of the suppliers X bought from in P, which two had the lowest spend") and rankings of
product-group levels. Every generated question is split as the service splits it, each part routed, and the
governed call of each part compared with the call the slot values mean; a question that must be asked about is a
clarification naming the unknown span. A bounded, seeded sample of the generator's questions (training seed).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from evaluation.constraint_probes import Call
from evaluation.probes_clarify import SUPPLIERS as SPELLINGS
from evaluation.probes_scope import FRAMES, Probe, probes, typo, typo_name
from router.compound import split_asks
from router.contract import Ref, RoutingResult
from router.entities import Company, Gazetteer, edit_distance, find_mentions
from router.german import read_german
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS

SEED = 5
PER_CLASS = 25
COMPANIES = [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
             Company("COMP-C", "Company C", "EUR")]
GAZETTEER = Gazetteer.build(
    COMPANIES,
    [(sid, s["name"][0]) for sid, s in SPELLINGS.items()],
    [(alias, sid) for sid, s in SPELLINGS.items() for kind in ("alias", "short", "no_legal") for alias in s[kind]],
    GROUPS,
)
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
#: Filters a plan may carry only when the probe's call names them.
FILTERS = ("supplier_ids", "product_group_ids", "product_codes", "exclude_supplier_ids", "exclude_product_group_ids",
           "threshold")
PROBES = probes(SEED, PER_CLASS)


def _read(text: str) -> Any:
    return read(read_german(text) or text, GAZETTEER, AS_OF)


def _calls(result: RoutingResult) -> list[tuple[str, dict[str, Any], list[str], str | None]]:
    """The governed calls of a plan: (metric or tool, parameters with references resolved, group_by, grain)."""
    resolved: dict[tuple[str, str], Any] = {}
    for step in result.execution_plan:
        if step.tool == "entity.resolve_company":
            company = GAZETTEER.company(step.arguments["company_id"])
            resolved[(step.step_id, "company_id")] = step.arguments["company_id"]
            resolved[(step.step_id, "reporting_currency")] = company.reporting_currency if company else None
    out = []
    for step in result.execution_plan:
        args = dict(step.arguments)
        if step.tool == "metrics.query":
            out.append((args["metric"], dict(args["parameters"]), list(args.get("group_by") or []),
                        args.get("grain")))
        elif step.tool.startswith("finance.") or step.tool == "graph.find_approved_vendors":
            params = {k: (resolved.get((v.ref, v.field)) if isinstance(v, Ref) else v) for k, v in args.items()
                      if k not in ("group_by", "grain")}
            out.append((step.tool, params, list(args.get("group_by") or []), args.get("grain")))
    return out


def _same(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, list):
        return sorted(map(str, value or [])) == sorted(map(str, wanted))
    return str(value) == str(wanted)


def _matches(call: Call, got: tuple[str, dict[str, Any], list[str], str | None]) -> bool:
    metric, params, group_by, grain = got
    if metric != call.metric or list(call.group_by) != group_by or call.grain != grain:
        return False
    if any(not _same(params.get(k), v) for k, v in call.parameters.items()):
        return False
    statuses = params.get("invoice_statuses")
    if "invoice_statuses" not in call.parameters and statuses not in (None, ["posted", "paid"]):
        return False
    return not any(params.get(k) not in (None, [], ()) for k in FILTERS if k not in call.parameters)


def _answer(probe: Probe) -> list[RoutingResult]:
    """The routing of each part, split as :meth:`router.service.RouterService.ask` splits the question."""
    parts = split_asks(probe.question, _read)
    return [route(p.question, INPUTS) for p in parts] if parts else [route(probe.question, INPUTS)]


@pytest.mark.parametrize("probe", PROBES, ids=lambda p: f"{p.klass}:{p.question[:60]}")
def test_each_part_is_the_governed_call_of_its_slots(probe: Probe) -> None:
    results = _answer(probe)
    if not probe.calls:
        text = " ".join(r.clarification_question or "" for r in results).lower()
        assert any(r.requires_clarification for r in results), (probe.question, [_calls(r) for r in results])
        assert any(w.lower() in text for w in probe.about), (probe.question, text)
        return
    for r in results:
        assert not r.requires_clarification, (probe.question, r.clarification_question)
    compound = probe.klass in ("two_measures", "two_periods", "anaphora")
    assert len(results) == (2 if compound else 1), (probe.question, [_calls(r) for r in results])
    parts = [_calls(r) for r in results]
    for call in probe.calls:  # the parts in any order ("number of invoices and total spend")
        assert any(_matches(call, g) for got in parts for g in got), (probe.question, call, parts)


def test_every_class_is_sampled() -> None:
    assert {p.klass for p in PROBES} == set(FRAMES)


# --- company typos: one edit resolves, an edit between two names asks -------------------------------------------
@pytest.mark.parametrize("i", range(40))
def test_one_edit_of_a_company_word_resolves_to_that_company(i: int) -> None:
    rng = random.Random(SEED * 1000 + i)
    company = rng.choice(COMPANIES)
    typed = typo_name(company.company_name, rng)
    assert edit_distance(typed.lower(), company.company_name.lower(), 1) == 1
    mentions = find_mentions(f"{typed} spend in Q1 2026", GAZETTEER).companies
    assert [m.candidates for m in mentions] == [(company.company_id,)], (typed, mentions)


def test_a_typo_between_two_company_names_lists_both() -> None:
    gazetteer = Gazetteer.build([Company("COMP-N", "Nordwerk Holding AG", "EUR"),
                                 Company("COMP-M", "Nordwerf Holding AG", "EUR")], [], [], GROUPS)
    result = route("Nordwerx Holding spend in Q1 2026", RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer,
                                                                      metrics=METRICS))
    text = result.clarification_question or ""
    assert result.requires_clarification and "Nordwerk Holding AG" in text and "Nordwerf Holding AG" in text, text


def test_a_supplier_name_is_never_read_as_a_company_typo() -> None:
    # every exact supplier spelling stays the supplier's, even one edit from a company's name
    for sid, spellings in SPELLINGS.items():
        for kind in ("name", "alias", "short"):
            for spelling in spellings[kind]:
                mentions = find_mentions(f"Company A spend with {spelling} in Q1 2026", GAZETTEER)
                assert [m.candidates for m in mentions.companies] == [("COMP-A",)], spelling
                assert any(sid in m.candidates for m in mentions.suppliers), (spelling, mentions.suppliers)


def test_short_words_are_never_typos() -> None:
    rng = random.Random(SEED)
    for _ in range(30):
        word = typo("Company", rng)
        assert word.lower() != "company" and edit_distance(word.lower(), "company", 1) == 1


def _ranges(question: str) -> Mapping[str, str]:
    tr = _read(question).period.time_range
    assert tr is not None, question
    return {"start": tr.start.isoformat(), "end": tr.end.isoformat()}


@pytest.mark.parametrize(("phrase", "start"), [("since Q3 2025", "2025-07-01"), ("from H1 2025 onwards", "2025-01-01"),
                                               ("starting Q4 2025", "2025-10-01"), ("since 2025", "2025-01-01")])
def test_an_open_range_runs_to_the_as_of_date(phrase: str, start: str) -> None:
    assert _ranges(f"Company A spend {phrase}") == {"start": start, "end": "2026-05-16"}


@pytest.mark.parametrize("phrase", ["from Q3 2025", "in Q3 2025", "for Q3 2025"])
def test_a_period_alone_is_not_opened(phrase: str) -> None:
    assert _ranges(f"Company A spend {phrase}") == {"start": "2025-07-01", "end": "2025-10-01"}


def test_from_one_period_to_another_stays_a_question_or_a_change() -> None:
    # "from Q4 2025 to Q1 2026" may be a change between them: never silently a range
    assert _read("Company A spend from 2025 to Q1 2026").period.time_range is None
