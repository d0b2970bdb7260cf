"""An unknown name after a kind noun or joined to a known name is asked about, never dropped (no database)."""

from __future__ import annotations

import pytest

from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS


def _route(question: str):  # type: ignore[no-untyped-def]
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


@pytest.mark.parametrize(("question", "unknown"), [
    ("company a spend with supplier kappa q1 2026", "kappa"),
    ("company a spend with the vendor omega in 2025", "omega"),
    ("company a spend with gamma controls and omega 2025", "omega"),
    ("company a spend with Beta & omega in 2025", "omega"),
])
def test_the_unknown_name_is_named(question: str, unknown: str) -> None:
    routing = _route(question)
    assert routing.requires_clarification and not routing.execution_plan, routing.execution_plan
    assert unknown in (routing.clarification_question or ""), routing.clarification_question


@pytest.mark.parametrize("question", [
    "company a spend with beta and gamma in 2025",
    "company a spend with the suppliers in 2025",
    "company a spend with Beta and in Q1 2026",
    "Company A spend with Supplier Beta in 2025, paid only",
])
def test_known_names_and_kind_words_are_no_unknown_name(question: str) -> None:
    assert "I do not know" not in (_route(question).clarification_question or "")


@pytest.mark.parametrize("question", [
    "company a spend with gamma in 2025 and which warranty applies",
    "company a spend on sensors in 2025 and the warranty period for prd-482",
    "spend with beta and also the payment terms, company a, q1 2026",
])
def test_the_next_clause_after_and_is_no_name(question: str) -> None:
    assert "I do not know" not in (_route(question).clarification_question or "")
