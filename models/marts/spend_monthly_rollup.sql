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
        cast(sum(spend_reporting_amount) as numeric(38, 10)) as spend_reporting_amount,
        cast(sum(net_reporting_amount) as numeric(38, 10)) as net_reporting_amount,
        cast(sum(tax_reporting_amount) as numeric(38, 10)) as tax_reporting_amount,
        cast(sum(signed_quantity) as numeric(38, 4)) as signed_quantity,
        count(*) as line_count,
        -- The row's first line ids (at most 100, ordered): the provenance of an answer from this rollup is the first
        -- ids of the union of its rows', found in the 100 rows with the smallest first id (semantic/rollups.py).
        (array_agg(line_id order by line_id))[1:100] as first_line_ids,
        min(line_id) as first_line_id
    from lines
    group by
        tenant_id, company_id, supplier_id, invoice_status, document_type, reporting_currency, is_counted,
        invoice_month
)

select * from final
