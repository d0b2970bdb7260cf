-- Per-(tenant, document type) vector indexes (ingest/vector_index.py).
--
-- A tenant's own IVFFlat index holds every document type; a search filtered on one type, or a type whose
-- neighbours sit among another type's chunks, then reads cells of the other types and drops their rows after
-- the scan. A partial index per (tenant, type) holds only that type's vectors, so the scan reads nothing it
-- discards. A partial index's predicate can only name columns of its own table, and the type is a column of
-- ingest.documents: each embedding row carries a copy of its document's type, `index_type`, set on insert by
-- the trigger below and kept right by the index builder (a document's type may change with a new version).
-- The search still filters on the document's own type (retrieval.active_embeddings.document_type), so a stale
-- copy can make a row missing from one search, never a row of another type returned.
alter table ingest.embeddings add column if not exists index_type text;

create or replace function ingest.embedding_index_type() returns trigger
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
    if new.index_type is null then
        select d.document_type into new.index_type
        from ingest.documents d
        where d.tenant_id = new.tenant_id and d.document_id = new.document_id;
    end if;
    return new;
end
$$;

drop trigger if exists embeddings_index_type on ingest.embeddings;
create trigger embeddings_index_type before insert on ingest.embeddings
    for each row execute function ingest.embedding_index_type();

-- the type copy as a new last column (create or replace keeps the others)
create or replace view retrieval.active_embeddings with (security_invoker = true) as
select
    e.tenant_id,
    e.document_id,
    e.document_version,
    d.document_type,
    e.chunk_id,
    e.embedding_config_id,
    e.embedding,
    e.index_key,
    e.index_type
from ingest.embeddings e
join ingest.embedding_configs cfg
  on cfg.embedding_config_id = e.embedding_config_id
 and cfg.is_active
join ingest.documents d
  on d.tenant_id = e.tenant_id
 and d.document_id = e.document_id
 and d.active_version = e.document_version
where not d.is_deleted;
