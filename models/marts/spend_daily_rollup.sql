-- Governed rollup of validated_invoice_lines: one row per tenant, company, supplier, product, status, document
-- type, currency, counted flag and invoice day, with exact numeric sums of the policy columns and the line count.
-- The metric compiler answers a spend query from here when the query's filters, group-bys and grain are all
-- columns of this table (semantic/rollups.py); the sums are exact (numeric), so the answer equals the lines'.
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

final as (
    select
        tenant_id,
        company_id,
        supplier_id,
        product_code,
        product_group_id,
        invoice_status,
        document_type,
        reporting_currency,
        is_counted,
        invoice_date,
        {{ spend_rollup_measures() }}
    from lines
    group by
        tenant_id, company_id, supplier_id, product_code, product_group_id, invoice_status, document_type,
        reporting_currency, is_counted, invoice_date
)

select * from final
