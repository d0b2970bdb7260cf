"""The reading-class probes of ``evaluation/probes_reading_classes.py`` (training seed, a few per class) routed
without a database to the governed call their slots mean: the metric, the company, the period, the supplier, the
product group and its subgroups, the grouping. The probe generator compares the answers with the metric itself;
here the plan's call is compared with the probe's call."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.probes_reading_classes import KINDS, RANKING, probes
from router.routing import RouterInputs, route
from tests.unit.test_router_hops import AS_OF, CTX, GAZETTEER, METRICS, _call

_PROBES = probes(1, 6, KINDS)


@pytest.mark.parametrize("probe", _PROBES, ids=lambda p: f"{p.klass}:{p.question[:60]}")
def test_reading_probes_route_to_their_governed_call(probe: Any) -> None:
    routing = route(probe.question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    assert not routing.requires_clarification, (probe.question, routing.clarification_question)
    metric, params, group_by = _call(routing)
    (expected,) = probe.calls
    wanted = dict(expected.parameters)
    if expected.metric == RANKING:
        assert metric == RANKING and params.get("limit") == 1 and params.get("direction") == "top", params
    elif expected.metric == "finance.invoices_above_threshold":
        assert metric == expected.metric and params.get("threshold") in ("0", "0.00"), params
        assert list(params.get("supplier_ids") or ()) == wanted["supplier_ids"]
    else:
        assert metric in ("finance.company_spend", "finance.aggregate_spend"), (probe.question, metric)
        assert tuple(group_by) == tuple(expected.group_by), (probe.question, group_by)
        assert sorted(params.get("product_group_ids") or ()) == sorted(wanted.get("product_group_ids") or ())
        assert list(params.get("supplier_ids") or ()) == list(wanted.get("supplier_ids") or ())
    # (the company is a reference to its resolving step when the plan resolves it first)
    assert params.get("company_id", wanted["company_id"]) == wanted["company_id"], (probe.question, params)
    assert (str(params.get("start_date")), str(params.get("end_date"))) == (wanted["start_date"], wanted["end_date"])


@pytest.mark.parametrize(("question", "code"), [
    ("List Company B's invoices billed in GBP, 2025", "GBP"),
    ("show me the CHF invoices of Company C from last quarter", "CHF")])
def test_an_invoice_listing_in_one_currency_is_that_currencys_listing(question: str, code: str) -> None:
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    assert not routing.requires_clarification, routing.clarification_question
    (step,) = [s for s in routing.execution_plan if s.tool == "finance.invoices_above_threshold"]
    assert step.arguments["document_currency"] == code


@pytest.mark.parametrize("question", ["Which Company A invoices in Q1 2026 were billed in USD?",
                                      "Which invoices of Company A were invoiced in USD in Q1 2026?"])
def test_a_which_invoices_question_in_one_currency_is_that_currencys_listing(question: str) -> None:
    # "which ... invoices were billed in USD" is the listing of the USD invoices (the governed invoice-currency
    # filter), never every currency's invoices
    routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    assert not routing.requires_clarification, routing.clarification_question
    (step,) = [s for s in routing.execution_plan if s.tool == "finance.invoices_above_threshold"]
    assert step.arguments["document_currency"] == "USD"


@pytest.mark.parametrize("group,inside", [("pressure sensors", "the wireless transmitters"),
                                          ("control cabinets", "accessories"), ("Sensors", "the flow sensors")])
@pytest.mark.parametrize("company", ["Company A", "COMP-B", "company c"])
def test_a_group_including_its_own_subgroup_is_the_groups_spend(group: str, inside: str, company: str) -> None:
    for question in (f"{company} {group} (incl. {inside}) spend in Q1 2026",
                     f"{company}: {group} incl. {inside}, Q1 2026"):
        routing = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
        assert not routing.requires_clarification, (question, routing.clarification_question)
        metric, params, _ = _call(routing)
        assert metric in ("finance.company_spend", "finance.aggregate_spend") and params.get("product_group_ids")
