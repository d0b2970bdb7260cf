"""Currency questions in analysts' words, routed in memory (no database; the governed metrics' definitions come
from the schema snapshot).

Classes (issue 20, currency questions):

- the invoice currencies asked for ("which currency do they bill in", "billing ccy, original amounts and EUR",
  "Währung + Beträge", "totals per currency", "currency & amounts", "original amounts + EUR"): the governed
  ``finance.document_currency_spend`` by currency over every invoice currency (no currency filter), beside
  ``finance.company_spend`` (the reporting total). A currency named as a question beside the grouping ("bills us in
  GBP? totals per currency") is one of the rows asked about, never a filter that drops the other rows;
- a currency's share ("USD share of Company A spend", "share of GBP in ...", "CHF-Anteil", "USD portion"): the
  governed ``finance.currency_share`` with that one document currency as the part, never a clarification asking
  for a supplier;
- "which currency, how much" is one ask (the rows carry their amounts), not a currency part and a total part.

Slots vary over the invoice currencies, the phrasings (English, German, shorthand), companies and periods; a seeded
bounded sample, each compared with the governed call the question means.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.unit.test_router_analysis import PERIODS
from tests.unit.test_router_company_sets import _route

SEED = 606
FOREIGN = ("USD", "GBP", "CHF")
COMPANIES = ("Company A", "Company B", "COMP-A", "company b")
_ROWS_FRAMES = (
    "{c} {p}: which currency do they bill us in?", "{c} billing ccy {p}, original amounts and EUR",
    "{c} Währung + Beträge {p}", "{c} spend {p} – totals per currency", "{c} {p} currency & amounts",
    "{c} {p}: original amounts + EUR", "in welcher Währung wurde {c} {p} fakturiert?",
    "what currencies does {c} get invoiced in {p}", "{c} invoices {p} – which currency, how much",
    "{c} spend by ccy {p}", "{c} amounts and currencies {p}",
)
#: A currency named beside the grouping, as a question: one of the rows, not a filter.
_NAMED_ROWS_FRAMES = ("does Beta bill {c} in {code}? totals per currency {p}",
                      "{c}: Beta invoices in {code}? amounts per currency {p}",
                      "{c} {p} billed in {code}? which currencies, amounts")
_SHARE_FRAMES = ("{code} share of {c} spend {p}", "share of {code} in {c} spend {p} (%)", "{c} {code}-Anteil {p}",
                 "{code} portion of {c}'s spend {p}", "what percentage of {c} spend {p} is {code}-invoiced?",
                 "{c} {p}: {code} share of total spend")


def _calls(question: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    results = _route(question, "letters")
    assert len(results) == 1, question
    (result,) = results
    assert not result.requires_clarification, (question, result.clarification_question)
    return [(s.arguments["metric"], dict(s.arguments["parameters"]), list(s.arguments["group_by"]))
            for s in result.execution_plan if s.tool == "metrics.query"]


def _draw(frames: tuple[str, ...], n: int) -> list[tuple[str, str, str, str]]:
    rng = random.Random(SEED + len(frames))
    out = []
    for frame in frames:  # every frame at least once, the other slots drawn
        for _ in range(n):
            period, start, end = rng.choice(PERIODS[:5])
            code = rng.choice(FOREIGN)
            out.append((frame.format(c=rng.choice(COMPANIES), p=period, code=code), code, start, end))
    return out


@pytest.mark.parametrize(("question", "code", "start", "end"), _draw(_ROWS_FRAMES + _NAMED_ROWS_FRAMES, 2))
def test_currency_words_ask_every_invoice_currency(question: str, code: str, start: str, end: str) -> None:
    calls = _calls(question)
    assert [m for m, _, _ in calls] == ["finance.document_currency_spend", "finance.company_spend"], question
    (_, rows, by), (_, total, total_by) = calls
    assert by == ["currency"] and total_by == [], question
    assert "document_currency" not in rows and "document_currencies" not in rows, (question, rows)
    assert rows == total  # the reporting total is over exactly the same lines
    assert (rows["start_date"], rows["end_date"]) == (start, end), question
    assert rows["company_id"] in ("COMP-A", "COMP-B")


@pytest.mark.parametrize(("question", "code", "start", "end"), _draw(_SHARE_FRAMES, 3))
def test_a_currency_share_is_the_governed_currency_share(question: str, code: str, start: str, end: str) -> None:
    calls = _calls(question)
    assert [m for m, _, _ in calls] == ["finance.currency_share"], question
    (_, params, _), = calls
    assert params["document_currencies"] == [code], question
    assert (params["start_date"], params["end_date"]) == (start, end), question
    assert params["company_id"] in ("COMP-A", "COMP-B")


@pytest.mark.parametrize("code", FOREIGN)
@pytest.mark.parametrize("company", COMPANIES[:2])
def test_a_year_after_the_currency_is_the_period(code: str, company: str) -> None:
    """"invoiced in USD 2025": the invoices' currency, then the year (no amount of 2025 USD, no missing period)."""
    (_, share, _), = _calls(f"{company} share of spend invoiced in {code} 2025")
    assert share["document_currencies"] == [code]
    (metric, spend, _), = _calls(f"{company} spend in {code} 2025")
    assert metric == "finance.document_currency_spend" and spend["document_currency"] == code
    for params in (share, spend):
        assert (params["start_date"], params["end_date"]) == ("2025-01-01", "2026-01-01")
