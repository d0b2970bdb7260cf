with recursive

product_groups as (
    select * from {{ ref('stg_product_groups') }}
),

ranked as (
    select
        product_groups.*,
        row_number() over (
            partition by tenant_id, product_group_id
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from product_groups
),

current_groups as (
    select * from ranked where definition_rank = 1
),

-- walk down from the roots; the visited array stops a cyclic hierarchy instead of recursing forever
paths as (
    select
        tenant_id,
        product_group_id,
        product_group_id as root_group_id,
        0 as depth,
        group_name::text as group_path,
        array[product_group_id] as visited
    from current_groups
    where parent_group_id is null

    union all

    select
        child.tenant_id,
        child.product_group_id,
        paths.root_group_id,
        paths.depth + 1,
        paths.group_path || ' > ' || child.group_name,
        paths.visited || child.product_group_id
    from current_groups as child
    inner join paths
        on paths.tenant_id = child.tenant_id
       and paths.product_group_id = child.parent_group_id
    where not child.product_group_id = any(paths.visited)
),

final as (
    select
        current_groups.tenant_id,
        current_groups.product_group_id,
        current_groups.group_name,
        current_groups.parent_group_id,
        paths.root_group_id,
        paths.depth,
        paths.group_path,
        current_groups.source_document_id,
        current_groups.source_document_version
    from current_groups
    inner join paths
        on paths.tenant_id = current_groups.tenant_id
       and paths.product_group_id = current_groups.product_group_id
)

select * from final
