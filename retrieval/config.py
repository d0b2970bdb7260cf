"""Tuning of the retrieval service: BM25 parameters, candidate depths, HNSW settings, fusion policy.

None of these is a property of the data, so every one is a field here. The candidate depths and the fusion
method were compared on the labeled query set (``eval/retrieval_queries.yml``; the sweep is in
``docs/retrieval-report.md``); the class weights and the per-document cap are starting points, not tuned values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from retrieval.models import Mode, QueryClass

FusionMethod = Literal["rrf", "weighted_rrf", "minmax", "zscore"]


def _weights(**values: float) -> Mapping[Mode, float]:
    return MappingProxyType(dict(values))  # type: ignore[arg-type]  # keys are the Mode literals


#: Branch weights per query class for weighted RRF and score fusion. Identifier queries trust identity first;
#: short technical phrases lean on BM25; natural-language questions lean on vectors.
DEFAULT_CLASS_WEIGHTS: Mapping[QueryClass, Mapping[Mode, float]] = MappingProxyType({
    "identifier": _weights(exact=1.0, bm25=0.5, vector=0.25),
    "mixed": _weights(exact=0.5, bm25=1.0, vector=1.0),
    "keyword": _weights(exact=1.0, bm25=1.0, vector=0.7),
    "semantic": _weights(exact=1.0, bm25=0.7, vector=1.0),
})


@dataclass(frozen=True)
class Bm25Config:
    """Okapi BM25 parameters (Lucene IDF, see :mod:`retrieval.bm25`).

    Attributes:
        strategy: the statement that scores (all return the same rows): ``single_pass`` reads the query terms'
            postings once, with the document frequencies from the block summaries (migration 0050);
            ``pruned`` skips the blocks and chunks that cannot reach the top k (block-max bounds, MaxScore over
            terms); ``exhaustive`` reads every posting twice (df, then scores). On the 100k-chunk benchmark
            (tenant of 39,715 chunks, a 418-term vocabulary whose common terms sit in most blocks) the
            single-pass statement was the fastest and pruning the slowest (docs/benchmarks.md): the bounds
            rarely exclude enough to pay for computing them.
    """

    k1: float = 1.2
    b: float = 0.75
    strategy: Literal["single_pass", "pruned", "exhaustive"] = "single_pass"

    def __post_init__(self) -> None:
        if not 0 <= self.k1 <= 10:
            raise ValueError("k1 must be between 0 and 10")
        if not 0 <= self.b <= 1:
            raise ValueError("b must be between 0 and 1")


@dataclass(frozen=True)
class VectorConfig:
    """pgvector HNSW settings of the query side (m and ef_construction are index build settings, see
    :func:`retrieval.vector.rebuild_hnsw_index`).

    Attributes:
        ef_search: candidate list size of the HNSW search (``hnsw.ef_search``). Strict recall@10 of the
            tenant-filtered HNSW path against exact search, MiniLM vectors, m = 16, ef_construction = 64: on the
            demo corpus (18k chunks, shared index) 0.945 at 100, 0.985 at 200, 1.0 at 400. At 102,763 chunks
            (39,715 in the tenant, 59 queries), on the shared index at 400: 0.74 (tenant) / 0.93 (tenant +
            manuals), because the scan spent its candidates on other tenants' rows; on the tenant's own index
            (:mod:`ingest.vector_index`) at 100 / 200 / 400 / 1000: 0.85 / 0.88 / 0.90 / 0.94 (tenant) and
            0.93 / 0.98 / 0.99 / 1.0 (tenant + manuals), at an HNSW p95 of about 10 ms at 400; other builds of
            the same index gave up to 0.964 / 0.976 at 400 / 1000 (tenant), a spread of about 0.06. The remaining
            misses are short queries far from every chunk (nearest cosine distance about 0.43, against 0.05
            between chunks) whose exact neighbours are agreement clauses, 14% of the tenant: the greedy search
            settles among manual chunks at distance 0.7-0.8. No m, ef_construction or ef_search tried reached
            0.98 on the tenant-only filter at 400 (a partial IVFFlat over halfvec did, at 0.985-0.99; four builds
            of a tenant index with m = 32, ef_construction = 200 gave 0.961-0.975 at 400 and 0.966-0.990 at 1000;
            FAISS's HNSW on the same vectors needs 10,000-13,000 distance computations per query for 0.98; see
            docs/vector-recall.md and bench/hnsw_crosscheck.py). Do not raise this towards 1000 without checking
            the plan: pgvector's cost estimate grows with ef_search, and the planner may then sort the tenant's
            rows exactly (recall 1.0 at exact search's latency, not HNSW's).
        iterative_scan: ``hnsw.iterative_scan``; ``relaxed_order`` keeps scanning until enough rows pass the
            tenant and filter predicates, and the outer query re-sorts by exact distance.
        max_scan_tuples: ``hnsw.max_scan_tuples``, the bound of an iterative scan.
        overfetch: the HNSW scan returns this many times the wanted rows, which are then sorted by exact distance
            and cut (a ``relaxed_order`` scan's first rows are not exactly the nearest).
        type_overfetch: the typed path's ``overfetch``. Its IVFFlat scans return the probed lists' rows in exact
            halfvec order, so each type's part needs a margin only for the halfvec rounding before the
            full-precision re-ranking, not the relaxed order's. On the 100k-chunk MiniLM benchmark (59 queries,
            alternated on one connection, two builds) 1, 2 and 4 gave the same recall@10; 2 was 4% and 11% faster
            than 4 with the tenant filter, and within the noise with a document-type filter (docs/benchmarks.md,
            ninth pass).
        exact_threshold: when at most this many chunks pass the filters, search them exactly instead. An IVFFlat
            scan reads ``ivf_probe_fraction`` of the tenant's vectors whatever the filter, and more when the
            filter removes rows of the probed lists, so a small filtered set is cheaper to search exactly: on the
            100k-chunk benchmark the tenant's 5,444 agreement chunks took 7.7 ms p50 exactly and 23 ms through
            the IVFFlat index (load about 6 on 2 cores), against 104 ms exactly for all 39,715 of its chunks.
        ivf_probe_fraction: the fraction of a tenant IVFFlat index's lists a search probes (``ivfflat.probes``,
            see :mod:`ingest.vector_index`). MiniLM, 39,715 vectors, 200 lists: 0.4 gave recall@10 0.985-0.992.
            Hashed vectors (the hard case), 39,715 vectors, 1,986 lists (one per 20 vectors): 0.3 gave 0.954-0.971
            (tenant) and 0.971-0.981 (tenant + manuals), 0.4 gave 0.963-0.975 and 0.981-0.983, over three builds
            (docs/vector-recall.md); the misses are queries far from every chunk. MiniLM (the default embedder),
            29,269 vectors of one tenant in the 102,763-chunk database, 1,463 lists, one run: 0.1 gave 0.959 /
            0.973 (tenant / + manuals), 0.2 gave 0.988 / 0.997 at 55.6 / 31.6 ms p50, 0.4 gave 0.997 / 1.000 at
            75.5 / 99.5 ms (load 15 on 2 cores), so the default is 0.2; measure hashed vectors at 0.4.
        type_probe_fraction: the fraction of the lists of the largest per-type IVFFlat index the typed path
            probes (``ivfflat.probes``; a smaller type's index is probed over a larger fraction, up to all of it).
            MiniLM, 27,837 manual chunks of one tenant beside 3,480 agreements searched exactly, 1,392 lists, 59
            queries, one run at load 3 to 6: 0.05 gave recall@10 0.980 / 0.961 (tenant / + manuals), 0.1 gave
            0.985 / 0.981, 0.12 gave 0.988 / 0.985 at 5.5x / 9.6x exact search's speed, 0.15 gave 0.990 / 0.988.
        ivf_max_probe_fraction: how far a ``relaxed_order`` iterative IVFFlat scan may go (``ivfflat.max_probes``)
            when the request filters remove rows of the probed lists.
        path_cache_seconds: how long a process keeps the access path chosen for a tenant and filter set
            (:class:`retrieval.vector.PathChoices`) and sends that path's statement alone; 0 chooses on every
            search. The choosing statement costs about 5 ms at 100k chunks; a stale choice costs speed only.
        generic_plan: the typed path's statement, once the path is known (``path_cache_seconds``), is prepared
            and run by its generic plan (:func:`retrieval.vector.typed_statement`), which saves its planning:
            1.2 to 1.6 ms of 8 to 10 ms on the 100k-chunk benchmark (docs/benchmarks.md). False plans it on
            every search, as the other paths are.
        split_max_vectors: the index paths search the tenant's smallest document types exactly, as many as fit
            within this many vectors together, and the index only over the other types (0: never). An index
            search whose exact neighbours sit in a small type (agreement clauses among manual chunks) misses
            them: the HNSW beam and the probed IVFFlat cells settle among the large type. MiniLM, 29,269 vectors
            of one tenant (1,432 agreements) at 102,763 chunks: the tenant's HNSW index (m 16, ef_construction
            128, ef_search 400) gave recall@10 0.764 with the tenant filter alone and 0.998 with the split
            (docs/vector-recall.md). The default equals ``exact_threshold``: a type this small is searched
            exactly when it is filtered on alone.
    """

    ef_search: int = 400
    iterative_scan: Literal["relaxed_order", "strict_order", "off"] = "relaxed_order"
    max_scan_tuples: int = 20_000
    overfetch: int = 4
    type_overfetch: int = 2
    exact_threshold: int = 6_000
    ivf_probe_fraction: float = 0.2
    ivf_max_probe_fraction: float = 1.0
    type_probe_fraction: float = 0.12
    path_cache_seconds: float = 60.0
    split_max_vectors: int = 6_000
    generic_plan: bool = True

    def __post_init__(self) -> None:
        if not 1 <= self.ef_search <= 1000:
            raise ValueError("ef_search must be between 1 and 1000 (pgvector's range)")
        if self.split_max_vectors < 0:
            raise ValueError("split_max_vectors must be at least 0")
        if not 1 <= self.max_scan_tuples <= 10_000_000:
            raise ValueError("max_scan_tuples must be between 1 and 10000000")
        if not 1 <= self.overfetch <= 100:
            raise ValueError("overfetch must be between 1 and 100")
        if not 1 <= self.type_overfetch <= 100:
            raise ValueError("type_overfetch must be between 1 and 100")
        if self.exact_threshold < 0:
            raise ValueError("exact_threshold must not be negative")
        if not 0 < self.ivf_probe_fraction <= self.ivf_max_probe_fraction <= 1:
            raise ValueError("ivf_probe_fraction and ivf_max_probe_fraction must satisfy 0 < probe <= max <= 1")
        if not 0 < self.type_probe_fraction <= 1:
            raise ValueError("type_probe_fraction must be in (0, 1]")
        if self.path_cache_seconds < 0:
            raise ValueError("path_cache_seconds must not be negative")


@dataclass(frozen=True)
class RetrievalConfig:
    """Everything that shapes a search besides the request.

    Attributes:
        exact_depth: at most this many exact matches enter the union (the response says when more existed).
        bm25_depth, vector_depth: candidates taken from each ranked branch.
        fusion: ``weighted_rrf`` (default), ``rrf`` (all weights 1), ``minmax`` or ``zscore`` score fusion.
        rrf_k: the RRF constant (60 as in Cormack et al. 2009).
        class_weights: branch weights per query class.
        identity_first: rank candidates with an identity match (the chunk or its document carries a requested
            identifier) above all others, for the classes listed; fusion orders within each tier.
        per_document_cap: at most this many results per document (parent-document aggregation).
        span_overlap: two chunks of one document version whose spans share at least this fraction of the
            shorter span are duplicates.
        statement_timeout_ms: statement timeout of the search transaction.
    """

    bm25: Bm25Config = field(default_factory=Bm25Config)
    vector: VectorConfig = field(default_factory=VectorConfig)
    exact_depth: int = 200
    bm25_depth: int = 20
    vector_depth: int = 20
    fusion: FusionMethod = "weighted_rrf"
    rrf_k: int = 60
    class_weights: Mapping[QueryClass, Mapping[Mode, float]] = field(default_factory=lambda: DEFAULT_CLASS_WEIGHTS)
    identity_first: frozenset[QueryClass] = frozenset({"identifier", "mixed"})
    per_document_cap: int = 3
    span_overlap: float = 0.5
    statement_timeout_ms: int = 5_000

    def __post_init__(self) -> None:
        for name in ("exact_depth", "bm25_depth", "vector_depth", "rrf_k", "per_document_cap"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if not 0 < self.span_overlap <= 1:
            raise ValueError("span_overlap must be in (0, 1]")

    def weights(self, query_class: QueryClass) -> Mapping[Mode, float]:
        """Branch weights for ``query_class`` (all 1 for plain RRF)."""
        if self.fusion == "rrf":
            return {"exact": 1.0, "bm25": 1.0, "vector": 1.0}
        return self.class_weights[query_class]
