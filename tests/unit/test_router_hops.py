"""Hops and per-item prices (no database): the hop probes of ``evaluation/probes_hops.py`` (training seed, a few
per class) routed to the governed call their slots mean: a supplier named through a product or group it
supplies, a price per item of a named product, spending verbs, listings of a supplier's products and of invoices,
products named through their manual, unknown product codes asked about."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation.probes_clarify import SUPPLIERS
from evaluation.probes_hops import CATALOGUE, probes
from router.entities import Company, Gazetteer, find_mentions
from router.routing import RouterInputs, route
from tests.unit.test_router_entity_levels import AS_OF, CTX, GROUPS, METRICS, PRODUCTS, SYNONYMS

_GROUP_OF = {"PRD-482": "PG-PRES", "PRD-483": "PG-PRES", "PRD-486": "PG-PRES-WL", "PRD-491": "PG-TEMP",
             "PRD-495": "PG-CABL", "PRD-510": "PG-FLOW", "PRD-515": "PG-FLOW", "PRD-530": "PG-PRES",
             "PRD-532": "PG-TEMP", "PRD-611": "PG-MCTL", "PRD-612": "PG-MCTL", "PRD-620": "PG-PLC",
             "PRD-625": "PG-CMOD", "PRD-701": "PG-CAB", "PRD-705": "PG-CAB-ACC", "PRD-801": "PG-CAL",
             "PRD-805": "PG-CONS", "PRD-820": "PG-CABL", "PRD-825": "PG-CABL", "PRD-840": "PG-TOOL",
             "PRD-845": "PG-CAL"}
_MAKER = {"PRD-486": "SUP-18", "PRD-532": "SUP-35", "PRD-612": "SUP-27", "PRD-620": "SUP-27", "PRD-705": "SUP-31",
          "PRD-805": "SUP-44", "PRD-825": "SUP-60", **{code: sup for code, (_, sup, _) in CATALOGUE.items()}}
_GROUP_MAKERS: dict[str, set[str]] = {}
for _code, _group in _GROUP_OF.items():
    _GROUP_MAKERS.setdefault(_group, set()).add(_MAKER[_code])
GAZETTEER = Gazetteer(**{
    **Gazetteer.build(
        [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
         Company("COMP-C", "Company C", "EUR")],
        [*((sid, v["name"][0]) for sid, v in SUPPLIERS.items()), ("SUP-44", "Supplier Eta")],
        [(alias, sid) for sid, v in SUPPLIERS.items() for alias in v["alias"]],
        GROUPS, SYNONYMS, PRODUCTS).__dict__,
    "product_suppliers": {code: frozenset({sup}) for code, sup in _MAKER.items()},
    "group_suppliers": {g: frozenset(s) for g, s in _GROUP_MAKERS.items()},
})
#: The company-spend tools a plan may carry the spend in (a supplier set goes through the aggregate).
_SPEND = {"finance.company_spend", "finance.aggregate_spend"}
#: The unit-price tools (one calendar month has a workflow of its own, the same quantity-weighted figure).
_PRICE = {"catalog.average_unit_price", "catalog.unit_price"}


def _call(routing: Any) -> tuple[str | None, dict[str, Any], tuple[str, ...]]:
    for step in routing.execution_plan:
        args = dict(step.arguments)
        if step.tool == "metrics.query":
            return args["metric"], dict(args["parameters"]), tuple(args.get("group_by") or ())
        if step.tool in _SPEND or step.tool in _PRICE or step.tool == "finance.invoices_above_threshold":
            return step.tool, {k: v for k, v in args.items() if not hasattr(v, "ref")}, tuple(args.get("group_by")
                                                                                            or ())
    return None, {}, ()


@pytest.mark.parametrize("probe", probes(31, 8), ids=lambda p: f"{p.klass}:{p.question[:50]}")
def test_hop_probes_route_to_their_governed_call(probe: Any) -> None:
    routing = route(probe.question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    if probe.expect is None:
        text = (routing.clarification_question or "").lower()
        assert routing.requires_clarification and all(w.lower() in text for w in probe.about), (probe.question, text)
        return
    assert not routing.requires_clarification, (probe.question, routing.clarification_question)
    metric, params, group_by = _call(routing)
    expect = probe.expect
    same = metric == expect.metric or {metric, expect.metric} <= _SPEND or {metric, expect.metric} <= _PRICE
    assert same, (probe.question, metric, expect.metric)
    assert group_by == tuple(expect.group_by), (probe.question, group_by)
    for key in ("threshold", "inclusive"):
        if key in expect.parameters:
            assert params.get(key) == expect.parameters[key], (probe.question, key, params.get(key))
    for key in ("supplier_ids", "product_codes", "product_code"):
        if key in expect.parameters:
            got = params.get(key)
            assert sorted(got or []) == sorted(expect.parameters[key]) if isinstance(got, list | tuple | None) \
                else got == expect.parameters[key], (probe.question, key, got)
        elif key in ("product_codes", "product_code"):
            assert not params.get(key), (probe.question, key, params.get(key))  # a hop is no product filter


@pytest.mark.parametrize(("text", "suppliers", "products"), [
    ("spend with the supplier of the PT100 probe", ["SUP-18"], []),
    ("spend with our biggest supplier of the PT100 probe", [], ["PRD-491"]),  # a ranking, not a hop
    ("spend with the flow sensor supplier", ["SUP-22"], []),
    ("spend with the temperature sensor supplier", ["SUP-18", "SUP-35"], []),  # two: never guessed
    ("spend on the PT100 probe", [], ["PRD-491"]),
    ("spend with approved vendors for Control Cabinets", [], []),  # a set of its own, the group stays a filter
    ("spend with approved suppliers of the PT100 probe", [], ["PRD-491"]),
    ("spend with the suppliers of flow sensors", [], []),
])
def test_hop_phrases(text: str, suppliers: list[str], products: list[str]) -> None:
    m = find_mentions(text, GAZETTEER, figure=True)
    assert [c for s in m.suppliers for c in s.candidates] == suppliers
    assert [c for p in m.products for c in p.candidates] == products
