-- Governed rollup of validated_invoice_lines: one row per tenant, company, supplier, product, status, document
-- type, currency, counted flag and invoice day, with exact numeric sums of the policy columns and the line count.
-- The metric compiler answers a spend query from here when the query's filters, group-bys and grain are all
-- columns of this table (semantic/rollups.py); the sums are exact (numeric), so the answer equals the lines'.
-- Built incrementally from the lines' changes (macros/incremental_rollups.sql); a full refresh gives the same rows.
-- depends_on: {{ ref('validated_invoice_lines') }}
{%- set keys = ['company_id', 'supplier_id', 'product_code', 'product_group_id', 'invoice_status', 'document_type',
                'reporting_currency', 'is_counted'] %}
{{ config(
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook=["{% if is_incremental() %}{{ prepare_incremental_rollup(['company_id', 'supplier_id', 'product_code', 'product_group_id', 'invoice_status', 'document_type', 'reporting_currency', 'is_counted'], 'invoice_date', 'invoice_date', ['supplier_id', 'invoice_date'], nullable=['product_group_id']) }}{% endif %}"],
    post_hook=["{{ consume_rollup_changes() }}", "{{ analyze_when_stale() }}"],
) }}
{{ spend_rollup(keys, 'invoice_date', 'invoice_date', nullable=['product_group_id']) }}
