"""Retrieval latency on a large corpus: per branch and fused, BM25 vs reference libraries, HNSW vs exact.

    python -m bench.retrieval_latency [--scale 90] [--embedder minilm|hashing] [--database NAME] [--reuse]
                                      [--embedding-cache DIR] [--repeat 3] [--ef-search N ...]
                                      [--hnsw-m M --hnsw-ef-construction EF] [--json OUT] [--markdown OUT]

Builds (or, with ``--reuse``, reuses a finished build of the same scale and embedder) a database with the
Markdown documents of the demo corpus at ``--scale`` (18k chunks over three tenants at scale 20, then about
940 more per scale step: scale 90 is 83,984 chunks, scale 110 just over 100k), ingested by the real pipeline
with the BM25 writer,
then measures as ``procura_app`` under RLS, and writes the load average at the start and the end next to the
figures:

* p50/p95 of each branch alone and of the fused search (``retrieval.search`` end to end as the API runs it:
  two pooled connections, BM25 on the second), with the query vectors precomputed; the query embedding alone;
  the fused search including the query embedding; the fused search on one connection;
* BM25 in Postgres vs rank_bm25 and bm25s on the same tenant collection and analyzer, in the same run;
* the vector branch as the service runs it (``vector_service_vs_exact``: the access path chosen by the size of the
  filtered set and the tenant's own IVFFlat index, see :mod:`retrieval.vector`) vs exact search, strict recall@10
  and latency per filter set, with the paths taken;
* BM25's statements (single pass, block-max pruned, exhaustive; same top 10, counted) and whether the
  service's top 10 is bm25s's;
* the filtered vector branch: HNSW (iterative scan) vs exact search, latency and strict recall@10 of HNSW
  against exact on tenant-filtered queries with and without a document-type filter, over :func:`recall_queries`,
  for several ef_search values (``--hnsw-m``/``--hnsw-ef-construction`` rebuild the index first), with the
  number of searches that really scanned the HNSW index (the planner may sort exactly instead);
* ``headline``: fused p95 vs 50 ms (with the chunk count), the service path's strict recall@10 vs 0.98 per filter
  set, and BM25's p95 vs 15 ms, for bench.report.

The 100k-chunk figures (the fused p95 target is set at 100k chunks): build once, then measure::

    python -m bench.retrieval_latency --embedder minilm --scale 110 --database procura_bench_retrieval_minilm_100k \
        --embedding-cache <PROCURA_HOME>/bench/embedding-cache --build-only
    python -m bench.retrieval_latency --embedder minilm --scale 110 --database procura_bench_retrieval_minilm_100k \
        --embedding-cache <PROCURA_HOME>/bench/embedding-cache --reuse --json OUT

``make bench`` keeps scale 90: a cold 100k MiniLM build encodes about 100k chunks at 20-40 per second on 2
cores (about an hour, beyond the orchestrator's per-module limit), while with the cache only new chunks are
encoded.

MiniLM encodes about 40 chunks per second on an idle 2-core machine (a few per second under load), so
``--embedding-cache DIR`` keeps every document vector on disk (keyed by embedding config and input text) and an
interrupted or repeated build only encodes what is new. ``--embedder hashing`` builds with
:class:`HashingEmbedder` (feature-hashed word uni- and bigrams, 384 dimensions) instead: latencies barely depend
on the model, HNSW recall does (hashed vectors of templated text are a hard case), so only the MiniLM recall
counts against the 0.98 target; the database name carries the embedder.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from procura.progress import echo_progress

T = TypeVar("T")

QUERIES = (
    "Explain the calibration requirements for PRD-482",
    "differential pressure calibration",
    "How often does the pressure sensor have to be recalibrated?",
    "liquidated damages for late delivery",
    "Which suppliers are approved vendors?",
    "warranty period from acceptance",
    "maximum loop resistance including cable",
    "What does an output above 21 mA mean?",
    "PRD-611 monitoring controller wiring",
    "Incoterms 2020 DAP delivery",
    "How long must the terms be kept confidential?",
    "agreement-2026-04 payment terms",
    "storage temperature range",
    "firmware updates service interface",
    "Who pays for freight and packaging?",
    "sanctions screening before orders",
    "PRD-530 quick start",
    "reference standard with a valid calibration certificate",
    "termination notice end of a calendar quarter",
    "ISO 9001 quality management",
)


def recall_queries() -> list[str]:
    """The queries of the HNSW vs exact comparison: :data:`QUERIES` and the texts of the labeled retrieval set
    (``eval/retrieval_queries.yml``), without repeats: 59 queries, so one missed item moves recall@10 by about
    0.0017 instead of 0.005 with the 20 timing queries alone."""
    from evaluation.retrieval_quality import load_query_set

    return list(dict.fromkeys([*QUERIES, *(q.query for q in load_query_set().queries)]))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: Sequence[float]) -> dict[str, float]:
    """p50/p95/mean in milliseconds, rounded."""
    return {"p50_ms": round(percentile(values, 0.5), 2), "p95_ms": round(percentile(values, 0.95), 2),
            "mean_ms": round(statistics.fmean(values), 2), "n": len(values)}


class HashingEmbedder:
    """A deterministic, model-free :class:`~ingest.embedder.Embedder` for benchmarks (see the module docstring)."""

    def __init__(self, dimension: int = 384) -> None:
        from ingest.embedder import EmbeddingConfig

        self._config = EmbeddingConfig(
            embedding_config_id=f"hashing-bow-1-{dimension}-l2", model="procura/hashing-bow", revision="1",
            dimension=dimension, normalization="l2", similarity="cosine",
        )

    @property
    def config(self) -> Any:
        return self._config

    def _vector(self, text: str) -> Any:
        import hashlib

        import numpy as np

        from retrieval.analyzer import analyze

        terms = list(analyze(text).terms)
        features = terms + [f"{a} {b}" for a, b in itertools.pairwise(terms)]
        vector = np.zeros(self._config.dimension, dtype=np.float32)
        for feature, count in Counter(features).items():
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            index = int.from_bytes(digest[:4], "little") % self._config.dimension
            sign = 1.0 if digest[4] & 1 else -1.0
            vector[index] += sign * (1.0 + np.log(count))
        norm = float(np.linalg.norm(vector))
        if norm == 0:
            vector[0] = 1.0
            norm = 1.0
        return vector / norm

    def embed_documents(self, texts: Sequence[str]) -> Any:
        import numpy as np

        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, self._config.dimension),
                                                                                  dtype=np.float32)

    def embed_query(self, text: str) -> Any:
        return self._vector(text)


class CachedEmbedder:
    """An :class:`~ingest.embedder.Embedder` that keeps document vectors on disk across benchmark runs.

    Vectors are keyed by the SHA-256 of (embedding config id, input text), so a cache never serves a vector of
    another model or revision; the config is the wrapped embedder's, so the index and the query side still
    match exactly. Each call that encodes new texts appends one ``.npz`` shard; reads merge all shards.
    Query embeddings are never cached: the benchmark times them.
    """

    def __init__(self, inner: Any, directory: Path) -> None:
        import threading

        import numpy as np

        self._inner = inner
        self._dir = directory / inner.config.embedding_config_id
        self._dir.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._vectors: dict[str, Any] = {}
        for shard in sorted(self._dir.glob("*.npz")):
            if shard.name.endswith(".tmp.npz"):
                continue
            with np.load(shard) as data:
                self._vectors.update(zip(data["keys"].tolist(), data["vectors"], strict=True))
        self.hits = 0
        self.encoded = 0

    @property
    def config(self) -> Any:
        return self._inner.config

    def __len__(self) -> int:
        return len(self._vectors)

    def _key(self, text: str) -> str:
        import hashlib

        return hashlib.sha256(f"{self.config.embedding_config_id}\0{text}".encode()).hexdigest()

    def embed_documents(self, texts: Sequence[str]) -> Any:
        import numpy as np

        keys = [self._key(t) for t in texts]
        with self._lock:
            missing = list(dict.fromkeys(k for k in keys if k not in self._vectors))
            if missing:
                by_key = dict(zip(keys, texts, strict=True))
                fresh = self._inner.embed_documents([by_key[k] for k in missing])
                shard = self._dir / f"{time.time_ns()}-{os.getpid()}.npz"
                tmp = shard.with_suffix(".tmp.npz")
                np.savez(tmp, keys=np.array(missing), vectors=np.asarray(fresh, dtype=np.float32))
                tmp.rename(shard)
                self._vectors.update(zip(missing, fresh, strict=True))
            self.encoded += len(missing)
            self.hits += len(keys) - len(missing)
            if not keys:
                return np.zeros((0, self.config.dimension), dtype=np.float32)
            return np.stack([self._vectors[k] for k in keys]).astype(np.float32)

    def embed_query(self, text: str) -> Any:
        return self._inner.embed_query(text)

    def cached(self, text: str) -> Any | None:
        """The cached vector of document input ``text``, or None (nothing is encoded)."""
        return self._vectors.get(self._key(text))


def _progress(where: str, progress: object) -> None:
    echo_progress(f"{where}: {progress}", prefix="bench")


def _reference_top_k(reference: Any, terms: list[str], ids: Sequence[str]) -> list[tuple[str, float]]:
    from retrieval.bm25_reference import top_k

    return top_k(reference.get_scores(terms), ids, 10)


def timed(fn: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    result = fn()
    return result, (time.perf_counter() - started) * 1000


def build(settings: Any, corpus: Path | None, scale: int, reuse: bool, embedder: Any) -> None:
    """Create and fill the benchmark database, unless ``reuse`` and a finished build of the same scale and
    embedder is recorded in it. An interrupted build resumes: ingestion skips the documents already published,
    and a :class:`CachedEmbedder` skips the vectors already computed."""
    import psycopg

    from procura.db.migrate import migrate
    from procura.db.provision import ensure_database
    from procura.demo.generator import generate

    ensure_database(settings)
    config_id = embedder.config.embedding_config_id
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        migrate(admin, settings)
        admin.execute(
            "create table if not exists public.retrieval_bench_build (scale integer not null, embedder text not null, "
            "chunks bigint not null, finished_at timestamptz not null default now())"
        )
        done = admin.execute(
            "select chunks from public.retrieval_bench_build where scale = %s and embedder = %s "
            "order by finished_at desc limit 1",
            (scale, config_id),
        ).fetchone()
    if reuse and done:
        print(f"[bench] reusing {settings.database_name}: a finished build of scale {scale} with {done[0]} chunks",
              file=sys.stderr)
        return
    with ExitStack() as stack:
        if corpus is None:
            # generated for this build only (about 45 MB at scale 110): removed once it is ingested
            corpus = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="procura-bench-"))) / "corpus"
            echo_progress(f"generating the demo corpus at scale {scale} in {corpus}", prefix="bench")
            generate(corpus, scale=scale)
        _ingest_corpus(settings, corpus, embedder)
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        row = admin.execute("select count(*) from retrieval.active_chunks").fetchone()
        admin.execute("insert into public.retrieval_bench_build (scale, embedder, chunks) values (%s, %s, %s)",
                      (scale, config_id, row[0] if row else 0))


def _ingest_corpus(settings: Any, corpus: Path, embedder: Any) -> None:
    """Ingest every tenant's manuals and agreements of ``corpus`` (with the BM25 writer)."""
    import psycopg

    from ingest.pipeline import ingest_path
    from retrieval.bm25_writer import Bm25Writer

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        for tenant_dir in sorted((corpus / "tenants").iterdir()):
            for kind in ("manuals", "agreements"):
                report = ingest_path(
                    owner, tenant_dir / kind, embedder=embedder, writers=[Bm25Writer()],
                    progress=partial(_progress, f"{tenant_dir.name}/{kind}"),
                )
                print(f"[bench] {tenant_dir.name}/{kind}: {report.chunks} chunks, {report.dead_lettered} dead letters",
                      file=sys.stderr)
        owner.execute("vacuum analyze ingest.embeddings")
        owner.execute("vacuum analyze retrieval.bm25_postings")


# Design note: "force_path='hnsw'" only shapes the statement; the planner may still sort the filtered rows by
# exact distance instead of scanning the index (it does at high ef_search: pgvector's cost estimate grows with it),
# which measures exact search as "HNSW" (recall 1.0, exact latency). The transaction's own index scan counter
# tells whether the index was scanned, and recall counts against the target only when it was, every time.
# Scans of the named indexes in the current transaction (the tenant's own, or the shared one).
_INDEX_SCANS = (
    "select coalesce(sum(pg_catalog.pg_stat_get_xact_numscans(c.oid)), 0) from pg_class c "
    "join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'ingest' and c.relname = any(%s)"
)


def _hnsw_index(conn: Any, name: str = "embeddings_hnsw") -> dict[str, Any]:
    row = conn.execute(
        "select coalesce(array_to_string(c.reloptions, ','), ''), pg_relation_size(c.oid) from pg_class c "
        "join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'ingest' and c.relname = %s",
        (name,),
    ).fetchone()
    if row is None:
        return {"present": False, "name": name}
    options = dict(o.split("=", 1) for o in row[0].split(",") if "=" in o)
    if "lists" in options:
        return {"present": True, "name": name, "method": "ivfflat", "lists": int(options["lists"]),
                "size_mb": round(row[1] / 2**20, 1)}
    return {"present": True, "name": name, "method": "hnsw", "m": int(options.get("m", 16)),
            "ef_construction": int(options.get("ef_construction", 64)), "size_mb": round(row[1] / 2**20, 1)}


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=90)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--database", help="default procura_retrieval_bench_<embedder>")
    parser.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    parser.add_argument("--reuse", action="store_true", help="reuse a filled benchmark database")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per query")
    parser.add_argument("--tenant", default="tenant-42")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--markdown", type=Path, help="write a summary table here")
    parser.add_argument("--embedding-cache", type=Path,
                        help="keep document vectors here across runs (keyed by config id and input text)")
    parser.add_argument("--build-only", action="store_true", help="build the database and stop")
    parser.add_argument("--hnsw-m", type=int, help="rebuild the HNSW index with this m before measuring")
    parser.add_argument("--hnsw-ef-construction", type=int, help="... and this ef_construction")
    parser.add_argument("--shared-index-only", action="store_true",
                        help="drop the tenant's own HNSW index and measure the index shared by all tenants")
    parser.add_argument("--ef-search", type=int, action="append",
                        help="ef_search values of the HNSW vs exact comparison (repeatable; default 40, 100, 200)")
    args = parser.parse_args(argv)
    if (args.hnsw_m or args.hnsw_ef_construction) and not args.shared_index_only:
        parser.error("--hnsw-m and --hnsw-ef-construction rebuild the shared index: add --shared-index-only, or the "
                     "tenant's own index is what gets measured")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

    import psycopg
    from psycopg import sql

    from ingest.embedder import get_default_embedder
    from ingest.vector_index import ensure_tenant_index, tenant_index_name
    from procura.db.session import AuthContext, tenant_transaction
    from procura.settings import get_settings
    from retrieval.analyzer import analyze
    from retrieval.bm25 import bm25_search, collection_stats
    from retrieval.config import RetrievalConfig
    from retrieval.models import Filters, Mode, SearchRequest
    from retrieval.service import SEARCH_SCOPE, search
    from retrieval.vector import check_embedding_config, ensure_vector_type, rebuild_hnsw_index, vector_search

    reproduce = "python -m bench.retrieval_latency " + " ".join(argv if argv is not None else sys.argv[1:])
    load_start = _load()
    database = args.database or f"procura_retrieval_bench_{args.embedder}"
    settings = get_settings().with_database(database)
    model_load_started = time.perf_counter()
    embedder: Any = get_default_embedder() if args.embedder == "minilm" else HashingEmbedder()
    model_load_ms = (time.perf_counter() - model_load_started) * 1000
    builder: Any = CachedEmbedder(embedder, args.embedding_cache) if args.embedding_cache else embedder
    build(settings, args.corpus, args.scale, args.reuse, builder)
    if args.build_only:
        return 0
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        index = _hnsw_index(owner)
        wanted_m = args.hnsw_m or index.get("m", 16)
        wanted_efc = args.hnsw_ef_construction or index.get("ef_construction", 64)
        # a database without the shared index (bench.retrieval_replicate drops it) keeps it absent unless asked
        if (index.get("present") or args.hnsw_m or args.hnsw_ef_construction) and \
                (wanted_m, wanted_efc) != (index.get("m"), index.get("ef_construction")):
            print(f"[bench] rebuilding the HNSW index with m = {wanted_m}, ef_construction = {wanted_efc}",
                  file=sys.stderr)
            _, rebuild_ms = timed(partial(rebuild_hnsw_index, owner, m=wanted_m, ef_construction=wanted_efc))
            owner.execute("analyze ingest.embeddings")
            index = {**_hnsw_index(owner), "rebuild_ms": round(rebuild_ms)}
        # what ingestion does for a tenant past ingest.vector_index.MIN_VECTORS (a reused database may predate it)
        tenant_index = None
        if not args.shared_index_only:
            built, build_ms = timed(partial(ensure_tenant_index, owner, args.tenant))
            tenant_index = _hnsw_index(owner, tenant_index_name(args.tenant))
            if built is not None and built.created:
                tenant_index["build_ms"] = round(build_ms)
        else:
            for method in ("ivfflat", "hnsw"):
                owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(
                    tenant_index_name(args.tenant, method))))
        # the HNSW index the forced HNSW path must scan: the tenant's own HNSW index when it has one (a plan that fell
        # back to the shared index would not count); the service path uses the tenant's IVFFlat index (above)
        tenant_hnsw = _hnsw_index(owner, tenant_index_name(args.tenant, "hnsw"))
    index_names = [tenant_hnsw["name"]] if tenant_hnsw["present"] else [index["name"]]
    ctx = AuthContext(args.tenant, "bench", frozenset({SEARCH_SCOPE}))
    results: dict[str, Any] = {"reproduce": reproduce, "load_average_start": load_start, "database": database,
                               "embedder": embedder.config.embedding_config_id, "tenant": args.tenant,
                               "queries": len(QUERIES), "repeat": args.repeat, "hnsw_index": index,
                               "tenant_hnsw_index": tenant_index}
    # the query embedding is timed on its own: every query once cold, then repeat times (the model is loaded once
    # per process, see ingest.embedder.get_default_embedder)
    vectors = {}
    embed_ms = []
    for query in QUERIES:
        vectors[query], _ = timed(partial(embedder.embed_query, query))
    for _ in range(args.repeat):
        for query in QUERIES:
            _, ms = timed(partial(embedder.embed_query, query))
            embed_ms.append(ms)
    results["model_load_ms"] = round(model_load_ms, 1)
    results["query_embedding"] = summary(embed_ms)

    with psycopg.connect(settings.app_url, autocommit=True) as conn, \
            psycopg.connect(settings.app_url, autocommit=True) as aux:
        ensure_vector_type(conn)  # what open_pool's configure does once per pooled connection
        with tenant_transaction(conn, ctx):
            chunks = conn.execute(
                "select chunk_id, chunk_text from retrieval.active_chunks order by chunk_id"
            ).fetchall()
            totals = conn.execute(
                "select count(*) from ingest.embeddings"
            ).fetchone()
        results["tenant_chunks"] = len(chunks)
        with psycopg.connect(settings.admin_url) as admin:
            for name, table in (("all_chunks", "retrieval.active_chunks"), ("all_postings", "retrieval.bm25_postings")):
                row = admin.execute(f"select count(*) from {table}").fetchone()
                results[name] = row[0] if row else 0
        results["tenant_embeddings_visible"] = totals[0] if totals else 0

        class _Fixed:
            """The embedder with the queries' vectors precomputed, so timings exclude model inference."""

            config = embedder.config

            def embed_query(self, text: str) -> Any:
                return vectors[text]

            def embed_documents(self, texts: Sequence[str]) -> Any:
                return embedder.embed_documents(texts)

        fixed = _Fixed()
        modes: dict[str, tuple[Mode, ...]] = {"exact": ("exact",), "bm25": ("bm25",), "vector": ("vector",),
                                              "fused": ("exact", "bm25", "vector")}
        branch_ms: dict[str, list[float]] = {name: [] for name in modes}
        paths: Counter[str] = Counter()
        # as the API does: two pooled connections per search, BM25 on the second (api.routes.search)
        searcher = partial(search, conn, ctx, aux_conn=aux)
        for query in QUERIES:  # warm-up (also lets psycopg prepare the statements, as a pooled connection would)
            for m in modes.values():
                searcher(SearchRequest(query_text=query, retrieval_modes=m), fixed)
            search(conn, ctx, SearchRequest(query_text=query), fixed)
        single_ms = []
        for _ in range(args.repeat):
            for query in QUERIES:
                for name, m in modes.items():
                    request = SearchRequest(query_text=query, retrieval_modes=m, limit=10)
                    response, ms = timed(partial(searcher, request, fixed))
                    branch_ms[name].append(ms)
                    if name == "fused":
                        paths.update(b.path for b in response.branches if b.mode == "vector")
                request = SearchRequest(query_text=query, limit=10)
                single_ms.append(timed(partial(search, conn, ctx, request, fixed))[1])
        results["search_latency_excluding_embedding"] = {name: summary(v) for name, v in branch_ms.items()}
        results["fused_one_connection_excluding_embedding"] = summary(single_ms)
        results["vector_paths_taken"] = dict(paths)
        end_to_end = []
        for _ in range(args.repeat):
            for query in QUERIES:
                _, ms = timed(partial(searcher, SearchRequest(query_text=query, limit=10), embedder))
                end_to_end.append(ms)
        results["fused_including_query_embedding"] = summary(end_to_end)

        # -- BM25: Postgres vs reference libraries on the same collection and analyzer --------------------------
        config = RetrievalConfig()
        strategy_ms: dict[str, list[float]] = {"single_pass": [], "pruned": [], "exhaustive": []}
        postgres_top: dict[str, list[str]] = {}
        same_as_exhaustive: Counter[str] = Counter()
        with tenant_transaction(conn, ctx):
            stats = collection_stats(conn)
            for _ in range(args.repeat):
                for query in QUERIES:
                    # the three statements in turn, on the same connection and collection
                    terms = Counter(analyze(query).terms)
                    found = {}
                    for strategy, ms_list in strategy_ms.items():
                        hits, ms = timed(partial(bm25_search, conn, terms, Filters(), config.bm25, depth=10,
                                                 strategy=strategy))
                        found[strategy] = [(h.key, h.score) for h in hits.hits]
                        ms_list.append(ms)
                    postgres_top[query] = [key.chunk_id for key, _ in found[config.bm25.strategy]]
                    same_as_exhaustive.update(s for s in found if found[s] == found["exhaustive"])
        results["bm25_postgres"] = {**summary(strategy_ms[config.bm25.strategy]), "N": stats.chunk_count,
                                    "avgdl": round(stats.avg_chunk_length, 2), "strategy": config.bm25.strategy,
                                    "note": "one statement in its own round trip, statistics read by it"}
        results["bm25_postgres_strategies"] = {
            s: {**summary(v), "top10_identical_to_exhaustive": same_as_exhaustive[s]} for s, v in strategy_ms.items()}
        tokenized = [list(analyze(text).terms) for _, text in chunks]
        ids = [c for c, _ in chunks]
        from retrieval.bm25_reference import LuceneIdfBM25

        reference, build_ms = timed(partial(LuceneIdfBM25, tokenized, k1=config.bm25.k1, b=config.bm25.b))
        ref_ms = []
        for query in QUERIES:
            _, ms = timed(partial(_reference_top_k, reference, list(analyze(query).terms), ids))
            ref_ms.append(ms)
        results["bm25_rank_bm25"] = {**summary(ref_ms), "index_build_ms": round(build_ms, 1)}
        try:
            import bm25s  # type: ignore[import-not-found]

            vocabulary: dict[str, int] = {}
            for doc in tokenized:
                for term in doc:
                    vocabulary.setdefault(term, len(vocabulary))
            retriever = bm25s.BM25(method="lucene", k1=config.bm25.k1, b=config.bm25.b)
            _, build_ms = timed(partial(retriever.index, bm25s.tokenization.Tokenized(
                ids=[[vocabulary[t] for t in doc] for doc in tokenized], vocab=vocabulary), show_progress=False))
            s_ms = []
            agree = []
            identical = 0
            for query in QUERIES:
                wanted = [t for t in analyze(query).terms if t in vocabulary]
                if not wanted:  # no query term occurs in this tenant: nothing scores (bm25s rejects it)
                    top = []
                else:
                    scores, ms = timed(partial(retriever.get_scores, wanted))
                    s_ms.append(ms)
                    top = _top_ids(scores, ids, 10)
                expected = postgres_top.get(query, [])
                agree.append(len(set(top) & set(expected)) / max(1, len(expected)))
                identical += top == expected
            results["bm25_bm25s"] = {**summary(s_ms), "index_build_ms": round(build_ms, 1),
                                     "top10_overlap_with_postgres_mean": round(statistics.fmean(agree), 4),
                                     "top10_identical_to_postgres": identical, "queries": len(QUERIES),
                                     "note": "scores over the whole tenant collection, no top-k selection"}
        except ImportError:
            results["bm25_bm25s"] = "not installed (pip install bm25s)"

        # -- vector: filtered HNSW vs exact --------------------------------------------------------------------
        filter_sets = {"tenant": Filters(), "tenant+manuals": Filters(document_types=("product_manual",)),
                       "tenant+agreements": Filters(document_types=("agreement",))}
        vector_results: dict[str, Any] = {}
        ef_values = args.ef_search or [100, 200]
        if config.vector.ef_search not in ef_values:
            ef_values = sorted({*ef_values, config.vector.ef_search})
        recall_texts = recall_queries()
        for query in recall_texts:
            if query not in vectors:
                vectors[query] = embedder.embed_query(query)
        results["recall_queries"] = len(recall_texts)
        for ef in ef_values:
            vcfg = replace(config.vector, ef_search=ef)
            for label, filters in filter_sets.items():
                hnsw_ms, exact_ms, recalls, tie_recalls, counts = [], [], [], [], []
                index_used = 0
                for query in recall_texts:
                    with tenant_transaction(conn, ctx):
                        conn.execute("select set_config('jit', 'off', true)")
                        cfg = check_embedding_config(conn, embedder).embedding_config_id
                        scans_before = conn.execute(_INDEX_SCANS, (index_names,)).fetchone()
                        hnsw, h_ms = timed(partial(vector_search, conn, vectors[query], cfg, filters, vcfg,
                                                   tenant_id=args.tenant, depth=10, force_path="hnsw"))
                        scans_after = conn.execute(_INDEX_SCANS, (index_names,)).fetchone()
                        index_used += bool(scans_before and scans_after and scans_after[0] > scans_before[0])
                        exact, e_ms = timed(partial(vector_search, conn, vectors[query], cfg, filters, vcfg,
                                                    tenant_id=args.tenant, depth=10, force_path="exact"))
                    truth = {h.key for h in exact.hits}
                    recalls.append(len(truth & {h.key for h in hnsw.hits}) / max(1, len(truth)))
                    # templated documents repeat clauses, so many chunks tie at the 10th distance: a neighbour
                    # as close as the 10th exact one is a correct answer even when its id differs
                    kth = exact.hits[-1].score if exact.hits else 0.0
                    tie_recalls.append(sum(1 for h in hnsw.hits if h.score >= kth - 1e-6) / max(1, len(exact.hits)))
                    counts.append(len(hnsw.hits))
                    hnsw_ms.append(h_ms)
                    exact_ms.append(e_ms)
                vector_results[f"ef{ef}/{label}"] = {
                    "hnsw": summary(hnsw_ms), "exact": summary(exact_ms),
                    "recall_at_10_mean": round(statistics.fmean(recalls), 4),
                    "recall_at_10_min": round(min(recalls), 4),
                    "distance_recall_at_10_mean": round(statistics.fmean(tie_recalls), 4),
                    "distance_recall_at_10_min": round(min(tie_recalls), 4),
                    "hnsw_returned_min": min(counts),
                    "queries": len(recall_texts),
                    "hnsw_index_scanned": index_used,
                }
        results["vector_hnsw_vs_exact"] = vector_results
        results["vector_service_vs_exact"] = _service_vs_exact(conn, ctx, embedder, vectors, recall_texts, filter_sets,
                                                               config.vector, args.tenant)

    results["load_average_end"] = _load()
    fused_p95 = results["search_latency_excluding_embedding"]["fused"]["p95_ms"]
    service_ef = config.vector.ef_search
    service = [v for k, v in vector_results.items() if k.startswith(f"ef{service_ef}/")]
    service_recall = min(v["recall_at_10_mean"] for v in service)
    index_always = all(v["hnsw_index_scanned"] == v["queries"] for v in service)
    results["targets"] = {"fused_p95_ms": 50, "fused_p95_met": fused_p95 <= 50, "recall_at_10": 0.98,
                          "ef_search": service_ef, "recall_met": service_recall >= 0.98 and index_always,
                          "hnsw_index_scanned_every_time": index_always,
                          "all_chunks_at_least_50k": results["all_chunks"] >= 50_000}
    results["headline"] = headline(results)
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    if args.markdown:
        from evaluation.retrieval_report import bench_markdown

        args.markdown.write_text(bench_markdown(results))
    return 0


def agreement(truth: set[Any], found: set[Any]) -> float:
    """Strict recall of ``found`` against exact search's ``truth``; 1.0 when both are empty (no vector passes the
    filter, and the path found none either).

    >>> agreement({1, 2}, {2, 3}), agreement(set(), set()), agreement({1}, set())
    (0.5, 1.0, 0.0)
    """
    if not truth:
        return 1.0 if not found else 0.0
    return len(truth & found) / len(truth)


def pipelined(conn: Any, fn: Callable[[], T]) -> T:
    """``fn()`` with the connection in pipeline mode, as the service sends the vector branch: the scan settings
    and the statement travel together (one round trip), whichever path a search takes."""
    with conn.pipeline():
        return fn()


def _service_vs_exact(conn: Any, ctx: Any, embedder: Any, vectors: dict[str, Any], texts: Sequence[str],
                      filter_sets: dict[str, Any], vcfg: Any, tenant: str) -> dict[str, Any]:
    """Per filter set: the vector branch as the service runs it (the access path chosen by the filtered set's size
    and the tenant's own index, its statements pipelined) against exact search (pipelined too): strict recall@10,
    latency, and the paths taken."""
    from procura.db.session import tenant_transaction
    from retrieval.vector import check_embedding_config, vector_search

    found: dict[str, Any] = {}
    for label, filters in filter_sets.items():
        service_ms, exact_ms, recalls = [], [], []
        paths: Counter[str] = Counter()
        for query in texts:
            with tenant_transaction(conn, ctx):
                conn.execute("select set_config('jit', 'off', true)")
                cfg = check_embedding_config(conn, embedder).embedding_config_id
                service, ms = timed(partial(pipelined, conn, partial(vector_search, conn, vectors[query], cfg,
                                                                     filters, vcfg, tenant_id=tenant, depth=10)))
                exact, e_ms = timed(partial(pipelined, conn, partial(vector_search, conn, vectors[query], cfg,
                                                                     filters, vcfg, tenant_id=tenant, depth=10,
                                                                     force_path="exact")))
            truth = {h.key for h in exact.hits}
            recalls.append(agreement(truth, {h.key for h in service.hits}))
            paths[service.path] += 1
            service_ms.append(ms)
            exact_ms.append(e_ms)
        service_summary, exact_summary = summary(service_ms), summary(exact_ms)
        found[label] = {"service": service_summary, "exact": exact_summary, "paths": dict(paths),
                        "recall_at_10_mean": round(statistics.fmean(recalls), 4),
                        "recall_at_10_min": round(min(recalls), 4), "queries": len(texts),
                        "exact_p50_over_service_p50": round(exact_summary["p50_ms"] / service_summary["p50_ms"], 2)}
    return found


def headline(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures :func:`bench.report.headline_table` shows: fused p95 against 50 ms (with the corpus size: the
    target is set at 100k chunks) and strict recall@10 of filtered HNSW against exact search against 0.98, at
    the service's ef_search, for the tenant-only and the tenant + document-type filters (the lowest of the two
    type filters)."""
    chunks = results["all_chunks"]
    fused = results["search_latency_excluding_embedding"]["fused"]
    exact_ms = results["search_latency_excluding_embedding"]["exact"]
    load = f"load average {results['load_average_start']} -> {results['load_average_end']} (2 cores)"
    index = results.get("tenant_hnsw_index") or {}
    if not index.get("present"):
        index = results["hnsw_index"]
    ef = results["targets"]["ef_search"]
    vector = results["vector_hnsw_vs_exact"]
    rows = [{
        "figure": f"fused search p95, query embedding excluded ({chunks} chunks, {results['tenant_chunks']} in "
                  f"{results['tenant']})",
        "value": fused["p95_ms"], "unit": "ms", "target": "<= 50 ms at 100k chunks",
        "met": fused["p95_ms"] <= 50 and chunks >= 100_000,
        "detail": f"p50 {fused['p50_ms']} ms, n = {fused['n']}; {load}"
                  + ("" if chunks >= 100_000 else "; fewer than 100k chunks, so not the target's corpus")
                  + f" (exact-identifier branch p95 {exact_ms['p95_ms']} ms)",
    }]
    service = results.get("vector_service_vs_exact")
    if service:
        rows += _service_rows(service, chunks, index)
        return rows + _bm25_rows(results, chunks)
    for label, keys in (("tenant filter", ("tenant",)),
                        ("tenant + document-type filter", ("tenant+manuals", "tenant+agreements"))):
        found = [(k, vector[f"ef{ef}/{k}"]) for k in keys if f"ef{ef}/{k}" in vector]
        if not found:
            continue
        key, worst = min(found, key=lambda kv: kv[1]["recall_at_10_mean"])
        rows.append({
            "figure": f"HNSW recall@10 vs exact, {label} ({chunks} chunks)",
            "value": worst["recall_at_10_mean"], "unit": "", "target": ">= 0.98",
            "met": worst["recall_at_10_mean"] >= 0.98 and worst["hnsw_index_scanned"] == worst["queries"],
            "detail": f"strict (same chunk ids), mean over {worst['queries']} queries"
                      + f", HNSW index scanned in {worst['hnsw_index_scanned']} of {worst['queries']}"
                      + (f", worst filter {key}" if len(found) > 1 else "")
                      + f", min {worst['recall_at_10_min']}; index {index.get('name')}, m = {index.get('m')}, "
                        f"ef_construction = "
                        f"{index.get('ef_construction')}, ef_search = {ef}; HNSW p95 {worst['hnsw']['p95_ms']} ms "
                        f"vs exact p95 {worst['exact']['p95_ms']} ms",
        })
    return rows


def _service_rows(service: dict[str, Any], chunks: int, index: dict[str, Any]) -> list[dict[str, Any]]:
    """Recall@10 of the vector branch as users get it (the chosen access path) against exact search, per filter
    set, with the target's speed condition: at least 5x the exact scan, unless the filtered set was small enough
    to be searched exactly."""
    rows = []
    for label, figures in service.items():
        exact_only = set(figures["paths"]) == {"exact"}
        speed = figures["exact_p50_over_service_p50"]
        rows.append({
            "figure": f"vector recall@10 vs exact, {label} filter ({chunks} chunks)",
            "value": figures["recall_at_10_mean"], "unit": "", "target": ">= 0.98 at >= 5x exact's speed",
            "met": figures["recall_at_10_mean"] >= 0.98 and (exact_only or speed >= 5) and chunks >= 100_000,
            "detail": f"strict, mean over {figures['queries']} queries, min {figures['recall_at_10_min']}; paths "
                      f"{figures['paths']}; p50 / p95 {figures['service']['p50_ms']} / "
                      f"{figures['service']['p95_ms']} ms vs exact {figures['exact']['p50_ms']} / "
                      f"{figures['exact']['p95_ms']} ms ({speed}x); tenant "
                      f"index {index.get('name')} ({index.get('method', 'hnsw')}, lists {index.get('lists')})",
        })
    return rows


def _bm25_rows(results: dict[str, Any], chunks: int) -> list[dict[str, Any]]:
    """BM25 in Postgres against 15 ms p95 at 100k chunks, with its top 10 identical to bm25s's."""
    bm25 = results.get("bm25_postgres")
    reference = results.get("bm25_bm25s")
    if not isinstance(bm25, dict):
        return []
    identical = reference.get("top10_identical_to_postgres") if isinstance(reference, dict) else None
    queries = reference.get("queries") if isinstance(reference, dict) else None
    strategies = results.get("bm25_postgres_strategies", {})
    others = "; ".join(f"{name} p50 / p95 {v['p50_ms']} / {v['p95_ms']} ms" for name, v in strategies.items()
                       if name != bm25.get("strategy"))
    return [{
        "figure": f"BM25 in Postgres p95 ({chunks} chunks, {bm25['N']} in the tenant)",
        "value": bm25["p95_ms"], "unit": "ms", "target": "<= 15 ms at 100k chunks, top 10 identical to bm25s",
        "met": bm25["p95_ms"] <= 15 and chunks >= 100_000 and identical is not None and identical == queries,
        "detail": f"{bm25.get('strategy')} statement, p50 {bm25['p50_ms']} ms; {others}; top 10 identical to bm25s in "
                  f"{identical} of {queries} queries",
    }]


def _top_ids(scores: Any, ids: Sequence[str], k: int) -> list[str]:
    order = sorted(range(len(ids)), key=lambda i: (-float(scores[i]), ids[i]))
    return [ids[i] for i in order[:k] if float(scores[i]) > 0]


if __name__ == "__main__":
    sys.exit(main())
