-- The governed relation: one row per validated invoice or credit-note line (resolved supplier, known product,
-- known company, an FX rate). Amounts are positive magnitudes; the sign comes from document_type. Cancelled,
-- draft and duplicate lines stay, flagged (is_counted); which recognized statuses count is a parameter of each
-- metric. The policy columns (spend_reporting_amount, ...) are the only place the spend rule is applied.
-- Built incrementally by published document version (macros/incremental_lines.sql says which documents an
-- incremental run rebuilds and why); `dbt build --full-refresh` rebuilds it whole and gives the same rows.
-- depends_on: {{ ref('int_invoice_headers_resolved') }}
-- depends_on: {{ ref('stg_served_document_versions') }}
{{ config(
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook=["{% if is_incremental() %}{{ prepare_incremental_lines() }}{% else %}{{ consume_served_changes() }}{% endif %}"],
    post_hook=["{{ record_rollup_changes(1) }}", "{{ analyze_when_stale() }}"],
) }}
with

lines as (
    select * from {{ ref('int_invoice_lines_enriched') }}
    {% if is_incremental() %}
    -- The `= any(array)` conditions are plain restrictions the planner pushes down through the upstream views
    -- to the landing tables' indexes: the document ids through the line windows (they partition by document), the
    -- business keys through the headers' duplicate window (it partitions by them), so neither the lines nor the
    -- headers of unaffected documents are read; the pair test alone is a semi-join, applied after every line.
    -- (the sets are constants the pre-hook wrote, so the planner estimates them: macros/incremental_lines.sql)
    where tenant_id = any(pg_temp.incremental_tenants())
      and company_id = any(pg_temp.incremental_companies())
      and invoice_number = any(pg_temp.incremental_invoice_numbers())
      and source_document_id = any(pg_temp.incremental_documents())
      and (tenant_id, source_document_id) in (select tenant_id, document_id from validated_lines_affected)
    {% endif %}
),

-- The top-level group of the line's product group ("spend by top-level category"): a product's own group is the
-- lowest level, its root the highest. A master-data change rebuilds every document of the tenant (the
-- incremental macros), so the root never goes stale; a group outside the hierarchy (a cycle) has none.
grouped as (
    select lines.*, product_groups.root_group_id as top_product_group_id
    from lines
    left join {{ ref('dim_product_groups') }} as product_groups
        on product_groups.tenant_id = lines.tenant_id
       and product_groups.product_group_id = lines.product_group_id
),

-- The accounting policy, applied once per line: every metric sums these columns instead of re-deriving them.
counted as (
    select
        *,
        cast({{ line_spend_reporting('document_type', 'line_net_amount', 'line_tax_amount',
                                     'fx_rate_to_reporting_currency') }} as numeric(38, 10)) as spend_reporting_amount,
        cast({{ line_amount_reporting('document_type', 'line_net_amount', 'fx_rate_to_reporting_currency') }}
            as numeric(38, 10)) as net_reporting_amount,
        cast({{ line_amount_reporting('document_type', 'line_tax_amount', 'fx_rate_to_reporting_currency') }}
            as numeric(38, 10)) as tax_reporting_amount,
        cast({{ signed_quantity('document_type', 'quantity') }} as numeric(18, 4)) as signed_quantity,
        cast({{ line_spend_document('document_type', 'line_net_amount', 'line_tax_amount') }}
            as numeric(18, 2)) as spend_document_amount,
        {{ is_counted('is_cancelled', 'is_duplicate') }} as is_counted
    from grouped
    where is_valid
),

final as (
    select
        {{ contract_columns() }}
    from counted
)

select * from final
