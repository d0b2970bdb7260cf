{#- Procura's accounting policy, in one place. Every model that turns landed invoice data into governed numbers
    calls these macros; the policy is documented in macros/accounting_policy.yml (shown by `dbt docs`). -#}

{#- Sign of a document in spend: credit notes reduce spend, invoices add to it. The sign comes from the document
    type alone, never from the sign of a landed amount. -#}
{% macro document_sign(document_type) -%}
    (case when {{ document_type }} = 'credit_note' then -1 else 1 end)
{%- endmacro %}

{#- Magnitude of a landed quantity or amount: source systems write credit-note lines with either sign, so the
    magnitude is taken exactly once here and the sign is applied once, from document_sign, by consumers. -#}
{% macro amount_magnitude(amount) -%}
    abs({{ amount }})
{%- endmacro %}

{#- Spend of one governed line in reporting currency (unrounded): sign * (net + tax) * fx. line_net_amount
    already includes discounts, so no discount is subtracted here or anywhere else. -#}
{% macro line_spend_reporting(document_type, line_net_amount, line_tax_amount, fx_rate) -%}
    ({{ document_sign(document_type) }} * ({{ line_net_amount }} + {{ line_tax_amount }}) * {{ fx_rate }})
{%- endmacro %}

{#- Spend of one governed line in the document's own currency (not converted): sign * (net + tax). -#}
{% macro line_spend_document(document_type, line_net_amount, line_tax_amount) -%}
    ({{ document_sign(document_type) }} * ({{ line_net_amount }} + {{ line_tax_amount }}))
{%- endmacro %}

{#- The parts of that spend, signed and converted the same way: net (tax excluded) and tax alone. -#}
{% macro line_amount_reporting(document_type, amount, fx_rate) -%}
    ({{ document_sign(document_type) }} * {{ amount }} * {{ fx_rate }})
{%- endmacro %}

{#- Units of a line with the document's sign: credit notes return goods, so they subtract. -#}
{% macro signed_quantity(document_type, quantity) -%}
    ({{ document_sign(document_type) }} * {{ quantity }})
{%- endmacro %}

{#- Whether a line counts in any total: not cancelled and not a replicated duplicate. Which of the remaining
    statuses are recognized (default posted, paid) stays a parameter of each metric. -#}
{% macro is_counted(is_cancelled, is_duplicate) -%}
    (not {{ is_cancelled }} and not {{ is_duplicate }})
{%- endmacro %}

{#- Allocation of an invoice-level tax to the document's lines, in proportion to their net magnitudes: each line
    gets its share truncated to cents, then the cents left over go one each to the lines with the largest
    truncated-away remainder (ties: lower line number). Integer arithmetic on cents keeps the ranking exact, so
    the allocated taxes of a document sum exactly to its header tax.

    Returns a SELECT over `relation` with every column of it plus `allocated_tax_amount` numeric(18,2) and helper
    columns prefixed `_alloc_`. -#}
{% macro allocate_invoice_tax(relation, partition_by, net_amount, header_tax_amount, line_number) -%}
    {%- set partition = partition_by | join(', ') -%}
    with

    _alloc_cents as (
        select
            *,
            ({{ header_tax_amount }}) * 100 as _alloc_header_cents,
            ({{ net_amount }}) * 100 as _alloc_net_cents,
            sum(({{ net_amount }}) * 100) over (partition by {{ partition }}) as _alloc_total_net_cents
        from {{ relation }}
    ),

    _alloc_truncated as (
        select
            *,
            case when _alloc_total_net_cents = 0 then 0
                 else div(_alloc_header_cents * _alloc_net_cents, _alloc_total_net_cents) end as _alloc_floor_cents,
            case when _alloc_total_net_cents = 0 then 0
                 else mod(_alloc_header_cents * _alloc_net_cents, _alloc_total_net_cents) end as _alloc_remainder
        from _alloc_cents
    ),

    _alloc_ranked as (
        select
            *,
            _alloc_header_cents - sum(_alloc_floor_cents) over (partition by {{ partition }}) as _alloc_leftover_cents,
            row_number() over (
                partition by {{ partition }}
                order by _alloc_remainder desc, {{ line_number }} asc
            ) as _alloc_remainder_rank
        from _alloc_truncated
    )

    select
        *,
        cast(
            (_alloc_floor_cents + case when _alloc_remainder_rank <= _alloc_leftover_cents then 1 else 0 end) / 100
            as numeric(18, 2)
        ) as allocated_tax_amount
    from _alloc_ranked
{%- endmacro %}

{#- Replicated duplicates: documents with the same business key and the same business-content hash are copies of
    one another; the first by ingestion order is the original and every later one is flagged. Documents that
    share a key but differ in content are not duplicates (they are reported by a warning test instead). -#}
{% macro is_replicated_duplicate(business_key, business_hash, ingest_order) -%}
    (row_number() over (
        partition by {{ business_key | join(', ') }}, {{ business_hash }}
        order by {{ ingest_order | join(', ') }}
    ) > 1)
{%- endmacro %}

{#- Cancelled and draft documents are flagged, never filtered: which statuses count as recognized spend is a
    parameter of each metric query (default posted, paid), not a rule hidden in the marts. -#}
{% macro is_cancelled(status) -%}
    ({{ status }} = 'cancelled')
{%- endmacro %}

{% macro is_draft(status) -%}
    ({{ status }} = 'draft')
{%- endmacro %}

{#- The FX rate from the document currency to the company's reporting currency: the rate of type
    var('fx_rate_type') on the posting date; 1 when the currencies are equal; NULL (and so an exception row, never
    a silent 1.0) when no such rate was landed. -#}
{% macro reporting_fx_rate(currency, reporting_currency, landed_rate) -%}
    cast(
        case when {{ currency }} = {{ reporting_currency }} then 1 else {{ landed_rate }} end
        as numeric(18, 8)
    )
{%- endmacro %}
