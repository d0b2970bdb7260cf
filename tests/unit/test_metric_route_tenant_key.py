"""The metric route's search of the body for a ``tenant_id`` key: the flat fast path finds what the full search
finds (issue 21's metric API pass keeps the search per request cheap, never weaker)."""

from __future__ import annotations

from typing import Any

import pytest

from api.routes.metrics import _find_tenant_key, _flat_without_tenant


@pytest.mark.parametrize(
    ("parameters", "expected"),
    [
        ({"company_id": "COMP-A", "supplier_ids": ["SUP-1", "SUP-2"], "start_date": "2026-01-01"}, None),
        ({"a": 1, "b": 2.5, "c": True, "d": None, "e": []}, None),
        ({"tenant_id": "t2"}, "body.parameters.tenant_id"),
        ({"company_id": "C", "Tenant_ID": "t2"}, "body.parameters.Tenant_ID"),
        ({"supplier_ids": [{"tenant_id": "t2"}]}, "body.parameters.supplier_ids[0].tenant_id"),
        ({"nested": {"deeper": {"TENANT_ID": 1}}}, "body.parameters.nested.deeper.TENANT_ID"),
        ({"ids": ["a", ["b", {"tenant_id": "x"}]]}, "body.parameters.ids[1][1].tenant_id"),
        ({1: "x", "tenant_id": "y"}, "body.parameters.tenant_id"),
    ],
)
def test_tenant_key_found_wherever_it_is(parameters: dict[Any, Any], expected: str | None) -> None:
    assert _find_tenant_key(parameters, "body.parameters") == expected


def test_fast_path_only_clears_flat_bodies_without_the_key() -> None:
    assert _flat_without_tenant({"company_id": "C", "ids": ["a", 1, None]})
    assert not _flat_without_tenant({"TENANT_ID": "t"})
    assert not _flat_without_tenant({"ids": [["a"]]})
    assert not _flat_without_tenant({"filter": {"x": 1}})
    assert not _flat_without_tenant({1: "x"})
    assert not _flat_without_tenant({"ids": ("a",)})
