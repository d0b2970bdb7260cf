-- Text stores of the versioned ingestion pipeline: chunks, exact-match identifiers and embeddings, plus the
-- embedding configurations. Every row carries (tenant_id, document_id, document_version); the serving rule
-- (a row is visible only when its version is the document's active version and the document is not deleted)
-- is written once, in the security_invoker views of the `retrieval` schema, so that retrieval code and dbt
-- never re-implement it. RLS on the base tables applies through those views to the serving roles.

-- A document version is identified by its content AND the configuration that derived its rows (parser,
-- chunker, extractor, schema and writer versions): the same content re-derived by a newer chunker is a new
-- version, published atomically like any other, instead of an in-place rewrite readers could observe.
alter table ingest.document_versions
    add column config_fingerprint text not null default 'unversioned';
alter table ingest.document_versions
    drop constraint document_versions_tenant_id_document_id_content_hash_key;
alter table ingest.document_versions
    add constraint document_versions_content_config_key
    unique (tenant_id, document_id, content_hash, config_fingerprint);

-- Embedding configurations are a deployment setting, not tenant data: one row per (model, revision, dimension,
-- normalization, similarity, prompts). Exactly one is active; vectors of different configs are never compared.
create table ingest.embedding_configs (
    embedding_config_id text        primary key check (embedding_config_id ~ '^[a-z0-9][a-z0-9._@-]{0,99}$'),
    model               text        not null,
    revision            text        not null,
    dimension           integer     not null check (dimension > 0),
    normalization       text        not null check (normalization in ('l2', 'none')),
    similarity          text        not null check (similarity in ('cosine', 'inner_product', 'l2')),
    document_prompt     text        not null default '',
    query_prompt        text        not null default '',
    is_active           boolean     not null default false,
    created_at          timestamptz not null default now(),
    activated_at        timestamptz
);
create unique index embedding_configs_one_active on ingest.embedding_configs (is_active) where is_active;

-- Switching the active config is one transaction: readers see the old or the new config, never none or two.
create or replace function ingest.activate_embedding_config(config_id text) returns void
    language plpgsql
    as $$
begin
    if not exists (select from ingest.embedding_configs where embedding_config_id = config_id) then
        raise exception 'unknown embedding config %', config_id using errcode = 'no_data_found';
    end if;
    update ingest.embedding_configs set is_active = false where is_active and embedding_config_id <> config_id;
    update ingest.embedding_configs
       set is_active = true, activated_at = now()
     where embedding_config_id = config_id and not is_active;
end
$$;

create table ingest.chunks (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    chunk_id         text        not null,
    ordinal          integer     not null check (ordinal > 0),
    parent_id        text,
    page             integer     not null check (page > 0),
    char_start       integer,
    char_end         integer,
    section_path     text[]      not null default '{}',
    chunk_kind       text        not null,
    chunk_text       text        not null,
    content_hash     text        not null check (content_hash ~ '^sha256:[0-9a-f]{64}$'),
    metadata         jsonb       not null default '{}'::jsonb,
    -- lexical branch: english stemming for BM25-style ranking; identifiers go to ingest.identifiers instead
    chunk_tsv        tsvector    generated always as (to_tsvector('english'::regconfig, chunk_text)) stored,
    created_at       timestamptz not null default now(),
    primary key (tenant_id, document_id, document_version, chunk_id),
    foreign key (tenant_id, document_id, document_version)
        references ingest.document_versions (tenant_id, document_id, document_version),
    check (char_start is null or (char_start >= 0 and char_end > char_start))
);
create unique index chunks_chunk_id on ingest.chunks (tenant_id, chunk_id, document_version);
create index chunks_tsv on ingest.chunks using gin (chunk_tsv);

create table ingest.identifiers (
    tenant_id        text    not null,
    document_id      text    not null,
    document_version integer not null,
    -- null: a document-level identifier (front matter), not tied to one chunk
    chunk_id         text,
    identifier_type  text    not null check (identifier_type in (
        'product_code', 'invoice_number', 'supplier_id', 'company_id', 'product_group_id', 'contract_id')),
    identifier_value text    not null,
    raw              text    not null,
    constraint identifiers_key unique nulls not distinct
        (tenant_id, document_id, document_version, chunk_id, identifier_type, identifier_value),
    foreign key (tenant_id, document_id, document_version)
        references ingest.document_versions (tenant_id, document_id, document_version),
    foreign key (tenant_id, document_id, document_version, chunk_id)
        references ingest.chunks (tenant_id, document_id, document_version, chunk_id) on delete cascade
);
create index identifiers_lookup on ingest.identifiers (tenant_id, identifier_type, identifier_value);

create table ingest.embeddings (
    tenant_id           text      not null,
    document_id         text      not null,
    document_version    integer   not null,
    chunk_id            text      not null,
    embedding_config_id text      not null references ingest.embedding_configs (embedding_config_id),
    -- hash of the exact embedder input (title + section path + text): equal inputs reuse one vector
    input_hash          text      not null,
    embedding           vector(384) not null,
    primary key (tenant_id, chunk_id, document_version, embedding_config_id),
    foreign key (tenant_id, document_id, document_version, chunk_id)
        references ingest.chunks (tenant_id, document_id, document_version, chunk_id) on delete cascade
);
create index embeddings_document on ingest.embeddings (tenant_id, document_id, document_version);
create index embeddings_input on ingest.embeddings (tenant_id, embedding_config_id, input_hash);
create index embeddings_hnsw on ingest.embeddings using hnsw (embedding vector_cosine_ops);

call app.apply_tenant_isolation('ingest.chunks');
call app.apply_tenant_isolation('ingest.identifiers');
call app.apply_tenant_isolation('ingest.embeddings');

-- The same normalization as ingest.normalize.normalize_supplier_name (casefold, punctuation to spaces,
-- collapse whitespace, drop trailing legal forms), for SQL readers that need it; a test keeps the two equal.
create or replace function ingest.normalize_supplier_name(name text) returns text
    language sql immutable parallel safe
    as $$
    select nullif(trim(regexp_replace(
        trim(regexp_replace(regexp_replace(lower(name), '[^[:alnum:]]+', ' ', 'g'), '\s+', ' ', 'g')),
        '( (gmbh|mbh|ag|kg|kgaa|ug|ohg|se|ltd|limited|plc|llp|llc|inc|incorporated|corp|corporation|co|company|sa|sas|sarl|srl|spa|bv|nv|oy|ab|as|aps))+$',
        '', 'g')), '')
$$;

-- The serving rule, once. security_invoker: the caller's privileges and RLS apply, so procura_app sees only
-- its tenant's rows, and only rows of active, non-deleted versions.
create view ingest.active_documents with (security_invoker = true) as
select
    d.tenant_id,
    d.document_id,
    d.document_type,
    d.active_version as document_version,
    v.content_hash,
    v.config_fingerprint,
    d.source_uri,
    d.ingest_seq,
    v.published_at
from ingest.documents d
join ingest.document_versions v
  on v.tenant_id = d.tenant_id
 and v.document_id = d.document_id
 and v.document_version = d.active_version
where d.active_version is not null
  and not d.is_deleted;

create schema if not exists retrieval authorization procura_owner;

create view retrieval.active_chunks with (security_invoker = true) as
select
    c.tenant_id,
    c.document_id,
    c.document_version,
    d.document_type,
    c.chunk_id,
    c.ordinal,
    c.parent_id,
    c.page,
    c.char_start,
    c.char_end,
    c.section_path,
    c.chunk_kind,
    c.chunk_text,
    c.content_hash,
    c.metadata,
    c.chunk_tsv
from ingest.chunks c
join ingest.documents d
  on d.tenant_id = c.tenant_id
 and d.document_id = c.document_id
 and d.active_version = c.document_version
where not d.is_deleted;

create view retrieval.active_identifiers with (security_invoker = true) as
select
    i.tenant_id,
    i.document_id,
    i.document_version,
    d.document_type,
    i.chunk_id,
    i.identifier_type,
    i.identifier_value,
    i.raw
from ingest.identifiers i
join ingest.documents d
  on d.tenant_id = i.tenant_id
 and d.document_id = i.document_id
 and d.active_version = i.document_version
where not d.is_deleted;

-- Only vectors of the active embedding config: a query embedded with another config must not be compared.
create view retrieval.active_embeddings with (security_invoker = true) as
select
    e.tenant_id,
    e.document_id,
    e.document_version,
    d.document_type,
    e.chunk_id,
    e.embedding_config_id,
    e.embedding
from ingest.embeddings e
join ingest.embedding_configs cfg
  on cfg.embedding_config_id = e.embedding_config_id
 and cfg.is_active
join ingest.documents d
  on d.tenant_id = e.tenant_id
 and d.document_id = e.document_id
 and d.active_version = e.document_version
where not d.is_deleted;

grant usage on schema retrieval to procura_app;
grant select on ingest.chunks, ingest.identifiers, ingest.embeddings, ingest.embedding_configs to procura_app;
grant select on ingest.active_documents to procura_app;
grant select on retrieval.active_chunks, retrieval.active_identifiers, retrieval.active_embeddings to procura_app;
grant execute on function ingest.normalize_supplier_name(text) to procura_app, procura_bi;
