"""A supplier's short name right before a product group ("epsilon flow sensors spend"): read as what was bought
from the supplier when the catalogue has it supply that group; otherwise (a supplier of other goods) the two names
side by side stay asked about ("one unknown name, or each?"). Routed without a database; seeded slot variation."""

from __future__ import annotations

import dataclasses
import random

import pytest

GROUPS = {"pressure sensors": "PG-PRES", "temperature sensors": "PG-TEMP", "control cabinets": "PG-CAB"}
SUPPLIERS = {"epsilon": "SUP-22", "Beta": "SUP-18", "iota": "SUP-60"}
FRAMES = ("{s} {g} spend, company a, q4 25", "{s} {g} spend by invoice currency, Company A, Q1 2026",
          "how much did Company B spend on {s} {g} in 2025?")


def _route(question: str, supplies: dict[str, frozenset[str]]) -> object:
    from router.routing import RouterInputs, route
    from tests.unit.test_router_analysis import AS_OF, CTX, METRICS
    from tests.unit.test_router_company_sets import GAZETTEERS

    gazetteer = dataclasses.replace(GAZETTEERS["letters"], group_suppliers=supplies)
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS))


@pytest.mark.parametrize("seed", range(18))
def test_a_supplier_then_a_group_it_supplies_is_read_as_both(seed: int) -> None:
    rng = random.Random(seed)
    s, g = rng.choice(sorted(SUPPLIERS)), rng.choice(sorted(GROUPS))
    q = rng.choice(FRAMES).format(s=s, g=g)
    routed = _route(q, {GROUPS[g]: frozenset({SUPPLIERS[s]})})
    assert routed.workflow != "clarification", (q, routed.clarification_question)  # type: ignore[attr-defined]
    assert routed.entities.supplier_ids == (SUPPLIERS[s],), q  # type: ignore[attr-defined]
    assert routed.entities.product_group_id == GROUPS[g], q  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(12))
def test_a_supplier_of_other_goods_beside_a_group_is_asked(seed: int) -> None:
    rng = random.Random(seed)
    s, g = rng.choice(sorted(SUPPLIERS)), rng.choice(sorted(GROUPS))
    other = next(x for x in sorted(SUPPLIERS.values()) if x != SUPPLIERS[s])
    q = rng.choice(FRAMES).format(s=s, g=g)
    routed = _route(q, {GROUPS[g]: frozenset({other})})
    assert routed.workflow == "clarification", q  # type: ignore[attr-defined]
    assert "side by side" in (routed.clarification_question or ""), q  # type: ignore[attr-defined]
