-- Invoice and credit-note headers with the supplier resolved through the alias table, the status flags and the
-- replicated-duplicate flag of the accounting policy.
with

headers as (
    select * from {{ ref('stg_invoice_headers') }}
),

supplier_names as (
    select * from {{ ref('int_supplier_name_lookup') }}
),

-- Design note: the header's normalized name is computed once per header in a lateral subquery that the planner
-- keeps apart (offset 0). Written in the join condition, it is evaluated for every (header, name) pair whenever
-- the planner joins few headers by a nested loop (an incremental build resolves only the affected documents'
-- headers): 60 regular-expression rewrites per header, most of an incremental run at 1M lines.
resolved as (
    select
        headers.*,
        supplier_names.supplier_id,
        coalesce(supplier_names.candidate_supplier_count, 0) as candidate_supplier_count
    from headers
    cross join lateral (
        select {{ normalize_supplier_name('headers.supplier_name') }} as name_normalized
        offset 0
    ) as header_name
    left join supplier_names
        on supplier_names.tenant_id = headers.tenant_id
       and supplier_names.name_normalized = header_name.name_normalized
),

flagged as (
    select
        resolved.*,
        {{ is_cancelled('resolved.status') }} as is_cancelled,
        {{ is_draft('resolved.status') }} as is_draft,
        {{ is_replicated_duplicate(
            business_key=['resolved.tenant_id', 'resolved.company_id', 'resolved.supplier_id',
                          'resolved.document_type', 'resolved.invoice_number'],
            business_hash='resolved.business_hash',
            ingest_order=['resolved.ingest_seq', 'resolved.source_document_id']
        ) }} as is_duplicate
    from resolved
),

final as (
    select
        tenant_id,
        invoice_id,
        document_type,
        invoice_number,
        company_id,
        supplier_name,
        supplier_id,
        candidate_supplier_count,
        status as invoice_status,
        is_cancelled,
        is_draft,
        is_duplicate,
        invoice_date,
        posting_date,
        currency,
        tax_level,
        cast({{ amount_magnitude('header_tax_amount') }} as numeric(18, 2)) as header_tax_amount,
        original_invoice_number,
        business_hash,
        source_system,
        source_document_id,
        source_document_version,
        ingest_seq
    from flagged
)

select * from final
