with

source as (
    select * from {{ source('landing', 'vendor_approvals') }}
),

served_versions as (
    select * from {{ ref('stg_served_document_versions') }}
),

served as (
    select
        source.*,
        served_versions.ingest_seq
    from source
    inner join served_versions
        on served_versions.tenant_id = source.tenant_id
       and served_versions.document_id = source.document_id
       and served_versions.document_version = source.document_version
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
