-- Canonical suppliers. Contact e-mail and IBAN stay in landing: the marts carry no personal or banking data.
with

suppliers as (
    select * from {{ ref('stg_suppliers') }}
),

ranked as (
    select
        suppliers.*,
        row_number() over (
            partition by tenant_id, supplier_id
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from suppliers
),

final as (
    select
        tenant_id,
        supplier_id,
        supplier_name,
        country,
        source_document_id,
        source_document_version
    from ranked
    where definition_rank = 1
)

select * from final
