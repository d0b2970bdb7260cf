"""Clarification precision: a question whose reading is complete is answered, not asked back (no database).

A measure word in a spend verb's object slot names the figure, never a thing bought to ask about ("costs of
purchases"); a supplier's invoices "to" a company are that company's invoices from the supplier, listed as the bare
noun phrase "invoices from ... for ..." is; the reporting currency named before an amount noun ("EUR amounts")
restates the ranking's basis; a document type after "by" ("got back by credit notes") is no grouping, and the
invoices' currency is the currency grouping in any number. Metamorphic over the company, the period, the verb, the
currency and the measure word; the unknown name, "invoices to pay" and another currency stay asked about."""

from __future__ import annotations

import itertools

import pytest

from router.analysis import parse_analysis
from router.reading import parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS


def _route(question: str):  # type: ignore[no-untyped-def]
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


COMPANIES = ["Company A", "Company B"]
PERIODS = ["in Q1 2026", "in March 2026", "last quarter"]
#: spend verbs and nouns before "of/on/for" and the measure word after them
OBJECT_FRAMES = ["total costs of {m} for {c} {p}", "what were the costs of {m} at {c} {p}?",
                 "{c} spend on {m} {p}", "expenses for {m}, {c}, {p}"]
MEASURES = ["purchases", "expenditure", "expenses"]


@pytest.mark.parametrize(("frame", "measure", "company", "period"),
                         [*itertools.product(OBJECT_FRAMES, MEASURES, COMPANIES[:1], PERIODS[:1]),
                          *((OBJECT_FRAMES[0], MEASURES[0], c, p) for c, p in itertools.product(COMPANIES, PERIODS)
                            if (c, p) != (COMPANIES[0], PERIODS[0]))])
def test_a_measure_word_is_never_an_unknown_object(frame: str, measure: str, company: str, period: str) -> None:
    question = frame.format(m=measure, c=company, p=period)
    asked = _route(question).clarification_question or ""
    assert f"I do not know {measure!r}" not in asked, (question, asked)
    assert f"category {measure!r}" not in asked, (question, asked)


@pytest.mark.parametrize(("question", "unknown"), [
    ("total costs of widgetry for Company A in Q1 2026", "widgetry"),
    ("Company A spend on flibbers in March 2026", "flibbers"),
    # a measure word before another noun is its modifier: the object is still named back
    ("Company A spend on price lists in March 2026", "lists"),
    ("total costs of purchase vouchers for Company B last quarter", "vouchers"),
])
def test_an_unknown_object_is_still_named(question: str, unknown: str) -> None:
    routing = _route(question)
    assert routing.requires_clarification, routing.execution_plan
    assert unknown in (routing.clarification_question or ""), routing.clarification_question


def _listing(question: str) -> bool:
    routing = _route(question)
    return any(s.tool == "finance.invoices_above_threshold" for s in routing.execution_plan)


@pytest.mark.parametrize(("company", "period"), list(itertools.product(COMPANIES, PERIODS)))
def test_invoices_to_a_company_are_its_listing(company: str, period: str) -> None:
    asked = f"Supplier Beta invoices to {company} {period}"
    assert _listing(asked) == _listing(f"Supplier Beta invoices for {company} {period}") is True, asked


@pytest.mark.parametrize("question", [
    "Company A invoices to pay in March 2026",
    "Company A invoices to be approved in Q1 2026",
])
def test_invoices_to_a_verb_are_no_listing(question: str) -> None:
    assert not _listing(question), question


# -- a currency that restates the reporting basis -------------------------------------------------------------------
CODES = ["EUR", "USD", "CHF"]
AMOUNT_NOUNS = ["amounts", "spend"]


@pytest.mark.parametrize(("code", "noun"), list(itertools.product(CODES, AMOUNT_NOUNS)))
def test_a_code_before_an_amount_noun_is_an_amount_currency(code: str, noun: str) -> None:
    analysis, _ = parse_analysis(f"largest 3 vendors last quarter, {code} {noun}", AS_OF)
    assert analysis.document_currency == code and analysis.amount_currency


@pytest.mark.parametrize("text", ["top 2 suppliers on EUR invoices", "top 2 suppliers by spend in invoice currency, "
                                  "EUR amounts", "top 2 suppliers, non-EUR spend"])
def test_invoices_or_an_invoice_currency_word_make_it_the_invoices_currency(text: str) -> None:
    analysis, _ = parse_analysis(text, AS_OF)
    assert not analysis.amount_currency, text


@pytest.mark.parametrize(("company", "noun"), list(itertools.product(COMPANIES, AMOUNT_NOUNS)))
def test_a_ranking_in_the_reporting_currency_is_answered(company: str, noun: str) -> None:
    routing = _route(f"{company} Q1 2026: largest 3 vendors, EUR {noun}")
    assert not routing.requires_clarification, routing.clarification_question


def test_a_ranking_in_another_currency_is_still_asked() -> None:
    routing = _route("Company A Q1 2026: largest 3 vendors, USD amounts")
    assert routing.requires_clarification and "reporting currency" in (routing.clarification_question or "")


# -- document nouns after "by" -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["what we received back by credit notes, Company A, Q1 2026",
                                  "money returned by credit notes in March", "refunds by credit memos in 2025"])
def test_a_document_type_after_by_is_no_grouping(text: str) -> None:
    assert parse_breakdown(text).unknown == (), text


@pytest.mark.parametrize(("verb", "qualifier"), list(itertools.product(
    ["split by", "broken down by", "per"], ["invoices", "invoices'", "invoice", "invoices original"])))
def test_the_invoices_currency_in_any_number_is_the_currency_grouping(verb: str, qualifier: str) -> None:
    found = parse_breakdown(f"Company A spend Q1 2026 {verb} {qualifier} currency")
    assert found.group_by == ("currency",) and not found.unknown, (verb, qualifier)


@pytest.mark.parametrize("word", ["native", "original", "invoiced"])
def test_native_amounts_are_the_invoices_own_currency(word: str) -> None:
    assert parse_analysis(f"Company B spend in May 2026, {word} amounts", AS_OF)[0].original_currency
