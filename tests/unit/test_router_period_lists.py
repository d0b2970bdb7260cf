"""Adjacent periods named as a list (no database): the union with its parts, each part planned beside the union.

"Kestrel: spend H2 2025 and Q1 2026" reads two ways (the total over both, or each one's figure); a spend answer
gives the union and every part, and "together" / "combined" asks for the union alone. Varied over grains (months,
quarters, halves, mixed), the year written once or on each part, companies, suppliers and frames.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.contract import Constraints, RoutingResult
from router.periods import ListedPeriods, resolve_period
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_compound import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
#: (phrase, parts as (start, end exclusive)).
LISTS = (
    ("H2 2025 and Q1 2026", (("2025-07-01", "2026-01-01"), ("2026-01-01", "2026-04-01"))),
    ("Q4 2025 and Q1 2026", (("2025-10-01", "2026-01-01"), ("2026-01-01", "2026-04-01"))),
    ("Q1 and Q2 2025", (("2025-01-01", "2025-04-01"), ("2025-04-01", "2025-07-01"))),
    ("Jan and Feb 2026", (("2026-01-01", "2026-02-01"), ("2026-02-01", "2026-03-01"))),
    ("January, February and March 2026", (("2026-01-01", "2026-02-01"), ("2026-02-01", "2026-03-01"),
                                          ("2026-03-01", "2026-04-01"))),
    ("Dec 2025 and Jan 2026", (("2025-12-01", "2026-01-01"), ("2026-01-01", "2026-02-01"))),
    ("H1 and H2 2025", (("2025-01-01", "2025-07-01"), ("2025-07-01", "2026-01-01"))),
)
FRAMES = ("{c}: spend{x} {p}", "What did {c} spend{x} in {p}?", "{c}'s spend{x} for {p}")
SUPPLIERS = (("", None), (" with Supplier Beta", "SUP-18"), (" with Gamma", "SUP-27"))


def _dates(parts: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    return [(parts[0][0], parts[-1][1]), *parts]


@pytest.mark.parametrize(("phrase", "parts"), LISTS)
def test_list_reads_as_union_with_parts(phrase: str, parts: tuple[tuple[str, str], ...]) -> None:
    period = resolve_period(f"spend {phrase}", AS_OF).time_range
    assert isinstance(period, ListedPeriods), phrase
    assert (period.start.isoformat(), period.end.isoformat()) == (parts[0][0], parts[-1][1])
    assert [(p.start.isoformat(), p.end.isoformat()) for p in period.parts] == list(parts)


@pytest.mark.parametrize("word", ["together", "combined", "in total"])
@pytest.mark.parametrize(("phrase", "parts"), LISTS[:4])
def test_together_asks_for_the_union_alone(phrase: str, parts: tuple[tuple[str, str], ...], word: str) -> None:
    period = resolve_period(f"spend {phrase} {word}", AS_OF).time_range
    assert period is not None and not isinstance(period, ListedPeriods), (phrase, word)
    assert (period.start.isoformat(), period.end.isoformat()) == (parts[0][0], parts[-1][1])


def test_single_period_and_serialized_union_carry_no_parts() -> None:
    assert not isinstance(resolve_period("spend in Q1 2026", AS_OF).time_range, ListedPeriods)
    period = resolve_period("spend Q4 2025 and Q1 2026", AS_OF).time_range
    assert isinstance(period, ListedPeriods)
    # in the contract (a field typed TimeRange) the union serializes as a plain period
    dumped = Constraints(time_range=period).model_dump(mode="json")["time_range"]
    assert dumped == {"start": "2025-10-01", "end": "2026-04-01", "label": "2025-Q4 + 2026-Q1",
                      "source_text": "Q4 2025 and Q1 2026"}


def _spend_steps(result: RoutingResult) -> list[tuple[str, str, tuple[str, ...] | None]]:
    return [(str(s.arguments["parameters"]["start_date"]), str(s.arguments["parameters"]["end_date"]),
             tuple(s.arguments["parameters"].get("supplier_ids") or ()) or None)
            for s in result.execution_plan if s.tool == "metrics.query"]


@pytest.mark.parametrize(("frame", "company", "supplier", "listed"), [
    (f, c, s, lst) for (f, c), s, lst in zip(itertools.product(FRAMES, ("Company A", "company b")),
                                             itertools.cycle(SUPPLIERS), itertools.cycle(LISTS))])
def test_spend_over_a_list_plans_the_union_and_every_part(
        frame: str, company: str, supplier: tuple[str, str | None],
        listed: tuple[str, tuple[tuple[str, str], ...]]) -> None:
    words, supplier_id = supplier
    phrase, parts = listed
    result = route(frame.format(c=company, x=words, p=phrase), INPUTS)
    assert not result.requires_clarification, result.clarification_question
    steps = _spend_steps(result)
    assert [(a, b) for a, b, _ in steps] == _dates(parts)
    assert all(s == ((supplier_id,) if supplier_id else None) for _, _, s in steps)
    assert any(h.startswith("period_list:parts:") for h in result.rule_hits)


@pytest.mark.parametrize("question", ["Company A spend Q4 2025 and Q1 2026 combined",
                                      "Company A spend by supplier in Q4 2025 and Q1 2026",
                                      "Company A spend per month in Jan and Feb 2026"])
def test_union_only_when_asked_together_or_broken_down(question: str) -> None:
    result = route(question, INPUTS)
    assert not any(h.startswith("period_list:parts:") for h in result.rule_hits), question
    assert len(_spend_steps(result)) <= 1 or result.requires_clarification


def test_as_of_is_the_fixture_date() -> None:
    assert dt.date(2026, 1, 1) < AS_OF  # every listed part above has started by the as-of date


@pytest.mark.parametrize("question", [
    "How much did Company A spend in H2 2025 and Q1 2026 on invoices of at least 5000 EUR?",
    "Company A spend in Q4 2025 and Q1 2026 on invoices below 1,000 EUR",
    "Company A open invoices total H2 2025 and Q1 2026",
    "Company A paid invoices spend Q4 2025 and Q1 2026"])
def test_a_list_with_an_amount_bound_or_a_status_keeps_the_unions_own_path(question: str) -> None:
    # the per-part steps carry no amount bound and no open-invoices reading: never planned in their place
    result = route(question, INPUTS)
    assert not any(h.startswith("period_list:parts:") for h in result.rule_hits), question


@pytest.mark.parametrize("question", [
    "Did any company spend more than 100000 EUR with Gamma in Q1 2026?",
    "Has any of our companies spent over EUR 50k with Supplier Beta in 2025?",
    "Did any entity exceed 20000 EUR with Delta in Q4 2025?"])
def test_any_company_as_the_subject_of_a_figure_is_never_the_companies_total(question: str) -> None:
    result = route(question, INPUTS)
    assert not any(h.startswith("all_companies:") for h in result.rule_hits), (question, result.rule_hits)
    totals = [s for s in result.execution_plan if "company_spend" in str(s.arguments.get("metric", s.tool))]
    assert not any(not (s.arguments.get("parameters") or s.arguments).get("company_id") for s in totals), question


@pytest.mark.parametrize("question", ["Total of Company A's Q1 2026 invoices paid as at 15 May 2026",
                                      "Company A: invoices paid as of 15 May 2026 in Q1 2026, total",
                                      "Total of Company B's Q4 2025 invoices paid as at 31.03.2026"])
def test_invoices_paid_as_at_a_day_are_the_paid_ones(question: str) -> None:
    result = route(question, INPUTS)
    steps = [dict(s.arguments.get("parameters") or s.arguments) for s in result.execution_plan
             if "invoice_statuses" in (s.arguments.get("parameters") or s.arguments)]
    assert steps and all(s["invoice_statuses"] == ["paid"] for s in steps), (
        question, steps, result.clarification_question)
