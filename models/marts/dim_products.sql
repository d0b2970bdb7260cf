with

products as (
    select * from {{ ref('int_products_current') }}
),

product_groups as (
    select * from {{ ref('dim_product_groups') }}
),

final as (
    select
        products.tenant_id,
        products.product_code,
        products.product_name,
        products.product_group_id,
        product_groups.group_path,
        product_groups.root_group_id,
        products.supplier_id,
        products.unit_of_measure,
        products.list_price,
        products.currency,
        products.source_document_id,
        products.source_document_version
    from products
    left join product_groups
        on product_groups.tenant_id = products.tenant_id
       and product_groups.product_group_id = products.product_group_id
)

select * from final
