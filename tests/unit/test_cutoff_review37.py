"""Review 37: the cut-off list keeps every constraint the question reads. The invoice currency becomes the listing's
``document_currency``; draft / cancelled invoices (never posted, so no cut-off) are asked about, never replaced by
posted and paid ones; an exclusion or a currency the listing cannot apply is named. Seeded over companies,
months, currencies and phrasings; database-free."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

import pytest

from router.answer import compose
from router.executor import RunResult, StepOutcome
from router.tools import MetricToolResponse
from tests.unit.test_router_analysis import routed

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
COMPANIES = ["Company A", "Company B"]


def _periods(rng: random.Random) -> tuple[str, str]:
    start = dt.date(rng.choice([2024, 2025]), rng.randint(1, 11), 1)
    return f"{MONTHS[start.month - 1]} {start.year}", f"{MONTHS[start.month]} {start.year}"


def _listing(result: Any) -> dict[str, Any]:
    steps = [s for s in result.execution_plan if s.tool == "metrics.query"]
    assert len(steps) == 1, result.clarification_reasons
    return dict(steps[0].arguments["parameters"])


@pytest.mark.parametrize("seed", range(10))
def test_the_invoice_currency_is_the_document_currency(seed: int) -> None:
    rng = random.Random(seed)
    inv, post = _periods(rng)
    code, company = rng.choice(["USD", "GBP", "CHF"]), rng.choice(COMPANIES)
    template = rng.choice(["Which {c} {code} invoices dated in {inv} were posted in {post}?",
                           "Which invoices in {code} of {c} dated in {inv} were posted in {post}?",
                           "{c}: {code} invoices dated {inv} but posted in {post}, which ones?"])
    result = routed(template.format(c=company, code=code, inv=inv, post=post))
    params = _listing(result)
    assert params["document_currency"] == code
    assert params["reporting_currency"] == "EUR"
    plain = _listing(routed(f"Which {company} invoices dated in {inv} were posted in {post}?"))
    assert "document_currency" not in plain


@pytest.mark.parametrize("seed", range(10))
def test_never_posted_statuses_are_asked_about(seed: int) -> None:
    rng = random.Random(seed)
    inv, post = _periods(rng)
    status = rng.choice(["draft", "cancelled", "canceled"])
    template = rng.choice(["Which {s} invoices of {c} dated in {inv} were posted in {post}?",
                           "{c}: {s} invoices dated {inv} but posted in {post}",
                           "Which {c} {s} invoices dated in {inv} were only posted in {post}?"])
    result = routed(template.format(s=status, c=rng.choice(COMPANIES), inv=inv, post=post))
    assert result.requires_clarification
    assert not [s for s in result.execution_plan if s.tool == "metrics.query"]
    assert any("never posted" in r for r in result.clarification_reasons)


@pytest.mark.parametrize("seed", range(6))
def test_excluding_drafts_still_lists_posted_and_paid(seed: int) -> None:
    rng = random.Random(seed)
    inv, post = _periods(rng)
    cue = rng.choice(["excluding drafts", "without drafts and cancelled", "drafts excluded"])
    params = _listing(routed(f"Which {rng.choice(COMPANIES)} invoices dated in {inv} were posted in {post}, {cue}?"))
    assert params["invoice_statuses"] == ["posted", "paid"]


@pytest.mark.parametrize("seed", range(6))
def test_constraints_the_listing_cannot_apply_are_named(seed: int) -> None:
    rng = random.Random(seed)
    inv, post = _periods(rng)
    company = rng.choice(COMPANIES)
    what = rng.choice([f"non-EUR invoices of {company}", f"{company} invoices excluding PRD-482",
                       f"{company} invoices except Beta", f"{company} invoices of Sensors"])
    result = routed(f"Which {what} dated in {inv} were posted in {post}?")
    assert result.requires_clarification, what
    assert any(r.startswith("cutoff:") for r in result.clarification_reasons)


def _composed(question: str, rows: tuple[dict[str, Any], ...], *, truncated: bool, status: str) -> Any:
    routing = routed(question)
    params = _listing(routing)
    response = MetricToolResponse(metric="finance.invoices_above_threshold", status=status,  # type: ignore[arg-type]
                                  currency="EUR", outputs={}, values={}, rows=rows, matched_line_count=len(rows),
                                  source_line_ids=(), source_line_count=0, sources_truncated=False,
                                  truncated=truncated, policy={}, parameters=params)
    run = RunResult(run_id=uuid.uuid4())
    run.outcomes["cutoff-listing"] = StepOutcome("cutoff-listing", "metrics.query", "ok", 1, {}, response, None, 1)
    return compose(routing, run)


@pytest.mark.parametrize("seed", range(8))
def test_a_list_cut_by_the_row_cap_is_partial(seed: int) -> None:
    rng = random.Random(seed)
    inv, post = _periods(rng)
    rows = tuple({"invoice_number": f"INV-{i:04d}", "company_id": "COMP-A", "supplier_id": "SUP-18",
                  "invoice_date": "2025-01-15", "posting_date": "2025-02-02",
                  "grand_total": f"{rng.randint(1, 9999)}.00", "line_count": 1} for i in range(rng.randint(1, 40)))
    question = f"Which {rng.choice(COMPANIES)} invoices dated in {inv} were posted in {post}?"
    truncated, status = rng.choice([(True, "complete"), (False, "partial"), (True, "partial")])
    cut = _composed(question, rows, truncated=truncated, status=status)
    assert cut.status == "partial" and cut.result["status"] == "partial", cut.text
    assert cut.text.startswith("PARTIAL RESULT")
    whole = _composed(question, rows, truncated=False, status="complete")
    assert whole.status == "answered" and whole.result["status"] == "complete"
    assert "PARTIAL" not in whole.text
