"""The BM25 statements that read block summaries (migration 0050): the single-pass one and the top-k pruned one
(block-max bounds, MaxScore over terms) return exactly what the exhaustive statement and bm25s return."""

from __future__ import annotations

from collections import Counter

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procura.db.session import tenant_transaction
from retrieval import bm25
from retrieval.analyzer import analyze
from retrieval.bm25 import bm25_search, collection_stats
from retrieval.config import Bm25Config
from retrieval.models import Filters
from tests.integration.test_retrieval_search import PARITY_QUERIES
from tests.integration.test_retrieval_support import RetrievalCorpus, app, context, corpus

pytestmark = pytest.mark.integration
__all__ = ["app", "corpus"]  # fixtures imported for pytest

CONFIG = Bm25Config(k1=1.2, b=0.75)
FILTERS = (Filters(), Filters(document_types=("product_manual",)), Filters(document_types=("agreement",)))


#: (strategy, probe_blocks): the single-pass statement, and the pruned one on its block-by-block path (every
#: query has few enough live blocks) and on its term-level (MaxScore) path
VARIANTS = (("single_pass", 0), ("pruned", 10**9), ("pruned", 0))


def _both(conn: psycopg.Connection, terms: Counter[str], filters: Filters, depth: int,
          variant: tuple[str, int]) -> tuple[list, list]:
    strategy, probe_blocks = variant
    mine = bm25_search(conn, terms, filters, CONFIG, depth=depth, strategy=strategy, probe_blocks=probe_blocks)
    exhaustive = bm25_search(conn, terms, filters, CONFIG, depth=depth, strategy="exhaustive")
    return ([(h.key, h.score) for h in mine.hits], [(h.key, h.score) for h in exhaustive.hits])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("depth", [1, 3, 10, 20])
def test_top_k_is_the_exhaustive_top_k(app: psycopg.Connection, corpus: RetrievalCorpus, depth: int,
                                       variant: tuple[str, int]) -> None:
    with tenant_transaction(app, context(corpus.tenant_a)):
        for query in PARITY_QUERIES:
            for filters in FILTERS:
                mine, exhaustive = _both(app, Counter(analyze(query).terms), filters, depth, variant)
                assert mine == exhaustive, (query, filters, depth)


@pytest.mark.parametrize("strategy", ["single_pass", "pruned"])
def test_top_10_is_bm25s_top_10(app: psycopg.Connection, corpus: RetrievalCorpus, strategy: str) -> None:
    bm25s = pytest.importorskip("bm25s")
    with tenant_transaction(app, context(corpus.tenant_a)):
        rows = app.execute("select chunk_id, chunk_text from retrieval.active_chunks order by chunk_id").fetchall()
        stats = collection_stats(app)
        mine = {q: bm25_search(app, Counter(analyze(q).terms), Filters(), CONFIG, depth=10, stats=stats,
                               strategy=strategy)
                for q in PARITY_QUERIES}
    tokenized = [list(analyze(text).terms) for _, text in rows]
    vocabulary: dict[str, int] = {}
    for doc in tokenized:
        for term in doc:
            vocabulary.setdefault(term, len(vocabulary))
    retriever = bm25s.BM25(method="lucene", k1=CONFIG.k1, b=CONFIG.b)
    retriever.index(bm25s.tokenization.Tokenized(ids=[[vocabulary[t] for t in doc] for doc in tokenized],
                                                 vocab=vocabulary), show_progress=False)
    ids = [r[0] for r in rows]
    for query in PARITY_QUERIES:
        scores = retriever.get_scores([t for t in analyze(query).terms if t in vocabulary])
        # bm25s scores in float32: both sides are ordered by the score to 4 decimals, then by chunk id
        order = sorted(range(len(ids)), key=lambda i: (-round(float(scores[i]), 4), ids[i]))
        expected = [ids[i] for i in order[:10] if float(scores[i]) > 0]
        got = [c for _, c in sorted((-round(h.score, 4), h.key.chunk_id) for h in mine[query].hits)]
        assert got == expected, query


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_strategy_changes_the_result_of_random_queries(app: psycopg.Connection, corpus: RetrievalCorpus,
                                                            data: st.DataObject) -> None:
    with tenant_transaction(app, context(corpus.tenant_a)):
        vocabulary = [r[0] for r in app.execute(
            "select distinct term from retrieval.bm25_postings order by term").fetchall()]
        terms = data.draw(st.lists(st.sampled_from(vocabulary), min_size=1, max_size=8), label="terms")
        depth = data.draw(st.integers(min_value=1, max_value=25), label="depth")
        filters = data.draw(st.sampled_from(FILTERS), label="filters")
        variant = data.draw(st.sampled_from(VARIANTS), label="variant")
        mine, exhaustive = _both(app, Counter(terms), filters, depth, variant)
    assert mine == exhaustive


@pytest.mark.parametrize("strategy", ["single_pass", "pruned", "exhaustive"])
def test_the_second_pass_for_wide_ties_ranks_as_the_first(app: psycopg.Connection, corpus: RetrievalCorpus,
                                                          strategy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # without slack, the bounded sort keeps exactly depth rows, its last row is the depth-th: every query whose
    # scored chunks outnumber depth takes the second pass over all of them
    with tenant_transaction(app, context(corpus.tenant_a)):
        expected = {(q, f, d): bm25_search(app, Counter(analyze(q).terms), f, CONFIG, depth=d, strategy="exhaustive")
                    for q in PARITY_QUERIES for f in FILTERS for d in (1, 10)}
        monkeypatch.setattr(bm25, "TIE_SLACK", 0)
        for (query, filters, depth), exhaustive in expected.items():
            mine = bm25_search(app, Counter(analyze(query).terms), filters, CONFIG, depth=depth, strategy=strategy)
            assert [(h.key, h.score) for h in mine.hits] == [(h.key, h.score) for h in exhaustive.hits], (query, depth)
