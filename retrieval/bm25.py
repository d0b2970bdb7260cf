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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import psycopg
from psycopg import sql

from retrieval.analyzer import ANALYZER_ID
from retrieval.candidates import INFO_COLUMNS, BranchResult, ChunkKey, Hit, chunk_info
from retrieval.config import Bm25Config
from retrieval.errors import IndexConfigMismatchError
from retrieval.filters import FilterSql, filter_sql
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


# Design note: the exhaustive statement (_QUERY, the reference the others are tested against; the service runs
# _SINGLE_PASS below) is shaped for one round trip and few passes over the postings. The tenant's active
# versions are read once (their integer keys, their statistics and the analyzers in use, which travel back with
# the rows so that a mismatch is refused by the caller); the query terms' postings of those versions are read once
# from the postings' primary key alone (materialized), the document frequencies come from that set, and the
# per-term weight qtf * idf is computed once per term, not once per posting. Postings carry integer keys
# (migration 0022): keeping active versions and summing per chunk hash an int8 instead of three text columns.
# Filters restrict the scored chunks, never df, N or avgdl; only a filtered query joins the chunk rows the filter
# predicate reads.

#: blocks scored first to find the pruning threshold (at least depth)
SEED_BLOCKS = 20
#: pruned statement: up to this many blocks that can reach the top k are read block by block, more take the
#: term-level (MaxScore) path
PROBE_BLOCKS = 32
#: the ranking tail keeps this many chunks beyond depth from its bounded sort; more ties with the depth-th score
#: than that (templated documents repeat clauses) take a second pass over the scored chunks
TIE_SLACK = 64

_STATS_FROM_ROWS = """
    select coalesce(sum(chunk_count), 0)::float8 as n,
           coalesce(sum(total_length), 0)::float8 / nullif(sum(chunk_count), 0) as avgdl,
           array_agg(distinct analyzer) as analyzers
    from active
"""
_STATS_FROM_PARAMS = "select %(n)s::float8 as n, %(avgdl)s::float8 as avgdl, null::text[] as analyzers"

_FILTER_ROWS = "join retrieval.active_bm25_chunks x on x.chunk_key = p.chunk_key {chunk_join}"

# Every statement ends the same way: rank its `scored` rows (chunk_key, rounded score), look the ids up for the
# top rows only (with ties, which the id then breaks) and join the served chunk's info.
_RANK_AND_FETCH = """top_n as materialized (
    -- the best depth + TIE_SLACK chunks by score, from a bounded (top-N heap) sort that never stores the other
    -- scored chunks (18,000 for a query with a common term on the 100k benchmark)
    select chunk_key, score from scored order by score desc limit %(depth)s + {tie_slack}
),
cut as materialized (
    -- complete: top_n holds every chunk that scores at least the depth-th score (fewer chunks than its limit
    -- were scored, or its last row scores below the depth-th)
    select kth, n < %(depth)s + {tie_slack} or last < kth as complete
    from (select (select score from top_n order by score desc offset %(depth)s - 1 limit 1) as kth,
                 (select count(*) from top_n) as n, (select min(score) from top_n) as last) c
),
ranked as (
    select chunk_key, score from top_n where (select complete from cut) is not false
    union all
    -- more than TIE_SLACK chunks tie with the depth-th: all of them, from a second pass (a one-time filter keeps
    -- the planner from running it otherwise)
    select chunk_key, score from scored where (select complete from cut) is false
),
best as (
    -- with ties: the ids that break them are only looked up for these rows
    select chunk_key, score from ranked where score >= coalesce((select kth from cut), '-infinity')
),
top as (
    select k.document_id, k.document_version, k.chunk_id, b.score
    from best b
    join retrieval.bm25_chunks k on k.chunk_key = b.chunk_key
    order by b.score desc, k.chunk_id collate "C", k.document_id collate "C"
    limit %(depth)s
)
select s.analyzers, t.document_id, t.document_version, t.chunk_id, t.score, {info}
from stats s
left join (
    top t join retrieval.active_chunks c
      on c.document_id = t.document_id and c.document_version = t.document_version and c.chunk_id = t.chunk_id
) on true
order by t.score desc, t.chunk_id collate "C", t.document_id collate "C"
"""

_QUERY = """
with query_terms (term, qtf) as (
    select * from unnest(%(terms)s::text[], %(qtfs)s::int[])
),
active as materialized (
    select doc_key, analyzer, chunk_count, total_length from retrieval.active_bm25_documents
),
stats as materialized (
    {stats}
),
postings as materialized (
    select p.chunk_key, p.term, p.tf, p.chunk_length
    from retrieval.bm25_postings p
    where p.term = any(%(terms)s::text[]) and p.doc_key in (select doc_key from active)
),
weights as materialized (
    -- df over the whole active collection of the tenant, before any filter; materialized, since an inlined CTE
    -- has the planner compute ln(...) once per posting (about a quarter of the statement's time at 20k postings)
    select q.term, q.qtf * ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) as weight
    from (select term, count(*) as df from postings group by term) d
    join query_terms q on q.term = d.term
    cross join stats s
),
scored as not materialized (
    -- rounded: Postgres sums a chunk's postings in whatever order the plan delivers them, so two chunks with the
    -- same terms, frequencies and length could differ in the last bits and be ordered by that noise; rounded,
    -- they tie and the id decides (by codepoint, as the reference implementation orders), whatever the plan
    select p.chunk_key,
           round(sum(w.weight * p.tf * (%(k1)s + 1)
                     / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.chunk_length / s.avgdl))) * 1e10) / 1e10 as score
    from postings p
    join weights w on w.term = p.term
    cross join stats s
    {filter_rows}
    where {predicate}
    group by p.chunk_key
),
""" + _RANK_AND_FETCH


# The service's statement (migration 0050): the exhaustive one with the document frequencies summed from the
# blocks (a 30th of the postings) instead of a first pass over the postings, so the postings are read once and
# streamed, not materialized; unserved versions (usually none) are excluded by key, not by joining the served
# ones. Same scoring, rounding and order as the exhaustive statement.
_SINGLE_PASS = _QUERY.replace("""postings as materialized (
    select p.chunk_key, p.term, p.tf, p.chunk_length
    from retrieval.bm25_postings p
    where p.term = any(%(terms)s::text[]) and p.doc_key in (select doc_key from active)
),""", """inactive as materialized (
    select array(
        select d.doc_key from retrieval.bm25_documents d
        where not exists (select 1 from active a where a.doc_key = d.doc_key)
    ) as keys
),
postings as (
    select p.chunk_key, p.term, p.tf, p.chunk_length
    from retrieval.bm25_postings p
    where p.term = any(%(terms)s::text[]) and p.doc_key <> all((select keys from inactive)::bigint[])
),""").replace(
    """    from (select term, count(*) as df from postings group by term) d""",
    """    from (select b.term, sum(b.df) as df from retrieval.bm25_blocks b
          where b.term = any(%(terms)s::text[]) and b.doc_key in (select doc_key from active)
          group by b.term) d""")
assert _SINGLE_PASS.count("bm25_blocks") == 1 and "inactive" in _SINGLE_PASS

# Design note: top-k pruning (Bm25Config.strategy = "pruned"). retrieval.bm25_blocks (migration 0050) keeps, per
# block of up to 32 consecutive chunks of a version and per term, the chunk count (df), the largest tf and the
# shortest length, so each (block, term) gets an upper bound of the term's contribution to any chunk of the block
# (it rises with tf and falls with length). The statement
#  1. reads the query terms' blocks of the active versions: their df sums are the exact document frequencies;
#  2. scores exactly the chunks of the %(seed)s blocks with the highest bounds (postings by chunk range from the
#     postings' primary key); the depth-th best of those scores, less a margin far above the float error of the
#     sums, is theta, a lower bound of the final depth-th score (filters apply here too);
#  3a. when at most %(probe_blocks)s blocks have a bound that reaches theta, scores exactly those blocks' chunks;
#  3b. otherwise (common terms only) runs MaxScore over terms: the cheapest terms whose bounds sum below theta are
#     non-essential, so every chunk that can reach theta holds an essential term; the essential terms' postings
#     give each such chunk a partial score; a chunk is kept only if its partial score plus the non-essential
#     terms' bounds in its own block reaches theta (and the depth-th best partial score), and only the kept ones
#     get their non-essential contributions by key lookups.
# Every chunk left out scores below theta, so the result is the exhaustive statement's, ties and their order
# included (the parity tests force both 3a and 3b). On the benchmark corpus it was slower than the single pass
# (docs/benchmarks.md), which is why it is not the default.
_PRUNED = """
with query_terms (term, qtf) as (
    select * from unnest(%(terms)s::text[], %(qtfs)s::int[])
),
active as materialized (
    select doc_key, analyzer, chunk_count, total_length from retrieval.active_bm25_documents
),
stats as materialized (
    {stats}
),
blocks as materialized (
    select b.doc_key, b.block_no, b.term, b.first_chunk_key, b.last_chunk_key, b.df, b.max_tf, b.min_length
    from retrieval.bm25_blocks b
    where b.term = any(%(terms)s::text[]) and b.doc_key in (select doc_key from active)
),
weights as materialized (
    select q.term, q.qtf * ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5)) as weight
    from (select term, sum(df) as df from blocks group by term) d
    join query_terms q on q.term = d.term
    cross join stats s
),
block_terms as materialized (
    -- a term's contribution to any chunk of a block is at most its contribution at the block's largest tf and
    -- shortest length
    select b.doc_key, b.block_no, b.term, b.first_chunk_key, b.last_chunk_key,
           w.weight * b.max_tf * (%(k1)s + 1)
               / (b.max_tf + %(k1)s * (1 - %(b)s + %(b)s * b.min_length / s.avgdl)) as bound
    from blocks b
    join weights w on w.term = b.term
    cross join stats s
),
bounds as materialized (
    select doc_key, block_no, min(first_chunk_key) as lo, max(last_chunk_key) as hi, sum(bound) as bound
    from block_terms
    group by doc_key, block_no
),
seed as materialized (
    select doc_key, lo, hi from bounds order by bound desc limit %(seed)s
),
seed_scored as materialized (
    select p.chunk_key,
           sum(w.weight * p.tf * (%(k1)s + 1) / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.chunk_length / s.avgdl)))
               as score
    from seed r
    cross join lateral ({block_postings}) p
    join weights w on w.term = p.term
    cross join stats s
    {filter_rows}
    where {predicate}
    group by p.chunk_key
),
threshold as materialized (
    select coalesce((select score from seed_scored order by score desc offset %(depth)s - 1 limit 1), 0) - 1e-6
        as theta
),
inactive as materialized (
    -- the tenant's versions that are not served (staged, superseded or deleted, not yet purged): usually none, so
    -- excluding them costs a posting one comparison, where keeping the served ones costs a hash lookup
    select array(
        select d.doc_key from retrieval.bm25_documents d
        where not exists (select 1 from active a where a.doc_key = d.doc_key)
    ) as keys
),
live as materialized (
    select doc_key, block_no, lo, hi from bounds where bound >= (select theta from threshold)
),
live_count as materialized (
    select count(*) as n from live
),
few_scored as (
    -- few live blocks: each one's postings by chunk range (a few index descents per block)
    select p.chunk_key, sum(w.weight * p.tf * (%(k1)s + 1)
        / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.chunk_length / s.avgdl))) as score
    from live r
    cross join lateral ({block_postings}) p
    join weights w on w.term = p.term
    cross join stats s
    {filter_rows}
    where {predicate} and (select n from live_count) <= %(probe_blocks)s
    group by p.chunk_key
),
-- many live blocks (common terms only): MaxScore over terms. A term's bound is its largest block bound; the
-- cheapest terms whose bounds sum below theta are non-essential: a chunk holding only those scores below theta.
term_bounds as materialized (
    select term, max(bound) as bound from block_terms group by term
),
ranked_terms as materialized (
    select term, bound, sum(bound) over (order by bound, term) as cumulative
    from term_bounds
),
non_essential as materialized (
    select array(select term from ranked_terms where cumulative < (select theta from threshold)) as terms,
           (select coalesce(sum(bound), 0) from ranked_terms where cumulative < (select theta from threshold))
               as bound
),
partial as materialized (
    -- every chunk that can reach theta holds an essential term: their postings give the candidates and a lower
    -- bound of each one's score
    select p.chunk_key, min(p.doc_key) as doc_key, sum(w.weight * p.tf * (%(k1)s + 1)
        / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.chunk_length / s.avgdl))) as score
    from retrieval.bm25_postings p
    join weights w on w.term = p.term
    cross join stats s
    {filter_rows}
    where p.term = any(array(select term from ranked_terms where cumulative >= (select theta from threshold)))
      and p.doc_key <> all((select keys from inactive)::bigint[]) and {predicate}
      and (select n from live_count) > %(probe_blocks)s
    group by p.chunk_key
),
ceilings as materialized (
    -- a chunk's score is at most its partial score plus, per non-essential term, that term's bound in the
    -- chunk's block (nothing when the chunk lies outside the term's chunk range there)
    select c.chunk_key, c.score, c.score + coalesce(sum(t.bound), 0) as ceiling
    from partial c
    left join block_terms t
      on t.doc_key = c.doc_key and c.chunk_key between t.first_chunk_key and t.last_chunk_key
     and t.term = any((select terms from non_essential)::text[])
    group by c.chunk_key, c.score
),
candidates as materialized (
    -- a candidate must reach the larger of theta and the depth-th best partial score (partial scores only grow)
    select chunk_key, score from ceilings
    where ceiling >= greatest((select theta from threshold),
                              (select score - 1e-6 from partial order by score desc offset %(depth)s - 1 limit 1))
),
many_scored as (
    -- the candidates' non-essential contributions, by key lookups
    select c.chunk_key, c.score + coalesce((
        select sum(w.weight * p.tf * (%(k1)s + 1) / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * p.chunk_length / s.avgdl)))
        from retrieval.bm25_postings p
        join weights w on w.term = p.term
        cross join stats s
        where p.term = any((select terms from non_essential)::text[]) and p.chunk_key = c.chunk_key
    ), 0) as score
    from candidates c
),
scored as not materialized (
    -- rounded as in the exhaustive statement (ties decided by the id, whatever the summation order)
    select chunk_key, round(score * 1e10) / 1e10 as score from few_scored
    union all
    select chunk_key, round(score * 1e10) / 1e10 as score from many_scored
),
""" + _RANK_AND_FETCH


# one block's postings of the query terms, by chunk range from the postings' primary key (offset 0 keeps the
# planner from flattening it into a join that reads every posting of the terms)
_BLOCK_POSTINGS = """
    select p.chunk_key, p.term, p.tf, p.chunk_length from retrieval.bm25_postings p
    where p.term = any(%(terms)s::text[]) and p.chunk_key between r.lo and r.hi and p.doc_key = r.doc_key
    offset 0
"""


#: the BM25 statements: all return the same rows (the parity tests hold them to it)
STRATEGIES = {"single_pass": _SINGLE_PASS, "pruned": _PRUNED, "exhaustive": _QUERY}


def compose_query(where: FilterSql, *, with_stats: bool, strategy: str = "single_pass") -> sql.Composed:
    """The BM25 statement for the filter ``where`` (over alias ``x``, a row of ``retrieval.active_bm25_chunks``);
    ``with_stats``: N and avgdl are bound parameters instead of being read by the statement; ``strategy``: one of
    :data:`STRATEGIES` (see :class:`retrieval.config.Bm25Config`)."""
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    filter_rows = sql.SQL(_FILTER_ROWS).format(chunk_join=where.chunk_join) if where.restricts else sql.SQL("")
    return sql.SQL(STRATEGIES[strategy]).format(
        stats=sql.SQL(_STATS_FROM_PARAMS if with_stats else _STATS_FROM_ROWS),
        filter_rows=filter_rows, predicate=where.predicate, info=sql.SQL(INFO_COLUMNS),
        block_postings=sql.SQL(_BLOCK_POSTINGS), tie_slack=sql.Literal(TIE_SLACK),
    )


def _check_analyzers(analyzers: Sequence[str] | None) -> None:
    others = sorted(a for a in analyzers or () if a != ANALYZER_ID)
    if others:
        raise IndexConfigMismatchError(
            f"bm25: documents were indexed with analyzer {', '.join(others)} but queries use {ANALYZER_ID}; "
            "re-run ingestion to re-index them"
        )


def bm25_send(
    conn: psycopg.Connection,
    terms: Counter[str],
    filters: Filters,
    config: Bm25Config,
    *,
    depth: int,
    stats: CollectionStats | None = None,
    strategy: str | None = None,
    probe_blocks: int = PROBE_BLOCKS,
) -> Callable[[], BranchResult]:
    """Send the BM25 statement and return the function that collects its result.

    On a connection in pipeline mode the statement is only queued, so several branches share one round trip;
    the returned function waits for the rows. Without ``stats`` the statement reads the tenant's collection
    statistics itself (and the collector refuses an index built by another analyzer).
    """
    started = time.perf_counter()
    if not terms or (stats is not None and stats.chunk_count == 0):
        return lambda: BranchResult("bm25", (), "postings", (time.perf_counter() - started) * 1000)
    where = filter_sql(filters, "x")
    ordered = sorted(terms)
    params: dict[str, object] = {
        "terms": ordered,
        "qtfs": [terms[t] for t in ordered],
        "k1": config.k1,
        "b": config.b,
        "depth": depth,
        "seed": max(depth, SEED_BLOCKS),
        "probe_blocks": probe_blocks,
        **where.params,
    }
    if stats is not None:
        params.update(n=float(stats.chunk_count), avgdl=stats.avg_chunk_length)
    chosen = strategy or config.strategy
    cursor = conn.execute(compose_query(where, with_stats=stats is not None, strategy=chosen), params)

    def collect() -> BranchResult:
        rows = cursor.fetchall()
        if rows and stats is None:
            _check_analyzers(rows[0][0])
        hits: list[Hit] = []
        infos = {}
        for _, doc, version, chunk, score, *info in rows:
            if doc is None:
                continue  # the statistics row of a query without matches
            key = ChunkKey(doc, int(version), chunk)
            hits.append(Hit(key, float(score)))
            infos[key] = chunk_info(key, info)
        return BranchResult("bm25", tuple(hits), "postings", (time.perf_counter() - started) * 1000, infos=infos)

    return collect


def bm25_search(
    conn: psycopg.Connection,
    terms: Counter[str],
    filters: Filters,
    config: Bm25Config,
    *,
    depth: int,
    stats: CollectionStats | None = None,
    strategy: str | None = None,
    probe_blocks: int = PROBE_BLOCKS,
) -> BranchResult:
    """The ``depth`` best chunks for the analyzed query ``terms`` (term -> query frequency).

    Ties are broken by chunk id so that the order is deterministic (the parity test relies on it).
    ``strategy`` overrides ``config.strategy`` (one of :data:`STRATEGIES`; ``"exhaustive"`` is the reference the
    parity tests compare with). ``probe_blocks`` (pruned statement): up to this many blocks that can reach the
    top ``depth`` are read block by block, more take the term-level path (tests force either).

    Raises:
        IndexConfigMismatchError: without ``stats``, when the tenant's active versions were indexed by another
            analyzer than the one queries use.
    """
    return bm25_send(conn, terms, filters, config, depth=depth, stats=stats, strategy=strategy,
                     probe_blocks=probe_blocks)()
