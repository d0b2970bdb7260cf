"""Generated threshold questions (``evaluation/probes_thresholds.py``, seeded, bounded), no database: every money
notation and every side or crossing verb becomes the governed call the generator computes from the slot values,
with the amount as the same exact decimal; a probe that must be asked about is a clarification naming its slot."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from evaluation.probes_thresholds import INVOICES, NOTATIONS, RANKING, probes
from procura.db.session import AuthContext
from procura.demo.masterdata import GROUP_SYNONYMS_DE, TENANT_42
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.reading import parse_amounts
from router.routing import RouterInputs, route
from router.thresholds import parse_rule
from tests.unit.test_router_rankings_counts import CATALOG, METRICS

#: The demo tenant-42 vocabulary the generators draw from (procura/demo/masterdata.py), routed in memory.
DEMO = RouterInputs(
    ctx=AuthContext("tenant-42", "probes", frozenset({"procurement:read", "invoice:aggregate"})),
    as_of=dt.date(2026, 5, 15),
    gazetteer=Gazetteer.build(
        [Company(c.company_id, c.company_name, c.reporting_currency) for c in TENANT_42.companies],
        [(s.supplier_id, s.supplier_name) for s in TENANT_42.suppliers],
        [(a, s.supplier_id) for s in TENANT_42.suppliers for a in s.aliases],
        [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in TENANT_42.groups],
        [(syn, g.product_group_id) for g in TENANT_42.groups for syn in GROUP_SYNONYMS_DE.get(g.group_name, ())],
        [Product(p.product_code, p.product_name) for p in TENANT_42.products],
    ),
    metrics=METRICS, catalog=CATALOG,
)


def _routed(question: str) -> Any:
    return route(question, DEMO)

_PROBES = probes(seed=7, per_class=12)


@pytest.mark.parametrize(("words", "value"), NOTATIONS)
def test_every_notation_is_the_same_decimal(words: str, value: str) -> None:
    found = parse_amounts(f"suppliers above {words} in 2025")
    assert [a.value for a in found] == [Decimal(value)], words


@pytest.mark.parametrize("probe", _PROBES, ids=lambda p: p.question[:60])
def test_a_generated_threshold_question_is_the_governed_call(probe) -> None:  # type: ignore[no-untyped-def]
    result = _routed(probe.question)
    if probe.expect is None:
        assert result.requires_clarification, probe.question
        text = (result.clarification_question or "").lower()
        assert any(a.lower() in text for a in probe.about), (probe.question, text)
        return
    assert not result.requires_clarification, (probe.question, result.clarification_question)
    steps = [s for s in result.execution_plan if s.tool == "metrics.query"]
    if probe.expect.metric == INVOICES:
        assert result.workflow != "spend_threshold", probe.question
        return
    assert probe.expect.metric == RANKING and steps, probe.question
    args = steps[0].arguments
    assert args["metric"] == RANKING and args["group_by"] == list(probe.expect.group_by), probe.question
    expected = dict(probe.expect.parameters)
    got = {k: v for k, v in args["parameters"].items() if k != "reporting_currency"}
    for key in ("product_group_ids", "supplier_ids", "exclude_supplier_ids"):
        if key in got:
            got[key] = sorted(got[key])
        if key in expected:
            expected[key] = sorted(expected[key])
    assert got == expected, probe.question
    t = parse_rule(result.rule_hits)
    assert t is not None and probe.expect.bounds is not None, probe.question
    direction, amount, inclusive, upper, upper_inclusive = probe.expect.bounds
    assert (t.direction, Decimal(t.amount), t.inclusive) == (direction, Decimal(amount), inclusive), probe.question
    assert (Decimal(t.upper) if t.upper else None) == (Decimal(upper) if upper else None), probe.question
    assert t.upper is None or t.upper_inclusive == upper_inclusive, probe.question
