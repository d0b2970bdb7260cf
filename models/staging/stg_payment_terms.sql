-- Every published agreement version, the superseded ones included, with the payment term it states (term_days
-- NULL when it states none): an amendment replaces the term only from its own effective date, so the earlier
-- versions' terms stay the terms of their days (marts.payment_terms); and a version without a term sentence is
-- still a version: it ends the previous version's term from its effective date (no governed term from then on),
-- never lets a superseded term run on. A deleted document, a quarantined version and a version never published
-- serve nothing. The company and effective date of a version without a term row come from its front matter, which
-- every chunk of the version carries (ingest.chunks metadata).
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

chunks as (
    select * from {{ source('ingest', 'chunks') }}
),

agreement_versions as (
    select
        versions.tenant_id,
        versions.document_id,
        versions.document_version,
        versions.content_hash
    from versions
    inner join documents
        on documents.tenant_id = versions.tenant_id
       and documents.document_id = versions.document_id
    where documents.document_type = 'agreement'
      and versions.status in ('published', 'superseded')
      and versions.document_version <= documents.active_version
      and not documents.is_deleted
      and not exists (
          select 1
          from {{ source('ingest', 'quarantine') }} as quarantine
          where quarantine.tenant_id = versions.tenant_id
            and quarantine.document_id = versions.document_id
            and quarantine.document_version = versions.document_version
            and quarantine.released_at is null
      )
),

-- the front matter of each version (company, effective date), the same on every chunk of it
front_matter as (
    select
        chunks.tenant_id,
        chunks.document_id,
        chunks.document_version,
        min(chunks.metadata ->> 'company_id') as company_id,
        min(chunks.metadata ->> 'effective_date')::date as effective_date
    from chunks
    inner join agreement_versions
        on agreement_versions.tenant_id = chunks.tenant_id
       and agreement_versions.document_id = chunks.document_id
       and agreement_versions.document_version = chunks.document_version
    group by chunks.tenant_id, chunks.document_id, chunks.document_version
),

final as (
    select
        agreement_versions.tenant_id,
        agreement_versions.document_id as agreement_id,
        coalesce(terms.company_id, front_matter.company_id) as company_id,
        coalesce(terms.effective_date, front_matter.effective_date) as effective_date,
        terms.term_days,
        terms.clause,
        terms.sentence,
        terms.page_number,
        terms.chunk_id,
        terms.extraction_version,
        agreement_versions.document_id as source_document_id,
        agreement_versions.document_version as source_document_version,
        agreement_versions.content_hash as source_content_hash,
        terms.ingested_at
    from agreement_versions
    left join terms
        on terms.tenant_id = agreement_versions.tenant_id
       and terms.document_id = agreement_versions.document_id
       and terms.document_version = agreement_versions.document_version
    left join front_matter
        on front_matter.tenant_id = agreement_versions.tenant_id
       and front_matter.document_id = agreement_versions.document_id
       and front_matter.document_version = agreement_versions.document_version
)

-- a version with neither a term nor an effective date cannot be placed in time (and states nothing to apply)
select * from final
where effective_date is not null
  and company_id is not null
