"""Per-tenant blast radius through the whole pipeline: two tenants from the same files, one poisoned with master
data that references suppliers it does not have. Ingestion, the landing quality gate and dbt build go on; the
clean tenant's marts stay full and the poisoned tenant loses only the versions that hold the bad references."""

from __future__ import annotations

from pathlib import Path

import psycopg

from expectations.runner import validate_landing
from ingest.pipeline import ingest_path
from procura.settings import Settings
from procura.transform import build_marts
from tests.fixtures.ingest.support import embedder_fixture, make_corpus  # noqa: F401 - fixture by name
from tests.support.database import fresh_database

CLEAN, POISONED = "clean-1", "poisoned-1"


def _served_lines(conn: psycopg.Connection) -> dict[str, int]:
    rows = conn.execute("select tenant_id, count(*) from marts.validated_invoice_lines group by 1").fetchall()
    return {str(t): int(n) for t, n in rows}


def test_a_poisoned_tenant_never_empties_another_tenants_marts(base_settings: Settings, embedder,
                                                               tmp_path: Path) -> None:
    root = make_corpus(tmp_path / "c", CLEAN)
    make_corpus(root, POISONED)
    folder = root / "tenants" / POISONED
    # the poisoned tenant's catalog and agreement name a supplier its master data lacks (a bad export)
    products = folder / "catalog" / "products.csv"
    products.write_text(products.read_text().replace(",SUP-18,", ",SUP-404,", 1))
    agreement = folder / "agreements" / "agreement-2026-04.md"
    agreement.write_text(agreement.read_text().replace("| SUP-27 |", "| SUP-405 |"))
    with (fresh_database(base_settings, "blast") as settings,
          psycopg.connect(settings.owner_url, autocommit=True) as conn):
        report = ingest_path(conn, root, embedder=embedder, writers=())
        assert report.dead_lettered == 0, [o.error for o in report.outcomes if o.error]
        gate = validate_landing(conn)
        quarantined = {(b.tenant_id, b.document_id) for b in gate.quarantined_batches}
        result = build_marts(settings, target_path=tmp_path / "target", log_path=tmp_path / "logs", check=False)
        served = _served_lines(conn)
        landed: dict[str, int] = dict(conn.execute(
            "select l.tenant_id, count(*) from landing.invoice_lines l join ingest.documents d "
            "on d.tenant_id = l.tenant_id and d.document_id = l.document_id "
            "and d.active_version = l.document_version group by 1").fetchall())

    assert result.success, result.summary() + "; " + "; ".join(f"{n.name}: {n.message}" for n in result.failed())
    assert {t for t, _ in quarantined} == {POISONED}
    assert (POISONED, "products") in quarantined and (POISONED, "agreement-2026-04") in quarantined
    # the clean tenant serves every line it landed; the poisoned one loses the lines of the refused catalog
    assert served[CLEAN] == landed[CLEAN] > 0
    assert served.get(POISONED, 0) < served[CLEAN]
