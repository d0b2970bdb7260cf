-- The governed relation: one row per validated invoice or credit-note line (resolved supplier, known product,
-- known company, an FX rate). Amounts are positive magnitudes; the sign comes from document_type. Cancelled,
-- draft and duplicate lines stay, flagged: which of them count is a parameter of each metric.
with

lines as (
    select * from {{ ref('int_invoice_lines_enriched') }}
),

final as (
    select
        {{ contract_columns() }}
    from lines
    where is_valid
)

select * from final
