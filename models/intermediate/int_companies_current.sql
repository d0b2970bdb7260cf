with

companies as (
    select * from {{ ref('stg_companies') }}
),

-- a company defined by several served documents takes its latest definition
ranked as (
    select
        companies.*,
        row_number() over (
            partition by tenant_id, company_id
            order by ingest_seq desc, source_document_id desc
        ) as definition_rank
    from companies
),

final as (
    select
        tenant_id,
        company_id,
        company_name,
        reporting_currency,
        source_document_id,
        source_document_version
    from ranked
    where definition_rank = 1
)

select * from final
