-- Lines as positive magnitudes (the sign comes from document_type), with the tax of each line: the landed line
-- tax for tax_level = 'line', the allocated share of the header tax for tax_level = 'invoice'.
with

lines as (
    select * from {{ ref('stg_invoice_lines') }}
),

-- The landed headers, not int_invoice_headers_resolved: the allocation needs only a header's type, tax level and
-- tax, and resolving the supplier and the duplicate window of every header here (the document restriction of an
-- incremental build cannot pass that window) cost most of an incremental run at 1M lines (bench.incremental_build).
headers as (
    select * from {{ ref('stg_invoice_headers') }}
),

lines_with_header as (
    select
        lines.tenant_id,
        lines.source_document_id,
        lines.source_document_version,
        lines.line_id,
        lines.line_number,
        lines.product_code,
        lines.description,
        headers.document_type,
        headers.tax_level,
        cast({{ amount_magnitude('headers.header_tax_amount') }} as numeric(18, 2)) as header_tax_amount,
        -- an invoice line below zero is a return booked on an invoice: not silently flipped, but an exception
        (headers.document_type = 'invoice'
            and (lines.quantity < 0 or lines.unit_price < 0 or lines.line_net_amount < 0
                 or lines.line_tax_amount < 0)) as has_negative_invoice_amount,
        cast({{ amount_magnitude('lines.quantity') }} as numeric(18, 4)) as quantity,
        cast({{ amount_magnitude('lines.unit_price') }} as numeric(18, 4)) as unit_price,
        cast({{ amount_magnitude('lines.discount_amount') }} as numeric(18, 2)) as discount_amount,
        cast({{ amount_magnitude('lines.line_net_amount') }} as numeric(18, 2)) as line_net_amount,
        cast({{ amount_magnitude('lines.line_tax_amount') }} as numeric(18, 2)) as landed_line_tax_amount
    from lines
    inner join headers
        on headers.tenant_id = lines.tenant_id
       and headers.source_document_id = lines.source_document_id
       and headers.source_document_version = lines.source_document_version
),

allocated as (
    {{ allocate_invoice_tax(
        relation='lines_with_header',
        partition_by=['tenant_id', 'source_document_id', 'source_document_version'],
        net_amount='line_net_amount',
        header_tax_amount='header_tax_amount',
        line_number='line_number'
    ) }}
),

final as (
    select
        tenant_id,
        source_document_id,
        source_document_version,
        line_id,
        line_number,
        product_code,
        description,
        document_type,
        tax_level,
        header_tax_amount,
        has_negative_invoice_amount,
        quantity,
        unit_price,
        discount_amount,
        line_net_amount,
        cast(
            case when tax_level = 'invoice' then allocated_tax_amount else landed_line_tax_amount end
            as numeric(18, 2)
        ) as line_tax_amount
    from allocated
)

select * from final
