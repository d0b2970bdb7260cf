"""The reference BM25 the SQL implementation is checked against (parity test, benchmark).

rank_bm25's ``BM25Okapi`` scoring code with one change: its IDF is replaced by the Lucene IDF the SQL uses,
``ln(1 + (N - df + 0.5) / (df + 0.5))``. rank_bm25's own Okapi IDF is Robertson's ``ln((N - df + 0.5) /
(df + 0.5))`` with negative values replaced by ``epsilon * mean IDF over the vocabulary``; that floor needs the
whole vocabulary's statistics, which a per-query SQL plan does not compute (see :mod:`retrieval.bm25`). Term
frequency saturation, length normalization (k1, b, avgdl) and the per-query-term summation are rank_bm25's,
untouched. rank_bm25 is a development dependency; import this module only from tests and benchmarks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rank_bm25 import BM25Okapi


class LuceneIdfBM25(BM25Okapi):  # type: ignore[misc]  # rank_bm25 ships no type information
    """``BM25Okapi`` with the Lucene IDF."""

    def __init__(self, corpus: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> None:
        super().__init__([list(doc) for doc in corpus], k1=k1, b=b)

    def _calc_idf(self, nd: dict[str, int]) -> None:
        for word, freq in nd.items():
            self.idf[word] = math.log(1 + (self.corpus_size - freq + 0.5) / (freq + 0.5))


def top_k(scores: Sequence[float], ids: Sequence[str], k: int) -> list[tuple[str, float]]:
    """The ``k`` best (id, score) pairs with positive scores, ties broken by id (as the SQL orders them)."""
    ranked = sorted(((i, float(s)) for i, s in zip(ids, scores, strict=True) if s > 0), key=lambda p: (-p[1], p[0]))
    return ranked[:k]
