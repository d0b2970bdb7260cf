"""The Great Expectations gate on landing data: failing document versions are reported with the expectation and
rows, quarantined, and never reach the marts; `procura validate` runs the suites and prints the report."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from expectations import ValidationReport, validate_landing
from expectations.cli import validate as validate_command
from ingest.normalize import normalize_supplier_name
from procura.settings import Settings, get_settings
from procura.transform import build_marts, dbt_environment
from tests.conftest import unique_tenant
from tests.support.database import fresh_database
from tests.support.landing import Invoice, LandingWriter, Line, Supplier
from tests.support.scenario import seed_tenant_a

D = Decimal
pytestmark = pytest.mark.integration

CLEAN = Invoice("invoice-clean", "INV-C", "Supplier Beta", date(2026, 2, 1), D("19.00"),
                (Line(1, "PRD-482", D("1"), D("100"), D("100.00"), D("19.00")),))
#: document id -> the expectations it must fail
BAD: dict[str, set[str]] = {
    "invoice-negative-qty": {"no_negative_quantity_on_invoices", "no_negative_net_amount_on_invoices"},
    "invoice-lowercase-currency": {"currency_is_iso_4217"},
    "invoice-1926": {"invoice_date_in_range", "posting_date_in_range"},
    "invoice-nan": {"line_net_amount_is_numeric"},
    "invoice-9": {"supplier_known_via_alias"},
    "invoice-10": {"product_known_in_catalog"},
    "fx-bad": {"rate_is_positive"},
}


@dataclass(frozen=True)
class Landed:
    settings: Settings
    tenant: str
    work: Path


@pytest.fixture(scope="module")
def landed(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Landed]:
    with fresh_database(base_settings, "gx") as settings:
        tenant = unique_tenant("tq")
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            writer = seed_tenant_a(conn, tenant)  # includes invoice-9 (unknown supplier), invoice-10 (unknown product)
            _seed_bad_batches(writer)
        yield Landed(settings, tenant, tmp_path_factory.mktemp("gx"))


def _seed_bad_batches(writer: LandingWriter) -> None:
    writer.invoice(CLEAN)
    writer.invoice(replace(CLEAN, document_id="invoice-negative-qty", invoice_number="INV-NQ", lines=(
        Line(1, "PRD-482", D("-3"), D("100"), D("-300.00"), D("-57.00")),)))
    writer.invoice(replace(CLEAN, document_id="invoice-lowercase-currency", invoice_number="INV-LC", currency="usd"))
    writer.invoice(replace(CLEAN, document_id="invoice-1926", invoice_number="INV-1926", invoice_date=date(1926, 2, 1)))
    writer.invoice(replace(CLEAN, document_id="invoice-nan", invoice_number="INV-NAN", lines=(
        Line(1, "PRD-482", D("1"), D("100"), D("NaN"), D("19.00")),)))
    writer.fx_rates([(date(2026, 3, 1), "USD", "EUR", "corporate", D("-0.50000000"))], document_id="fx-bad")


def _failures_by_document(report: ValidationReport) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for entry in report.quarantined:
        out.setdefault(entry.batch.document_id, set()).add(entry.expectation)
    return out


def _quarantine(settings: Settings, tenant: str) -> list[tuple[str, int, str, str, dict, object]]:
    with psycopg.connect(settings.owner_url) as conn:
        return conn.execute(
            "select document_id, document_version, suite_name, expectation, details, released_at"
            " from ingest.quarantine where tenant_id = %s and expectation <> 'manual_hold' order by 1, 4",
            (tenant,),
        ).fetchall()


def test_dry_run_reports_each_failing_expectation_with_its_rows_and_writes_nothing(landed: Landed) -> None:
    with psycopg.connect(landed.settings.owner_url, autocommit=True) as conn:
        report = validate_landing(conn, tenant=landed.tenant, quarantine=False)
    assert not report.success
    assert _failures_by_document(report) == BAD
    negative = next(e for e in report.quarantined if e.expectation == "no_negative_quantity_on_invoices")
    assert negative.rows[0]["line_id"] == "invoice-negative-qty-line-01"
    assert negative.rows[0]["quantity"] == D("-3.0000")
    suites = {s.name: s for s in report.suites}
    assert suites["landing_companies"].success and suites["landing_products"].success
    assert suites["landing_invoice_lines"].rows_checked >= 20
    assert "FAIL  rate_is_positive" in report.format_text()
    assert _quarantine(landed.settings, landed.tenant) == []


def test_failing_versions_are_quarantined_and_never_reach_the_marts(landed: Landed) -> None:
    with psycopg.connect(landed.settings.owner_url, autocommit=True) as conn:
        report = validate_landing(conn, tenant=landed.tenant)
    stored = _quarantine(landed.settings, landed.tenant)
    assert {(doc, exp) for doc, _, _, exp, _, _ in stored} == {
        (doc, exp) for doc, exps in BAD.items() for exp in exps
    }
    assert all(entry.newly_quarantined for entry in report.quarantined)
    details = next(d for doc, _, _, exp, d, _ in stored if exp == "currency_is_iso_4217")
    assert details["unexpected_count"] == 1 and details["rows"][0]["currency"] == "usd"

    result = build_marts(landed.settings, target_path=landed.work / "target", log_path=landed.work / "logs")
    assert result.success
    with psycopg.connect(landed.settings.owner_url) as conn:
        served = {
            r[0] for r in conn.execute(
                "select source_document_id from marts.validated_invoice_lines where tenant_id = %s"
                " union select source_document_id from marts.invoice_line_exceptions where tenant_id = %s",
                (landed.tenant, landed.tenant),
            )
        }
        negative_rates = conn.execute("select count(*) from marts.fx_rates where rate <= 0").fetchone()
    assert not served & set(BAD)
    assert {"invoice-clean", "invoice-1", "invoice-8"} <= served  # invoice-8 lacks FX: a dbt exception, not GX
    assert negative_rates == (0,)


def test_revalidation_is_idempotent_and_a_release_sticks(landed: Landed) -> None:
    with psycopg.connect(landed.settings.owner_url, autocommit=True) as conn:
        conn.execute(
            "update ingest.quarantine set released_at = now()"
            " where tenant_id = %s and document_id = 'invoice-lowercase-currency'",
            (landed.tenant,),
        )
        again = validate_landing(conn, tenant=landed.tenant)
    assert _failures_by_document(again) == BAD
    assert not any(entry.newly_quarantined for entry in again.quarantined)
    released = [r for r in _quarantine(landed.settings, landed.tenant) if r[0] == "invoice-lowercase-currency"]
    assert released and all(r[5] is not None for r in released)
    with psycopg.connect(landed.settings.owner_url) as conn:
        served = conn.execute(
            "select document_id from staging.stg_served_document_versions where tenant_id = %s"
            " and document_id in ('invoice-lowercase-currency', 'invoice-negative-qty')",
            (landed.tenant,),
        ).fetchall()
    # released by an operator, the version is served again (as the marts' next build will show); the others not
    assert served == [("invoice-lowercase-currency",)]


def test_procura_validate_prints_the_report(landed: Landed, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCURA_DB_NAME", landed.settings.database_name)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        text = runner.invoke(validate_command, ["--tenant", landed.tenant, "--dry-run"])
        strict = runner.invoke(validate_command, ["--tenant", landed.tenant, "--dry-run", "--strict"])
        as_json = runner.invoke(validate_command, ["--tenant", landed.tenant, "--dry-run", "--json"])
        bad_window = runner.invoke(validate_command, ["--earliest", "2030-01-01", "--latest", "2020-01-01"])
    finally:
        get_settings.cache_clear()
    assert text.exit_code == 0, text.output
    assert "suite landing_invoice_lines" in text.output
    assert "FAIL  no_negative_quantity_on_invoices" in text.output
    assert "would quarantine (dry run) 7 document version(s)" in text.output
    assert strict.exit_code == 1
    payload = json.loads(as_json.output[as_json.output.index("{"):])
    assert payload["success"] is False and payload["quarantine_written"] is False
    assert bad_window.exit_code != 0 and "--earliest/--latest" in bad_window.output


def test_supplier_normalization_of_ingestion_agrees_with_the_dbt_macro(landed: Landed) -> None:
    from dbt.cli.main import dbtRunner

    from procura.transform import DBT_PROJECT_DIR, _environment

    names = ["Beta Supplies GmbH", "  BETA-SUPPLIES, Ltd. ", "Gamma Control Systems AG", "Epsilon Instr.",
             "Müller & Söhne GmbH & Co. KG", "AG", "Zeta_Sensorik gmbh"]
    values = " union all ".join(
        f"select {i} as i, {{{{ normalize_supplier_name(\"'{n}'\") }}}} as normalized" for i, n in enumerate(names)
    )
    args = ["show", "--inline", f"select * from ({values}) s order by i", "--limit", "-1", "--output", "json",
            "--project-dir", str(DBT_PROJECT_DIR), "--profiles-dir", str(DBT_PROJECT_DIR), "--quiet",
            "--target-path", str(landed.work / "show"), "--log-path", str(landed.work / "logs")]
    with _environment(dbt_environment(landed.settings)):
        outcome = dbtRunner().invoke(args)
    assert outcome.success, outcome.exception
    table = outcome.result.results[0].agate_table
    from_sql = [row["normalized"] for row in table]
    assert from_sql == [normalize_supplier_name(n) for n in names]
    assert from_sql[:2] == ["beta supplies", "beta supplies"]


def test_a_version_quarantined_for_missing_master_data_is_released_once_it_arrives(landed: Landed) -> None:
    with psycopg.connect(landed.settings.owner_url, autocommit=True) as conn:
        before = validate_landing(conn, tenant=landed.tenant)
        assert "supplier_known_via_alias" in _failures_by_document(before)["invoice-9"]
        LandingWriter(conn, landed.tenant).suppliers(
            [Supplier("SUP-77", "Omega Unknown Ltd")], document_id="suppliers-late"
        )
        report = validate_landing(conn, tenant=landed.tenant)
    assert [(b.document_id, exp) for b, _, exp in report.released] == [("invoice-9", "supplier_known_via_alias")]
    assert "invoice-9" not in _failures_by_document(report)
    assert "released 1 quarantine entry" in report.format_text()
    entry = [r for r in _quarantine(landed.settings, landed.tenant) if r[0] == "invoice-9"]
    assert entry[0][5] is not None and entry[0][4]["released_by"] == "revalidation"
    # a quarantine this suite does not own (the scenario's manual hold) is left alone
    with psycopg.connect(landed.settings.owner_url) as conn:
        hold = conn.execute(
            "select released_at from ingest.quarantine where tenant_id = %s and expectation = 'manual_hold'",
            (landed.tenant,),
        ).fetchone()
    assert hold == (None,)
