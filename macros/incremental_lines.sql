{#-
    Incremental build of validated_invoice_lines by published document version.

    A line's row depends on its own document version, on the tenant's master data (companies, suppliers and
    aliases, products and groups, FX rates) and, through the replicated-duplicate flag, on the other documents
    with the same business key. An incremental run therefore rebuilds, per tenant, the invoice documents that
    are *affected*:
      * changed: served in a version the mart does not hold (new, new version, released from quarantine), or
        held in a version that is no longer served (superseded, tombstoned, deleted, quarantined);
      * their siblings: documents sharing a changed document's business key (company, supplier, document type,
        invoice number) as it is now or as the mart held it, whose duplicate flag may flip;
      * every document of a tenant whose served master-data versions differ from those the last build saw
        (recorded in intermediate.validated_invoice_lines_build_state, in the same transaction as the mart).
    The affected documents' rows are deleted and their current lines inserted; a document that no longer has
    valid lines simply gets none. Changing the dbt vars (fx_rate_type, supplier_legal_forms) needs
    `--full-refresh`.

    Locks: the run only deletes and inserts rows (ROW EXCLUSIVE), so metric queries keep reading the previous
    rows until it commits. Nothing here alters the table: procura_owner has BYPASSRLS, so the forced policy
    does not hide rows from the build, and the marts post-hooks (policy, statistics) are skipped on an
    incremental run because the table keeps them; an ALTER TABLE would take an ACCESS EXCLUSIVE lock and block
    every reader until the build commits.
-#}


{% macro lines_build_state_table() -%}
    intermediate.validated_invoice_lines_build_state
{%- endmacro %}

{#- Tenant-scoped like every table (forced row-level security, the tenant policy): the build runs as the owner,
    which bypasses it; anybody else reads only the tenant bound to the transaction. No lock once applied. -#}
{% macro ensure_lines_build_state() -%}
    create table if not exists {{ lines_build_state_table() }} (
        tenant_id text not null,
        document_id text not null,
        document_version integer not null,
        primary key (tenant_id, document_id)
    );
    call app.apply_tenant_isolation('{{ lines_build_state_table() }}')
{%- endmacro %}

{#- The master-data document versions the mart was built from, replaced in the mart's transaction. -#}
{% macro record_lines_build_state() -%}
    {{ ensure_lines_build_state() }};
    delete from {{ lines_build_state_table() }};
    insert into {{ lines_build_state_table() }} (tenant_id, document_id, document_version)
    select tenant_id, document_id, document_version
    from {{ ref('stg_served_document_versions') }}
    where document_type not in ('invoice', 'credit_note', 'agreement', 'product_manual')
{%- endmacro %}

{#- The documents the mart holds lines of, at the version it holds and with the business key it held (the
    change detection's "held" side). Kept beside the mart in the mart's own transaction, so an incremental run
    compares 250k documents instead of reading the distinct documents of every line. A table created here on a
    mart that already has rows (an upgrade) is seeded from the mart once. -#}
{% macro lines_documents_table() -%}
    intermediate.validated_invoice_lines_documents
{%- endmacro %}

{#- The per-document state of the lines mart (tenant-scoped, so under forced RLS like every table). -#}
{% macro create_lines_documents_table() -%}
    create table if not exists {{ lines_documents_table() }} (
        tenant_id text not null,
        document_id text not null,
        document_version integer not null,
        company_id text,
        invoice_number text,
        primary key (tenant_id, document_id)
    );
    call app.apply_tenant_isolation('{{ lines_documents_table() }}');
{%- endmacro %}

{% macro ensure_lines_documents() -%}
    {{ create_lines_documents_table() }}
    insert into {{ lines_documents_table() }} (tenant_id, document_id, document_version, company_id, invoice_number)
    select distinct on (tenant_id, source_document_id)
           tenant_id, source_document_id, source_document_version, company_id, invoice_number
    from {{ this }}
    where not exists (select 1 from {{ lines_documents_table() }})
    order by tenant_id, source_document_id
{%- endmacro %}

{#- After a full build: the documents of every row. After an incremental run: those of the rebuilt documents. -#}
{% macro record_lines_documents() -%}
    {{ create_lines_documents_table() }}
    {% if is_incremental() -%}
    insert into {{ lines_documents_table() }} (tenant_id, document_id, document_version, company_id, invoice_number)
    select distinct on (t.tenant_id, t.source_document_id)
           t.tenant_id, t.source_document_id, t.source_document_version, t.company_id, t.invoice_number
    from {{ this }} as t
    join validated_lines_affected as a on a.tenant_id = t.tenant_id and a.document_id = t.source_document_id
    order by t.tenant_id, t.source_document_id
    {%- else -%}
    delete from {{ lines_documents_table() }};
    insert into {{ lines_documents_table() }} (tenant_id, document_id, document_version, company_id, invoice_number)
    select distinct on (tenant_id, source_document_id)
           tenant_id, source_document_id, source_document_version, company_id, invoice_number
    from {{ this }}
    order by tenant_id, source_document_id
    {%- endif %}
{%- endmacro %}

{% macro prepare_incremental_lines() -%}
    {{ ensure_lines_build_state() }};
    {{ ensure_lines_documents() }};
    create temporary table validated_lines_affected on commit drop as
    with

    served as (
        select tenant_id, document_id, document_version
        from {{ ref('stg_served_document_versions') }}
        where document_type in ('invoice', 'credit_note')
    ),

    held as (
        select tenant_id, document_id, document_version, company_id, invoice_number
        from {{ lines_documents_table() }}
    ),

    -- one full join of the two sides (a single hash join of the registry with the held documents)
    changed as (
        select coalesce(served.tenant_id, held.tenant_id) as tenant_id,
               coalesce(served.document_id, held.document_id) as document_id
        from served
        full join held on held.tenant_id = served.tenant_id and held.document_id = served.document_id
        where served.document_version is distinct from held.document_version
    ),

    -- Design note: siblings are found by (tenant, company, invoice number) in the landed headers of every version,
    -- through their business-key index, not by the resolved key of int_invoice_headers_resolved: resolving every
    -- header of every tenant (supplier names, the duplicate window) cost most of a no-change run at 1M lines.
    -- That set contains every document whose duplicate flag can flip (same company and invoice number, whatever
    -- the supplier and document type); rebuilding a few more documents than needed gives the same rows. A header
    -- without a company has no governed lines, and neither has any document it could be a duplicate of.
    -- not materialized: referenced twice, a CTE would be computed whole (every landed header); inlined, each use
    -- is an index probe per changed document (primary key) or per changed key (business-key index)
    landed as not materialized (
        select tenant_id, document_id, company_id, invoice_number
        from {{ source('landing', 'invoice_headers') }}
    ),

    changed_keys as (
        select h.tenant_id, h.company_id, h.invoice_number
        from landed as h join changed as c on c.tenant_id = h.tenant_id and c.document_id = h.document_id
        union
        select h.tenant_id, h.company_id, h.invoice_number
        from held as h join changed as c on c.tenant_id = h.tenant_id and c.document_id = h.document_id
    ),

    siblings as (
        select h.tenant_id, h.document_id
        from landed as h
        join changed_keys as k
            on k.tenant_id = h.tenant_id
           and k.company_id = h.company_id
           and k.invoice_number = h.invoice_number
    ),

    master_now as (
        select tenant_id, document_id, document_version
        from {{ ref('stg_served_document_versions') }}
        where document_type not in ('invoice', 'credit_note', 'agreement', 'product_manual')
    ),

    dirty_tenants as (
        select tenant_id from (
            (select * from master_now except select * from {{ lines_build_state_table() }})
            union all
            (select * from {{ lines_build_state_table() }} except select * from master_now)
        ) as differences
    ),

    tenant_documents as (
        select s.tenant_id, s.document_id from served as s where s.tenant_id in (select tenant_id from dirty_tenants)
        union
        select h.tenant_id, h.document_id from held as h where h.tenant_id in (select tenant_id from dirty_tenants)
    )

    select tenant_id, document_id from changed
    union select tenant_id, document_id from siblings
    union select tenant_id, document_id from tenant_documents;

    analyze validated_lines_affected;
    -- The business keys (company, invoice number) of the affected documents' headers, in every landed version.
    -- The model restricts its headers to these keys: they are the partition columns of the duplicate window, so
    -- the planner pushes the restriction through that window to the business-key index, and only the headers
    -- sharing a key with an affected document are resolved (every document the window compares them with).
    create temporary table validated_lines_affected_keys on commit drop as
    select distinct h.tenant_id, h.company_id, h.invoice_number
    from {{ source('landing', 'invoice_headers') }} as h
    join validated_lines_affected as a on a.tenant_id = h.tenant_id and a.document_id = h.document_id;
    -- The same sets as constants for the model: pg_temp functions that return them (immutable, so the planner folds
    -- each call into an array literal). The planner then knows how many documents it will read, which an
    -- `= any(array(select ...))` hides (it counts as a handful: the master data rescanned once per line), and the
    -- arrays are used as index keys or a hashed filter, never rebuilt per row (a current_setting() filter is).
    do $scope$
    declare
        scope record;
    begin
        for scope in
            select 'tenants' as name, array_agg(distinct tenant_id) as ids from validated_lines_affected
            union all
            select 'documents', array_agg(document_id) from validated_lines_affected
            union all
            select 'companies', array_agg(distinct company_id) from validated_lines_affected_keys
            union all
            select 'invoice_numbers', array_agg(distinct invoice_number) from validated_lines_affected_keys
        loop
            execute format('create or replace function pg_temp.incremental_%s() returns text[] language sql immutable'
                           ' as %L', scope.name, format('select %L::text[]', coalesce(scope.ids, '{}')));
        end loop;
    end
    $scope$;
    {{ record_rollup_changes(-1) }};
    delete from {{ lines_documents_table() }} as d
    using validated_lines_affected as a
    where a.tenant_id = d.tenant_id and a.document_id = d.document_id;
    delete from {{ this }} as t
    using validated_lines_affected as a
    where a.tenant_id = t.tenant_id and a.document_id = t.source_document_id
{%- endmacro %}
