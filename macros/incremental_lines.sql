{#-
    Incremental build of validated_invoice_lines by published document version.

    A line's row depends on its own document version, on the tenant's master data (companies, suppliers and
    aliases, products and groups, FX rates) and, through the replicated-duplicate flag, on the other documents
    with the same business key. Every change to what is served (a new version published, a tombstone, a hard
    delete, a quarantine or its release) is logged by triggers in ingest.served_document_changes (migration 0300),
    in the writer's transaction. An incremental run consumes that log and rebuilds, per tenant, the invoice
    documents that are *affected*:
      * changed: an invoice or credit note in the log;
      * their siblings: documents sharing a changed document's business key (company, invoice number) in any
        landed version or as the mart held it, whose duplicate flag may flip;
      * every document of a tenant with a master-data document in the log, and of every tenant after the log's
        rebuild-everything row (written by migration 0300 for marts built before the log, and on TRUNCATE).
    The affected documents' rows are deleted and their current lines inserted; a document that no longer has
    valid lines simply gets none. Changing the dbt vars (fx_rate_type, supplier_legal_forms) needs
    `--full-refresh`. A full build consumes the log too: it reads every document.

    Design note: the log is consumed by key (DELETE ... RETURNING in the build's transaction), not read above a
    high-water mark. A change whose transaction commits after that DELETE started is not seen and stays for the
    next run, whatever its change_id; the model's later statements see at least what the DELETE saw, so a
    consumed change is always rebuilt from its committed state (or a newer one, which its own log row rebuilds
    again next time). A failed build rolls back and leaves the log as it was.

    Locks: the run only deletes and inserts rows (ROW EXCLUSIVE), so metric queries keep reading the previous
    rows until it commits, and ingestion keeps logging. Nothing here alters the table: procura_owner has
    BYPASSRLS, so the forced policy does not hide rows from the build, and the marts post-hooks (policy,
    statistics) take no lock on a table that already has them (migration 0141); an ALTER TABLE would take an
    ACCESS EXCLUSIVE lock and block every reader until the build commits.
-#}


{% macro served_changes_table() -%}
    ingest.served_document_changes
{%- endmacro %}

{#- The document types whose lines the mart holds; master data is every other type except these. -#}
{% macro lines_document_types() -%}
    ('invoice', 'credit_note')
{%- endmacro %}

{% macro lines_unrelated_types() -%}
    ('invoice', 'credit_note', 'agreement', 'product_manual')
{%- endmacro %}

{#- The pre-hook of a full build: it reads every document, so every logged change is consumed. -#}
{% macro consume_served_changes() -%}
    delete from {{ served_changes_table() }}
{%- endmacro %}

{#- Analyze after an incremental run only when the table's statistics are stale by autovacuum's own rule (more
    rows changed since the last analyze than 50 + 10% of them): a 1% change does not move the row count the
    planner uses, and each ANALYZE samples the whole table again (30,000 rows of 1M). A full build analyzes. -#}
{% macro analyze_when_stale() -%}
    {%- if is_incremental() -%}
    do $analyze$
    begin
        if exists (
            select 1 from pg_catalog.pg_stat_user_tables as s
            where s.relid = '{{ this.include(database=false) }}'::regclass
              and (coalesce(s.last_analyze, s.last_autoanalyze) is null
                   or s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup)
        ) then
            analyze {{ this }};
        end if;
    end
    $analyze$
    {%- else -%}
    analyze {{ this }}
    {%- endif -%}
{%- endmacro %}

{#- Sets of the run as constants: pg_temp functions incremental_<name>() returning ``expression`` (an array) over
    ``relation``, immutable, so the planner folds each call into an array literal. The planner then knows how many
    documents a statement reads, which neither a join to the run's small temporary tables shows it (without column
    statistics on the mart, a join is planned as a scan of every line) nor an `= any(array(select ...))` (it
    counts as a handful: the master data was rescanned once per line); the arrays are index keys or a hashed
    filter, never rebuilt per row (a current_setting() filter is). ``sets``: (name, expression, relation). -#}
{% macro define_incremental_sets(sets) -%}
    do $scope$
    declare
        scope record;
    begin
        for scope in
            {%- for name, expression, relation in sets %}
            select '{{ name }}' as name, {{ expression }} as ids from {{ relation }}{{ ' union all' if not loop.last }}
            {%- endfor %}
        loop
            execute format('create or replace function pg_temp.incremental_%s() returns text[] language sql immutable'
                           ' as %L', scope.name, format('select %L::text[]', coalesce(scope.ids, '{}')));
        end loop;
    end
    $scope$
{%- endmacro %}

{#- The ``columns`` of the mart's rows of the affected documents, found through its document index: one probe per
    document (a lateral subquery that `offset 0` keeps from being flattened into a join). A plain join, or
    `= any()` of the constant sets, is planned as a scan of every line (or of every line of the tenant): the mart
    has no column statistics to show that a document has a few lines (they would show through pg_stats, migration
    0030). -#}
{% macro affected_lines(columns) -%}
    select l.* from validated_lines_affected as a
        cross join lateral (
            select {{ columns }} from {{ this }} as t
            where t.tenant_id = a.tenant_id and t.source_document_id = a.document_id
            offset 0
        ) as l
{%- endmacro %}

{#- For the rest of an incremental run's transaction: no JIT compilation. The planner costs the branches a run
    skips (a rollup's rebuild-whole branch is a plan over every line, run only after a full rebuild of the lines)
    and compiled them: about 0.2 s of each rollup's 0.35 s select at 1M lines, for a few thousand rows. -#}
{% macro no_jit() -%}
    set local jit = off
{%- endmacro %}

{% macro prepare_incremental_lines() -%}
    {{ no_jit() }};
    -- the log's rows this transaction can see, consumed (rows of uncommitted writers stay for the next run)
    create temporary table validated_lines_changes (tenant_id text, document_id text, document_type text)
        on commit drop;
    with consumed as (
        delete from {{ served_changes_table() }}
        returning tenant_id, document_id, document_type
    )
    insert into validated_lines_changes
    select distinct tenant_id, document_id, document_type from consumed;
    analyze validated_lines_changes;
    -- Tenants rebuilt whole: a master-data document changed, or (the log's rebuild-everything row) every tenant
    -- served or held. Each branch is gated by a constant condition, so it reads nothing when it is false.
    create temporary table validated_lines_dirty_tenants on commit drop as
    select tenant_id from validated_lines_changes
    where document_type not in {{ lines_unrelated_types() }}
    union
    select tenant_id from {{ source('ingest', 'documents') }}
    where exists (select 1 from validated_lines_changes where tenant_id is null)
    union
    select tenant_id from {{ this }}
    where exists (select 1 from validated_lines_changes where tenant_id is null);
    analyze validated_lines_dirty_tenants;
    create temporary table validated_lines_affected on commit drop as
    with

    changed as (
        select tenant_id, document_id
        from validated_lines_changes
        where tenant_id is not null
          -- no type: the document has no registry row (it serves nothing, and its old lines go)
          and coalesce(document_type, 'invoice') in {{ lines_document_types() }}
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
        -- the key the mart holds (a probe of its document index per document, as in affected_lines): a landed
        -- version may have been purged since
        select t.tenant_id, t.company_id, t.invoice_number
        from changed as c
        cross join lateral (
            select tenant_id, company_id, invoice_number from {{ this }} as t
            where t.tenant_id = c.tenant_id and t.source_document_id = c.document_id
            offset 0
        ) as t
    ),

    siblings as (
        select h.tenant_id, h.document_id
        from landed as h
        join changed_keys as k
            on k.tenant_id = h.tenant_id
           and k.company_id = h.company_id
           and k.invoice_number = h.invoice_number
    ),

    tenant_documents as (
        select s.tenant_id, s.document_id
        from {{ ref('stg_served_document_versions') }} as s
        where s.document_type in {{ lines_document_types() }}
          and s.tenant_id in (select tenant_id from validated_lines_dirty_tenants)
          and exists (select 1 from validated_lines_dirty_tenants)
        union
        select t.tenant_id, t.source_document_id
        from {{ this }} as t
        where t.tenant_id in (select tenant_id from validated_lines_dirty_tenants)
          and exists (select 1 from validated_lines_dirty_tenants)
    )

    select tenant_id, document_id from changed
    union select tenant_id, document_id from siblings
    union select tenant_id, document_id from tenant_documents;

    analyze validated_lines_affected;
    -- the affected tenants and documents as constants (define_incremental_sets)
    {{ define_incremental_sets([('tenants', 'array_agg(distinct tenant_id)', 'validated_lines_affected'),
                                ('documents', 'array_agg(document_id)', 'validated_lines_affected')]) }};
    -- The business keys (company, invoice number) of the affected documents' headers, in every landed version.
    -- The model restricts its headers to these keys: they are the partition columns of the duplicate window, so
    -- the planner pushes the restriction through that window to the business-key index, and only the headers
    -- sharing a key with an affected document are resolved (every document the window compares them with).
    create temporary table validated_lines_affected_keys on commit drop as
    select distinct h.tenant_id, h.company_id, h.invoice_number
    from {{ source('landing', 'invoice_headers') }} as h
    join validated_lines_affected as a on a.tenant_id = h.tenant_id and a.document_id = h.document_id
    where h.tenant_id = any(pg_temp.incremental_tenants()) and h.document_id = any(pg_temp.incremental_documents());
    {{ define_incremental_sets([('companies', 'array_agg(distinct company_id)', 'validated_lines_affected_keys'),
                                ('invoice_numbers', 'array_agg(distinct invoice_number)',
                                 'validated_lines_affected_keys')]) }};
    -- the affected documents' rows go, each recorded once per rollup (sign -1) as it is deleted
    {{ ensure_rollup_changes() }};
    {%- set columns = rollup_change_columns() %}
    with deleted as (
        delete from {{ this }} as t
        where t.ctid = any(array({{ affected_lines('ctid') }}))
        returning t.*
    )
    insert into {{ rollup_changes_table() }} (rollup, tenant_id, line_id, sign, {{ columns | join(', ') }})
    select r.rollup, d.tenant_id, d.line_id, -1, {% for c in columns %}d.{{ c }}{{ ', ' if not loop.last }}{% endfor %}
    from deleted as d
    cross join (values {% for m in spend_rollup_models() %}('{{ m }}'){{ ', ' if not loop.last }}{% endfor %}) as r (rollup)
{%- endmacro %}
