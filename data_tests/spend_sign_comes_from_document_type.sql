-- The sign of spend comes from the document type alone: with magnitudes stored, every credit-note line reduces
-- spend and every invoice line adds to it (zero-value lines aside).
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

spend as (
    select
        tenant_id,
        line_id,
        document_type,
        {{ line_spend_reporting('document_type', 'line_net_amount', 'line_tax_amount',
                                'fx_rate_to_reporting_currency') }} as spend_reporting
    from lines
)

select *
from spend
where (document_type = 'credit_note' and spend_reporting > 0)
   or (document_type = 'invoice' and spend_reporting < 0)
