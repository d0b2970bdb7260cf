"""A process killed between write and publish leaves no visible partial version, and a later run completes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ingest.pipeline import ingest_path
from procura.settings import REPO_ROOT, Settings
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    TableWriter,
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
    visible,
    writer_table_fixture,
)

pytestmark = pytest.mark.integration

_KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import psycopg
    from ingest.pipeline import ingest_path
    from tests.fixtures.ingest.support import TableWriter

    class KillAtPublish(TableWriter):
        def on_publish(self, conn, ref, previous_version):
            os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, no rollback handler, no dead letter

    url, path, table = sys.argv[1:4]
    with psycopg.connect(url, autocommit=True) as conn:
        ingest_path(conn, Path(path), writers=[KillAtPublish(table)])
    """
)


def test_killed_between_write_and_publish(settings: Settings, owner_conn, app_conn, embedder, writer_table,
                                          tmp_path: Path) -> None:
    tenant = unique_tenant("kill")
    root = make_corpus(tmp_path, tenant)
    agreement = root / "tenants" / tenant / "agreements" / "agreement-2026-04.md"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

    killed = subprocess.run([sys.executable, "-c", _KILLED_RUN, settings.owner_url, str(agreement), writer_table],
                            env=env, cwd=REPO_ROOT, capture_output=True, timeout=300)

    assert killed.returncode == -9, killed.stderr.decode()[-2000:]
    assert owner_conn.execute("select document_version, status from ingest.document_versions where tenant_id = %s",
                              (tenant,)).fetchall() == [(1, "staged")]
    assert owner_conn.execute("select count(*) from ingest.chunks where tenant_id = %s",
                              (tenant,)).fetchone()[0] == 5  # written ...
    for view in ("retrieval.active_chunks", "retrieval.active_identifiers", "retrieval.active_embeddings",
                 "ingest.active_documents"):
        assert visible(app_conn, tenant, f"select 1 from {view}") == [], view  # ... but not served

    report = ingest_path(owner_conn, agreement, embedder=embedder, writers=[TableWriter(writer_table)])

    assert [(o.action, o.document_version) for o in report.outcomes] == [("published", 1)]
    assert len(visible(app_conn, tenant, "select 1 from retrieval.active_chunks")) == 5
    assert owner_conn.execute(f"select count(*) from {writer_table} where tenant_id = %s",
                              (tenant,)).fetchone() == (5,)
