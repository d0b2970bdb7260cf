"""The vector branch: pgvector HNSW under RLS, with iterative scans and an exact fallback.

The query is embedded with the embedder the caller passes; :func:`check_embedding_config` first compares its
configuration (model, revision, dimension, normalization, similarity, prompts) with the active config in
``ingest.embedding_configs`` and refuses a mismatch instead of comparing incomparable vectors.

Access paths (both return exact cosine distances, re-sorted):

* ``hnsw``: the HNSW index on ``ingest.embeddings`` is shared by all tenants, so the tenant predicate (RLS) and
  the request filters are applied while scanning. ``hnsw.iterative_scan = relaxed_order`` lets the scan continue
  past ``ef_search`` until ``depth`` rows pass them (bounded by ``hnsw.max_scan_tuples``); the materialized CTE
  then restores strict distance order, as pgvector's documentation prescribes.
* ``exact``: when at most ``exact_threshold`` chunks pass the filters, a sequential distance computation over
  that small set is both exact and cheap; it is also the fallback whenever the HNSW scan returns fewer rows
  than exist (so a filtered query never silently returns fewer than ``depth`` results).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import psycopg
from psycopg import sql

from ingest.embedder import Embedder, EmbeddingConfig
from retrieval.candidates import BranchResult, ChunkKey, Hit
from retrieval.config import VectorConfig
from retrieval.errors import IndexConfigMismatchError, IndexNotReadyError
from retrieval.filters import filter_sql
from retrieval.models import Filters

if TYPE_CHECKING:
    import numpy as np

_CONFIG_FIELDS = ("model", "revision", "dimension", "normalization", "similarity", "document_prompt", "query_prompt")


def active_embedding_config(conn: psycopg.Connection) -> EmbeddingConfig:
    """The one active embedding configuration.

    Raises:
        IndexNotReadyError: no configuration is active (nothing was ingested yet).
    """
    row = conn.execute(
        "select embedding_config_id, model, revision, dimension, normalization, similarity, document_prompt, "
        "query_prompt from ingest.embedding_configs where is_active"
    ).fetchone()
    if row is None:
        raise IndexNotReadyError("vector: no active embedding configuration; ingest documents first")
    return EmbeddingConfig(*row)


def check_embedding_config(conn: psycopg.Connection, embedder: Embedder) -> EmbeddingConfig:
    """The active config, after checking that ``embedder`` produces vectors comparable with it.

    Raises:
        IndexConfigMismatchError: the embedder differs from the active config in any field that makes vectors
            comparable (the message names the fields).
    """
    active = active_embedding_config(conn)
    mine = embedder.config
    differing = [f for f in _CONFIG_FIELDS if getattr(mine, f) != getattr(active, f)]
    if mine.embedding_config_id != active.embedding_config_id:
        differing.insert(0, "embedding_config_id")
    if differing:
        details = ", ".join(f"{f}: query {getattr(mine, f)!r} vs index {getattr(active, f)!r}" for f in differing)
        raise IndexConfigMismatchError(f"vector: the query embedder does not match the active index config ({details})")
    if active.similarity != "cosine":
        raise IndexConfigMismatchError(f"vector: the index similarity is {active.similarity}; this branch uses cosine")
    return active


@dataclass(frozen=True)
class _Scan:
    rows: list[tuple[str, int, str, float]]
    path: str


_CANDIDATES = """
from retrieval.active_embeddings x
{chunk_join}
where x.embedding_config_id = %(config_id)s and {predicate}
"""

_HNSW = """
with nearest as materialized (
    select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates}
    order by x.embedding <=> %(q)s
    limit %(depth)s
)
select document_id, document_version, chunk_id, distance from nearest order by distance, chunk_id
"""

_EXACT = """
with candidates as materialized (
    select x.document_id, x.document_version, x.chunk_id, x.embedding
    {candidates}
)
select document_id, document_version, chunk_id, embedding <=> %(q)s as distance
from candidates
order by distance, chunk_id
limit %(depth)s
"""

_COUNT = "select count(*) from (select 1 {candidates} limit %(cap)s) s"


def _set_local(conn: psycopg.Connection, name: str, value: object) -> None:
    conn.execute("select set_config(%s, %s, true)", (name, str(value)))


def vector_search(
    conn: psycopg.Connection,
    query_vector: np.ndarray,
    config_id: str,
    filters: Filters,
    config: VectorConfig,
    *,
    depth: int,
    force_path: str | None = None,
) -> BranchResult:
    """The ``depth`` nearest active chunks of the current tenant by cosine distance (score = 1 - distance).

    Args:
        conn: a connection inside a tenant transaction (``SET LOCAL`` settings end with it).
        query_vector: the query embedding of the active config (see :func:`check_embedding_config`).
        config_id: the active embedding config id.
        filters: request filters, applied inside the scan.
        config: HNSW settings.
        depth: number of candidates wanted.
        force_path: ``"hnsw"`` or ``"exact"`` to bypass the planner's choice (benchmarks, recall measurement).
    """
    from pgvector.psycopg import register_vector

    started = time.perf_counter()
    register_vector(conn)
    where = filter_sql(filters, "x")
    candidates = sql.SQL(_CANDIDATES).format(chunk_join=where.chunk_join, predicate=where.predicate)
    params = {"q": query_vector, "config_id": config_id, "depth": depth, **where.params}
    path = force_path
    eligible: int | None = None
    if path is None:
        eligible = conn.execute(
            sql.SQL(_COUNT).format(candidates=candidates), {**params, "cap": config.exact_threshold + 1}
        ).fetchone()[0]  # type: ignore[index]  # count(*) always returns a row
        path = "exact" if eligible <= config.exact_threshold else "hnsw"
    if path == "hnsw":
        _set_local(conn, "hnsw.ef_search", config.ef_search)
        _set_local(conn, "hnsw.iterative_scan", config.iterative_scan)
        _set_local(conn, "hnsw.max_scan_tuples", config.max_scan_tuples)
        rows = conn.execute(sql.SQL(_HNSW).format(candidates=candidates), params).fetchall()
        if len(rows) < depth and force_path is None:
            # the scan hit max_scan_tuples before finding depth rows although more than exact_threshold exist
            rows = conn.execute(sql.SQL(_EXACT).format(candidates=candidates), params).fetchall()
            path = "hnsw+exact-fallback"
    else:
        rows = conn.execute(sql.SQL(_EXACT).format(candidates=candidates), params).fetchall()
    hits = tuple(
        Hit(ChunkKey(doc, int(version), chunk), 1.0 - float(distance)) for doc, version, chunk, distance in rows
    )
    return BranchResult("vector", hits, path, (time.perf_counter() - started) * 1000)


def rebuild_hnsw_index(owner_conn: psycopg.Connection, *, m: int = 16, ef_construction: int = 64) -> None:
    """Rebuild the shared HNSW index with other build parameters (operator task, owner role, takes a lock).

    pgvector's defaults are m = 16 and ef_construction = 64; larger values raise recall at the cost of build
    time and memory.
    """
    if not 2 <= m <= 100:
        raise ValueError("m must be between 2 and 100")
    if not 4 <= ef_construction <= 1000 or ef_construction < 2 * m:
        raise ValueError("ef_construction must be between 4 and 1000 and at least 2 * m")
    with owner_conn.transaction():
        owner_conn.execute("drop index if exists ingest.embeddings_hnsw")
        owner_conn.execute(
            sql.SQL(
                "create index embeddings_hnsw on ingest.embeddings using hnsw (embedding vector_cosine_ops) "
                "with (m = {}, ef_construction = {})"
            ).format(sql.Literal(m), sql.Literal(ef_construction))
        )
