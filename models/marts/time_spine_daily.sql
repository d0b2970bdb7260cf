-- MetricFlow's time spine: one row per day over the span any invoice date can take (the bounds of the metric
-- date parameters). Not tenant data: a security_invoker view in the intermediate schema, without a tenant policy.
with

days as (
    select cast(day as date) as date_day
    from generate_series(date '1990-01-01', date '2101-01-01', interval '1 day') as day
),

final as (
    select date_day from days
)

select * from final
