"""Document counts per status and counts of one named status, in ``ask``'s router (no database): the demo tenant's
vocabulary as the gazetteer.

"How many invoices per status", "count the documents by status", "invoices by status", "Company C invoices 2026 -
how many in each status?": one governed count per status (``finance.invoice_count`` for draft, posted and paid,
``finance.cancelled_draft_invoices``' document count for cancelled) over the same selection, composed as a table
with its total. A status named after the word "status" ("in status draft", "with status paid") is applied; a status
no document has ("in status approved") is asked about, never dropped. A slashed day that reads the same both ways
("since 01/01/2025") is a period. The questions are generated from slots (seeded), never from an evaluation set.
"""

from __future__ import annotations

import datetime as dt
import random
import uuid
from typing import Any

import pytest

from procura.db.session import AuthContext
from procura.demo.masterdata import TENANT_42
from router.answer import compose
from router.contract import Ref, RoutingResult
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.executor import RunResult, StepOutcome
from router.periods import resolve_period
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.status_counts import STEP_PREFIX, status_table
from router.tools import MetricToolResponse
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst", frozenset({"procurement:read", "invoice:aggregate"}))
GAZETTEER = Gazetteer.build(
    [Company(c.company_id, c.company_name, c.reporting_currency) for c in TENANT_42.companies],
    [(s.supplier_id, s.supplier_name) for s in TENANT_42.suppliers],
    [(a, s.supplier_id) for s in TENANT_42.suppliers for a in s.aliases],
    [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in TENANT_42.groups],
    [],
    [Product(p.product_code, p.product_name) for p in TENANT_42.products],
)
METRICS = catalog_metrics(shipped_registry())
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
COUNT = "finance.invoice_count"
CANCELLED = "finance.cancelled_draft_invoices"

COMPANIES = (("Company A", "COMP-A"), ("Company B", "COMP-B"), ("Company C", "COMP-C"), ("COMP-B", "COMP-B"))
PERIODS = (("in 2025", "2025-01-01", "2026-01-01"), ("for year 2025", "2025-01-01", "2026-01-01"),
           ("in Q4 2025", "2025-10-01", "2026-01-01"), ("in Q1 2026", "2026-01-01", "2026-04-01"),
           ("for the full 2025", "2025-01-01", "2026-01-01"), ("since begin of 2026", "2026-01-01", "2026-05-16"),
           ("since 01/01/2026", "2026-01-01", "2026-05-16"), ("in march 2026", "2026-03-01", "2026-04-01"))
#: (template, document types): {c} company, {p} period.
ASKS = (
    ("For audit: number of invoices per status (draft, posted, paid, cancelled) for {c} {p}", ("invoice",)),
    ("Count the documents of {c} by status {p}", ("invoice", "credit_note")),
    ("{c}: how many invoices per status {p}?", ("invoice",)),
    ("{c} invoice count by status, {p}", ("invoice",)),
    ("Status overview (how many per status) of the invoices of {c} {p}", ("invoice",)),
    ("{c}, invoices by status {p}", ("invoice",)),
    ("{c}: breakdown of the number of invoices by status {p}", ("invoice",)),
    ("{c} invoices {p} - how many in each status?", ("invoice",)),
    ("how many documents per status does {c} have {p}", ("invoice", "credit_note")),
)


def _calls(result: RoutingResult) -> dict[str, tuple[str, dict[str, Any]]]:
    return {s.step_id: (str(s.arguments["metric"]), dict(s.arguments["parameters"]))
            for s in result.execution_plan if s.tool == "metrics.query"}


def _probes(seed: int, n: int) -> list[tuple[str, str, str, str, tuple[str, ...]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        (name, cid), (words, start, end), (template, types) = (rng.choice(COMPANIES), rng.choice(PERIODS),
                                                               rng.choice(ASKS))
        out.append((template.format(c=name, p=words), cid, start, end, types))
    return out


@pytest.mark.parametrize(("question", "company", "start", "end", "types"), _probes(7, 40))
def test_a_count_per_status_calls_each_status_count_with_every_slot(question: str, company: str, start: str,
                                                                     end: str, types: tuple[str, ...]) -> None:
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = _calls(result)
    assert set(calls) == {f"{STEP_PREFIX}{s}" for s in ("draft", "posted", "paid", "cancelled")}, (question, calls)
    for step, (metric, params) in calls.items():
        status = step[len(STEP_PREFIX):]
        assert metric == (CANCELLED if status == "cancelled" else COUNT), (question, step, metric)
        assert params["invoice_statuses"] == [status]
        got = params.get("company_id")
        assert (result.entities.company_id if got is None or isinstance(got, Ref) else got) == company, question
        assert (params["start_date"], params["end_date"]) == (start, end), (question, params)
        assert tuple(params["document_types"]) == types, (question, params)


def test_the_statuses_listed_are_the_columns() -> None:
    assert status_table("per status (posted, paid)")[0] == ("posted", "paid")
    assert status_table("number of invoices by status")[0] == ("draft", "posted", "paid", "cancelled")


def _response(metric: str, parameters: dict[str, Any], values: dict[str, Any], lines: int) -> MetricToolResponse:
    outputs: dict[str, dict[str, str | None]] = {"total_amount": {"type": "money", "unit": "EUR"}}
    return MetricToolResponse(metric=metric, status="complete" if lines else "no_data", currency="EUR",
                              outputs=outputs if metric == CANCELLED else {}, values=values, rows=(),
                              matched_line_count=lines, source_line_ids=(), source_line_count=0,
                              sources_truncated=False, policy={}, parameters=parameters)


def test_the_table_has_every_status_and_the_exact_total() -> None:
    question = "Count the documents of Company B by status for year 2025"
    routing = route(question, INPUTS)
    run = RunResult(run_id=uuid.uuid4())
    counts = {"draft": 0, "posted": 10, "paid": 3, "cancelled": 2}
    for step, (metric, params) in _calls(routing).items():
        status = step[len(STEP_PREFIX):]
        values = {"invoice_count": counts[status]} if metric == COUNT else \
            {"document_count": counts[status], "total_amount": "44132.83"}
        run.outcomes[step] = StepOutcome(step, "metrics.query", "ok", 1, {}, _response(metric, params, values, 4),
                                         None, 1)
    answer = compose(routing, run)
    assert answer.status == "answered", answer.text
    assert "draft: 0; posted: 10; paid: 3; cancelled: 2; total: 15 documents" in answer.text
    assert "never spend" in answer.text and "44132.83 EUR" in answer.text
    assert answer.result["total_document_count"] == 15


@pytest.mark.parametrize(("phrase", "statuses"), [
    ("in status draft", ("draft",)), ("with status 'draft'", ("draft",)), ("in status paid", ("paid",)),
    ("with status: paid", ("paid",)), ("in status posted", ("posted",)), ("with status cancelled", ("cancelled",)),
])
@pytest.mark.parametrize("company", ["Company A", "Company C"])
def test_a_status_named_after_the_word_status_is_applied(phrase: str, statuses: tuple[str, ...],
                                                         company: str) -> None:
    result = route(f"How many invoices {phrase} has {company} for 2025?", INPUTS)
    assert not result.requires_clarification, result.clarification_question
    asked = {tuple(p.get("invoice_statuses") or ()) for _, p in _calls(result).values()}
    assert asked == {statuses}, (phrase, asked)


@pytest.mark.parametrize("word", ["approved", "booked", "pending"])
def test_a_status_no_document_has_is_asked_about(word: str) -> None:
    result = route(f"How many invoices in status {word} has Company A for 2025?", INPUTS)
    assert result.requires_clarification and word in (result.clarification_question or ""), result


@pytest.mark.parametrize(("text", "start"), [("since 01/01/2025", "2025-01-01"), ("since 1/1/2026", "2026-01-01"),
                                             ("since 05/05/2025", "2025-05-05")])
def test_a_slashed_day_that_reads_the_same_both_ways_is_a_start(text: str, start: str) -> None:
    period = resolve_period(f"how many credit notes {text}", AS_OF).time_range
    assert period is not None and period.start.isoformat() == start and period.end == AS_OF + dt.timedelta(days=1)


def test_a_slashed_day_that_reads_two_ways_stays_unread() -> None:
    assert resolve_period("how many credit notes since 01/04/2025", AS_OF).time_range is None


@pytest.mark.parametrize(("question", "second"), [
    ("Company A sensor spend q4 25 vs q1 26, plus # sensor suppliers", "from 2025-10-01 through 2026-03-31"),
    ("Company B spend H1 2025 vs H2 2025, plus number of invoices", "from 2025-01-01 through 2025-12-31"),
    # (k5 carries a period as its days, as the two cases above: the same Q1 2026)
    ("Company C spend in Q1 2026, plus # invoices", "from 2026-01-01 through 2026-03-31"),
])
def test_a_count_beside_a_comparison_takes_both_adjoining_periods(question: str, second: str) -> None:
    from router.compound import split_asks
    from router.reader import read

    parts = split_asks(question, lambda t: read(t, GAZETTEER, AS_OF, METRICS))
    assert len(parts) == 2, parts
    assert second in parts[1].question, parts[1]


def test_invoices_split_across_statuses_is_a_count_per_status() -> None:
    question = "how Company C's Q1 2026 invoices split across the statuses - counts please"
    calls = _calls(route(question, INPUTS))
    assert set(calls) == {f"{STEP_PREFIX}{s}" for s in ("draft", "posted", "paid", "cancelled")}, calls
