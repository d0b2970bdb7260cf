with

served as (
    {{ served_landing_rows('suppliers') }}
),

final as (
    select
        served.tenant_id,
        served.supplier_id,
        served.supplier_name,
        served.country,
        served.contact_email,
        served.iban,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
