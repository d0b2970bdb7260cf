with

products as (
    select * from {{ ref('stg_products') }}
),

product_groups as (
    select * from {{ ref('dim_product_groups') }}
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
        ranked.tenant_id,
        ranked.product_code,
        ranked.product_name,
        ranked.product_group_id,
        product_groups.group_path,
        product_groups.root_group_id,
        ranked.supplier_id,
        ranked.unit_of_measure,
        ranked.list_price,
        ranked.currency,
        ranked.source_document_id,
        ranked.source_document_version
    from ranked
    left join product_groups
        on product_groups.tenant_id = ranked.tenant_id
       and product_groups.product_group_id = ranked.product_group_id
    where ranked.definition_rank = 1
)

select * from final
