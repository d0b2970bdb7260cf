"""Fusion without a database: duplicate removal, (weighted) RRF, score fusion, identity tiers, caps, reranking."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
import sqlglot
from psycopg import sql

from retrieval import bm25, exact, vector
from retrieval.candidates import BranchResult, ChunkInfo, ChunkKey, Hit
from retrieval.config import Bm25Config, RetrievalConfig, VectorConfig
from retrieval.filters import filter_sql
from retrieval.fusion import cap_per_document, classify, cluster, fuse
from retrieval.models import Filters


def key(doc: str, n: int, version: int = 1) -> ChunkKey:
    return ChunkKey(doc, version, f"{doc}-p01-c{n:02d}")


def info(k: ChunkKey, text: str | None = None, span: tuple[int, int] | None = None) -> ChunkInfo:
    body = text if text is not None else f"text of {k.chunk_id}"
    start, end = span if span is not None else (None, None)
    return ChunkInfo(k, "product_manual", f"sha256:{hash(body) & 0xFFFFFFFF:064x}", 1, 1, f"{k.document_id}-s01",
                     ("Title",), start, end, body, {})


def branch(mode: str, keys: Sequence[ChunkKey], **extra: object) -> BranchResult:
    hits = tuple(Hit(k, 1.0 - i / 100) for i, k in enumerate(keys))
    return BranchResult(mode, hits, "test", 0.0, **extra)  # type: ignore[arg-type]


A1, A2, A3, B1, B2, C1 = key("a", 1), key("a", 2), key("a", 3), key("b", 1), key("b", 2), key("c", 1)
INFOS = {k: info(k) for k in (A1, A2, A3, B1, B2, C1)}


def test_rrf_sums_reciprocal_ranks() -> None:
    config = RetrievalConfig(fusion="rrf")
    fused = fuse([branch("bm25", [A1, B1]), branch("vector", [B1, C1])], INFOS, config, "semantic",
                 requested_identifiers=False)
    scores = {f.key: f.fused_score for f in fused}
    assert scores[B1] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[A1] == pytest.approx(1 / 61) and scores[C1] == pytest.approx(1 / 62)
    assert [f.key for f in fused] == [B1, A1, C1]
    assert fused[0].branches["bm25"].rank == 2 and fused[0].branches["vector"].rank == 1


def test_weighted_rrf_uses_the_class_weights() -> None:
    config = RetrievalConfig()
    branches = [branch("bm25", [A1]), branch("vector", [B1])]
    keyword = fuse(branches, INFOS, config, "keyword", requested_identifiers=False)
    semantic = fuse(branches, INFOS, config, "semantic", requested_identifiers=False)
    assert keyword[0].key == A1 and semantic[0].key == B1
    weights = config.weights("keyword")
    assert keyword[0].fused_score == pytest.approx(weights["bm25"] / 61)


def test_duplicates_count_once_per_branch() -> None:
    twin = key("z", 9)
    infos = {**INFOS, twin: info(twin, text=INFOS[A1].text)}  # same content hash as A1, other document
    fused = fuse([branch("bm25", [A1, twin, B1]), branch("vector", [twin, B1])], infos, RetrievalConfig(fusion="rrf"),
                 "semantic", requested_identifiers=False)
    top = next(f for f in fused if A1 in f.members)
    assert set(top.members) == {A1, twin} and len(fused) == 2
    assert top.branches["bm25"].rank == 1 and top.branches["vector"].rank == 1
    assert fused[1].branches["bm25"].rank == 2  # B1 moves up: the duplicate left no gap
    assert top.duplicates == (twin.chunk_id,) if top.key == A1 else (A1.chunk_id,)


def test_overlapping_spans_of_one_version_are_duplicates() -> None:
    infos = {A1: info(A1, span=(0, 100)), A2: info(A2, span=(60, 160)), A3: info(A3, span=(150, 250)),
             key("a", 4, version=2): info(key("a", 4, version=2), span=(0, 100))}
    roots = cluster(list(infos), infos, span_overlap=0.3)
    assert roots[A1] == roots[A2]  # 40 of 100 characters shared
    assert roots[A3] != roots[A2]  # 10 characters: below the threshold
    assert roots[key("a", 4, version=2)] != roots[A1]  # another version is never an overlap


def test_identity_first_for_identifier_and_mixed_queries() -> None:
    exact_branch = BranchResult("exact", (Hit(C1, 1.0, ("product_code:PRD-482",), "chunk"),), "test", 0.0, False,
                                {("b", 1): ("product_code:PRD-482",)})
    ranked = [branch("bm25", [A1, A2, B2]), branch("vector", [A1, A2, B2]), exact_branch]
    mixed = fuse(ranked, INFOS, RetrievalConfig(), "mixed", requested_identifiers=True)
    assert [f.key for f in mixed[:2]] == [B2, C1]  # identity tier first, fused score inside it
    assert mixed[0].identity == "document" and mixed[1].identity == "chunk"
    assert mixed[0].matched == ("product_code:PRD-482",)
    semantic = fuse(ranked, INFOS, RetrievalConfig(), "semantic", requested_identifiers=True)
    assert semantic[0].key == A1  # no tiers outside identifier and mixed queries


@pytest.mark.parametrize("method", ["minmax", "zscore"])
def test_score_fusion_normalizes_each_branch(method: str) -> None:
    bm25_branch = BranchResult("bm25", (Hit(A1, 40.0), Hit(B1, 20.0), Hit(C1, 0.0)), "t", 0.0)
    vector_branch = BranchResult("vector", (Hit(C1, 0.9), Hit(B1, 0.8), Hit(A1, 0.1)), "t", 0.0)
    config = RetrievalConfig(fusion=method)  # type: ignore[arg-type]
    fused = {f.key: f.fused_score for f in fuse([bm25_branch, vector_branch], INFOS, config, "keyword",
                                                requested_identifiers=False)}
    # raw BM25 scores are 40x larger, yet they do not dominate: B1 (good in both) wins on normalized scores
    assert max(fused, key=fused.__getitem__) == B1 or method == "minmax"
    if method == "minmax":
        weights = config.weights("keyword")
        assert fused[A1] == pytest.approx(weights["bm25"] * 1.0 + weights["vector"] * 0.0)
        assert fused[B1] == pytest.approx(weights["bm25"] * 0.5 + weights["vector"] * 0.875)
    only_one = fuse([bm25_branch, BranchResult("vector", (Hit(B1, 0.5),), "t", 0.0)], INFOS, config, "keyword",
                    requested_identifiers=False)
    assert only_one[0].key in (A1, B1) and {f.key for f in only_one} == {A1, B1, C1}


def test_cap_per_document_keeps_other_sources() -> None:
    fused = fuse([branch("bm25", [A1, A2, A3, B1, C1])], INFOS, RetrievalConfig(), "keyword",
                 requested_identifiers=False)
    capped = cap_per_document(fused, cap=2, limit=4)
    assert [f.key for f in capped] == [A1, A2, B1, C1]
    assert [f.key for f in cap_per_document(fused, cap=5, limit=2)] == [A1, A2]


def test_reranker_reorders_the_head_within_identity_tiers() -> None:
    ranked = [branch("bm25", [A1, B1, C1])]

    def prefer_c(chunks: Sequence[ChunkInfo]) -> list[float]:
        return [1.0 if c.key == C1 else 0.0 for c in chunks]

    plain = fuse(ranked, INFOS, RetrievalConfig(), "keyword", requested_identifiers=False)
    reranked = fuse(ranked, INFOS, RetrievalConfig(), "keyword", requested_identifiers=False, reranker=prefer_c)
    assert [f.key for f in plain] == [A1, B1, C1]
    assert reranked[0].key == C1 and reranked[0].rerank_score == 1.0


@pytest.mark.parametrize(
    ("text", "identifiers", "expected"),
    [
        ("PRD-482", 1, "identifier"),
        ("invoice INV-2026-0148", 1, "identifier"),
        ("Explain the calibration requirements for PRD-482", 1, "mixed"),
        ("differential pressure calibration", 0, "keyword"),
        ("IP67 enclosure rating", 0, "keyword"),
        ("What happens when a supplier delivers late?", 0, "semantic"),
        ("warranty repair replacement defective products period acceptance", 0, "semantic"),
    ],
)
def test_classify(text: str, identifiers: int, expected: str) -> None:
    assert classify(text, identifiers) == expected


FILTER_CASES = [
    Filters(),
    Filters(document_types=("agreement",)),
    Filters(valid_at="2026-01-01"),  # type: ignore[arg-type]
    Filters(document_types=("product_manual",), valid_at="2026-01-01", product_codes=("PRD-482",),  # type: ignore[arg-type]
            document_ids=("manual-prd-482",)),
]


@pytest.mark.parametrize("filters", FILTER_CASES)
def test_every_compiled_query_parses(filters: Filters) -> None:
    def parse(composed: sql.Composable) -> None:
        text = composed.as_string(None)
        # bind parameters stay placeholders: no filter value is ever part of the SQL text
        for value in (*filters.document_types, *filters.product_codes, *filters.document_ids):
            assert value not in text
        sqlglot.parse_one(re.sub(r"%\(\w+\)s", "null", text), read="postgres")

    where = filter_sql(filters, "x")
    inline = filter_sql(filters, "x", chunk="x")
    parse(bm25.compose_query(where, with_stats=True))
    parse(bm25.compose_query(where, with_stats=False))
    parse(exact.compose_query(inline))
    for path in (None, "ivf", "hnsw", "exact"):
        parse(vector.compose_query(where, path))
    candidates = sql.SQL(vector._CANDIDATES).format(chunk_join=where.chunk_join, predicate=where.predicate,
                                                    own_index=sql.SQL(vector._OWN_INDEX))
    parse(sql.SQL(vector._COUNT).format(candidates=candidates))
    assert (filters.valid_at is None) == (where.chunk_join.as_string(None) == "")
    assert set(where.params) == {f"f_{name}" for name in ("document_types", "valid_at", "product_codes",
                                                          "document_ids") if getattr(filters, name)}


@pytest.mark.parametrize(
    ("factory", "message"),
    [
        (lambda: Bm25Config(k1=-1), "k1"),
        (lambda: Bm25Config(b=2), "b must"),
        (lambda: VectorConfig(ef_search=0), "ef_search"),
        (lambda: RetrievalConfig(rrf_k=0), "rrf_k"),
        (lambda: RetrievalConfig(span_overlap=0), "span_overlap"),
    ],
)
def test_config_rejects_bad_values(factory: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        factory()  # type: ignore[operator]


def test_a_repeated_clause_is_shown_from_the_document_the_user_asked_about() -> None:
    boilerplate = "Only qualified personnel may install the device."
    other, asked = key("manual-a", 3), key("manual-b", 3)
    infos = {other: info(other, text=boilerplate), asked: info(asked, text=boilerplate)}
    exact_branch = BranchResult("exact", (), "test", 0.0, False, {("manual-b", 1): ("product_code:PRD-530",)})
    fused = fuse([branch("bm25", [other, asked]), exact_branch], infos, RetrievalConfig(), "mixed",
                 requested_identifiers=True)
    assert len(fused) == 1 and fused[0].key == asked and fused[0].duplicates == (other.chunk_id,)
    assert fused[0].identity == "document"
