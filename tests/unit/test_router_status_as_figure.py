"""A status standing for the amount ("Company A unpaid Q1 2026") is the total in that status (no database)."""

from __future__ import annotations

import pytest

from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS


def _plan(question: str) -> tuple[str, ...]:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    return tuple(s.tool for s in routing.execution_plan)


@pytest.mark.parametrize("question", ["company a unpaid q1 2026", "Company A outstanding with Beta in March 2026",
                                      "company a outstanding amount 2025"])
def test_a_status_alone_is_the_figure(question: str) -> None:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    tools = {s.tool for s in routing.execution_plan}
    assert tools & {"finance.company_spend", "finance.aggregate_spend"}, tools
    assert list(routing.constraints.invoice_status) == ["posted"]


def test_a_document_question_stays_one() -> None:
    plan = _plan("what are the outstanding obligations in agreement-2025-09")
    assert not {"finance.company_spend", "finance.aggregate_spend"} & set(plan)
