-- Every served invoice line with everything the governed mart needs, plus the reasons (if any) why the line
-- cannot be governed. validated_invoice_lines keeps the lines without reasons; invoice_line_exceptions lists
-- the others, one row per reason.
with

lines as (
    select * from {{ ref('int_invoice_lines_allocated') }}
),

headers as (
    select * from {{ ref('int_invoice_headers_resolved') }}
),

products as (
    select * from {{ ref('int_products_current') }}
),

companies as (
    select * from {{ ref('int_companies_current') }}
),

fx_rates as (
    select * from {{ ref('int_fx_rates_current') }}
    where rate_type = '{{ var("fx_rate_type") }}'
),

joined as (
    select
        lines.*,
        headers.company_id,
        headers.supplier_id,
        headers.candidate_supplier_count,
        headers.invoice_id,
        headers.invoice_number,
        headers.invoice_status,
        headers.is_cancelled,
        headers.is_draft,
        headers.is_duplicate,
        headers.invoice_date,
        headers.posting_date,
        headers.currency,
        headers.ingest_seq,
        products.product_code as known_product_code,
        products.product_group_id,
        companies.company_id as known_company_id,
        companies.reporting_currency,
        {{ reporting_fx_rate('headers.currency', 'companies.reporting_currency', 'fx_rates.rate') }}
            as fx_rate_to_reporting_currency
    from lines
    inner join headers
        on headers.tenant_id = lines.tenant_id
       and headers.source_document_id = lines.source_document_id
       and headers.source_document_version = lines.source_document_version
    left join products
        on products.tenant_id = lines.tenant_id
       and products.product_code = lines.product_code
    left join companies
        on companies.tenant_id = headers.tenant_id
       and companies.company_id = headers.company_id
    left join fx_rates
        on fx_rates.tenant_id = headers.tenant_id
       and fx_rates.rate_date = headers.posting_date
       and fx_rates.from_currency = headers.currency
       and fx_rates.to_currency = companies.reporting_currency
),

with_reasons as (
    select
        joined.*,
        array_remove(array[
            case when joined.candidate_supplier_count = 0 then 'unknown_supplier' end,
            case when joined.candidate_supplier_count > 1 then 'ambiguous_supplier' end,
            case when joined.known_product_code is null then 'unknown_product' end,
            case when joined.known_company_id is null then 'unknown_company' end,
            case when joined.known_company_id is not null and joined.fx_rate_to_reporting_currency is null
                 then 'missing_fx_rate' end,
            case when joined.line_tax_amount is null then 'missing_line_tax' end,
            case when joined.has_negative_invoice_amount then 'negative_invoice_amount' end,
            -- numeric accepts NaN; a NaN amount would poison every total it touches
            case when 'NaN'::numeric in (joined.quantity, joined.unit_price, joined.line_net_amount,
                                         joined.line_tax_amount, joined.fx_rate_to_reporting_currency)
                 then 'non_numeric_amount' end
        ], null) as exception_reasons
    from joined
),

final as (
    select
        tenant_id,
        line_id,
        company_id,
        supplier_id,
        product_code,
        product_group_id,
        document_type,
        invoice_id,
        invoice_number,
        line_number,
        invoice_status,
        is_cancelled,
        is_draft,
        is_duplicate,
        invoice_date,
        posting_date,
        currency,
        quantity,
        unit_price,
        line_net_amount,
        line_tax_amount,
        tax_level,
        header_tax_amount,
        fx_rate_to_reporting_currency,
        '{{ var("fx_rate_type") }}'::text as fx_rate_type,
        posting_date as fx_rate_date,
        reporting_currency,
        source_document_id,
        source_document_version,
        line_id as source_line_id,
        ingest_seq,
        exception_reasons,
        cardinality(exception_reasons) = 0 as is_valid
    from with_reasons
)

select * from final
