-- Landing tables: validated, typed rows exactly as parsed from one document version. Every row carries its
-- provenance (document_id, document_version, content_hash, ingested_at); staging serves only rows of the
-- active, non-deleted, non-quarantined version of each document.

create table landing.companies (
    tenant_id          text        not null,
    document_id        text        not null,
    document_version   integer     not null,
    content_hash       text        not null,
    ingested_at        timestamptz not null default now(),
    company_id         text        not null,
    company_name       text        not null,
    reporting_currency text        not null,
    primary key (tenant_id, document_id, document_version, company_id)
);

create table landing.suppliers (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    content_hash     text        not null,
    ingested_at      timestamptz not null default now(),
    supplier_id      text        not null,
    supplier_name    text        not null,
    country          text,
    contact_email    text,
    iban             text,
    primary key (tenant_id, document_id, document_version, supplier_id)
);

create table landing.supplier_aliases (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    content_hash     text        not null,
    ingested_at      timestamptz not null default now(),
    supplier_id      text        not null,
    alias            text        not null,
    alias_normalized text        not null,
    primary key (tenant_id, document_id, document_version, alias_normalized)
);

create table landing.product_groups (
    tenant_id        text        not null,
    document_id      text        not null,
    document_version integer     not null,
    content_hash     text        not null,
    ingested_at      timestamptz not null default now(),
    product_group_id text        not null,
    group_name       text        not null,
    parent_group_id  text,
    primary key (tenant_id, document_id, document_version, product_group_id)
);

create table landing.products (
    tenant_id        text           not null,
    document_id      text           not null,
    document_version integer        not null,
    content_hash     text           not null,
    ingested_at      timestamptz    not null default now(),
    product_code     text           not null,
    product_name     text           not null,
    product_group_id text           not null,
    supplier_id      text           not null,
    unit_of_measure  text           not null,
    list_price       numeric(18, 4) not null,
    currency         text           not null,
    primary key (tenant_id, document_id, document_version, product_code)
);

create table landing.fx_rates (
    tenant_id        text           not null,
    document_id      text           not null,
    document_version integer        not null,
    content_hash     text           not null,
    ingested_at      timestamptz    not null default now(),
    rate_date        date           not null,
    from_currency    text           not null,
    to_currency      text           not null,
    rate_type        text           not null,
    rate             numeric(18, 8) not null,
    primary key (tenant_id, document_id, document_version, rate_date, from_currency, to_currency, rate_type)
);

-- Approvals are extracted from agreements (the approved-vendor table), with the chunk they came from.
create table landing.vendor_approvals (
    tenant_id          text        not null,
    document_id        text        not null,
    document_version   integer     not null,
    content_hash       text        not null,
    ingested_at        timestamptz not null default now(),
    approval_id        text        not null,
    agreement_id       text        not null,
    company_id         text        not null,
    supplier_id        text        not null,
    supplier_name      text        not null,
    scope              text,
    valid_from         date        not null,
    valid_to           date,
    page_number        integer,
    chunk_id           text,
    extraction_version text        not null,
    primary key (tenant_id, document_id, document_version, approval_id),
    check (valid_to is null or valid_to > valid_from)
);

create table landing.invoice_headers (
    tenant_id               text           not null,
    document_id             text           not null,
    document_version        integer        not null,
    content_hash            text           not null,
    ingested_at             timestamptz    not null default now(),
    business_hash           text           not null,
    source_system           text           not null,
    document_type           text           not null,
    invoice_number          text           not null,
    company_id              text           not null,
    supplier_name           text           not null,
    status                  text           not null,
    invoice_date            date           not null,
    posting_date            date           not null,
    currency                text           not null,
    tax_level               text           not null,
    header_tax_amount       numeric(18, 2) not null,
    original_invoice_number text,
    primary key (tenant_id, document_id, document_version)
);

create table landing.invoice_lines (
    tenant_id        text           not null,
    document_id      text           not null,
    document_version integer        not null,
    content_hash     text           not null,
    ingested_at      timestamptz    not null default now(),
    line_id          text           not null,
    line_number      integer        not null,
    product_code     text           not null,
    description      text,
    quantity         numeric(18, 4) not null,
    unit_price       numeric(18, 4) not null,
    discount_amount  numeric(18, 2) not null,
    line_net_amount  numeric(18, 2) not null,
    line_tax_amount  numeric(18, 2),
    primary key (tenant_id, document_id, document_version, line_number),
    foreign key (tenant_id, document_id, document_version)
        references landing.invoice_headers (tenant_id, document_id, document_version) on delete cascade
);

create index invoice_headers_business_key on landing.invoice_headers (tenant_id, company_id, invoice_number);

call app.apply_tenant_isolation('landing.companies');
call app.apply_tenant_isolation('landing.suppliers');
call app.apply_tenant_isolation('landing.supplier_aliases');
call app.apply_tenant_isolation('landing.product_groups');
call app.apply_tenant_isolation('landing.products');
call app.apply_tenant_isolation('landing.fx_rates');
call app.apply_tenant_isolation('landing.vendor_approvals');
call app.apply_tenant_isolation('landing.invoice_headers');
call app.apply_tenant_isolation('landing.invoice_lines');
