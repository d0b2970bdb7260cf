{#
    The serving rule for landing rows, written once (is_served_version): a row is served only when its document
    version is the document's active, non-deleted, non-quarantined version. served_landing_rows adds ingest_seq,
    the document's position in ingestion order (duplicate detection keeps the first).

    Design note: the rule is a join to the registry table and an anti-join to the quarantine, not a join to the
    stg_served_document_versions view. A view with CTEs is planned as a subquery of its own (Postgres does not
    flatten a subquery with a WITH clause), so a join to it could only hash every served document of every
    tenant; a join to the table lets the planner probe the registry's primary key for just the rows a query
    reads (an incremental build reads a few documents' lines, not the whole registry).
#}

{#- True when ``version`` is the served version of the registry row ``documents`` (alias of ingest.documents). -#}
{% macro is_served_version(documents, version) -%}
    {{ documents }}.active_version = {{ version }}
    and not {{ documents }}.is_deleted
    and not exists (
        select 1
        from {{ source('ingest', 'quarantine') }} as quarantine
        where quarantine.tenant_id = {{ documents }}.tenant_id
          and quarantine.document_id = {{ documents }}.document_id
          and quarantine.document_version = {{ version }}
          and quarantine.released_at is null
    )
{%- endmacro %}

{#- The ref keeps every staging model after stg_served_document_versions in the DAG: a database built by an
    earlier release has views that depend on that view, and rebuilding it drops them (cascade) while other threads
    would be replacing them. -#}
{% macro served_landing_rows(table_name) %}
    -- depends_on: {{ ref('stg_served_document_versions') }}
    select
        source.*,
        documents.ingest_seq
    from {{ source('landing', table_name) }} as source
    inner join {{ source('ingest', 'documents') }} as documents
        on documents.tenant_id = source.tenant_id
       and documents.document_id = source.document_id
    where {{ is_served_version('documents', 'source.document_version') }}
{% endmacro %}
