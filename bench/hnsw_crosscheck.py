"""Is the tenant-filtered recall ceiling pgvector's, or the data's? The same vectors through another HNSW.

    pip install faiss-cpu   # not a project dependency: this check is run by hand
    python -m bench.hnsw_crosscheck [--database procura_bench_retrieval_minilm_100k] [--tenant tenant-42]

Reads one tenant's active embeddings of the active config from a benchmark database built by
:mod:`bench.retrieval_latency`, embeds :func:`bench.retrieval_latency.recall_queries` with the same model, and
measures strict recall@10 against exact cosine search (numpy) for FAISS ``IndexHNSWFlat`` (inner product over the
unit vectors, which ranks like cosine) at several build and search settings, with the number of distance
computations per query. A control runs 200 of the tenant's own vectors as queries: graph search on in-collection
queries is near-perfect, so a low figure on the recall queries is a property of those queries over this
collection, not of a build. Results are printed and, with ``--json``, written to a file.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench.retrieval_latency import recall_queries

_VECTORS = """
select x.chunk_id, x.embedding::real[]
from retrieval.active_embeddings x
join ingest.embedding_configs c on c.embedding_config_id = x.embedding_config_id and c.is_active
where x.tenant_id = %s
order by x.document_id, x.document_version, x.chunk_id
"""

BUILDS = ((16, 64), (16, 200), (32, 200))
EF_SEARCH = (40, 100, 400, 1000, 2000, 4000, 8000)


def _recall(found: np.ndarray, truth: np.ndarray) -> float:
    return float(np.mean([len(set(f[f >= 0]) & set(t)) / truth.shape[1] for f, t in zip(found, truth, strict=True)]))


def crosscheck(vectors: np.ndarray, queries: np.ndarray, *, k: int = 10, seed: int = 0) -> dict[str, Any]:
    """Recall@k of FAISS HNSW against exact search for ``queries`` and for a control set of ``vectors``."""
    import faiss

    data = np.ascontiguousarray(vectors, dtype=np.float32)
    faiss.normalize_L2(data)
    probe = np.ascontiguousarray(queries, dtype=np.float32)
    faiss.normalize_L2(probe)
    control = data[np.random.default_rng(seed).choice(len(data), 200, replace=False)]
    similarity = probe @ data.T
    truth = np.argsort(-similarity, axis=1, kind="stable")[:, :k]
    control_truth = np.argsort(-(control @ data.T), axis=1, kind="stable")[:, :k]
    stats: Any = faiss.cvar  # SWIG globals: the counters of the last searches
    rows = []
    for m, ef_construction in BUILDS:
        index = faiss.IndexHNSWFlat(data.shape[1], m, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = ef_construction
        started = time.perf_counter()
        index.add(data)
        build_s = time.perf_counter() - started
        for ef in EF_SEARCH:
            index.hnsw.efSearch = ef
            stats.hnsw_stats.reset()
            _, found = index.search(probe, k)
            distances = stats.hnsw_stats.ndis / len(probe)
            _, control_found = index.search(control, k)
            rows.append({"m": m, "ef_construction": ef_construction, "ef_search": ef,
                         "recall_at_10": round(_recall(found, truth), 3),
                         "control_recall_at_10": round(_recall(control_found, control_truth), 3),
                         "distances_per_query": round(distances), "build_s": round(build_s, 1)})
            print(f"[crosscheck] m={m} ef_construction={ef_construction} ef_search={ef}: recall@10 "
                  f"{rows[-1]['recall_at_10']:.3f} (control {rows[-1]['control_recall_at_10']:.3f}), "
                  f"{rows[-1]['distances_per_query']} distances per query of {len(data)} vectors", flush=True)
    kth = np.take_along_axis(similarity, truth[:, -1:], axis=1)[:, 0]
    return {"vectors": len(data), "queries": len(probe), "control_queries": len(control),
            "kth_neighbour_similarity_p5_p50_p95": [round(float(v), 3) for v in np.percentile(kth, [5, 50, 95])],
            "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.hnsw_crosscheck", description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="procura_bench_retrieval_minilm_100k")
    parser.add_argument("--tenant", default="tenant-42")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    try:
        import faiss  # noqa: F401
    except ImportError:
        parser.error("this check needs FAISS, which is not a project dependency: pip install faiss-cpu")
    import psycopg

    from ingest.embedder import get_default_embedder
    from procura.settings import get_settings

    settings = get_settings().with_database(args.database)
    with psycopg.connect(settings.admin_url) as conn:
        rows = conn.execute(_VECTORS, (args.tenant,)).fetchall()
    if not rows:
        parser.error(f"no active embeddings of {args.tenant} in {args.database}")
    vectors = np.stack([np.asarray(v, dtype=np.float32) for _, v in rows])
    embedder = get_default_embedder()
    texts = recall_queries()
    queries = np.stack([np.asarray(embedder.embed_query(t), dtype=np.float32) for t in texts])
    print(f"[crosscheck] {len(vectors)} vectors of {args.tenant}, {len(texts)} recall queries", flush=True)
    results = {"database": args.database, "tenant": args.tenant, **crosscheck(vectors, queries)}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
