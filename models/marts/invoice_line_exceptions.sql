-- Lines that did not make it into validated_invoice_lines, one row per reason, so nothing disappears silently.
with

lines as (
    select * from {{ ref('int_invoice_lines_enriched') }}
),

final as (
    select
        lines.tenant_id,
        lines.source_document_id,
        lines.source_document_version,
        lines.line_id,
        lines.invoice_number,
        reasons.reason
    from lines
    cross join lateral unnest(lines.exception_reasons) as reasons (reason)
    where not lines.is_valid
)

select * from final
