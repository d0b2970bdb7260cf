"""Hybrid retrieval on the real database: exact identifiers, BM25 parity, isolation, versions, the seed question."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import get_args

import psycopg
import pytest

from ingest.embedder import get_default_embedder
from ingest.pipeline import ingest_path
from ingest.writers import VersionRef
from procura.db.session import tenant_transaction
from procura.settings import Settings
from retrieval.analyzer import analyze
from retrieval.bm25 import bm25_search, collection_stats
from retrieval.bm25_reference import LuceneIdfBM25, top_k
from retrieval.bm25_writer import POSTINGS, Bm25Writer
from retrieval.candidates import ChunkKey
from retrieval.config import Bm25Config, RetrievalConfig
from retrieval.errors import SearchScopeError
from retrieval.exact import exact_search
from retrieval.models import ALL_MODES, DocumentType, Filters, SearchRequest, SearchResponse
from retrieval.service import authorize, search
from tests.conftest import unique_tenant
from tests.integration.test_retrieval_support import (
    AMENDED_DOCUMENT,
    DELETED_DOCUMENT,
    RetrievalCorpus,
    app,
    context,
    corpus,
    ingest_extra_for_b,
)

pytestmark = pytest.mark.integration
__all__ = ["app", "corpus"]  # fixtures imported for pytest


def run(conn: psycopg.Connection, tenant: str, **request: object) -> SearchResponse:
    return search(conn, context(tenant), SearchRequest.model_validate(request), get_default_embedder())


def tenant_chunks(admin_conn: psycopg.Connection, tenant: str) -> dict[tuple[str, int, str], str]:
    """Every active chunk of ``tenant`` -> content hash (setup-side truth, read as the superuser)."""
    rows = admin_conn.execute(
        "select document_id, document_version, chunk_id, content_hash from retrieval.active_chunks "
        "where tenant_id = %s",
        (tenant,),
    ).fetchall()
    return {(d, v, c): h for d, v, c, h in rows}


# -- exact --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["PRD-482", "prd 482", "PRD482", "prd-482", "Prd_482"])
def test_exact_lookup_finds_prd_482_for_every_spelling(app: psycopg.Connection, corpus: RetrievalCorpus,
                                                       spelling: str) -> None:
    by_text = run(app, corpus.tenant_a, query_text=spelling, retrieval_modes=["exact"], limit=50)
    by_field = run(app, corpus.tenant_a, identifiers={"product_codes": [spelling]}, retrieval_modes=["exact"],
                   limit=50)
    canonical = run(app, corpus.tenant_a, identifiers={"product_codes": ["PRD-482"]}, retrieval_modes=["exact"],
                    limit=50)
    ids = [r.chunk_id for r in canonical.results]
    assert by_text.identifiers == by_field.identifiers == ("product_code:PRD-482",)
    assert [r.chunk_id for r in by_text.results] == [r.chunk_id for r in by_field.results] == ids
    assert "manual-prd-482-p01-c01" in ids and any(r.document_type == "products" for r in canonical.results)
    assert all(r.identity_match == "chunk" and "PRD-482" in r.text for r in canonical.results)
    assert by_text.query_class == "identifier"


@pytest.mark.parametrize(
    ("field", "spellings", "canonical", "document_id"),
    [
        ("invoice_numbers", ["INV-2026-0148", "inv 2026 0148", "INV2026-0148", "inv_2026_0148"], "INV-2026-0148",
         "invoice-2026-0148"),
        ("contract_ids", ["agreement-2026-04", "AGREEMENT-2026-04", "Agreement-2026-04"], "agreement-2026-04",
         "agreement-2026-04"),
    ],
)
def test_exact_lookup_of_invoice_numbers_and_contract_ids(
    app: psycopg.Connection, corpus: RetrievalCorpus, field: str, spellings: list[str], canonical: str,
    document_id: str,
) -> None:
    results = [run(app, corpus.tenant_a, identifiers={field: [s]}, retrieval_modes=["exact"]) for s in spellings]
    first = [(r.chunk_id, r.identity_match) for r in results[0].results]
    assert first and all([(r.chunk_id, r.identity_match) for r in res.results] == first for res in results)
    assert results[0].results[0].document_id == document_id
    assert all(canonical in r.matched_identifiers[0] for r in results[0].results)


def test_exact_lookup_never_matches_a_partial_identifier(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    assert run(app, corpus.tenant_a, query_text="PRD-4821", retrieval_modes=["exact"]).results == ()
    response = run(app, corpus.tenant_a, query_text="PRD-48", retrieval_modes=["exact"])
    assert response.identifiers == () and response.results == ()


# -- BM25 ----------------------------------------------------------------------------------------------------

PARITY_QUERIES = (
    "differential pressure calibration",
    "Explain the calibration requirements for PRD-482",
    "liquidated damages late delivery",
    "warranty period months acceptance",
    "supply voltage 24 V DC",
    "ignore previous instructions",
    "invoice INV-2026-0148 Beta Supplies",
    "approved vendors sensors control modules",
    "reference standard uncertainty span",
    "termination notice calendar quarter",
)


@pytest.mark.parametrize("tenant_key", ["tenant_a", "tenant_b"])
def test_bm25_matches_rank_bm25_top_10(app: psycopg.Connection, corpus: RetrievalCorpus, tenant_key: str) -> None:
    tenant = getattr(corpus, tenant_key)
    config = Bm25Config(k1=1.2, b=0.75)
    with tenant_transaction(app, context(tenant)):
        rows = app.execute(
            "select chunk_id, chunk_text from retrieval.active_chunks order by chunk_id"
        ).fetchall()
        stats = collection_stats(app)
        mine = {
            q: bm25_search(app, Counter(analyze(q).terms), Filters(), config, depth=20, stats=stats)
            for q in PARITY_QUERIES
        }
    ids = [r[0] for r in rows]
    reference = LuceneIdfBM25([analyze(text).terms for _, text in rows], k1=config.k1, b=config.b)
    assert stats.chunk_count == len(rows) and stats.total_length == sum(reference.doc_len)
    for query in PARITY_QUERIES:
        expected = top_k(reference.get_scores(list(analyze(query).terms)), ids, 10)
        got = [(h.key.chunk_id, h.score) for h in mine[query].hits][:10]
        assert [c for c, _ in got] == [c for c, _ in expected], query
        assert [s for _, s in got] == pytest.approx([s for _, s in expected], rel=1e-9), query


def test_bm25_statistics_are_per_tenant(
    app: psycopg.Connection, admin_conn: psycopg.Connection, corpus: RetrievalCorpus, settings: Settings
) -> None:
    query = Counter(analyze("differential pressure calibration every 12 months").terms)

    def scores(tenant: str) -> tuple[object, list[tuple[str, float]]]:
        with tenant_transaction(app, context(tenant)):
            stats = collection_stats(app)
            hits = bm25_search(app, query, Filters(), Bm25Config(), depth=10, stats=stats).hits
        return stats, [(h.key.chunk_id, h.score) for h in hits]

    stats_a, before_a = scores(corpus.tenant_a)
    stats_b, before_b = scores(corpus.tenant_b)
    for tenant, stats in ((corpus.tenant_a, stats_a), (corpus.tenant_b, stats_b)):
        expected = admin_conn.execute(
            "select count(*), sum(chunk_length) from retrieval.bm25_chunks b join ingest.documents d "
            "using (tenant_id, document_id) where b.tenant_id = %s and d.active_version = b.document_version "
            "and not d.is_deleted",
            (tenant,),
        ).fetchone()
        assert (stats.chunk_count, stats.total_length) == (expected[0], expected[1])  # type: ignore[attr-defined]
    assert stats_a != stats_b
    ingest_extra_for_b(settings, corpus)
    after_stats_a, after_a = scores(corpus.tenant_a)
    after_stats_b, after_b = scores(corpus.tenant_b)
    assert (after_stats_a, after_a) == (stats_a, before_a)  # another tenant's new document changes nothing here
    assert after_stats_b.chunk_count > stats_b.chunk_count  # type: ignore[attr-defined]
    assert after_b != before_b


# -- isolation and the serving rule ------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ALL_MODES)
def test_no_branch_returns_another_tenants_chunks(
    app: psycopg.Connection, admin_conn: psycopg.Connection, corpus: RetrievalCorpus, mode: str
) -> None:
    own = tenant_chunks(admin_conn, corpus.tenant_a)
    other_passage = corpus.passage("tenant-17")
    # text, identifiers and phrasing that exist in tenant B (only B's manual says "±0.5 % of span")
    queries = [
        {"query_text": "calibration required every 6 months within ±0.5 % of span PRD-482"},
        {"query_text": other_passage["query"]},
        {"query_text": "INV-2026-0148", "identifiers": {"invoice_numbers": ["INV-2026-0148"]}},
    ]
    for request in queries:
        response = run(app, corpus.tenant_a, **request, retrieval_modes=[mode], limit=50)
        for result in response.results:
            key = (result.document_id, result.document_version, result.chunk_id)
            assert own.get(key) == result.content_hash, (mode, request, key)
            assert "±0.5 % of span" not in result.text
    assert run(app, corpus.tenant_b, query_text=other_passage["query"], retrieval_modes=[mode]).results


def test_final_authorization_check_rejects_foreign_and_changed_chunks(
    app: psycopg.Connection, admin_conn: psycopg.Connection, corpus: RetrievalCorpus
) -> None:
    own = tenant_chunks(admin_conn, corpus.tenant_a)
    other = tenant_chunks(admin_conn, corpus.tenant_b)
    mine = next(k for k in own if k[0] == "manual-prd-482")
    theirs = next(k for k in other if k[0] == "manual-prd-482")
    candidates = [
        (ChunkKey(*mine), own[mine]),
        (ChunkKey(*theirs), other[theirs]),  # B's chunk under the same document id
        (ChunkKey(*mine), "sha256:" + "0" * 64),  # same key, content that is not what the index saw
    ]
    with tenant_transaction(app, context(corpus.tenant_a)):
        allowed = authorize(app, context(corpus.tenant_a), Filters(), candidates)
        filtered = authorize(app, context(corpus.tenant_a), Filters(document_types=("invoice",)), candidates[:1])
    assert allowed == {ChunkKey(*mine)} if mine != theirs else allowed <= {ChunkKey(*mine)}
    assert filtered == set()


def test_superseded_and_deleted_versions_never_appear(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    old_clause = "warranty period is 12 months from acceptance"  # only in version 1 of the agreement
    for mode in ALL_MODES:
        response = run(app, corpus.tenant_a, query_text=f"The {old_clause}. Control cabinet assembly PRD-701 "
                       f"{AMENDED_DOCUMENT}", retrieval_modes=[mode], limit=50)
        assert response.results or mode == "exact"
        for result in response.results:
            assert result.document_id != DELETED_DOCUMENT
            assert old_clause not in result.text
            if result.document_id == AMENDED_DOCUMENT:
                assert result.document_version == 2
    exact = run(app, corpus.tenant_a, identifiers={"contract_ids": [AMENDED_DOCUMENT], "product_codes": ["PRD-701"]},
                retrieval_modes=["exact"], limit=50)
    assert {(r.document_id, r.document_version) for r in exact.results} == {(AMENDED_DOCUMENT, 2)} | {
        (r.document_id, r.document_version) for r in exact.results if r.document_type == "products"
    }
    new = run(app, corpus.tenant_a, query_text="warranty period is 18 months from acceptance",
              retrieval_modes=["bm25"])
    assert new.results[0].document_id == AMENDED_DOCUMENT and "18 months" in new.results[0].text


# -- the seed question ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tenant_key", "source"), [("tenant_a", "tenant-42"), ("tenant_b", "tenant-17")])
def test_calibration_question_returns_the_manual_clause_first_or_second(
    app: psycopg.Connection, corpus: RetrievalCorpus, tenant_key: str, source: str
) -> None:
    passage = corpus.passage(source)
    response = run(app, getattr(corpus, tenant_key), query_text=passage["query"], expand_parents=True)
    assert response.query_class == "mixed"
    top = response.results[:2]
    hits = [r for r in top if r.document_id == passage["document_id"] and r.page == passage["page"]
            and all(s.casefold() in (r.parent_section.text or "").casefold() for s in passage["must_contain"])]
    assert hits, [(r.chunk_id, r.text[:60]) for r in response.results[:5]]
    clause = hits[0]
    assert clause.parent_section.path[-1] == passage["heading"]
    assert clause.span.char_start is not None and clause.span.char_end > clause.span.char_start  # type: ignore[operator]
    assert clause.identity_match == "chunk" and "product_code:PRD-482" in clause.matched_identifiers
    assert set(clause.branches) == {"exact", "bm25", "vector"}
    assert clause.document_version == 1 and clause.content_hash.startswith("sha256:")


def test_search_needs_the_read_scope(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    with pytest.raises(SearchScopeError, match="procurement:read"):
        search(app, context(corpus.tenant_a, "invoice:aggregate"), SearchRequest(query_text="calibration"), None)


def test_filters_apply_in_every_branch(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    request = {"query_text": "calibration PRD-482", "filters": {"document_types": ["product_manual"],
                                                                "valid_at": "2025-10-01"}, "limit": 20}
    response = run(app, corpus.tenant_a, **request)
    assert response.results
    assert {r.document_type for r in response.results} == {"product_manual"}
    # manual-prd-482 (2025-09-15) and -486 (2025-08-01) are in force on 2025-10-01; -530 (2026-02-01) is not
    assert {r.document_id for r in response.results} == {"manual-prd-482", "manual-prd-486"}
    by_product = run(app, corpus.tenant_a, query_text="calibration", filters={"product_codes": ["prd 486"]},
                     limit=20)
    assert "manual-prd-486" in {r.document_id for r in by_product.results}
    assert {r.document_type for r in by_product.results} <= {"product_manual", "products"}
    assert {r.document_id for r in by_product.results if r.document_type == "product_manual"} == {"manual-prd-486"}
    only = run(app, corpus.tenant_a, query_text="calibration", filters={"document_ids": ["manual-prd-530"]})
    assert {r.document_id for r in only.results} == {"manual-prd-530"}


def test_phrase_and_company_filters_are_predicates_of_every_branch(
    app: psycopg.Connection, admin_conn: psycopg.Connection, corpus: RetrievalCorpus
) -> None:
    # Literal phrase: every result contains it (case and whitespace insensitive), including passages that
    # plain BM25 ranks far below shorter chunks with the stemmed terms (invoice lines "Monitoring controller").
    phrased = run(app, corpus.tenant_a, query_text="monitoring controllers", retrieval_modes=["bm25", "vector"],
                  filters={"phrases": ["Monitoring   CONTROLLERS"]}, limit=50)  # fmt: skip
    assert phrased.results
    for r in phrased.results:
        assert "monitoring controllers" in " ".join(r.text.lower().split()), r.chunk_id
    expected = {
        d for (d,) in admin_conn.execute(
            "select distinct document_id from retrieval.active_chunks where tenant_id = %s "
            "and regexp_replace(lower(chunk_text), '\\s+', ' ', 'g') like '%%monitoring controllers%%'",
            (corpus.tenant_a,),
        ).fetchall()
    }  # fmt: skip
    assert {r.document_id for r in phrased.results} == expected
    # A phrase is text, not a pattern: % and _ match themselves only.
    assert not run(app, corpus.tenant_a, query_text="monitoring", filters={"phrases": ["monitoring%"]}).results

    companies = dict(admin_conn.execute(
        "select distinct document_id, metadata ->> 'company_id' from retrieval.active_chunks "
        "where tenant_id = %s and metadata ? 'company_id'", (corpus.tenant_a,),
    ).fetchall())  # fmt: skip
    assert "COMP-A" in companies.values()
    scoped = run(app, corpus.tenant_a, query_text="payment terms", filters={"company_ids": ["COMP-A"]}, limit=20)
    assert scoped.results
    assert {companies.get(r.document_id) for r in scoped.results} == {"COMP-A"}


def test_reranker_off_by_default_changes_nothing(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    request = SearchRequest(query_text="how is the sensor wired to the power supply")
    plain = search(app, context(corpus.tenant_a), request, get_default_embedder())
    explicit = search(app, context(corpus.tenant_a), request, get_default_embedder(), config=RetrievalConfig(),
                      reranker=None)
    assert [r.chunk_id for r in plain.results] == [r.chunk_id for r in explicit.results]
    assert plain.results and len({r.document_id for r in plain.results}) > 1
    per_document = Counter(r.document_id for r in plain.results)
    assert max(per_document.values()) <= RetrievalConfig().per_document_cap


# -- concurrency and round trips ----------------------------------------------------------------------------


def test_bm25_on_a_second_connection_changes_nothing(
    app: psycopg.Connection, settings: Settings, corpus: RetrievalCorpus
) -> None:
    """The API runs BM25 on a second pooled connection: same results, same isolation, both scoped by the server."""
    queries = ("Explain the calibration requirements for PRD-482", "differential pressure calibration",
               "How often does the pressure sensor have to be recalibrated?")
    with psycopg.connect(settings.app_url, autocommit=True) as aux:
        for tenant in (corpus.tenant_a, corpus.tenant_b):
            for query in queries:
                request = SearchRequest(query_text=query, limit=10)
                alone = search(app, context(tenant), request, get_default_embedder())
                paired = search(app, context(tenant), request, get_default_embedder(), aux_conn=aux)
                assert [(r.chunk_id, r.branches, r.fused_score) for r in paired.results] == [
                    (r.chunk_id, r.branches, r.fused_score) for r in alone.results
                ]
                assert paired.results and all(r.document_id for r in paired.results)
                assert paired.query_embedding_ms is not None
        assert aux.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        # the second connection carries no tenant after the search
        assert aux.execute("select current_setting('app.tenant_id', true)").fetchone() in ((None,), ("",))


def test_bm25_verify_counts_only_postings_whose_integer_keys_name_their_own_chunk(settings: Settings,
                                                                                  corpus: RetrievalCorpus) -> None:
    """Scoring groups postings by chunk_key and keeps active versions by doc_key (migration 0022); a posting
    whose key names another chunk would score that chunk, so verification must not count it."""
    writer = Bm25Writer()
    ref = VersionRef(corpus.tenant_a, "manual-prd-482", 1)
    with psycopg.connect(settings.owner_url) as owner:
        owner.execute("select set_config('app.tenant_id', %s, true)", (corpus.tenant_a,))
        intact = writer.verify(owner, ref)
        moved = owner.execute(
            "update retrieval.bm25_postings set chunk_key = (select max(chunk_key) from retrieval.bm25_chunks) "
            "where ctid = (select ctid from retrieval.bm25_postings where tenant_id = %s and document_id = %s "
            "and document_version = %s limit 1)",
            (ref.tenant_id, ref.document_id, ref.document_version),
        ).rowcount
        drifted = writer.verify(owner, ref)
        owner.rollback()
    assert intact.counts[POSTINGS] > 100 and moved == 1
    assert drifted.counts[POSTINGS] == intact.counts[POSTINGS] - 1
    assert drifted.checksum != intact.checksum


def test_exact_unfiltered_statement_reads_few_chunks_but_returns_what_the_full_join_returns(
        app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    """Without a filter, the exact branch joins only the match groups that can reach the first ``depth`` rows to
    their chunks; a filter that admits every document type takes the full join. Every cut must agree."""
    identifiers = (("product_code", "PRD-482"), ("product_code", "PRD-701"), ("contract_id", AMENDED_DOCUMENT))
    everything = Filters(document_types=tuple(get_args(DocumentType)))
    with tenant_transaction(app, context(corpus.tenant_a)):
        full = exact_search(app, identifiers, everything, depth=500)
        assert len(full.hits) >= 8 and len({h.key.document_id for h in full.hits}) >= 4 and not full.truncated
        for depth in range(1, len(full.hits) + 1):
            narrow = exact_search(app, identifiers, Filters(), depth=depth)
            wide = exact_search(app, identifiers, everything, depth=depth)
            assert narrow.hits == wide.hits == full.hits[:depth], depth
            assert narrow.truncated == wide.truncated == (depth < len(full.hits)), depth


def test_ingestion_vacuums_the_postings_it_wrote_so_bm25_reads_the_index_alone(
        settings: Settings, corpus: RetrievalCorpus, tmp_path: Path) -> None:
    """BM25 reads the postings' primary key alone; rows inserted since the last vacuum are not all-visible and
    cost a heap visit each. A run that wrote postings vacuums them; a run that wrote nothing does not."""
    tenant = unique_tenant("rv")
    target = tmp_path / "tenants" / tenant / "manuals"
    target.mkdir(parents=True)
    shutil.copyfile(corpus.source / "tenants" / "tenant-42" / "manuals" / "manual-prd-530.md",
                    target / "manual-prd-530.md")
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        first = ingest_path(owner, tmp_path, embedder=get_default_embedder(), writers=[Bm25Writer()])
        pages, visible = owner.execute(
            "select relpages, relallvisible from pg_class where oid = 'retrieval.bm25_postings'::regclass"
        ).fetchone() or (0, 0)
        again = ingest_path(owner, tmp_path, embedder=get_default_embedder(), writers=[Bm25Writer()])
    assert first.published == 1 and first.writer_counts["bm25"][POSTINGS] > 100
    assert first.vacuumed == (POSTINGS,)
    assert pages > 0 and visible >= 0.9 * pages, (pages, visible)
    assert again.published == 0 and again.vacuumed == ()
