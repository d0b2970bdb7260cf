-- The governed relation: one row per validated invoice or credit-note line (resolved supplier, known product,
-- known company, an FX rate). Amounts are positive magnitudes; the sign comes from document_type. Cancelled,
-- draft and duplicate lines stay, flagged: which of them count is a parameter of each metric.
with

lines as (
    select * from {{ ref('int_invoice_lines_enriched') }}
),

final as (
    select
        tenant_id,
        line_id,
        company_id,
        supplier_id,
        product_code,
        product_group_id,
        document_type,
        invoice_id,
        invoice_number,
        line_number,
        invoice_status,
        is_cancelled,
        is_draft,
        is_duplicate,
        invoice_date,
        posting_date,
        currency,
        quantity,
        unit_price,
        line_net_amount,
        line_tax_amount,
        fx_rate_to_reporting_currency,
        fx_rate_type,
        fx_rate_date,
        reporting_currency,
        source_document_id,
        source_document_version,
        source_line_id,
        ingest_seq
    from lines
    where is_valid
)

select * from final
