-- The latest served definition of each product; dim_products adds its product group's path.
with

products as (
    select * from {{ ref('stg_products') }}
),

ranked as (
    select
        products.*,
        row_number() over (
            partition by tenant_id, product_code
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from products
),

final as (
    select
        tenant_id,
        product_code,
        product_name,
        product_group_id,
        supplier_id,
        unit_of_measure,
        list_price,
        currency,
        source_document_id,
        source_document_version
    from ranked
    where definition_rank = 1
)

select * from final
