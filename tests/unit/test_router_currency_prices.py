"""Currency and unit-price questions found wrong by ``evaluation/probes_currency.py`` (no database).

Each class is routed in memory over the demo vocabulary and its governed call compared with the call the slot
values mean: "in USD" is the USD invoices (the company reports in EUR), "non-EUR" / "foreign-currency" leaves the
reporting currency out, "local currency" and German currency groupings are the invoice currencies, "the latest
unit price" is the last day of the day-grain average, a unit price asked "as invoiced" is never the EUR figure.
"""

from __future__ import annotations

import random

import pytest

from router.analysis import parse_currency_scope
from router.reading import currency_code, parse_breakdown
from tests.unit.test_router_clarify_classes import _metric_step, _routed

DOC = "finance.document_currency_spend"
SEED = 29
CURRENCY_WORDS = {"USD": ("USD", "US dollars", "dollars", "$", "U.S. dollars", "US-Dollar"),
                  "GBP": ("GBP", "pounds", "British pounds", "£", "Pfund", "britischen Pfund"),
                  "CHF": ("CHF", "Swiss francs", "francs", "Schweizer Franken", "Franken")}
FRAMES = ("Company A spend in {w} in Q1 2026", "How much did Company A spend in {w} in 2025?",
          "What did Company A pay Beta in {w} in Q1 2026?", "Company A purchases in {w} last quarter")


def _cases(n: int) -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    return [(code, rng.choice(FRAMES).format(w=rng.choice(CURRENCY_WORDS[code])))
            for code in (rng.choice(sorted(CURRENCY_WORDS)) for _ in range(n))]


@pytest.mark.parametrize(("code", "question"), _cases(16))
def test_a_named_foreign_currency_is_its_invoices(code: str, question: str) -> None:
    metric, params, group_by = _metric_step(question)
    assert metric == DOC and params.get("document_currency") == code and group_by == [], (question, metric, params)
    if "Beta" in question:
        assert params.get("supplier_ids") == ["SUP-18"], params


def test_the_reporting_currency_stays_the_reporting_figure() -> None:
    metric, params, _ = _metric_step("Company A spend in EUR in Q1 2026")
    assert metric != DOC and "document_currency" not in params, (metric, params)


@pytest.mark.parametrize(("phrase", "left_out"), [
    ("non-EUR invoices", "EUR"), ("non-euro invoices", "EUR"), ("invoices not in EUR", "EUR"),
    ("invoices in currencies other than EUR", "EUR"), ("foreign-currency invoices", ""),
    ("invoices in foreign currencies", ""), ("Fremdwährungsrechnungen", ""), ("non-USD invoices", "USD")])
def test_currency_exclusions_are_read(phrase: str, left_out: str) -> None:
    assert parse_currency_scope(f"Company A spend on {phrase} in Q1 2026")[1] == left_out


@pytest.mark.parametrize("phrase", ["non-EUR invoices", "foreign-currency invoices", "invoices not in EUR",
                                    "invoices in currencies other than EUR"])
def test_non_reporting_invoices_are_the_other_currency_rows(phrase: str) -> None:
    metric, params, group_by = _metric_step(f"How much did Company A spend on {phrase} in Q1 2026?")
    assert metric == DOC and params.get("exclude_document_currencies") == ["EUR"], (phrase, params)
    assert group_by == ["currency"] and "document_currency" not in params


def test_non_eur_spend_is_never_the_eur_invoices() -> None:
    _, params, _ = _metric_step("Company A's non-EUR spend in Feb 2026")
    assert params.get("document_currency") != "EUR" and params.get("exclude_document_currencies") == ["EUR"]


@pytest.mark.parametrize("phrase", ["in local currency", "in local currencies", "in each invoice's currency",
                                    "in invoice currency"])
def test_local_and_invoice_currency_are_the_invoice_currencies(phrase: str) -> None:
    metric, _, group_by = _metric_step(f"Company A spend in Q1 2026 {phrase}")
    assert metric == DOC and group_by == ["currency"], (phrase, metric)


@pytest.mark.parametrize("phrase", ["nach Währung", "je Währung", "aufgeschlüsselt nach Währung",
                                    "in Rechnungswährung", "in Belegwährung", "in Originalwährung"])
def test_german_currency_groupings(phrase: str) -> None:
    metric, _, group_by = _metric_step(f"Ausgaben von Company A im ersten Quartal 2026 {phrase}")
    assert metric == DOC and group_by == ["currency"], (phrase, metric)


def test_currency_words() -> None:
    assert [currency_code(w) for w in ("Franken", "Pfund", "US-Dollar", "U.S. dollars", "British pounds")] == [
        "CHF", "GBP", "USD", "USD", "GBP"]
    assert "currency" in parse_breakdown("Ausgaben nach Währung").group_by


def test_a_product_group_scope_is_kept_with_a_currency() -> None:
    metric, params, _ = _metric_step("Company A spend on Pressure Sensors in USD in 2025")
    assert metric == DOC and params.get("document_currency") == "USD" and params.get("product_group_ids"), params


# --- unit prices -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("question", [
    "latest unit price of PRD-482 for Company A", "What is the most recent price Company A paid per unit for PRD-482?",
    "last price paid for PRD-482 by Company A", "What did Company A pay per unit for PRD-482 most recently?",
    "Company A: latest unit price PRD-482"])
def test_the_latest_unit_price_is_the_last_invoice_day(question: str) -> None:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    args = step.arguments
    assert args["metric"] == "catalog.average_unit_price" and args["grain"] == "day", args
    assert args["parameters"]["product_code"] == "PRD-482" and args["parameters"]["end_date"] == "2026-05-16", args


def test_the_latest_unit_price_in_a_period_keeps_the_period() -> None:
    result = _routed("Last unit price Company A paid for PRD-482 in Q4 2025")
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert (step.arguments["parameters"]["start_date"], step.arguments["parameters"]["end_date"]) == (
        "2025-10-01", "2026-01-01") and step.arguments["grain"] == "day"


@pytest.mark.parametrize("question", ["Stückpreis PRD-482 im Jahr 2025 (Company A)",
                                      "Einzelpreis PRD-482 im ersten Quartal 2026 für Company A"])
def test_german_unit_price_words(question: str) -> None:
    metric, params, _ = _metric_step(question)
    assert metric.startswith("catalog.") and params.get("product_code") == "PRD-482", (metric, params)


@pytest.mark.parametrize(("question", "code"), [
    ("What did Company A pay per unit for PRD-482 in March 2026, as invoiced?", None),
    ("Average unit price of PRD-482 in March 2026 for Company A in invoice currency", None),
    ("Company A: unit price of PRD-482 in 2025 in original currency", None),
    ("Average unit price of PRD-482 in 2025 for Company A in USD", "USD")])
def test_a_unit_price_in_invoice_currency_is_the_document_currency_price(question: str, code: str | None) -> None:
    metric, params, group_by = _metric_step(question)
    assert metric == "catalog.document_currency_unit_price" and params["product_code"] == "PRD-482", params
    assert params.get("document_currency") == code and group_by == ([] if code else ["currency"]), (params, group_by)


@pytest.mark.parametrize("question", ["Lowest unit price of PRD-482 in 2025 for Company A in USD",
                                      "Latest unit price of PRD-482 for Company A in invoice currency"])
def test_an_extreme_or_latest_price_in_invoice_currency_is_asked_not_given_in_eur(question: str) -> None:
    result = _routed(question)
    assert result.requires_clarification and "currency" in (result.clarification_question or ""), (
        question, result.execution_plan)


@pytest.mark.parametrize(("question", "base"), [
    ("Company A: unit price of PRD-611 2026 vs 2025", ("2025-01-01", "2026-01-01")),
    ("How did the unit price of PRD-482 change from 2025 to Q1 2026 for Company A?", ("2025-01-01", "2026-01-01")),
    ("Company A price per unit of PRD-491: 2025 versus Q1 2026", ("2025-01-01", "2026-01-01")),
    ("Did Company A's unit price for PRD-625 go up in 2026 compared with 2025?", ("2025-01-01", "2026-01-01"))])
def test_a_bare_year_beside_a_comparison_word_is_the_base(question: str, base: tuple[str, str]) -> None:
    from router.compound import price_change_parts
    from router.reader import read
    from tests.unit.test_router_analysis import AS_OF, GAZETTEER

    current, previous = price_change_parts(read(question, GAZETTEER, AS_OF))
    assert f"from {base[0]} to before {base[1]}" in previous.question, (question, previous)
    assert "2026-01-01" in current.question, current


def test_a_range_from_a_bare_year_is_asked_not_cut_to_its_end() -> None:
    # "from 2025 to Q1 2026" used to read as Q1 2026 alone (2025 silently dropped)
    result = _routed("Company A spend from 2025 to Q1 2026")
    assert result.requires_clarification and "period" in " ".join(result.clarification_reasons)


@pytest.mark.parametrize("question", ["Mean price per unit of PRD-482 across all companies last qtr",
                                      "avg unit price of PRD-482 for all companies in 2025"])
def test_a_unit_price_across_all_companies_is_the_tenant_wide_average(question: str) -> None:
    # the company is optional for unit prices: "all companies" is that default, not a figure to ask about
    metric, params, _ = _metric_step(question)
    assert metric == "catalog.average_unit_price" and "company_id" not in params, params
