with

aliases as (
    select * from {{ ref('stg_supplier_aliases') }}
),

ranked as (
    select
        aliases.*,
        row_number() over (
            partition by tenant_id, alias_normalized
            order by ingest_seq desc, source_document_id desc, supplier_id
        ) as definition_rank
    from aliases
),

final as (
    select
        tenant_id,
        alias_normalized,
        alias,
        supplier_id,
        source_document_id,
        source_document_version
    from ranked
    where definition_rank = 1
)

select * from final
