-- The payment term of every published agreement version, the superseded ones included: an amendment replaces
-- the term only from its own effective date, so the earlier versions' terms stay the terms of their days
-- (marts.payment_terms). A deleted document, a quarantined version and a version never published serve nothing.
with

terms as (
    select * from {{ source('landing', 'payment_terms') }}
),

versions as (
    select * from {{ source('ingest', 'document_versions') }}
),

documents as (
    select * from {{ source('ingest', 'documents') }}
),

final as (
    select
        terms.tenant_id,
        terms.agreement_id,
        terms.company_id,
        terms.effective_date,
        terms.term_days,
        terms.clause,
        terms.sentence,
        terms.page_number,
        terms.chunk_id,
        terms.extraction_version,
        terms.document_id as source_document_id,
        terms.document_version as source_document_version,
        terms.content_hash as source_content_hash,
        terms.ingested_at
    from terms
    inner join versions
        on versions.tenant_id = terms.tenant_id
       and versions.document_id = terms.document_id
       and versions.document_version = terms.document_version
    inner join documents
        on documents.tenant_id = terms.tenant_id
       and documents.document_id = terms.document_id
    where versions.status in ('published', 'superseded')
      and terms.document_version <= documents.active_version
      and not documents.is_deleted
      and not exists (
          select 1
          from {{ source('ingest', 'quarantine') }} as quarantine
          where quarantine.tenant_id = terms.tenant_id
            and quarantine.document_id = terms.document_id
            and quarantine.document_version = terms.document_version
            and quarantine.released_at is null
      )
)

select * from final
