"""Build the evaluation database, run the labeled query set, write ``docs/retrieval-report.md`` and its plot.

    python -m evaluation.retrieval_report [--database procura_retrieval_eval] [--reuse] [--bench-json bench.json ...]

Steps: create (or reuse) a database of the configured server, migrate it, generate the demo corpus (seed 42,
scale 1), ingest every tenant with the BM25 writer, ingest ``updates/`` and delete tenant-42's manual-prd-701
(so the serving rule is exercised), then evaluate the systems below and a small fusion-tuning sweep. With
``--bench-json`` (repeatable) the summary of each ``bench/retrieval_latency.py`` result is added: latency per
branch and fused, BM25 vs rank_bm25 and bm25s, filtered HNSW vs exact recall and latency, load average and the
command that reproduces it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg

from evaluation.retrieval_quality import CATEGORIES, QueryScore, QuerySet, System, evaluate, load_query_set, summarize
from procura.settings import REPO_ROOT, Settings, get_settings
from retrieval.config import RetrievalConfig

REPORT = REPO_ROOT / "docs" / "retrieval-report.md"
PLOT = REPO_ROOT / "docs" / "img" / "retrieval_recall.png"

SYSTEMS: tuple[System, ...] = (
    System("exact", ("exact",)),
    System("bm25", ("bm25",)),
    System("vector", ("vector",)),
    System("bm25+vector", ("bm25", "vector")),
    System("fusion", ("exact", "bm25", "vector")),
)


def build_database(settings: Settings, *, reuse: bool, progress: Any = print) -> None:
    """Create, migrate and fill the evaluation database (skipped with ``reuse`` when it holds documents)."""
    from ingest.embedder import get_default_embedder
    from ingest.pipeline import delete_document, ingest_path
    from procura.db.migrate import migrate
    from procura.db.provision import ensure_database
    from procura.demo.generator import generate
    from retrieval.bm25_writer import Bm25Writer

    ensure_database(settings)
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        migrate(admin, settings)
        filled = admin.execute("select count(*) from retrieval.bm25_documents").fetchone()
    if reuse and filled and filled[0]:
        progress(f"reusing {settings.database_name} ({filled[0]} indexed document versions)")
        return
    writers = [Bm25Writer()]
    embedder = get_default_embedder()
    with tempfile.TemporaryDirectory(prefix="procura-eval-") as tmp:
        corpus = Path(tmp) / "corpus"
        generate(corpus)
        with psycopg.connect(settings.owner_url, autocommit=True) as owner:
            report = ingest_path(owner, corpus, embedder=embedder, writers=writers)
            progress(f"ingested {report.documents} documents, {report.chunks} chunks in {report.elapsed_s:.0f}s")
            ingest_path(owner, corpus / "updates", embedder=embedder, writers=writers)
            delete_document(owner, "tenant-42", "manual-prd-701", writers=writers)


CAPS = (1, 2, 3, 5, 10)


def bench_markdown(results: dict[str, Any]) -> str:
    """The summary tables of one ``bench/retrieval_latency.py`` result (its JSON)."""
    lat = results["search_latency_excluding_embedding"]
    lines = [
        f"Reproduce: `{results['reproduce']}`",
        "",
        f"Database `{results['database']}`, embedder `{results['embedder']}`, {results['all_chunks']} active chunks "
        f"({results['tenant_chunks']} in {results['tenant']}), HNSW m = {results['hnsw_index'].get('m')}, "
        f"ef_construction = {results['hnsw_index'].get('ef_construction')}; load average (1, 5, 15 min) "
        f"{results['load_average_start']} at the start, {results['load_average_end']} at the end (2 cores).",
        "",
        "| path | p50 ms | p95 ms | n |",
        "|---|---|---|---|",
    ]
    for name, v in lat.items():
        lines.append(f"| {name} (search, query embedding excluded) | {v['p50_ms']} | {v['p95_ms']} | {v['n']} |")
    for name in ("fused_one_connection_excluding_embedding", "query_embedding", "fused_including_query_embedding",
                 "bm25_postgres", "bm25_rank_bm25", "bm25_bm25s"):
        v = results.get(name)
        if isinstance(v, dict):
            lines.append(f"| {name} | {v['p50_ms']} | {v['p95_ms']} | {v['n']} |")
    lines += ["", "| filtered vector search | HNSW p50 / p95 ms | exact p50 / p95 ms | recall@10 mean (min) | "
              "returned min | queries | HNSW index scanned |", "|---|---|---|---|---|---|---|"]
    for name, v in results["vector_hnsw_vs_exact"].items():
        queries = v.get("queries", results.get("queries", ""))
        lines.append(f"| {name} | {v['hnsw']['p50_ms']} / {v['hnsw']['p95_ms']} | {v['exact']['p50_ms']} / "
                     f"{v['exact']['p95_ms']} | {v['recall_at_10_mean']} ({v['recall_at_10_min']}) | "
                     f"{v['hnsw_returned_min']} | {queries} | {v.get('hnsw_index_scanned', 'not recorded')} |")
    targets = results["targets"]
    chunks = results["all_chunks"]
    fused = "met" if targets["fused_p95_met"] else "missed"
    recall = "met" if targets["recall_met"] else "missed"
    lines += [
        "",
        f"Targets of issue 6 in this run ({chunks} chunks): fused p95 <= {targets['fused_p95_ms']} ms {fused}"
        + ("" if chunks >= 100_000 else " (the target is set at 100k chunks; this corpus is smaller)")
        + f"; recall@10 >= {targets['recall_at_10']} at the service's ef_search = {targets['ef_search']} "
        f"(the lowest mean over the filter sets) {recall}"
        + ("" if results["embedder"].startswith("minilm") else " (hashed vectors: not the MiniLM figure)")
        + ("" if chunks >= 50_000 or not results["embedder"].startswith("minilm")
           else " (the target asks for >= 50k chunks; MiniLM encoded only a few chunks per second on the loaded "
                "machine, so this MiniLM corpus is smaller: rerun with --scale 90 and the embedding cache)")
        + ".",
    ]
    return "\n".join(lines) + "\n"


def sweep_systems() -> list[System]:
    """Variants for the tuning tables: fusion method x candidate depth, and the per-document cap."""
    systems = []
    for method in ("rrf", "weighted_rrf", "minmax", "zscore"):
        for depth in (10, 20, 40):
            config = replace(RetrievalConfig(), fusion=method, bm25_depth=depth, vector_depth=depth)  # type: ignore[arg-type]
            systems.append(System(f"{method}@{depth}", ("exact", "bm25", "vector"), config))
    for cap in CAPS:
        config = replace(RetrievalConfig(), per_document_cap=cap)
        systems.append(System(f"cap{cap}", ("exact", "bm25", "vector"), config))
    return systems


def hnsw_recall(conn: psycopg.Connection, query_set: QuerySet, embedder: Any) -> dict[str, dict[str, float]]:
    """Recall@10 of the filtered HNSW path against exact search, per ef_search, on every labeled query's tenant
    (and with a document-type filter), MiniLM vectors of this database."""
    from dataclasses import replace as dc_replace

    from procura.db.session import AuthContext, tenant_transaction
    from retrieval.models import Filters
    from retrieval.service import SEARCH_SCOPE
    from retrieval.vector import check_embedding_config, vector_search

    out: dict[str, dict[str, float]] = {}
    for ef in (10, 40, 100):
        vcfg = dc_replace(RetrievalConfig().vector, ef_search=ef)
        for label, filters in (("tenant", Filters()), ("tenant+manuals", Filters(document_types=("product_manual",)))):
            recalls = []
            for query in query_set.queries:
                ctx = AuthContext(query.tenant, "retrieval-eval", frozenset({SEARCH_SCOPE}))
                vector = embedder.embed_query(query.query)
                with tenant_transaction(conn, ctx):
                    config_id = check_embedding_config(conn, embedder).embedding_config_id
                    hnsw = vector_search(conn, vector, config_id, filters, vcfg, tenant_id=ctx.tenant_id, depth=10,
                                         force_path="hnsw")
                    exact = vector_search(conn, vector, config_id, filters, vcfg, tenant_id=ctx.tenant_id, depth=10,
                                          force_path="exact")
                truth = {h.key for h in exact.hits}
                recalls.append(len(truth & {h.key for h in hnsw.hits}) / max(1, len(truth)))
            out[f"ef_search={ef}, {label}"] = {"mean": sum(recalls) / len(recalls), "min": min(recalls)}
    return out


def plot(scores: Sequence[QueryScore], path: Path) -> None:
    """Grouped bars: recall@10 and nDCG@10 per category and system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = summarize(scores, 10)
    groups = [*CATEGORIES, "all"]
    names = [s.name for s in SYSTEMS]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2), sharey=True)
    width = 0.8 / len(names)
    for ax, metric, title in ((axes[0], 0, "recall@10"), (axes[1], 1, "nDCG@10")):
        for i, name in enumerate(names):
            values = [summary.get((name, g), (0.0, 0.0, 0))[metric] for g in groups]
            ax.bar([x + i * width for x in range(len(groups))], values, width, label=name)
        ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(groups))])
        ax.set_xticklabels([g.replace("_", "\n") for g in groups], fontsize=8)
        ax.set_title(title)
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower left")
    fig.suptitle("Retrieval on the labeled demo-corpus query set (per branch, and fused)")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _table(scores: Sequence[QueryScore], query_set: QuerySet) -> list[str]:
    ks = query_set.k
    lines = ["| category | queries | system | " + " | ".join(f"recall@{k}" for k in ks) + " | nDCG@10 | violations |",
             "|---|---|---|" + "---|" * (len(ks) + 2)]
    counts = {c: sum(1 for q in query_set.queries if q.category == c) for c in CATEGORIES}
    counts_all = len(query_set.queries)
    by_k = {k: summarize(scores, k) for k in ks}
    for group in (*CATEGORIES, "all"):
        for system in SYSTEMS:
            key = (system.name, group)
            if key not in by_k[ks[0]]:
                continue
            recalls = " | ".join(f"{by_k[k][key][0]:.3f}" for k in ks)
            _, ndcg, violations = by_k[ks[0]][key]
            count = counts_all if group == "all" else counts[group]  # type: ignore[index]  # a category
            lines.append(f"| {group} | {count} | {system.name} | {recalls} | {ndcg:.3f} | {violations} |")
    return lines


def write_report(query_set: QuerySet, scores: Sequence[QueryScore], sweep: Sequence[QueryScore],
                 bench: Sequence[dict[str, Any]] | None, hnsw: dict[str, dict[str, float]],
                 path: Path = REPORT) -> None:
    """Write the Markdown report (the numbers come from this run only)."""
    summary = summarize(scores, 10)
    sweep_summary = summarize(sweep, 10)
    config = RetrievalConfig()
    fused, vector_only = summary[("fusion", "all")], summary[("vector", "all")]
    lines = [
        "# Retrieval report",
        "",
        "Generated by `python -m evaluation.retrieval_report` (do not edit by hand). Corpus: `procura demo generate` "
        "(seed 42, scale 1, all three tenants), then `updates/` ingested (a second version of tenant-42's "
        "agreement-2025-09) and tenant-42's manual-prd-701 deleted. Labeled set: `eval/retrieval_queries.yml`, "
        f"{len(query_set.queries)} queries. Every system answers through `retrieval.search` as `procura_app` "
        "under RLS, with the same per-document cap and limit 10.",
        "",
        f"Defaults: weighted RRF (k = {config.rrf_k}), depths exact {config.exact_depth} / BM25 {config.bm25_depth}"
        f" / vector {config.vector_depth}, per-document cap {config.per_document_cap}, BM25 k1 = {config.bm25.k1},"
        f" b = {config.bm25.b}, HNSW ef_search = {config.vector.ef_search} with `relaxed_order` iterative scans,"
        f" exact vector search at or below {config.vector.exact_threshold} filtered chunks.",
        "",
        "## Fusion vs vector-only",
        "",
        f"Over all queries, fusion reaches recall@10 **{fused[0]:.3f}** and nDCG@10 **{fused[1]:.3f}**; vector-only "
        f"reaches recall@10 {vector_only[0]:.3f} and nDCG@10 {vector_only[1]:.3f}. Permission-sensitive queries "
        f"returned {sum(v[2] for k, v in summary.items() if k[1] == 'all')} forbidden results across all systems.",
        "",
        "![recall and nDCG per category](img/retrieval_recall.png)",
        "",
        "## Per branch and category",
        "",
        "recall@k = relevant results in the top k / min(k, relevant chunks); nDCG@10 with binary gains; "
        "violations = results from another tenant, a superseded or a deleted version among the top 10.",
        "",
        *_table(scores, query_set),
        "",
        "## Tuning: fusion method and candidate depth",
        "",
        "All three branches, identity tiers on; mean over all queries.",
        "",
        "| fusion | depth 10: recall@10 / nDCG@10 | depth 20 | depth 40 |",
        "|---|---|---|---|",
    ]
    for method in ("rrf", "weighted_rrf", "minmax", "zscore"):
        cells = []
        for depth in (10, 20, 40):
            recall, ndcg, _ = sweep_summary[(f"{method}@{depth}", "all")]
            cells.append(f"{recall:.3f} / {ndcg:.3f}")
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    lines += ["", f"Per-document cap (defaults otherwise; the default is {config.per_document_cap}):", "",
              "| cap | recall@10 | nDCG@10 |", "|---|---|---|"]
    for cap in CAPS:
        recall, ndcg, _ = sweep_summary[(f"cap{cap}", "all")]
        lines.append(f"| {cap} | {recall:.3f} | {ndcg:.3f} |")
    lines += ["", "## Filtered HNSW vs exact (MiniLM vectors of this database)", "",
              "Recall@10 of the HNSW path (iterative `relaxed_order` scan under RLS) against exact search, over the "
              f"{len(query_set.queries)} labeled queries, each in its own tenant:", "",
              "| setting | mean recall@10 | min |", "|---|---|---|"]
    for setting, values in hnsw.items():
        lines.append(f"| {setting} | {values['mean']:.3f} | {values['min']:.3f} |")
    lines += ["", "## Per query (fusion)", "", "| query | category | relevant | recall@10 | nDCG@10 | top 3 |",
              "|---|---|---|---|---|---|"]
    for score in scores:
        if score.system == "fusion":
            top = ", ".join(score.returned[:3])
            lines.append(f"| {score.query_id} | {score.category} | {score.relevant} | {score.recall[10]:.2f} | "
                         f"{score.ndcg10:.2f} | {top} |")
    for result in bench or ():
        lines += ["", f"## Latency and filtered HNSW recall: `{result['embedder']}`, {result['all_chunks']} chunks "
                  "(bench/retrieval_latency.py)", "", bench_markdown(result).rstrip()]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="procura_retrieval_eval")
    parser.add_argument("--reuse", action="store_true", help="Reuse a filled evaluation database.")
    parser.add_argument("--bench-json", type=Path, action="append", help="Latency results to include (repeatable).")
    parser.add_argument("--out", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    from ingest.embedder import get_default_embedder

    settings = get_settings().with_database(args.database)
    build_database(settings, reuse=args.reuse)
    query_set = load_query_set()
    embedder = get_default_embedder()
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        scores = evaluate(conn, query_set, SYSTEMS, embedder)
        sweep = evaluate(conn, query_set, sweep_systems(), embedder)
        hnsw = hnsw_recall(conn, query_set, embedder)
    bench = [json.loads(path.read_text()) for path in args.bench_json or ()]
    plot(scores, PLOT)
    write_report(query_set, scores, sweep, bench, hnsw, args.out)
    summary = summarize(scores, 10)
    for system in SYSTEMS:
        recall, ndcg, violations = summary[(system.name, "all")]
        print(f"{system.name:12s} recall@10 {recall:.3f}  nDCG@10 {ndcg:.3f}  violations {violations}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
