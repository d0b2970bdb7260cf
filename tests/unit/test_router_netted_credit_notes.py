"""A spend figure "after" a credit note: "After credit note CN-2026-0011, what is Company B's net spend with Supplier
Beta for Q1 2026?", "... total spend ... after that credit note": the period's governed spend with credit notes
netted in (never the credit notes only, never a clarification), and a named credit note's place in the figure's
scope checked and said. Over every cue, number, company, supplier and period. No database."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.executor import StepOutcome
from router.netted_documents import NETTED_STEP, netted_sentence
from tests.unit.test_router_analysis import FAST, PERIODS, routed

_NAMED = ("After credit note {n}, what is {c}'s net spend with {s} {p}?",
          "After credit note {n}, what is {c}'s spend with {s} {p}?",
          "{c} spend with {s} {p}, net of {n}",
          "What did {c} spend with {s} {p} after {n}?")
_THAT = ("what is {c}'s total spend with {s} {p} after that credit note?",
         "{c}'s spend with {s} {p} after the credit note")
_COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"))
_SUPPLIERS = (("Supplier Beta", "SUP-18"), ("Gamma", "SUP-27"))
_NUMBERS = ("CN-2026-0011", "CN-2025-0502", "CN-2026-0500")


@given(st.sampled_from(_NAMED), st.sampled_from(_COMPANIES), st.sampled_from(_SUPPLIERS), st.sampled_from(PERIODS),
       st.sampled_from(_NUMBERS))
@FAST
def test_a_figure_after_a_named_credit_note_is_the_netted_spend_with_the_note_checked(
        template: str, company: tuple[str, str], supplier: tuple[str, str], period: tuple[str, str, str],
        number: str) -> None:
    words, start, end = period
    question = template.format(n=number, c=company[0], s=supplier[0], p=words)
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    steps = {s.step_id: s for s in result.execution_plan}
    check = steps[NETTED_STEP].arguments["parameters"]
    assert check["invoice_numbers"] == [number] and check["supplier_ids"] == [supplier[1]]
    assert (check["company_id"], check["start_date"], check["end_date"]) == (company[1], start, end)
    figure = steps.get("calculate-spend") or steps.get("net-spend") or steps["document-amounts"]
    args = figure.arguments.get("parameters") or figure.arguments
    assert "credit_note" in (args.get("document_types") or ["credit_note"])  # netted in, never left out
    assert (args["start_date"], args["end_date"]) == (start, end)


@given(st.sampled_from(_THAT), st.sampled_from(_COMPANIES), st.sampled_from(_SUPPLIERS), st.sampled_from(PERIODS))
@FAST
def test_after_that_credit_note_nets_the_credit_notes_in(
        template: str, company: tuple[str, str], supplier: tuple[str, str], period: tuple[str, str, str]) -> None:
    result = routed(template.format(c=company[0], s=supplier[0], p=period[0]))
    assert not result.requires_clarification, result.clarification_question
    for step in result.execution_plan:
        params = step.arguments.get("parameters") or step.arguments
        assert params.get("document_types") in (None, ["invoice", "credit_note"]), step.arguments


def test_a_credit_note_left_out_stays_the_named_document_path() -> None:
    result = routed("Company A spend with Gamma in Q1 2026 without CN-2026-0011")
    assert result.requires_clarification


def _outcome(rows: tuple[dict[str, Any], ...], numbers: list[str]) -> StepOutcome:
    from router.tools import MetricToolResponse
    out = MetricToolResponse(metric="finance.document_amounts", status="complete" if rows else "no_data",
                             currency="EUR", outputs={}, values=dict(rows[0]) if len(rows) == 1 else {},
                             rows=rows if len(rows) > 1 else (), matched_line_count=len(rows), source_line_ids=(),
                             source_line_count=0, sources_truncated=False, policy={}, parameters={})
    return StepOutcome(NETTED_STEP, "metrics.query", "ok", 1, {"parameters": {"invoice_numbers": numbers}}, out,
                       None, 0.0)


@pytest.mark.parametrize("found", [0, 1, 2])
def test_the_sentence_says_which_notes_are_in_the_scope(found: int) -> None:
    numbers = ["CN-2026-0011", "CN-2026-0012"]
    rows = tuple({"invoice_number": n, "invoice_date": "2026-03-02", "supplier_id": "SUP-44"} for n in numbers[:found])
    text = netted_sentence(_outcome(rows, numbers))
    for i, n in enumerate(numbers):
        assert (f"{n} (dated 2026-03-02" in text) == (i < found)
        assert (f"{n} is not among" in text) == (i >= found)
