"""Scope probes (evaluation/probes_exclusion_scope.py) through the router with the unit vocabulary: exclusions of
companies and subgroups, shares, unknown noun phrases and their mixes read as the governed request the slots mean,
or as a clarification naming the unknown span (no database; seeded and bounded)."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.probes_exclusion_scope import Probe, Vocabulary, probes
from router.entities import Company, Gazetteer
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, GROUPS, METRICS, PERIODS, SHORT, SUPPLIERS

PER_CLASS = 40


def _vocabulary(companies: dict[str, tuple[str, ...]]) -> Vocabulary:
    return Vocabulary(
        companies=companies,
        suppliers={sid: (name, *aliases, SHORT[sid]) for sid, (name, aliases) in SUPPLIERS.items()},
        groups={g.product_group_id: (g.group_name, g.parent_group_id) for g in GROUPS},
        periods=PERIODS)


TWO = _vocabulary({"COMP-A": ("Company A", "company a", "COMPANY A"), "COMP-B": ("Company B", "company b")})
THREE = _vocabulary({"COMP-A": ("Company A", "company a"), "COMP-B": ("Company B",), "COMP-C": ("Company C",)})
GAZETTEER_THREE = Gazetteer.build(
    [*GAZETTEER.companies, Company("COMP-C", "Company C", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    GROUPS,
)


def _filters(routing: Any) -> tuple[str | None, dict[str, Any]]:
    """The governed call's metric and parameters, whichever plan shape carries them."""
    metric: str | None = None
    found: dict[str, Any] = {}
    for step in routing.execution_plan:
        args = dict(step.arguments)
        if step.tool == "entity.resolve_company":
            found.setdefault("company_id", args.get("company_id"))
        elif step.tool == "catalog.find_products":
            found.setdefault("supplier_ids", args.get("supplier_ids"))
        elif step.tool == "metrics.query":
            metric = metric or args["metric"]
            found.update({k: v for k, v in args["parameters"].items() if k not in found or isinstance(v, list)})
        elif step.tool.startswith("finance."):
            metric = metric or step.tool
            found.update({k: v for k, v in args.items() if not hasattr(v, "ref")})
    return metric, found


def _check(probe: Probe, gazetteer: Gazetteer) -> str | None:
    routing = route(probe.question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS))
    expect = probe.expect
    if expect.kind == "clarify":
        text = routing.clarification_question or ""
        if not routing.requires_clarification or (expect.span or "").lower() not in text.lower():
            return f"expected a clarification naming {expect.span!r}, got {text or routing.execution_plan}"
        return None
    if routing.requires_clarification:
        return f"false clarification: {routing.clarification_question}"
    metric, found = _filters(routing)
    if expect.metric and metric != expect.metric:
        return f"metric {metric} != {expect.metric}"
    for key, value in expect.params.items():
        got = found.get(key)
        if isinstance(value, list) and isinstance(got, list | tuple):
            if sorted(got) != sorted(value):
                return f"{key}: {sorted(got)} != {sorted(value)}"
        elif got != value:
            return f"{key}: {got!r} != {value!r}"
    return None


@pytest.mark.parametrize(("vocab", "gazetteer"), [(TWO, GAZETTEER), (THREE, GAZETTEER_THREE)], ids=["two", "three"])
def test_scope_probes_read_every_slot(vocab: Vocabulary, gazetteer: Gazetteer) -> None:
    wrong = [(p.klass, p.question, problem) for p in probes(1, PER_CLASS, vocab)
             if (problem := _check(p, gazetteer)) is not None]
    assert not wrong, "\n".join(map(str, wrong[:25])) + f"\n({len(wrong)} wrong)"



@pytest.mark.parametrize("question", [
    "Company A spend at Beta dropped from Q4 2025 to Q1 2026 - by how many EUR?",
    "Company A spend with Gamma dropped by 2,000 EUR from Q4 2025 to Q1 2026?",
    "Company A spend dropped from Q4 2025 to Q1 2026 - by how much?",
])
def test_a_change_verb_after_a_name_excludes_nothing(question: str) -> None:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    _, found = _filters(routing)
    assert not routing.requires_clarification, routing.clarification_question
    assert "exclude_supplier_ids" not in found and found.get("company_id") == "COMP-A", found
