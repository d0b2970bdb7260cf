"""Document-type phrases (no database): every wording of "invoices only", "credit notes only" and "both", with
negations, parentheses, dashes and German, read to the document types they mean, and carried into the governed
metric the question names (spend, invoice count, line count, vendor count), never answered as "credit notes only"
when the credit notes are left out or taken along. A metamorphic suite combines the phrases with measures,
statuses, suppliers and periods and asserts the governed call."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.analysis import document_type_scope, parse_filters
from router.counts import document_types
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, FAST, GAZETTEER, METRICS, PERIODS, SUPPLIERS
from tests.unit.test_router_rankings_counts import CATALOG

INVOICE = ("invoice",)
CREDIT = ("credit_note",)
BOTH = ("invoice", "credit_note")
PHRASES = [
    ("(invoices only, no credit notes)", INVOICE), ("- invoices only, no credit notes", INVOICE),
    (", leave the credit notes out", INVOICE), ("(ignore credit notes)", INVOICE),
    (", invoices only (ignore credit notes)", INVOICE), ("excluding credit notes", INVOICE),
    ("excl. credit notes", INVOICE), ("without credit notes", INVOICE), ("(credit notes excluded)", INVOICE),
    ("- credit notes left out", INVOICE), (", not counting credit notes", INVOICE),
    (", credit notes not included", INVOICE), ("(no credit notes)", INVOICE), ("invoices only", INVOICE),
    ("- just the invoices", INVOICE), (", disregarding credit notes", INVOICE), ("w/o credit notes", INVOICE),
    (", credit memos excluded", INVOICE), ("ohne Gutschriften", INVOICE), ("nur Rechnungen", INVOICE),
    ("(invoices and credit notes)", BOTH), ("- invoices and credit notes", BOTH), (", credit notes netted in", BOTH),
    ("net of credit notes", BOTH), ("including credit notes", BOTH), ("incl. credit notes", BOTH),
    ("(invoices & credit notes)", BOTH), ("(invoices plus credit notes)", BOTH), (", with credit notes netted", BOTH),
    (", credit notes included", BOTH), ("after credit notes", BOTH), ("Rechnungen und Gutschriften", BOTH),
    ("inkl. Gutschriften", BOTH), (", credit notes deducted", BOTH), ("(invoices/credit notes)", BOTH),
    ("(credit notes only)", CREDIT), ("- credit notes only", CREDIT), (", only credit notes", CREDIT),
    ("nur Gutschriften", CREDIT), ("- just the credit notes", CREDIT),
]


@pytest.mark.parametrize(("phrase", "types"), PHRASES)
def test_document_type_phrases_are_read(phrase: str, types: tuple[str, ...]) -> None:
    assert document_type_scope(f"Company A spend in Q1 2026 {phrase}")[0] == types
    # both types are the default of every governed figure: the spend reader adds no filter for them
    assert parse_filters(f"Company A spend in Q1 2026 {phrase}")[1] == (None if types == BOTH else types)


@pytest.mark.parametrize(("text", "types"), [
    ("how many invoices (credit notes excluded)", INVOICE), ("how many credit notes", CREDIT),
    ("number of invoices and credit notes", BOTH), ("how many documents, credit notes netted in", BOTH),
    ("number of invoices", INVOICE),
])
def test_the_count_reads_the_same_phrases(text: str, types: tuple[str, ...]) -> None:
    assert document_types(text) == types


def test_no_document_type_named() -> None:
    assert document_type_scope("Company A spend in Q1 2026")[0] is None
    # "paid invoices only" restricts the status, not the document type
    assert document_type_scope("Company A paid invoices only in Q1 2026")[0] is None


def call(question: str) -> tuple[str, dict[str, Any]]:
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next((s for s in result.execution_plan if s.tool == "metrics.query"), None)
    if step is None:  # the plain spend workflow: every document type, the default
        return "finance.company_spend", {"plan": [s.arguments for s in result.execution_plan]}
    return step.arguments["metric"], step.arguments["parameters"]


MEASURES = {
    "spend": ("finance.company_spend", "What did Company A spend{s} {p} {d}?"),
    "lines": ("finance.invoice_line_count", "How many invoice lines did Company A book{s} {p} {d}?"),
    "paid_lines": ("finance.invoice_line_count", "Company A: number of paid line items{s} {p} {d}"),
    "vendors": ("finance.supplier_count", "Company A - number of distinct vendors {p} {d}"),
}


@FAST
@given(measure=st.sampled_from(sorted(MEASURES)), phrase=st.sampled_from(PHRASES),
       period=st.sampled_from(PERIODS), supplier=st.sampled_from([None, *sorted(SUPPLIERS)]))
def test_document_types_reach_the_governed_call(measure: str, phrase: tuple[str, tuple[str, ...]],
                                                period: tuple[str, str, str], supplier: str | None) -> None:
    metric, template = MEASURES[measure]
    if measure == "vendors":
        supplier = None
    s = f" with {SUPPLIERS[supplier][0]}" if supplier else ""
    question = template.format(s=s, p=period[0], d=phrase[0])
    got_metric, params = call(question)
    if not (measure == "spend" and supplier):  # one supplier under a filter is its row of the ranking
        assert got_metric == metric, question
    assert tuple(params.get("document_types", BOTH)) == phrase[1], question
    assert str(params) .count(period[1]) and str(params).count(period[2]), question
    if measure == "paid_lines":
        assert params["invoice_statuses"] == ["paid"], question


@pytest.mark.parametrize("phrase", ["incl. VAT", "including VAT", "VAT included", "inclusive of tax"])
def test_spend_including_vat_is_the_spend(phrase: str) -> None:
    """Spend is net + tax already: "incl. VAT" restates the basis, it asks for no tax figure."""
    result = route(f"Company A spend with Supplier Beta in Q4 2025 {phrase}",
                   RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))
    assert not result.requires_clarification and result.workflow != "unsupported", phrase
    assert all(s.tool != "metrics.query" or "tax" not in s.arguments["metric"] for s in result.execution_plan)


@pytest.mark.parametrize("question", ["Company A draft invoices total in 2025",
                                      "Company B total of draft invoices in Q1 2026"])
def test_draft_totals_are_served_over_drafts(question: str) -> None:
    """Drafts asked for by name: the governed metric over exactly the drafts, never posted+paid."""
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))
    assert not result.requires_clarification, result.clarification_question
    assert tuple(result.constraints.invoice_status) == ("draft",)


def test_cancelled_totals_are_served_over_cancelled_documents() -> None:
    """Cancelled invoices asked for by name: the governed metric over exactly those documents (labelled, never
    spend), no longer a clarification."""
    result = route("Company A cancelled invoices total in 2025",
                   RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))
    assert result.workflow == "status_documents", result.clarification_question
    calls = [s.arguments for s in result.execution_plan if s.tool == "metrics.query"]
    assert {c["metric"] for c in calls} == {"finance.cancelled_draft_invoices"}
    assert all(c["parameters"]["invoice_statuses"] == ["cancelled"] for c in calls)
