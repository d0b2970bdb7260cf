"""Generated questions of ``evaluation/probes_governed.py`` (seeded, bounded), no database: distinct counts,
currency shares, shares across all companies, one invoice currency beside the reporting currency and products
named by their catalogue name become the governed call the generator computes from the slot values; a name several
products share is a clarification listing them."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.probes_governed import Probe, probes
from tests.unit.test_router_threshold_probes import _routed

_PROBES = probes(seed=3, per_class=16)


def _sorted(params: dict[str, Any]) -> dict[str, Any]:
    return {k: sorted(v) if isinstance(v, list) else v for k, v in params.items()}


@pytest.mark.parametrize("probe", _PROBES, ids=lambda p: f"{p.klass}:{p.question[:50]}")
def test_a_generated_question_is_the_governed_call(probe: Probe) -> None:
    result = _routed(probe.question)
    if probe.expect is None:
        assert result.requires_clarification, probe.question
        assert all(code in (result.clarification_question or "") for code in probe.about), result.clarification_question
        return
    assert not result.requires_clarification, (probe.question, result.clarification_question)
    steps = [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"] or [
        {"metric": s.tool, "parameters": dict(s.arguments)} for s in result.execution_plan
        if s.tool.startswith(("finance.", "catalog."))]
    assert steps, (probe.question, [s.tool for s in result.execution_plan])
    step = steps[0]
    assert step["metric"] == probe.expect.metric, (probe.question, step["metric"])
    # the spend workflow takes the company from its resolution step and states the default statuses
    got = {k: result.entities.company_id if k == "company_id" and hasattr(v, "ref") else v
           for k, v in step["parameters"].items()
           if k != "reporting_currency" and not (k == "invoice_statuses" and v == ["posted", "paid"])}
    expected = dict(probe.expect.parameters)
    assert _sorted(got) == _sorted(expected), probe.question


@pytest.mark.parametrize("view", ("in invoice currency", "in original currency", "by currency", "as invoiced"))
@pytest.mark.parametrize("scope", ("Beta at Company A", "Company B", "Company C with Gamma"))
def test_a_currency_view_without_a_measure_word_is_the_spend(scope: str, view: str) -> None:
    result = _routed(f"{scope} Q4 2025 {view}")
    assert not result.requires_clarification, (scope, view, result.clarification_question)
    step = next(dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query")
    assert step["metric"] == "finance.document_currency_spend" and "currency" in step["group_by"], step


@pytest.mark.parametrize("question", ("share of spend by invoice currency at Company C in 2025",
                                      "what share of Company A's spend in Q1 2026 was in each invoice currency?"))
def test_a_currency_share_without_a_currency_asks_which_one(question: str) -> None:
    result = _routed(question)
    assert result.requires_clarification and "Which currency's share" in (result.clarification_question or "")
    assert "supplier" not in (result.clarification_question or "")
