"""MetricFlow as the second compiler for the share, comparison and ranking shapes.

MetricFlow has no request-time numerator filter, derived base period or ranking cut, but each shape is a
composition of plain MetricFlow queries of the same dbt metric over the same semantic manifest: a share is the
query with the supplier filter over the query without it, a comparison the query over the period beside the
query over the base period, a ranking the grouped query ranked here. Run in the tenant's transaction as the
serving role (RLS applies), they must give the API's answers to the cent.
"""

# ruff: noqa: F811  (the fixtures imported from test_metricflow_crosscheck are requested by parameter name)
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from procura.settings import Settings
from semantic.loader import MetricRegistry
from semantic.testing import TwoTenants
from tests.integration.test_metricflow_crosscheck import (  # noqa: F401  (fixtures are registered by import)
    _run,
    _served,
    _where,
    built,
    client,
    engine,
    mf_engine,
    world,
)

pytestmark = pytest.mark.integration
ENTITY = "invoice_line"
D = Decimal


def _mf(settings: Settings, engine: Any, world: TwoTenants, meta: Mapping[str, Any], values: Mapping[str, Any],
        group_by: list[str] | None = None) -> list[dict[str, Any]]:
    """MetricFlow's counted_spend (and line count) under the bound parameters that have a bind."""
    bound = {k: v for k, v in values.items() if k in meta["parameters"]}
    request = mf_engine.MetricFlowQueryRequest.create(
        metric_names=["counted_invoice_lines", "counted_spend"],
        group_by_names=[f"{ENTITY}__{g}" for g in group_by] if group_by else None,
        where_constraints=_where(meta, ENTITY, bound, world.tenant_a),
    )
    return _run(settings, world.tenant_a, engine.explain(request).sql_statement.sql)


def _money(value: Any) -> str:
    return str(D(value or 0).quantize(D("0.01"), rounding=ROUND_HALF_UP))


def _post(client: TestClient, world: TwoTenants, name: str, body: Mapping[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/metrics/{name}/query", json=body,
                           headers={"Authorization": f"Bearer {world.keys['a']}"})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def _meta(built: tuple[MetricRegistry, Path], name: str) -> dict[str, Any]:
    return _served(built[1])[name]["config"]["meta"]["procura"]  # type: ignore[no-any-return]


Q1 = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}


@pytest.mark.parametrize("suppliers", [["SUP-18"], ["SUP-27"], ["SUP-40"], ["SUP-18", "SUP-27"], ["SUP-99"]])
def test_share_is_metricflow_part_over_metricflow_whole(
    suppliers: list[str], settings: Settings, built: tuple[MetricRegistry, Path], world: TwoTenants,
    client: TestClient, engine: Any,
) -> None:
    meta = _meta(built, "finance.supplier_share")
    values = {**Q1, "invoice_statuses": ["posted", "paid"], "document_types": ["invoice", "credit_note"],
              "reporting_currency": "EUR"}
    (part,) = _mf(settings, engine, world, meta, {**values, "supplier_ids": suppliers})
    (whole,) = _mf(settings, engine, world, meta, values)
    (row,) = _post(client, world, "finance.supplier_share", {"parameters": {**Q1, "supplier_ids": suppliers}})["rows"]
    got = row["values"]
    assert (got["part_value"], got["whole_value"]) == (_money(part["counted_spend"]), _money(whole["counted_spend"]))
    share = 100 * D(part["counted_spend"] or 0) / D(whole["counted_spend"])
    assert got["share_percent"] == str(share.quantize(D("0.0001"), rounding=ROUND_HALF_UP))
    assert (got["part_line_count"], got["matched_line_count"]) == (
        part["counted_invoice_lines"] or 0, whole["counted_invoice_lines"])


@pytest.mark.parametrize(("groups", "suppliers"), [
    (["PG-PRES"], None), (["PG-PRES", "PG-PRES-WL"], None), (["PG-TEMP"], ["SUP-18"]),
    (["PG-PRES"], ["SUP-18", "SUP-27"]), (["PG-NONE"], None),
])
def test_group_share_is_metricflow_part_over_metricflow_whole(
    groups: list[str], suppliers: list[str] | None, settings: Settings, built: tuple[MetricRegistry, Path],
    world: TwoTenants, client: TestClient, engine: Any,
) -> None:
    meta = _meta(built, "finance.product_group_share")
    values = {**Q1, "invoice_statuses": ["posted", "paid"], "document_types": ["invoice", "credit_note"],
              "reporting_currency": "EUR", **({"supplier_ids": suppliers} if suppliers else {})}
    (part,) = _mf(settings, engine, world, meta, {**values, "product_group_ids": groups})
    (whole,) = _mf(settings, engine, world, meta, values)
    body = {"parameters": {**Q1, "product_group_ids": groups, **({"supplier_ids": suppliers} if suppliers else {})}}
    (row,) = _post(client, world, "finance.product_group_share", body)["rows"]
    got = row["values"]
    assert (got["part_value"], got["whole_value"]) == (_money(part["counted_spend"]), _money(whole["counted_spend"]))
    share = 100 * D(part["counted_spend"] or 0) / D(whole["counted_spend"])
    assert got["share_percent"] == str(share.quantize(D("0.0001"), rounding=ROUND_HALF_UP))
    assert (got["part_line_count"], got["matched_line_count"]) == (
        part["counted_invoice_lines"] or 0, whole["counted_invoice_lines"])


@pytest.mark.parametrize(
    ("start", "end", "compare", "base"),
    [("2026-03-01", "2026-04-01", "previous_period", ("2026-02-01", "2026-03-01")),
     ("2026-02-01", "2026-04-01", "previous_period", ("2025-12-01", "2026-02-01")),
     ("2027-01-01", "2027-04-01", "same_period_last_year", ("2026-01-01", "2026-04-01"))],
)
def test_comparison_is_metricflow_period_beside_metricflow_base(
    start: str, end: str, compare: str, base: tuple[str, str], settings: Settings,
    built: tuple[MetricRegistry, Path], world: TwoTenants, client: TestClient, engine: Any,
) -> None:
    meta = _meta(built, "finance.spend_comparison")
    values = {"company_id": "COMP-A", "invoice_statuses": ["posted", "paid"], "reporting_currency": "EUR",
              "document_types": ["invoice", "credit_note"]}
    current = _mf(settings, engine, world, meta, {**values, "start_date": start, "end_date": end}, ["supplier_id"])
    previous = _mf(settings, engine, world, meta, {**values, "start_date": base[0], "end_date": base[1]},
                   ["supplier_id"])
    result = _post(client, world, "finance.spend_comparison", {
        "parameters": {"company_id": "COMP-A", "start_date": start, "end_date": end, "compare_to": compare},
        "group_by": ["supplier_id"]})
    assert (result["parameters"]["base_start_date"], result["parameters"]["base_end_date"]) == base
    cur = {r[f"{ENTITY}__supplier_id"]: r for r in current}
    old = {r[f"{ENTITY}__supplier_id"]: r for r in previous}
    got = {r["values"]["supplier_id"]: r["values"] for r in result["rows"]}
    assert set(got) == set(cur) | set(old) and got
    for supplier, values_ in got.items():
        c = D(cur[supplier]["counted_spend"] or 0) if supplier in cur else D(0)
        b = D(old[supplier]["counted_spend"] or 0) if supplier in old else D(0)
        assert (values_["total_spend"], values_["base_value"], values_["change"]) == (_money(c), _money(b),
                                                                                    _money(c - b))


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_ranking_is_metricflow_grouped_and_ranked(
    limit: int, settings: Settings, built: tuple[MetricRegistry, Path], world: TwoTenants, client: TestClient,
    engine: Any,
) -> None:
    meta = _meta(built, "finance.spend_ranking")
    values = {**Q1, "invoice_statuses": ["posted", "paid"], "reporting_currency": "EUR",
              "document_types": ["invoice", "credit_note"]}
    rows = _mf(settings, engine, world, meta, values, ["supplier_id"])
    spend = {r[f"{ENTITY}__supplier_id"]: D(r["counted_spend"] or 0) for r in rows}
    rank = {k: 1 + sum(1 for o in spend.values() if o > v) for k, v in spend.items()}
    expected = sorted((k for k in spend if rank[k] <= limit), key=lambda k: (rank[k], k))
    result = _post(client, world, "finance.spend_ranking", {"parameters": {**Q1, "limit": limit},
                                                             "group_by": ["supplier_id"]})
    assert [(r["values"]["supplier_id"], r["values"]["rank"], r["values"]["total_spend"]) for r in result["rows"]] == [
        (k, rank[k], _money(spend[k])) for k in expected]
    assert all(r["values"]["groups_ranked"] == len(spend) for r in result["rows"])


@pytest.mark.parametrize("limit", [1, 3])
def test_largest_invoices_are_metricflow_grouped_by_invoice_and_ranked(
    limit: int, settings: Settings, built: tuple[MetricRegistry, Path], world: TwoTenants, client: TestClient,
    engine: Any,
) -> None:
    meta = _meta(built, "finance.largest_invoices")
    values = {**Q1, "invoice_statuses": ["posted", "paid"], "reporting_currency": "EUR", "document_types": ["invoice"]}
    rows = _mf(settings, engine, world, meta, values, ["invoice_number"])
    total = {r[f"{ENTITY}__invoice_number"]: D(r["counted_spend"] or 0) for r in rows}
    rank = {k: 1 + sum(1 for o in total.values() if o > v) for k, v in total.items()}
    expected = sorted((k for k in total if rank[k] <= limit), key=lambda k: (rank[k], k))
    result = _post(client, world, "finance.largest_invoices", {"parameters": {**Q1, "limit": limit},
                                                                "group_by": ["invoice_number"]})
    assert expected, "the sample matches no invoice"
    assert [(r["values"]["invoice_number"], r["values"]["rank"], r["values"]["grand_total"])
            for r in result["rows"]] == [(k, rank[k], _money(total[k])) for k in expected]


def test_base_period_of_a_quarter_is_the_calendar_quarter_before() -> None:
    from semantic.params import base_period

    assert base_period(dt.date(2026, 4, 1), dt.date(2026, 7, 1), "previous_period") == (
        dt.date(2026, 1, 1), dt.date(2026, 4, 1))


def test_group_share_and_threshold_sides_are_in_the_api_contract(
    built: tuple[MetricRegistry, Path], world: TwoTenants, client: TestClient,
) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    share = schemas["MetricQuery.finance.product_group_share"]["properties"]["parameters"]
    assert {"product_group_ids", "supplier_ids", "exclude_supplier_ids"} <= set(share["properties"])
    threshold = schemas["MetricQuery.finance.invoices_above_threshold"]["properties"]["parameters"]["properties"]
    assert threshold["direction"]["enum"] == ["above", "below"]
    headers = {"Authorization": f"Bearer {world.keys['a']}"}
    bad = client.post("/v1/metrics/finance.invoices_above_threshold/query", headers=headers, json={
        "parameters": {**Q1, "threshold": "500", "direction": "sideways"}})
    assert bad.status_code == 422 and "direction" in bad.text
    body = {"parameters": {**Q1, "threshold": "5000", "direction": "below", "inclusive": True}}
    below = _post(client, world, "finance.invoices_above_threshold", body)["rows"]
    above = _post(client, world, "finance.invoices_above_threshold",
                  {"parameters": {**Q1, "threshold": "5000"}})["rows"]
    totals = [D(r["values"]["grand_total"]) for r in below]
    assert all(t <= 5000 for t in totals) and all(D(r["values"]["grand_total"]) > 5000 for r in above)
    assert not {r["values"]["invoice_number"] for r in below} & {r["values"]["invoice_number"] for r in above}
