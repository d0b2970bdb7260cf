-- Versions only move forward. Each version records the order its source states (an explicit revision,
-- updated_at, or an agreement's effective date; NULL when the format has none), so ingestion can refuse content
-- that is older than the active version instead of publishing it over a newer one.
alter table ingest.document_versions add column source_revision text;

-- The explicit, audited ways to change what ingestion would not: moving a document back to an older version
-- (rollback) and giving a document another source path (move). One row per command; never updated.
create table ingest.registry_events (
    event_id         bigint      generated always as identity primary key,
    tenant_id        text        not null,
    document_id      text        not null,
    action           text        not null check (action in ('rollback', 'move')),
    from_version     integer,
    to_version       integer,
    from_source      text,
    to_source        text,
    actor            text        not null,
    reason           text        not null check (length(reason) between 1 and 1000),
    occurred_at      timestamptz not null default now(),
    foreign key (tenant_id, document_id) references ingest.documents (tenant_id, document_id)
);

create index registry_events_document on ingest.registry_events (tenant_id, document_id, occurred_at);

call app.apply_tenant_isolation('ingest.registry_events');
