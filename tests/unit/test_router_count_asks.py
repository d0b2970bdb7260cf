"""Terse counts and entity lists (router/count_asks.py): the count word or marker the count reader did not know
("nbr of", "... #", "(count)", "count pls:"), the payables adjective ("vendor invoices"), bare line nouns, the
lines of both document types, "distinct / unique <entities> <scope>", listings with the buyer after a passive verb
or before a use verb, SQL selects of document ids or distinct keys, and a remark on some documents' status that is
no column of a status table."""

from __future__ import annotations

from typing import Any

import pytest

from router.count_asks import count_asks
from router.keyword_query import keyword_style
from router.status_counts import status_table
from tests.unit.test_router_rankings_counts import _routed


def _metric_steps(question: str) -> list[dict[str, Any]]:
    result = _routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    return [dict(s.arguments) for s in result.execution_plan if s.tool == "metrics.query"]


@pytest.mark.parametrize(("text", "read"), [
    ("nbr of credit notes Company A 2025", "number of credit notes Company A 2025"),
    ("qty of invoices from Beta in May", "number of invoices from Beta in May"),
    ("Company A credit notes 2025 #", "Company A number of credit notes 2025"),
    ("invoices from Beta at Company B in Q3 2025 (#)", "number of invoices from Beta at Company B in Q3 2025"),
    ("a) invoices received in 2025 (how many?); b) the spend", "a) number of invoices received in 2025; b) the spend"),
    ("count pls - credit notes received by Company B in 2025", "number of credit notes received by Company B in 2025"),
    ("how many vendor invoices did Company A get in Q1 2026", "how many invoices did Company A get in Q1 2026"),
    ("invoice line items Company B 2025", "number of invoice line items Company B 2025"),
    ("credit note lines & invoice lines Company A Q1", "number of invoice lines including credit notes Company A Q1"),
    ("unique suppliers Company A Q4 2025", "Company A Q4 2025: which suppliers did we buy from"),
    ("different skus, Company B, 2025", "Company B, 2025: list the skus purchased"),
    ("items purchased Company A from Beta in 2025", "items purchased by Company A from Beta in 2025"),
    ("suppliers Company B worked with in 2025", "which suppliers did Company B work with in 2025"),
])
def test_terse_asks_in_the_readers_words(text: str, read: str) -> None:
    assert count_asks(text) == read
    assert count_asks(read) == read  # idempotent


@pytest.mark.parametrize("text", [
    "invoice lines of Company B above 5000 EUR",  # a bound: a listing, not a count
    "number of invoices at Company B in 2025 (count)",  # the count word is there: only the marker goes
    "distinct suppliers' spend Company A 2025",
    "products bought from Beta by Company A in 2025",
    "suppliers that were approved for Company B",
    "spend of Company A in Q1 2026",
])
def test_other_asks_keep_their_words(text: str) -> None:
    out = count_asks(text)
    assert "number of number" not in out and out.count("number of") <= 1
    if "(count)" not in text:
        assert out == text


@pytest.mark.parametrize(("query", "read"), [
    ("select count(document_id) from invoices where company = 'Company A' group by status",
     "number of documents, company Company A by status"),
    ("select count(line_id) from invoices where year = 2025", "number of invoice lines, in 2025"),
    ("select count(distinct supplier_id) from invoices where year = 2025", "number of suppliers, in 2025"),
    ("select invoice_id from invoices where status = 'draft' and company = 'Company B'",
     "list the invoices, status draft, company Company B"),
    ("select distinct product_code from invoices where company_id = COMP-B and year = 2025",
     "distinct products, company COMP-B, in 2025"),
])
def test_sql_selects_name_what_they_count_or_list(query: str, read: str) -> None:
    assert keyword_style(query) == read


def test_a_remark_on_some_documents_is_no_status_column() -> None:
    assert status_table("how many invoices per status? a couple were cancelled I think")[0] == (
        "draft", "posted", "paid", "cancelled")
    assert status_table("invoices per status, cancelled ones excluded")[0] == ("draft", "posted", "paid")


@pytest.mark.parametrize(("question", "metric", "types"), [
    ("nbr of credit notes Company A 2025", "finance.invoice_count", ["credit_note"]),
    ("Company A invoices 2025 #", "finance.invoice_count", ["invoice"]),
    ("count pls: invoices booked for Company A in 2025", "finance.invoice_count", ["invoice"]),
    ("number of vendor invoices Company A 2025 (no credit notes)", "finance.invoice_count", ["invoice"]),
    ("invoice line items Company A 2025", "finance.invoice_line_count", None),
])
def test_terse_counts_are_counts(question: str, metric: str, types: list[str] | None) -> None:
    steps = _metric_steps(question)
    assert steps and steps[0]["metric"] == metric, (question, steps)
    params = steps[0]["parameters"]
    assert params["company_id"] == "COMP-A" and params["start_date"] == "2025-01-01"
    if types is not None:
        assert params["document_types"] == types


def test_the_lines_of_both_document_types_are_counted_together() -> None:
    steps = _metric_steps("line count Company A invoice lines + credit note lines 2025")
    assert steps[0]["metric"] == "finance.invoice_line_count"
    # (no document type given: the metric's default, both types)
    assert sorted(steps[0]["parameters"].get("document_types") or ["invoice", "credit_note"]) == [
        "credit_note", "invoice"]


def test_distinct_entities_are_the_purchase_listing() -> None:
    result = _routed("unique vendors Company A 2025")
    assert not result.requires_clarification, result.clarification_question
    assert "by supplier" in (result.interpretation or ""), result.interpretation


def test_the_listing_answer_says_how_many_members_it_lists() -> None:
    import uuid

    from router.answer import compose
    from router.executor import RunResult, StepOutcome
    from router.tools import SpendBreakdownRow, SpendResponse

    question = "unique vendors Company A 2025"
    routed = _routed(question)
    step = next(s for s in routed.execution_plan if s.tool.startswith("finance."))
    spend = SpendResponse(
        metric=step.tool, status="complete", total_spend="30.00", currency="EUR", matched_line_count=3,
        requested_supplier_ids=(), calculated_supplier_ids=(), missing_supplier_ids=(), product_codes=None,
        source_line_ids=(), source_line_count=0, sources_truncated=False, policy={}, parameters={},  # type: ignore[arg-type]
        breakdown=tuple(SpendBreakdownRow(dimension="supplier_id", key=k, total_spend=v, matched_line_count=1)
                        for k, v in (("SUP-22", "10.00"), ("SUP-35", "20.00"))))
    run = RunResult(run_id=uuid.uuid4())
    for s in routed.execution_plan:
        output = spend if s is step else None
        run.outcomes[s.step_id] = StepOutcome(s.step_id, s.tool, "ok", 1, {}, output, None, 1)
    answer = compose(routed, run)
    assert "By supplier (2 suppliers): SUP-22 10.00 EUR" in answer.text, answer.text


def test_a_quantity_of_products_is_no_count_of_products() -> None:
    # "qty of products" asks units bought; only documents and lines are counted by "qty of"
    assert "number of" not in count_asks("Company B: qty of products bought from Beta in 2025")
