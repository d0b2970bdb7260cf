-- Built in int_fx_rates_current, where intermediate models read it (they never read a mart).
with

fx_rates as (
    select * from {{ ref('int_fx_rates_current') }}
),

final as (
    select
        {{ contract_columns() }}
    from fx_rates
)

select * from final
