"""Invoices asked for by status, in ``ask``'s router (no database): the demo tenant's vocabulary as the gazetteer.

Cancelled and draft documents are never governed spend; asked for by name they are answered over exactly those
documents by ``finance.cancelled_draft_invoices`` (value, number, which ones), labelled. Open (posted, not yet
paid) and paid amounts are spend with that status; "which open invoices" is the governed invoice listing; "paid vs
posted, split by status" is spend grouped by ``invoice_status``. The metamorphic suite routes questions of
:mod:`evaluation.probes_status` (a seed that is neither its training nor its held-out seed) and requires the plan to
call exactly the governed metric with the slot values; the composer's text is checked on recorded tool results.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest

from evaluation.probes_status import KINDS, StatusProbe, probes
from procura.db.session import AuthContext
from procura.demo.masterdata import GROUP_SYNONYMS_DE, TENANT_42
from router.answer import compose
from router.contract import Ref, RoutingResult
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.executor import RunResult, StepOutcome
from router.reading import asked_statuses, catalog_metrics
from router.routing import RouterInputs, route
from router.tools import MetricToolResponse
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst", frozenset({"procurement:read", "invoice:aggregate"}))
GAZETTEER = Gazetteer.build(
    [Company(c.company_id, c.company_name, c.reporting_currency) for c in TENANT_42.companies],
    [(s.supplier_id, s.supplier_name) for s in TENANT_42.suppliers],
    [(a, s.supplier_id) for s in TENANT_42.suppliers for a in s.aliases],
    [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in TENANT_42.groups],
    [(syn, g.product_group_id) for g in TENANT_42.groups for syn in GROUP_SYNONYMS_DE.get(g.group_name, ())],
    [Product(p.product_code, p.product_name) for p in TENANT_42.products],
)
METRICS = catalog_metrics(shipped_registry())
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
STATUS = "finance.cancelled_draft_invoices"
SPEND = ("finance.company_spend", "finance.aggregate_spend")


def _route(question: str) -> RoutingResult:
    return route(question, INPUTS)


def _calls(result: RoutingResult) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(metric, parameters, group_by) of every governed call of the plan (spend tools included)."""
    found = []
    for step in result.execution_plan:
        args = dict(step.arguments)
        if step.tool == "metrics.query":
            found.append((args["metric"], dict(args["parameters"]), list(args.get("group_by") or [])))
        elif step.tool in SPEND:
            found.append((step.tool, {k: v for k, v in args.items() if k not in ("group_by", "grain")},
                          list(args.get("group_by") or [])))
    return found


def _spend(call: tuple[str, dict[str, Any], list[str]]) -> bool:
    """A spend figure: the spend metrics, or the ranking restricted to the one supplier named (the analyst
    metric that also takes document types and exclusions; its one row is that supplier's spend)."""
    metric, params, _ = call
    return metric in SPEND or (metric == "finance.spend_ranking" and len(params.get("supplier_ids") or ()) == 1)


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list) and isinstance(got, list | tuple):
        return sorted(map(str, got)) == sorted(map(str, want))
    return str(got) == str(want)


def _matches(result: RoutingResult, probe: StatusProbe) -> str | None:
    """Why the plan does not make the probe's governed calls (None when it does)."""
    if result.requires_clarification:
        return f"clarification: {result.clarification_question}"
    calls = _calls(result)
    for want in probe.calls:
        metric_ok = [c for c in calls if c[0] == want.metric or (want.metric in SPEND and _spend(c))]
        grouped = [c for c in metric_ok if c[2][: len(want.group_by)] == list(want.group_by)]
        if not grouped:
            return f"no call of {want.metric} grouped by {want.group_by}: {calls}"
        _, params, _ = grouped[0]
        for key, value in want.parameters.items():
            got = params.get(key)
            if key == "company_id" and (got is None or isinstance(got, Ref)):
                got = result.entities.company_id
            if key == "invoice_statuses" and got is None:
                got = ["posted", "paid"]
            if not _same(got, value):
                return f"{want.metric}.{key}: {got!r} != {value!r}"
        extra = {k for k in ("supplier_ids", "product_group_ids", "document_types", "exclude_supplier_ids")
                 if params.get(k) and k not in want.parameters}
        if extra - ({"document_types"} if params.get("document_types") in (["invoice", "credit_note"],) else set()):
            return f"{want.metric}: constraints the question did not name: {sorted(extra)}"
    return None


# --- the vocabulary ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "statuses"), [
    ("value of cancelled invoices", ("cancelled",)), ("canceled bills of Company A", ("cancelled",)),
    ("the voided invoices", ("cancelled",)), ("which invoices have been cancelled", ("cancelled",)),
    ("invoices that were cancelled", ("cancelled",)), ("how much of our spend is cancelled", ("cancelled",)),
    ("total of invoices still in draft", ("draft",)), ("invoices in draft status", ("draft",)),
    ("the drafts of Company A", ("draft",)), ("unposted invoices", ("draft",)), ("draft spend", ("draft",)),
    ("invoices not yet posted", ("draft",)), ("cancelled or draft invoices", ("cancelled", "draft")),
    ("draft and cancelled invoices", ("draft", "cancelled")),
    ("Company A spend in Q1", ()), ("open invoices", ()), ("paid invoices", ()), ("drafts of the agreement", ()),
    ("spend in Q4, cancelled invoices excluded", ()), ("drafts left out", ()), ("the cancellation terms", ()),
])
def test_the_statuses_governed_spend_never_counts(text: str, statuses: tuple[str, ...]) -> None:
    assert asked_statuses(text) == statuses


# --- the classes, generated ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_generated_status_questions_call_the_governed_metric_with_every_slot(kind: str) -> None:
    # Seed 3: neither the generator's training seed (1) nor its held-out seed (2).
    wrong = [(p.question, why) for p in probes(3, 25, (kind,)) if (why := _matches(_route(p.question), p))]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("question", [
    "Company A cancelled invoices in H2 2025 - how much?", "Xenon-free wording: sum of cancelled invoices for "
    "Company B since July 2025", "Company A 2025: how many invoices were cancelled and what were they worth?",
    "Wie viele stornierte Rechnungen hatte Company C im Jahr 2025?", "Summe der Rechnungen im Entwurf bei Company A "
    "im Q4 2025"])
def test_cancelled_and_draft_asks_are_planned_over_exactly_those_documents(question: str) -> None:
    result = _route(question)
    assert result.workflow == "status_documents", result.clarification_question
    metrics = {m for m, _, _ in _calls(result)}
    assert metrics == {STATUS}, metrics
    assert set(result.constraints.invoice_status) <= {"cancelled", "draft"}


def test_a_listing_without_a_period_covers_the_history_up_to_the_as_of_date() -> None:
    result = _route("which Beta invoices to Company A have been cancelled?")
    _, params, group_by = _calls(result)[1]
    assert (params["start_date"], params["end_date"]) == ("1990-01-01", "2026-05-16")
    assert group_by[0] == "invoice_number" and params["invoice_statuses"] == ["cancelled"]


def test_a_total_without_a_period_asks_for_it() -> None:
    result = _route("value of Company A's cancelled invoices")
    assert result.requires_clarification and "period" in (result.clarification_question or "")


@pytest.mark.parametrize(("question", "named"), [
    ("Company A cancelled invoices above 5,000 EUR in 2025", "amount"),
    ("Company A cancelled invoices in 2025 by product", "product"),
])
def test_what_the_status_metric_cannot_take_is_named(question: str, named: str) -> None:
    result = _route(question)
    assert result.requires_clarification and named in (result.clarification_question or ""), result


def test_spend_including_drafts_is_not_a_drafts_total() -> None:
    result = _route("Company A spend in Q1 2026 including draft invoices")
    assert result.workflow != "status_documents"


@pytest.mark.parametrize(("question", "statuses", "types"), [
    ("Company B spend posted but not yet paid, Q4 2025", ["posted"], None),
    ("Company A: open amount (posted, not yet paid) since Jan 2026, credit notes netted in", ["posted"], None),
    ("Company A open posted invoices from Gamma since July 2025, total (invoices only, no credit notes)", ["posted"],
     ["invoice"]),
    ("How much of Company A's spend in Q1 2026 is paid, invoices only?", ["paid"], ["invoice"]),
])
def test_open_and_paid_amounts_are_spend_with_that_status(question: str, statuses: list[str],
                                                          types: list[str] | None) -> None:
    call, *_ = _calls(_route(question))
    params = call[1]
    assert _spend(call) and params["invoice_statuses"] == statuses, call
    if types is None:  # both document types: no filter, or both named
        assert params.get("document_types") in (None, ["invoice", "credit_note"]), params
    else:
        assert params.get("document_types") == types, params


@pytest.mark.parametrize("question", ["company b - paid vs posted (unpaid) spend in Q3 2025, split by status",
                                      "Company A spend per status in Q4 2025",
                                      "Company A spend in Q4 2025, paid versus posted"])
def test_paid_vs_posted_is_spend_grouped_by_status(question: str) -> None:
    (metric, params, group_by), *_ = _calls(_route(question))
    assert metric in SPEND and group_by == ["invoice_status"], (metric, group_by)
    assert sorted(params.get("invoice_statuses") or ["posted", "paid"]) == ["paid", "posted"]


# --- the composed answer --------------------------------------------------------------------------------------------
def _response(metric: str, parameters: dict[str, Any], values: dict[str, Any], rows: tuple[dict[str, Any], ...] = (),
              lines: int = 4) -> MetricToolResponse:
    outputs: dict[str, dict[str, str | None]] = {"total_amount": {"type": "money", "unit": "EUR"},
                                                 "grand_total": {"type": "money", "unit": "EUR"}}
    return MetricToolResponse(metric=metric, status="complete" if lines else "no_data", currency="EUR",
                              outputs=outputs, values=values, rows=rows, matched_line_count=lines,
                              source_line_ids=(), source_line_count=0, sources_truncated=False, policy={},
                              parameters=parameters)


def _composed(question: str, outputs: dict[str, MetricToolResponse]) -> Any:
    routing = _route(question)
    run = RunResult(run_id=uuid.uuid4())
    for step, response in outputs.items():
        run.outcomes[step] = StepOutcome(step, "metrics.query", "ok", 1, {}, response, None, 1)
    return compose(routing, run)


def test_the_answer_names_the_status_count_value_and_documents_never_spend() -> None:
    params = {"company_id": "COMP-A", "invoice_statuses": ["cancelled"], "start_date": "2025-01-01",
              "end_date": "2026-01-01"}
    answer = _composed("Company A 2025: how many invoices were cancelled and what were they worth?", {
        "status-total": _response(STATUS, params, {"total_amount": "21014.35", "document_count": 1}),
        "status-documents": _response(STATUS, params, {}, ({"invoice_number": "INV-2025-0500", "supplier_id":
                                                            "SUP-31", "total_amount": "21014.35"},)),
    })
    assert answer.status == "answered"
    assert "1 cancelled invoice " in answer.text and "21014.35 EUR" in answer.text
    assert "INV-2025-0500" in answer.text and "not recognized spend" in answer.text
    assert answer.result["invoice_count"] == 1 and answer.result["invoice_numbers"] == ["INV-2025-0500"]


def test_no_cancelled_document_is_said_as_none() -> None:
    params = {"company_id": "COMP-C", "invoice_statuses": ["cancelled"], "start_date": "2025-01-01",
              "end_date": "2026-01-01"}
    answer = _composed("How many cancelled invoices did Company C have in 2025?", {
        "status-total": _response(STATUS, params, {"total_amount": "0", "document_count": 0}, lines=0),
        "status-documents": _response(STATUS, params, {}, (), lines=0),
    })
    assert answer.status == "no_data" and "no cancelled invoice" in answer.text


def test_one_listed_open_invoice_is_listed() -> None:
    params = {"company_id": "COMP-C", "invoice_statuses": ["posted"], "start_date": "2026-01-01",
              "end_date": "2026-04-01", "threshold": "0"}
    answer = _composed("Show me the open invoices of Company C in Q1 2026", {
        "status-listing": _response("finance.invoices_above_threshold", params, {
            "invoice_number": "INV-2026-0521", "invoice_date": "2026-03-01", "supplier_id": "SUP-60",
            "grand_total": "1594.57", "line_count": 2}),
    })
    assert answer.status == "answered" and answer.result["invoice_numbers"] == ["INV-2026-0521"]
    assert "1 open (posted, not yet paid) invoice" in answer.text and "1594.57 EUR" in answer.text
