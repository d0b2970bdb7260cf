"""Review 38: a refused comparison across companies runs no base question (router/service.py ``_compared``).

The clarification is built from the reading alone: the question itself is never asked in full first (that traced
an unanswered reading and could raise for a scope the clarification never needs). Seeded refused comparisons (a
threshold or a count after "which company ... most", a side after "than" that names nothing governed) go through
``AskService._compared`` with an ``ask`` that fails if called; the answer is the clarification, its routing stops
at it (no plan), and one trace is stored.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import router.service as service
from router.service import AskService
from tests.unit.test_router_analysis import AS_OF, CTX, METRICS
from tests.unit.test_router_company_compare import GAZETTEER, PERIODS, SPELLINGS, _ask

SEED, N = 3838, 12


class _Store:
    def __init__(self) -> None:
        self.started: list[str] = []
        self.finished: list[str] = []

    def start(self, conn: Any, ctx: Any, recorder: Any, **kw: Any) -> None:
        self.started.append(kw["question"])

    def finish(self, conn: Any, ctx: Any, recorder: Any, **kw: Any) -> None:
        self.finished.append(kw["status"])


class _Service:
    """Only what ``_compared`` reads; ``ask`` must not be called for a refused comparison."""

    classifier = None
    catalog = ()
    metrics = METRICS

    def __init__(self) -> None:
        self.store = _Store()

    def ask(self, *args: Any, **kw: Any) -> Any:
        raise AssertionError(f"a base question was run: {args[2] if len(args) > 2 else kw}")


def _cases() -> list[str]:
    rng = random.Random(SEED)
    out = []
    for _ in range(N):
        p = rng.choice(PERIODS)[0]
        kind = rng.randrange(3)
        if kind == 0:
            out.append(f"which companies spent {rng.choice(('more', 'less'))} than {rng.randint(10, 900)},000 EUR {p}")
        elif kind == 1:
            out.append(f"which company paid the most {rng.choice(('invoices', 'suppliers', 'orders'))} {p}")
        else:
            c = rng.choice(SPELLINGS[rng.choice(sorted(SPELLINGS))])
            out.append(f"how much more did {c} spend than {rng.choice(('planned', 'budget', 'forecast'))} {p}")
    return out


@pytest.mark.parametrize("question", _cases())
def test_refused_comparison_runs_no_base_question(question: str, monkeypatch: pytest.MonkeyPatch) -> None:
    compared = _ask(question)
    assert compared is not None and compared.refused is not None, question
    monkeypatch.setattr(service, "load_gazetteer", lambda conn, ctx: GAZETTEER)
    monkeypatch.setattr(service, "PgTrigramResolver", lambda conn, ctx: None)
    fake = _Service()
    result = AskService._compared(fake, None, CTX, question, compared, AS_OF, "test")  # type: ignore[arg-type]
    assert result.answer.status == "clarification" and compared.refused in result.answer.text
    assert result.routing.requires_clarification and not result.routing.execution_plan
    assert result.routing.workflow == "clarification" and result.steps == []
    assert fake.store.started == [question] and fake.store.finished == ["clarification"]
