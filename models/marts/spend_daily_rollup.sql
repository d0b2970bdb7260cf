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
        tenant_id, company_id, supplier_id, product_code, product_group_id, invoice_status, document_type,
        reporting_currency, is_counted, invoice_date
)

select * from final
