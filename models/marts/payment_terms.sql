-- The payment term of each company's agreements over time: one row per agreement version, valid on the half-open
-- range [valid_from, valid_to) from its effective date until the next version's (valid_to NULL = still in force).
-- Overdue invoices are computed from it (finance.overdue_invoices): the due date is the invoice date plus the term
-- in force; the clause, sentence and chunk are the evidence an answer cites. Every published agreement version
-- has a row: one that states no term carries term_days NULL (no governed term from its effective date), so it
-- closes the previous version's validity instead of leaving a superseded term in force.
with

terms as (
    select * from {{ ref('stg_payment_terms') }}
),

-- two versions effective on the same day: the later version is the one that holds
latest_per_day as (
    select
        terms.*,
        row_number() over (
            partition by tenant_id, agreement_id, effective_date
            order by source_document_version desc
        ) as day_rank
    from terms
),

final as (
    select
        tenant_id,
        company_id,
        agreement_id,
        source_document_version as agreement_version,
        term_days,
        effective_date as valid_from,
        lead(effective_date) over (
            partition by tenant_id, agreement_id
            order by effective_date
        ) as valid_to,
        clause,
        sentence,
        page_number,
        chunk_id
    from latest_per_day
    where day_rank = 1
)

select * from final
