"""The accounting policy as it lands in the governed marts, checked against numbers computed in plain Python.

Values are read as procura_app inside a tenant transaction (RLS applies), from a database of this module's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from procura.db.session import AuthContext, tenant_transaction
from procura.settings import Settings
from procura.transform import TransformResult, build_marts
from tests.conftest import unique_tenant
from tests.support.database import fresh_database
from tests.support.scenario import (
    DELETED,
    FX_USD_EUR_CORPORATE,
    Q1,
    QUARANTINED,
    expected_governed_lines,
    invoice_12_versions,
    seed_tenant_a,
    seed_tenant_b,
    tenant_a_invoices,
)

D = Decimal
pytestmark = pytest.mark.integration


@dataclass(frozen=True)
class Built:
    settings: Settings
    tenant_a: str
    tenant_b: str
    result: TransformResult


@pytest.fixture(scope="module")
def built(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with fresh_database(base_settings, "marts") as settings:
        tenant_a, tenant_b = unique_tenant("ta"), unique_tenant("tb")
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            seed_tenant_a(conn, tenant_a)
            seed_tenant_b(conn, tenant_b)
        work = tmp_path_factory.mktemp("dbt")
        result = build_marts(settings, target_path=work / "target", log_path=work / "logs")
        yield Built(settings, tenant_a, tenant_b, result)


def _rows(built: Built, tenant: str, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with psycopg.connect(built.settings.app_url) as conn, tenant_transaction(
        conn, AuthContext(tenant_id=tenant, principal_id="marts-test")
    ):
        return conn.execute(sql, params).fetchall()


def _line(built: Built, line_id: str) -> dict[str, object]:
    with psycopg.connect(built.settings.app_url) as conn, tenant_transaction(
        conn, AuthContext(tenant_id=built.tenant_a, principal_id="marts-test")
    ):
        cur = conn.execute("select * from marts.validated_invoice_lines where line_id = %s", (line_id,))
        row = cur.fetchone()
        assert row is not None, f"{line_id} is not governed"
        return dict(zip([c.name for c in cur.description or ()], row, strict=True))


def test_build_runs_models_contracts_data_tests_and_policy_unit_tests(built: Built) -> None:
    nodes = built.result.nodes
    unit_tests = {n.name for n in nodes if n.resource_type == "unit_test"}
    assert built.result.success
    assert {
        "credit_note_amounts_become_magnitudes_once",
        "replicated_duplicate_is_flagged_and_first_ingested_kept",
        "cancelled_and_draft_documents_are_flagged_not_filtered",
        "invoice_level_tax_is_allocated_to_cents_summing_to_header",
        "usd_line_gets_the_corporate_rate_of_its_posting_date",
    } <= unit_tests
    assert all(n.status == "pass" for n in nodes if n.resource_type in ("unit_test", "test") and n.name
               != "conflicting_invoice_business_keys")
    models = {n.name for n in nodes if n.resource_type == "model" and n.status == "success"}
    assert {"validated_invoice_lines", "invoice_line_exceptions", "dim_products", "vendor_approvals"} <= models
    assert sum(n.resource_type == "test" for n in nodes) >= 30


def test_q1_spend_equals_the_independent_python_computation(built: Built) -> None:
    start, end = Q1
    (total, count), = _rows(
        built, built.tenant_a,
        """
        select coalesce(sum(case when document_type = 'credit_note' then -1 else 1 end
                            * (line_net_amount + line_tax_amount) * fx_rate_to_reporting_currency), 0),
               count(*)
        from marts.validated_invoice_lines
        where company_id = 'COMP-A' and supplier_id = any(%s) and invoice_status in ('posted', 'paid')
          and not is_cancelled and not is_duplicate and invoice_date >= %s and invoice_date < %s
        """,
        (["SUP-18", "SUP-27"], start, end),
    )
    _, v2 = invoice_12_versions()
    governed = expected_governed_lines([*_unique_business_docs(tenant_a_invoices()), v2])
    expected = [
        line for line in governed
        if line.status in ("posted", "paid") and start <= line.invoice_date < end
    ]
    assert total == sum((line.spend for line in expected), D(0))
    # the same number by hand: 2499 - 476 - 238 + 714 + 2080.12 + 119.07 + 11.90 + 178.50
    assert total == D("4888.59")
    assert count == len(expected) == 11


def test_policy_columns_give_the_same_q1_spend_and_each_line_its_own_policy(built: Built) -> None:
    """The columns dbt computes once (spend_reporting_amount, ..., is_counted) give the hand-checked Q1 total
    and agree line by line with the policy spelled out from the raw columns."""
    start, end = Q1
    (total, count), = _rows(
        built, built.tenant_a,
        """
        select coalesce(sum(spend_reporting_amount), 0), count(*)
        from marts.validated_invoice_lines
        where company_id = 'COMP-A' and supplier_id = any(%s) and invoice_status in ('posted', 'paid')
          and is_counted and invoice_date >= %s and invoice_date < %s
        """,
        (["SUP-18", "SUP-27"], start, end),
    )
    assert (total, count) == (D("4888.59"), 11)
    lines = _rows(
        built, built.tenant_a,
        """
        select document_type, quantity, line_net_amount, line_tax_amount, fx_rate_to_reporting_currency,
               is_cancelled, is_duplicate, spend_reporting_amount, net_reporting_amount, tax_reporting_amount,
               signed_quantity, is_counted
        from marts.validated_invoice_lines
        """,
    )
    assert {line[0] for line in lines} == {"invoice", "credit_note"}
    assert any(line[5] for line in lines) and any(line[6] for line in lines)
    for doc, qty, net, tax, fx, cancelled, duplicate, spend, net_r, tax_r, signed, counted in lines:
        sign = -1 if doc == "credit_note" else 1
        assert (spend, net_r, tax_r, signed) == (sign * (net + tax) * fx, sign * net * fx, sign * tax * fx, sign * qty)
        assert counted == (not cancelled and not duplicate)


def _unique_business_docs(invoices: list) -> list:
    seen: set[str] = set()
    kept = []
    for inv in invoices:
        if inv.business_hash() in seen:
            continue
        seen.add(inv.business_hash())
        kept.append(inv)
    return kept


def test_credit_notes_are_stored_as_magnitudes_whatever_sign_the_source_used(built: Built) -> None:
    negative_source = _line(built, "credit-note-1-line-01")
    positive_source = _line(built, "credit-note-2-line-01")
    assert negative_source["document_type"] == positive_source["document_type"] == "credit_note"
    assert (negative_source["quantity"], negative_source["line_net_amount"], negative_source["line_tax_amount"]) == (
        D("2.0000"), D("400.00"), D("76.00"))
    assert (positive_source["quantity"], positive_source["line_net_amount"]) == (D("1.0000"), D("200.00"))


def test_discount_is_not_subtracted_again(built: Built) -> None:
    line = _line(built, "invoice-1-line-01")
    assert line["line_net_amount"] == D("1900.00")  # 10 x 200.00 - 100.00 discount, as landed
    assert line["unit_price"] == D("200.0000")


def test_replicated_duplicate_is_flagged_and_the_first_ingested_kept(built: Built) -> None:
    original = _line(built, "invoice-5-line-01")
    replica = _line(built, "invoice-5-erp-replica-line-01")
    assert (original["is_duplicate"], replica["is_duplicate"]) == (False, True)
    assert original["ingest_seq"] < replica["ingest_seq"]
    other_tenant = _rows(built, built.tenant_b, "select is_duplicate from marts.validated_invoice_lines")
    assert other_tenant == [(False,)]


def test_cancelled_and_draft_are_flagged_not_filtered(built: Built) -> None:
    cancelled = _line(built, "invoice-3-line-01")
    draft = _line(built, "invoice-4-line-01")
    assert (cancelled["invoice_status"], cancelled["is_cancelled"], cancelled["is_draft"]) == ("cancelled", True, False)
    assert (draft["invoice_status"], draft["is_cancelled"], draft["is_draft"]) == ("draft", False, True)


def test_invoice_level_tax_is_allocated_and_sums_to_the_header(built: Built) -> None:
    rows = _rows(
        built, built.tenant_a,
        "select line_number, line_tax_amount from marts.validated_invoice_lines"
        " where invoice_id = 'invoice-7' order by line_number",
    )
    assert rows == [(1, D("1.90")), (2, D("5.70")), (3, D("11.40"))]
    assert sum(tax for _, tax in rows) == D("19.00")


def test_usd_line_carries_the_corporate_rate_of_its_posting_date(built: Built) -> None:
    line = _line(built, "invoice-6-line-01")
    assert (line["currency"], line["reporting_currency"]) == ("USD", "EUR")
    assert line["fx_rate_to_reporting_currency"] == FX_USD_EUR_CORPORATE
    assert (line["fx_rate_type"], str(line["fx_rate_date"])) == ("corporate", "2026-02-16")
    eur = _line(built, "invoice-1-line-01")
    assert eur["fx_rate_to_reporting_currency"] == D("1.00000000")


def test_lines_that_fail_a_rule_are_exceptions_with_their_reason(built: Built) -> None:
    exceptions = set(_rows(built, built.tenant_a, "select line_id, reason from marts.invoice_line_exceptions"))
    assert exceptions == {
        ("invoice-8-line-01", "missing_fx_rate"),
        ("invoice-9-line-01", "unknown_supplier"),
        ("invoice-10-line-02", "unknown_product"),
    }
    governed = {r[0] for r in _rows(built, built.tenant_a, "select line_id from marts.validated_invoice_lines")}
    assert "invoice-10-line-01" in governed
    assert not {"invoice-8-line-01", "invoice-9-line-01", "invoice-10-line-02"} & governed


def test_only_the_active_non_deleted_non_quarantined_version_is_served(built: Built) -> None:
    line = _line(built, "invoice-12-line-01")
    assert (line["source_document_version"], line["line_net_amount"]) == (2, D("150.00"))
    for table in ("validated_invoice_lines", "invoice_line_exceptions"):
        hidden = _rows(
            built, built.tenant_a,
            f"select count(*) from marts.{table} where source_document_id = any(%s)",
            ([DELETED.document_id, QUARANTINED.document_id],),
        )
        assert hidden == [(0,)]


def test_product_dimension_carries_group_path_and_closure(built: Built) -> None:
    product = _rows(
        built, built.tenant_a,
        "select product_group_id, group_path, root_group_id from marts.dim_products where product_code = 'PRD-482'",
    )
    assert product == [("PG-PRES", "Monitoring Products > Sensors > Pressure Sensors", "PG-MON")]
    groups = dict(_rows(built, built.tenant_a, "select product_group_id, depth from marts.dim_product_groups"))
    assert groups == {"PG-MON": 0, "PG-SENS": 1, "PG-PRES": 2, "PG-CTRL": 0}
    closure = set(_rows(
        built, built.tenant_a,
        "select ancestor_group_id, descendant_group_id, depth from marts.product_group_hierarchy",
    ))
    assert closure == {
        ("PG-MON", "PG-MON", 0), ("PG-SENS", "PG-SENS", 0), ("PG-PRES", "PG-PRES", 0), ("PG-CTRL", "PG-CTRL", 0),
        ("PG-MON", "PG-SENS", 1), ("PG-MON", "PG-PRES", 2), ("PG-SENS", "PG-PRES", 1),
    }
    monitoring_spend_lines = _rows(
        built, built.tenant_a,
        """
        select count(*) from marts.validated_invoice_lines l
        join marts.product_group_hierarchy h
          on h.tenant_id = l.tenant_id and h.descendant_group_id = l.product_group_id
        where h.ancestor_group_id = 'PG-MON'
        """,
    )
    assert monitoring_spend_lines[0][0] > 0


def test_vendor_approvals_keep_half_open_validity_and_provenance(built: Built) -> None:
    rows = set(_rows(
        built, built.tenant_a,
        "select supplier_id, valid_from::text, valid_to::text, agreement_id, page_number, chunk_id"
        " from marts.vendor_approvals",
    ))
    assert ("SUP-18", "2025-07-01", None, "agreement-2026-04", 12, "agreement-2026-04-p12-c03") in rows
    assert ("SUP-31", "2026-01-01", "2026-07-01", "agreement-2026-04", 12, "agreement-2026-04-p12-c03") in rows


def test_supplier_dimension_has_no_pii(built: Built) -> None:
    with psycopg.connect(built.settings.admin_url) as conn:
        columns = {
            r[0] for r in conn.execute(
                "select column_name from information_schema.columns"
                " where table_schema = 'marts' and table_name in ('dim_suppliers', 'dim_supplier_aliases')"
            )
        }
    assert columns and not columns & {"contact_email", "iban"}
    names = _rows(built, built.tenant_a, "select supplier_id, supplier_name from marts.dim_suppliers order by 1")
    assert names == [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma"), ("SUP-31", "Supplier Delta")]


def test_money_columns_have_explicit_numeric_scale(built: Built) -> None:
    with psycopg.connect(built.settings.admin_url) as conn:
        types = dict(conn.execute(
            """
            select column_name, format_type(atttypid, atttypmod)
            from information_schema.columns c
            join pg_attribute a on a.attrelid = 'marts.validated_invoice_lines'::regclass and a.attname = c.column_name
            where c.table_schema = 'marts' and c.table_name = 'validated_invoice_lines'
            """
        ).fetchall())
    assert types["quantity"] == types["unit_price"] == "numeric(18,4)"
    assert types["line_net_amount"] == types["line_tax_amount"] == "numeric(18,2)"
    assert types["fx_rate_to_reporting_currency"] == "numeric(18,8)"
    assert not [name for name, t in types.items() if "double" in t or "real" in t]


def test_build_writes_artifacts_to_the_requested_target(built: Built, tmp_path: Path) -> None:
    assert (built.result.target_path / "manifest.json").is_file()
    assert (built.result.target_path / "run_results.json").is_file()


def test_source_freshness_of_a_tenants_landing_rows(built: Built, tmp_path: Path) -> None:
    """`dbt source freshness` reads max(ingested_at) per landing table; under FORCE RLS the owner role sees a
    tenant's rows only with that tenant set (PGOPTIONS), and then every table is fresh."""
    import json
    import os
    import subprocess
    import sys

    from procura.settings import REPO_ROOT
    from procura.transform import dbt_environment

    env = {**os.environ, **dbt_environment(built.settings), "DBT_PROFILES_DIR": str(REPO_ROOT),
           "PGOPTIONS": f"-c app.tenant_id={built.tenant_a}"}
    dbt = Path(sys.executable).with_name("dbt")
    subprocess.run(
        [str(dbt), "source", "freshness", "--project-dir", str(REPO_ROOT), "--target-path", str(tmp_path / "target"),
         "--log-path", str(tmp_path / "logs"), "--quiet", "--no-send-anonymous-usage-stats"],
        env=env, check=True, timeout=300, cwd=REPO_ROOT,
    )
    results = json.loads((tmp_path / "target" / "sources.json").read_text())["results"]
    assert len(results) == 10 and {r["status"] for r in results} == {"pass"}, results
