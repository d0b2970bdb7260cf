-- Invoice-level tax: the allocated line taxes of every document version sum exactly to its header tax.
with

lines as (
    select * from {{ ref('int_invoice_lines_allocated') }}
),

per_document as (
    select
        tenant_id,
        source_document_id,
        source_document_version,
        max(header_tax_amount) as header_tax_amount,
        sum(line_tax_amount) as allocated_tax_amount
    from lines
    where tax_level = 'invoice'
    group by tenant_id, source_document_id, source_document_version
)

select *
from per_document
where allocated_tax_amount is distinct from header_tax_amount
