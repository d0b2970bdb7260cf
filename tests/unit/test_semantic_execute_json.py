"""The HTTP route's answer (semantic.execute.shape_json) is the JSON of shape()'s MetricResult: the same keys in
the same order and the same values, for every metric of the fixture schema, its groupings and grains, and rows
as the database returns them (zero, no data, partial coverage, capped provenance, NULLs, non-ASCII text).
Database-free."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic.compile import COVERAGE, PERIOD, SOURCE_COUNT, SOURCE_IDS
from semantic.execute import shape, shape_json
from semantic.loader import MetricRegistry
from semantic.params import bind
from tests.unit.shipped import shipped_registry

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
SEED = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return shipped_registry()  # one load per test process: these tests only read it


_NAMES = ["SUP-18", "SUP-27", "Müller GmbH", 'a "quoted" \\ name', "東京"]
_text = st.one_of(st.sampled_from(_NAMES), st.text(max_size=8))


def _value(column: str, output_types: dict[str, str]) -> st.SearchStrategy[Any]:
    if column == PERIOD:
        return st.dates(min_value=dt.date(2020, 1, 1), max_value=dt.date(2030, 12, 1))
    if column in (SOURCE_IDS, COVERAGE):
        return st.one_of(st.none(), st.lists(_text, max_size=4))
    if column == SOURCE_COUNT:
        return st.integers(min_value=0, max_value=10)
    kind = output_types.get(column)
    if kind == "integer":
        return st.integers(min_value=0, max_value=10**6)
    if kind is not None:
        return st.one_of(
            st.none(),
            st.decimals(min_value=-(10**9), max_value=10**9, places=8, allow_nan=False, allow_infinity=False),
        )
    return st.one_of(st.none(), _text)  # a dimension


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), truncated=st.booleans(), duration=st.floats(min_value=0, max_value=60_000))
def test_the_json_answer_is_the_models_json(
    registry: MetricRegistry, data: st.DataObject, truncated: bool, duration: float
) -> None:
    metric = registry.get("finance.aggregate_spend")
    definition = metric.definition
    group_by = data.draw(st.sampled_from([(), ("supplier_id",)]), label="group_by")
    grains = list(definition.time_dimension.grains) if definition.time_dimension else []
    grain = data.draw(st.sampled_from([None, *grains]), label="grain")
    query = metric.variant(group_by, grain)
    params = bind(definition.parameters, SEED, definition.constraints)
    types = {name: spec.type for name, spec in definition.outputs.items()}
    row = st.tuples(*(_value(c, types) for c in query.columns))
    rows = data.draw(st.lists(row, max_size=4), label="rows")
    model = shape(metric, query, params, rows, truncated=truncated, duration_ms=duration)
    answer = shape_json(metric, query, params, rows, truncated=truncated, duration_ms=duration)
    assert json.loads(answer) == json.loads(model.model_dump_json())
    assert list(json.loads(answer)) == list(json.loads(model.model_dump_json()))  # the same key order


def test_the_seed_answer_is_byte_for_byte_the_models(registry: MetricRegistry) -> None:
    metric = registry.get("finance.aggregate_spend")
    query = metric.variant(())
    params = bind(metric.definition.parameters, SEED, metric.definition.constraints)
    row = (Decimal("2261.00500000"), 2, ["inv-1-line-01", "inv-2-line-01"], 3, ["SUP-18"])
    for rows in ([row], [], [(Decimal(0), 0, None, 0, None)]):
        model = shape(metric, query, params, rows, truncated=False, duration_ms=3.1537)
        assert shape_json(metric, query, params, rows, truncated=False, duration_ms=3.1537) == (
            model.model_dump_json().encode()
        )
