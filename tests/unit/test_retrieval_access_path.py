"""The vector branch's access path by filtered-set size, the IVFFlat fit, BM25 blocks, and the bench headline rows
of the service path and BM25."""

from __future__ import annotations

from typing import Any

import pytest

from bench.retrieval_latency import headline
from ingest.vector_index import (
    MAX_LISTS,
    fitted_ef_construction,
    fitted_lists,
    fitted_probes,
    hnsw_build_problem,
    index_key,
    tenant_index_name,
)
from retrieval.bm25_writer import BLOCK_SIZE, Bm25Writer
from retrieval.config import VectorConfig
from retrieval.vector import PathChoice, PathChoices, choose_path


@pytest.mark.parametrize(("eligible", "has_ivf", "path"), [
    (None, True, "exact"), (0, False, "exact"), (6_000, True, "exact"), (6_001, True, "ivf"), (6_001, False, "hnsw"),
    (40_000, True, "ivf"),
])
def test_path_follows_the_filtered_set_size_and_the_tenants_index(eligible: int | None, has_ivf: bool,
                                                                  path: str) -> None:
    assert VectorConfig().exact_threshold == 6_000
    assert choose_path(eligible, has_ivf, VectorConfig().exact_threshold) == path


def test_a_path_choice_is_kept_for_its_time_to_live_only() -> None:
    choices: PathChoices[PathChoice] = PathChoices(max_entries=2)
    key = ("db", "tenant-42", "cfg", "true", "", (), 6_000)
    assert choices.get(key, 60, now=0.0) is None
    choices.put(key, PathChoice(6_001, True), now=10.0)
    assert choices.get(key, 60, now=70.0) == PathChoice(6_001, True)
    assert choices.get(key, 60, now=70.1) is None  # stale: the next search reads the choice again
    assert choices.get(key, 0, now=10.0) == PathChoice(6_001, True)
    assert choices.get(("db", "tenant-17", *key[2:]), 60, now=10.0) is None
    choices.put(("a",), PathChoice(0, False), now=10.0)
    choices.put(("b",), PathChoice(0, False), now=10.0)  # full: the memory starts again instead of growing
    assert choices.get(key, 60, now=10.0) is None and choices.get(("b",), 60, now=10.0) is not None
    with pytest.raises(ValueError, match="path_cache_seconds"):
        VectorConfig(path_cache_seconds=-1)


def test_lists_and_probes_scale_with_the_tenant() -> None:
    sizes = [2_000, 10_000, 39_715, 100_000, 1_000_000]
    lists = [fitted_lists(n) for n in sizes]
    # cells of about 20 vectors up to the cap, where the cells grow instead
    assert lists == sorted(lists) and lists[2] == 1_986 and lists[-1] == MAX_LISTS
    # the probed fraction of the rows stays the configured one at every size
    for n in lists:
        assert abs(fitted_probes(n, 0.4) / n - 0.4) <= 1 / n
    assert fitted_probes(10, 1.0) == 10 and fitted_probes(1, 0.01) == 1
    # HNSW builds get a wider candidate list as the tenant grows, always within pgvector's bounds for m = 16
    built = [fitted_ef_construction(n) for n in sizes]
    assert built == sorted(built) and built[0] == 64 and built[-1] == 256
    assert all(hnsw_build_problem(16, efc) is None for efc in built)


def test_index_names_differ_by_method_and_reject_unknown_ones() -> None:
    assert tenant_index_name("tenant-42") != tenant_index_name("tenant-42", "hnsw")
    assert tenant_index_name("tenant-42").startswith("embeddings_ivf_")
    # opaque: the catalog shows the keyed index key, never the tenant id
    for method in ("ivfflat", "hnsw"):
        name = tenant_index_name("tenant-42", method)
        assert "tenant" not in name and name.endswith(f"{index_key('tenant-42'):015x}")
    with pytest.raises(ValueError, match="method"):
        tenant_index_name("tenant-42", "flat")


def test_probe_fractions_are_checked() -> None:
    with pytest.raises(ValueError, match="ivf_probe_fraction"):
        VectorConfig(ivf_probe_fraction=0.5, ivf_max_probe_fraction=0.4)
    with pytest.raises(ValueError, match="ivf_probe_fraction"):
        VectorConfig(ivf_probe_fraction=0.0)
    with pytest.raises(ValueError, match="split_max_vectors"):
        VectorConfig(split_max_vectors=-1)
    assert VectorConfig().split_max_vectors == VectorConfig().exact_threshold
    with pytest.raises(ValueError, match="type_overfetch"):
        VectorConfig(type_overfetch=0)


def test_blocks_summarize_consecutive_chunks_per_term() -> None:
    keys = {f"c{i:03d}": 100 + i for i in range(BLOCK_SIZE + 3)}
    postings = [(c, "pump", 1 + i % 3, 10 + i) for i, c in enumerate(keys)] + [("c001", "valve", 4, 11)]
    blocks = Bm25Writer.blocks(postings, keys)
    assert blocks == [
        ("pump", 0, 100, 100 + BLOCK_SIZE - 1, BLOCK_SIZE, 3, 10),
        ("pump", 1, 100 + BLOCK_SIZE, 100 + BLOCK_SIZE + 2, 3, 3, 10 + BLOCK_SIZE),
        ("valve", 0, 101, 101, 1, 4, 11),
    ]
    # a chunk without postings still takes a position: the next block starts after it
    assert Bm25Writer.blocks([("c040", "pump", 1, 5)], {**keys, "c040": 99})[0][1] == 0


def _service(recall: float, paths: dict[str, int], speed: float) -> dict[str, Any]:
    latency = {"p50_ms": 5.0, "p95_ms": 9.0, "mean_ms": 6.0, "n": 59}
    return {"service": latency, "exact": {**latency, "p50_ms": 5.0 * speed}, "paths": paths,
            "recall_at_10_mean": recall, "recall_at_10_min": 0.8, "queries": 59,
            "exact_p50_over_service_p50": speed}


def test_headline_reports_the_service_path_and_bm25() -> None:
    fused = {"p50_ms": 20.0, "p95_ms": 41.0, "mean_ms": 22.0, "n": 60}
    results = {
        "all_chunks": 101_000, "tenant_chunks": 40_000, "tenant": "tenant-42",
        "load_average_start": [0.1], "load_average_end": [0.2], "hnsw_index": {"present": True},
        "tenant_hnsw_index": {"present": True, "name": "embeddings_ivf_x", "method": "ivfflat", "lists": 199},
        "search_latency_excluding_embedding": {"fused": fused, "exact": fused}, "targets": {"ef_search": 400},
        "vector_hnsw_vs_exact": {},
        "vector_service_vs_exact": {"tenant": _service(0.985, {"ivf": 59}, 6.0),
                                    "tenant+manuals": _service(0.99, {"ivf": 59}, 3.0),
                                    "tenant+agreements": _service(1.0, {"exact": 59}, 1.0)},
        "bm25_postgres": {"p50_ms": 6.0, "p95_ms": 14.0, "N": 40_000, "strategy": "single_pass"},
        "bm25_postgres_strategies": {"single_pass": {"p50_ms": 6.0, "p95_ms": 14.0},
                                     "pruned": {"p50_ms": 7.0, "p95_ms": 20.0}},
        "bm25_bm25s": {"top10_identical_to_postgres": 20, "queries": 20},
    }
    rows = headline(results)
    assert [r["met"] for r in rows] == [True, True, False, True, True]
    assert "ivfflat, lists 199" in rows[1]["detail"] and "3.0x" in rows[2]["detail"]
    assert rows[-1]["value"] == 14.0 and "identical to bm25s in 20 of 20" in rows[-1]["detail"]
    assert "pruned p50 / p95 7.0 / 20.0 ms" in rows[-1]["detail"]
    results["bm25_bm25s"] = {"top10_identical_to_postgres": 19, "queries": 20}
    assert headline(results)[-1]["met"] is False
