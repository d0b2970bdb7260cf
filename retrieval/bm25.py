"""The BM25 branch: Okapi BM25 computed by Postgres over the tenant's active postings.

Score of chunk ``d`` for query ``q`` (terms with repeats, as rank_bm25 scores them)::

    score(d, q) = sum over query terms t of  qtf(t) * idf(t) * tf(t, d) * (k1 + 1)
                                             / (tf(t, d) + k1 * (1 - b + b * |d| / avgdl))
    idf(t)      = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

with ``N`` the number of active chunks of the tenant, ``avgdl`` their mean analyzed length and ``df(t)`` the
number of them containing ``t``: the collection statistics come from the caller's own active rows (RLS and the
``retrieval.active_bm25_*`` views), so another tenant's documents never change a score. The IDF is Lucene's
variant (always positive); Robertson's original ``ln((N - df + 0.5) / (df + 0.5))`` turns negative for terms in
more than half of the chunks, which rank_bm25 patches with an epsilon floor derived from the whole vocabulary's
mean IDF — a statistic a per-query plan cannot afford. Filters restrict the chunks that are scored, never the
statistics: a filter does not change how rare a term is in the collection.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

import psycopg
from psycopg import sql

from retrieval.analyzer import ANALYZER_ID
from retrieval.candidates import BranchResult, ChunkKey, Hit
from retrieval.config import Bm25Config
from retrieval.errors import IndexConfigMismatchError
from retrieval.filters import filter_sql
from retrieval.models import Filters


@dataclass(frozen=True)
class CollectionStats:
    """The BM25 collection statistics of the current tenant."""

    analyzer: str | None
    chunk_count: int
    total_length: int

    @property
    def avg_chunk_length(self) -> float:
        """avgdl (0 for an empty collection)."""
        return self.total_length / self.chunk_count if self.chunk_count else 0.0


def collection_stats(conn: psycopg.Connection) -> CollectionStats:
    """N and total length of the current tenant's active chunks (RLS decides the tenant).

    Raises:
        IndexConfigMismatchError: the tenant's active versions were indexed by another analyzer than the one
            queries use (re-ingest to rebuild them).
    """
    rows = conn.execute(
        "select analyzer, coalesce(sum(chunk_count), 0), coalesce(sum(total_length), 0) "
        "from retrieval.active_bm25_documents group by analyzer order by analyzer"
    ).fetchall()
    others = [r[0] for r in rows if r[0] != ANALYZER_ID]
    if others:
        raise IndexConfigMismatchError(
            f"bm25: documents were indexed with analyzer {', '.join(others)} but queries use {ANALYZER_ID}; "
            "re-run ingestion to re-index them"
        )
    if not rows:
        return CollectionStats(None, 0, 0)
    return CollectionStats(ANALYZER_ID, int(rows[0][1]), int(rows[0][2]))


_QUERY = """
with query_terms (term, qtf) as (
    select * from unnest(%(terms)s::text[], %(qtfs)s::int[])
),
matches as (
    -- df over the whole active collection of the tenant, before any filter
    select p.tenant_id, p.document_id, p.document_version, p.document_type, p.chunk_id, p.term, p.tf,
           p.chunk_length, count(*) over (partition by p.term) as df
    from retrieval.active_bm25_postings p
    where p.term = any(%(terms)s::text[])
),
scored as (
    select x.document_id, x.document_version, x.chunk_id,
           sum(q.qtf * ln(1 + (%(n)s - x.df + 0.5) / (x.df + 0.5))
               * x.tf * (%(k1)s + 1) / (x.tf + %(k1)s * (1 - %(b)s + %(b)s * x.chunk_length / %(avgdl)s))) as score
    from matches x
    join query_terms q on q.term = x.term
    {chunk_join}
    where {predicate}
    group by x.document_id, x.document_version, x.chunk_id
)
select document_id, document_version, chunk_id, score
from scored
order by score desc, chunk_id, document_id
limit %(depth)s
"""


def bm25_search(
    conn: psycopg.Connection,
    terms: Counter[str],
    filters: Filters,
    config: Bm25Config,
    *,
    depth: int,
    stats: CollectionStats | None = None,
) -> BranchResult:
    """The ``depth`` best chunks for the analyzed query ``terms`` (term -> query frequency).

    Ties are broken by chunk id so that the order is deterministic (the parity test relies on it).
    """
    started = time.perf_counter()
    stats = stats if stats is not None else collection_stats(conn)
    if not terms or stats.chunk_count == 0:
        return BranchResult("bm25", (), "postings", (time.perf_counter() - started) * 1000)
    where = filter_sql(filters, "x")
    ordered = sorted(terms)
    params = {
        "terms": ordered,
        "qtfs": [terms[t] for t in ordered],
        "n": float(stats.chunk_count),
        "avgdl": stats.avg_chunk_length,
        "k1": config.k1,
        "b": config.b,
        "depth": depth,
        **where.params,
    }
    query = sql.SQL(_QUERY).format(chunk_join=where.chunk_join, predicate=where.predicate)
    rows = conn.execute(query, params).fetchall()
    hits = tuple(Hit(ChunkKey(doc, int(version), chunk), float(score)) for doc, version, chunk, score in rows)
    return BranchResult("bm25", hits, "postings", (time.perf_counter() - started) * 1000)
