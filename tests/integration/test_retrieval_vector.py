"""The vector branch on the real database: filtered HNSW returns k, exact fallback, config check, the API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from psycopg import sql
from psycopg_pool import ConnectionPool

from api.deps import get_pool, get_principal
from api.main import procura_error_handler
from api.routes.search import router
from ingest import ingest_path
from ingest.embedder import get_default_embedder
from ingest.errors import IngestError
from ingest.pipeline import IngestOptions
from ingest.vector_index import (
    build_lock_key,
    ensure_tenant_index,
    ensure_type_indexes,
    fitted_lists,
    fitted_type_lists,
    index_key,
    tenant_index_name,
    tenant_indexes,
    type_index_name,
)
from procura.auth import Principal
from procura.db.session import tenant_transaction
from procura.errors import ProcuraError
from procura.settings import Settings
from retrieval.config import VectorConfig
from retrieval.errors import IndexConfigMismatchError
from retrieval.filters import filter_sql
from retrieval.models import Filters
from retrieval.vector import (
    PATH_CHOICES,
    TYPE_LAYOUTS,
    apply_scan_settings,
    check_embedding_config,
    compose_query,
    ensure_vector_type,
    index_params,
    split_types,
    typed_param,
    typed_statement,
    vector_search,
)
from tests.conftest import unique_tenant
from tests.integration.test_retrieval_support import (
    AMENDED_DOCUMENT,
    DELETED_DOCUMENT,
    RetrievalCorpus,
    app,
    context,
    corpus,
)

pytestmark = pytest.mark.integration
__all__ = ["app", "corpus"]  # fixtures imported for pytest

MANUALS = Filters(document_types=("product_manual",))


def _eligible(conn: psycopg.Connection, filters: Filters) -> int:
    row = conn.execute(
        "select count(*) from retrieval.active_embeddings where document_type = any(%s)",
        (list(filters.document_types),),
    ).fetchone()
    return int(row[0]) if row else 0


def test_filtered_hnsw_returns_k_when_k_exist(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    embedder = get_default_embedder()
    query = embedder.embed_query("how to calibrate the sensor against a reference")
    narrow = VectorConfig(ef_search=10, iterative_scan="relaxed_order", exact_threshold=0)
    with tenant_transaction(app, context(corpus.tenant_a)):
        config_id = check_embedding_config(app, embedder).embedding_config_id
        eligible = _eligible(app, MANUALS)
        k = min(30, eligible)
        tenant = corpus.tenant_a
        hnsw = vector_search(app, query, config_id, MANUALS, narrow, tenant_id=tenant, depth=k, force_path="hnsw")
        exact = vector_search(app, query, config_id, MANUALS, narrow, tenant_id=tenant, depth=k, force_path="exact")
        auto_small = vector_search(app, query, config_id, MANUALS, VectorConfig(), tenant_id=corpus.tenant_a,
                                   depth=k)
        auto_large = vector_search(app, query, config_id, MANUALS, narrow, tenant_id=corpus.tenant_a, depth=k)
        everything = vector_search(app, query, config_id, Filters(), narrow, tenant_id=corpus.tenant_a,
                                   depth=eligible + 50,
                                   force_path="hnsw")
    assert k > narrow.ef_search  # more rows than one HNSW candidate list holds
    assert len(hnsw.hits) == len(exact.hits) == k
    assert auto_small.path == "exact" and len(auto_small.hits) == k
    assert auto_large.path == "hnsw" and len(auto_large.hits) == k
    top_exact = {h.key for h in exact.hits[:10]}
    recall = len(top_exact & {h.key for h in hnsw.hits[:10]}) / 10
    assert recall >= 0.9
    assert [h.score for h in hnsw.hits] == sorted((h.score for h in hnsw.hits), reverse=True)
    assert len(everything.hits) > eligible  # unfiltered: the tenant's other chunks too, still only its own


def test_a_remembered_path_choice_sends_that_path_alone_with_the_same_rows(app: psycopg.Connection,
                                                                             corpus: RetrievalCorpus) -> None:
    embedder = get_default_embedder()
    query = embedder.embed_query("how to calibrate the sensor against a reference")
    PATH_CHOICES.clear()
    for config in (VectorConfig(exact_threshold=0), VectorConfig()):  # a large set (HNSW), a small one (exact)
        with tenant_transaction(app, context(corpus.tenant_a)):
            config_id = check_embedding_config(app, embedder).embedding_config_id
            chosen = vector_search(app, query, config_id, MANUALS, config, tenant_id=corpus.tenant_a, depth=10)
            remembered = len(PATH_CHOICES)
            again = vector_search(app, query, config_id, MANUALS, config, tenant_id=corpus.tenant_a, depth=10)
            forced = vector_search(app, query, config_id, MANUALS, config, tenant_id=corpus.tenant_a, depth=10,
                                   force_path=chosen.path)
        assert remembered >= 1  # the first search's choice, which the second one used
        assert again.path == chosen.path and [h.key for h in again.hits] == [h.key for h in forced.hits]
        assert len(again.hits) == 10
    # the other tenant's searches read their own choice: its own rows only, whatever was remembered
    with tenant_transaction(app, context(corpus.tenant_b)):
        config_id = check_embedding_config(app, embedder).embedding_config_id
        other = vector_search(app, query, config_id, MANUALS, VectorConfig(), tenant_id=corpus.tenant_b, depth=10)
        exact = vector_search(app, query, config_id, MANUALS, VectorConfig(), tenant_id=corpus.tenant_b, depth=10,
                              force_path="exact")
    assert [h.key for h in other.hits] == [h.key for h in exact.hits]


def _plan_nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("Plans", ()):
        yield from _plan_nodes(child)


def _hnsw_plan(conn: psycopg.Connection, scope: str, tenant_id: str, config: VectorConfig, depth: int, *,
               analyze: bool = False) -> list[dict[str, Any]]:
    """The plan nodes of the vector branch's HNSW statement for ``tenant_id`` inside ``scope``'s transaction."""
    ensure_vector_type(conn)
    where = filter_sql(Filters(), "x")
    with tenant_transaction(conn, context(scope)):
        config_id = check_embedding_config(conn, get_default_embedder()).embedding_config_id
        apply_scan_settings(conn, config)
        # the test corpus is small enough for a sequential scan and a sort: make the planner choose an index order
        conn.execute("select set_config('enable_seqscan', 'off', true), set_config('enable_sort', 'off', true)")
        params = {"q": get_default_embedder().embed_query("calibration interval"), "config_id": config_id,
                  "tenant_id": tenant_id, "depth": depth, "fetch": depth * config.overfetch, "path": "hnsw",
                  **index_params(tenant_id), **where.params}  # fmt: skip
        explain = "explain (analyze, format json) " if analyze else "explain (format json) "
        row = conn.execute(sql.SQL(explain) + compose_query(where, "hnsw"), params).fetchone()
    assert row is not None
    return list(_plan_nodes(row[0][0]["Plan"]))


def test_hnsw_overfetch_is_read_and_resorted(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    # A relaxed_order scan is over-fetched and re-sorted. If the planner took the over-fetched subquery as
    # already ordered by distance (an incremental sort on a presorted key), it would read only about depth rows
    # from the scan and keep the scan's approximate order: the inner limit must read all of them.
    depth, config = 5, VectorConfig(ef_search=40, iterative_scan="relaxed_order", overfetch=4, exact_threshold=0)
    with tenant_transaction(app, context(corpus.tenant_a)):
        eligible = app.execute("select count(*) from retrieval.active_embeddings").fetchone()
    assert eligible is not None and eligible[0] > depth * config.overfetch
    nodes = _hnsw_plan(app, corpus.tenant_a, corpus.tenant_a, config, depth, analyze=True)
    assert any(n.get("Index Name") == "embeddings_hnsw" for n in nodes)
    assert not any("Presorted Key" in n for n in nodes)
    assert depth * config.overfetch in [n["Actual Rows"] for n in nodes if n["Node Type"] == "Limit"]


def _hnsw_index_scanned(conn: psycopg.Connection, scope: str, tenant_id: str) -> list[str]:
    """The HNSW indexes the vector branch's HNSW statement scans for ``tenant_id`` inside ``scope``'s transaction."""
    # analyzed: the statement plans both the tenant's own index and the shared one, and runs one of them
    nodes = _hnsw_plan(conn, scope, tenant_id, VectorConfig(ef_search=40, exact_threshold=0), depth=5, analyze=True)
    return [n["Index Name"] for n in nodes
            if n.get("Index Name", "").startswith("embeddings_hnsw") and n.get("Actual Loops", 0) > 0]


def test_a_tenant_with_its_own_index_is_searched_through_it(app: psycopg.Connection, corpus: RetrievalCorpus,
                                                          settings: Settings) -> None:
    tenant, other = corpus.tenant_b, corpus.tenant_a
    name = tenant_index_name(tenant, "hnsw")
    embedder = get_default_embedder()
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        try:
            assert ensure_tenant_index(owner, tenant, min_vectors=10**9, method="hnsw") is None  # too small
            assert tenant not in tenant_indexes(owner)
            with psycopg.connect(settings.owner_url, autocommit=True) as builder:
                # another session holds the build lock: this one leaves the index to it
                builder.execute("select pg_advisory_lock(%s)", (build_lock_key(name),))
                busy = ensure_tenant_index(owner, tenant, min_vectors=1, method="hnsw")
                # released here, not by closing: a closed client's backend can hold the lock a moment longer
                builder.execute("select pg_advisory_unlock(%s)", (build_lock_key(name),))
            assert busy is not None and not busy.created and busy.error == "another session is building this index"
            assert tenant not in tenant_indexes(owner)
            built = ensure_tenant_index(owner, tenant, min_vectors=1, method="hnsw")
            assert built is not None and built.created and built.name == name and built.vectors > 0
            again = ensure_tenant_index(owner, tenant, min_vectors=1, method="hnsw")
            assert again is not None and not again.created
            assert tenant_indexes(owner)[tenant] == name

            assert _hnsw_index_scanned(app, tenant, tenant) == [name]
            assert _hnsw_index_scanned(app, other, other) == ["embeddings_hnsw"]  # no index of its own
            query = embedder.embed_query("how to calibrate the sensor against a reference")
            with tenant_transaction(app, context(tenant)):
                config_id = check_embedding_config(app, embedder).embedding_config_id
                narrow = VectorConfig(ef_search=40, exact_threshold=0)
                own = vector_search(app, query, config_id, Filters(), narrow, tenant_id=tenant, depth=10,
                                    force_path="hnsw")
                exact = vector_search(app, query, config_id, Filters(), narrow, tenant_id=tenant, depth=10,
                                      force_path="exact")
                # the tenant value only picks an index: row-level security still decides what is visible
                foreign = vector_search(app, query, config_id, Filters(), narrow, tenant_id=other, depth=10,
                                        force_path="hnsw")
            assert len(own.hits) == 10 and [h.key for h in own.hits] == [h.key for h in exact.hits]
            assert foreign.hits == ()
            # Every search must plan with the tenant as a constant: a prepared statement (psycopg prepares one after
            # five runs) may switch to a generic plan, which cannot prove the partial index's predicate.
            with tenant_transaction(app, context(tenant)):
                for _ in range(12):
                    vector_search(app, query, config_id, Filters(), narrow, tenant_id=tenant, depth=10,
                                  force_path="hnsw")
                    vector_search(app, query, config_id, Filters(), narrow, tenant_id=tenant, depth=10)
                prepared = app.execute(
                    "select count(*) from pg_prepared_statements where statement like '%%active_embeddings%%'"
                ).fetchone()
            assert prepared == (0,)
        finally:
            owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(name)))


def test_ingestion_builds_the_index_of_a_tenant_past_the_threshold(corpus: RetrievalCorpus,
                                                                   settings: Settings) -> None:
    tenant = unique_tenant("vi")
    target = corpus.root.parent / "vector-index" / "tenants" / tenant / "manuals"
    target.mkdir(parents=True)
    (target / "manual-prd-482.md").write_bytes((corpus.source / "tenants" / "tenant-42" / "manuals" /
                                                "manual-prd-482.md").read_bytes())
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        try:
            small = ingest_path(owner, target.parent.parent.parent, embedder=get_default_embedder(),
                                options=IngestOptions(tenant_index_min_vectors=10**9))
            assert small.published == 1 and small.tenant_indexes == ()
            assert tenant not in tenant_indexes(owner)
            # every vector is written with its tenant's opaque index key, before any index exists
            keyed = owner.execute("select count(*), count(*) filter (where index_key = %s) from ingest.embeddings "
                                  "where tenant_id = %s", (index_key(tenant), tenant)).fetchone()
            assert keyed is not None and keyed[0] > 0 and keyed[0] == keyed[1]
            report = ingest_path(owner, target.parent.parent.parent, embedder=get_default_embedder(),
                                 options=IngestOptions(tenant_index_min_vectors=1))
            assert report.skipped == 1  # nothing new to publish, but the tenant is past the threshold
            assert [(i.tenant_id, i.name) for i in report.tenant_indexes] == [(tenant, tenant_index_name(tenant))]
            assert tenant_indexes(owner)[tenant] == tenant_index_name(tenant)
            with pytest.raises(IngestError, match="tenant_id 'Not A Tenant'"):
                ensure_tenant_index(owner, "Not A Tenant")
        finally:
            owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(tenant_index_name(tenant))))


def test_small_filtered_set_uses_exact_search(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    embedder = get_default_embedder()
    one_manual = Filters(document_ids=("manual-prd-530",))
    with tenant_transaction(app, context(corpus.tenant_a)):
        config_id = check_embedding_config(app, embedder).embedding_config_id
        size = app.execute(
            "select count(*) from retrieval.active_embeddings where document_id = 'manual-prd-530'"
        ).fetchone()[0]  # type: ignore[index]
        result = vector_search(app, embedder.embed_query("wiring"), config_id, one_manual, VectorConfig(),
                               tenant_id=corpus.tenant_a, depth=size + 10)
    assert result.path == "exact"
    assert len(result.hits) == size and {h.key.document_id for h in result.hits} == {"manual-prd-530"}


def test_query_embedder_must_match_the_active_config(app: psycopg.Connection, corpus: RetrievalCorpus) -> None:
    unnormalized = get_default_embedder(normalize=False)
    with tenant_transaction(app, context(corpus.tenant_a)), pytest.raises(IndexConfigMismatchError,
                                                                           match="normalization"):
        check_embedding_config(app, unnormalized)


@pytest.fixture
def client(settings: Settings, corpus: RetrievalCorpus) -> Iterator[tuple[TestClient, dict[str, Principal]]]:
    principals = {
        "reader": Principal(context(corpus.tenant_a), "k-reader", 600),
        "aggregator": Principal(context(corpus.tenant_a, "invoice:aggregate"), "k-agg", 600),
    }
    current = {"principal": principals["reader"]}
    app = FastAPI()
    app.include_router(router)
    app.add_exception_handler(ProcuraError, procura_error_handler)  # the app's mapping of retrieval's errors
    pool = ConnectionPool(settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True)
    # the API's real dependency functions need app.state from create_app; the principal stands in for a key
    app.dependency_overrides[get_pool] = lambda: pool
    app.dependency_overrides[get_principal] = lambda: current["principal"]
    app.state.embedder = get_default_embedder()
    try:
        with TestClient(app) as test_client:
            yield test_client, {**principals, "_current": current}  # type: ignore[dict-item]
    finally:
        pool.close()


def test_api_search(client: tuple[TestClient, dict[str, object]], corpus: RetrievalCorpus) -> None:
    http, principals = client
    ok = http.post("/v1/search", json={"query_text": "Explain the calibration requirements for PRD-482",
                                       "identifiers": {"product_codes": ["prd 482"]}, "limit": 5})
    assert ok.status_code == 200, ok.text
    body = ok.json()
    assert body["query_class"] == "mixed" and len(body["results"]) == 5
    first = body["results"][0]
    assert {"chunk_id", "text", "document_id", "document_version", "page", "span", "parent_section", "branches",
            "fused_score"} <= set(first)
    bad = http.post("/v1/search", json={"query_text": "x", "identifiers": {"product_codes": ["PRD"]}})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"][-2:] == ["identifiers", "product_codes"]
    smuggled = http.post("/v1/search", json={"query_text": "x", "tenant_id": corpus.tenant_b})
    assert smuggled.status_code == 422 and "tenant_id" in smuggled.text
    empty = http.post("/v1/search", json={"retrieval_modes": ["vector"]})
    assert empty.status_code == 422 and "query_text" in empty.text
    principals["_current"]["principal"] = principals["aggregator"]  # type: ignore[index]
    forbidden = http.post("/v1/search", json={"query_text": "calibration"})
    assert forbidden.status_code == 403 and forbidden.json()["error"]["code"] == "missing_scope"


def _ivf_plan_indexes(conn: psycopg.Connection, tenant: str, config: VectorConfig, filters: Filters) -> list[str]:
    """The indexes the service statement's plan names for ``tenant`` (the gates pick the branch that runs)."""
    where = filter_sql(filters, "x")
    embedder = get_default_embedder()
    ensure_vector_type(conn)
    with tenant_transaction(conn, context(tenant)):
        # the test tenant has a few dozen chunks, where sorting them all is cheaper than any index: without
        # sequential scans and sorts the plan shows which index the statement can use (partial predicate and halfvec
        # expression matched)
        conn.execute("set local enable_seqscan = off")
        conn.execute("set local enable_sort = off")
        config_id = check_embedding_config(conn, embedder).embedding_config_id
        params = {"q": embedder.embed_query("calibration"), "tenant_id": tenant, "config_id": config_id, "depth": 5,
                  "fetch": 20, "cap": config.exact_threshold + 1, "threshold": config.exact_threshold,
                  **index_params(tenant), **where.params}
        row = conn.execute(sql.SQL("explain (analyze, format json) ") + compose_query(where, None), params,
                           prepare=False).fetchone()
    assert row is not None
    return [n["Index Name"] for n in _plan_nodes(row[0][0]["Plan"])
            if n.get("Index Name", "").startswith("embeddings_") and n.get("Actual Loops", 0) > 0]


def test_access_path_follows_the_filtered_set_size_and_the_tenants_ivf_index(
    app: psycopg.Connection, corpus: RetrievalCorpus, settings: Settings
) -> None:
    tenant = corpus.tenant_b
    name = tenant_index_name(tenant)
    embedder = get_default_embedder()
    query = embedder.embed_query("how to calibrate the sensor against a reference")
    manuals = Filters(document_types=("product_manual",))
    with tenant_transaction(app, context(tenant)):
        row = app.execute("select count(*) from retrieval.active_embeddings").fetchone()
        everything, only_manuals = (row[0] if row else 0), _eligible(app, manuals)
    assert everything > only_manuals > 10
    # the manuals are a small set, the whole tenant is not; the choice is read on every search (the index appears)
    between = VectorConfig(exact_threshold=only_manuals, path_cache_seconds=0)

    def search(config: VectorConfig, filters: Filters, force: str | None = None) -> Any:
        with tenant_transaction(app, context(tenant)):
            config_id = check_embedding_config(app, embedder).embedding_config_id
            return vector_search(app, query, config_id, filters, config, tenant_id=tenant, depth=10,
                                 force_path=force)

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        try:
            # no index of its own yet: large sets go to HNSW, small ones are searched exactly
            assert search(between, Filters()).path == "hnsw"
            assert search(between, manuals).path == "exact"
            built = ensure_tenant_index(owner, tenant, min_vectors=1)
            assert built is not None and built.created and built.name == name and built.method == "ivfflat"
            assert built.lists == fitted_lists(built.vectors)
            assert tenant_indexes(owner)[tenant] == name
            comment = owner.execute("select obj_description(%s::regclass, 'pg_class')", (f"ingest.{name}",)).fetchone()
            assert comment == (f"vectors={built.vectors} lists={built.lists}",)

            assert search(between, Filters()).path == "ivf"
            assert search(between, manuals).path == "exact"
            assert name in _ivf_plan_indexes(app, tenant, between, Filters())
            assert name not in _ivf_plan_indexes(app, tenant, between, manuals)
            assert search(VectorConfig(exact_threshold=0), manuals).path == "ivf"
            # all lists probed: the IVFFlat path returns exactly the exact search's rows
            full = VectorConfig(exact_threshold=0, ivf_probe_fraction=1.0)
            ivf, exact = search(full, Filters(), "ivf"), search(full, Filters(), "exact")
            assert len(ivf.hits) == 10 and [h.key for h in ivf.hits] == [h.key for h in exact.hits]
            # the type filter is applied inside the IVFFlat scan
            filtered = search(VectorConfig(exact_threshold=0, ivf_probe_fraction=1.0), manuals)
            assert filtered.path == "ivf" and [h.key for h in filtered.hits] == [
                h.key for h in search(full, manuals, "exact").hits]
            # a tenant that grew past REFIT_GROWTH since the build gets a refitted index (same name)
            owner.execute(sql.SQL("comment on index ingest.{} is {}").format(
                sql.Identifier(name), sql.Literal(f"vectors=1 lists={built.lists}")))
            refit = ensure_tenant_index(owner, tenant, min_vectors=1)
            assert refit is not None and refit.created and refit.name == name
            assert tenant_indexes(owner)[tenant] == name
            assert search(between, Filters()).path == "ivf"
        finally:
            owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(name)))
            owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(f"{name}_next")))


RECALL_QUERIES = ("how to calibrate the sensor against a reference", "payment terms and late payment interest",
                  "Incoterms delivery and freight", "warranty period for spare parts", "rebate tiers by volume",
                  "firmware update procedure", "liability cap and indemnification", "storage temperature range")


def test_small_document_types_are_searched_exactly_beside_the_index(
    app: psycopg.Connection, corpus: RetrievalCorpus, settings: Settings
) -> None:
    tenant = corpus.tenant_a
    name = tenant_index_name(tenant)
    embedder = get_default_embedder()
    with tenant_transaction(app, context(tenant)):
        counts: dict[str, int] = dict(app.execute("select document_type, count(*) from retrieval.active_embeddings "
                                  "group by 1 order by 2").fetchall())
        assert len(counts) >= 2
        smallest, size = next(iter(counts.items()))
        of_smallest = {r[0] for r in app.execute("select distinct document_id from retrieval.active_embeddings "
                                                 "where document_type = %s", (smallest,)).fetchall()}

    def search(config: VectorConfig, text: str, force: str | None = None) -> Any:
        with tenant_transaction(app, context(tenant)):
            config_id = check_embedding_config(app, embedder).embedding_config_id
            return vector_search(app, embedder.embed_query(text), config_id, Filters(), config, tenant_id=tenant,
                                 depth=10, force_path=force)

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        try:
            built = ensure_tenant_index(owner, tenant, min_vectors=1)
            assert built is not None and built.created
            with tenant_transaction(app, context(tenant)):
                config_id = check_embedding_config(app, embedder).embedding_config_id
                assert split_types(app, tenant, config_id, VectorConfig(split_max_vectors=size,
                                                                        path_cache_seconds=0)) == (smallest,)
                assert split_types(app, tenant, config_id, VectorConfig(split_max_vectors=size - 1,
                                                                        path_cache_seconds=0)) == ()
                assert split_types(app, tenant, config_id, VectorConfig(split_max_vectors=0)) == ()
            # one list probed and no iterative scan: the index part is poor, yet every chunk of the small type
            # that belongs in the exact top 10 is found, because that type is searched exactly
            narrow = VectorConfig(exact_threshold=0, ivf_probe_fraction=0.01, ivf_max_probe_fraction=0.01,
                                  iterative_scan="off", split_max_vectors=size, path_cache_seconds=0)
            default = VectorConfig(exact_threshold=0, path_cache_seconds=0)
            recalls, small_found = [], 0
            for text in RECALL_QUERIES:
                exact = search(narrow, text, "exact")
                got = search(narrow, text)
                assert got.path == "ivf" and len(got.hits) == 10
                small = {h.key for h in exact.hits if h.key.document_id in of_smallest}
                assert small <= {h.key for h in got.hits}
                small_found += len(small)
                # the default configuration: recall@10 against exact search on this small tenant
                served = search(default, text)
                assert served.path == "ivf"
                recalls.append(len({h.key for h in served.hits} & {h.key for h in exact.hits}) / 10)
            assert small_found > 0, counts  # the check above was not vacuous
            assert sum(recalls) / len(recalls) >= 0.98, recalls
        finally:
            owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(name)))


def test_document_types_with_indexes_of_their_own_are_searched_through_them(
    app: psycopg.Connection, corpus: RetrievalCorpus, settings: Settings
) -> None:
    tenant = corpus.tenant_a
    embedder = get_default_embedder()
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        # the insert trigger (migration 0320) copied each row's document type, before any index build
        untyped = owner.execute(
            "select count(*) from ingest.embeddings e join ingest.documents d on d.tenant_id = e.tenant_id "
            "and d.document_id = e.document_id where e.tenant_id = %s and e.index_type is distinct from "
            "d.document_type", (tenant,)).fetchone()
        assert untyped == (0,)
        # a copy gone stale (a document's type changed with a new version) is set right by the builder
        owner.execute("update ingest.embeddings set index_type = null where tenant_id = %s and document_id = %s",
                      (tenant, AMENDED_DOCUMENT))
        assert ensure_type_indexes(owner, tenant, min_vectors=10**9) == ()  # no type is that large
        assert owner.execute("select count(*) from ingest.embeddings where tenant_id = %s and index_type is null",
                             (tenant,)).fetchone() == (0,)
        counts = dict(owner.execute("select document_type, count(*) from retrieval.active_embeddings "
                                    "where tenant_id = %s group by 1", (tenant,)).fetchall())
        names = [type_index_name(tenant, t) for t in sorted(counts)]
        assert len(set(names)) == len(counts) >= 2 and all(tenant not in n for n in names)
        try:
            built = ensure_type_indexes(owner, tenant, min_vectors=1)
            assert [(i.document_type, i.name, i.created, i.lists) for i in built] == [
                (t, type_index_name(tenant, t), True, fitted_type_lists(counts[t])) for t in sorted(counts)]
            again = ensure_type_indexes(owner, tenant, min_vectors=1)
            assert [i.created for i in again] == [False] * len(counts)
            TYPE_LAYOUTS.clear()

            def search(config: VectorConfig, filters: Filters, force: str | None = None) -> Any:
                with tenant_transaction(app, context(tenant)):
                    config_id = check_embedding_config(app, embedder).embedding_config_id
                    found = vector_search(app, embedder.embed_query("calibration of the pressure sensor"),
                                          config_id, filters, config, tenant_id=tenant, depth=10, force_path=force)
                    # the settings the typed statement changed are back for the transaction's later statements
                    assert app.execute("select current_setting('enable_sort'), current_setting('plan_cache_mode')"
                                       ).fetchone() == ("on", "auto")
                    return found

            everything = VectorConfig(exact_threshold=0, path_cache_seconds=0, type_probe_fraction=1.0)
            for filters in (Filters(), MANUALS):
                typed, exact = search(everything, filters), search(everything, filters, "exact")
                assert typed.path == "ivf_type" and len(typed.hits) == 10
                # every list probed: the per-type indexes return exactly the exact search's rows
                assert [h.key for h in typed.hits] == [h.key for h in exact.hits]
                assert not any(h.key.document_id == DELETED_DOCUMENT for h in typed.hits)
            # remembered choices send the typed statement alone, with the same rows
            remembered = VectorConfig(exact_threshold=0, type_probe_fraction=1.0)
            PATH_CHOICES.clear()
            first, second = search(remembered, Filters()), search(remembered, Filters())
            assert first.path == second.path == "ivf_type" and first.hits == second.hits
            # ... prepared, by its generic plan (which still probes each type's own index), with the same rows
            third = search(remembered, Filters())
            assert third.hits == first.hits
            generic = app.execute("select sum(generic_plans), sum(custom_plans) from pg_prepared_statements "
                                  "where statement like %s", (f"%index_key = {index_key(tenant)}::bigint%",)).fetchone()
            assert generic is not None and generic[0] >= 2 and generic[1] == 0, generic
            assert set(_typed_generic_plan_indexes(app, tenant, Filters(), tuple(sorted(counts)))) == set(names)
            unprepared = VectorConfig(exact_threshold=0, type_probe_fraction=1.0, generic_plan=False)
            assert search(unprepared, Filters()).hits == first.hits
            # the plan prepared for this tenant's statement, run on the same connection in another tenant's
            # scope (the tenant id and key of this tenant, as a forged call would state them), returns nothing
            with tenant_transaction(app, context(corpus.tenant_b)):
                config_id = check_embedding_config(app, embedder).embedding_config_id
                smuggled = vector_search(app, embedder.embed_query("calibration of the pressure sensor"), config_id,
                                         Filters(), remembered, tenant_id=tenant, depth=10)
            assert smuggled.hits == () and smuggled.path.startswith("ivf_type"), smuggled.path
            # small filtered sets are still searched exactly; the tenant-wide index path is kept when forced
            assert search(VectorConfig(path_cache_seconds=0), MANUALS).path == "exact"
            assert search(everything, MANUALS, "hnsw").path == "hnsw"
            # the statement's plan probes each type's own index
            plan = _typed_plan_indexes(app, tenant, Filters(), tuple(sorted(counts)))
            assert set(plan) == set(names), plan
        finally:
            for name in names:
                owner.execute(sql.SQL("drop index if exists ingest.{}").format(sql.Identifier(name)))
            TYPE_LAYOUTS.clear()
            PATH_CHOICES.clear()


def _typed_plan_indexes(conn: psycopg.Connection, tenant: str, filters: Filters, typed: tuple[str, ...]) -> list[str]:
    """The indexes the typed statement's plan scans for ``tenant`` (see :func:`_ivf_plan_indexes`)."""
    where = filter_sql(filters, "x")
    embedder = get_default_embedder()
    with tenant_transaction(conn, context(tenant)):
        conn.execute("set local enable_seqscan = off")
        conn.execute("set local enable_sort = off")
        config_id = check_embedding_config(conn, embedder).embedding_config_id
        params = {"q": embedder.embed_query("calibration"), "tenant_id": tenant, "config_id": config_id, "depth": 5,
                  "fetch": 20, "path": "ivf_type", "typed_types": list(typed),
                  **{typed_param(i): t for i, t in enumerate(typed)}, **index_params(tenant), **where.params}
        row = conn.execute(sql.SQL("explain (analyze, format json) ") + compose_query(where, "ivf_type", typed),
                           params, prepare=False).fetchone()
    assert row is not None
    return [n["Index Name"] for n in _plan_nodes(row[0][0]["Plan"])
            if n.get("Index Name", "").startswith("embeddings_ivt_") and n.get("Actual Loops", 0) > 0]


def _typed_generic_plan_indexes(conn: psycopg.Connection, tenant: str, filters: Filters,
                                typed: tuple[str, ...]) -> list[str]:
    """The indexes the generic plan of the prepared typed statement (:func:`typed_statement`) scans for
    ``tenant``, under the settings the service runs it with (``EXPLAIN (GENERIC_PLAN)``: parameters stay $n)."""
    where = filter_sql(filters, "x")
    with tenant_transaction(conn, context(tenant)):
        conn.execute("set local enable_seqscan = off")
        conn.execute("set local enable_sort = off")
        text = typed_statement(where, typed, tenant).as_string(conn)
        names: dict[str, int] = {}
        text = re.sub(r"%\((\w+)\)s", lambda m: f"${names.setdefault(m.group(1), len(names) + 1)}", text)
        row = conn.execute(f"explain (generic_plan, format json) {text}", prepare=False).fetchone()  # type: ignore[call-overload]
    assert row is not None
    return [n["Index Name"] for n in _plan_nodes(row[0][0]["Plan"])
            if n.get("Index Name", "").startswith("embeddings_ivt_")]
