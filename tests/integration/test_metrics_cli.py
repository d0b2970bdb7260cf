"""``procura keys`` and ``procura metrics`` against the test database: the same service layer as the API."""

from __future__ import annotations

import json
from collections.abc import Iterator

import psycopg
import pytest
from click.testing import CliRunner

from procura.auth import authenticate
from procura.cli import main
from procura.errors import AuthenticationError
from procura.settings import Settings, get_settings
from semantic.testing import GovernedMarts, TwoTenants, build_governed_marts, remove_two_tenants, seed_two_tenants

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def marts(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> GovernedMarts:
    return build_governed_marts(settings, tmp_path_factory.mktemp("dbt"))


@pytest.fixture(scope="module")
def world(settings: Settings, marts: GovernedMarts) -> Iterator[TwoTenants]:
    data = seed_two_tenants(settings, "cli")
    yield data
    remove_two_tenants(settings, data)


@pytest.fixture
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """A runner whose commands see the test database (settings are read once per process, so reset them)."""
    monkeypatch.setenv("PROCURA_DB_NAME", settings.database_name)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


def test_keys_create_prints_the_key_once_and_it_authenticates(
    cli: CliRunner, settings: Settings, world: TwoTenants
) -> None:
    created = cli.invoke(
        main, ["keys", "create", "--tenant", world.tenant_a, "--scopes", "invoice:aggregate, procurement:read"]
    )
    assert created.exit_code == 0, created.output
    key = created.stdout.strip()
    assert key.startswith("prk_") and "\n" not in key
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        principal = authenticate(conn, key)
    assert principal.context.tenant_id == world.tenant_a
    assert principal.context.scopes == frozenset({"invoice:aggregate", "procurement:read"})
    listed = cli.invoke(main, ["keys", "list", "--tenant", world.tenant_a])
    assert principal.key_id in listed.stdout and key not in listed.stdout
    revoked = cli.invoke(main, ["keys", "revoke", principal.key_id])
    assert revoked.exit_code == 0, revoked.output
    with psycopg.connect(settings.app_url, autocommit=True) as conn, pytest.raises(AuthenticationError):
        authenticate(conn, key)
    bad = cli.invoke(main, ["keys", "create", "--tenant", "Tenant A!", "--scopes", "invoice:aggregate"])
    assert bad.exit_code != 0 and "tenant" in bad.output


def test_metrics_list_describe_and_compile(cli: CliRunner, marts: GovernedMarts) -> None:
    target = ["--target-dir", str(marts.target_dir)]
    listed = cli.invoke(main, ["metrics", "list", *target])
    assert listed.exit_code == 0, listed.output
    assert "finance.aggregate_spend" in listed.stdout and "catalog.unit_price" in listed.stdout
    described = cli.invoke(main, ["metrics", "describe", "finance.tax_total", *target])
    assert json.loads(described.stdout)["parameters"]["required"] == ["invoice_numbers"]
    snowflake = cli.invoke(
        main, ["metrics", "compile", "finance.aggregate_spend", "--dialect", "snowflake", "--grain", "month", *target]
    )
    assert snowflake.exit_code == 0, snowflake.output
    assert ":company_id" in snowflake.stdout and "DATE_TRUNC('MONTH'" in snowflake.stdout
    duckdb = cli.invoke(main, ["metrics", "compile", "finance.aggregate_spend", "--dialect", "duckdb", *target])
    assert "$company_id" in duckdb.stdout
    unknown = cli.invoke(main, ["metrics", "compile", "finance.aggregate_spend", "--group-by", "tenant_id", *target])
    assert unknown.exit_code != 0 and "unknown dimension 'tenant_id'" in unknown.output


def test_metrics_query_uses_the_key_tenant_and_is_audited(
    cli: CliRunner, settings: Settings, marts: GovernedMarts, world: TwoTenants
) -> None:
    args = [
        "metrics", "query", "finance.aggregate_spend", "--target-dir", str(marts.target_dir),
        "--param", "company_id=COMP-A", "--param", "supplier_ids=SUP-18,SUP-27",
        "--param", "product_codes=PRD-482,PRD-619",
        "--param", "start_date=2026-01-01", "--param", "end_date=2026-04-01",
    ]  # fmt: skip
    result = cli.invoke(main, args, env={"PROCURA_API_KEY": world.keys["a"]})
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["rows"][0]["values"] == {"total_spend": "3728.81", "matched_line_count": 4}
    as_b = cli.invoke(main, [*args, "--key", world.keys["b"]])
    assert json.loads(as_b.stdout)["rows"][0]["values"]["total_spend"] == "999999.00"
    bad = cli.invoke(main, [*args, "--param", "colour=red", "--key", world.keys["a"]])
    assert bad.exit_code != 0 and "colour: unknown parameter" in bad.output
    with psycopg.connect(settings.admin_url) as admin:
        routes = admin.execute(
            "select route, outcome from app.audit_log where tenant_id = %s and route = 'cli' order by audit_id",
            (world.tenant_a,),
        ).fetchall()
    assert routes == [("cli", "ok"), ("cli", "rejected")]
