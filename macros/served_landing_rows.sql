{#
    The serving rule for landing rows, written once: a row is served only when its document version is the
    document's active, non-deleted, non-quarantined version (stg_served_document_versions). Adds ingest_seq,
    the document's position in ingestion order (duplicate detection keeps the first).
#}
{% macro served_landing_rows(table_name) %}
    select
        source.*,
        served_versions.ingest_seq
    from {{ source('landing', table_name) }} as source
    inner join {{ ref('stg_served_document_versions') }} as served_versions
        on served_versions.tenant_id = source.tenant_id
       and served_versions.document_id = source.document_id
       and served_versions.document_version = source.document_version
{% endmacro %}
