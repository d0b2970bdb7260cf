"""BI access under RLS: procura_bi (psycopg and the real psql client) sees one tenant's rows in every mart,
nothing without a tenant, and cannot reach landing, staging, intermediate or the ingest registry."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from psycopg import sql

from procura.db.provision import psql_argv
from procura.settings import Settings
from procura.transform import build_marts
from tests.conftest import unique_tenant
from tests.dbt.database import fresh_database
from tests.dbt.scenario import seed_tenant_a, seed_tenant_b

pytestmark = pytest.mark.integration

MARTS = (
    "validated_invoice_lines",
    "invoice_line_exceptions",
    "dim_companies",
    "dim_suppliers",
    "dim_supplier_aliases",
    "dim_products",
    "dim_product_groups",
    "product_group_hierarchy",
    "vendor_approvals",
    "fx_rates",
)
FORBIDDEN = (
    "landing.invoice_lines",
    "landing.suppliers",
    "staging.stg_invoice_lines",
    "intermediate.int_invoice_lines_enriched",
    "ingest.documents",
    "ingest.quarantine",
)


@dataclass(frozen=True)
class Warehouse:
    settings: Settings
    tenant_a: str
    tenant_b: str
    owner_counts: dict[tuple[str, str], int]


@pytest.fixture(scope="module")
def warehouse(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warehouse]:
    with fresh_database(base_settings, "bi") as settings:
        tenant_a, tenant_b = unique_tenant("ta"), unique_tenant("tb")
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            seed_tenant_a(conn, tenant_a)
            seed_tenant_b(conn, tenant_b)
        work = tmp_path_factory.mktemp("dbt")
        build_marts(settings, target_path=work / "target", log_path=work / "logs")
        # the owner (BYPASSRLS) sees every tenant: the reference counts the BI role must reproduce per tenant
        counts: dict[tuple[str, str], int] = {}
        with psycopg.connect(settings.owner_url) as conn:
            for mart in MARTS:
                query = sql.SQL("select tenant_id, count(*) from marts.{} group by tenant_id").format(
                    sql.Identifier(mart)
                )
                for tenant, n in conn.execute(query):
                    counts[(mart, tenant)] = n
        yield Warehouse(settings, tenant_a, tenant_b, counts)


def _bi_rows(settings: Settings, mart: str, tenant: str | None) -> list[tuple[str, int]]:
    with psycopg.connect(settings.bi_url) as conn:
        assert conn.execute("select current_user").fetchone() == ("procura_bi",)
        if tenant is not None:
            conn.execute("select set_config('app.tenant_id', %s, false)", (tenant,))
        query = sql.SQL("select tenant_id, count(*) from marts.{} group by tenant_id").format(sql.Identifier(mart))
        return [(str(t), int(n)) for t, n in conn.execute(query).fetchall()]


@pytest.mark.parametrize("mart", MARTS)
def test_bi_sees_exactly_its_tenants_rows_in_every_mart(warehouse: Warehouse, mart: str) -> None:
    for tenant in (warehouse.tenant_a, warehouse.tenant_b):
        expected = warehouse.owner_counts.get((mart, tenant), 0)
        assert _bi_rows(warehouse.settings, mart, tenant) == ([(tenant, expected)] if expected else [])
    # tenant A has data in every mart, so the isolation above was not vacuous
    assert warehouse.owner_counts[(mart, warehouse.tenant_a)] > 0


@pytest.mark.parametrize("mart", MARTS)
def test_bi_sees_nothing_without_a_tenant(warehouse: Warehouse, mart: str) -> None:
    assert _bi_rows(warehouse.settings, mart, None) == []
    assert _bi_rows(warehouse.settings, mart, "") == []


@pytest.mark.parametrize("relation", FORBIDDEN)
def test_bi_cannot_read_below_the_marts(warehouse: Warehouse, relation: str) -> None:
    schema, table = relation.split(".")
    with psycopg.connect(warehouse.settings.bi_url) as conn:
        conn.execute("select set_config('app.tenant_id', %s, false)", (warehouse.tenant_a,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(sql.SQL("select count(*) from {}.{}").format(sql.Identifier(schema), sql.Identifier(table)))


def test_bi_cannot_write_the_marts(warehouse: Warehouse) -> None:
    with psycopg.connect(warehouse.settings.bi_url) as conn:
        conn.execute("select set_config('app.tenant_id', %s, false)", (warehouse.tenant_a,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("delete from marts.validated_invoice_lines")


def _psql(settings: Settings, command: str) -> subprocess.CompletedProcess[str]:
    argv = [*psql_argv(settings), settings.bi_url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", command]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def test_psql_as_bi_sees_only_the_tenant_it_sets(warehouse: Warehouse) -> None:
    tenant = warehouse.tenant_a
    selects = " union all ".join(
        f"select '{mart}', count(*), count(*) filter (where tenant_id <> '{tenant}') from marts.{mart}"
        for mart in MARTS
    )
    proc = _psql(warehouse.settings, f"set app.tenant_id = '{tenant}'; {selects}")
    assert proc.returncode == 0, proc.stderr
    seen = {}
    for line in proc.stdout.strip().splitlines():
        mart, total, foreign = line.split("|")
        seen[mart] = (int(total), int(foreign))
    assert seen == {mart: (warehouse.owner_counts[(mart, tenant)], 0) for mart in MARTS}


def test_psql_as_bi_without_tenant_sees_nothing_and_landing_is_denied(warehouse: Warehouse) -> None:
    selects = " + ".join(f"(select count(*) from marts.{mart})" for mart in MARTS)
    proc = _psql(warehouse.settings, f"select current_user, {selects}")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "procura_bi|0"
    denied = _psql(
        warehouse.settings, f"set app.tenant_id = '{warehouse.tenant_a}'; select * from landing.invoice_lines"
    )
    assert denied.returncode != 0
    assert "permission denied" in denied.stderr
