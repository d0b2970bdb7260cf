"""The labeled query set and the evaluation metrics (no database)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from evaluation.errors import EvaluationError
from evaluation.retrieval_quality import CATEGORIES, load_query_set, ndcg_at, recall_at
from retrieval.candidates import ChunkKey
from retrieval.models import SearchRequest


def test_the_query_set_covers_every_category() -> None:
    query_set = load_query_set()
    by_category = {c: [q for q in query_set.queries if q.category == c] for c in CATEGORIES}
    assert all(len(queries) >= 4 for queries in by_category.values()), {c: len(q) for c, q in by_category.items()}
    assert all(q.forbidden_text or q.forbidden_documents or q.id == "perm-injection-flagged"
               for q in by_category["permission_sensitive"])
    assert {q.tenant for q in query_set.queries} >= {"tenant-42", "tenant-17"}
    for query in query_set.queries:
        SearchRequest(query_text=query.query)  # every query is a valid request


def test_query_set_errors_name_the_field(tmp_path: Path) -> None:
    broken = tmp_path / "q.yml"
    broken.write_text("version: 1\ncorpus: {}\nk: [10]\nqueries:\n  - {id: a, category: nonsense, tenant: t, "
                      "query: x, relevant: [{contains: [y]}]}\n")
    with pytest.raises(EvaluationError, match=r"queries\.0\.category"):
        load_query_set(broken)
    twice = tmp_path / "twice.yml"
    item = "  - {id: a, category: paraphrase, tenant: t, query: x, relevant: [{contains: [y]}]}\n"
    twice.write_text("version: 1\ncorpus: {}\nk: [10]\nqueries:\n" + item + item)
    with pytest.raises(EvaluationError, match="duplicate query ids a"):
        load_query_set(twice)


def test_recall_and_ndcg() -> None:
    keys = [ChunkKey("d", 1, f"c{i}") for i in range(12)]
    relevant = {keys[0], keys[2], keys[11]}
    assert recall_at(keys, relevant, 1) == 1.0
    assert recall_at(keys, relevant, 10) == pytest.approx(2 / 3)
    assert recall_at(keys[:0], relevant, 10) == 0.0
    ideal = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(keys, relevant) == pytest.approx((1 + 1 / math.log2(4)) / ideal)
    many = set(keys)
    assert recall_at(keys, many, 10) == 1.0 and ndcg_at(keys, many) == pytest.approx(1.0)
