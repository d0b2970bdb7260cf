with

served as (
    {{ served_landing_rows('product_group_synonyms') }}
),

final as (
    select
        served.tenant_id,
        served.product_group_id,
        served.language,
        served.synonym,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
