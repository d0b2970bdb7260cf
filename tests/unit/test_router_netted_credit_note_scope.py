"""A spend figure "after" a credit note, scoped by suppliers, product groups and products: the check step reads the
figure's own supplier filter (a reference to another step passed through, never turned into a list), a product or
group filter the check cannot cover is said, and the credit note's amount shown beside the figure passes the
validator while the figure itself is still required. Over company, supplier, group, period and amounts. No
database (the cited-sources check, which reads the database, is stubbed)."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.contract import Ref
from router.executor import RunResult, StepOutcome
from router.netted_documents import NETTED_STEP, PRODUCTS_UNCHECKED, netted_amounts, netted_sentence
from router.tools import MetricToolResponse, SpendResponse
from tests.unit.test_router_analysis import FAST, PERIODS, routed

_COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"))
_SUPPLIERS = (("Supplier Gamma", "SUP-27"), ("Beta", "SUP-18"), ("Supplier Delta", "SUP-31"))
_GROUPS = ("sensors", "pressure sensors", "control equipment", "Temperature Sensors", "consumables")
_WITH_SUPPLIER = ("After credit note {n}, what is {c}'s spend on {g} with {s} {p}?",
                  "What did {c} spend on {g} with {s} {p} after {n}?")
_WITHOUT_SUPPLIER = ("After credit note {n}, what is {c}'s spend on {g} {p}?",
                     "{c} spend on {g} {p}, net of {n}")
_NUMBERS = ("CN-2026-0009", "CN-2025-0502", "CN-2026-0500")


def _check(result: Any) -> Any:
    assert not result.requires_clarification, result.clarification_question
    return next(s for s in result.execution_plan if s.step_id == NETTED_STEP)


@given(st.sampled_from(_WITH_SUPPLIER), st.sampled_from(_COMPANIES), st.sampled_from(_SUPPLIERS),
       st.sampled_from(_GROUPS), st.sampled_from(PERIODS), st.sampled_from(_NUMBERS))
@FAST
def test_a_group_and_supplier_figure_checks_the_note_under_the_figures_own_suppliers(
        template: str, company: tuple[str, str], supplier: tuple[str, str], group: str,
        period: tuple[str, str, str], number: str) -> None:
    words, start, end = period
    result = routed(template.format(n=number, c=company[0], s=supplier[0], g=group, p=words))
    check = _check(result)
    params = check.arguments["parameters"]
    assert (params["invoice_numbers"], params["company_id"]) == ([number], company[1])
    assert (params["start_date"], params["end_date"]) == (start, end)
    figure = next(s for s in result.execution_plan if s.step_id == "calculate-spend")
    ours, theirs = params["supplier_ids"], figure.arguments["supplier_ids"]
    # the same supplier scope as the figure: the same reference, or the same ids
    assert ours == theirs if isinstance(theirs, Ref) else ours == list(theirs)
    if isinstance(ours, Ref):
        assert ours.ref in check.depends_on
    else:
        assert all(isinstance(x, str) for x in ours) and supplier[1] in ours
    assert PRODUCTS_UNCHECKED in result.rule_hits  # the group is not covered by the check, which is said


@given(st.sampled_from(_WITHOUT_SUPPLIER), st.sampled_from(_COMPANIES), st.sampled_from(_GROUPS),
       st.sampled_from(PERIODS), st.sampled_from(_NUMBERS))
@FAST
def test_a_group_figure_without_a_supplier_says_the_products_were_not_checked(
        template: str, company: tuple[str, str], group: str, period: tuple[str, str, str], number: str) -> None:
    result = routed(template.format(n=number, c=company[0], g=group, p=period[0]))
    params = _check(result).arguments["parameters"]
    assert params["company_id"] == company[1] and "product_codes" not in params
    assert PRODUCTS_UNCHECKED in result.rule_hits


@given(st.sampled_from(_COMPANIES), st.sampled_from(_SUPPLIERS), st.sampled_from(PERIODS))
@FAST
def test_a_plain_figure_is_not_flagged_as_product_limited(
        company: tuple[str, str], supplier: tuple[str, str], period: tuple[str, str, str]) -> None:
    result = routed(f"After credit note CN-2026-0009, what is {company[0]}'s spend with {supplier[0]} {period[0]}?")
    assert _check(result).arguments["parameters"]["supplier_ids"] == [supplier[1]]
    assert PRODUCTS_UNCHECKED not in result.rule_hits


def _note(number: str, net: str, supplier: str) -> dict[str, Any]:
    tax = str(Decimal(net) * Decimal("0.19"))
    return {"invoice_number": number, "invoice_date": "2026-03-27", "supplier_id": supplier, "net_amount": net,
            "tax_amount": tax, "gross_amount": str(Decimal(net) + Decimal(tax)), "currency": "EUR"}


def _netted(rows: tuple[dict[str, Any], ...], numbers: list[str], currency: str = "EUR") -> StepOutcome:
    out = MetricToolResponse(metric="finance.document_amounts", status="complete" if rows else "no_data",
                             currency=currency,
                             outputs={k: {"unit": currency} for k in ("net_amount", "tax_amount", "gross_amount")},
                             values=dict(rows[0]) if len(rows) == 1 else {}, rows=rows if len(rows) > 1 else (),
                             matched_line_count=len(rows), source_line_ids=(), source_line_count=0,
                             sources_truncated=False, policy={}, parameters={"invoice_numbers": numbers})
    return StepOutcome(NETTED_STEP, "metrics.query", "ok", 1, {"parameters": {"invoice_numbers": numbers}}, out,
                       None, 0.0)


@pytest.mark.parametrize("unchecked", [False, True])
@pytest.mark.parametrize(("net", "supplier"), [("-1250.0000000000", "SUP-27"), ("-237.4950000000", "SUP-18"),
                                               ("-10000.1000000000", "SUP-31")])
def test_the_shown_note_amount_is_its_rounded_net_and_the_product_gap_is_said(
        net: str, supplier: str, unchecked: bool) -> None:
    outcome = _netted((_note("CN-2026-0009", net, supplier),), ["CN-2026-0009"])
    text = netted_sentence(outcome, (PRODUCTS_UNCHECKED,) if unchecked else ())
    cents = str(Decimal(net).quantize(Decimal("0.01")))
    assert f"net {cents} EUR" in text and (cents, "EUR") in netted_amounts(outcome.output)
    assert ("is included in it" in text) == (not unchecked)
    assert ("was not checked" in text) == unchecked


def test_a_check_that_did_not_run_still_names_the_planned_note() -> None:
    skipped = StepOutcome(NETTED_STEP, "metrics.query", "skipped", 0, None, None, "upstream found nothing", 0.0)
    assert "Whether CN-2026-0009 lies" in netted_sentence(skipped, (), ("CN-2026-0009",))


@pytest.mark.parametrize(("company", "supplier", "total", "net"), [
    ("COMP-A", "SUP-27", "97267.59", "-1250.0000000000"), ("COMP-B", "SUP-18", "31208.99", "-237.5000000000"),
    ("COMP-A", "SUP-31", "0.50", "-0.4990000000")])
def test_the_validator_takes_the_note_as_optional_and_still_requires_the_figure(
        monkeypatch: pytest.MonkeyPatch, company: str, supplier: str, total: str, net: str) -> None:
    import router.answer as answer_mod
    from router.answer import Answer, validate_answer

    monkeypatch.setattr(answer_mod, "_missing_sources", lambda *_: [])
    result = routed(f"After credit note CN-2026-0009, what is {'Company A' if company == 'COMP-A' else 'Company B'}'s "
                    f"spend with {dict((s, n) for n, s in _SUPPLIERS)[supplier]} in Q1 2026?")
    spend = SpendResponse(metric="finance.company_spend", status="complete", total_spend=total, currency="EUR",
                          matched_line_count=3, requested_supplier_ids=(supplier,),
                          calculated_supplier_ids=(supplier,), missing_supplier_ids=(), product_codes=None,
                          source_line_ids=(), source_line_count=0, sources_truncated=False, policy={},
                          parameters={"company_id": company, "supplier_ids": [supplier]})
    run = RunResult(uuid.uuid4(), {
        "calculate-spend": StepOutcome("calculate-spend", "finance.aggregate_spend", "ok", 1, {}, spend, None, 0.0),
        NETTED_STEP: _netted((_note("CN-2026-0009", net, supplier),), ["CN-2026-0009"])})
    note = netted_sentence(run.outcomes[NETTED_STEP])

    def passed(text: str) -> bool:
        ans = Answer(status="answered", text=text, result={"total_spend": total, "currency": "EUR"}, inputs={},
                     sources=())
        checks = {c.check: c for c in validate_answer(None, None, result, run, ans)}  # type: ignore[arg-type]
        return checks["displayed_amount_equals_tool_result"].passed

    assert passed(f"The total spend was {total} EUR.{note}")
    assert passed(f"The total spend was {total} EUR.")  # the note's amount may be left unsaid
    assert not passed(f"Nothing shown.{note}")  # the figure is still required
    wrong = str(Decimal(total) + Decimal("0.01"))
    assert not passed(f"The total spend was {wrong} EUR.{note}")  # and still checked
    stray = str(Decimal(net).quantize(Decimal("0.01")) - Decimal("0.01"))
    assert not passed(f"The total spend was {total} EUR. It was {stray} EUR.")  # only the note's own amount
