-- The knowledge graph's relational side: the registry of tenant graphs, the review queue for extraction output
-- that does not conform to the graph schema, and the reviewable alias overrides of entity resolution.
-- The graphs themselves (one AGE graph per tenant, named tg_<tenant>) are created by graph.age.ensure_graph,
-- which also grants procura_app USAGE on the graph schema and SELECT on its label tables, nothing more.
create schema if not exists graph authorization procura_owner;
grant usage on schema graph to procura_app;

create table graph.tenant_graphs (
    tenant_id            text        not null primary key,
    graph_name           text        not null unique check (graph_name ~ '^tg_[a-z0-9_]{1,60}$'),
    graph_schema_version text        not null,
    created_at           timestamptz not null default now(),
    last_synced_at       timestamptz,
    last_sync            jsonb       not null default '{}'::jsonb
);

-- Candidates rejected by the controlled schema (VENDOR_OF, wrong endpoint types, missing properties, unresolved
-- or conflicting entities). They are never written to the graph; a reviewer decides.
create table graph.review_queue (
    review_id          bigint      generated always as identity primary key,
    tenant_id          text        not null,
    document_id        text        not null,
    document_version   integer     not null,
    item_kind          text        not null check (item_kind in ('entity', 'relationship')),
    item_key           text        not null,
    reason             text        not null,
    field              text,
    message            text        not null,
    candidate          jsonb       not null,
    provenance         jsonb       not null,
    extraction_version text        not null,
    status             text        not null default 'pending' check (status in ('pending', 'accepted', 'dismissed')),
    created_at         timestamptz not null default now(),
    reviewed_at        timestamptz,
    reviewed_by        text,
    unique (tenant_id, document_id, document_version, item_key, reason)
);

-- Reviewable additions to the alias table of entity resolution (landing.supplier_aliases comes from the
-- master data): a reviewer maps a normalized spelling to a canonical id; only 'approved' rows are used.
create table graph.alias_overrides (
    tenant_id        text        not null,
    entity_type      text        not null check (entity_type in ('Supplier', 'Company')),
    alias_normalized text        not null check (alias_normalized <> ''),
    canonical_id     text        not null,
    status           text        not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
    note             text,
    created_at       timestamptz not null default now(),
    reviewed_at      timestamptz,
    reviewed_by      text,
    primary key (tenant_id, entity_type, alias_normalized)
);

call app.apply_tenant_isolation('graph.tenant_graphs');
call app.apply_tenant_isolation('graph.review_queue');
call app.apply_tenant_isolation('graph.alias_overrides');

grant select on graph.tenant_graphs, graph.review_queue, graph.alias_overrides to procura_app;
