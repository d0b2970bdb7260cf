with

served as (
    {{ served_landing_rows('vendor_approvals') }}
),

final as (
    select
        served.tenant_id,
        served.approval_id,
        served.agreement_id,
        served.company_id,
        served.supplier_id,
        served.supplier_name,
        served.scope,
        served.valid_from,
        served.valid_to,
        served.page_number,
        served.chunk_id,
        served.extraction_version,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
