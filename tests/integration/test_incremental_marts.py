"""validated_invoice_lines builds incrementally by published document version, and a full refresh gives the
same rows.

A database of this module's own: the policy scenario is landed and built whole; then new invoices, a new
version of an invoice, a tombstone, a hard delete, a replicated duplicate, an amendment that flips an unchanged
document's duplicate flag, a release from quarantine, a change committed late by a concurrent transaction and a
master-data change (an FX rate that makes an unconvertible line valid) arrive, and the incremental build's rows
equal a full refresh's, row for row. The changes reach the build through the change log of migration 0300.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from procura.settings import Settings
from procura.transform import TransformResult, _invoke, build_marts
from semantic.testing import rollup_model_sql
from tests.conftest import unique_tenant
from tests.support.database import fresh_database
from tests.support.landing import LandingWriter
from tests.support.scenario import FX_USD_EUR_CORPORATE, QUARANTINED, seed_tenant_a, seed_tenant_b, tenant_a_invoices

pytestmark = pytest.mark.integration
D = Decimal


def _rows(settings: Settings, relation: str) -> list[tuple[object, ...]]:
    # The superuser reads every tenant's rows (forced RLS would hide them from the owner).
    with psycopg.connect(settings.admin_url) as conn:
        return conn.execute(f"select * from {relation} order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10").fetchall()


#: What an incremental run rebuilds: the lines and the rollups read from them (everything upstream is a view).
_SELECTION = ["--select", "validated_invoice_lines", "spend_daily_rollup", "spend_monthly_rollup"]


def _run(settings: Settings, target: Path, logs: Path, *extra: str) -> TransformResult:
    return _invoke(settings, ["run", *_SELECTION, *extra], progress=None, target_path=target, log_path=logs, check=True)


def _lines_node(result: TransformResult) -> str:
    node = next(n for n in result.nodes if n.name == "validated_invoice_lines" and n.resource_type == "model")
    return node.message or ""


def test_incremental_build_equals_a_full_refresh(base_settings: Settings, tmp_path: Path) -> None:
    with fresh_database(base_settings, "incr") as settings:
        tenant_a, tenant_b = unique_tenant("ia"), unique_tenant("ib")
        target, logs = tmp_path / "target", tmp_path / "logs"
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            writer = seed_tenant_a(conn, tenant_a)
            seed_tenant_b(conn, tenant_b)
        build_marts(settings, target_path=target, log_path=logs)
        before = _rows(settings, "marts.validated_invoice_lines")

        invoices = {i.document_id: i for i in tenant_a_invoices()}
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            writer = LandingWriter(conn, tenant_a, dict(writer.versions))
            first = next(iter(invoices.values()))
            # new invoices (one dated on a day without an FX rate yet, in USD)
            writer.invoice(replace(first, document_id="invoice-new-1", invoice_number="INV-NEW-1"))
            usd = replace(first, document_id="invoice-new-usd", invoice_number="INV-NEW-USD", currency="USD",
                          invoice_date=date(2026, 3, 3))  # fmt: skip
            writer.invoice(usd)
            # a new version of an existing invoice, and a tombstone
            writer.invoice(replace(first, status="cancelled"), version=writer.versions[first.document_id] + 1)
            second = list(invoices.values())[1]
            writer.delete(second.document_id)
            # lines joining rollup groups that keep all their lines (merged into the existing rollup rows)
            third = list(invoices.values())[2]
            writer.invoice(replace(third, document_id="invoice-new-3", invoice_number="INV-NEW-3"))
            # duplicates in the increment: a third export of invoice-5 arrives (a replicated duplicate), and an
            # amendment moves invoice-5 itself to another invoice number, so its unchanged first replica is now
            # the first of its key and no longer a duplicate (a flag flipped on a document that did not change)
            writer.invoice(replace(invoices["invoice-5"], document_id="invoice-5-replica-2", source_system="erp-2"))
            writer.invoice(replace(invoices["invoice-5"], invoice_number="INV-5A"),
                           version=writer.versions["invoice-5"] + 1)  # fmt: skip
            # a release from quarantine
            conn.execute(
                "update ingest.quarantine set released_at = now() where tenant_id = %s and document_id = %s",
                (tenant_a, QUARANTINED.document_id),
            )
            # a hard delete of the registry row (not what ingestion does, but nothing may keep its lines)
            conn.execute("delete from ingest.documents where tenant_id = %s and document_id = 'invoice-11'",
                         (tenant_a,))
            # a registry update that changes nothing served is not logged
            conn.execute(
                "update ingest.documents set source_uri = source_uri || '#moved' where tenant_id = %s"
                " and document_id = 'invoice-10'",
                (tenant_a,),
            )
        assert _logged_changes(settings, tenant_a) == {
            "invoice-new-1", "invoice-new-usd", first.document_id, second.document_id, "invoice-new-3",
            "invoice-5-replica-2", "invoice-5", QUARANTINED.document_id, "invoice-11",
        }  # fmt: skip
        assert _has_line(settings, tenant_a, "invoice-11")
        # the USD invoice has no rate yet: an exception, not a governed line
        first_incremental = _run(settings, target, logs)
        assert first_incremental.success
        assert _logged_changes(settings, tenant_a) == set(), "the build consumed the log"
        assert not _has_line(settings, tenant_a, "invoice-11")
        assert not _has_line(settings, tenant_a, "invoice-new-usd")
        assert _duplicate_flags(settings, tenant_a) == {
            "invoice-5": False,
            "invoice-5-erp-replica": False,
            "invoice-5-replica-2": True,
        }
        # New lines only (plus the rebuilt documents): rollup groups merged, not recomputed; as a full build would be.
        for relation in _ROLLUPS:
            assert _rows(settings, relation) == _rollup_from_lines(settings, relation), relation
        # Concurrent ingestion: a transaction that logged its change first commits after one that logged later, and
        # after a build started. That build sees only the committed one; the late one stays in the log for the next.
        with psycopg.connect(settings.owner_url) as late, psycopg.connect(settings.owner_url, autocommit=True) as early:
            LandingWriter(late, tenant_a).invoice(replace(first, document_id="invoice-late", invoice_number="INV-LATE"))
            LandingWriter(early, tenant_a).invoice(
                replace(first, document_id="invoice-early", invoice_number="INV-EARLY")
            )
            assert _run(settings, target, logs).success
            assert _has_line(settings, tenant_a, "invoice-early")
            late.commit()
        assert not _has_line(settings, tenant_a, "invoice-late")
        assert _logged_changes(settings, tenant_a) == {"invoice-late"}
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            writer = LandingWriter(conn, tenant_a, dict(writer.versions))
            # master data: the missing USD rate arrives in a new version of the FX document
            writer.fx_rates(
                [
                    (date(2026, 2, 16), "USD", "EUR", "corporate", FX_USD_EUR_CORPORATE),
                    (date(2026, 2, 16), "USD", "EUR", "spot", D("0.91000000")),
                    (date(2026, 2, 20), "GBP", "EUR", "corporate", D("1.17000000")),
                    (date(2026, 3, 3), "USD", "EUR", "corporate", D("0.93000000")),
                ],
                version=2,
            )

        incremental = _run(settings, target, logs)
        after_incremental = _rows(settings, "marts.validated_invoice_lines")
        rollups_incremental = {r: _rows(settings, r) for r in _ROLLUPS}
        assert _pending_rollup_changes(settings) == 0, "each rollup consumed the lines' changes"
        _assert_no_exclusive_lock(settings)
        full = _run(settings, target, logs, "--full-refresh")
        after_full = _rows(settings, "marts.validated_invoice_lines")

        assert incremental.success and full.success
        assert after_incremental != before  # the changes arrived
        assert after_incremental == after_full
        for relation, rows in rollups_incremental.items():
            assert rows == _rows(settings, relation), f"{relation}: incremental rows differ from a full refresh"
        # The incremental run inserted only the affected documents' lines (dbt reports the rows it wrote).
        inserted = int(_lines_node(incremental).split()[-1])  # e.g. "INSERT 0 3"
        assert 0 < inserted < len(after_full), _lines_node(incremental)
        assert _has_line(settings, tenant_a, "invoice-new-usd")  # valid once its rate arrived
        assert not _has_line(settings, tenant_a, second.document_id)  # tombstoned
        assert _has_line(settings, tenant_a, QUARANTINED.document_id)  # released
        assert _has_line(settings, tenant_a, "invoice-late")  # logged before, committed after the earlier build

        with psycopg.connect(settings.admin_url) as conn:
            state = conn.execute(
                "select relrowsecurity and relforcerowsecurity from pg_class"
                " where oid = 'ingest.served_document_changes'::regclass"
            ).fetchone()
        assert state == (True,), "the change log is tenant-scoped like every table"

        # An upgrade whose mart gained a column (here: the relation an older release built lacks one) is rebuilt
        # whole by the build, not appended to with NULLs and not left failing.
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            conn.execute("alter table marts.validated_invoice_lines drop column spend_document_amount")
        messages: list[str] = []
        upgraded = build_marts(settings, progress=messages.append, target_path=target, log_path=logs)
        assert upgraded.success
        assert any("rebuilding it whole" in m for m in messages), messages
        assert _rows(settings, "marts.validated_invoice_lines") == after_full


_ROLLUPS = ("marts.spend_daily_rollup", "marts.spend_monthly_rollup")


def _rollup_from_lines(settings: Settings, relation: str) -> list[tuple[object, ...]]:
    """The rows a full build of the rollup would have now: its model's SQL (rendered with the macros) over the lines."""
    body = rollup_model_sql(relation.split(".")[1])
    with psycopg.connect(settings.admin_url) as conn:
        return conn.execute(f"select * from ({body}) as r order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10").fetchall()


def _logged_changes(settings: Settings, tenant: str) -> set[str]:
    """The tenant's documents in the change log (ingest.served_document_changes) not yet consumed by a build."""
    with psycopg.connect(settings.admin_url) as conn:
        rows = conn.execute(
            "select document_id from ingest.served_document_changes where tenant_id = %s", (tenant,)
        ).fetchall()
    return {str(document) for (document,) in rows}


def _pending_rollup_changes(settings: Settings) -> int:
    with psycopg.connect(settings.admin_url) as conn:
        row = conn.execute("select count(*) from intermediate.spend_rollup_changes").fetchone()
    return int(row[0]) if row else -1


def _duplicate_flags(settings: Settings, tenant: str) -> dict[str, bool]:
    """is_duplicate of the lines of invoice-5 and its replicas, by document."""
    with psycopg.connect(settings.admin_url) as conn:
        rows = conn.execute(
            "select source_document_id, bool_and(is_duplicate) from marts.validated_invoice_lines"
            " where tenant_id = %s and source_document_id like 'invoice-5%%' group by 1",
            (tenant,),
        ).fetchall()
    return {str(document): bool(flag) for document, flag in rows}


def _has_line(settings: Settings, tenant: str, document_id: str) -> bool:
    with psycopg.connect(settings.admin_url) as conn:
        row = conn.execute(
            "select count(*) from marts.validated_invoice_lines where tenant_id = %s and source_document_id = %s",
            (tenant, document_id),
        ).fetchone()
    return bool(row and row[0])


def _assert_no_exclusive_lock(settings: Settings) -> None:
    """The marts post-hooks on a table that already has its policy and hidden statistics change nothing and take
    no ACCESS EXCLUSIVE lock (migration 0141), so an incremental run never locks metric queries out."""
    with psycopg.connect(settings.owner_url) as conn:
        conn.execute("call app.apply_tenant_isolation('marts.validated_invoice_lines')")
        conn.execute("call app.hide_column_statistics('marts.validated_invoice_lines')")
        held = conn.execute(
            "select mode from pg_locks where pid = pg_backend_pid()"
            " and relation = 'marts.validated_invoice_lines'::regclass"
        ).fetchall()
        conn.rollback()
    assert ("AccessExclusiveLock",) not in held, held
