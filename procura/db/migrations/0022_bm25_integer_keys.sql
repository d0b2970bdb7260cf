-- BM25 scoring reads every posting of the query terms, keeps those of active versions and sums them per chunk.
-- On text keys both steps hash (document_id, document_version, chunk_id) once per posting, which was most of the
-- statement's time for common terms (20,500 postings: about 30 ms of 40). Integer keys make both an int8 hash:
-- doc_key names a document version, chunk_key a chunk of one; the text keys stay for the writer's verify and purge.
-- On the 100k-chunk benchmark the 20 benchmark queries returned the same top 40 with p50 / p95 12.0 / 38.8 ms
-- before and 9.4 / 26.3 ms after (same run, alternating statements).
--
-- The backfill must see every tenant's rows, and FORCE ROW LEVEL SECURITY applies to the owner this runs as:
-- forcing is lifted inside this transaction only and restored before it commits.

alter table retrieval.bm25_documents no force row level security;
alter table retrieval.bm25_chunks no force row level security;
alter table retrieval.bm25_postings no force row level security;

alter table retrieval.bm25_documents add column doc_key bigint generated always as identity;
alter table retrieval.bm25_documents add constraint bm25_documents_doc_key unique (doc_key);

alter table retrieval.bm25_chunks add column chunk_key bigint generated always as identity;
alter table retrieval.bm25_chunks add constraint bm25_chunks_chunk_key unique (chunk_key);

drop view retrieval.bm25_term_stats;
drop view retrieval.active_bm25_postings;

create table retrieval.bm25_postings_keyed (
    tenant_id        text    not null,
    term             text    not null,
    document_id      text    not null,
    document_version integer not null,
    chunk_id         text    not null,
    -- retrieval.bm25_documents.doc_key and retrieval.bm25_chunks.chunk_key of the posting's version and chunk
    doc_key          bigint  not null,
    chunk_key        bigint  not null,
    tf               integer not null check (tf > 0),
    chunk_length     integer not null check (chunk_length > 0)
);

insert into retrieval.bm25_postings_keyed
select p.tenant_id, p.term, p.document_id, p.document_version, p.chunk_id, d.doc_key, c.chunk_key, p.tf,
       p.chunk_length
from retrieval.bm25_postings p
join retrieval.bm25_chunks c
  on c.tenant_id = p.tenant_id and c.document_id = p.document_id and c.document_version = p.document_version
 and c.chunk_id = p.chunk_id
join retrieval.bm25_documents d
  on d.tenant_id = p.tenant_id and d.document_id = p.document_id and d.document_version = p.document_version;

-- every posting belongs to a chunk row the writer wrote with it; a posting without one would be lost here
do $$
begin
    if (select count(*) from retrieval.bm25_postings) <> (select count(*) from retrieval.bm25_postings_keyed) then
        raise exception 'bm25 postings without a chunk or version row; not migrated';
    end if;
end
$$;

drop table retrieval.bm25_postings;
alter table retrieval.bm25_postings_keyed rename to bm25_postings;

-- scoring reads only this index (index-only): the query terms' postings of the tenant, in chunk order
alter table retrieval.bm25_postings
    add constraint bm25_postings_pkey primary key (tenant_id, term, chunk_key) include (doc_key, tf, chunk_length);
create index bm25_postings_version on retrieval.bm25_postings (tenant_id, document_id, document_version);
analyze retrieval.bm25_postings;

call app.apply_tenant_isolation('retrieval.bm25_postings');
alter table retrieval.bm25_documents force row level security;
alter table retrieval.bm25_chunks force row level security;

-- the serving rule of migration 0020, now also naming the integer keys (new columns go last)
create or replace view retrieval.active_bm25_documents with (security_invoker = true) as
select
    b.tenant_id,
    b.document_id,
    b.document_version,
    d.document_type,
    b.analyzer,
    b.chunk_count,
    b.total_length,
    b.doc_key
from retrieval.bm25_documents b
join ingest.documents d
  on d.tenant_id = b.tenant_id
 and d.document_id = b.document_id
 and d.active_version = b.document_version
where not d.is_deleted;

create or replace view retrieval.active_bm25_chunks with (security_invoker = true) as
select
    c.tenant_id,
    c.document_id,
    c.document_version,
    d.document_type,
    c.chunk_id,
    c.chunk_length,
    c.chunk_key
from retrieval.bm25_chunks c
join ingest.documents d
  on d.tenant_id = c.tenant_id
 and d.document_id = c.document_id
 and d.active_version = c.document_version
where not d.is_deleted;

create view retrieval.active_bm25_postings with (security_invoker = true) as
select
    p.tenant_id,
    p.term,
    p.document_id,
    p.document_version,
    d.document_type,
    p.chunk_id,
    p.tf,
    p.chunk_length,
    p.doc_key,
    p.chunk_key
from retrieval.bm25_postings p
join ingest.documents d
  on d.tenant_id = p.tenant_id
 and d.document_id = p.document_id
 and d.active_version = p.document_version
where not d.is_deleted;

create view retrieval.bm25_term_stats with (security_invoker = true) as
select tenant_id, term, count(*)::bigint as document_frequency
from retrieval.active_bm25_postings
group by tenant_id, term;

grant select on retrieval.bm25_postings to procura_app;
grant select on retrieval.active_bm25_postings, retrieval.bm25_term_stats to procura_app;
