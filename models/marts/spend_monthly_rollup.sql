-- Governed rollup of validated_invoice_lines at month grain without the product: one row per tenant, company,
-- supplier, status, document type, currency, counted flag and invoice month. The smallest relation a company- or
-- supplier-level spend query over whole months can be answered from (semantic/rollups.py); exact numeric sums.
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

final as (
    select
        tenant_id,
        company_id,
        supplier_id,
        invoice_status,
        document_type,
        reporting_currency,
        is_counted,
        cast(date_trunc('month', invoice_date) as date) as invoice_month,
        {{ spend_rollup_measures() }}
    from lines
    group by
        tenant_id, company_id, supplier_id, invoice_status, document_type, reporting_currency, is_counted,
        invoice_month
)

select * from final
