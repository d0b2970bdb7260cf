-- The lines that recognized spend never counts because of their document's status: cancelled and draft documents
-- (one row per validated line, each document once: replicated duplicates are left out, as everywhere). Governed
-- spend excludes these documents; a question that asks for them explicitly ("the value of cancelled invoices",
-- "how many drafts") is answered from this relation only, so no spend metric can ever pick them up by a status
-- parameter. The amounts are the policy columns of validated_invoice_lines, renamed: a cancelled invoice's amount
-- is what it would have been as spend, never spend.
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

excluded_by_status as (
    select *
    from lines
    where invoice_status in ('cancelled', 'draft')
      and not is_duplicate
),

final as (
    select
        tenant_id,
        line_id,
        company_id,
        supplier_id,
        product_code,
        product_group_id,
        top_product_group_id,
        document_type,
        invoice_id,
        invoice_number,
        line_number,
        invoice_status,
        invoice_date,
        posting_date,
        currency,
        reporting_currency,
        fx_rate_to_reporting_currency,
        line_net_amount,
        line_tax_amount,
        spend_reporting_amount as status_reporting_amount,
        net_reporting_amount as status_net_reporting_amount,
        spend_document_amount as status_document_amount,
        source_document_id,
        source_line_id
    from excluded_by_status
)

select * from final
