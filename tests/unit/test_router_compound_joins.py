"""Two measures joined in one question (" + ", " and ", " & ", " AND ", German " und "), routed in memory (no
database; the governed metrics' definitions come from the schema snapshot).

Class (issue 20, compound parts): "top 2 suppliers comp B 2025 + total 2025 spend for comp B", "spend w/ approved
vendors AND list of invoices over 16,5k": each measure is a part of its own, answered by its own governed call
(ranking, total, listing above an amount, invoice count, currency rows), never one part answered and the other
dropped silently. Slots vary over the join word, the pair of measures (in both orders), companies, periods and
amounts; a seeded bounded sample, each part compared with the governed call it means.
"""

from __future__ import annotations

import random

import pytest

from router.contract import RoutingResult
from tests.unit.test_router_company_sets import _route

SEED = 6060
JOINS = (" + ", " and ", " & ", " AND ", " and also ")
COMPANIES = ("Company A", "Company B", "comp B", "COMP-A")
PERIODS = ("in Q1 2026", "in 2025", "in H2 2025", "in March 2026")
AMOUNTS = ("16,5k", "20.000 EUR", "EUR 10,000", "25k")
#: measure -> (question text, the governed call that answers it)
MEASURES: dict[str, tuple[str, str]] = {
    "ranking": ("top {n} suppliers {c} {p}", "finance.spend_ranking"),
    "total": ("total spend for {c} {p}", "finance.company_spend"),
    "listing": ("list of invoices over {a}", "finance.invoices_above_threshold"),
    "count": ("number of invoices", "finance.invoice_count"),
}
#: pairs whose second part takes the company and period of the first (it names none)
PAIRS = (("ranking", "total"), ("total", "listing"), ("ranking", "listing"), ("total", "count"),
         ("listing", "total"))


def _called(result: RoutingResult) -> set[str]:
    out = set()
    for step in result.execution_plan:
        out.add(step.tool)
        if step.tool == "metrics.query":
            out.add(str(step.arguments.get("metric")))
    return out


def _cases() -> list[tuple[str, str, str]]:
    rng = random.Random(SEED)
    out = []
    for first, second in PAIRS:
        for join in JOINS:
            c, p, a, n = rng.choice(COMPANIES), rng.choice(PERIODS), rng.choice(AMOUNTS), rng.choice((2, 3, 5))
            left = MEASURES[first][0].format(c=c, p=p, a=a, n=n)
            right = MEASURES[second][0].format(c=c, p=p, a=a, n=n)
            if "{c}" not in MEASURES[first][0]:
                left = f"{c} {p}: {left}"
            out.append((left + join + right, first, second))
    return out


@pytest.mark.parametrize(("question", "first", "second"), _cases())
def test_each_joined_measure_is_a_part_of_its_own(question: str, first: str, second: str) -> None:
    results = _route(question, "letters")
    assert len(results) == 2, (question, [r.workflow for r in results])
    for result, measure in zip(results, (first, second), strict=True):
        assert not result.requires_clarification, (question, measure, result.clarification_question)
        assert MEASURES[measure][1] in _called(result), (question, measure, _called(result))
