"""Embeddings with the real MiniLM model: semantic search over stored vectors, backfill of a second config into
a parallel index and an atomic switch, and the SQL twin of the supplier-name normalization."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import psycopg
import pytest

from ingest.embedder import get_default_embedder
from ingest.normalize import normalize_supplier_name
from ingest.pipeline import ingest_path
from ingest.registry import activate_embedding_config
from tests.conftest import unique_tenant
from tests.fixtures.ingest.support import (  # noqa: F401 - pytest registers these fixtures by name
    embedder_fixture,
    make_corpus,
    owner_conn_fixture,
    visible,
)

pytestmark = pytest.mark.integration


def test_stored_vectors_answer_a_paraphrase(owner_conn, app_conn, embedder, tmp_path: Path) -> None:
    tenant = unique_tenant("vec")
    ingest_path(owner_conn, make_corpus(tmp_path, tenant), embedder=embedder, writers=())
    query = embedder.embed_query("how often must the pressure sensor be recalibrated?")
    from pgvector.psycopg import register_vector

    register_vector(app_conn)
    best = visible(app_conn, tenant, "select c.chunk_id from retrieval.active_embeddings e join "
                                     "retrieval.active_chunks c using (tenant_id, chunk_id, document_version) "
                                     "order by e.embedding <=> %s limit 1", (query,))
    assert best == [("manual-prd-482-p02-c01",)]
    norms = [float(np.linalg.norm(v.to_numpy())) for (v,) in owner_conn.execute(
        "select embedding from ingest.embeddings where tenant_id = %s", (tenant,))]
    assert norms and all(abs(n - 1.0) < 1e-3 for n in norms)


def test_second_config_is_backfilled_in_parallel_and_switched_atomically(owner_conn, app_conn, embedder,
                                                                         tmp_path: Path) -> None:
    tenant = unique_tenant("cfg")
    root = make_corpus(tmp_path, tenant)
    ingest_path(owner_conn, root, embedder=embedder, writers=())
    raw = get_default_embedder(normalize=False)
    assert raw.config.embedding_config_id != embedder.config.embedding_config_id

    backfill = ingest_path(owner_conn, root, embedder=raw, writers=())

    assert backfill.backfilled == 11 and backfill.skipped == 1 and backfill.published == 0  # fx has no chunks
    per_config = dict(owner_conn.execute("select embedding_config_id, count(*) from ingest.embeddings where "
                                         "tenant_id = %s group by 1", (tenant,)).fetchall())
    assert per_config == {embedder.config.embedding_config_id: 28, raw.config.embedding_config_id: 28}
    # still served: the original config only
    served = {r[0] for r in visible(app_conn, tenant, "select embedding_config_id from retrieval.active_embeddings")}
    assert served == {embedder.config.embedding_config_id}

    try:
        activate_embedding_config(owner_conn, raw.config.embedding_config_id)
        served = {r[0] for r in visible(app_conn, tenant, "select embedding_config_id from "
                                                          "retrieval.active_embeddings")}
        assert served == {raw.config.embedding_config_id}
        assert owner_conn.execute("select count(*) from ingest.embedding_configs where is_active").fetchone() == (1,)
    finally:
        activate_embedding_config(owner_conn, embedder.config.embedding_config_id)
    assert ingest_path(owner_conn, root, embedder=embedder, writers=()).skipped == 12


def test_sql_and_python_supplier_normalization_agree(owner_conn) -> None:
    names = ["Beta Supplies GmbH", "  BETA-SUPPLIES, Ltd. ", "Epsilon Instr.", "Theta Präzision AG",
             "Gamma Control Systems AG", "Supplier Gamma", "Iota Cable Works Ltd", "ACME Co. Inc.", "GmbH", "---",
             "Delta Enclosures Ltd", "O'Neil & Sons Corp"]
    for name in names:
        stored = owner_conn.execute("select ingest.normalize_supplier_name(%s)", (name,)).fetchone()[0]
        assert stored == normalize_supplier_name(name), name


def test_unknown_embedding_config_cannot_be_activated(owner_conn) -> None:
    from ingest.errors import IngestError

    with pytest.raises(IngestError, match="unknown embedding config"):
        activate_embedding_config(owner_conn, "no-such-config")
    assert owner_conn.execute("select count(*) from ingest.embedding_configs where is_active").fetchone() == (1,)
    owner_conn.execute("insert into ingest.embedding_configs (embedding_config_id, model, revision, dimension, "
                       "normalization, similarity) values ('test-dummy', 'm', 'r', 384, 'l2', 'cosine')")
    try:
        with pytest.raises(psycopg.errors.UniqueViolation):
            owner_conn.execute("update ingest.embedding_configs set is_active = true")
    finally:
        owner_conn.execute("delete from ingest.embedding_configs where embedding_config_id = 'test-dummy'")
