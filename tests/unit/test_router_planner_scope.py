"""The planner's document scoping: a question about a named company's agreement searches that company's
agreements for the topic, and a quoted phrase travels as a literal filter (database-free)."""

from __future__ import annotations

import datetime as dt

from router.contract import Constraints, Entities
from router.entities import Company, Gazetteer
from router.planner import PlanInput, plan
from router.reader import read


def _input(question: str, *, intents: set[str], company: tuple[str, str] | None = None) -> PlanInput:
    companies = [Company(company[1], company[0], "EUR")] if company else []
    return PlanInput(
        reading=read(question, Gazetteer.build(companies, [], [], []), dt.date(2026, 5, 15)),
        intents=frozenset(intents),  # type: ignore[arg-type]
        entities=Entities(company_name=company[0], company_id=company[1]) if company else Entities(),
        constraints=Constraints(),
        as_of=dt.date(2026, 5, 15),
        spend=False,
        other_metric=False,
        approved=False,
        wants_documents=True,
        all_supplier_ids=(),
    )


def _search_step(inp: PlanInput) -> dict[str, object]:
    _, steps = plan(inp)
    return next(s.arguments for s in steps if s.tool == "documents.search")


def test_a_company_agreement_question_searches_its_agreements_for_the_topic() -> None:
    args = _search_step(
        _input("What are the payment terms in Company C's framework agreement?", intents={"semantic"},
               company=("Company C", "COMP-C"))
    )
    assert args["filters"]["company_ids"] == ["COMP-C"]  # type: ignore[index]
    assert args["filters"]["document_types"] == ["agreement"]  # type: ignore[index]
    assert "agreement" not in str(args["query_text"]).lower()
    assert "company c" not in str(args["query_text"]).lower()
    assert "payment terms" in str(args["query_text"])


def test_a_question_without_a_company_or_an_agreement_is_not_scoped() -> None:
    no_company = _search_step(_input("What are typical payment terms in a framework agreement?", intents={"semantic"}))
    assert "company_ids" not in no_company["filters"]  # type: ignore[operator]
    no_agreement = _search_step(
        _input("How is the Company A calibration certificate archived?", intents={"semantic"},
               company=("Company A", "COMP-A"))
    )
    assert "company_ids" not in no_agreement["filters"]  # type: ignore[operator]
    assert no_agreement["query_text"] == "How is the Company A calibration certificate archived?"


def test_a_quoted_phrase_is_a_literal_filter() -> None:
    args = _search_step(_input('Find the passages containing "monitoring controllers".', intents={"lexical"}))
    assert args["filters"]["phrases"] == ["monitoring controllers"]  # type: ignore[index]
    assert args["query_text"] == "monitoring controllers"
    assert args["retrieval_modes"] == ["bm25"]
