"""Review 37 of the overdue reading (router/overdue.py): a negated overdue word is asked about, never answered
with the overdue list; a question about what a document says of overdue payments goes to the document search;
constraints the governed listing does not take are named, never dropped; a truncated or partial listing gives a
partial answer; an as-at day in the past says the status is today's (no database: routed in memory).

Each case varies the slot (seeded): the company spelling, the negation or document wording, the constraint.
"""

from __future__ import annotations

import datetime as dt
import random
import types
from decimal import Decimal
from typing import Any

import pytest

from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

COMPANIES = ("Company A", "company a", "COMP-A")


def _routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


@pytest.mark.parametrize("seed", range(8))
def test_a_negated_overdue_word_is_asked_about(seed: int) -> None:
    rng = random.Random(370 + seed)
    company = rng.choice(COMPANIES)
    words = rng.choice(["not yet overdue", "not overdue", "not past due", "not yet past due"])
    frame = rng.choice(["{c} open invoices that are {w}", "Which invoices of {c} are {w}?",
                        "List the invoices of {c} which are {w} today"])
    result = _routed(frame.format(c=company, w=words))
    assert result.requires_clarification, (frame, words)
    assert words in (result.clarification_question or ""), result.clarification_question
    assert result.workflow != "overdue_invoices"


@pytest.mark.parametrize("seed", range(8))
def test_what_a_document_says_of_overdue_payments_is_no_listing(seed: int) -> None:
    rng = random.Random(470 + seed)
    company = rng.choice(COMPANIES)
    frame = rng.choice(["What does the agreement of {c} say about overdue invoices?",
                        "What interest is charged on overdue payments under the {c} agreement?",
                        "What does the {c} contract state about past due invoices?",
                        "Which penalty applies to overdue invoices in the agreement of {c}?",
                        "What happens under the {c} contract terms when an invoice is overdue?"])
    result = _routed(frame.format(c=company))
    assert result.workflow != "overdue_invoices", frame
    assert not any(h.startswith("overdue:") for h in result.rule_hits), (frame, result.rule_hits)


@pytest.mark.parametrize("seed", range(6))
def test_a_plain_overdue_question_still_lists(seed: int) -> None:
    rng = random.Random(570 + seed)
    company = rng.choice(COMPANIES)
    frame = rng.choice(["Which invoices of {c} are overdue?", "How many invoices of {c} are overdue today?",
                        "Which invoices of {c} are overdue under the payment terms of the agreement?"])
    result = _routed(frame.format(c=company))
    assert result.workflow == "overdue_invoices", (frame, result.clarification_question)


@pytest.mark.parametrize("seed", range(10))
def test_a_constraint_the_listing_does_not_take_is_named(seed: int) -> None:
    rng = random.Random(670 + seed)
    company = rng.choice(COMPANIES)
    frame, named = rng.choice([
        ("Which {g} invoices of {c} are overdue?", "product group"),
        ("Which invoices of {c} are overdue, excluding Supplier Beta?", "exclusion"),
        ("Which overdue {cur} invoices does {c} have?", "invoice currency"),
        ("Which invoices of {c} over EUR {n:,} are overdue?", "amount"),
        ("How many invoices of {c} above {n} EUR are past due?", "amount"),
        ("Which {st} invoices of {c} are overdue?", "status"),
    ])
    question = frame.format(c=company, g=rng.choice(["sensors", "Control Cabinets", "consumables"]),
                            cur=rng.choice(["USD", "GBP", "CHF"]), n=rng.choice([500, 5000, 12000]),
                            st=rng.choice(["paid", "draft", "cancelled"]))
    result = _routed(question)
    assert result.requires_clarification, question
    assert named in (result.clarification_question or ""), (question, result.clarification_question)
    assert result.workflow != "overdue_invoices"


@pytest.mark.parametrize("seed", range(6))
def test_the_constraints_the_listing_takes_still_list(seed: int) -> None:
    rng = random.Random(770 + seed)
    company = rng.choice(COMPANIES)
    question = rng.choice(["Which open invoices of {c} are overdue?", "Total overdue amount of {c} in EUR",
                           "Which invoices of {c} from Supplier Beta are overdue?",
                           "How many posted invoices of {c} are past due?"]).format(c=company)
    result = _routed(question)
    assert result.workflow == "overdue_invoices", (question, result.clarification_question)


# -- composing: truncated or partial listings, a past as-at day, invoices before the term took effect ------------
def _response(metric: str, rows: list[dict[str, Any]], params: dict[str, Any], *, truncated: bool = False,
              status: str = "complete") -> Any:
    from router.tools import MetricToolResponse

    return MetricToolResponse(metric=metric, status=status, currency="EUR", outputs={}, values={}, rows=tuple(rows),
                              matched_line_count=len(rows), source_line_ids=(), source_line_count=0,
                              sources_truncated=False, truncated=truncated, policy={}, parameters=params)


def _compose(rows: list[dict[str, Any]], *, measure: str, day: dt.date, today: dt.date, truncated: bool = False,
             status: str = "complete", valid_from: str = "2025-01-01") -> Any:
    from router.answer import _Draft
    from router.overdue import OVERDUE_METRIC, TERMS_METRIC, _compose_overdue

    term = {"agreement_id": "agreement-2025-01", "agreement_version": 1, "term_days": 30, "valid_from": valid_from,
            "valid_to": None, "clause": "6.1", "sentence": "Payment is due 30 days net."}
    outcomes = {
        "payment-terms": types.SimpleNamespace(status="ok", output=_response(TERMS_METRIC, [term],
                                                                             {"company_id": "COMP-A"})),
        "overdue-invoices": types.SimpleNamespace(status="ok", output=_response(
            OVERDUE_METRIC, rows, {"company_id": "COMP-A"}, truncated=truncated, status=status))}
    routing = types.SimpleNamespace(rule_hits=(f"overdue:{measure}:0:{day.isoformat()}",), as_of=today)
    d = _Draft(routing=routing, run=types.SimpleNamespace(outcomes=outcomes), shown=[], metrics=[], spend=None,  # type: ignore[arg-type]
               vendors=None, products=None, failures=[], citations=[], sources=(), period=None, period_text="",
               failure_text="")
    _compose_overdue(d)
    return d


def _rows(rng: random.Random, n: int, first: dt.date) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        dated = first + dt.timedelta(days=rng.randint(0, 200))
        out.append({"invoice_number": f"INV-{rng.randint(1000, 9999)}-{i}", "supplier_id": "SUP-18",
                    "invoice_date": dated.isoformat(), "due_date": (dated + dt.timedelta(days=30)).isoformat(),
                    "days_overdue": rng.randint(1, 90),
                    "grand_total": f"{rng.randint(100, 99999)}.{rng.randint(0, 99):02d}",
                    "line_count": rng.randint(1, 5)})
    return out


@pytest.mark.parametrize("seed", range(8))
def test_a_truncated_or_partial_listing_gives_a_partial_answer(seed: int) -> None:
    rng = random.Random(870 + seed)
    today = dt.date(2026, 5, 15)
    rows = _rows(rng, rng.randint(1, 6), dt.date(2025, 6, 1))
    truncated, status = rng.choice([(True, "complete"), (False, "partial"), (True, "partial")])
    d = _compose(rows, measure=rng.choice(["list", "count", "total"]), day=today, today=today, truncated=truncated,
                 status=status)
    assert d.status == "partial" and d.result["status"] == "partial", (d.status, d.result)
    assert "PARTIAL" in d.text and d.result["partial_reasons"]
    complete = _compose(rows, measure="count", day=today, today=today)
    assert complete.status == "answered" and complete.result["status"] == "complete"
    assert "PARTIAL" not in complete.text
    assert complete.result["total"] == str(sum((Decimal(r["grand_total"]) for r in rows), Decimal(0)))


@pytest.mark.parametrize("seed", range(6))
def test_a_past_as_at_day_says_the_status_is_todays_and_names_earlier_invoices(seed: int) -> None:
    rng = random.Random(970 + seed)
    today = dt.date(2026, 5, 15)
    day = today - dt.timedelta(days=rng.randint(1, 120))
    valid_from = dt.date(2025, 9, 1) + dt.timedelta(days=rng.randint(0, 60))
    rows = _rows(rng, rng.randint(2, 6), dt.date(2025, 4, 1))
    d = _compose(rows, measure="list", day=day, today=today, valid_from=valid_from.isoformat())
    assert "status is as recorded today" in d.text and "no payment dates are on file" in d.text
    before = [r["invoice_number"] for r in rows if r["invoice_date"] < valid_from.isoformat()]
    for number in before:
        assert f"{number}" in d.text.split("Read as:")[1], (number, d.text)
    if before:
        assert f"dated before {valid_from}" in d.text
    now = _compose(rows, measure="list", day=today, today=today, valid_from=valid_from.isoformat())
    assert "status is as recorded today" not in now.text
