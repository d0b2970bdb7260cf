-- Per-tenant vector indexes without tenant ids in the catalog (ingest/vector_index.py).
--
-- A per-tenant partial index was named after its tenant and filtered on `tenant_id = '<tenant>'`, and pg_indexes
-- is readable by every role. The index now filters on an opaque per-tenant key instead: a keyed hash of the
-- tenant id under the server secret, computed by the application (procura.keyed), so the number in the catalog
-- cannot be traced back to a tenant without the key. Ingestion writes the key with every embedding row
-- (ingest/stores.py); the index builder fills it on rows written before this migration.
alter table ingest.embeddings add column if not exists index_key bigint;

-- the vector branch states the key of the tenant's own index (a new last column: the view keeps its others)
create or replace view retrieval.active_embeddings with (security_invoker = true) as
select
    e.tenant_id,
    e.document_id,
    e.document_version,
    d.document_type,
    e.chunk_id,
    e.embedding_config_id,
    e.embedding,
    e.index_key
from ingest.embeddings e
join ingest.embedding_configs cfg
  on cfg.embedding_config_id = e.embedding_config_id
 and cfg.is_active
join ingest.documents d
  on d.tenant_id = e.tenant_id
 and d.document_id = e.document_id
 and d.active_version = e.document_version
where not d.is_deleted;

-- Per-tenant indexes named after and filtered on their tenant: dropped. The next ingestion run builds them again
-- under their opaque names (searches use the shared index or exact search meanwhile).
do $$
declare
    r record;
begin
    for r in
        select c.relname from pg_catalog.pg_index i
        join pg_catalog.pg_class c on c.oid = i.indexrelid
        where i.indrelid = 'ingest.embeddings'::regclass and i.indpred is not null
          and pg_catalog.pg_get_expr(i.indpred, i.indrelid) like '%tenant_id%'
    loop
        execute format('drop index ingest.%I', r.relname);
    end loop;
end
$$;
