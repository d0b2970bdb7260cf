"""Evidence valid on a date: the passages of the version of a document that was in force then.

The index holds the active version of every document only. When a search has ``filters.valid_at`` and a
document's active version takes effect after that date (an amendment), its passages are excluded by the filter
(:mod:`retrieval.filters`); this module supplies the version that *was* in force: its original bytes are read from
the registry (under RLS) and re-chunked by the ingestion parser and chunker, and its chunks are scored with the same
Okapi BM25 (Lucene IDF, the tenant's live N, avgdl and document frequencies) as the BM25 branch, so they can be
placed among the indexed results by their BM25 score.

Design note: nothing is written. A rebuilt chunk keeps the chunk id and version the superseded version had at
ingestion (the parser and chunker are deterministic), so a citation names the version the evidence comes from.
Vectors of superseded versions are not stored; such chunks are ranked lexically only (and by identifier match).
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg

from retrieval.analyzer import analyze
from retrieval.config import Bm25Config
from retrieval.documents import DocumentVersion, effective_date_of, version_in_force
from retrieval.models import BranchHit, Filters, ParentSection, SearchResult, Span


@dataclass(frozen=True)
class HistoricalChunk:
    """A chunk of a superseded version in force on the search's date, with its BM25 score for the query."""

    document_id: str
    document_version: int
    document_type: str
    chunk_id: str
    page: int
    ordinal: int
    parent_id: str | None
    section_path: tuple[str, ...]
    char_start: int | None
    char_end: int | None
    text: str
    content_hash: str
    title: str | None
    effective_date: dt.date | None
    score: float
    matched_identifiers: tuple[str, ...] = ()
    suspected_prompt_injection: bool = False


def bm25_score(
    query_tf: Counter[str], chunk_tf: Counter[str], chunk_length: int, *, n: int, avgdl: float,
    df: dict[str, int], config: Bm25Config,
) -> float:
    """Okapi BM25 with the Lucene IDF, as the SQL scores (``retrieval.bm25``).

    >>> round(bm25_score(Counter(["iota"]), Counter(["iota", "cable"]), 2, n=10, avgdl=2.0, df={"iota": 1},
    ...                  config=Bm25Config()), 4)
    1.9924
    """
    if avgdl <= 0 or chunk_length <= 0:
        return 0.0
    score = 0.0
    for term, qtf in query_tf.items():
        tf = chunk_tf.get(term, 0)
        if not tf:
            continue
        freq = df.get(term, 0)
        idf = math.log(1 + (max(n, freq) - freq + 0.5) / (freq + 0.5))
        score += qtf * idf * tf * (config.k1 + 1) / (tf + config.k1 * (1 - config.b + config.b * chunk_length / avgdl))
    return score


def _shadowed(conn: psycopg.Connection, filters: Filters, valid_at: dt.date) -> list[tuple[str, str, str, int]]:
    """(document id, type, source uri, version in force) of documents whose active version is not in force on
    ``valid_at`` but an earlier one is. Runs inside the caller's tenant transaction (RLS)."""
    rows = conn.execute(
        "select d.document_id, d.document_type, d.source_uri, d.active_version, v.document_version, v.status, "
        "v.source_revision, substring(v.original_content from 1 for 2048) "
        "from ingest.documents d join ingest.document_versions v "
        "  on v.tenant_id = d.tenant_id and v.document_id = d.document_id "
        "where not d.is_deleted and d.active_version is not null and v.status in ('published', 'superseded') "
        "  and exists (select 1 from ingest.document_versions s where s.tenant_id = d.tenant_id "
        "              and s.document_id = d.document_id and s.status = 'superseded') "
        "  and (cardinality(%(types)s::text[]) = 0 or d.document_type = any(%(types)s::text[])) "
        "  and (cardinality(%(ids)s::text[]) = 0 or d.document_id = any(%(ids)s::text[])) "
        "order by d.document_id, v.document_version",
        {"types": list(filters.document_types), "ids": list(filters.document_ids)},
    ).fetchall()
    documents: dict[str, tuple[str, str, int, list[DocumentVersion]]] = {}
    for doc, doc_type, uri, active, version, status, revision, head in rows:
        entry = documents.setdefault(doc, (doc_type, uri, int(active), []))
        entry[3].append(DocumentVersion(document_version=int(version), status=status,
                                        effective_date=effective_date_of(revision, bytes(head) if head else None)))
    out = []
    for doc, (doc_type, uri, active, versions) in documents.items():
        in_force = version_in_force(versions, valid_at)
        if in_force is not None and in_force != active:
            out.append((doc, doc_type, uri, in_force))
    return out


def _rebuilt(conn: psycopg.Connection, tenant_id: str, document_id: str, source_uri: str, version: int) -> list:
    """The chunks of one stored version, rebuilt from its original bytes by the ingestion parser."""
    from ingest.parsers import parse_item
    from ingest.sources import SourceItem, kind_of_uri

    row = conn.execute(
        "select original_content from ingest.document_versions where document_id = %s and document_version = %s",
        (document_id, version),
    ).fetchone()
    if row is None:
        return []
    doc = parse_item(SourceItem(tenant_id, source_uri, kind_of_uri(source_uri), bytes(row[0])))
    return list(doc.chunks) if doc.document_id == document_id else []


def historical_chunks(
    conn: psycopg.Connection,
    tenant_id: str,
    query_text: str,
    identifiers: Sequence[tuple[str, str]],
    filters: Filters,
    config: Bm25Config,
) -> list[HistoricalChunk]:
    """The scored chunks of every version in force on ``filters.valid_at`` that the index does not hold.

    Runs inside the caller's read-only tenant transaction. A chunk is kept when it satisfies the filters and
    either scores for the query or contains a requested identifier; best first.
    """
    if filters.valid_at is None:
        return []
    shadowed = _shadowed(conn, filters, filters.valid_at)
    if not shadowed:
        return []
    query_tf = Counter(analyze(query_text).terms) if query_text else Counter()
    stats = conn.execute(
        "select coalesce(sum(chunk_count), 0), coalesce(sum(total_length), 0) from retrieval.active_bm25_documents"
    ).fetchone()
    n, total = (int(stats[0]), int(stats[1])) if stats else (0, 0)
    df: dict[str, int] = dict(conn.execute(
        "select term, document_frequency from retrieval.bm25_term_stats where term = any(%s)", (list(query_tf),)
    ).fetchall()) if query_tf else {}
    out: list[HistoricalChunk] = []
    for document_id, document_type, uri, version in shadowed:
        for chunk in _rebuilt(conn, tenant_id, document_id, uri, version):
            metadata = dict(chunk.metadata)
            if not _passes(filters, chunk.text, metadata):
                continue
            analyzed = analyze(chunk.text)
            # the rebuilt chunk counts in N and avgdl like the one it stands in for
            score = bm25_score(query_tf, Counter(analyzed.terms), analyzed.length, n=n + 1,
                               avgdl=(total + analyzed.length) / (n + 1), df=df, config=config)
            matched = tuple(f"{kind}:{value}" for kind, value in identifiers if value.lower() in chunk.text.lower())
            if score <= 0 and not matched:
                continue
            effective = metadata.get("effective_date")
            out.append(HistoricalChunk(
                document_id=document_id, document_version=version, document_type=document_type,
                chunk_id=chunk.chunk_id, page=chunk.page, ordinal=chunk.ordinal, parent_id=chunk.parent_id,
                section_path=tuple(chunk.section_path), char_start=chunk.char_start, char_end=chunk.char_end,
                text=chunk.text, content_hash=chunk.content_hash,
                title=str(metadata["title"]) if metadata.get("title") is not None else None,
                effective_date=dt.date.fromisoformat(str(effective)) if effective else None,
                score=score, matched_identifiers=matched,
                suspected_prompt_injection=bool(metadata.get("suspected_prompt_injection", False)),
            ))
    out.sort(key=lambda c: (not c.matched_identifiers, -c.score, c.document_id, c.ordinal))
    return out


def _passes(filters: Filters, text: str, metadata: dict[str, object]) -> bool:
    """The request filters a rebuilt chunk must satisfy (the SQL predicate's rules, in Python)."""
    if filters.company_ids and metadata.get("company_id") not in filters.company_ids:
        return False
    if filters.product_codes and not any(code.lower() in text.lower() for code in filters.product_codes):
        return False
    flat = " ".join(text.lower().split())
    return all(phrase in flat for phrase in filters.phrases)


def merge_historical(
    results: Sequence[SearchResult], past: Sequence[HistoricalChunk], *, limit: int, per_document_cap: int
) -> list[SearchResult]:
    """``results`` with the historical chunks placed by BM25 score, ranks renumbered, at most ``limit``.

    A historical chunk that holds a requested identifier goes after the last result that does (identity first);
    any other goes before the first result without an identity match whose BM25 score is lower.
    """
    merged = list(results)
    per_document = Counter(r.document_id for r in merged)
    for index, chunk in enumerate(past, start=1):
        if per_document[chunk.document_id] >= per_document_cap:
            continue
        item = _as_result(chunk, index)
        if chunk.matched_identifiers:
            position = max((i + 1 for i, r in enumerate(merged) if r.identity_match is not None), default=0)
        else:
            position = next((i for i, r in enumerate(merged) if r.identity_match is None
                             and (r.branches["bm25"].score if "bm25" in r.branches else 0.0) < chunk.score),
                            len(merged))
        merged.insert(position, item)
        per_document[chunk.document_id] += 1
    return [r.model_copy(update={"rank": i}) for i, r in enumerate(merged[:limit], start=1)]


def _as_result(chunk: HistoricalChunk, rank: int) -> SearchResult:
    return SearchResult(
        rank=0, chunk_id=chunk.chunk_id, text=chunk.text, document_id=chunk.document_id,
        document_version=chunk.document_version, document_type=chunk.document_type, title=chunk.title,
        page=chunk.page, span=Span(char_start=chunk.char_start, char_end=chunk.char_end),
        parent_section=ParentSection(section_id=chunk.parent_id, path=chunk.section_path),
        content_hash=chunk.content_hash, identity_match="chunk" if chunk.matched_identifiers else None,
        matched_identifiers=chunk.matched_identifiers,
        branches={"bm25": BranchHit(rank=rank, score=round(chunk.score, 6))} if chunk.score > 0 else {},
        fused_score=0.0, suspected_prompt_injection=chunk.suspected_prompt_injection,
        in_force_version=True,
    )
