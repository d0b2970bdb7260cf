"""The metric service keeps checked and bound requests by what was asked (database-free): equal requests share
one binding, requests binding could tell apart never do, the caller's scope is checked on every call, and
refused requests are not kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from procura.db.session import AuthContext
from semantic.errors import ParameterError, ScopeError
from semantic.loader import MetricRegistry
from semantic.service import MetricService, _Call, _request_key
from tests.unit.shipped import shipped_registry

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
METRIC = "finance.aggregate_spend"
SEED: dict[str, Any] = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}
ALLOWED = AuthContext(tenant_id="tenant-42", principal_id="p", scopes=frozenset({"invoice:aggregate"}))
OTHER = AuthContext(tenant_id="tenant-17", principal_id="q", scopes=frozenset({"invoice:aggregate"}))
DENIED = AuthContext(tenant_id="tenant-42", principal_id="r", scopes=frozenset())


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return shipped_registry()  # one load per test process: these tests only read it


def _plan(service: MetricService, ctx: AuthContext, parameters: dict[str, Any], group_by: Any = ()) -> Any:
    call = _Call(METRIC, "api", None)
    return call, service._plan(call, ctx, METRIC, parameters, group_by, None, False, {})[:3]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (True, 1), (1, 1.0), (1, "1"), (["a"], "a"), (["a", "b"], ["b", "a"]), (("a",), ["a"]), (None, "None"),
        (["1"], [1]), (["a", 1], ["a", "1"]), ([], ()), ([["a"]], ["a"]),
        ({"x": 1}, {"x": True}),
    ],
)  # fmt: skip
def test_values_that_compare_equal_in_python_are_different_requests(one: Any, other: Any) -> None:
    assert _request_key(METRIC, {"p": one}, (), None, False) != _request_key(METRIC, {"p": other}, (), None, False)


def test_the_key_covers_name_grouping_grain_and_text_values() -> None:
    base = _request_key(METRIC, SEED, (), None, False)
    assert base == _request_key(METRIC, dict(reversed(list(SEED.items()))), (), None, False)
    assert base != _request_key("finance.other", SEED, (), None, False)
    assert base != _request_key(METRIC, SEED, ("supplier_id",), None, False)
    assert base != _request_key(METRIC, SEED, (), "month", False)
    assert base != _request_key(METRIC, SEED, (), None, True)


def test_requests_without_a_key_are_not_kept() -> None:
    assert _request_key(METRIC, {"p": object()}, (), None, False) is None
    assert _request_key(METRIC, {"p": {1: "a", "b": 2}}, (), None, False) is None  # keys of mixed types
    assert _request_key(METRIC, SEED, "supplier_id", None, False) is None
    deep: Any = "x"
    for _ in range(20):
        deep = [deep]
    assert _request_key(METRIC, {"p": deep}, (), None, False) is None


def test_an_equal_request_reuses_the_binding_and_hashes(registry: MetricRegistry) -> None:
    service = MetricService(registry, statement_timeout_ms=1000, row_cap=100)
    first_call, (_, query, params) = _plan(service, ALLOWED, SEED)
    again_call, (_, again_query, again_params) = _plan(service, OTHER, dict(SEED))
    assert again_params is params and again_query.sql == query.sql
    assert again_call.hashes is first_call.hashes and dict(first_call.hashes)["company_id"]
    assert params.values["company_id"] == "COMP-A"
    _, (_, _, changed) = _plan(service, ALLOWED, dict(SEED, company_id="COMP-B"))
    assert changed.values["company_id"] == "COMP-B"


def test_the_scope_is_checked_on_every_call(registry: MetricRegistry) -> None:
    service = MetricService(registry, statement_timeout_ms=1000, row_cap=100)
    _plan(service, ALLOWED, SEED)
    with pytest.raises(ScopeError):
        _plan(service, DENIED, SEED)


def test_refused_requests_are_not_kept_and_audit_their_grouping(registry: MetricRegistry) -> None:
    service = MetricService(registry, statement_timeout_ms=1000, row_cap=100)
    bad = dict(SEED, start_date="2026-05-01")  # after end_date
    for _ in range(2):
        call = _Call(METRIC, "api", None)
        with pytest.raises(ParameterError):
            service._plan(call, ALLOWED, METRIC, bad, (), None, False, {})
        assert call.hashes is None and call.group_by == ()
    assert service._bound_requests == {}
