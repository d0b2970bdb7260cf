-- Approved vendors per company with half-open validity [valid_from, valid_to); valid_to NULL = open-ended.
with

approvals as (
    select * from {{ ref('stg_vendor_approvals') }}
),

ranked as (
    select
        approvals.*,
        row_number() over (
            partition by tenant_id, approval_id
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from approvals
),

final as (
    select
        tenant_id,
        approval_id,
        company_id,
        supplier_id,
        agreement_id,
        scope,
        valid_from,
        valid_to,
        source_document_id,
        source_document_version,
        page_number,
        chunk_id
    from ranked
    where definition_rank = 1
)

select * from final
