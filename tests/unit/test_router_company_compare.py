"""Questions across the companies of a tenant (router/company_compare.py), read and routed in memory.

"Which of our companies spent the most <period>", "rank our companies by spend", "who spent more, A or B", "how
much more did A spend than B", "how much more did A spend with X than with Y", "did A's spend go up or down versus
last quarter": seeded frames vary the companies (names, ids, lower case), the suppliers, the periods and the
direction; each base question the comparison is read as is routed, and its governed call compared with the call
the slot values mean (the spend per company of the period, or each side's spend). The composition is checked on
governed figures given directly: the order, ties, the companies named, the difference and its percent.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest

from router.answer import Answer
from router.company_compare import (
    CompanyAsk,
    check_compared,
    company_mentions,
    detect,
    difference,
    implied_base,
    ranked,
)
from router.contract import RoutingResult
from router.entities import Company, Gazetteer
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS

COMPANIES = [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
             Company("COMP-C", "Company C", "EUR")]
SUPPLIERS = {"SUP-18": ("Supplier Beta", "Beta"), "SUP-27": ("Supplier Gamma", "Gamma"),
             "SUP-22": ("Supplier Epsilon", "Epsilon")}
GAZETTEER = Gazetteer.build(COMPANIES, [(sid, names[0]) for sid, names in SUPPLIERS.items()],
                            [(alias, sid) for sid, names in SUPPLIERS.items() for alias in names], GROUPS)
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
SPELLINGS = {"COMP-A": ("Company A", "company a", "COMP-A"), "COMP-B": ("Company B", "company b", "COMP-B"),
             "COMP-C": ("Company C", "company c")}
#: (words, start, end) as of 2026-05-15
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
           ("last quarter", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
           ("last year", "2025-01-01", "2026-01-01"), ("in Q4 2025", "2025-10-01", "2026-01-01"))
RANK_FRAMES = (("which of our companies spent the most {p}", "top"), ("which company spent the least {p}", "bottom"),
               ("rank our companies by spend {p}", "top"), ("which company spent more {p}", "top"),
               ("Which of the three companies spent the most {p}?", "top"),
               ("which company has the lowest spend {p}", "bottom"), ("rank all companies by spend {p}", "top"))
NAMED_FRAMES = ("who spent more {p} {a} or {b}", "which company spent more {p}, {a} or {b}?",
                "who spent less {p}: {a} or {b}")
DIFF_FRAMES = ("how much more did {a} spend than {b} {p}", "How much less did {a} spend than {b} {p}?",
               "how much more did {a} spend than {b} did {p}", "compare {a} and {b} spend {p}",
               "{a} vs {b} spend {p}", "{a} versus {b} spend {p}")
SUPPLIER_FRAMES = ("how much more did {c} spend with {x} than with {y} {p}",
                   "how much more did {c} spend on {x} than on {y} {p}",
                   "how much more did {c} spend with {x} than {y} {p}")
SEED, N = 7, 24


def _ask(question: str) -> CompanyAsk | None:
    reading = read(question, GAZETTEER, AS_OF)
    m = reading.mentions
    companies = company_mentions(reading.text, m.companies, reading.identifiers.company_ids)
    return detect(reading.text, companies, (*m.suppliers, *m.product_groups, *m.products))


def _spend_calls(result: RoutingResult) -> list[tuple[dict[str, Any], list[str]]]:
    return [(dict(s.arguments["parameters"]), list(s.arguments.get("group_by") or [])) for s in result.execution_plan
            if s.tool == "metrics.query" and s.arguments.get("metric") == "finance.company_spend"]


def _company_of(result: RoutingResult) -> str | None:
    return result.entities.company_id


def _ranking_cases() -> list[tuple[str, str, str, str, tuple[str, ...]]]:
    rng = random.Random(SEED)
    out: list[tuple[str, str, str, str, tuple[str, ...]]] = []
    for _ in range(N):
        p, start, end = rng.choice(PERIODS)
        if rng.random() < 0.4:
            a, b = rng.sample(sorted(SPELLINGS), 2)
            frame = rng.choice(NAMED_FRAMES)
            q = frame.format(p=p, a=rng.choice(SPELLINGS[a]), b=rng.choice(SPELLINGS[b]))
            out.append((q, start, end, "bottom" if "less" in frame else "top", (a, b)))
        else:
            frame, direction = rng.choice(RANK_FRAMES)
            out.append((frame.format(p=p), start, end, direction, ()))
    return out


@pytest.mark.parametrize(("question", "start", "end", "direction", "named"), _ranking_cases())
def test_company_ranking_reads_spend_per_company(question: str, start: str, end: str, direction: str,
                                                 named: tuple[str, ...]) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "company_ranking", question
    assert ask.direction == direction and set(ask.named) == set(named)
    result = route(ask.bases[0], INPUTS)
    assert not result.requires_clarification, (ask.bases[0], result.clarification_question)
    calls = _spend_calls(result)
    assert calls, ask.bases[0]
    assert all(p["start_date"] == start and p["end_date"] == end and not p.get("company_id") for p, _ in calls)
    assert any(g == ["company_id"] for _, g in calls), ask.bases[0]


def _difference_cases() -> list[tuple[str, tuple[str, str], tuple[str, str], str, str]]:
    rng = random.Random(SEED + 1)
    out = []
    for _ in range(N):
        p, start, end = rng.choice(PERIODS)
        if rng.random() < 0.5:
            a, b = rng.sample(sorted(SPELLINGS), 2)
            q = rng.choice(DIFF_FRAMES).format(a=rng.choice(SPELLINGS[a]), b=rng.choice(SPELLINGS[b]), p=p)
            out.append((q, (a, ""), (b, ""), start, end))
        else:
            c = rng.choice(sorted(SPELLINGS))
            x, y = rng.sample(sorted(SUPPLIERS), 2)
            q = rng.choice(SUPPLIER_FRAMES).format(c=rng.choice(SPELLINGS[c]), x=rng.choice(SUPPLIERS[x]),
                                                   y=rng.choice(SUPPLIERS[y]), p=p)
            out.append((q, (c, x), (c, y), start, end))
    return out


@pytest.mark.parametrize(("question", "side_a", "side_b", "start", "end"), _difference_cases())
def test_difference_reads_one_spend_question_per_side(question: str, side_a: tuple[str, str],
                                                      side_b: tuple[str, str], start: str, end: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base, (company, supplier) in zip(ask.bases, (side_a, side_b), strict=True):
        result = route(base, INPUTS)
        assert not result.requires_clarification, (base, result.clarification_question)
        assert _company_of(result) == company, base
        assert list(result.entities.supplier_ids) == ([supplier] if supplier else []), base
        period = result.constraints.time_range
        assert period is not None and (period.start.isoformat(), period.end.isoformat()) == (start, end), base


@pytest.mark.parametrize("question", [
    "how much more did company a spend than planned in 2025",
    "how much more did Company B spend than budget in Q1 2026",
    "how much less did company c spend than forecast last year"])
def test_difference_with_nothing_governed_is_asked(question: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.refused is not None and ask.sides[1].split()[0] in ask.refused


@pytest.mark.parametrize("question", [
    "how much more did company a spend in Q1 2026 than in Q4 2025",
    "which supplier did company a spend the most with in 2025",
    "who did Company B spend the most with last year", "how much did company a spend in 2025",
    "how much more did company a spend in Q1 2026 than the quarter before",
    "company a vs company b spend per supplier in Q1 2026", "Company A and Company B spend in 2025 per company"])
def test_not_a_comparison_across_companies(question: str) -> None:
    assert _ask(question) is None


@pytest.mark.parametrize(("question", "unit"), [
    ("did company b spend go up or down versus last quarter", "quarter"),
    ("how did Company A spend change compared to last month", "month"),
    ("company c spend against the previous year", "year")])
def test_implied_base_is_the_last_complete_period(question: str, unit: str) -> None:
    reading = read(question, GAZETTEER, AS_OF)
    ask = implied_base(reading.text, reading.period.time_range is not None)
    assert ask is not None and f"in the last {unit} compared with the previous {unit}" in ask.bases[0]
    assert implied_base("company a spend in Q1 2026 versus last quarter", True) is None


def _base(rows: dict[str, str]) -> Answer:
    total = str(sum(Decimal(v) for v in rows.values()))
    return Answer(status="answered", text="All companies ... Read as: all companies.", inputs={}, sources=(),
                  result={"status": "complete", "metrics": [
                      {"metric": "finance.company_spend", "total_spend": total, "currency": "EUR"},
                      {"metric": "finance.company_spend", "currency": "EUR",
                       "rows": [{"company_id": k, "total_spend": v, "matched_line_count": 3}
                                for k, v in rows.items()]}]})


def test_ranked_orders_bounds_and_says_ties() -> None:
    rng = random.Random(SEED)
    for _ in range(20):
        values = {c.company_id: f"{rng.randint(-500, 90000)}.{rng.randint(0, 99):02d}" for c in COMPANIES}
        for direction in ("top", "bottom"):
            ask = CompanyAsk(kind="company_ranking", bases=("spend per company",), words="w", direction=direction)
            got = [r["company_id"] for r in ranked(ask, _base(values), COMPANIES).result["ranking"]]
            want = sorted(values, key=lambda k: Decimal(values[k]), reverse=direction == "top")
            assert got == want
    named = CompanyAsk(kind="company_ranking", bases=("x",), words="w", named=("COMP-C", "COMP-A"))
    answer = ranked(named, _base({"COMP-A": "5.00", "COMP-B": "9.00", "COMP-C": "7.00"}), COMPANIES)
    assert [r["company_id"] for r in answer.result["ranking"]] == ["COMP-C", "COMP-A"]
    tie = ranked(CompanyAsk(kind="company_ranking", bases=("x",), words="w"),
                 _base({"COMP-A": "5.00", "COMP-B": "5.00", "COMP-C": "1.00"}), COMPANIES)
    assert "tied" in tie.text
    missing = ranked(CompanyAsk(kind="company_ranking", bases=("x",), words="w"),
                     _base({"COMP-A": "5.00"}), COMPANIES)
    assert "no data" in missing.text and missing.result["companies_without_spend"] == ["COMP-B", "COMP-C"]


def _figure(value: str, status: str = "answered") -> Answer:
    return Answer(status=status, text=f"Spend was {value} EUR. Read as: x.", inputs={}, sources=(),  # type: ignore[arg-type]
                  result={"status": "complete", "total_spend": value, "matched_line_count": 2, "currency": "EUR"})


def test_difference_is_a_minus_b_with_percent_of_b() -> None:
    rng = random.Random(SEED)
    for _ in range(30):
        a, b = (Decimal(rng.randint(1, 10**7)) / 100 for _ in range(2))
        ask = CompanyAsk(kind="difference", bases=("a", "b"), words="how much more", sides=("A", "B"))
        answer = difference(ask, _figure(str(a)), _figure(str(b)))
        assert Decimal(answer.result["delta"]) == a - b
        assert Decimal(answer.result["change_percent"]) == ((a - b) * 100 / b).quantize(Decimal("0.01"))
        assert answer.result["delta"] in answer.text
    ask = CompanyAsk(kind="difference", bases=("a", "b"), words="how much more", sides=("A", "B"))
    assert difference(ask, _figure("1.00"), _figure("0", "no_data")).status == "no_data"


def test_checks_recompute_the_composition() -> None:
    ask = CompanyAsk(kind="difference", bases=("a", "b"), words="how much more", sides=("A", "B"))
    good = difference(ask, _figure("10.00"), _figure("4.50"))
    assert all(c.passed for c in check_compared(good))
    bad = good.model_copy(update={"result": {**good.result, "delta": "5.00"}})
    assert not all(c.passed for c in check_compared(bad))
    rank = ranked(CompanyAsk(kind="company_ranking", bases=("x",), words="w"),
                  _base({"COMP-A": "5.00", "COMP-B": "9.00", "COMP-C": "7.00"}), COMPANIES)
    assert all(c.passed for c in check_compared(rank))
    swapped = rank.model_copy(update={"result": {**rank.result, "ranking": rank.result["ranking"][::-1]}})
    assert not all(c.passed for c in check_compared(swapped))
