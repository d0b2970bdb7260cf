-- Canonical suppliers. Contact e-mail and IBAN stay in landing: the marts carry no personal or banking data.
-- Built in int_suppliers_current, where intermediate models read it (they never read a mart).
with

suppliers as (
    select * from {{ ref('int_suppliers_current') }}
),

final as (
    select
        {{ contract_columns() }}
    from suppliers
)

select * from final
