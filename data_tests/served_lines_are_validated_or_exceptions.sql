-- Nothing disappears: every served line is either governed or an exception, never both, never neither.
with

served_lines as (
    select tenant_id, line_id from {{ ref('stg_invoice_lines') }}
),

validated as (
    select tenant_id, line_id from {{ ref('validated_invoice_lines') }}
),

exceptions as (
    select distinct tenant_id, line_id from {{ ref('invoice_line_exceptions') }}
),

classified as (
    select
        served_lines.tenant_id,
        served_lines.line_id,
        (validated.line_id is not null) as is_validated,
        (exceptions.line_id is not null) as is_exception
    from served_lines
    left join validated
        on validated.tenant_id = served_lines.tenant_id and validated.line_id = served_lines.line_id
    left join exceptions
        on exceptions.tenant_id = served_lines.tenant_id and exceptions.line_id = served_lines.line_id
)

select *
from classified
where is_validated = is_exception
