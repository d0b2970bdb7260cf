"""Rankings over a dimension in a pivot user's words: a count said after a period ranking ("... ? top 2"), a company
named by its rank ("company with the highest total"), and the grain before a range ("by month Jul-25 to Oct-25")."""

from __future__ import annotations

import pytest

from router.company_compare import CompanyAsk, company_mentions, detect
from router.period_grammar import read_ranges
from router.period_ranking import detect as detect_period
from router.reader import read
from router.routing import route
from tests.unit.test_router_company_compare import AS_OF, GAZETTEER, INPUTS


@pytest.mark.parametrize(("grain", "way", "order"), [("month", "highest", "desc"), ("quarter", "lowest", "asc"),
                                                     ("month", "biggest", "desc")])
@pytest.mark.parametrize(("tail", "n"), [("? top 2", 2), ("? top 1", 1), (", top-3 pls", 3), (" (first 2)", 2),
                                         ("? bottom 2", 2), (". top three", 3)])
def test_a_count_said_after_a_period_ranking_is_its_count(grain: str, way: str, order: str, tail: str,
                                                          n: int) -> None:
    found = detect_period(f"which {grain} had the {way} spend in 2025 for Orbis{tail}")
    assert found is not None and found.refused is None
    assert (found.n, found.order, found.grain) == (n, order, grain)
    assert "top" not in found.base and "first" not in found.base and "bottom" not in found.base


def test_a_count_apart_never_overrides_a_count_said_in_the_ranking() -> None:
    found = detect_period("which two months had the highest spend in 2025 for Orbis? top 3")
    assert found is not None and found.n == 2  # two counts disagree: the ranking's own, the rest left to be read


def _ask(question: str) -> CompanyAsk | None:
    reading = read(question, GAZETTEER, AS_OF)
    m = reading.mentions
    companies = company_mentions(reading.text, m.companies, reading.identifiers.company_ids)
    return detect(reading.text, companies, (*m.suppliers, *m.product_groups, *m.products))


@pytest.mark.parametrize(("question", "direction", "limit"), [
    ("company with the highest total 07/2025-12/2025", "top", 0),
    ("the entity with the lowest spend in Q1 2026", "bottom", 0),
    ("which company has the largest AP in 2025", "top", 0),
    ("the two companies with the most spend in H2 2025", "top", 2),
    ("subsidiary having the smallest total in 2025", "bottom", 0)])
def test_a_company_named_by_its_rank_is_the_company_ranking(question: str, direction: str, limit: int) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "company_ranking" and ask.refused is None, question
    assert (ask.direction, ask.limit) == (direction, limit)
    result = route(ask.bases[0], INPUTS)
    assert not result.requires_clarification, (ask.bases[0], result.clarification_question)


@pytest.mark.parametrize("question", ["the company with the most invoices in 2025",
                                      "company with the highest unit price for PT100 in 2025"])
def test_a_company_ranked_by_something_else_is_not_the_spend_ranking(question: str) -> None:
    ask = _ask(question)
    assert ask is None or ask.refused is not None or ask.kind != "company_ranking"


@pytest.mark.parametrize("grouping", ["by month", "per month", "by quarter", "per Quarter"])
@pytest.mark.parametrize("period", ["Jul-25 to Oct-25", "07/2025 - 10/2025"])
def test_the_grain_before_a_range_stays_a_grouping(grouping: str, period: str) -> None:
    out = read_ranges(f"Orbis spend {grouping} {period}")
    assert out.startswith(f"Orbis spend {grouping} ") and "2025-07-01" in out


def test_the_unit_of_a_month_is_still_read_as_its_month() -> None:
    assert read_ranges("spend month 07/2025 to 10/2025") == "spend from 2025-07-01 through 2025-10-31"
    assert read_ranges("entre le mois de juillet 2025 et octobre 2025") == "from 2025-07-01 through 2025-10-31"
