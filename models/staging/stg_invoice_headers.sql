-- Design note: one select over a derived table, not the usual import CTEs. Postgres plans a view that has a WITH
-- clause apart from the query reading it, so every join to it hashes every served header; without one the view
-- is flattened into its readers, and an incremental build (bench.incremental_build) probes the headers' indexes
-- for just the documents it rebuilds, in the line allocation and in the header resolution alike.
select
    served.tenant_id,
    served.document_id as invoice_id,
    served.business_hash,
    served.source_system,
    served.document_type,
    served.invoice_number,
    served.company_id,
    served.supplier_name,
    served.status,
    served.invoice_date,
    served.posting_date,
    served.currency,
    served.tax_level,
    served.header_tax_amount,
    served.original_invoice_number,
    served.document_id as source_document_id,
    served.document_version as source_document_version,
    served.content_hash as source_content_hash,
    served.ingested_at,
    served.ingest_seq
from (
    {{ served_landing_rows('invoice_headers') }}
) as served
