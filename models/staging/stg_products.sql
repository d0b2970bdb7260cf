with

served as (
    {{ served_landing_rows('products') }}
),

final as (
    select
        served.tenant_id,
        served.product_code,
        served.product_name,
        served.product_group_id,
        served.supplier_id,
        served.unit_of_measure,
        served.list_price,
        served.currency,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
