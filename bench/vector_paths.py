"""Vector access paths against exact search, one run: per-tenant partial HNSW (vector and halfvec), binary
quantization with re-ranking, and the IVFFlat path, on the MiniLM 100k-chunk benchmark database.

    python -m bench.vector_paths --database procura_bench_vector_minilm_100k --tenant tenant-17 \\
        [--path hnsw_half:m=16,efc=128 ...] [--ef-search 100 --ef-search 400] [--json OUT]

Every candidate is timed as ``procura_app`` under row-level security, in the same transaction as the exact
search of the same query and filter (the tenant predicate and the tenant's index key are in the statement,
so the planner can prove a partial index's predicate). Recall is strict recall@10 by chunk id against that
exact search. Each candidate's index (a partial index ``WHERE index_key = <tenant's key>``) is built as the
superuser before its measurement, its build time and size recorded, and the plan's index checked by
``EXPLAIN``; ``--keep`` leaves the built indexes in place, else they are dropped after their measurement.

Candidates (``--path``, repeatable): ``ivf`` (the tenant's IVFFlat index, ``--probe-fraction``), ``hnsw``
(vector, ``m``, ``efc``), ``hnsw_half`` (over ``embedding::halfvec(384)``), ``bq_hnsw`` (HNSW over
``binary_quantize(embedding)::bit(384)``, re-ranking ``rerank`` x 10 candidates by exact cosine) and ``bq_exact``
(a Hamming scan of the tenant's rows, no index, same re-ranking). Each is run at every ``--ef-search``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.retrieval_latency import _load, recall_queries, summary

FILTERS = {"tenant": None, "tenant+manuals": "product_manual", "tenant+agreements": "agreement"}

_BASE = ("from retrieval.active_embeddings x where x.tenant_id = %(t)s and x.embedding_config_id = %(c)s "
         "and (%(ty)s::text is null or x.document_type = %(ty)s) {own}")

#: the split path: the index over the filtered set's large document types, exact search over its small ones
SPLIT = ("select chunk_id from ((select chunk_id, d from (select x.chunk_id, x.embedding <=> %(q)s as d "
         + _BASE.replace("(%(ty)s::text is null or x.document_type = %(ty)s)", "x.document_type = any(%(large)s)")
         + " order by {order} limit %(fetch)s) a) union all (select x.chunk_id, x.embedding <=> %(q)s as d "
         + _BASE.replace("(%(ty)s::text is null or x.document_type = %(ty)s)", "x.document_type = any(%(small)s)")
           .replace("{own}", "")
         + " offset 0)) u order by d + 0, chunk_id limit 10")

EXACT = ("select chunk_id from (select x.chunk_id, x.embedding <=> %(q)s as d " + _BASE +
         " offset 0) s order by d, chunk_id limit 10")

_ANN = ("select chunk_id from (select x.chunk_id, x.embedding <=> %(q)s as d " + _BASE +
        " order by {order} limit %(fetch)s) s order by d + 0, chunk_id limit 10")

ORDERS = {
    "ivf": "x.embedding::halfvec(384) <=> %(q)s::halfvec(384)",
    "hnsw": "x.embedding <=> %(q)s",
    "hnsw_split": "x.embedding <=> %(q)s",
    "ivf_split": "x.embedding::halfvec(384) <=> %(q)s::halfvec(384)",
    # l2_normalize (a no-op on unit vectors) keeps the tenant's IVFFlat index over ``embedding::halfvec(384)`` out
    "hnsw_half_split": "l2_normalize(x.embedding)::halfvec(384) <=> %(q)s::halfvec(384)",
    "hnsw_half": "x.embedding::halfvec(384) <=> %(q)s::halfvec(384)",
    "bq_hnsw": "binary_quantize(x.embedding)::bit(384) <~> binary_quantize(%(q)s)",
    "bq_exact": "binary_quantize(x.embedding)::bit(384) <~> binary_quantize(%(q)s)",
}

INDEXES = {
    "hnsw": "using hnsw (embedding vector_cosine_ops) with (m = {m}, ef_construction = {efc})",
    "hnsw_split": "using hnsw (embedding vector_cosine_ops) with (m = {m}, ef_construction = {efc})",
    "hnsw_half": "using hnsw ((embedding::halfvec(384)) halfvec_cosine_ops) with (m = {m}, ef_construction = {efc})",
    "hnsw_half_split": "using hnsw ((l2_normalize(embedding)::halfvec(384)) halfvec_cosine_ops) "
                       "with (m = {m}, ef_construction = {efc})",
    "bq_hnsw": "using hnsw ((binary_quantize(embedding)::bit(384)) bit_hamming_ops) "
               "with (m = {m}, ef_construction = {efc})",
}


def one(conn: Any, statement: str, params: Any) -> Any:
    """The first column of the statement's one row."""
    row = conn.execute(statement, params, prepare=False).fetchone()
    assert row is not None
    return row[0]


def parse_path(text: str) -> tuple[str, dict[str, float]]:
    kind, _, rest = text.partition(":")
    opts = {k: float(v) for k, v in (p.split("=") for p in rest.split(",") if p)}
    return kind, opts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="procura_bench_vector_minilm_100k")
    parser.add_argument("--tenant", default="tenant-17")
    parser.add_argument("--path", action="append", help="kind:opt=value,... (see the module docstring)")
    parser.add_argument("--ef-search", type=int, action="append")
    parser.add_argument("--iterative", action="append", choices=("relaxed_order", "strict_order", "off"),
                        help="hnsw.iterative_scan (repeatable; default relaxed_order)")
    parser.add_argument("--max-scan-tuples", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=0, help="first N recall queries (0: all)")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--threshold", type=int, default=6_000, help="split: exact search for types this small")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

    import psycopg
    from pgvector.psycopg import register_vector

    from ingest.embedder import get_default_embedder
    from ingest.vector_index import index_key, tenant_index_name
    from procura.db.session import AuthContext, tenant_transaction
    from procura.settings import get_settings
    from retrieval.service import SEARCH_SCOPE
    from retrieval.vector import active_embedding_config

    settings = get_settings().with_database(args.database)
    embedder = get_default_embedder()
    texts = recall_queries()
    if args.queries:
        texts = texts[: args.queries]
    vectors = [embedder.embed_query(q) for q in texts]
    key = index_key(args.tenant)
    results: dict[str, Any] = {"reproduce": "python -m bench.vector_paths " + " ".join(
        argv if argv is not None else sys.argv[1:]), "load_average_start": _load(), "queries": len(texts),
        "paths": []}
    ctx = AuthContext(args.tenant, "bench", frozenset({SEARCH_SCOPE}))
    admin = psycopg.connect(settings.admin_url, autocommit=True)
    app = psycopg.connect(settings.app_url, autocommit=True)
    register_vector(app)
    with tenant_transaction(app, ctx):
        cfg = active_embedding_config(app).embedding_config_id
    results["tenant_vectors"] = one(admin, "select count(*) from retrieval.active_embeddings where tenant_id = %s",
                                    (args.tenant,))

    by_type: dict[str, int] = dict(admin.execute(
        "select document_type, count(*) from retrieval.active_embeddings where tenant_id = %s group by 1",
        (args.tenant,)).fetchall())
    results["tenant_vectors_by_type"] = by_type

    def run(sql_text: str, params: dict[str, Any], settings_sql: Sequence[str]) -> tuple[list[str], float]:
        with tenant_transaction(app, ctx):
            app.execute("select set_config('jit', 'off', true)")
            for s in settings_sql:
                app.execute(s)
            started = time.perf_counter()
            rows = app.execute(sql_text, params, prepare=False).fetchall()
            ms = (time.perf_counter() - started) * 1000
        return [r[0] for r in rows], ms

    def plan_index(sql_text: str, params: dict[str, Any], settings_sql: Sequence[str]) -> list[str]:
        with tenant_transaction(app, ctx):
            for s in settings_sql:
                app.execute(s)
            plan = one(app, "explain (format json) " + sql_text, params)[0]

        def walk(node: dict[str, Any]) -> list[str]:
            own = [f"{node['Node Type']}:{node.get('Index Name', '')}"] if "Scan" in node["Node Type"] else []
            return own + [n for c in node.get("Plans", []) for n in walk(c)]

        return walk(plan["Plan"])

    exact_sql = EXACT.format(own="")
    for spec in args.path or ["ivf:probe=0.2"]:
        kind, opts = parse_path(spec)
        entry: dict[str, Any] = {"path": spec, "load_average_start": _load()}
        name = None
        if kind in INDEXES:
            m, efc = int(opts.get("m", 16)), int(opts.get("efc", 64))
            name = f"bench_{kind}_{m}_{efc}"
            admin.execute(f"drop index if exists ingest.{name}")
            admin.execute("set maintenance_work_mem = '512MB'")
            started = time.monotonic()
            admin.execute(f"create index {name} on ingest.embeddings "
                          + INDEXES[kind].format(m=m, efc=efc) + f" where index_key = {key}")
            entry["build_s"] = round(time.monotonic() - started, 1)
            entry["size_mb"] = round(one(admin, "select pg_relation_size(%s::regclass)", (f"ingest.{name}",))
                                     / 2**20, 1)
            admin.execute("analyze ingest.embeddings")
        rerank = int(opts.get("rerank", 4))
        own = "and x.index_key = %(k)s::bigint" if kind != "bq_exact" else ""
        template = SPLIT if kind.endswith("_split") else _ANN
        ann_sql = template.format(own=own.replace("%(k)s", str(key)) if own else "", order=ORDERS[kind])
        if kind == "bq_exact":
            ann_sql = ann_sql.replace("limit %(fetch)s", "offset 0 limit %(fetch)s")
        efs = args.ef_search or [400]
        modes = args.iterative or ["relaxed_order"]
        for ef, mode in [(e, m) for e in (efs if kind.startswith("hnsw") or kind == "bq_hnsw" else [None])
                         for m in modes]:
            settings_sql = [f"select set_config('hnsw.ef_search', '{ef or 40}', true)",
                            f"select set_config('hnsw.iterative_scan', '{mode}', true)",
                            f"select set_config('hnsw.max_scan_tuples', '{args.max_scan_tuples}', true)"]
            if kind.startswith("ivf"):
                lists = int(one(admin, "select o.option_value from pg_class c "
                                "cross join lateral pg_options_to_table(c.reloptions) o "
                                "where c.relname = %s and o.option_name = 'lists'", (tenant_index_name(args.tenant),)))
                probes = max(1, round(lists * opts.get("probe", 0.2)))
                settings_sql = [f"select set_config('ivfflat.probes', '{probes}', true)",
                                f"select set_config('ivfflat.max_probes', '{lists}', true)",
                                "select set_config('ivfflat.iterative_scan', 'relaxed_order', true)"]
            if kind == "bq_exact":
                settings_sql = ["set local enable_indexscan = off"]
            fetch = 10 * rerank if kind.startswith("bq") else 40
            row: dict[str, Any] = {"ef_search": ef, "iterative_scan": mode, "fetch": fetch, "filters": {}}
            for label, doc_type in FILTERS.items():
                types = [t for t in by_type if doc_type is None or t == doc_type]
                large = [t for t in types if by_type[t] > args.threshold]
                small = [t for t in types if by_type[t] <= args.threshold]
                extra = {"large": large, "small": small}
                params = {"q": vectors[0], "t": args.tenant, "c": cfg, "ty": doc_type, "fetch": fetch, **extra}
                plan = plan_index(ann_sql, params, settings_sql)
                exact_ms, ann_ms, recalls = [], [], []
                for vec in vectors:
                    params = {"q": vec, "t": args.tenant, "c": cfg, "ty": doc_type, "fetch": fetch, **extra}
                    truth, ems = run(exact_sql, params, [])
                    got, ams = run(ann_sql, params, settings_sql)
                    exact_ms.append(ems)
                    ann_ms.append(ams)
                    recalls.append(len(set(truth) & set(got)) / max(1, len(truth)))
                e, a = summary(exact_ms), summary(ann_ms)
                row["filters"][label] = {"recall": round(sum(recalls) / len(recalls), 3), "recall_min": min(recalls),
                                         "path_ms": a, "exact_ms": e,
                                         "speedup_p50": round(e["p50_ms"] / a["p50_ms"], 2), "plan": plan}
                print(spec, ef, mode, label, row["filters"][label]["recall"], a["p50_ms"], e["p50_ms"],
                      row["filters"][label]["speedup_p50"], plan, _load(), file=sys.stderr, flush=True)
            entry.setdefault("runs", []).append(row)
        entry["load_average_end"] = _load()
        if name and not args.keep:
            admin.execute(f"drop index if exists ingest.{name}")
        results["paths"].append(entry)
    results["load_average_end"] = _load()
    text = json.dumps(results, indent=2, default=str)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
