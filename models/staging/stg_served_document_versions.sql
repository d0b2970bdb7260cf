-- The one rule of what is served (macro is_served_version): the active version of a non-deleted document,
-- unless a quality gate has quarantined that version and nobody has released it.
with

documents as (
    select * from {{ source('ingest', 'documents') }}
),

final as (
    select
        documents.tenant_id,
        documents.document_id,
        documents.active_version as document_version,
        documents.document_type,
        documents.ingest_seq
    from documents
    where {{ is_served_version('documents', 'documents.active_version') }}
)

select * from final
