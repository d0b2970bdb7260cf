-- The document registry of the versioned ingestion pipeline. A document's rows in every store carry its
-- document_version; only the version that documents.active_version points to is served, so publishing a
-- version (or deleting a document) is one atomic UPDATE of this table.
create sequence ingest.ingest_seq;

create table ingest.documents (
    tenant_id        text        not null,
    document_id      text        not null,
    document_type    text        not null,
    source_uri       text        not null,
    active_version   integer,
    is_deleted       boolean     not null default false,
    ingest_seq       bigint      not null default nextval('ingest.ingest_seq'),
    first_ingested_at timestamptz not null default now(),
    updated_at       timestamptz not null default now(),
    primary key (tenant_id, document_id),
    constraint documents_type_check check (document_type in (
        'companies', 'suppliers', 'product_groups', 'products', 'fx_rates',
        'agreement', 'product_manual', 'invoice', 'credit_note'))
);

create table ingest.document_versions (
    tenant_id                 text        not null,
    document_id               text        not null,
    document_version          integer     not null check (document_version > 0),
    content_hash              text        not null check (content_hash ~ '^sha256:[0-9a-f]{64}$'),
    status                    text        not null default 'staged'
        check (status in ('staged', 'published', 'superseded', 'deleted')),
    original_content          bytea       not null,
    parser_version            text        not null,
    chunker_version           text,
    extraction_version        text,
    embedding_model           text,
    embedding_revision        text,
    embedding_dimension       integer,
    embedding_normalized      boolean,
    graph_schema_version      text,
    relational_schema_version text        not null,
    expected_counts           jsonb       not null default '{}'::jsonb,
    checksums                 jsonb       not null default '{}'::jsonb,
    created_at                timestamptz not null default now(),
    published_at              timestamptz,
    primary key (tenant_id, document_id, document_version),
    foreign key (tenant_id, document_id) references ingest.documents (tenant_id, document_id),
    unique (tenant_id, document_id, content_hash)
);

create table ingest.dead_letters (
    dead_letter_id   bigint generated always as identity primary key,
    tenant_id        text        not null,
    source_uri       text        not null,
    document_id      text,
    document_version integer,
    stage            text        not null,
    error_class      text        not null,
    error_message    text        not null,
    attempts         integer     not null check (attempts > 0),
    payload          bytea,
    first_failed_at  timestamptz not null default now(),
    last_failed_at   timestamptz not null default now(),
    resolved_at      timestamptz
);

-- Landing batches that failed a Great Expectations suite: excluded from the marts until fixed.
create table ingest.quarantine (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    suite_name       text        not null,
    expectation      text        not null,
    details          jsonb       not null,
    quarantined_at   timestamptz not null default now(),
    released_at      timestamptz,
    primary key (tenant_id, document_id, document_version, suite_name, expectation)
);

call app.apply_tenant_isolation('ingest.documents');
call app.apply_tenant_isolation('ingest.document_versions');
call app.apply_tenant_isolation('ingest.dead_letters');
call app.apply_tenant_isolation('ingest.quarantine');

grant select on ingest.documents, ingest.document_versions to procura_app;
