-- Other names of product groups (e.g. German ones) from catalog/product_groups.json's "synonyms", one row per
-- group, language and name, landed with the product-groups document version like supplier aliases are, so that
-- dbt serves them (dim_product_group_synonyms) and entity resolution can match a group by any of its names.
-- Idempotent: a database that already has the table keeps it.

create table if not exists landing.product_group_synonyms (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    content_hash     text        not null,
    ingested_at      timestamptz not null default now(),
    product_group_id text        not null,
    language         text        not null check (language ~ '^[a-z]{2}$'),
    synonym          text        not null,
    primary key (tenant_id, document_id, document_version, product_group_id, language, synonym)
);

call app.apply_tenant_isolation('landing.product_group_synonyms');
