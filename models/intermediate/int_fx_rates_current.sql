with

fx_rates as (
    select * from {{ ref('stg_fx_rates') }}
),

-- a rate landed by several served documents takes the latest one
ranked as (
    select
        fx_rates.*,
        row_number() over (
            partition by tenant_id, rate_date, from_currency, to_currency, rate_type
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from fx_rates
),

final as (
    select
        tenant_id,
        rate_date,
        from_currency,
        to_currency,
        rate_type,
        rate,
        source_document_id,
        source_document_version
    from ranked
    where definition_rank = 1
)

select * from final
