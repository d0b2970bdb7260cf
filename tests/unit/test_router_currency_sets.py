"""Several invoice currencies named together, routed in memory (no database; the governed metrics' definitions
come from the schema snapshot).

Class (issue 20): "GBP and USD invoices ... in original currency and in EUR", "spend in CHF, GBP and USD",
"USD/GBP invoices" name a set of invoice currencies. The planned governed call is
``finance.document_currency_spend`` by currency with ``document_currencies`` exactly the currencies named (in the
order named), beside ``finance.company_spend`` over the same currencies (their reporting-currency total): never
one of them, never every currency, never a clarification about a conversion. With the reporting currency in the
list ("GBP and EUR") it stays the total beside every invoice currency, and one currency stays ``document_currency``.

Slots vary over every invoice currency of the corpus (pairs and triples, every order), the separators a list is
written with, the frames and periods and the company spellings; a seeded bounded sample.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from router.currency import named_currency_set
from tests.unit.test_router_analysis import PERIODS
from tests.unit.test_router_company_sets import _route

SEED = 620
FOREIGN = ("USD", "GBP", "CHF")
COMPANIES = ("Company A", "Company B", "COMP-A", "company b")
_JOINS = (" and ", "/", ", ", " & ", " + ", " plus ")
_FRAMES = (
    "{c} {cs} invoices {p} – amounts in original currency and in EUR", "{c} spend in {cs} {p}",
    "{c} spend on {cs} invoices {p}", "{c}: {cs} invoices {p}, as invoiced and in EUR",
    "How much did {c} spend in {cs} {p}?", "{c} invoices billed in {cs} {p}: totals per currency and in EUR",
    "{c} {cs} spend {p} in original currency",
)


def _listed(codes: tuple[str, ...], join: str) -> str:
    if len(codes) == 3 and join == " and ":
        return f"{codes[0]}, {codes[1]} and {codes[2]}"
    return join.join(codes)


def _calls(question: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    results = _route(question, "letters")
    assert len(results) == 1, question
    (result,) = results
    assert not result.requires_clarification, (question, result.clarification_question)
    return [(s.arguments["metric"], dict(s.arguments["parameters"]), list(s.arguments["group_by"]))
            for s in result.execution_plan if s.tool == "metrics.query"]


def _cases() -> list[tuple[str, tuple[str, ...], str, str]]:
    rng = random.Random(SEED)
    sets = [p for k in (2, 3) for p in itertools.permutations(FOREIGN, k)]
    out = []
    for codes in sets:  # every set and order at least once, the rest of the slots drawn
        for _ in range(3):
            frame, join, company = rng.choice(_FRAMES), rng.choice(_JOINS), rng.choice(COMPANIES)
            period, start, end = rng.choice(PERIODS)
            out.append((frame.format(c=company, cs=_listed(codes, join), p=period), codes, start, end))
    return out


@pytest.mark.parametrize(("question", "codes", "start", "end"), _cases())
def test_named_currencies_are_the_rows_and_the_total(question: str, codes: tuple[str, ...], start: str,
                                                      end: str) -> None:
    calls = _calls(question)
    assert [m for m, _, _ in calls] == ["finance.document_currency_spend", "finance.company_spend"], question
    (_, rows, by), (_, total, total_by) = calls
    assert by == ["currency"] and total_by == []
    assert rows["document_currencies"] == list(codes) and "document_currency" not in rows
    assert rows == total  # the total is over exactly the same lines
    assert (rows["start_date"], rows["end_date"]) == (start, end)
    assert rows["company_id"] in ("COMP-A", "COMP-B")


@pytest.mark.parametrize("code", FOREIGN)
def test_one_currency_stays_one_document_currency(code: str) -> None:
    calls = _calls(f"Company A {code} invoices in H2 2025 – amounts in original currency and in EUR")
    assert [(m, p.get("document_currency"), p.get("document_currencies")) for m, p, _ in calls] == [
        ("finance.document_currency_spend", code, None)]


@pytest.mark.parametrize("code", FOREIGN)
def test_reporting_currency_in_the_list_is_the_total_beside_every_currency(code: str) -> None:
    for text in (f"{code} and EUR", f"EUR/{code}"):
        assert named_currency_set(f"Company A spend in H2 2025, show {text}", "EUR") == ()
    calls = _calls(f"Company A spend in H2 2025 by invoice currency, show {code} and EUR")
    assert calls and all("document_currencies" not in p for _, p, _ in calls)


@pytest.mark.parametrize(("text", "codes"), [
    ("GBP and USD", ("GBP", "USD")), ("usd/gbp", ("USD", "GBP")), ("CHF, GBP and USD", ("CHF", "GBP", "USD")),
    ("CHF, GBP, and USD", ("CHF", "GBP", "USD")), ("GBP + GBP and USD", ("GBP", "USD")), ("GBP", ()),
    ("USD & EUR", ()), ("USD invoices and GBP", ()),
])
def test_the_listed_codes(text: str, codes: tuple[str, ...]) -> None:
    assert named_currency_set(f"spend in {text} in 2025", "EUR") == codes


@pytest.mark.parametrize("codes", list(itertools.permutations(FOREIGN, 2)))
def test_a_share_of_several_currencies_is_their_share(codes: tuple[str, ...]) -> None:
    calls = _calls(f"What share of Company A spend in 2025 was invoiced in {' and '.join(codes)}?")
    assert [(m, p.get("document_currencies")) for m, p, _ in calls] == [("finance.currency_share", list(codes))]


_LISTINGS = ("list the invoices billed in {w} of {c} {p}", "list {c} {code} invoices {p}",
             "Show the {code}-invoiced invoices of {c} {p}", "Invoices of {c} billed in {w} {p}: list them",
             "List {c}'s invoices in {code} {p}", "Show me all {code} invoices of {c} {p}")
_WORDS = {"USD": ("USD", "US dollars", "dollars"), "GBP": ("GBP", "pounds", "British pounds"),
          "CHF": ("CHF", "Swiss francs"), "EUR": ("EUR", "euros")}


def _listing_cases() -> list[tuple[str, str, str, str]]:
    rng = random.Random(SEED + 1)
    out = []
    for code in _WORDS:  # every currency of the corpus (the reporting currency too), the rest drawn
        for _ in range(6):
            frame, company = rng.choice(_LISTINGS), rng.choice(COMPANIES)
            period, start, end = rng.choice(PERIODS)
            out.append((frame.format(c=company, p=period, w=rng.choice(_WORDS[code]), code=code), code, start, end))
    return out


@pytest.mark.parametrize(("question", "code", "start", "end"), _listing_cases())
def test_one_currency_invoices_listed(question: str, code: str, start: str, end: str) -> None:
    """'list the invoices billed in USD': the governed listing (every invoice: at or above zero) of that invoice
    currency's invoices, not a clarification and not every currency's invoices."""
    results = _route(question, "letters")
    assert len(results) == 1 and not results[0].requires_clarification, (question, results[0].clarification_question)
    steps = [s for s in results[0].execution_plan if s.tool == "finance.invoices_above_threshold"]
    assert len(steps) == 1, question
    args = steps[0].arguments
    assert (args["document_currency"], args["threshold"], args.get("inclusive")) == (code, "0.00", True)
    assert (args["start_date"], args["end_date"]) == (start, end)


@pytest.mark.parametrize("text", ["list Company A invoices billed in USD and GBP in Q1 2026",
                                  "list Company A invoices in original currency in Q1 2026"])
def test_other_currency_readings_of_a_listing_are_no_one_currency_filter(text: str) -> None:
    for result in _route(text, "letters"):
        assert all(s.arguments.get("document_currency") is None for s in result.execution_plan
                   if s.tool == "finance.invoices_above_threshold")
