-- Built in int_supplier_aliases_current, where intermediate models read it (they never read a mart).
with

supplier_aliases as (
    select * from {{ ref('int_supplier_aliases_current') }}
),

final as (
    select
        {{ contract_columns() }}
    from supplier_aliases
)

select * from final
