"""The search service: ``search(conn, ctx, request, embedder)``.

Everything runs in one read-only :func:`~procura.db.session.tenant_transaction` on a ``procura_app``
connection, so RLS scopes every branch to ``ctx.tenant_id`` and the ``retrieval.active_*`` views apply the
serving rule (only active, non-deleted document versions). After fusion every candidate is checked again —
tenant, active version, content hash and filters — before it can be returned; no fusion score can bring back a
row that check rejects.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack

import psycopg
from psycopg import sql

from ingest.embedder import Embedder
from procura.db.session import AuthContext, tenant_transaction
from procura.errors import AuthorizationError
from retrieval.analyzer import ANALYZER_ID, analyze
from retrieval.bm25 import bm25_send
from retrieval.candidates import INFO_COLUMNS, BranchResult, ChunkInfo, ChunkKey, chunk_info
from retrieval.config import RetrievalConfig
from retrieval.documents import DocumentStatus, lookup_documents
from retrieval.errors import IndexNotReadyError, SearchScopeError
from retrieval.exact import exact_send, identifiers_in_text, label, merge_identifiers
from retrieval.filters import filter_sql
from retrieval.fusion import Fused, cap_per_document, classify, fuse
from retrieval.models import (
    BranchHit,
    BranchReport,
    Filters,
    ParentSection,
    SearchRequest,
    SearchResponse,
    SearchResult,
    Span,
)
from retrieval.rerank import Reranker
from retrieval.vector import active_config_send, compare_embedding_config, ensure_vector_type, vector_send

#: The scope a principal needs to search documents.
SEARCH_SCOPE = "procurement:read"

_KEYS = "(select * from unnest(%(docs)s::text[], %(versions)s::int[], %(chunks)s::text[]))"


def _key_params(keys: Sequence[ChunkKey]) -> dict[str, list[object]]:
    return {
        "docs": [k.document_id for k in keys],
        "versions": [k.document_version for k in keys],
        "chunks": [k.chunk_id for k in keys],
    }


def _chunk_infos(conn: psycopg.Connection, keys: Sequence[ChunkKey]) -> dict[ChunkKey, ChunkInfo]:
    if not keys:
        return {}
    rows = conn.execute(
        f"select document_id, document_version, chunk_id, {INFO_COLUMNS} from retrieval.active_chunks c "
        f"where (document_id, document_version, chunk_id) in {_KEYS}",
        _key_params(keys),
    ).fetchall()
    infos = {}
    for doc, version, chunk, *rest in rows:
        key = ChunkKey(doc, int(version), chunk)
        infos[key] = chunk_info(key, rest)
    return infos


def _authorize_send(
    conn: psycopg.Connection, ctx: AuthContext, filters: Filters, candidates: Sequence[tuple[ChunkKey, str]]
) -> Callable[[], set[ChunkKey]]:
    if not candidates:
        return set
    where = filter_sql(filters, "x", chunk="x")
    keys = [key for key, _ in candidates]
    cursor = conn.execute(
        sql.SQL(
            "select x.tenant_id, x.document_id, x.document_version, x.chunk_id, x.content_hash "
            "from retrieval.active_chunks x {join} where (x.document_id, x.document_version, x.chunk_id) in "
            + _KEYS
            + " and x.tenant_id = %(tenant)s and {predicate}"
        ).format(join=where.chunk_join, predicate=where.predicate),
        {**_key_params(keys), "tenant": ctx.tenant_id, **where.params},
    )

    def collect() -> set[ChunkKey]:
        seen = {ChunkKey(doc, int(version), chunk): content_hash
                for tenant, doc, version, chunk, content_hash in cursor.fetchall() if tenant == ctx.tenant_id}
        return {key for key, content_hash in candidates if seen.get(key) == content_hash}

    return collect


def authorize(
    conn: psycopg.Connection, ctx: AuthContext, filters: Filters, candidates: Sequence[tuple[ChunkKey, str]]
) -> set[ChunkKey]:
    """The subset of (key, content hash) candidates the caller may receive right now.

    A candidate passes when, read again through RLS and the serving rule, it belongs to ``ctx.tenant_id``, is
    in an active version of a non-deleted document, still has the same content, and satisfies the filters.
    """
    return _authorize_send(conn, ctx, filters, candidates)()


_Section = tuple[str, int, str]


def _sections_send(
    conn: psycopg.Connection, wanted: set[_Section]
) -> Callable[[], dict[_Section, tuple[str, tuple[str, ...]]]]:
    if not wanted:
        return dict
    ordered = sorted(wanted)
    cursor = conn.execute(
        "select document_id, document_version, parent_id, string_agg(chunk_text, E'\\n\\n' order by ordinal), "
        "array_agg(chunk_id order by ordinal) from retrieval.active_chunks "
        "where (document_id, document_version, parent_id) in "
        "(select * from unnest(%s::text[], %s::int[], %s::text[])) group by 1, 2, 3",
        ([w[0] for w in ordered], [w[1] for w in ordered], [w[2] for w in ordered]),
    )

    def collect() -> dict[_Section, tuple[str, tuple[str, ...]]]:
        return {(doc, int(version), parent): (text, tuple(ids)) for doc, version, parent, text, ids in cursor}

    return collect


def _wanted_sections(results: Sequence[Fused], infos: dict[ChunkKey, ChunkInfo]) -> set[_Section]:
    return {(f.key.document_id, f.key.document_version, parent) for f in results
            if (parent := infos[f.key].parent_id) is not None}


def _parents(
    results: Sequence[Fused], infos: dict[ChunkKey, ChunkInfo], texts: dict[_Section, tuple[str, tuple[str, ...]]]
) -> dict[ChunkKey, ParentSection]:
    sections: dict[ChunkKey, ParentSection] = {}
    for f in results:
        info = infos[f.key]
        found = texts.get((f.key.document_id, f.key.document_version, info.parent_id or ""))
        sections[f.key] = ParentSection(
            section_id=info.parent_id,
            path=info.section_path,
            text=found[0] if found else None,
            chunk_ids=found[1] if found else (),
        )
    return sections


def search(
    conn: psycopg.Connection,
    ctx: AuthContext,
    request: SearchRequest,
    embedder: Embedder | None,
    *,
    config: RetrievalConfig | None = None,
    reranker: Reranker | None = None,
    aux_conn: psycopg.Connection | None = None,
) -> SearchResponse:
    """Run ``request`` for the tenant of ``ctx``.

    Args:
        conn: an idle ``procura_app`` connection (autocommit); the search opens its own tenant transaction.
        ctx: the authenticated context; it needs the ``procurement:read`` scope.
        request: the validated request.
        embedder: embeds the query for the vector branch; must match the active embedding config. May be None
            when the request does not use the vector mode.
        config: tuning (default :class:`RetrievalConfig`).
        reranker: optional cross-encoder stage (off by default).
        aux_conn: optionally a second idle ``procura_app`` connection: the BM25 branch then runs on it, in its
            own tenant transaction for the same ``ctx``, concurrently with the other branches.

    Raises:
        SearchScopeError: the principal lacks ``procurement:read``.
        IndexConfigMismatchError: the embedder or analyzer does not match the index.
        IndexNotReadyError: no active embedding configuration, or the vector mode without an embedder.
    """
    started = time.perf_counter()
    config = config or RetrievalConfig()
    if not ctx.has_scope(SEARCH_SCOPE):
        raise SearchScopeError(f"search needs the {SEARCH_SCOPE} scope")
    modes = request.retrieval_modes
    identifiers = merge_identifiers(request.identifiers.pairs(), identifiers_in_text(request.query_text))
    query_class = classify(request.query_text, len(identifiers))
    analyzed = analyze(request.query_text) if request.query_text else None
    use_vector = "vector" in modes and bool(request.query_text)
    if use_vector and embedder is None:
        raise IndexNotReadyError("vector: no query embedder is configured; search without the vector mode")

    if use_vector:
        ensure_vector_type(conn)  # pooled connections have the types; others pay one catalog read, not in the pipeline
    branches: list[BranchResult] = []
    config_id: str | None = None
    embedding_ms: float | None = None
    # Design note: the search is two round trips. The scope, every branch's statements and the active embedding
    # config travel in one pipeline, and the query is embedded while the server runs the exact and BM25
    # statements; after fusion, the final authorization check, the parent sections of the expected results and
    # COMMIT travel in a second. A failure anywhere aborts the rest of the pipeline on the server, so nothing
    # after a refused scope runs. The vector statement selects only vectors of the embedder's own config, so
    # nothing incomparable is scored even before the config check below refuses it.
    use_exact = "exact" in modes and bool(identifiers)
    use_bm25 = "bm25" in modes and analyzed is not None and bool(analyzed.terms)
    bm25_elsewhere = aux_conn is not None and use_bm25 and (use_exact or use_vector)
    try:
        with ExitStack() as aux:
            bm25_pending = None
            if bm25_elsewhere and aux_conn is not None and analyzed is not None:
                # the longest branch goes first, on its own server process
                aux.enter_context(aux_conn.pipeline())
                aux.enter_context(tenant_transaction(aux_conn, ctx, read_only=True,
                                                     statement_timeout_ms=config.statement_timeout_ms))
                aux_conn.execute("select set_config('jit', 'off', true)")
                bm25_pending = bm25_send(aux_conn, Counter(analyzed.terms), request.filters, config.bm25,
                                         depth=config.bm25_depth)
            with conn.pipeline():
                with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=config.statement_timeout_ms):
                    # JIT compilation costs tens of milliseconds and never pays back on these short statements
                    conn.execute("select set_config('jit', 'off', true)")
                    pending = []
                    if use_exact:
                        pending.append(exact_send(conn, identifiers, request.filters, depth=config.exact_depth))
                    if bm25_pending is not None:
                        pending.append(bm25_pending)
                    elif use_bm25 and analyzed is not None:
                        pending.append(bm25_send(conn, Counter(analyzed.terms), request.filters, config.bm25,
                                                 depth=config.bm25_depth))
                    active = None
                    if use_vector and embedder is not None:
                        # the statements above are on their way: the server runs them while the query is embedded
                        embedding_started = time.perf_counter()
                        query_vector = embedder.embed_query(request.query_text)
                        embedding_ms = (time.perf_counter() - embedding_started) * 1000
                        active = active_config_send(conn)
                        pending.append(vector_send(conn, query_vector, embedder.config.embedding_config_id,
                                                   request.filters, config.vector, tenant_id=ctx.tenant_id,
                                                   depth=config.vector_depth))
                    if active is not None and embedder is not None:
                        config_id = compare_embedding_config(active(), embedder).embedding_config_id
                    branches = [collect() for collect in pending]
                    infos: dict[ChunkKey, ChunkInfo] = {}
                    for branch in branches:
                        infos.update(branch.infos)
                    missing = [hit.key for branch in branches for hit in branch.hits if hit.key not in infos]
                    if missing:
                        infos.update(_chunk_infos(conn, list(dict.fromkeys(missing))))
                    rerank = None
                    if reranker is not None and request.query_text:
                        def rerank(chunks: Sequence[ChunkInfo]) -> Sequence[float]:
                            return reranker.score(request.query_text, [c.text for c in chunks])
                    ordered = fuse(branches, infos, config, query_class,
                                   requested_identifiers=use_exact, reranker=rerank)
                    allowed_later = _authorize_send(conn, ctx, request.filters,
                                                    [(f.key, infos[f.key].content_hash) for f in ordered])
                    expected = cap_per_document(ordered, config.per_document_cap, request.limit)
                    wanted = _wanted_sections(expected, infos) if request.expand_parents else set()
                    sections_later = _sections_send(conn, wanted)
                allowed = allowed_later()
                texts = sections_later()
    except psycopg.errors.InsufficientPrivilege as exc:
        raise AuthorizationError(str(exc.diag.message_primary or exc)) from exc
    authorized = [f for f in ordered if f.key in allowed]
    results = cap_per_document(authorized, config.per_document_cap, request.limit)
    if request.expand_parents:
        # the final check dropped an expected result: read the sections of its replacements
        missing_sections = _wanted_sections(results, infos) - wanted
        if missing_sections:
            with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=config.statement_timeout_ms):
                texts.update(_sections_send(conn, missing_sections)())
    parents = _parents(results, infos, texts)
    served = [_result(i, f, infos[f.key], parents[f.key]) for i, f in enumerate(results, start=1)]
    if request.filters.valid_at is not None:
        # Design note: a version in force on valid_at that the index no longer holds (an amendment replaced it
        # later) is rebuilt from the registry and ranked by BM25 (retrieval.history); one more round trip, only
        # for dated searches.
        from retrieval.history import historical_chunks, merge_historical

        with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=config.statement_timeout_ms):
            past = historical_chunks(conn, ctx.tenant_id, request.query_text if use_bm25 else "",
                                     identifiers if use_exact else (), request.filters, config.bm25)
        if past:
            served = merge_historical(served, past, limit=request.limit, per_document_cap=config.per_document_cap)
    documents: tuple[DocumentStatus, ...] = ()
    if request.filters.document_ids:
        # the caller named documents: say which exist, are duplicates or were not found (one more round trip)
        documents = lookup_documents(conn, ctx, request.filters.document_ids, valid_at=request.filters.valid_at,
                                     statement_timeout_ms=config.statement_timeout_ms).documents

    return SearchResponse(
        query_class=query_class,
        fusion=config.fusion,
        results=tuple(served),
        branches=tuple(
            BranchReport(mode=b.mode, candidates=len(b.hits), path=b.path, elapsed_ms=round(b.elapsed_ms, 3),
                         truncated=b.truncated)
            for b in branches
        ),
        identifiers=tuple(label(p) for p in identifiers),
        embedding_config_id=config_id,
        analyzer=ANALYZER_ID if "bm25" in modes else None,
        authorization_dropped=len(ordered) - len(authorized),
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
        query_embedding_ms=round(embedding_ms, 3) if embedding_ms is not None else None,
        documents=documents,
    )


def _result(rank: int, fused: Fused, info: ChunkInfo, parent: ParentSection) -> SearchResult:
    title = info.metadata.get("title")
    return SearchResult(
        rank=rank,
        chunk_id=info.key.chunk_id,
        text=info.text,
        document_id=info.key.document_id,
        document_version=info.key.document_version,
        document_type=info.document_type,
        title=str(title) if title is not None else None,
        page=info.page,
        span=Span(char_start=info.char_start, char_end=info.char_end),
        parent_section=parent,
        content_hash=info.content_hash,
        identity_match=fused.identity,
        matched_identifiers=fused.matched,
        branches={mode: BranchHit(rank=hit.rank, score=round(hit.score, 6)) for mode, hit in fused.branches.items()},
        fused_score=round(fused.fused_score, 6),
        duplicates=fused.duplicates,
        suspected_prompt_injection=bool(info.metadata.get("suspected_prompt_injection", False)),
    )
