"""Fusion of the branch rankings: classification, candidate union, duplicate removal, RRF or score fusion,
identity tiers, reranking and parent-document aggregation. Pure Python, no database.

Order of operations (the architecture's "Combining Hybrid Retrieval Results"):

1. :func:`classify` the query (identifier, mixed, keyword, semantic) to pick branch weights.
2. Union the candidates of every branch and :func:`cluster` duplicates: the same chunk, the same content hash
   (one clause repeated in two documents) or overlapping spans of one document version (overlapping windows).
   A cluster counts once per branch, at its best member's rank, so repeated evidence earns no extra support.
3. Fuse per cluster: ``sum_b w_b / (k + rank_b)`` for (weighted) RRF, or weighted min-max / z-score of the raw
   branch scores.
4. Identity is a deterministic feature, not a score: for the classes in ``identity_first`` every cluster whose
   chunk or document carries a requested identifier ranks above every cluster that does not.
5. An optional reranker reorders the head of the list (within identity tiers).
6. :func:`cap_per_document` keeps at most ``per_document_cap`` results per document.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from retrieval.analyzer import analyze
from retrieval.candidates import BranchResult, ChunkInfo, ChunkKey
from retrieval.config import RetrievalConfig
from retrieval.models import Mode, QueryClass

_QUESTION = re.compile(
    r"^(how|what|which|why|when|where|who|whom|whose|explain|describe|summari[sz]e|list|compare|tell|show|give|"
    r"can|could|does|do|did|is|are|should|must|may)\b",
    re.I,
)
#: Longest content-term count that still reads as a keyword query rather than a question.
KEYWORD_MAX_TERMS = 4


def classify(query_text: str, identifier_count: int) -> QueryClass:
    """The query class that selects the fusion weights.

    * ``identifier``: identifiers and at most one other term ("PRD-482", "invoice INV-2026-0148");
    * ``mixed``: identifiers plus a text need ("Explain the calibration requirements for PRD-482");
    * ``keyword``: a short technical phrase without identifiers ("differential pressure calibration");
    * ``semantic``: a question or a longer natural-language request.

    >>> classify("prd 482", 1), classify("Explain the calibration requirements for PRD-482", 1)
    ('identifier', 'mixed')
    >>> classify("loop resistance", 0), classify("How often must the sensor be recalibrated?", 0)
    ('keyword', 'semantic')
    """
    content = analyze(query_text).content_terms if query_text else ()
    if identifier_count:
        return "identifier" if len(content) <= 1 else "mixed"
    if len(content) <= KEYWORD_MAX_TERMS and not query_text.rstrip().endswith("?") and not _QUESTION.match(
        query_text.strip()
    ):
        return "keyword"
    return "semantic"


@dataclass(frozen=True)
class RankedHit:
    """A cluster's rank and raw score in one branch."""

    rank: int
    score: float


@dataclass
class Fused:
    """One result candidate after duplicate removal."""

    key: ChunkKey
    members: list[ChunkKey]
    branches: dict[Mode, RankedHit] = field(default_factory=dict)
    fused_score: float = 0.0
    identity: Literal["chunk", "document"] | None = None
    matched: tuple[str, ...] = ()
    rerank_score: float | None = None

    @property
    def best_rank(self) -> int:
        return min((hit.rank for hit in self.branches.values()), default=1_000_000)

    @property
    def duplicates(self) -> tuple[str, ...]:
        return tuple(sorted(m.chunk_id for m in self.members if m != self.key))


class _UnionFind:
    def __init__(self, keys: Sequence[ChunkKey]) -> None:
        self.parent = {k: k for k in keys}

    def find(self, key: ChunkKey) -> ChunkKey:
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: ChunkKey, b: ChunkKey) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _overlap(a: ChunkInfo, b: ChunkInfo) -> float:
    """Shared characters as a fraction of the shorter span (0 when either chunk has no span)."""
    if a.char_start is None or a.char_end is None or b.char_start is None or b.char_end is None:
        return 0.0
    shared = min(a.char_end, b.char_end) - max(a.char_start, b.char_start)
    shorter = min(a.char_end - a.char_start, b.char_end - b.char_start)
    return max(0, shared) / shorter if shorter > 0 else 0.0


def cluster(
    keys: Sequence[ChunkKey], infos: Mapping[ChunkKey, ChunkInfo], span_overlap: float
) -> dict[ChunkKey, ChunkKey]:
    """Map every key to its cluster root; duplicates share a root (same content hash or overlapping spans).

    A root is the smallest key of its cluster, so the result does not depend on the order of the unions.
    Spans are compared with a sweep over each document version's chunks sorted by start: only spans that
    intersect can reach ``span_overlap`` (> 0), so the others are never compared.
    """
    uf = _UnionFind(keys)
    by_hash: dict[str, ChunkKey] = {}
    by_version: dict[tuple[str, int], list[tuple[int, int, ChunkKey]]] = {}
    for key in keys:
        info = infos.get(key)
        if info is None:
            continue
        first = by_hash.setdefault(info.content_hash, key)
        if first != key:
            uf.union(first, key)
        if info.char_start is not None and info.char_end is not None:
            by_version.setdefault((key.document_id, key.document_version), []).append(
                (info.char_start, info.char_end, key)
            )
    for spans in by_version.values():
        spans.sort()
        active: list[tuple[int, int, ChunkKey]] = []
        for start, end, key in spans:
            active = [a for a in active if a[1] > start]
            for _, _, other in active:
                if _overlap(infos[key], infos[other]) >= span_overlap:
                    uf.union(other, key)
            active.append((start, end, key))
    return {key: uf.find(key) for key in keys}


def fuse(
    branches: Sequence[BranchResult],
    infos: Mapping[ChunkKey, ChunkInfo],
    config: RetrievalConfig,
    query_class: QueryClass,
    *,
    requested_identifiers: bool,
    reranker: Callable[[Sequence[ChunkInfo]], Sequence[float]] | None = None,
    rerank_depth: int = 20,
) -> list[Fused]:
    """The fused, ordered candidate list (before authorization re-check and per-document capping)."""
    keys = list(dict.fromkeys(hit.key for branch in branches for hit in branch.hits if hit.key in infos))
    roots = cluster(keys, infos, config.span_overlap)
    clusters: dict[ChunkKey, Fused] = {}
    for key in keys:
        clusters.setdefault(roots[key], Fused(key=roots[key], members=[])).members.append(key)

    identity_documents: dict[tuple[str, int], tuple[str, ...]] = {}
    for branch in branches:
        identity_documents.update(branch.identity_documents)
        rank = 0
        for hit in branch.hits:
            if hit.key not in roots:
                continue
            fused = clusters[roots[hit.key]]
            if hit.level == "chunk":
                fused.identity = "chunk"
            if hit.matched:
                fused.matched = tuple(sorted(set(fused.matched) | set(hit.matched)))
            if branch.mode in fused.branches:
                continue  # a duplicate further down the same branch adds nothing
            rank += 1
            fused.branches[branch.mode] = RankedHit(rank, hit.score)

    chunk_matches = {hit.key for branch in branches for hit in branch.hits if hit.level == "chunk"}
    best_position = _best_positions(branches)
    for fused in clusters.values():
        for member in fused.members:
            doc = identity_documents.get((member.document_id, member.document_version))
            if doc:
                fused.matched = tuple(sorted(set(fused.matched) | set(doc)))
                if fused.identity is None:
                    fused.identity = "document"

        # The representative: a member that carries the requested identity (the copy of a repeated clause in
        # the document the user asked about), then the member ranked best by any branch.
        def preference(k: ChunkKey) -> tuple[int, int, ChunkKey]:
            if k in chunk_matches:
                tier = 0
            elif (k.document_id, k.document_version) in identity_documents:
                tier = 1
            else:
                tier = 2
            return (tier, best_position.get(k, 1_000_000), k)

        fused.key = min(fused.members, key=preference)

    weights = config.weights(query_class)
    ordered = list(clusters.values())
    _score(ordered, weights, config)
    tiered = requested_identifiers and query_class in config.identity_first

    def order_key(f: Fused) -> tuple[int, float, int, str]:
        tier = 0 if (tiered and f.identity is not None) else 1
        return (tier, -f.fused_score, f.best_rank, f.key.chunk_id)

    ordered.sort(key=order_key)
    if reranker is not None and ordered:
        head, tail = ordered[:rerank_depth], ordered[rerank_depth:]
        scores = reranker([infos[f.key] for f in head])
        for f, score in zip(head, scores, strict=True):
            f.rerank_score = float(score)
        head.sort(key=lambda f: (order_key(f)[0], -(f.rerank_score or 0.0), f.key.chunk_id))
        ordered = head + tail
    return ordered


def _best_positions(branches: Sequence[BranchResult]) -> dict[ChunkKey, int]:
    """Every key's best (0-based) position over the branches, each branch counting its first occurrence."""
    best: dict[ChunkKey, int] = {}
    for branch in branches:
        seen: set[ChunkKey] = set()
        for position, hit in enumerate(branch.hits):
            if hit.key in seen:
                continue
            seen.add(hit.key)
            if position < best.get(hit.key, 1_000_000):
                best[hit.key] = position
    return best


def _score(clusters: list[Fused], weights: Mapping[Mode, float], config: RetrievalConfig) -> None:
    modes = {mode for f in clusters for mode in f.branches}
    if config.fusion in ("rrf", "weighted_rrf"):
        for f in clusters:
            f.fused_score = sum(weights.get(m, 0.0) / (config.rrf_k + hit.rank) for m, hit in f.branches.items())
        return
    normalized: dict[Mode, dict[int, float]] = {}
    floor: dict[Mode, float] = {}
    for mode in modes:
        values = [f.branches[mode].score for f in clusters if mode in f.branches]
        if config.fusion == "minmax":
            low, high = min(values), max(values)
            norm = [(v - low) / (high - low) if high > low else 1.0 for v in values]
            floor[mode] = 0.0
        else:
            mean = sum(values) / len(values)
            std = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
            norm = [(v - mean) / std if std > 0 else 0.0 for v in values]
            # absence from a branch must never beat presence in it
            floor[mode] = min(norm) - 1.0
        holders = [id(f) for f in clusters if mode in f.branches]
        normalized[mode] = dict(zip(holders, norm, strict=True))
    for f in clusters:
        f.fused_score = sum(
            weights.get(mode, 0.0) * normalized[mode].get(id(f), floor[mode]) for mode in modes
        )


def cap_per_document(ordered: Sequence[Fused], cap: int, limit: int) -> list[Fused]:
    """The first ``limit`` candidates with at most ``cap`` per document (parent-document aggregation)."""
    taken: list[Fused] = []
    per_document: dict[str, int] = {}
    for fused in ordered:
        count = per_document.get(fused.key.document_id, 0)
        if count >= cap:
            continue
        per_document[fused.key.document_id] = count + 1
        taken.append(fused)
        if len(taken) == limit:
            break
    return taken
