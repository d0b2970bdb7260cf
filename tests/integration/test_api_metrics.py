"""The metric API over real HTTP semantics (ASGI test client) and the real database: every endpoint, every
error, scopes, tenant isolation, injection attempts, statement timeout, rate limit and the audit trail.

The governed marts are built by the real dbt project; two tenants with the same company, supplier and product
ids but different numbers are written into ``marts.validated_invoice_lines``.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from api.main import create_app
from api.models import MetricQueryResponse
from procura.db.migrate import discover
from procura.db.session import AuthContext, tenant_transaction
from procura.settings import Settings
from semantic.loader import MetricRegistry, load_registry
from semantic.testing import TwoTenants, build_governed_marts, expected_spend, remove_two_tenants, seed_two_tenants

pytestmark = pytest.mark.integration

QUERY = "/v1/metrics/finance.aggregate_spend/query"
SEED = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482", "PRD-619"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}


@pytest.fixture(scope="module")
def registry(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> MetricRegistry:
    return load_registry(build_governed_marts(settings, tmp_path_factory.mktemp("dbt")).schema)


@pytest.fixture(scope="module")
def world(settings: Settings, registry: MetricRegistry) -> Iterator[TwoTenants]:
    data = seed_two_tenants(settings, "api")
    yield data
    remove_two_tenants(settings, data)


@pytest.fixture(scope="module")
def client(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> Iterator[TestClient]:
    with TestClient(create_app(settings, registry=registry)) as test_client:
        yield test_client


def auth(world: TwoTenants, label: str = "a") -> dict[str, str]:
    return {"Authorization": f"Bearer {world.keys[label]}"}


def post(client: TestClient, world: TwoTenants, body: dict[str, Any], label: str = "a", path: str = QUERY) -> Any:
    return client.post(path, json=body, headers=auth(world, label))


def money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def assert_error(response: Any, status: int, code: str, parameter: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    if parameter is not None:
        assert error["parameter"] == parameter, error
    text = response.text.lower()
    for leak in ("traceback", "select ", "psycopg", "marts.validated_invoice_lines", 'file "'):
        assert leak not in text, f"error response leaks {leak!r}: {response.text}"
    return error


# -- health and catalog ----------------------------------------------------------------------------------------
def test_healthz_readyz_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["status"] == "ready" and body["database"] is True
    assert body["migrations"]["pending"] == [] and body["migrations"]["changed"] == []
    assert body["migrations"]["applied"] == body["migrations"]["expected"] == len(discover())
    assert body["metrics"] >= 6
    spec = client.get("/openapi.json").json()
    assert {"/v1/metrics", "/v1/metrics/{name}", "/v1/metrics/{name}/query", "/healthz", "/readyz"} <= set(
        spec["paths"]
    )
    _assert_docs_load_nothing_from_outside(client)
    missing = client.get("/v2/nothing")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    wrong_method = client.delete("/v1/metrics")
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "method_not_allowed"


def _assert_docs_load_nothing_from_outside(client: TestClient) -> None:
    """Air-gapped sites: /docs and /redoc reference only this server's own assets, and those assets are served."""
    for page in ("/docs", "/redoc"):
        html = client.get(page)
        assert html.status_code == 200, page
        urls = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*'([^']+)'""", html.text)
        assets = [url for pair in urls for url in pair if url]
        assert assets, page
        assert not [url for url in assets if "//" in url], f"{page} loads from another host: {assets}"
        assert not re.findall(r"https?://", html.text), page
        for asset in assets:
            if asset.startswith("/static-offline-docs/"):
                assert client.get(asset).status_code == 200, asset


def test_catalog_lists_every_metric_with_its_parameter_schema(client: TestClient, world: TwoTenants) -> None:
    response = client.get("/v1/metrics", headers=auth(world))
    assert response.status_code == 200, response.text
    metrics = {m["name"]: m for m in response.json()["metrics"]}
    assert {
        "finance.aggregate_spend",
        "finance.company_spend",
        "finance.units_purchased",
        "finance.tax_total",
        "finance.invoices_above_threshold",
        "catalog.unit_price",
    } <= set(metrics)
    schema = metrics["finance.aggregate_spend"]["parameters"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["invoice_statuses"]["default"] == ["posted", "paid"]
    assert "company_id" in schema["required"]
    assert metrics["catalog.unit_price"]["scope"] == "procurement:read"


def test_describe_returns_interface_policy_and_request_schema(client: TestClient, world: TwoTenants) -> None:
    response = client.get("/v1/metrics/finance.aggregate_spend", headers=auth(world))
    assert response.status_code == 200, response.text
    detail = response.json()
    assert detail["grains"] == ["day", "week", "month", "quarter", "year"]
    assert set(detail["dimensions"]) == {"supplier_id", "product_group_id", "product_code", "top_product_group_id",
                                         "invoice_status"}
    assert detail["outputs"]["total_spend"]["type"] == "money"
    assert detail["request_schema"]["properties"]["group_by"]["items"]["enum"] == [
        "supplier_id",
        "product_group_id",
        "product_code",
        "top_product_group_id",
        "invoice_status",
    ]
    assert "sign_rule" in detail["policy"]
    assert "select" not in response.text.lower()
    assert_error(client.get("/v1/metrics/finance.nope", headers=auth(world)), 404, "unknown_metric")


# -- results ---------------------------------------------------------------------------------------------------
def test_seed_query_returns_exact_total_as_string_with_count_policy_and_provenance(
    client: TestClient, world: TwoTenants
) -> None:
    response = post(client, world, {"parameters": SEED})
    assert response.status_code == 200, response.text
    result = response.json()
    counted = world.counted_a(
        company_id="COMP-A", supplier_id={"SUP-18", "SUP-27"}, product_code={"PRD-482", "PRD-619"}
    )
    assert len(counted) == 4  # USD invoice, two lines of INV-2026-0201, one credit note
    row = result["rows"][0]
    assert row["values"]["total_spend"] == money(expected_spend(counted)) == "3728.81"
    assert isinstance(row["values"]["total_spend"], str)
    assert row["values"]["matched_line_count"] == 4 == result["matched_line_count"]
    assert result["status"] == "complete"
    assert result["currency"] == "EUR"
    assert result["policy"]["statuses_counted"] == ["posted", "paid"]
    assert {"sign_rule", "fx_rule", "exclusions"} <= set(result["policy"])
    assert row["provenance"]["source_line_ids"] == sorted(r["line_id"] for r in counted)
    assert row["provenance"]["source_line_count"] == 4 and row["provenance"]["truncated"] is False
    assert result["coverage"]["missing"] == [] and result["coverage"]["calculated"] == ["SUP-18", "SUP-27"]
    assert result["parameters"]["invoice_statuses"] == ["posted", "paid"]
    assert MetricQueryResponse.model_validate(result).rows[0].values["total_spend"] == "3728.81"


def test_zero_total_and_no_data_are_different_answers(client: TestClient, world: TwoTenants) -> None:
    zero = post(client, world, {"parameters": {**SEED, "supplier_ids": ["SUP-40"], "product_codes": ["PRD-900"]}})
    assert zero.status_code == 200, zero.text
    assert zero.json()["status"] == "complete"
    assert zero.json()["rows"][0]["values"] == {"total_spend": "0.00", "matched_line_count": 2}
    empty = post(client, world, {"parameters": {**SEED, "start_date": "2025-01-01", "end_date": "2025-04-01"}})
    assert empty.status_code == 200, empty.text
    assert empty.json()["status"] == "no_data"
    assert empty.json()["rows"] == [] and empty.json()["matched_line_count"] == 0


def test_requested_supplier_without_data_makes_the_total_partial(client: TestClient, world: TwoTenants) -> None:
    body = {"parameters": {**SEED, "supplier_ids": ["SUP-18", "SUP-27", "SUP-31"], "product_codes": None}}
    result = post(client, world, body).json()
    assert result["status"] == "partial"
    assert result["coverage"]["missing"] == ["SUP-31"]
    assert result["coverage"]["calculated"] == ["SUP-18", "SUP-27"]


def test_a_repeated_request_is_answered_and_audited_from_the_database_every_time(
    settings: Settings, client: TestClient, world: TwoTenants
) -> None:
    # The route keeps the JSON of a request's last answer by the rows' bytes (semantic.execute._answer_json): equal
    # rows give the same JSON, changed rows a new one, and every call still runs its query and writes its audit row.
    def answer() -> dict[str, Any]:
        response = post(client, world, {"parameters": SEED})
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        assert result.pop("duration_ms") >= 0
        return result

    counted = world.counted_a(
        company_id="COMP-A", supplier_id={"SUP-18", "SUP-27"}, product_code={"PRD-482", "PRD-619"}
    )
    line = sorted(r["line_id"] for r in counted if r["document_type"] == "invoice")[0]
    audit_count = "select count(*) from app.audit_log where tenant_id = %s and metric = 'finance.aggregate_spend'"

    def change(admin: psycopg.Connection, amount: Decimal) -> None:
        # the line and the rollup rows that hold it: whichever governed relation answers sees the change
        for relation, holds in (("validated_invoice_lines", "line_id = %s"),
                                ("spend_daily_rollup", "%s = any(first_line_ids)"),
                                ("spend_monthly_rollup", "%s = any(first_line_ids)")):  # fmt: skip
            updated = admin.execute(
                f"update marts.{relation} set spend_reporting_amount = spend_reporting_amount + %s"
                f" where tenant_id = %s and {holds}",
                (amount, world.tenant_a, line),
            )
            assert updated.rowcount == 1, relation

    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        audited = admin.execute(audit_count, (world.tenant_a,)).fetchone()
        first, again = answer(), answer()
        assert first == again and first["rows"][0]["values"]["total_spend"] == "3728.81"
        change(admin, Decimal("1.00"))
        try:
            changed = answer()
        finally:
            change(admin, Decimal("-1.00"))
        assert changed["rows"][0]["values"]["total_spend"] == "3729.81"
        assert {k: v for k, v in changed.items() if k != "rows"} == {k: v for k, v in first.items() if k != "rows"}
        assert answer() == first
        after = admin.execute(audit_count, (world.tenant_a,)).fetchone()
    assert audited is not None and after is not None and after[0] == audited[0] + 4


def test_grouped_by_supplier_and_month(client: TestClient, world: TwoTenants) -> None:
    by_supplier = post(client, world, {"parameters": SEED, "group_by": ["supplier_id"]}).json()
    got = {r["values"]["supplier_id"]: r["values"]["total_spend"] for r in by_supplier["rows"]}
    assert got == {
        s: money(expected_spend(world.counted_a(supplier_id=s, product_code={"PRD-482", "PRD-619"})))
        for s in ("SUP-18", "SUP-27")
    }
    by_month = post(client, world, {"parameters": SEED, "grain": "month"}).json()
    assert [r["values"]["period_start"] for r in by_month["rows"]] == ["2026-02-01", "2026-03-01"]
    assert by_month["columns"][0] == {"name": "period_start", "kind": "period", "type": "date", "unit": None}
    both = post(client, world, {"parameters": SEED, "group_by": ["product_group_id"], "grain": "quarter"}).json()
    assert {(r["values"]["product_group_id"], r["values"]["period_start"]) for r in both["rows"]} == {
        ("PG-PRESSURE", "2026-01-01"),
        ("PG-CONTROL", "2026-01-01"),
    }


def test_the_other_metrics(client: TestClient, world: TwoTenants) -> None:
    price = post(
        client,
        world,
        {"parameters": {"product_code": "PRD-482", "month": "2026-02"}},
        path="/v1/metrics/catalog.unit_price/query",
    ).json()
    # 1900.00 * 0.91234567 / 10 units
    assert price["rows"][0]["values"]["unit_price"] == "173.3457"
    units = post(
        client,
        world,
        {"parameters": {"supplier_id": "SUP-18", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        path="/v1/metrics/finance.units_purchased/query",
    ).json()
    assert units["rows"][0]["values"]["units_purchased"] == "9.0000"  # 10 invoiced - 1 credited
    tax = post(
        client,
        world,
        {"parameters": {"invoice_numbers": ["INV-2026-0148", "INV-2026-0201", "INV-X"]}},
        path="/v1/metrics/finance.tax_total/query",
    ).json()
    assert tax["rows"][0]["values"]["total_tax"] == money(Decimal("361.00") * Decimal("0.91234567") + 285)
    assert tax["status"] == "partial" and tax["coverage"]["missing"] == ["INV-X"]
    above = post(
        client,
        world,
        {"parameters": {"threshold": "1785.00", "start_date": "2026-01-01", "end_date": "2026-04-01"}},
        path="/v1/metrics/finance.invoices_above_threshold/query",
    ).json()
    assert [r["values"]["invoice_number"] for r in above["rows"]] == ["INV-2026-0148"]  # 1785.00 is not above
    spend = post(
        client,
        world,
        {
            "parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"},
            "group_by": ["supplier_id"],
        },
        path="/v1/metrics/finance.company_spend/query",
    ).json()
    assert [r["values"]["supplier_id"] for r in spend["rows"]] == ["SUP-18", "SUP-27", "SUP-40"]


# -- tenant isolation ------------------------------------------------------------------------------------------
def test_each_key_sees_only_its_own_tenant(client: TestClient, world: TwoTenants) -> None:
    a = post(client, world, {"parameters": SEED}, "a").json()
    b = post(client, world, {"parameters": SEED}, "b").json()
    assert a["rows"][0]["values"]["total_spend"] == "3728.81"
    assert b["rows"][0]["values"]["total_spend"] == "999999.00"
    assert b["rows"][0]["values"]["matched_line_count"] == 1
    # Tenant B's supplier SUP-31 has data only in B: for A it is still missing.
    a31 = post(client, world, {"parameters": {**SEED, "supplier_ids": ["SUP-31"]}}, "a").json()
    assert a31["status"] == "no_data"


@pytest.mark.parametrize(
    "body",
    [
        {"parameters": SEED, "tenant_id": "other"},
        {"parameters": {**SEED, "tenant_id": "other"}},
        {"parameters": {**SEED, "extra": {"nested": [{"tenant_id": "other"}]}}},
    ],
    ids=["top-level", "in-parameters", "nested"],
)
def test_a_tenant_id_in_the_body_is_rejected(
    client: TestClient, world: TwoTenants, settings: Settings, body: dict[str, Any]
) -> None:
    assert_error(post(client, world, body), 422, "tenant_in_request", "tenant_id")
    with psycopg.connect(settings.admin_url) as admin:
        last = admin.execute(
            "select outcome, error_code from app.audit_log where tenant_id = %s order by audit_id desc limit 1",
            (world.tenant_a,),
        ).fetchone()
    assert last == ("rejected", "tenant_in_request")


def test_a_tenant_id_in_the_query_string_is_rejected(client: TestClient, world: TwoTenants) -> None:
    response = client.post(f"{QUERY}?tenant_id={world.tenant_b}", json={"parameters": SEED}, headers=auth(world))
    assert_error(response, 422, "tenant_in_request", "tenant_id")
    listing = client.get(f"/v1/metrics?tenant_id={world.tenant_b}", headers=auth(world))
    assert_error(listing, 422, "tenant_in_request")


# -- errors ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "parameter", "problem"),
    [
        ({"parameters": {**SEED, "colour": "red"}}, "colour", "unknown parameter"),
        ({"parameters": {**SEED, "company_id": 7}}, "company_id", "must be a string"),
        ({"parameters": {**SEED, "start_date": "2026-02-30"}}, "start_date", "not a valid date"),
        ({"parameters": {**SEED, "start_date": "1900-01-01"}}, "start_date", "below the minimum"),
        ({"parameters": {**SEED, "end_date": "2025-12-31"}}, "end_date", "must be after start_date"),
        (
            {"parameters": {**SEED, "invoice_statuses": ["void"]}},
            "invoice_statuses[0]",
            "not one of the allowed values",
        ),
        # Cancelled invoices are never counted (is_counted): asking for them is refused, not answered "no data".
        (
            {"parameters": {**SEED, "invoice_statuses": ["posted", "cancelled"]}},
            "invoice_statuses[1]",
            "not one of the allowed values",
        ),
        ({"parameters": {k: v for k, v in SEED.items() if k != "company_id"}}, "company_id", "required"),
        ({"parameters": SEED, "group_by": ["tenant_id"]}, "group_by", "unknown dimension"),
        ({"parameters": SEED, "group_by": ["supplier_id", "product_code", "product_group_id"]}, "group_by", "at most"),
        ({"parameters": SEED, "grain": "hour"}, "grain", "unknown grain"),
    ],
)
def test_invalid_requests_name_the_parameter_and_problem(
    client: TestClient, world: TwoTenants, body: dict[str, Any], parameter: str, problem: str
) -> None:
    error = assert_error(post(client, world, body), 422, "invalid_parameter", parameter)
    assert problem in error["message"]


def test_malformed_bodies(client: TestClient, world: TwoTenants) -> None:
    raw = client.post(QUERY, content=b"{not json", headers={**auth(world), "Content-Type": "application/json"})
    assert_error(raw, 400, "invalid_json", "body")
    assert_error(post(client, world, {"parameters": SEED, "sql": "select 1"}), 422, "invalid_request", "sql")
    assert_error(post(client, world, {"parameters": ["COMP-A"]}), 422, "invalid_request", "parameters")
    float_threshold = {"parameters": {"threshold": 1785.5, "start_date": "2026-01-01", "end_date": "2026-04-01"}}
    error = assert_error(
        post(client, world, float_threshold, path="/v1/metrics/finance.invoices_above_threshold/query"),
        422,
        "invalid_parameter",
        "threshold",
    )
    assert "not a float" in error["message"]


def test_authentication_failures_are_401(client: TestClient, world: TwoTenants) -> None:
    attempts = [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer not-a-key"},
        {"Authorization": f"Basic {world.keys['a']}"},
        {"Authorization": f"Bearer {world.keys['a_revoked']}"},
        {"Authorization": f"Bearer {world.keys['a'][:-1]}x"},
    ]
    for headers in attempts:
        response = client.post(QUERY, json={"parameters": SEED}, headers=headers)
        assert_error(response, 401, "unauthenticated")
        assert response.headers["www-authenticate"] == "Bearer"
    assert_error(client.get("/v1/metrics"), 401, "unauthenticated")


def test_missing_scope_is_403(client: TestClient, world: TwoTenants) -> None:
    error = assert_error(post(client, world, {"parameters": SEED}, "a_catalog"), 403, "missing_scope")
    assert "invoice:aggregate" in error["message"]
    ok = post(
        client,
        world,
        {"parameters": {"product_code": "PRD-482", "month": "2026-02"}},
        "a_catalog",
        path="/v1/metrics/catalog.unit_price/query",
    )
    assert ok.status_code == 200, ok.text


def test_unknown_metric_query_is_404(client: TestClient, world: TwoTenants) -> None:
    assert_error(
        post(client, world, {"parameters": SEED}, path="/v1/metrics/finance.drop_tables/query"), 404, "unknown_metric"
    )


def test_rate_limit_is_per_key_429(client: TestClient, world: TwoTenants) -> None:
    statuses = [post(client, world, {"parameters": SEED}, "a_limited").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    limited = post(client, world, {"parameters": SEED}, "a_limited")
    assert_error(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1
    # Another key of the same tenant is unaffected.
    assert post(client, world, {"parameters": SEED}, "a").status_code == 200


def test_statement_timeout_is_504(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> None:
    fast = settings.model_copy(update={"statement_timeout_ms": 300})
    locked = threading.Event()
    release = threading.Event()

    def hold_lock() -> None:
        # A pending ACCESS EXCLUSIVE lock makes the metric's read wait until its statement timeout fires.
        with psycopg.connect(settings.admin_url) as admin:
            # The rollups too: the query may be answered from one of them (semantic/rollups.py).
            admin.execute("lock table marts.validated_invoice_lines, marts.spend_daily_rollup, "
                          "marts.spend_monthly_rollup in access exclusive mode")
            locked.set()
            release.wait(10)
            admin.rollback()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert locked.wait(10)
        with TestClient(create_app(fast, registry=registry)) as timeout_client:
            response = post(timeout_client, world, {"parameters": SEED})
    finally:
        release.set()
        holder.join()
    error = assert_error(response, 504, "statement_timeout")
    assert "300 ms" in error["message"]


def test_a_metric_query_on_a_non_serving_role_never_runs(
    settings: Settings, registry: MetricRegistry, world: TwoTenants
) -> None:
    # The role check runs on the server inside the pipelined transaction (migration 0009): as the owner, which
    # bypasses row-level security, the query must be refused, not answered across tenants.
    from procura.errors import AuthorizationError
    from semantic.service import MetricService

    service = MetricService.from_settings(registry, settings)
    ctx = AuthContext(world.tenant_a, "owner-misuse", frozenset({"invoice:aggregate"}))
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        with pytest.raises(AuthorizationError, match="must run as procura_app or procura_bi"):
            service.query(owner, ctx, "finance.aggregate_spend", SEED)
        # Nothing is left open on the connection: the failed pipeline's transaction was rolled back.
        assert owner.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with psycopg.connect(settings.app_url, autocommit=True) as app:
        result = service.query(app, ctx, "finance.aggregate_spend", SEED)
        assert app.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert result.rows[0].values["total_spend"] == "3728.81"


def test_the_tenant_scope_ends_with_the_query(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> None:
    # The scope lives in the pipeline's implicit transaction (no BEGIN/COMMIT): once the query is answered, the
    # pooled connection must carry no tenant, no read-only mode and no timeout into whatever runs next on it.
    from semantic.errors import MetricExecutionError
    from semantic.service import MetricService

    service = MetricService.from_settings(registry, settings)
    ctx = AuthContext(world.tenant_a, "scope-check", frozenset({"invoice:aggregate"}))
    with psycopg.connect(settings.app_url, autocommit=True) as app:
        before = app.execute("show statement_timeout").fetchone()
        assert service.query(app, ctx, "finance.aggregate_spend", SEED).rows[0].values["total_spend"] == "3728.81"
        after = app.execute(
            "select current_setting('app.tenant_id', true), current_setting('transaction_read_only'),"
            " current_setting('statement_timeout')"
        ).fetchone()
        assert after is not None and before is not None
        assert (after[0] or "", after[1], after[2]) == ("", "off", before[0])
    # Inside an open transaction the scope would outlive the query: refused before anything is sent.
    with psycopg.connect(settings.app_url) as in_transaction:
        in_transaction.execute("select 1")
        with pytest.raises(MetricExecutionError, match="autocommit"):
            service.query(in_transaction, ctx, "finance.aggregate_spend", SEED)


def test_the_metric_pool_returns_connections_with_nothing_left_on_them(
    settings: Settings, registry: MetricRegistry, world: TwoTenants
) -> None:
    # The API's pool has no reset on return (procura.db.session.open_pool): everything the metric route sends
    # must end with its transaction, answered or refused, so the next checkout sees the session defaults.
    with TestClient(create_app(settings, registry=registry)) as fresh:
        assert post(fresh, world, {"parameters": SEED}).json()["rows"][0]["values"]["total_spend"] == "3728.81"
        assert post(fresh, world, {"parameters": {**SEED, "tenant_id": "x"}}).status_code == 422
        assert post(fresh, world, {"parameters": {**SEED, "start_date": "2026-05-01"}}).status_code == 422
        pool = fresh.app.state.pool  # type: ignore[attr-defined]
        rows = []
        with pool.connection() as first, pool.connection() as second:  # both of the pool's min_size connections
            for conn in (first, second):
                assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
                rows.append(conn.execute(
                    "select coalesce(current_setting('app.tenant_id', true), ''),"
                    " current_setting('transaction_read_only'), current_setting('statement_timeout'),"
                    " current_setting('plan_cache_mode')"
                ).fetchone())  # fmt: skip
    with psycopg.connect(settings.app_url, autocommit=True) as plain:
        default_timeout = plain.execute("show statement_timeout").fetchone()
    assert default_timeout is not None
    assert rows == [("", "off", default_timeout[0], "auto")] * 2


# -- injection -------------------------------------------------------------------------------------------------
INJECTIONS = [
    "COMP-A' OR '1'='1",
    "COMP-A'; DROP TABLE marts.validated_invoice_lines; --",
    "x') UNION SELECT key_hash FROM app.api_keys --",
    "'; select pg_sleep(5); --",
    "COMP-A\\'; set role procura_owner; --",
]


@pytest.mark.parametrize("attack", INJECTIONS)
def test_injection_in_every_parameter_is_rejected_or_inert(
    client: TestClient, world: TwoTenants, settings: Settings, attack: str
) -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ("company_id", {**SEED, "company_id": attack}),
        ("supplier_ids", {**SEED, "supplier_ids": ["SUP-18", attack]}),
        ("product_codes", {**SEED, "product_codes": [attack]}),
        ("start_date", {**SEED, "start_date": attack}),
        ("end_date", {**SEED, "end_date": attack}),
        ("invoice_statuses", {**SEED, "invoice_statuses": [attack]}),
        ("reporting_currency", {**SEED, "reporting_currency": attack}),
    ]
    for name, parameters in cases:
        response = post(client, world, {"parameters": parameters})
        error = assert_error(response, 422, "invalid_parameter")
        assert error["parameter"].startswith(name)
    assert_error(post(client, world, {"parameters": SEED, "group_by": [attack]}), 422, "invalid_parameter", "group_by")
    assert_error(post(client, world, {"parameters": SEED, "grain": attack}), 422, "invalid_parameter", "grain")
    threshold = {"threshold": attack, "start_date": "2026-01-01", "end_date": "2026-04-01"}
    assert_error(
        post(client, world, {"parameters": threshold}, path="/v1/metrics/finance.invoices_above_threshold/query"),
        422,
        "invalid_parameter",
        "threshold",
    )
    invoices = {"invoice_numbers": [attack]}
    assert_error(
        post(client, world, {"parameters": invoices}, path="/v1/metrics/finance.tax_total/query"),
        422,
        "invalid_parameter",
        "invoice_numbers[0]",
    )
    response = client.post(f"/v1/metrics/{attack}/query", json={"parameters": SEED}, headers=auth(world))
    assert_error(response, 404, "unknown_metric")
    with psycopg.connect(settings.admin_url) as admin:
        count = admin.execute(
            "select count(*) from marts.validated_invoice_lines where tenant_id = any(%s)",
            ([world.tenant_a, world.tenant_b],),
        ).fetchone()
    assert count is not None and count[0] == len(world.rows_a) + len(world.rows_b)


def test_inert_values_that_pass_validation_match_nothing(client: TestClient, world: TwoTenants) -> None:
    # Values that pass the patterns are bound, never executed: they match nothing and change nothing.
    response = post(client, world, {"parameters": {**SEED, "company_id": "COMP-A--1", "supplier_ids": ["SUP-18.or.1"]}})
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "no_data"


# -- audit -----------------------------------------------------------------------------------------------------
def test_every_query_is_audited_and_only_tenant_admins_read_it(
    client: TestClient, world: TwoTenants, settings: Settings
) -> None:
    post(client, world, {"parameters": SEED}, "a_admin")
    post(client, world, {"parameters": {**SEED, "colour": "red"}}, "a_admin")
    post(client, world, {"parameters": SEED}, "a_catalog")  # 403, audited too
    response = client.get("/v1/audit?limit=1000", headers=auth(world, "a_admin"))
    assert response.status_code == 200, response.text
    entries = response.json()["entries"]
    mine = [e for e in entries if e["principal_id"] == "a_admin@tests"]
    assert [e["outcome"] for e in mine[:2]] == ["rejected", "ok"]
    ok = mine[1]
    assert ok["metric"] == "finance.aggregate_spend" and ok["row_count"] == 1
    assert set(ok["parameter_hashes"]) == set(SEED) | {"invoice_statuses", "reporting_currency"}
    assert all(len(h) == 64 for h in ok["parameter_hashes"].values())
    assert "COMP-A" not in response.text, "parameter values are hashed, never stored"
    assert any(e["principal_id"] == "a_catalog@tests" and e["outcome"] == "forbidden" for e in entries)
    # Only tenant A's rows, only for an admin of tenant A.
    assert_error(client.get("/v1/audit", headers=auth(world, "a")), 403, "missing_scope")
    b_view = client.get("/v1/audit?limit=1000", headers=auth(world, "b_admin")).json()["entries"]
    assert not [e for e in b_view if e["principal_id"].startswith("a")]
    # The database enforces the same rule for the serving role, whatever the code asks for.
    with psycopg.connect(settings.app_url, autocommit=True) as app_conn:
        ctx = AuthContext(tenant_id=world.tenant_a, principal_id="probe", scopes=frozenset({"invoice:aggregate"}))
        with tenant_transaction(app_conn, ctx):
            hidden = app_conn.execute("select count(*) from app.audit_log").fetchone()
        with tenant_transaction(app_conn, ctx, read_only=False):
            app_conn.execute("select set_config('app.principal_scopes', 'tenant:admin', true)")
            visible = app_conn.execute("select count(distinct tenant_id), count(*) from app.audit_log").fetchone()
            updated = app_conn.execute("select has_table_privilege('app.audit_log', 'UPDATE, DELETE')").fetchone()
    assert hidden == (0,)
    assert visible is not None and visible[0] == 1 and visible[1] >= 3
    assert updated == (False,)


def test_api_keys_are_stored_hashed_and_unreadable_by_the_serving_role(settings: Settings, world: TwoTenants) -> None:
    with psycopg.connect(settings.admin_url) as admin:
        rows = admin.execute("select key_hash from app.api_keys where tenant_id = %s", (world.tenant_a,)).fetchall()
    assert rows and all(len(r[0]) == 64 for r in rows)
    stored = {r[0] for r in rows}
    assert not {k for k in world.keys.values()} & stored
    with (
        psycopg.connect(settings.app_url, autocommit=True) as app_conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        app_conn.execute("select * from app.api_keys")


def test_revocation_takes_effect_within_the_auth_cache_ttl(
    settings: Settings, registry: MetricRegistry, world: TwoTenants
) -> None:
    from procura.auth import create_key, revoke_key

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        created = create_key(owner, tenant_id=world.tenant_a, scopes=["invoice:aggregate"], principal_id="ttl@tests")
    headers = {"Authorization": f"Bearer {created.key}"}
    with TestClient(create_app(settings, registry=registry, auth_cache_ttl_s=0.5)) as ttl_client:
        assert ttl_client.get("/v1/metrics", headers=headers).status_code == 200
        with psycopg.connect(settings.owner_url, autocommit=True) as owner:
            revoke_key(owner, created.key_id)
        # Within the TTL the cached authentication still holds; after it, the revocation applies.
        assert ttl_client.get("/v1/metrics", headers=headers).status_code == 200
        time.sleep(0.6)
        assert_error(ttl_client.get("/v1/metrics", headers=headers), 401, "unauthenticated")


def test_row_cap_truncates_and_says_so(settings: Settings, registry: MetricRegistry, world: TwoTenants) -> None:
    capped = settings.model_copy(update={"row_cap": 1})
    with TestClient(create_app(capped, registry=registry)) as capped_client:
        result = post(capped_client, world, {"parameters": SEED, "group_by": ["supplier_id"]}).json()
    assert result["row_count"] == 1 and result["truncated"] is True
    assert result["rows"][0]["values"]["supplier_id"] == "SUP-18"


# --- finance.invoice_count: distinct counted documents, through the API and MCP ---------------------------------
COUNT = "/v1/metrics/finance.invoice_count/query"
COUNT_Q1 = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}


def _documents(rows: list[Any]) -> int:
    """The independent count: distinct source documents among the rows (Python, not SQL)."""
    return len({r["source_document_id"] for r in rows})


@pytest.mark.parametrize(("extra", "filters"), [
    ({}, {}),
    ({"document_types": ["invoice"]}, {"document_type": "invoice"}),
    ({"document_types": ["credit_note"]}, {"document_type": "credit_note"}),
    ({"supplier_ids": ["SUP-18"]}, {"supplier_id": "SUP-18"}),
    ({"exclude_supplier_ids": ["SUP-18", "SUP-99"]}, {"supplier_id": {"SUP-27", "SUP-40"}}),
    ({"product_codes": ["PRD-619"]}, {"product_code": "PRD-619"}),
], ids=["all", "invoices", "credit-notes", "supplier", "excluded", "product"])
def test_invoice_count_equals_the_distinct_counted_documents(
    client: TestClient, world: TwoTenants, extra: dict[str, Any], filters: dict[str, Any]
) -> None:
    # INV-2026-0201 has two lines and a replicated duplicate: one document; cancelled and drafts never count.
    body = post(client, world, {"parameters": {**COUNT_Q1, **extra}}, path=COUNT).json()
    row = body["rows"][0]["values"]
    assert row["invoice_count"] == _documents(world.counted_a(company_id="COMP-A", **filters))
    assert row["matched_line_count"] == len(world.counted_a(company_id="COMP-A", **filters))


def test_invoice_count_groups_partition_the_total_and_zero_is_a_count(client: TestClient, world: TwoTenants) -> None:
    total = post(client, world, {"parameters": COUNT_Q1}, path=COUNT).json()["rows"][0]["values"]["invoice_count"]
    grouped = post(client, world, {"parameters": COUNT_Q1, "group_by": ["supplier_id"], "grain": "month"},
                   path=COUNT).json()
    assert sum(r["values"]["invoice_count"] for r in grouped["rows"]) == total
    empty = post(client, world, {"parameters": {**COUNT_Q1, "start_date": "2020-01-01", "end_date": "2020-04-01"}},
                 path=COUNT).json()
    # No matched line: the API says no_data with no row; the metric's policy reads that as a count of 0 (ask does).
    assert empty["status"] == "no_data" and empty["rows"] == [] and empty["matched_line_count"] == 0
    assert "count of 0" in empty["policy"]["zero"]
    other = post(client, world, {"parameters": COUNT_Q1}, label="b", path=COUNT).json()
    assert other["rows"][0]["values"]["invoice_count"] == 2  # tenant B's own documents only (RLS)


LINES = "/v1/metrics/finance.invoice_line_count/query"


@pytest.mark.parametrize(("extra", "filters"), [
    ({}, {}),
    ({"document_types": ["credit_note"]}, {"document_type": "credit_note"}),
    ({"supplier_ids": ["SUP-18"]}, {"supplier_id": "SUP-18"}),
    ({"exclude_supplier_ids": ["SUP-18", "SUP-99"]}, {"supplier_id": {"SUP-27", "SUP-40"}}),
    ({"product_codes": ["PRD-619"]}, {"product_code": "PRD-619"}),
], ids=["all", "credit-notes", "supplier", "excluded", "product"])
def test_invoice_line_count_equals_the_counted_lines(
    client: TestClient, world: TwoTenants, extra: dict[str, Any], filters: dict[str, Any]
) -> None:
    # Lines, not documents: INV-2026-0201's two lines count twice, its replicated duplicate and cancelled or
    # draft documents never.
    body = post(client, world, {"parameters": {**COUNT_Q1, **extra}}, path=LINES).json()
    assert body["rows"][0]["values"]["line_count"] == len(world.counted_a(company_id="COMP-A", **filters))


def test_invoice_line_count_groups_partition_the_total_and_stay_in_the_tenant(
    client: TestClient, world: TwoTenants
) -> None:
    total = post(client, world, {"parameters": COUNT_Q1}, path=LINES).json()["rows"][0]["values"]["line_count"]
    for group_by in (["product_code"], ["supplier_id", "document_type"]):
        grouped = post(client, world, {"parameters": COUNT_Q1, "group_by": group_by, "grain": "month"},
                       path=LINES).json()
        assert sum(r["values"]["line_count"] for r in grouped["rows"]) == total, group_by
    other = post(client, world, {"parameters": COUNT_Q1}, label="b", path=LINES).json()
    documents = post(client, world, {"parameters": COUNT_Q1}, label="b", path=COUNT).json()
    assert other["rows"][0]["values"]["line_count"] >= documents["rows"][0]["values"]["invoice_count"]
    assert other["rows"][0]["values"]["line_count"] != total or total == 0


def test_invoice_count_refuses_a_grouping_it_does_not_partition(client: TestClient, world: TwoTenants) -> None:
    # A document with lines in two products would count twice: product is not an allowed grouping.
    assert_error(post(client, world, {"parameters": COUNT_Q1, "group_by": ["product_code"]}, path=COUNT), 422,
                 "invalid_parameter")


def test_invoice_count_and_min_group_by_over_mcp(settings: Settings, registry: MetricRegistry,
                                                world: TwoTenants) -> None:
    import json
    from types import SimpleNamespace

    import anyio
    from mcp import Client
    from psycopg_pool import ConnectionPool

    from router.mcp_server import build_server
    from router.tools import ToolEnv
    from semantic.service import MetricService

    auth_ctx = AuthContext(tenant_id=world.tenant_a, principal_id="mcp@tests",
                           scopes=frozenset({"invoice:aggregate", "procurement:read"}))
    with ConnectionPool(settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True) as pool:
        services = SimpleNamespace(pool=pool, ask_service=None,
                                   env=ToolEnv(metric_service=MetricService.from_settings(registry, settings)))
        server = build_server(services, fixed_auth=auth_ctx)

        async def main() -> tuple[Any, Any, Any]:
            async with Client(server) as mcp:
                listed = await mcp.call_tool("list_metrics", {})
                dims = await mcp.call_tool("get_dimensions", {"metrics": ["finance.spend_ranking",
                                                                          "finance.invoice_count"]})
                counted = await mcp.call_tool("query_metric", {"metric": "finance.invoice_count",
                                                               "parameters": COUNT_Q1})
                return listed, dims, counted

        listed, dims, counted = anyio.run(main)

    def data(result: Any) -> dict[str, Any]:
        assert not result.is_error, result.content
        return result.structured_content or json.loads(result.content[0].text)

    metrics = {m["name"]: m for m in data(listed)["metrics"]}
    assert metrics["finance.spend_ranking"]["min_group_by"] == 1  # a ranking needs its dimension
    assert metrics["finance.invoice_count"]["min_group_by"] == 0
    assert [m["min_group_by"] for m in data(dims)["metrics"]] == [1, 0]
    assert data(counted)["values"]["invoice_count"] == _documents(world.counted_a(company_id="COMP-A"))
