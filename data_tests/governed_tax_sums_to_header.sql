-- In the governed mart, every document whose lines are all valid carries exactly its header tax (line-level
-- documents: the landed line taxes; invoice-level: the allocation). Line-level mismatches are source errors.
with

lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

headers as (
    select * from {{ ref('int_invoice_headers_resolved') }}
),

exceptions as (
    select * from {{ ref('invoice_line_exceptions') }}
),

complete_documents as (
    select tenant_id, source_document_id, source_document_version, sum(line_tax_amount) as line_tax_amount
    from lines
    where not exists (
        select 1 from exceptions
        where exceptions.tenant_id = lines.tenant_id
          and exceptions.source_document_id = lines.source_document_id
          and exceptions.source_document_version = lines.source_document_version
    )
    group by tenant_id, source_document_id, source_document_version
)

select
    complete_documents.*,
    headers.header_tax_amount,
    headers.tax_level
from complete_documents
inner join headers
    on headers.tenant_id = complete_documents.tenant_id
   and headers.source_document_id = complete_documents.source_document_id
   and headers.source_document_version = complete_documents.source_document_version
where complete_documents.line_tax_amount <> headers.header_tax_amount
