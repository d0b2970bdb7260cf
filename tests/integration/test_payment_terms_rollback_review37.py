"""Review 37: rolling an agreement back to a superseded version re-stages that version's payment term.

landing.payment_terms keeps a superseded version's row (it is the term of its days), so re-staging the same
version (an audited rollback, back and forth) must replace that row, not copy it a second time (a duplicate key
made the rollback fail). Seeded: the two versions' terms vary; one row per (document, version) after each step.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from ingest.pipeline import ingest_path, rollback_document
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    UPDATES_FIXTURE,
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
)

pytestmark = pytest.mark.integration
AGREEMENT = "agreements/agreement-2026-04.md"


def _with_term(path: Path, days: int) -> None:
    path.write_text(path.read_text().replace("Payment is due 30 days net", f"Payment is due {days} days net"))


def _terms(conn, tenant: str) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return conn.execute("select document_version, term_days from landing.payment_terms where tenant_id = %s "
                        "and document_id = 'agreement-2026-04' order by 1", (tenant,)).fetchall()


@pytest.mark.parametrize("seed", range(2))
def test_rollback_back_and_forth_keeps_one_term_row_per_version(owner_conn, embedder, tmp_path: Path,
                                                                seed: int) -> None:
    rng = random.Random(seed)
    first, second = rng.sample([10, 14, 30, 45, 60], 2)
    tenant = unique_tenant("ptroll")
    root = make_corpus(tmp_path / "c", tenant)
    base = root / "tenants" / tenant / AGREEMENT
    _with_term(base, first)
    assert ingest_path(owner_conn, base, embedder=embedder).published == 1
    updates = tmp_path / "u" / "tenants" / tenant
    shutil.copytree(UPDATES_FIXTURE, updates)
    _with_term(updates / AGREEMENT, second)
    assert ingest_path(owner_conn, updates, embedder=embedder).published == 1
    assert _terms(owner_conn, tenant) == [(1, first), (2, second)]

    rollback_document(owner_conn, tenant, "agreement-2026-04", 1, reason="withdrawn", actor="test", embedder=embedder)
    assert _terms(owner_conn, tenant) == [(1, first), (2, second)]
    rollback_document(owner_conn, tenant, "agreement-2026-04", 2, reason="reinstated", actor="test",
                      embedder=embedder)
    assert _terms(owner_conn, tenant) == [(1, first), (2, second)]
    statuses = owner_conn.execute("select document_version, status from ingest.document_versions where tenant_id = %s "
                                  "and document_id = 'agreement-2026-04' order by 1", (tenant,)).fetchall()
    assert statuses == [(1, "superseded"), (2, "published")]
