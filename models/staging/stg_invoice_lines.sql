with

served as (
    {{ served_landing_rows('invoice_lines') }}
),

final as (
    select
        served.tenant_id,
        served.line_id,
        served.line_number,
        served.product_code,
        served.description,
        served.quantity,
        served.unit_price,
        served.discount_amount,
        served.line_net_amount,
        served.line_tax_amount,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
