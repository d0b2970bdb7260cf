"""The retrieval benchmark's headline rows (bench.report.headline_table reads them): targets, corpus size, and
strict recall that counts only when the HNSW index was really scanned."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bench.report import headline_table
from bench.retrieval_latency import headline, recall_queries


def _vector(recall: float, scanned: int, queries: int = 59) -> dict[str, Any]:
    latency = {"p50_ms": 5.0, "p95_ms": 9.0, "mean_ms": 6.0, "n": queries}
    return {"hnsw": latency, "exact": {**latency, "p95_ms": 70.0}, "recall_at_10_mean": recall,
            "recall_at_10_min": 0.6, "distance_recall_at_10_mean": recall, "distance_recall_at_10_min": 0.6,
            "hnsw_returned_min": 10, "queries": queries, "hnsw_index_scanned": scanned}


def _results(chunks: int, fused_p95: float, tenant: float, manuals: float, scanned: int = 59) -> dict[str, Any]:
    fused = {"p50_ms": 20.0, "p95_ms": fused_p95, "mean_ms": 22.0, "n": 60}
    return {
        "all_chunks": chunks, "tenant_chunks": chunks // 3, "tenant": "tenant-42", "queries": 20,
        "load_average_start": [0.1, 0.2, 0.3], "load_average_end": [0.2, 0.2, 0.3],
        "hnsw_index": {"present": True, "m": 16, "ef_construction": 64},
        "search_latency_excluding_embedding": {"fused": fused, "exact": fused},
        "targets": {"ef_search": 400},
        "vector_hnsw_vs_exact": {"ef400/tenant": _vector(tenant, scanned), "ef400/tenant+manuals": _vector(manuals, 59),
                                 "ef400/tenant+agreements": _vector(1.0, 59), "ef100/tenant": _vector(0.5, 59)},
    }


def test_headline_rows_name_the_corpus_and_the_worst_type_filter() -> None:
    rows = headline(_results(101_000, 41.0, 0.99, 0.985))
    assert [r["met"] for r in rows] == [True, True, True]
    assert "101000 chunks" in rows[0]["figure"] and "load average" in rows[0]["detail"]
    assert rows[2]["value"] == 0.985 and "tenant+manuals" in rows[2]["detail"]
    assert all(r["unit"] == "" and r["target"] == ">= 0.98" for r in rows[1:])


def test_fused_target_is_missed_below_100k_chunks_and_recall_below_098() -> None:
    rows = headline(_results(84_000, 41.0, 0.935, 0.925))
    assert [r["met"] for r in rows] == [False, False, False]
    assert "fewer than 100k chunks" in rows[0]["detail"]


def test_recall_does_not_count_when_the_planner_skipped_the_index() -> None:
    rows = headline(_results(101_000, 41.0, 1.0, 1.0, scanned=21))
    assert rows[1]["met"] is False and "scanned in 21 of 59" in rows[1]["detail"]


def test_headline_table_shows_every_row() -> None:
    rows = headline(_results(101_000, 41.0, 0.99, 0.985))
    run = SimpleNamespace(name="retrieval_latency", results={"headline": rows})
    lines = headline_table([run])
    assert sum(line.startswith("| bench.retrieval_latency |") for line in lines) == 3


def test_recall_queries_extend_the_timing_queries_without_repeats() -> None:
    queries = recall_queries()
    assert len(queries) == len(set(queries)) > 20
