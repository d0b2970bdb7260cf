with

served as (
    {{ served_landing_rows('fx_rates') }}
),

final as (
    select
        served.tenant_id,
        served.rate_date,
        served.from_currency,
        served.to_currency,
        served.rate_type,
        served.rate,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
