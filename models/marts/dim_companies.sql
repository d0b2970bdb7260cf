-- Built in int_companies_current, where intermediate models read it (they never read a mart).
with

companies as (
    select * from {{ ref('int_companies_current') }}
),

final as (
    select
        {{ contract_columns() }}
    from companies
)

select * from final
