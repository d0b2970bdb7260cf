"""A part of the whole asked in other words is a share, never the part's amount alone (no database)."""

from __future__ import annotations

import pytest

from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS


def _metric(question: str) -> str | None:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    step = next((s for s in routing.execution_plan if s.tool == "metrics.query"), None)
    return step.arguments["metric"] if step else None


@pytest.mark.parametrize(("question", "metric"), [
    ("how big a slice of company a's 2025 spend was sensors", "finance.product_group_share"),
    ("How large a part of Company A's Q1 2026 spend was Pressure Sensors?", "finance.product_group_share"),
    ("how much of company a's 2025 spend was beta", "finance.supplier_share"),
    ("How much of Company A's spending in Q1 2026 was with Gamma?", "finance.supplier_share"),
    ("what slice of company a spend in 2025 went to beta", "finance.supplier_share"),
    # amounts, not parts (the spend workflow's own tool, no analyst metric)
    ("how much did company a spend with beta in 2025", None),
    ("How much of Company A's spend on sensors in 2025?", None),
])
def test_parts_of_the_whole_are_shares(question: str, metric: str | None) -> None:
    assert _metric(question) == metric
