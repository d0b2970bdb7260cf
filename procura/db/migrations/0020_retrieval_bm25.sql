-- BM25 inside Postgres: an inverted index of analyzed terms per chunk (postings), the chunk lengths, and one row
-- per indexed document version carrying its contribution to the collection statistics. All three are written
-- by the BM25 writer (retrieval/bm25_writer.py) under the document version, like every derived store, so the
-- serving rule (only the active, non-deleted version) applies through the security_invoker views below and
-- RLS scopes every row to its tenant: a tenant's N, average chunk length and document frequencies are computed
-- from its own active rows only, and another tenant's documents can never change its scores.

create table retrieval.bm25_documents (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    -- the analyzer that produced the terms; queries refuse to mix two analyzers
    analyzer         text        not null,
    chunk_count      integer     not null check (chunk_count >= 0),
    total_length     bigint      not null check (total_length >= 0),
    created_at       timestamptz not null default now(),
    primary key (tenant_id, document_id, document_version),
    foreign key (tenant_id, document_id, document_version)
        references ingest.document_versions (tenant_id, document_id, document_version)
);

create table retrieval.bm25_chunks (
    tenant_id        text    not null,
    document_id      text    not null,
    document_version integer not null,
    chunk_id         text    not null,
    chunk_length     integer not null check (chunk_length >= 0),
    primary key (tenant_id, document_id, document_version, chunk_id),
    foreign key (tenant_id, document_id, document_version, chunk_id)
        references ingest.chunks (tenant_id, document_id, document_version, chunk_id) on delete cascade
);

-- Design note: no foreign key from postings to chunks. A document version has hundreds of postings per chunk and
-- a per-row RI check would dominate ingestion; the writer deletes postings with the version (purge, delete) and
-- the views only ever serve postings of active versions.
create table retrieval.bm25_postings (
    tenant_id        text    not null,
    term             text    not null,
    document_id      text    not null,
    document_version integer not null,
    chunk_id         text    not null,
    tf               integer not null check (tf > 0),
    -- denormalized from bm25_chunks so that scoring reads one index and no join
    chunk_length     integer not null check (chunk_length > 0),
    primary key (tenant_id, term, document_id, document_version, chunk_id) include (tf, chunk_length)
);
create index bm25_postings_version on retrieval.bm25_postings (tenant_id, document_id, document_version);

call app.apply_tenant_isolation('retrieval.bm25_documents');
call app.apply_tenant_isolation('retrieval.bm25_chunks');
call app.apply_tenant_isolation('retrieval.bm25_postings');

-- The serving rule, joined like migration 0005's views: only rows of the active version of a non-deleted document.
create view retrieval.active_bm25_documents with (security_invoker = true) as
select
    b.tenant_id,
    b.document_id,
    b.document_version,
    d.document_type,
    b.analyzer,
    b.chunk_count,
    b.total_length
from retrieval.bm25_documents b
join ingest.documents d
  on d.tenant_id = b.tenant_id
 and d.document_id = b.document_id
 and d.active_version = b.document_version
where not d.is_deleted;

create view retrieval.active_bm25_chunks with (security_invoker = true) as
select
    c.tenant_id,
    c.document_id,
    c.document_version,
    d.document_type,
    c.chunk_id,
    c.chunk_length
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
    p.chunk_length
from retrieval.bm25_postings p
join ingest.documents d
  on d.tenant_id = p.tenant_id
 and d.document_id = p.document_id
 and d.active_version = p.document_version
where not d.is_deleted;

-- Collection statistics per tenant and analyzer (N = chunk_count, avgdl = avg_chunk_length). Through RLS a
-- serving role only ever sees its own tenant's row.
create view retrieval.bm25_collection_stats with (security_invoker = true) as
select
    tenant_id,
    analyzer,
    sum(chunk_count)::bigint as chunk_count,
    sum(total_length)::bigint as total_length,
    sum(total_length)::float8 / nullif(sum(chunk_count), 0) as avg_chunk_length
from retrieval.active_bm25_documents
group by tenant_id, analyzer;

-- Document frequency of every term (number of active chunks containing it), per tenant.
create view retrieval.bm25_term_stats with (security_invoker = true) as
select tenant_id, term, count(*)::bigint as document_frequency
from retrieval.active_bm25_postings
group by tenant_id, term;

-- The date from which a chunk's document is in force, for the valid_at filter of every branch: the front
-- matter's effective_date (agreements, manuals) or the invoice date; null for undated master data.
create function retrieval.valid_from(metadata jsonb) returns date
    language sql immutable parallel safe
    as $$ select coalesce((metadata ->> 'effective_date')::date, (metadata ->> 'invoice_date')::date) $$;

grant select on retrieval.bm25_documents, retrieval.bm25_chunks, retrieval.bm25_postings to procura_app;
grant select on retrieval.active_bm25_documents, retrieval.active_bm25_chunks, retrieval.active_bm25_postings,
    retrieval.bm25_collection_stats, retrieval.bm25_term_stats to procura_app;
grant execute on function retrieval.valid_from(jsonb) to procura_app;
