"""Failure classes of compound, period, change, currency and clarification reading (no database).

One parametrized suite per class found by ``evaluation/probes_compound.py --kind frames`` (training seed 42):
asks meant apart ("X in Q4 and, separately, in Q1", "with A and with B, separately", "with A, and what with B?",
"units bought ... and what we spent on them") or together ("Q4 and Q1 together"); periods that do not exist
("Q5 2025", "the 13th month"); "delta" as a measure word beside a supplier named Delta; "monthly comparison"; an
invoice currency's share of spend; invoice currencies beside the reporting currency; a unit price without a
product; "our agreement" with several companies. Each question is split or routed and its plan checked against
the governed parameters the question means, or the clarification checked to name the unread words.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from router.answer import Answer
from router.compound import AskPart, merge_answers, split_asks
from router.contract import RoutingResult
from router.german import read_german
from router.periods import invalid_period, resolve_period
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_compound import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
COMPANIES = ("Company A", "company a", "Company B")
PERIODS = {"Q3 2025": ("2025-07-01", "2025-10-01"), "Q4 2025": ("2025-10-01", "2026-01-01"),
           "Q1 2026": ("2026-01-01", "2026-04-01"), "March 2026": ("2026-03-01", "2026-04-01"),
           "January 2026": ("2026-01-01", "2026-02-01")}
SUPPLIERS = (("Supplier Beta", "SUP-18"), ("Gamma", "SUP-27"), ("Supplier Zeta", "SUP-35"), ("Delta", "SUP-31"))


def _read(text: str):  # type: ignore[no-untyped-def]
    return read(read_german(text) or text, GAZETTEER, AS_OF)


def _route(question: str) -> RoutingResult:
    return route(question, INPUTS)


def _plan(question: str) -> str:
    result = _route(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    return json.dumps([[s.tool, s.arguments] for s in result.execution_plan], default=str)


def _dates(question: str) -> tuple[str, str]:
    tr = _read(question).period.time_range
    assert tr is not None, question
    return tr.start.isoformat(), tr.end.isoformat()


# --- invalid periods ---------------------------------------------------------------------------------------------
INVALID = ("Q5 2025", "Q0 2026", "Q7", "H3 2025", "the 13th month of 2025", "2025-13", "month 14 of 2025",
           "the fifth quarter of 2025", "2026-Q5")


@pytest.mark.parametrize("bad", INVALID)
@pytest.mark.parametrize("template", ("{c} spend in {b}", "what did {c} spend with Beta in {b}?",
                                      "{c} top 3 suppliers in {b}"))
def test_a_period_that_does_not_exist_is_asked_about_by_name(bad: str, template: str) -> None:
    result = _route(template.format(c="Company A", b=bad))
    assert result.requires_clarification
    named = bad.split(" of ")[0].replace("the ", "")
    assert named.casefold() in (result.clarification_question or "").casefold()


@pytest.mark.parametrize("good", ("Q1 2026", "Q4 2025", "H2 2025", "2025-12", "March 2026", "the 12th of March 2026",
                                  "2026-Q1", "FY2025", "top 5 suppliers in Q1", "spend over 5000 EUR in Q2 2025"))
def test_valid_periods_are_not_read_as_invalid(good: str) -> None:
    assert invalid_period(good) is None
    assert not resolve_period(f"spend in {good}", AS_OF).reason or "does not exist" not in str(
        resolve_period(f"spend in {good}", AS_OF).reason)


# --- asked apart / together ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("company", COMPANIES)
@pytest.mark.parametrize(("first", "second"), (("Q4 2025", "Q1 2026"), ("Q3 2025", "Q4 2025"),
                                               ("January 2026", "March 2026"), ("Q3 2025", "Q1 2026")))
@pytest.mark.parametrize("template", ("{c} spend in {a} and, separately, in {b}", "{c} spend {a} and {b} separately "
                                      "please", "{c}: spend in {a} and in {b}, one figure each",
                                      "What did {c} spend in {a} and, separately, in {b}?"))
def test_periods_asked_separately_are_one_part_each(company: str, first: str, second: str, template: str) -> None:
    parts = split_asks(template.format(c=company, a=first, b=second), _read)
    assert [_dates(p.question) for p in parts] == [PERIODS[first], PERIODS[second]]
    for part in parts:
        assert _read(part.question).entities.company_id is not None


@pytest.mark.parametrize(("first", "second"), (("Q4 2025", "Q1 2026"), ("Q3 2025", "Q4 2025")))
@pytest.mark.parametrize("word", ("together", "combined", "taken together"))
def test_periods_asked_together_are_their_union(first: str, second: str, word: str) -> None:
    question = f"Company B spend for {first} and {second} {word}"
    assert split_asks(question, _read) == ()
    plan = _plan(question)
    assert PERIODS[first][0] in plan and PERIODS[second][1] in plan


@pytest.mark.parametrize(("a", "b"), [(x, y) for x in SUPPLIERS for y in SUPPLIERS if x[1] != y[1]])
@pytest.mark.parametrize("template", ("What did Company A spend with {a} in Q1 2026, and what with {b}?",
                                      "How much did Company A spend with {a} in Q1 2026, and how much with {b}?",
                                      "Company A spend with {a} in Q4 2025 and with {b} in Q4 2025, separately"))
def test_suppliers_asked_apart_are_one_part_each(a: tuple[str, str], b: tuple[str, str], template: str) -> None:
    parts = split_asks(template.format(a=a[0], b=b[0]), _read)
    assert [_read(p.question).entities.supplier_ids for p in parts] == [(a[1],), (b[1],)]
    assert len({_dates(p.question) for p in parts}) == 1


@pytest.mark.parametrize(("name", "sid"), SUPPLIERS)
@pytest.mark.parametrize("template", ("Company A units bought from {s} in 2025 and what we spent on them",
                                      "how many units did Company A buy from {s} in Q1 2026, and how much did we "
                                      "spend on those?"))
def test_units_and_their_spend_are_two_parts_with_the_same_supplier(name: str, sid: str, template: str) -> None:
    parts = split_asks(template.format(s=name), _read)
    assert len(parts) == 2
    for part in parts:
        reading = _read(part.question)
        assert reading.entities.supplier_ids == (sid,) and reading.entities.company_id == "COMP-A"
    assert _read(parts[0].question).measure == "units_purchased"


# --- measure words, monthly comparisons ---------------------------------------------------------------------------
@pytest.mark.parametrize("template", ("{c} spend Q1 2026 vs Q4 2025 - delta and percentage",
                                      "{c} spend Q1 2026 vs Q4 2025: the delta in EUR and %",
                                      "{c} spend Q1 2026 compared with Q4 2025, delta and percent change"))
@pytest.mark.parametrize("company", COMPANIES)
def test_delta_as_a_measure_word_is_no_supplier(template: str, company: str) -> None:
    plan = _plan(template.format(c=company))
    assert "SUP-31" not in plan and "finance.spend_comparison" in plan


def test_delta_after_with_stays_the_supplier() -> None:
    assert "SUP-31" in _plan("Company A spend with Delta Q1 2026 vs Q4 2025")
    assert "SUP-31" in _plan("Company A spend with delta in Q1 2026 vs Q4 2025")


@pytest.mark.parametrize("template", ("{c} monthly comparison: March 2026 vs February 2026 spend",
                                      "{c} monthly change in spend, March 2026 vs February 2026",
                                      "{c} quarterly comparison: Q1 2026 vs Q4 2025 spend"))
def test_a_monthly_comparison_is_a_comparison_not_a_breakdown(template: str) -> None:
    result = _route(template.format(c="Company A"))
    plan = _plan(template.format(c="Company A"))
    assert "finance.spend_comparison" in plan and '"grain": "month"' not in plan, result


# --- currencies ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("template", (
    "Company A spend with Beta in Q1 2026 in the original invoice currency and in EUR",
    "Company A spend Q1 2026, show USD and EUR",
    "Company A spend in FY2025 in the currencies as billed, and converted to EUR",
    "Company A Q4 2025 spend per invoice currency (USD, CHF, EUR amounts) plus EUR total",
    "Company A with Beta in FY2025 - invoice currency amounts vs reporting currency",
    "Company A Q1 2026 - spend by invoice currency (in EUR)",
))
def test_invoice_currencies_beside_the_reporting_currency(template: str) -> None:
    assert split_asks(template, _read) == ()
    plan = _plan(template)
    assert "finance.document_currency_spend" in plan and '"document_currency"' not in plan
    assert '"currency"' in plan and "finance.company_spend" in plan


@pytest.mark.parametrize("template", ("Company A spend in Q1 2026 on invoices billed in USD",
                                      "Company A spend in Q1 2026 in USD"))
def test_one_invoice_currency_stays_a_filter(template: str) -> None:
    assert '"document_currency": "USD"' in _plan(template)


@pytest.mark.parametrize("currency", ("USD", "CHF", "GBP", "EUR"))
@pytest.mark.parametrize("template", ("{c}: what portion of Q1 2026 spend was invoiced in {u}?",
                                      "{c}, FY2025: what fraction of spend was billed in {u}?",
                                      "what share of {c}'s spend in Q4 2025 was invoiced in {u}?"))
def test_a_currency_share_is_its_invoices_against_the_whole(currency: str, template: str) -> None:
    # one governed figure (finance.currency_share: part and whole in one pass), no parts to divide afterwards
    question = template.format(c="Company A", u=currency)
    assert split_asks(question, _read) == ()
    plan = _plan(question)
    assert "finance.currency_share" in plan and f'"document_currencies": ["{currency}"]' in plan, plan
    start, end = _dates(question)
    assert f'"start_date": "{start}"' in plan and f'"end_date": "{end}"' in plan


def _answer(total: str | None) -> Answer:
    result = {} if total is None else {"total_spend": total, "currency": "EUR"}
    return Answer(status="answered" if total else "no_data", text="figure", result=result, inputs={}, sources=())


def test_the_currency_share_is_stated_from_both_figures() -> None:
    part, whole = AskPart("p", "p", (), "share_part"), AskPart("w", "w", (), "share_whole")
    text = merge_answers([(part, _answer("9272.46")), (whole, _answer("137589.19"))]).text
    assert "6.74 %" in text and "9272.46" in text and "137589.19" in text
    assert "6.74 %" not in merge_answers([(part, _answer(None)), (whole, _answer("137589.19"))]).text
    assert Decimal("6.74") == (100 * Decimal("9272.46") / Decimal("137589.19")).quantize(Decimal("0.01"))


# --- clarifications that must be asked ----------------------------------------------------------------------------
@pytest.mark.parametrize("template", ("what is the average unit price {c} paid?", "average unit price {c} paid in "
                                      "Q1 2026", "What did {c} pay per unit on average last quarter?"))
def test_a_unit_price_without_a_product_asks_for_it(template: str) -> None:
    result = _route(template.format(c="Company A"))
    assert result.requires_clarification and "product" in (result.clarification_question or "")


@pytest.mark.parametrize("question", ("what are the payment terms in our agreement?",
                                      "what is the notice period of our contract?",
                                      "Which warranty does the agreement give?"))
def test_our_agreement_with_several_companies_asks_which(question: str) -> None:
    result = _route(question)
    asked = (result.clarification_question or "").casefold()
    assert result.requires_clarification and "agreement" in asked and "company" in asked


def test_an_agreement_with_its_supplier_is_no_question() -> None:
    result = _route("what are the payment terms in our agreement with Supplier Beta?")
    assert "which company's" not in (result.clarification_question or "")


@pytest.mark.parametrize("template", (
    "which is cheaper per unit for Company A in FY2025, PRD-482 or PRD-530? give both averages",
    "Company A PRD-510 vs PRD-515 in Q1 2026 - average unit price of each",
))
def test_the_unit_price_of_each_named_product(template: str) -> None:
    parts = split_asks(template, _read)
    codes = [_read(p.question).entities.product_codes for p in parts]
    assert len(parts) == 2 and all(len(c) == 1 for c in codes) and codes[0] != codes[1]
    for part in parts:
        assert "catalog.average_unit_price" in _plan(part.question)
