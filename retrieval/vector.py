"""The vector branch: pgvector IVFFlat/HNSW under RLS, with iterative scans and an exact fallback.

The query is embedded with the embedder the caller passes; :func:`check_embedding_config` first compares its
configuration (model, revision, dimension, normalization, similarity, prompts) with the active config in
``ingest.embedding_configs`` and refuses a mismatch instead of comparing incomparable vectors.

Access paths (all return exact cosine distances, re-sorted). The statement picks one per search, by the size of
the filtered set and the tenant's own index:

* ``exact`` when at most ``exact_threshold`` chunks pass the tenant and request filters;
* ``ivf`` otherwise, when the tenant has its own IVFFlat index over halfvec (:mod:`ingest.vector_index`, the
  default for tenants past ``MIN_VECTORS``): the scan probes the nearest ``ivf_probe_fraction`` of the index's
  lists (``ivfflat.probes``, set from the index's own ``lists`` in the same round trip), the request filters are
  applied while scanning and a ``relaxed_order`` iterative scan probes further lists (up to
  ``ivf_max_probe_fraction``) until enough rows pass them; candidates are re-ranked by the full-precision
  distance;
* ``ivf_type`` otherwise, when the filtered set's document types have IVFFlat indexes of their own
  (:func:`ingest.vector_index.ensure_type_indexes`) and its other types hold at most ``split_max_vectors``
  vectors together: each indexed type is scanned through its own index for its own ``type_overfetch`` x ``depth``
  nearest (``ivfflat.probes`` is ``type_probe_fraction`` of the largest such index's lists, so a smaller index
  is probed over a larger fraction), the other types are searched exactly, and the parts are merged by exact
  distance (:func:`type_layout`, :func:`typed_types`). No probed cell is spent on another type's rows, and a
  type's neighbours cannot be crowded out of the scan by a larger type's. Once the path is remembered, its
  statement is prepared and run by its generic plan (:func:`typed_statement`), which saves its planning;
* ``hnsw`` otherwise: the tenant's own partial HNSW index when it has one (:mod:`ingest.vector_index`), else the index
  shared by all tenants, where the tenant predicate (RLS) removes other tenants' rows while scanning; the
  request filters are applied while scanning either way. ``hnsw.iterative_scan = relaxed_order`` lets the scan continue
  past ``ef_search`` until ``depth`` rows pass them (bounded by ``hnsw.max_scan_tuples``); the materialized CTE
  then restores strict distance order, as pgvector's documentation prescribes.
* the split, in both index paths: the tenant's smallest document types, up to ``split_max_vectors`` vectors
  together (:func:`split_types`, kept per process like the path choice), are searched exactly in the same
  statement, the index scan covers the other types only, and the two parts are merged by exact distance. An
  index search misses the neighbours of a query that sit in a small type (agreement clauses among a tenant's
  manual chunks): the HNSW beam and the probed IVFFlat cells settle among the large type. Every row is in one
  part or the other, so a stale list of types costs speed or that moment's recall, never rows.
* ``exact``: a sequential distance computation over a small filtered set is both exact and cheap; it is also
  the fallback whenever an index scan returns fewer rows than exist (so a filtered query never silently
  returns fewer than ``depth`` results).

The statement that chooses is planned and run whole (all four paths, gated): on the 100k-chunk benchmark it
cost about 5 ms more than the chosen path's own statement. The choice (the capped count and whether the tenant
has an index of its own) is therefore kept per process for ``VectorConfig.path_cache_seconds``
(:class:`PathChoices`), keyed by database, tenant, embedding config, filters and threshold; while it is fresh
the chosen path's statement is sent alone. A stale choice costs speed, never rows: row-level security still
decides visibility, an index scan that finds fewer than ``depth`` rows falls back to exact search, and a forced
path whose index is gone is planned as a sort of the tenant's rows.
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

import psycopg
from psycopg import sql

from ingest.embedder import Embedder, EmbeddingConfig
from ingest.vector_index import (
    DIMENSION,
    hnsw_build_problem,
    hnsw_index_statement,
    index_key,
    tenant_index_name,
    type_index_name,
)
from retrieval.candidates import INFO_COLUMNS, BranchResult, ChunkKey, Hit, chunk_info
from retrieval.config import VectorConfig
from retrieval.errors import IndexConfigMismatchError, IndexNotReadyError
from retrieval.filters import FilterSql, filter_sql
from retrieval.models import Filters

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")

_CONFIG_FIELDS = ("model", "revision", "dimension", "normalization", "similarity", "document_prompt", "query_prompt")


_ACTIVE_CONFIG = (
    "select embedding_config_id, model, revision, dimension, normalization, similarity, document_prompt, "
    "query_prompt from ingest.embedding_configs where is_active"
)


def active_config_send(conn: psycopg.Connection) -> Callable[[], EmbeddingConfig]:
    """Send the read of the active embedding configuration; the returned function collects it.

    Raises (on collection):
        IndexNotReadyError: no configuration is active (nothing was ingested yet).
    """
    cursor = conn.execute(_ACTIVE_CONFIG)

    def collect() -> EmbeddingConfig:
        row = cursor.fetchone()
        if row is None:
            raise IndexNotReadyError("vector: no active embedding configuration; ingest documents first")
        return EmbeddingConfig(*row)

    return collect


def active_embedding_config(conn: psycopg.Connection) -> EmbeddingConfig:
    """The one active embedding configuration.

    Raises:
        IndexNotReadyError: no configuration is active (nothing was ingested yet).
    """
    return active_config_send(conn)()


def compare_embedding_config(active: EmbeddingConfig, embedder: Embedder) -> EmbeddingConfig:
    """``active``, after checking that ``embedder`` produces vectors comparable with it.

    Raises:
        IndexConfigMismatchError: the embedder differs from the active config in any field that makes vectors
            comparable (the message names the fields).
    """
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


def check_embedding_config(conn: psycopg.Connection, embedder: Embedder) -> EmbeddingConfig:
    """The active config, after checking that ``embedder`` produces vectors comparable with it.

    Raises:
        IndexConfigMismatchError: the embedder differs from the active config in any field that makes vectors
            comparable (the message names the fields).
    """
    return compare_embedding_config(active_embedding_config(conn), embedder)


# Design note: row-level security decides which rows are visible; the tenant's index key (ingest.vector_index) is
# also stated as a value in the paths that scan the tenant's own partial index, which the planner may only use
# when the predicate is a constant at plan time. Those statements are therefore not prepared (a generic plan would
# see a parameter, not the key), except the typed path's own statement: it states the key and its types as
# literals (:func:`typed_statement`), so its generic plan still matches the partial indexes and is reused.
_CANDIDATES = """
from retrieval.active_embeddings x
{chunk_join}
where x.tenant_id = %(tenant_id)s and x.embedding_config_id = %(config_id)s and {predicate} {own_index}
"""
_OWN_INDEX = "and x.index_key = %(index_key)s::bigint"
_OWN_INDEX_LITERAL = "and x.index_key = {key}::bigint"

# A relaxed_order scan yields rows in roughly increasing distance, so its first depth rows that pass the
# filters need not be the depth nearest: the scan is asked for overfetch x depth rows, re-sorted exactly, and cut.
# Design note: "distance + 0", as pgvector's documentation prescribes for relaxed order. Sorting on the bare
# column lets the planner take the subquery as already ordered by distance (an incremental sort on a presorted
# key), which reads only about depth rows from the scan and never re-sorts the over-fetched ones.
_HNSW = """
select document_id, document_version, chunk_id, distance
from (
    (select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates} {gate_hnsw} and x.document_type <> all(%(split_types)s::text[])
    order by x.embedding <=> %(q)s
    limit %(fetch)s)
    union all
    ({split})
) nearest
order by distance + 0, chunk_id
limit %(depth)s
"""

# The split (see the module docstring): the nearest depth rows of the tenant's small document types, by exact
# search; offset 0 keeps the subquery a fence, so the sort is never pushed into an (approximate) index order.
_SPLIT = """
select document_id, document_version, chunk_id, distance
from (
    select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates} {gate} and x.document_type = any(%(split_types)s::text[])
    offset 0
) split_types
order by distance, chunk_id
limit %(depth)s
"""

# offset 0 keeps the subquery a fence: the sort must not be pushed into (approximate) HNSW index order
_EXACT = """
select document_id, document_version, chunk_id, distance
from (
    select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates} {gate_exact}
    offset 0
) candidates
order by distance, chunk_id
limit %(depth)s
"""

# The tenant's own IVFFlat index is over embedding::halfvec(DIMENSION): ordering by that expression is what lets
# the planner use it; the full-precision distance re-ranks the over-fetched candidates.
_IVF = """
select document_id, document_version, chunk_id, distance
from (
    (select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates} {gate_ivf} and x.document_type <> all(%(split_types)s::text[])
    order by x.embedding::halfvec({dim}) <=> %(q)s::halfvec({dim})
    limit %(fetch)s)
    union all
    ({split})
) nearest
order by distance, chunk_id
limit %(depth)s
"""

# The typed path (see the module docstring): one part per document type with an IVFFlat index of its own (the
# partial index's predicate, index_key and index_type, is stated as bound values of an unprepared statement; the
# registry's type is checked too, so a stale type copy can hide a row, never return one of another type), and the
# filtered set's other types searched exactly.
_TYPED_PART = """
(select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
{candidates} {gate} and x.index_type = {type} and x.document_type = {type}
order by x.embedding::halfvec({dim}) <=> %(q)s::halfvec({dim})
limit %(fetch)s)
"""

_TYPED_REST = """
select document_id, document_version, chunk_id, distance
from (
    select x.document_id, x.document_version, x.chunk_id, x.embedding <=> %(q)s as distance
    {candidates} {gate} and x.document_type <> all(%(typed_types)s::text[])
    offset 0
) other_types
order by distance, chunk_id
limit %(depth)s
"""

_TYPED = """
select document_id, document_version, chunk_id, distance
from (
    {parts}
    union all
    ({rest})
) nearest
order by distance, chunk_id
limit %(depth)s
"""

# an access path the statement does not have (the typed statement has no HNSW part)
_NO_ROWS = ("select null::text as document_id, null::integer as document_version, null::text as chunk_id, "
            "null::double precision as distance where false")

_COUNT = "select count(*) from (select 1 {candidates} limit %(cap)s) s"

# whether the tenant's own IVFFlat (HNSW) index exists and is valid (a concurrent build in progress is not)
_INDEX_READY = """exists (
    select 1 from pg_catalog.pg_index i join pg_catalog.pg_class c on c.oid = i.indexrelid
    join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
    where ns.nspname = 'ingest' and c.relname = %({})s and i.indisvalid
)"""

# Design note: one statement chooses the access path. The eligible count (capped) and whether the tenant has its
# own IVFFlat index are an init plan, and each access path is gated on them by a one-time filter, so only one of
# them runs; each index scan stays an index scan
# (ordered by distance, with the tenant and filter predicates applied during the iterative scan). The chunk
# details are joined to the <= depth winners, and the relaxed HNSW order is restored by the final sort.
_AUTO = """
with eligible as materialized (
    select (select count(*) from (select 1 {candidates} limit %(cap)s) s) as n, {ivf_ready} as ivf,
           {hnsw_ready} as own_hnsw
),
ivf as materialized ({ivf}),
own_hnsw as materialized ({own_hnsw}),
hnsw as materialized ({hnsw}),
exact as materialized ({exact}),
found as (
    select 'ivf' as path, * from ivf
    union all
    select 'hnsw' as path, * from own_hnsw
    union all
    select 'hnsw' as path, * from hnsw
    union all
    select 'exact' as path, * from exact
)
select e.n, e.ivf, f.path, f.document_id, f.document_version, f.chunk_id, f.distance, {info}
from eligible e
left join (
    found f join retrieval.active_chunks c
      on c.document_id = f.document_id and c.document_version = f.document_version and c.chunk_id = f.chunk_id
) on true
order by f.distance, f.chunk_id
"""

_FORCED = """
with eligible as materialized (select {hnsw_ready} as own_hnsw),
found as materialized ({found})
select null::bigint, null::boolean, %(path)s::text, f.document_id, f.document_version, f.chunk_id, f.distance, {info}
from found f
join retrieval.active_chunks c
  on c.document_id = f.document_id and c.document_version = f.document_version and c.chunk_id = f.chunk_id
order by f.distance, f.chunk_id
"""

_SETTINGS = (
    "select set_config('hnsw.ef_search', %(ef_search)s, true), set_config('hnsw.iterative_scan', %(iterative)s, true), "
    "set_config('hnsw.max_scan_tuples', %(max_scan)s, true)"
)

# ivfflat.probes and ivfflat.max_probes as fractions of the tenant's own index's lists (its reloptions), so the
# fraction of the tenant's vectors a search reads stays what was measured whatever size the lists were fitted to
_IVF_SETTINGS = """
select set_config('ivfflat.probes', greatest(1, least(l, ceil(l * %(probe_fraction)s)))::int::text, true),
       set_config('ivfflat.max_probes', greatest(1, least(l, ceil(l * %(max_probe_fraction)s)))::int::text, true),
       set_config('ivfflat.iterative_scan', %(iterative)s, true)
from (
    select coalesce((select o.option_value::int from pg_catalog.pg_class c
                     join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
                     cross join lateral pg_catalog.pg_options_to_table(c.reloptions) o
                     where ns.nspname = 'ingest' and c.relname = %(ivf_index)s and o.option_name = 'lists'), 1) as l
) lists
"""


# The typed path's settings, from the lists of its largest index (known from the type layout). Sorting is
# disabled for its statement only (the previous values are kept in placeholders and restored after it, see
# :func:`restore_typed_settings`): the planner underestimates a type's rows (a type of 3,480 vectors was estimated
# at 53) and would sort them by the halfvec distance instead of probing the type's index, which cost 20-30 ms
# against 3 ms through the index on the 100k-chunk benchmark. Every alternative plan of the statement sorts too,
# so the penalty only removes that choice; JIT is off because the penalty inflates the cost past its threshold.
#
# The typed statement itself is prepared (:func:`typed_statement`) and runs its generic plan
# (``plan_cache_mode = force_generic_plan`` for that statement only, restored with the others): planning the
# statement took 1.2 to 1.6 ms of its 8 to 10 ms on the 100k-chunk benchmark. Its generic plan is made under the
# same settings as a custom plan would be (they are set before every execution), and an index built or dropped
# invalidates it, so the next execution plans again.
_TYPED_SETTINGS = (
    "select set_config('ivfflat.probes', %(probes)s, true), set_config('ivfflat.max_probes', %(max_probes)s, true), "
    "set_config('ivfflat.iterative_scan', %(iterative)s, true), "
    "set_config('procura.vector_enable_sort', current_setting('enable_sort'), true), "
    "set_config('enable_sort', 'off', true), "
    "set_config('procura.vector_jit', current_setting('jit'), true), set_config('jit', 'off', true), "
    "set_config('procura.vector_plan_cache_mode', current_setting('plan_cache_mode'), true), "
    "set_config('plan_cache_mode', coalesce(%(plan_cache_mode)s::text, current_setting('plan_cache_mode')), true)"
)
_RESTORE_TYPED_SETTINGS = (
    "select set_config('enable_sort', current_setting('procura.vector_enable_sort'), true), "
    "set_config('jit', current_setting('procura.vector_jit'), true), "
    "set_config('plan_cache_mode', current_setting('procura.vector_plan_cache_mode'), true)"
)

PATHS = ("ivf", "ivf_type", "hnsw", "exact")


def typed_param(position: int) -> str:
    """The statement parameter that names the ``position``-th indexed type of the typed path."""
    return f"typed_{position}"


def compose_query(where: FilterSql, force_path: str | None, typed: tuple[str, ...] = (), *,
                  key: int | None = None) -> sql.Composed:
    """The vector statement for the filter ``where`` (over alias ``x``): the access path chosen by the filtered
    set's size and the tenant's own index (``force_path`` None), or the forced path (one of :data:`PATHS`).

    ``typed`` names the document types scanned through their own indexes by the typed path (parameters
    :func:`typed_param` and ``typed_types``); with it, the statement's index path is the typed one (the
    tenant-wide IVFFlat and HNSW parts are left out), and ``ivf_type`` can be forced.

    The paths that scan the tenant's own index state its key (``index_key``), the others do not: rows of a tenant
    without an index of its own carry no key. With ``key``, the statement states that key and the typed types as
    literals instead of parameters (:func:`typed_statement`)."""
    own = (sql.SQL(_OWN_INDEX_LITERAL).format(key=sql.Literal(int(key))) if key is not None
           else sql.SQL(_OWN_INDEX))

    def rows(own_index: bool) -> sql.Composed:
        return sql.SQL(_CANDIDATES).format(chunk_join=where.chunk_join, predicate=where.predicate,
                                           own_index=own if own_index else sql.SQL(""))

    def type_value(position: int) -> sql.Composable:
        return sql.Literal(typed[position]) if key is not None else sql.Placeholder(typed_param(position))

    info = sql.SQL(INFO_COLUMNS)
    no_gate = sql.SQL("")
    dim = sql.Literal(DIMENSION)
    hnsw_ready = sql.SQL(_INDEX_READY.format("hnsw_index"))
    own_hnsw_gate = "and (select own_hnsw from eligible)"
    shared_hnsw_gate = "and not (select own_hnsw from eligible)"

    def index_path(template: str, own_index: bool, gate: str) -> sql.Composed:
        split = sql.SQL(_SPLIT).format(candidates=rows(False), gate=sql.SQL(gate))
        return sql.SQL(template).format(candidates=rows(own_index), dim=dim, gate_ivf=sql.SQL(gate),
                                        gate_hnsw=sql.SQL(gate), split=split)

    def typed_path(gate: str) -> sql.Composed:
        parts = [sql.SQL(_TYPED_PART).format(candidates=rows(True), gate=sql.SQL(gate), type=type_value(i), dim=dim)
                 for i in range(len(typed))]
        rest = sql.SQL(_TYPED_REST).format(candidates=rows(False), gate=sql.SQL(gate))
        if not parts:
            return rest
        return sql.SQL(_TYPED).format(parts=sql.SQL(" union all ").join(parts), rest=rest)

    if force_path is None and typed:
        large = "and (select n from eligible) > %(threshold)s"
        exact = sql.SQL(_EXACT).format(candidates=rows(False),
                                       gate_exact=sql.SQL("and (select n from eligible) <= %(threshold)s"))
        return sql.SQL(_AUTO).format(candidates=rows(False), ivf_ready=sql.SQL("false"),
                                     hnsw_ready=sql.SQL("false"), ivf=typed_path(large), own_hnsw=sql.SQL(_NO_ROWS),
                                     hnsw=sql.SQL(_NO_ROWS), exact=exact, info=info)
    if force_path is None:
        large = "and (select n from eligible) > %(threshold)s"
        ivf = index_path(_IVF, True, large + " and (select ivf from eligible)")
        own_hnsw = index_path(_HNSW, True, large + " and not (select ivf from eligible) " + own_hnsw_gate)
        hnsw = index_path(_HNSW, False, large + " and not (select ivf from eligible) " + shared_hnsw_gate)
        exact = sql.SQL(_EXACT).format(candidates=rows(False),
                                       gate_exact=sql.SQL("and (select n from eligible) <= %(threshold)s"))
        return sql.SQL(_AUTO).format(candidates=rows(False), ivf_ready=sql.SQL(_INDEX_READY.format("ivf_index")),
                                     hnsw_ready=hnsw_ready, ivf=ivf, own_hnsw=own_hnsw, hnsw=hnsw, exact=exact,
                                     info=info)
    if force_path not in PATHS:
        raise ValueError(f"force_path must be None, 'ivf', 'ivf_type', 'hnsw' or 'exact', not {force_path!r}")
    if force_path == "hnsw":
        # the tenant's own HNSW index when it has one, else the shared one
        found = sql.SQL("({}) union all ({})").format(index_path(_HNSW, True, own_hnsw_gate),
                                                       index_path(_HNSW, False, shared_hnsw_gate))
    elif force_path == "ivf":
        found = index_path(_IVF, True, "")
    elif force_path == "ivf_type":
        found = typed_path("")
    else:
        found = sql.SQL(_EXACT).format(candidates=rows(False), gate_exact=no_gate)
    return sql.SQL(_FORCED).format(found=found, info=info, hnsw_ready=hnsw_ready)


def ensure_vector_type(conn: psycopg.Connection) -> None:
    """Register pgvector's types on a connection that did not come from a pool (a script's, a test's).

    Pooled connections have them from :func:`procura.db.session.open_pool`'s ``configure``, so for them this is
    a dictionary lookup and no statement."""
    if conn.adapters.types.get("vector") is None:
        from pgvector.psycopg import register_vector

        register_vector(conn)


def apply_scan_settings(conn: psycopg.Connection, config: VectorConfig) -> None:
    """Set ``config``'s HNSW scan settings (ef_search, iterative scan, max_scan_tuples) for the current
    transaction only (on a connection in pipeline mode the statement is only queued)."""
    conn.execute(_SETTINGS, {"ef_search": str(config.ef_search), "iterative": config.iterative_scan,
                             "max_scan": str(config.max_scan_tuples)})  # fmt: skip


def apply_ivf_settings(conn: psycopg.Connection, config: VectorConfig, tenant_id: str) -> None:
    """Set the IVFFlat probes of ``tenant_id``'s own index (fractions of its lists) for the current transaction."""
    conn.execute(_IVF_SETTINGS, {"probe_fraction": config.ivf_probe_fraction,
                                 "max_probe_fraction": config.ivf_max_probe_fraction,
                                 "iterative": config.iterative_scan, "ivf_index": tenant_index_name(tenant_id)},
                 prepare=False)


def typed_probes(config: VectorConfig, lists: int) -> tuple[int, int]:
    """``ivfflat.probes`` and ``ivfflat.max_probes`` of the typed path whose largest index has ``lists`` lists.

    >>> typed_probes(VectorConfig(type_probe_fraction=0.12), 1_392)
    (168, 1392)
    """
    probes = max(1, min(lists, math.ceil(lists * config.type_probe_fraction)))
    return probes, max(probes, min(lists, math.ceil(lists * config.ivf_max_probe_fraction)))


def apply_typed_settings(conn: psycopg.Connection, config: VectorConfig, lists: int, *,
                         generic_plan: bool = False) -> None:
    """Set the typed path's probes (:func:`typed_probes`) and disable sorting and JIT for its statement (see
    ``_TYPED_SETTINGS``), in the current transaction, and with ``generic_plan`` make the next prepared statement
    run its generic plan (:func:`typed_statement`); :func:`restore_typed_settings` undoes all but the probes."""
    probes, max_probes = typed_probes(config, lists)
    # prepared: its text never changes, and parsing and planning it on every search cost 7-11% of the typed path
    # in an A/B on the 100k-chunk benchmark (docs/benchmarks.md, ninth pass)
    conn.execute(_TYPED_SETTINGS, {"probes": str(probes), "max_probes": str(max_probes),
                                   "iterative": config.iterative_scan,
                                   "plan_cache_mode": "force_generic_plan" if generic_plan else None}, prepare=True)


def restore_typed_settings(conn: psycopg.Connection) -> None:
    """Restore the sort, JIT and plan cache settings :func:`apply_typed_settings` changed (the transaction's
    statements after the vector branch's are planned as before)."""
    conn.execute(_RESTORE_TYPED_SETTINGS, prepare=True)  # prepared, like the statement that changed them


def typed_statement(where: FilterSql, typed: tuple[str, ...], tenant_id: str) -> sql.Composed:
    """The forced typed statement (``ivf_type``) for ``tenant_id``, stating its index key and the typed types as
    literals: the statement the service prepares and runs by its generic plan (see ``_TYPED_SETTINGS``). A
    parameter in their place would leave the generic plan without the partial indexes, whose predicates the
    planner proves against constants only; the other values (the query vector, the tenant id that row-level
    security checks, the filter values) stay parameters. One prepared statement per tenant, filter shape and set
    of typed types and connection (psycopg keeps the most recent ones)."""
    return compose_query(where, "ivf_type", typed, key=index_key(tenant_id))


def typed_statement_text(conn: psycopg.Connection, where: FilterSql, typed: tuple[str, ...], tenant_id: str) -> bytes:
    """:func:`typed_statement` as the bytes psycopg sends, kept per process by filter shape, typed types and
    index key (composing the statement took about 0.3 ms per search; the filter values are parameters, so the
    shape is the predicate's text)."""
    return _typed_text(where.predicate.as_string(conn), where.chunk_join.as_string(conn), typed, index_key(tenant_id))


@functools.lru_cache(maxsize=1024)
def _typed_text(predicate: str, chunk_join: str, typed: tuple[str, ...], key: int) -> bytes:
    # the texts were rendered from the filter's own SQL objects (its values stay placeholders)
    shape = FilterSql(sql.SQL(predicate), sql.SQL(chunk_join), {})
    return compose_query(shape, "ivf_type", typed, key=key).as_bytes(None)


def index_params(tenant_id: str) -> dict[str, object]:
    """The statement parameters that name ``tenant_id``'s own indexes and state their key, with no split types
    (the index paths then cover every type; :func:`vector_send` passes :func:`split_types`)."""
    return {"ivf_index": tenant_index_name(tenant_id), "hnsw_index": tenant_index_name(tenant_id, "hnsw"),
            "index_key": index_key(tenant_id), "split_types": []}


@dataclass(frozen=True)
class PathChoice:
    """What the choosing statement found: the capped count of the filtered set and whether the tenant has an
    IVFFlat index of its own (:func:`choose_path` turns it into the path)."""

    eligible: int
    has_ivf: bool


class PathChoices(Generic[T]):
    """Per-process memory of :class:`PathChoice` (or the split types) per search shape, each valid for
    ``ttl_seconds`` after it was read from the database (see the module docstring for why a stale entry is safe)."""

    def __init__(self, max_entries: int = 10_000) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[object, ...], tuple[float, T]] = {}
        self._max_entries = max_entries

    def get(self, key: tuple[object, ...], ttl_seconds: float, now: float) -> T | None:
        with self._lock:
            entry = self._entries.get(key)
        if entry is None or now - entry[0] > ttl_seconds:
            return None
        return entry[1]

    def put(self, key: tuple[object, ...], choice: T, now: float) -> None:
        with self._lock:
            if len(self._entries) >= self._max_entries:
                self._entries.clear()  # bounded memory; the next searches read their choice again
            self._entries[key] = (now, choice)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


#: the process's path choices (the service, the benchmarks)
PATH_CHOICES: PathChoices[PathChoice] = PathChoices()
#: the process's split types per database, tenant, embedding config and bound (:func:`split_types`)
SPLIT_TYPES: PathChoices[tuple[str, ...]] = PathChoices()

# The tenant's document types, smallest first, while their running total stays within the bound.
_SPLIT_TYPES = """
select coalesce(array_agg(document_type order by n, document_type) filter (where running <= %(bound)s), '{}')
from (
    select document_type, n, sum(n) over (order by n, document_type) as running
    from (select document_type, count(*) as n from retrieval.active_embeddings
          where tenant_id = %(tenant_id)s and embedding_config_id = %(config_id)s group by document_type) counts
) totals
"""


def split_types(conn: psycopg.Connection, tenant_id: str, config_id: str, config: VectorConfig) -> tuple[str, ...]:
    """The tenant's document types that the index paths search exactly (see the module docstring): the smallest
    types whose vectors add up to at most ``config.split_max_vectors``, kept per process for
    ``config.path_cache_seconds``. A stale answer costs speed or recall of the moment, never rows: every row
    is either in the index part or in the exact part, whatever the list says."""
    if config.split_max_vectors <= 0:
        return ()
    info = conn.info
    key = (info.host, info.port, info.dbname, tenant_id, config_id, config.split_max_vectors)
    if config.path_cache_seconds > 0:
        known = SPLIT_TYPES.get(key, config.path_cache_seconds, time.monotonic())
        if known is not None:
            return known
    row = conn.execute(_SPLIT_TYPES, {"bound": config.split_max_vectors, "tenant_id": tenant_id,
                                      "config_id": config_id}, prepare=False).fetchone()
    found = tuple(row[0]) if row and row[0] else ()
    SPLIT_TYPES.put(key, found, time.monotonic())
    return found


@dataclass(frozen=True)
class TypeLayout:
    """A tenant's active vectors per document type (``counts``) and the valid IVFFlat indexes of its types
    (``indexed``: type -> (index name, lists)), as :func:`type_layout` read them."""

    counts: tuple[tuple[str, int], ...]
    indexed: tuple[tuple[str, str, int], ...]


#: the process's type layouts per database, tenant and embedding config (:func:`type_layout`)
TYPE_LAYOUTS: PathChoices[TypeLayout] = PathChoices()

_TYPE_COUNTS = """
select document_type, count(*) from retrieval.active_embeddings
where tenant_id = %(tenant_id)s and embedding_config_id = %(config_id)s group by 1 order by 1
"""

# valid indexes among the names of the tenant's types' indexes, with their lists (an index being built is invalid)
_TYPE_INDEXES = """
select c.relname, coalesce((select o.option_value::int from pg_catalog.pg_options_to_table(c.reloptions) o
                            where o.option_name = 'lists'), 1)
from pg_catalog.pg_class c join pg_catalog.pg_index i on i.indexrelid = c.oid
join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
where ns.nspname = 'ingest' and c.relname = any(%(names)s::text[]) and i.indisvalid
"""


def type_layout(conn: psycopg.Connection, tenant_id: str, config_id: str, config: VectorConfig) -> TypeLayout:
    """``tenant_id``'s :class:`TypeLayout`, kept per process for ``config.path_cache_seconds``. A stale layout
    costs speed, never rows: an index dropped since is planned as a sort of its type's rows, and a type indexed
    since is searched exactly until the layout is read again."""
    info = conn.info
    key = (info.host, info.port, info.dbname, tenant_id, config_id)
    if config.path_cache_seconds > 0:
        known = TYPE_LAYOUTS.get(key, config.path_cache_seconds, time.monotonic())
        if known is not None:
            return known
    counts = tuple((str(t), int(n)) for t, n in conn.execute(
        _TYPE_COUNTS, {"tenant_id": tenant_id, "config_id": config_id}, prepare=False).fetchall())
    names = {type_index_name(tenant_id, t): t for t, _ in counts}
    valid: dict[str, int] = dict(conn.execute(_TYPE_INDEXES, {"names": list(names)}, prepare=False).fetchall())
    indexed = tuple((names[n], n, int(valid[n])) for n in names if n in valid)
    layout = TypeLayout(counts, indexed)
    TYPE_LAYOUTS.put(key, layout, time.monotonic())
    return layout


def typed_types(layout: TypeLayout, filters: Filters, rest_max_vectors: int) -> tuple[tuple[str, ...], int]:
    """The document types the typed path scans through their own indexes, and the most lists of those indexes:
    the filtered types with an index of their own, when the filtered types without one hold at most
    ``rest_max_vectors`` vectors together (they are searched exactly); else ``((), 0)``.

    >>> layout = TypeLayout((("agreement", 3_480), ("manual", 27_837)), (("manual", "embeddings_ivt_1", 1_392),))
    >>> typed_types(layout, Filters(), 6_000), typed_types(layout, Filters(), 3_000)
    ((('manual',), 1392), ((), 0))
    >>> typed_types(layout, Filters(document_types=("agreement",)), 6_000)
    ((), 0)
    """
    wanted: set[str] = set(filters.document_types) if filters.document_types else {t for t, _ in layout.counts}
    indexed = [(lists, name, t) for t, name, lists in layout.indexed if t in wanted]
    rest = sum(n for t, n in layout.counts if t in wanted and t not in {i[2] for i in indexed})
    if not indexed or rest > rest_max_vectors:
        return (), 0
    return tuple(sorted(t for _, _, t in indexed)), max(indexed)[0]


def choice_key(conn: psycopg.Connection, tenant_id: str, config_id: str, where: FilterSql,
               exact_threshold: int) -> tuple[object, ...]:
    """The search shape a :class:`PathChoice` is valid for: the database (server and name), the tenant, the
    embedding config, the filter statement and its values, and the threshold."""
    info = conn.info
    params = tuple(sorted((k, repr(v)) for k, v in where.params.items()))
    return (info.host, info.port, info.dbname, tenant_id, config_id, where.predicate.as_string(conn),
            where.chunk_join.as_string(conn), params, exact_threshold)


def vector_send(
    conn: psycopg.Connection,
    query_vector: np.ndarray,
    config_id: str,
    filters: Filters,
    config: VectorConfig,
    *,
    tenant_id: str,
    depth: int,
    force_path: str | None = None,
) -> Callable[[], BranchResult]:
    """Send the vector branch's statements; the returned function collects the :class:`BranchResult`.

    On a connection in pipeline mode the statements are only queued (see :func:`retrieval.bm25.bm25_send`).
    The collector runs the exact fallback itself when the HNSW scan returned fewer than ``depth`` rows.
    """
    started = time.perf_counter()
    ensure_vector_type(conn)
    where = filter_sql(filters, "x")
    params: dict[str, object] = {"q": query_vector, "tenant_id": tenant_id, "config_id": config_id, "depth": depth,
                                 "fetch": depth * config.overfetch,
                                 "cap": config.exact_threshold + 1, "threshold": config.exact_threshold,
                                 **index_params(tenant_id), **where.params}
    shape = None
    statement_path = force_path
    if force_path is None and config.path_cache_seconds > 0:
        shape = choice_key(conn, tenant_id, config_id, where, config.exact_threshold)
        known = PATH_CHOICES.get(shape, config.path_cache_seconds, time.monotonic())
        if known is not None:
            statement_path = choose_path(known.eligible, known.has_ivf, config.exact_threshold)
    typed: tuple[str, ...] = ()
    typed_lists = 0
    if statement_path in (None, "ivf", "hnsw", "ivf_type"):
        typed, typed_lists = typed_types(type_layout(conn, tenant_id, config_id, config), filters,
                                        config.split_max_vectors)
    if typed and force_path is None and statement_path in ("ivf", "hnsw"):
        statement_path = "ivf_type"
    params.update({typed_param(i): t for i, t in enumerate(typed)}, typed_types=list(typed))
    uses_split = statement_path in ("ivf", "hnsw") or (statement_path is None and not typed)
    params["split_types"] = list(split_types(conn, tenant_id, config_id, config)) if uses_split else []
    if statement_path == "hnsw" or (statement_path is None and not typed):
        apply_scan_settings(conn, config)
    with_types = typed and statement_path in (None, "ivf_type")
    if with_types:
        # an IVFFlat scan returns its probed lists' rows in exact halfvec order (rows that fail a filter are skipped
        # in that order), so a typed part needs a margin for the halfvec rounding only (VectorConfig.type_overfetch)
        params["fetch"] = depth * config.type_overfetch
    generic = bool(with_types) and statement_path == "ivf_type" and config.generic_plan
    if with_types:
        apply_typed_settings(conn, config, typed_lists, generic_plan=generic)
    elif statement_path in (None, "ivf"):
        apply_ivf_settings(conn, config, tenant_id)
    if generic:
        cursor = conn.execute(typed_statement_text(conn, where, typed, tenant_id),
                              {**params, "path": statement_path}, prepare=True)
    else:
        statement = compose_query(where, statement_path, typed if with_types else ())
        cursor = conn.execute(statement, {**params, "path": statement_path}, prepare=False)
    if with_types:
        restore_typed_settings(conn)

    def collect() -> BranchResult:
        fetched = cursor.fetchall()
        rows = [r for r in fetched if r[3] is not None]
        eligible, has_ivf = (fetched[0][0], fetched[0][1]) if fetched else (None, None)
        if statement_path is None and shape is not None and eligible is not None:
            PATH_CHOICES.put(shape, PathChoice(int(eligible), bool(has_ivf)), time.monotonic())
        path = statement_path or choose_path(eligible, bool(has_ivf), config.exact_threshold)
        if typed and statement_path is None and path != "exact":
            path = "ivf_type"
        if path != "exact" and len(rows) < depth and force_path is None:
            # the scan hit its bound (max_scan_tuples, max_probes) before finding depth rows although more than
            # exact_threshold exist
            rows = conn.execute(compose_query(where, "exact"), {**params, "path": "exact"}, prepare=False).fetchall()
            path = f"{path}+exact-fallback"
        hits = []
        infos = {}
        for _, _, _, doc, version, chunk, distance, *rest in rows:
            key = ChunkKey(doc, int(version), chunk)
            hits.append(Hit(key, 1.0 - float(distance)))
            infos[key] = chunk_info(key, rest)
        return BranchResult("vector", tuple(hits), path, (time.perf_counter() - started) * 1000, infos=infos)

    return collect


def choose_path(eligible: int | None, has_ivf: bool, exact_threshold: int) -> str:
    """The access path the statement takes (it decides in SQL; this mirrors it for the result's label): exact
    search for a filtered set of at most ``exact_threshold`` chunks, else the tenant's own IVFFlat index when it
    has one, else HNSW.

    >>> choose_path(1_500, True, 6_000), choose_path(40_000, True, 6_000), choose_path(40_000, False, 6_000)
    ('exact', 'ivf', 'hnsw')
    """
    if eligible is None or eligible <= exact_threshold:
        return "exact"
    return "ivf" if has_ivf else "hnsw"


def vector_search(
    conn: psycopg.Connection,
    query_vector: np.ndarray,
    config_id: str,
    filters: Filters,
    config: VectorConfig,
    *,
    tenant_id: str,
    depth: int,
    force_path: str | None = None,
) -> BranchResult:
    """The ``depth`` nearest active chunks of the current tenant by cosine distance (score = 1 - distance).

    Args:
        conn: a connection inside a tenant transaction (``SET LOCAL`` settings end with it).
        query_vector: the query embedding of the active config (see :func:`check_embedding_config`).
        config_id: the active embedding config id.
        tenant_id: the tenant of the current transaction's scope (selects the tenant's own HNSW index; RLS
            decides visibility either way, so another tenant's id finds nothing).
        filters: request filters, applied inside the scan.
        config: HNSW settings.
        depth: number of candidates wanted.
        force_path: ``"ivf"``, ``"hnsw"`` or ``"exact"`` to bypass the statement's choice (benchmarks, recall
            measurement).
    """
    return vector_send(conn, query_vector, config_id, filters, config, tenant_id=tenant_id, depth=depth,
                       force_path=force_path)()


def rebuild_hnsw_index(owner_conn: psycopg.Connection, *, m: int = 16, ef_construction: int = 64) -> None:
    """Rebuild the shared HNSW index with other build parameters (operator task, owner role, takes a lock).

    pgvector's defaults are m = 16 and ef_construction = 64; larger values can raise the recall of tenant-filtered
    searches at the cost of build time and memory (on the MiniLM benchmark corpus ef_construction = 200 gave
    0.97-0.985 against 0.97 at 64, within the run-to-run spread of a rebuild). At 84k chunks, with the tenant
    filter and ef_search 400: m = 16, ef_construction = 64 gave 0.935 (20 queries); m = 64, ef_construction =
    256 gave 0.959 (59 queries, 0.986 with a document-type filter), building in 445 s on 2 loaded cores into
    219 MB against 164 MB, at about twice the HNSW latency.
    """
    problem = hnsw_build_problem(m, ef_construction)
    if problem is not None:
        raise ValueError(problem)
    with owner_conn.transaction():
        owner_conn.execute("drop index if exists ingest.embeddings_hnsw")
        owner_conn.execute(hnsw_index_statement("embeddings_hnsw", m=m, ef_construction=ef_construction))
