"""Every company of the tenant as the scope of every measure, routed in memory (no database; the governed metrics'
definitions come from the schema snapshot).

Class (issue 20, company sets and tenant-wide scope): a count, ranking, share, listing, unit price, currency split,
largest invoice, line count or total asked for "both companies", "both entities", "both cos.", "X + Y", "X and Y
combined" (every company of a two-company tenant named together), "across all companies", "konzernweit", "the
whole tenant", "tenant 42" (the caller's) is one governed call without a company (row-level security bounds it to
the tenant), compared here with the governed call the slots mean; never "which company?", never one company's
figure. Another tenant's number changes nothing and is named back; a question naming no company asks which one and
offers all of them. Slots vary over every scope phrase, company spelling, measure and period; a seeded bounded
sample.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from router.contract import RoutingResult
from router.entities import Company, Gazetteer
from router.routing import RouterInputs, route
from router.tenant_scope import SCOPE_WORD, tenant_scope
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS, PERIODS, SUPPLIERS

SEED = 42
PAIR = [Company("COMP-X", "Xenon Pharma AG", "EUR"), Company("COMP-Y", "Ypsilon Retail GmbH", "EUR")]
SPELLINGS = {"COMP-X": ("Xenon", "xenon", "Xenon Pharma", "Xenon Pharma AG"),
             "COMP-Y": ("Ypsilon", "ypsilon", "Ypsilon Retail", "Ypsilon Retail GmbH")}
GAZETTEER = Gazetteer.build(PAIR, [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
                            [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases], GROUPS)


def _scope(rng: random.Random) -> str:
    """One way of naming both companies of the tenant (the caller is tenant-42)."""
    x, y = rng.choice(SPELLINGS["COMP-X"]), rng.choice(SPELLINGS["COMP-Y"])
    if rng.random() < 0.5:
        x, y = y, x
    return rng.choice((f"{x} + {y}", f"{x}+{y}", f"{x} and {y} combined", f"{x} and {y} together",
                       "both companies", "both entities", "both cos.", "across all companies", "all companies",
                       "group-wide", "konzernweit", "in the whole tenant", "tenant 42", "in tenant-42",
                       "across the entire tenant", "all entities", "tenant-wide"))


#: Measure frames ({c}: the scope, {p}: the period) and the governed metric they mean.
MEASURES: tuple[tuple[str, str], ...] = (
    ("How many invoices {p}, {c}?", "finance.invoice_count"),
    ("Number of credit notes {c} {p}", "finance.invoice_count"),
    ("Top 3 suppliers by spend {p}, {c}", "finance.spend_ranking"),
    ("Beta's share of spend {p}, {c}", "finance.supplier_share"),
    ("Invoices above 10,000 EUR {p}, {c}", "finance.invoices_above_threshold"),
    ("Average unit price of PRD-482 {p}, {c}", "catalog.average_unit_price"),
    ("USD invoices {p}, {c}: amount in USD and EUR", "finance.document_currency_spend"),
    ("Biggest single invoice {p}, {c}", "finance.largest_invoices"),
    ("Spend with Beta {p}, {c}", "finance.company_spend"),
    ("Cancelled invoices {p}, {c}", "finance.cancelled_draft_invoices"),
)


def _calls(result: RoutingResult) -> list[tuple[str, dict[str, Any]]]:
    """(metric, parameters) of every governed call of the plan (catalog queries and the named finance tools)."""
    out = []
    for step in result.execution_plan:
        if step.tool == "metrics.query":
            out.append((str(step.arguments["metric"]), dict(step.arguments.get("parameters") or {})))
        elif step.tool.startswith(("finance.", "catalog.")):
            out.append((step.tool, dict(step.arguments)))
    return out


def _cases(n: int) -> list[tuple[str, str, str, str]]:
    rng = random.Random(SEED)
    out = []
    for i in range(n):
        frame, metric = MEASURES[i % len(MEASURES)]
        phrase, start, _ = rng.choice(PERIODS)
        out.append((frame.format(c=_scope(rng), p=phrase), metric, start, phrase))
    return out


@pytest.mark.parametrize(("question", "metric", "start", "phrase"), _cases(60), ids=lambda v: str(v)[:48])
def test_every_company_is_one_governed_call_without_a_company(question: str, metric: str, start: str,
                                                              phrase: str) -> None:
    inputs = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
    result = route(question, inputs)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = _calls(result)
    governed = [p for m, p in calls if m == metric]
    assert governed, (question, calls)
    for params in (p for _, p in calls):
        # all the tenant's companies: no single company, and never a subset of them
        assert params.get("company_id") in (None, ""), (question, params)
        assert sorted(params.get("company_ids") or ["COMP-X", "COMP-Y"]) == ["COMP-X", "COMP-Y"], (question, params)
    assert any(str(p.get("start_date")) == start for p in governed), (question, governed)
    if metric != "catalog.average_unit_price":  # (a unit price is every company's whenever none is named)
        assert "COMP-X" in result.interpretation and "COMP-Y" in result.interpretation, result.interpretation


@pytest.mark.parametrize("i", range(12))
def test_a_question_naming_no_company_asks_and_offers_all(i: int) -> None:
    rng = random.Random(SEED * 10 + i)
    phrase = rng.choice(PERIODS)[0]
    question = rng.choice(("Spend with Beta {p}", "How much did we spend with Gamma {p}?", "Epsilon spend {p}"))
    result = route(question.format(p=phrase), RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER,
                                                           metrics=METRICS))
    assert result.requires_clarification, question
    text = result.clarification_question or ""
    assert "Which company" in text and "all of them together" in text, text


@pytest.mark.parametrize(("written", "own"), [("tenant 42", True), ("tenant-42", True), ("Tenant #42", True),
                                              ("tenant 042", True), ("tenant 17", False), ("tenant-99", False)])
def test_a_tenant_named_is_the_callers_scope_or_named_back(written: str, own: bool) -> None:
    scope = tenant_scope(f"credit notes in {written}, 2025, total EUR", "tenant-42")
    if own:
        assert SCOPE_WORD in scope.text and not scope.other, scope
    else:
        assert SCOPE_WORD not in scope.text and scope.other, scope
        result = route(f"Spend with Beta in {written} in Q1 2026",
                       RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
        # never widened to the caller's companies nor switched: the rest of the question is asked about
        assert result.requires_clarification, result
        assert written.lower().replace("#", "") in (result.clarification_question or "").lower().replace("#", "")


def test_whole_tenant_words_without_a_number() -> None:
    for text in ("count of cancelled invoices in the whole tenant, FY2026", "what % of total tenant spend was X",
                 "tenant total 2025"):
        assert SCOPE_WORD in tenant_scope(text, "tenant-42").text, text
    assert tenant_scope("which tenant am I?", "tenant-42").text == "which tenant am I?"


@pytest.mark.parametrize(("written", "value"), [("0,025 Mio. EUR", "25000"), ("EUR 0.1m", "100000"),
                                                ("0.5 million EUR", "500000"), ("10.000 EUR", "10000")])
def test_a_fraction_of_a_million_is_no_thousands_grouping(written: str, value: str) -> None:
    """ "vendors > EUR 0.1m", "invoices > 0,025 Mio. EUR": a leading zero is no thousands group (a tenant-wide
    listing or threshold must compare with the amount written, never a thousand times it)."""
    from decimal import Decimal

    from router.reading import parse_amounts

    [amount] = parse_amounts(f"invoices above {written}")
    assert amount.value == Decimal(value), (written, amount)
