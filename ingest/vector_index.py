"""Per-tenant vector indexes on ``ingest.embeddings``: IVFFlat over halfvec (the default) or HNSW.

The shared HNSW index (migration 0005) holds every tenant's vectors. A tenant-filtered search on it walks a
graph whose nearest neighbours are mostly other tenants' chunks: the iterative scan discards them one by one
(thousands per query on the 100k-chunk benchmark) and the ``ef_search`` candidate list is mostly spent on rows
the tenant predicate removes, which is where the filtered path lost its recall. A partial index
``WHERE tenant_id = '<tenant>'`` is a graph of that tenant's vectors only, as pgvector's documentation suggests
for filtering on a few distinct values.

The catalog (``pg_indexes``, ``pg_class``) is readable by every role, so neither the index name nor its
predicate names the tenant: both use the tenant's index key (:func:`index_key`), a keyed hash of the tenant id
under the server secret (:mod:`procura.keyed`), kept in ``ingest.embeddings.index_key`` (migration 0160;
ingestion writes it with every row, :func:`ensure_tenant_index` fills it on rows written before). The planner
uses a partial index only when the query itself states ``index_key = <constant>`` at plan time, so
:mod:`retrieval.vector` adds the key as a bound value of an unprepared statement (row-level security still
decides what is visible).
Tenants without an index of their own use the shared one; tenants small enough for exact search need none
(``min_vectors``).

A tenant past ``MIN_VECTORS`` also gets one IVFFlat index per document type that holds at least
:data:`TYPE_MIN_VECTORS` of its vectors (:func:`ensure_type_indexes`, run by :func:`ensure_tenant_index`): a
partial index ``WHERE index_key = <key> AND index_type = '<type>'`` over the rows' copy of their document's type
(migration 0320). A search filtered on that type, or on the tenant alone, scans each type's own index with its own
top-k and searches the smaller types exactly (:mod:`retrieval.vector`), so no probed cell is spent on rows of
another type and a type's neighbours are not crowded out by a larger type's. MiniLM, 31,317 vectors of one tenant
(27,837 manual chunks, 3,480 agreements), 59 queries, 12% of the manual index's lists probed: recall@10 0.988 /
0.985 (tenant / + manuals) at 5.5x / 9.6x exact search's speed in one run, against 0.998 / 0.997 at 2.2x / 2.8x
through the tenant's index at 20% (docs/benchmarks.md).

The default per-tenant index is IVFFlat over ``embedding::halfvec(384)`` with its number of lists fitted to the
tenant's size (:func:`fitted_lists`), scanned with a fraction of the lists as probes (``VectorConfig``). On the
100k-chunk MiniLM benchmark no HNSW build or ef_search reached recall@10 0.98 on the tenant filter alone, and
this did (docs/vector-recall.md): the tenant's exact neighbours of short queries lie in a small region the HNSW
beam does not cross to, while probing the nearest 40% of the lists finds them. IVFFlat's centroids are fixed at
build time, so the index is rebuilt (refitted) once the tenant has grown by :data:`REFIT_GROWTH` since it was
built; the vector count at build time is kept in the index's comment.

Example:
    >>> ensure_tenant_index(owner_conn, "tenant-42")  # doctest: +SKIP
    TenantIndex(tenant_id='tenant-42', name='embeddings_ivf_3b0c9d8e2f4a6c1', created=True, ...)
"""

from __future__ import annotations

import hashlib
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

import psycopg
from psycopg import sql

from ingest.errors import IngestError
from procura.db.session import TENANT_ID_PATTERN, idle_autocommit
from procura.keyed import keyed_hex

log = logging.getLogger(__name__)

#: A tenant gets an index of its own from this many active vectors on; below it, exact search is both exact and
#: cheap (see ``retrieval.config.VectorConfig.exact_threshold``, which has the same default).
MIN_VECTORS = 6_000
#: A document type of a tenant past MIN_VECTORS gets an index of its own from this many active vectors on; smaller
#: types are searched exactly beside the indexed ones. On the 100k-chunk benchmark the tenant's 3,480 agreement
#: vectors cost about 3 ms through their own index (probed almost whole) and 5 to 8 ms by exact search.
TYPE_MIN_VECTORS = 1_000
#: The per-tenant index method ingestion builds.
DEFAULT_METHOD = "ivfflat"
#: An IVFFlat index is rebuilt once the tenant holds this many times the vectors it was built over (its lists
#: were fitted to the old size, and new rows fall into the old centroids' cells).
REFIT_GROWTH = 1.5
#: The most lists :func:`fitted_lists` gives an IVFFlat index.
MAX_LISTS = 2_000
#: The dimension of ``ingest.embeddings.embedding`` (migration 0005); the halfvec expression index names it.
DIMENSION = 384
#: How long a build may wait for a lock, e.g. for a long transaction that a concurrent build must outlive.
LOCK_TIMEOUT_MS = 60_000


@dataclass(frozen=True)
class TenantIndex:
    """The outcome of :func:`ensure_tenant_index`.

    Attributes:
        tenant_id: the tenant.
        name: the index name (:func:`tenant_index_name`).
        created: this call built it.
        vectors: the tenant's active vectors of the active config when it was checked.
        build_s: seconds the build took (0 when nothing was built).
        error: why the build did not happen (another session was building it, a lock wait timed out, ...);
            the tenant's searches use the shared index meanwhile.
    """

    tenant_id: str
    name: str
    created: bool
    vectors: int
    build_s: float = 0.0
    error: str | None = None
    method: str = DEFAULT_METHOD
    lists: int | None = None
    type_indexes: tuple[TypeIndex, ...] = ()


@dataclass(frozen=True)
class TypeIndex:
    """The outcome of :func:`ensure_type_indexes` for one document type (fields as :class:`TenantIndex`)."""

    tenant_id: str
    document_type: str
    name: str
    created: bool
    vectors: int
    lists: int
    build_s: float = 0.0
    error: str | None = None


def index_key(tenant_id: str) -> int:
    """The opaque key of ``tenant_id``'s vector indexes: 60 bits of a keyed hash (server secret), so the catalog
    shows a number that cannot be traced back to the tenant without the key (a plain hash of a guessable id could).

    >>> 0 < index_key("tenant-42") < 2**60 and index_key("tenant-42") != index_key("tenant-17")
    True
    """
    return int(keyed_hex("vector-index", tenant_id)[:15], 16)


def tenant_index_name(tenant_id: str, method: str = DEFAULT_METHOD) -> str:
    """The index name of ``tenant_id`` for ``method``: its index key in hex (no tenant id in the catalog).

    >>> tenant_index_name("tenant-42").startswith("embeddings_ivf_"), len(tenant_index_name("tenant-42", "hnsw"))
    (True, 31)
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}, not {method!r}")
    return f"embeddings_{_METHODS[method]}_{index_key(tenant_id):015x}"


_METHODS = {"ivfflat": "ivf", "hnsw": "hnsw"}


def type_index_name(tenant_id: str, document_type: str) -> str:
    """The name of ``tenant_id``'s IVFFlat index over its ``document_type`` vectors: a keyed hash of both (no
    tenant id in the catalog, and no type that only one tenant has either).

    >>> type_index_name("tenant-42", "agreement").startswith("embeddings_ivt_"), len(type_index_name("t-1", "x"))
    (True, 30)
    >>> type_index_name("tenant-42", "agreement") != type_index_name("tenant-42", "product_manual")
    True
    """
    digest = keyed_hex("vector-type-index", tenant_id + "\x00" + document_type)
    return f"embeddings_ivt_{int(digest[:15], 16):015x}"


def fitted_lists(vectors: int) -> int:
    """IVFFlat lists for a tenant of ``vectors`` rows: one per 20 rows, at least 10 and at most :data:`MAX_LISTS`.

    pgvector suggests rows / 1000 up to 1M rows; that gives 40 lists for 40k rows, each probe then scanning 1,000
    rows. Small cells find the query's neighbours with a smaller probed fraction, which is what decides both the
    recall and the cost: on the 100k-chunk benchmark (39,715 vectors, hashed vectors, 59 queries) probing 30% of
    the lists gave recall@10 0.880 with 50 lists, 0.920 with 400, 0.939 with 1,000 and 0.968-0.971 with 2,000
    (3,000 lists: 0.964, no better). The cap bounds the build's k-means (2,000 lists took 47-73 s on 2 loaded
    cores at 40k vectors) and its memory (4,000 lists needed 828 MB of maintenance_work_mem).

    >>> fitted_lists(39_715), fitted_lists(2_000), fitted_lists(10), fitted_lists(100_000_000)
    (1986, 100, 10, 2000)
    """
    return max(10, min(MAX_LISTS, round(vectors / 20)))


def fitted_type_lists(vectors: int) -> int:
    """IVFFlat lists of a per-type index of ``vectors`` rows: one per 5 rows, at least 10 and at most
    :data:`MAX_LISTS`.

    The typed search (:mod:`retrieval.vector`) probes the same number of lists in every type's index of the
    statement (``ivfflat.probes`` is one setting), fitted to the largest; a type's scan then reads about probes x
    its cell size. Cells of 5 rows keep a smaller type's scan short (its cells were probed almost whole at 20
    rows per cell), and the largest type's index reaches the :data:`MAX_LISTS` cap from 10,000 vectors on. On the
    100k-chunk MiniLM benchmark (27,837 manual and 3,480 agreement vectors of one tenant, 12% of the manual
    index's lists probed) recall@10 with the tenant filter went from 0.981 (1,392 and 174 lists) to 0.986 (2,000
    and 696 lists), and the agreements' share of the scan from 3,480 to about 1,200 rows.

    >>> fitted_type_lists(27_837), fitted_type_lists(3_480), fitted_type_lists(20)
    (2000, 696, 10)
    """
    return max(10, min(MAX_LISTS, round(vectors / 5)))


def fitted_ef_construction(vectors: int) -> int:
    """HNSW ``ef_construction`` for a tenant of ``vectors`` rows: pgvector's 64 up to 10,000, 128 up to 50,000,
    256 above; m stays 16, because pgvector's cost estimate grows with m and the planner then prefers the index
    shared by all tenants.

    On the MiniLM benchmark (29,269 vectors of one tenant, the split of :mod:`retrieval.vector`, ef_search 200)
    ef_construction 128 gave recall@10 0.976 / 0.969 (tenant / + manuals) and 256 gave 0.986 / 0.981; the builds
    took 8 to 15 s and 27 s on the shared 2-core machine (docs/vector-recall.md).

    >>> fitted_ef_construction(5_000), fitted_ef_construction(29_269), fitted_ef_construction(200_000)
    (64, 128, 256)
    """
    return 64 if vectors <= 10_000 else 128 if vectors <= 50_000 else 256


def fitted_probes(lists: int, fraction: float) -> int:
    """``ivfflat.probes`` for an index of ``lists`` lists that should scan ``fraction`` of them (at least 1).

    >>> fitted_probes(199, 0.4), fitted_probes(10, 0.01)
    (80, 1)
    """
    return max(1, min(lists, math.ceil(lists * fraction)))


def ivfflat_index_statement(name: str, *, lists: int, tenant_id: str, concurrently: bool = False) -> sql.Composed:
    """``CREATE INDEX`` of a partial IVFFlat index ``name`` over ``tenant_id``'s vectors cast to halfvec (cosine).

    halfvec halves the bytes a probe reads; the search re-ranks its candidates by the full-precision distance.
    """
    return sql.SQL(
        "create index {concurrently}{name} on ingest.embeddings using ivfflat "
        "((embedding::halfvec({dim})) halfvec_cosine_ops) with (lists = {lists}) where index_key = {key}"
    ).format(concurrently=sql.SQL("concurrently " if concurrently else ""), name=sql.Identifier(name),
             dim=sql.Literal(DIMENSION), lists=sql.Literal(int(lists)), key=sql.Literal(index_key(tenant_id)))


def ivfflat_type_index_statement(name: str, *, lists: int, tenant_id: str, document_type: str,
                                 concurrently: bool = False) -> sql.Composed:
    """``CREATE INDEX`` of a partial IVFFlat index ``name`` over ``tenant_id``'s vectors of ``document_type``
    (halfvec, cosine, as :func:`ivfflat_index_statement`)."""
    return sql.SQL(
        "create index {concurrently}{name} on ingest.embeddings using ivfflat "
        "((embedding::halfvec({dim})) halfvec_cosine_ops) with (lists = {lists}) "
        "where index_key = {key} and index_type = {type}"
    ).format(concurrently=sql.SQL("concurrently " if concurrently else ""), name=sql.Identifier(name),
             dim=sql.Literal(DIMENSION), lists=sql.Literal(int(lists)), key=sql.Literal(index_key(tenant_id)),
             type=sql.Literal(document_type))


def _index_state(conn: psycopg.Connection, name: str) -> bool | None:
    """True for a valid index, False for an invalid one (an interrupted concurrent build), None if absent."""
    row = conn.execute(
        "select i.indisvalid from pg_index i join pg_class c on c.oid = i.indexrelid "
        "join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'ingest' and c.relname = %s",
        (name,),
    ).fetchone()
    return None if row is None else bool(row[0])


def hnsw_build_problem(m: int, ef_construction: int) -> str | None:
    """What is wrong with these HNSW build parameters (pgvector's bounds), or None."""
    if not 2 <= m <= 100:
        return "m must be between 2 and 100"
    if not 4 <= ef_construction <= 1000 or ef_construction < 2 * m:
        return "ef_construction must be between 4 and 1000 and at least 2 * m"
    return None


def hnsw_index_statement(
    name: str, *, m: int, ef_construction: int, tenant_id: str | None = None, concurrently: bool = False
) -> sql.Composed:
    """``CREATE INDEX`` of an HNSW index ``name`` on ``ingest.embeddings`` (cosine), over every row or, with
    ``tenant_id``, over that tenant's rows only."""
    statement = sql.SQL(
        "create index {concurrently}{name} on ingest.embeddings using hnsw (embedding vector_cosine_ops) "
        "with (m = {m}, ef_construction = {efc}){where}"
    )
    where = (sql.SQL(" where index_key = {}").format(sql.Literal(index_key(tenant_id))) if tenant_id is not None
             else sql.SQL(""))
    return statement.format(concurrently=sql.SQL("concurrently " if concurrently else ""), name=sql.Identifier(name),
                            m=sql.Literal(int(m)), efc=sql.Literal(int(ef_construction)), where=where)


def build_lock_key(name: str) -> int:
    """The session-level advisory lock key a session holds while it builds or drops index ``name``."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:15], 16)


def _active_vectors(conn: psycopg.Connection, tenant_id: str) -> int:
    """The tenant's vectors a search can see: active versions, active embedding config."""
    row = conn.execute("select count(*) from retrieval.active_embeddings where tenant_id = %s", (tenant_id,)).fetchone()
    return int(row[0]) if row else 0


def _fill_key(conn: psycopg.Connection, tenant_id: str) -> None:
    """Set ``tenant_id``'s index key on its rows that lack it: written before migration 0160, or under another
    server secret (ingestion writes the key with every row). Rows outside the tenant's index would be missed by
    its searches, not leaked: the key only selects an index, row-level security decides visibility."""
    key = index_key(tenant_id)
    conn.execute("update ingest.embeddings set index_key = %s where tenant_id = %s and index_key is distinct from %s",
                 (key, tenant_id, key))


def _built_over(conn: psycopg.Connection, name: str) -> int | None:
    """The vector count an IVFFlat index was built over (its comment, see :func:`ensure_tenant_index`)."""
    row = conn.execute(
        "select obj_description(c.oid, 'pg_class') from pg_class c join pg_namespace n on n.oid = c.relnamespace "
        "where n.nspname = 'ingest' and c.relname = %s", (name,)
    ).fetchone()
    match = re.fullmatch(r"vectors=(\d+) lists=(\d+)", (row[0] or "") if row else "")
    return int(match.group(1)) if match else None


def ensure_tenant_index(
    conn: psycopg.Connection,
    tenant_id: str,
    *,
    min_vectors: int = MIN_VECTORS,
    method: str = DEFAULT_METHOD,
    m: int = 16,
    ef_construction: int | None = None,
    lists: int | None = None,
    lock_timeout_ms: int = LOCK_TIMEOUT_MS,
    type_min_vectors: int | None = TYPE_MIN_VECTORS,
) -> TenantIndex | None:
    """:func:`ensure_tenant_index_only`, then, for a tenant that has (or now got) an index of its own, its
    document types' indexes (:func:`ensure_type_indexes` with ``type_min_vectors``; None: not those), reported
    in ``type_indexes``. Arguments and errors as :func:`ensure_tenant_index_only`."""
    built = ensure_tenant_index_only(conn, tenant_id, min_vectors=min_vectors, method=method, m=m,
                                     ef_construction=ef_construction, lists=lists, lock_timeout_ms=lock_timeout_ms)
    if built is None or type_min_vectors is None:
        return built
    return replace(built, type_indexes=ensure_type_indexes(conn, tenant_id, min_vectors=type_min_vectors,
                                                          lock_timeout_ms=lock_timeout_ms))


def ensure_tenant_index_only(
    conn: psycopg.Connection,
    tenant_id: str,
    *,
    min_vectors: int = MIN_VECTORS,
    method: str = DEFAULT_METHOD,
    m: int = 16,
    ef_construction: int | None = None,
    lists: int | None = None,
    lock_timeout_ms: int = LOCK_TIMEOUT_MS,
) -> TenantIndex | None:
    """Create ``tenant_id``'s partial vector index if it has at least ``min_vectors`` active vectors and none yet,
    or refit its IVFFlat index once the tenant has grown by :data:`REFIT_GROWTH` since the build.

    The build is ``CREATE INDEX CONCURRENTLY``: searches and ingestion of other documents go on meanwhile. A
    session-level advisory lock keeps two sessions from building (or dropping) the same index at once; the
    second one returns at once with ``error`` set. An invalid index left by an interrupted build is dropped and
    built again. A build that fails (e.g. its lock wait times out) is reported in ``error``, not raised: the
    index only speeds searches up, and the tenant's searches use the shared index until a later run builds it.
    A refit builds the new index next to the old one and then swaps them, so searches always have one.

    Args:
        conn: a ``procura_owner`` connection in autocommit mode, not in a transaction.
        tenant_id: the tenant.
        min_vectors: smaller tenants get no index (None is returned); at least 1.
        method: ``"ivfflat"`` (over halfvec, lists fitted to the size) or ``"hnsw"``.
        m, ef_construction: HNSW build parameters (m: pgvector's default; ef_construction: default
            :func:`fitted_ef_construction` of the tenant's vector count).
        lists: IVFFlat lists (default :func:`fitted_lists` of the tenant's vector count).
        lock_timeout_ms: the longest the build waits for a lock.

    Raises:
        IngestError: an invalid tenant id, method or build parameters, or a connection that cannot run a
            concurrent build.
    """
    if not TENANT_ID_PATTERN.match(tenant_id):
        raise IngestError(f"tenant_id {tenant_id!r}: not a valid tenant id")
    if method not in _METHODS:
        raise IngestError(f"method {method!r}: not one of {', '.join(_METHODS)}")
    problem = hnsw_build_problem(m, ef_construction or 2 * m)
    if problem is not None:
        raise IngestError(f"m = {m}, ef_construction = {ef_construction}: {problem}")
    if lists is not None and not 1 <= lists <= 32_768:
        raise IngestError(f"lists = {lists}: must be between 1 and 32768")
    if not idle_autocommit(conn):
        raise IngestError("a tenant vector index is built concurrently: it needs an idle autocommit connection")
    vectors = _active_vectors(conn, tenant_id)
    if vectors < max(min_vectors, 1):
        return None
    name = tenant_index_name(tenant_id, method)
    wanted_lists = lists or fitted_lists(vectors) if method == "ivfflat" else None

    def stale() -> bool:
        built_over = _built_over(conn, name) if method == "ivfflat" else None
        return built_over is not None and vectors >= built_over * REFIT_GROWTH

    _fill_key(conn, tenant_id)
    if _index_state(conn, name) and not stale():
        return TenantIndex(tenant_id, name, False, vectors, method=method)
    lock_key = build_lock_key(name)
    row = conn.execute("select pg_try_advisory_lock(%s)", (lock_key,)).fetchone()
    if not (row and row[0]):
        return TenantIndex(tenant_id, name, False, vectors, error="another session is building this index",
                           method=method)
    started = time.monotonic()
    try:
        conn.execute(sql.SQL("set lock_timeout = {}").format(sql.Literal(f"{int(lock_timeout_ms)}ms")))
        state = _index_state(conn, name)  # again, under the lock: another session may have finished it
        if state and not stale():
            return TenantIndex(tenant_id, name, False, vectors, method=method)
        if state is False:
            conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(name)))
        # a refit builds next to the serving index and swaps; a first build goes straight to the final name
        target = f"{name}_next" if state else name
        conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(target)))
        if method == "ivfflat":
            assert wanted_lists is not None
            conn.execute(ivfflat_index_statement(target, lists=wanted_lists, tenant_id=tenant_id, concurrently=True))
            conn.execute(sql.SQL("comment on index ingest.{} is {}").format(
                sql.Identifier(target), sql.Literal(f"vectors={vectors} lists={wanted_lists}")))
        else:
            conn.execute(hnsw_index_statement(target, m=m, ef_construction=ef_construction
                                              or max(2 * m, fitted_ef_construction(vectors)),
                                              tenant_id=tenant_id, concurrently=True))
        if target != name:
            conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(name)))
            conn.execute(sql.SQL("alter index ingest.{} rename to {}").format(sql.Identifier(target),
                                                                            sql.Identifier(name)))
        conn.execute("analyze ingest.embeddings")
        return TenantIndex(tenant_id, name, True, vectors, time.monotonic() - started, method=method,
                           lists=wanted_lists)
    except psycopg.Error as exc:
        # An interrupted concurrent build leaves an invalid index behind; the next call drops and rebuilds it.
        log.warning("vector index %s for %s not built: %s", name, tenant_id, exc)
        return TenantIndex(tenant_id, name, False, vectors, time.monotonic() - started,
                           error=f"{type(exc).__name__}: {exc}".strip(), method=method)
    finally:
        if not conn.closed:
            conn.execute("reset lock_timeout")
            conn.execute("select pg_advisory_unlock(%s)", (lock_key,))


def _sync_types(conn: psycopg.Connection, tenant_id: str) -> None:
    """Set the copy of the document type (``index_type``) on ``tenant_id``'s rows where it differs from the
    registry: rows written before migration 0320, and rows of a document whose type changed with a new version
    (the insert trigger copied the type the registry had before the version was published)."""
    conn.execute(
        "update ingest.embeddings e set index_type = d.document_type from ingest.documents d "
        "where e.tenant_id = %s and d.tenant_id = e.tenant_id and d.document_id = e.document_id "
        "and e.index_type is distinct from d.document_type", (tenant_id,))


def _type_counts(conn: psycopg.Connection, tenant_id: str) -> dict[str, int]:
    """The tenant's active vectors of the active config per document type."""
    return {t: int(n) for t, n in conn.execute(
        "select document_type, count(*) from retrieval.active_embeddings where tenant_id = %s group by 1 order by 1",
        (tenant_id,)).fetchall()}


def ensure_type_indexes(
    conn: psycopg.Connection,
    tenant_id: str,
    *,
    min_vectors: int = TYPE_MIN_VECTORS,
    lock_timeout_ms: int = LOCK_TIMEOUT_MS,
) -> tuple[TypeIndex, ...]:
    """Create (or refit, as :func:`ensure_tenant_index_only` does) the IVFFlat index of each of ``tenant_id``'s
    document types with at least ``min_vectors`` active vectors, lists fitted to the type's size; first bring
    the rows' type copies in line with the registry (:func:`_sync_types`). One :class:`TypeIndex` per such type,
    in type order. Builds that fail are reported in ``error``, not raised (the searches of that type then go
    through the tenant's index).

    Raises:
        IngestError: an invalid tenant id, or a connection that cannot run a concurrent build.
    """
    if not TENANT_ID_PATTERN.match(tenant_id):
        raise IngestError(f"tenant_id {tenant_id!r}: not a valid tenant id")
    if not idle_autocommit(conn):
        raise IngestError("a tenant vector index is built concurrently: it needs an idle autocommit connection")
    _fill_key(conn, tenant_id)
    _sync_types(conn, tenant_id)
    found = []
    for document_type, vectors in _type_counts(conn, tenant_id).items():
        if vectors < max(min_vectors, 1):
            continue
        name = type_index_name(tenant_id, document_type)
        lists = fitted_type_lists(vectors)
        statement = partial(ivfflat_type_index_statement, lists=lists, tenant_id=tenant_id,
                            document_type=document_type, concurrently=True)
        created, build_s, error = _build_ivf(conn, name, vectors, lists, lock_timeout_ms, statement)
        found.append(TypeIndex(tenant_id, document_type, name, created, vectors, lists, build_s, error))
    return tuple(found)


def _build_ivf(conn: psycopg.Connection, name: str, vectors: int, lists: int, lock_timeout_ms: int,
               statement: Callable[[str], sql.Composed]) -> tuple[bool, float, str | None]:
    """Build IVFFlat index ``name`` (``statement(target name)``) unless a valid one exists that is not stale
    (built over fewer than vectors / :data:`REFIT_GROWTH` rows); a refit builds beside it and swaps. Returns
    (built, seconds, error), under the same advisory lock and failure rules as :func:`ensure_tenant_index_only`."""

    def stale() -> bool:
        built_over = _built_over(conn, name)
        return built_over is not None and vectors >= built_over * REFIT_GROWTH

    if _index_state(conn, name) and not stale():
        return False, 0.0, None
    lock_key = build_lock_key(name)
    row = conn.execute("select pg_try_advisory_lock(%s)", (lock_key,)).fetchone()
    if not (row and row[0]):
        return False, 0.0, "another session is building this index"
    started = time.monotonic()
    try:
        conn.execute(sql.SQL("set lock_timeout = {}").format(sql.Literal(f"{int(lock_timeout_ms)}ms")))
        state = _index_state(conn, name)
        if state and not stale():
            return False, 0.0, None
        if state is False:
            conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(name)))
        target = f"{name}_next" if state else name
        conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(target)))
        conn.execute(statement(target))
        conn.execute(sql.SQL("comment on index ingest.{} is {}").format(
            sql.Identifier(target), sql.Literal(f"vectors={vectors} lists={lists}")))
        if target != name:
            conn.execute(sql.SQL("drop index concurrently if exists ingest.{}").format(sql.Identifier(name)))
            conn.execute(sql.SQL("alter index ingest.{} rename to {}").format(sql.Identifier(target),
                                                                            sql.Identifier(name)))
        conn.execute("analyze ingest.embeddings")
        return True, time.monotonic() - started, None
    except psycopg.Error as exc:
        log.warning("vector index %s not built: %s", name, exc)
        return False, time.monotonic() - started, f"{type(exc).__name__}: {exc}".strip()
    finally:
        if not conn.closed:
            conn.execute("reset lock_timeout")
            conn.execute("select pg_advisory_unlock(%s)", (lock_key,))


def tenant_indexes(conn: psycopg.Connection) -> dict[str, str]:
    """Tenant id -> name of every valid per-tenant index (its IVFFlat index when it has both kinds); an owner
    connection (the index keys are the owner's)."""
    rows = conn.execute(
        "select c.relname, pg_get_expr(i.indpred, i.indrelid) from pg_index i "
        "join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace "
        "where n.nspname = 'ingest' and (c.relname like 'embeddings\\_hnsw\\_%' or c.relname like "
        "'embeddings\\_ivf\\_%') and c.relname not like '%%\\_next' and i.indisvalid and i.indpred is not null "
        "order by c.relname"
    ).fetchall()
    tenants = {index_key(tenant): tenant for (tenant,) in conn.execute(
        "select distinct tenant_id from ingest.documents").fetchall()}
    found: dict[str, str] = {}
    for name, predicate in rows:
        match = re.fullmatch(r"\(index_key = '?(\d+)'?(?:::bigint)?\)", predicate or "")
        tenant = tenants.get(int(match.group(1))) if match else None
        if tenant is not None and (tenant not in found or name.startswith("embeddings_ivf_")):
            found[tenant] = name
    return found
