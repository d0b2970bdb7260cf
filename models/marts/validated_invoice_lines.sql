-- The governed relation: one row per validated invoice or credit-note line (resolved supplier, known product,
-- known company, an FX rate). Amounts are positive magnitudes; the sign comes from document_type. Cancelled,
-- draft and duplicate lines stay, flagged (is_counted); which recognized statuses count is a parameter of each
-- metric. The policy columns (spend_reporting_amount, ...) are the only place the spend rule is applied.
with

lines as (
    select * from {{ ref('int_invoice_lines_enriched') }}
),

-- The accounting policy, applied once per line: every metric sums these columns instead of re-deriving them.
counted as (
    select
        *,
        cast({{ line_spend_reporting('document_type', 'line_net_amount', 'line_tax_amount',
                                     'fx_rate_to_reporting_currency') }} as numeric(38, 10)) as spend_reporting_amount,
        cast({{ line_amount_reporting('document_type', 'line_net_amount', 'fx_rate_to_reporting_currency') }}
            as numeric(38, 10)) as net_reporting_amount,
        cast({{ line_amount_reporting('document_type', 'line_tax_amount', 'fx_rate_to_reporting_currency') }}
            as numeric(38, 10)) as tax_reporting_amount,
        cast({{ signed_quantity('document_type', 'quantity') }} as numeric(18, 4)) as signed_quantity,
        cast({{ line_spend_document('document_type', 'line_net_amount', 'line_tax_amount') }}
            as numeric(18, 2)) as spend_document_amount,
        {{ is_counted('is_cancelled', 'is_duplicate') }} as is_counted
    from lines
    where is_valid
),

final as (
    select
        {{ contract_columns() }}
    from counted
)

select * from final
