-- Closure of the product-group hierarchy: one row per (ancestor, descendant) pair including every group with
-- itself at depth 0, so "all products in Monitoring Products" is one equality join.
with recursive

product_groups as (
    select * from {{ ref('dim_product_groups') }}
),

closure as (
    select
        tenant_id,
        product_group_id as ancestor_group_id,
        product_group_id as descendant_group_id,
        0 as depth
    from product_groups

    union all

    select
        closure.tenant_id,
        closure.ancestor_group_id,
        child.product_group_id as descendant_group_id,
        closure.depth + 1
    from closure
    inner join product_groups as child
        on child.tenant_id = closure.tenant_id
       and child.parent_group_id = closure.descendant_group_id
    -- dim_product_groups holds only groups reachable from a root without cycles; the bound is a safety net
    where closure.depth < 64
),

final as (
    select tenant_id, ancestor_group_id, descendant_group_id, depth
    from closure
)

select * from final
