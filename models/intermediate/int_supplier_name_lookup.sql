-- Every normalized name (canonical name or alias) under which a tenant's supplier can appear on an invoice.
-- A name that normalizes to more than one supplier is ambiguous and resolves to nobody.
with

suppliers as (
    select * from {{ ref('int_suppliers_current') }}
),

aliases as (
    select * from {{ ref('int_supplier_aliases_current') }}
),

names as (
    select tenant_id, supplier_id, supplier_name as name from suppliers
    union
    select tenant_id, supplier_id, alias as name from aliases
),

normalized as (
    select
        names.tenant_id,
        names.supplier_id,
        {{ normalize_supplier_name('names.name') }} as name_normalized
    from names
    -- an alias of a supplier missing from the master data resolves to nothing
    inner join suppliers
        on suppliers.tenant_id = names.tenant_id
       and suppliers.supplier_id = names.supplier_id
),

final as (
    select
        tenant_id,
        name_normalized,
        case when count(distinct supplier_id) = 1 then min(supplier_id) end as supplier_id,
        count(distinct supplier_id) as candidate_supplier_count
    from normalized
    where name_normalized is not null
    group by tenant_id, name_normalized
)

select * from final
