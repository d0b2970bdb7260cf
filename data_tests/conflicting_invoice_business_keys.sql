{{ config(severity='warn') }}
-- Two served documents with the same business key but different content are not replicated duplicates; both
-- stay governed. That is usually a source-system problem worth a look, so it warns instead of failing.
with

headers as (
    select * from {{ ref('int_invoice_headers_resolved') }}
)

select tenant_id, company_id, supplier_id, document_type, invoice_number, count(distinct business_hash) as versions
from headers
where supplier_id is not null
group by tenant_id, company_id, supplier_id, document_type, invoice_number
having count(distinct business_hash) > 1
