with

source as (
    select * from {{ source('landing', 'invoice_headers') }}
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
        served.document_id as invoice_id,
        served.business_hash,
        served.source_system,
        served.document_type,
        served.invoice_number,
        served.company_id,
        served.supplier_name,
        served.status,
        served.invoice_date,
        served.posting_date,
        served.currency,
        served.tax_level,
        served.header_tax_amount,
        served.original_invoice_number,
        served.document_id as source_document_id,
        served.document_version as source_document_version,
        served.content_hash as source_content_hash,
        served.ingested_at,
        served.ingest_seq
    from served
)

select * from final
