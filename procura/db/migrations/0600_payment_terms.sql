-- Payment terms are extracted from agreements ("Payment is due 30 days net ..."), one row per agreement
-- version, with the clause, the sentence and the chunk they came from. Every version keeps its row: a new
-- version (an amendment) replaces the term from its own effective date, and dbt (marts.payment_terms) turns
-- the versions into half-open validity ranges, so the term in force on any day stays answerable.
-- Idempotent: a database that already has the table keeps it.

create table if not exists landing.payment_terms (
    tenant_id          text        not null,
    document_id        text        not null,
    document_version   integer     not null,
    content_hash       text        not null,
    ingested_at        timestamptz not null default now(),
    agreement_id       text        not null,
    company_id         text        not null,
    effective_date     date        not null,
    term_days          integer     not null check (term_days between 0 and 366),
    clause             text,
    sentence           text        not null,
    page_number        integer,
    chunk_id           text,
    extraction_version text        not null,
    primary key (tenant_id, document_id, document_version)
);

call app.apply_tenant_isolation('landing.payment_terms');
