-- The one rule of what is served: the active version of a non-deleted document, unless a quality gate has
-- quarantined that version and nobody has released it.
with

documents as (
    select * from {{ source('ingest', 'documents') }}
),

quarantine as (
    select * from {{ source('ingest', 'quarantine') }}
),

open_quarantine as (
    select distinct tenant_id, document_id, document_version
    from quarantine
    where released_at is null
),

active_versions as (
    select
        documents.tenant_id,
        documents.document_id,
        documents.active_version as document_version,
        documents.document_type,
        documents.ingest_seq
    from documents
    where documents.active_version is not null
      and not documents.is_deleted
),

final as (
    select active_versions.*
    from active_versions
    left join open_quarantine
        on open_quarantine.tenant_id = active_versions.tenant_id
       and open_quarantine.document_id = active_versions.document_id
       and open_quarantine.document_version = active_versions.document_version
    where open_quarantine.document_id is null
)

select * from final
