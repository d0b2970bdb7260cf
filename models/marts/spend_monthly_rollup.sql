-- Governed rollup of validated_invoice_lines at month grain without the product: one row per tenant, company,
-- supplier, status, document type, currency, counted flag and invoice month. The smallest relation a company- or
-- supplier-level spend query over whole months can be answered from (semantic/rollups.py); exact numeric sums.
-- Built incrementally from the lines' changes (macros/incremental_rollups.sql); a full refresh gives the same rows.
-- depends_on: {{ ref('validated_invoice_lines') }}
{{ config(
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook=["{% if is_incremental() %}{{ prepare_incremental_rollup(['company_id', 'supplier_id', 'invoice_status', 'document_type', 'reporting_currency', 'is_counted'], 'invoice_month', \"cast(date_trunc('month', invoice_date) as date)\", ['company_id', 'is_counted', 'reporting_currency', 'invoice_status', 'invoice_month']) }}{% endif %}"],
    post_hook=["{{ consume_rollup_changes() }}", "{{ analyze_when_stale() }}"],
) }}
{{ spend_rollup(['company_id', 'supplier_id', 'invoice_status', 'document_type', 'reporting_currency', 'is_counted'],
                'invoice_month', "cast(date_trunc('month', invoice_date) as date)") }}
