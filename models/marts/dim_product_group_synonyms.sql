-- The synonyms of each group's current definition: every name from the latest document that defines the group
-- (the same latest-wins rule as dim_product_groups), so a renamed or dropped synonym is gone with its version.
with

synonyms as (
    select * from {{ ref('stg_product_group_synonyms') }}
),

ranked as (
    select
        synonyms.*,
        dense_rank() over (
            partition by tenant_id, product_group_id
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from synonyms
),

final as (
    select
        {{ contract_columns() }}
    from ranked
    where definition_rank = 1
)

select * from final
