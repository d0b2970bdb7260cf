"""Document ids in questions, versions in force on a date, and how a lookup changes a plan and an answer."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from retrieval.config import Bm25Config
from retrieval.documents import (
    DocumentLookup,
    DocumentStatus,
    DocumentVersion,
    answer_update,
    document_ids_in_text,
    effective_date_of,
    scoped_search_arguments,
    version_in_force,
)
from retrieval.history import HistoricalChunk, bm25_score, merge_historical
from retrieval.models import BranchHit, ParentSection, SearchResult, Span


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("What does agreement-2025-09 say about Supplier Iota?", ("agreement-2025-09",)),
        ("Show invoice-2026-0150-erp-replica.", ("invoice-2026-0150-erp-replica",)),
        ("compare manual-prd-482 and credit-note-2026-0007, then manual-prd-482 again",
         ("manual-prd-482", "credit-note-2026-0007")),
        ("Spend on PRD-482 in 2026-Q1 (as of 2026-03-15)", ()),
        ("invoice INV-2026-0150 and prd-482", ()),
        ("spend in q1-2026", ()),
    ],
)
def test_document_ids_in_text(question: str, ids: tuple[str, ...]) -> None:
    assert document_ids_in_text(question) == ids


V1 = DocumentVersion(document_version=1, status="superseded", effective_date=dt.date(2025, 9, 1))
V2 = DocumentVersion(document_version=2, status="published", effective_date=dt.date(2026, 4, 20))


@pytest.mark.parametrize(
    ("on", "expected"),
    [(dt.date(2025, 8, 31), None), (dt.date(2025, 9, 1), 1), (dt.date(2026, 4, 19), 1), (dt.date(2026, 4, 20), 2),
     (dt.date(2027, 1, 1), 2)],
)
def test_an_amendment_is_in_force_only_from_its_effective_date(on: dt.date, expected: int | None) -> None:
    assert version_in_force((V1, V2), on) == expected


def test_an_undated_version_is_in_force_until_a_dated_one_takes_over() -> None:
    undated = DocumentVersion(document_version=1, status="superseded", effective_date=None)
    assert version_in_force((undated, V2), dt.date(2026, 1, 1)) == 1
    assert version_in_force((undated, V2), dt.date(2026, 5, 1)) == 2


def test_effective_dates_come_from_the_registry_or_the_front_matter() -> None:
    assert effective_date_of("d:2026-04-20", b"effective_date: 2020-01-01") == dt.date(2026, 4, 20)
    assert effective_date_of(None, b"---\ntitle: x\neffective_date: '2025-09-01'\n---\n") == dt.date(2025, 9, 1)
    assert effective_date_of("t:2026-01-01T00:00:00", b"no front matter") is None


def _status(doc: str, status: str, **extra: object) -> DocumentStatus:
    return DocumentStatus.model_validate({"document_id": doc, "status": status, **extra})


def test_not_found_replaces_the_answer_and_found_leads_it() -> None:
    missing = DocumentLookup(documents=(_status("agreement-2099-01", "not_found"),))
    update = answer_update("answered", "Found 3 passage(s) ...", missing)
    assert update["status"] == "not_found"
    assert update["text"] == "Document agreement-2099-01 was not found."
    duplicate = DocumentLookup(documents=(
        _status("invoice-2026-0150-erp-replica", "duplicate", document_type="invoice",
                duplicate_of="invoice-2026-0150"),
        _status("agreement-2099-01", "not_found"),
    ))
    update = answer_update("answered", "Found 1 passage(s).", duplicate)
    assert "status" not in update
    assert update["text"].startswith("Document invoice-2026-0150-erp-replica (invoice) was found; it is flagged as "
                                     "a duplicate of invoice-2026-0150")
    assert "Document agreement-2099-01 was not found." in update["text"]
    assert update["text"].endswith("Found 1 passage(s).")
    assert answer_update("answered", "x", DocumentLookup()) == {}


def test_a_lookup_states_the_version_in_force_on_the_date() -> None:
    lookup = DocumentLookup(valid_at=dt.date(2026, 3, 15), documents=(
        _status("agreement-2025-09", "found", document_type="agreement", versions=(V1, V2), version_in_force=1,
                active_version=2),))
    assert "on 2026-03-15 version 1 (effective 2025-09-01) was in force, version 2 takes effect 2026-04-20" in (
        lookup.text())


def test_searches_are_scoped_to_the_named_documents_and_dated() -> None:
    lookup = DocumentLookup(documents=(_status("agreement-2025-09", "found"), _status("agreement-2099-01",
                                                                                      "not_found")))
    scoped = scoped_search_arguments({"query_text": "Iota", "filters": {"document_types": ["agreement"]}}, lookup,
                                     dt.date(2026, 3, 15))
    assert scoped["filters"] == {"document_types": ["agreement"], "document_ids": ["agreement-2025-09"],
                                 "valid_at": "2026-03-15"}
    # a plan's own filters win
    own = scoped_search_arguments({"filters": {"document_ids": {"$ref": "x"}, "valid_at": "2026-01-01"}}, lookup,
                                  dt.date(2026, 3, 15))
    assert own["filters"] == {"document_ids": {"$ref": "x"}, "valid_at": "2026-01-01"}


def test_bm25_of_a_rebuilt_chunk_matches_the_reference_implementation() -> None:
    from retrieval.bm25_reference import LuceneIdfBM25

    corpus = [["iota", "cable", "cable"], ["eta", "kit"], ["iota", "approval", "from", "may"], ["theta", "tools"]]
    reference = LuceneIdfBM25(corpus)
    query = ["iota", "cable"]
    df = {"iota": 2, "cable": 1}
    avgdl = sum(len(d) for d in corpus) / len(corpus)
    for index, doc in enumerate(corpus):
        ours = bm25_score(Counter(query), Counter(doc), len(doc), n=len(corpus), avgdl=avgdl, df=df,
                          config=Bm25Config())
        assert ours == pytest.approx(reference.get_scores(query)[index])


def _result(rank: int, doc: str, bm25: float | None, identity: bool = False) -> SearchResult:
    return SearchResult(
        rank=rank, chunk_id=f"{doc}-c{rank}", text="t", document_id=doc, document_version=1, document_type="agreement",
        title=None, page=1, span=Span(char_start=0, char_end=1), parent_section=ParentSection(section_id=None, path=()),
        content_hash="h", identity_match="chunk" if identity else None, matched_identifiers=(),
        branches={"bm25": BranchHit(rank=rank, score=bm25)} if bm25 is not None else {}, fused_score=0.1,
    )


def _past(chunk_id: str, score: float, matched: tuple[str, ...] = ()) -> HistoricalChunk:
    return HistoricalChunk(
        document_id="agreement-2025-09", document_version=1, document_type="agreement", chunk_id=chunk_id, page=1,
        ordinal=1, parent_id=None, section_path=(), char_start=0, char_end=1, text="old", content_hash="h",
        title=None, effective_date=dt.date(2025, 9, 1), score=score, matched_identifiers=matched,
    )


def test_rebuilt_chunks_are_placed_by_bm25_score_after_identity_matches() -> None:
    results = [_result(1, "a", 1.0, identity=True), _result(2, "b", 5.0), _result(3, "c", 2.0)]
    merged = merge_historical(results, [_past("old-1", 3.0), _past("old-2", 1.0, ("contract_id:x",))], limit=10,
                              per_document_cap=3)
    assert [r.chunk_id for r in merged] == ["a-c1", "old-2", "b-c2", "old-1", "c-c3"]
    assert [r.rank for r in merged] == [1, 2, 3, 4, 5]
    assert all(r.in_force_version for r in merged if r.chunk_id.startswith("old"))
    capped = merge_historical(results, [_past("old-1", 3.0), _past("old-3", 2.5)], limit=4, per_document_cap=1)
    assert [r.chunk_id for r in capped] == ["a-c1", "b-c2", "old-1", "c-c3"]


def test_the_lookup_accepts_the_search_filters_document_ids() -> None:
    from retrieval import documents, models

    assert documents.DOCUMENT_ID_PATTERN == models.DOCUMENT_ID_PATTERN
