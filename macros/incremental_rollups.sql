{#-
    Incremental build of the spend rollups (spend_daily_rollup, spend_monthly_rollup) from the lines' changes.

    Every run of validated_invoice_lines writes, in its own transaction, the lines it removed (sign -1, before
    deleting them) and the lines it inserted (sign +1) into intermediate.spend_rollup_changes, once per rollup;
    a full rebuild of the lines writes one marker row per rollup instead (no tenant: rebuild whole). A rollup's
    incremental run reads its own rows, in its own transaction, and then deletes them:
      * a rollup row whose group only gained lines is merged: its sums plus the new lines' sums (numeric, exact),
        its line count plus theirs, and its first line ids the first 100 of the old ones and the new ones (the
        old array holds the group's first 100 ids, so the first 100 of the union are among them and the new ids);
      * a group that lost a line (new document version, tombstone, quarantine, master-data change) is
        recomputed from the lines, because its first ids cannot be repaired from the rollup row alone;
      * after the marker, the rollup is rebuilt whole.
    So a run costs about the changed lines, wherever their dates fall, and gives the rows a full build gives (test:
    tests/integration/test_incremental_marts.py). The changes wait for the rollup when only the lines are built.
-#}

{#- The rollups fed by the lines' changes (the models that call spend_rollup()). -#}
{% macro spend_rollup_models() -%}
    {{ return(['spend_daily_rollup', 'spend_monthly_rollup']) }}
{%- endmacro %}

{% macro rollup_changes_table() -%}
    intermediate.spend_rollup_changes
{%- endmacro %}

{#- The line columns a rollup can group by or sum, besides the tenant and the line id. -#}
{% macro rollup_change_columns() -%}
    {{ return(['company_id', 'supplier_id', 'product_code', 'product_group_id', 'invoice_status', 'document_type',
               'reporting_currency', 'is_counted', 'invoice_date', 'spend_reporting_amount', 'net_reporting_amount',
               'tax_reporting_amount', 'signed_quantity']) }}
{%- endmacro %}

{#- Tenant-scoped like every table; the marker rows (no tenant) are seen by the owner only. No index: the table
    holds only the changes not yet applied, and the two rollups run in parallel, where CREATE INDEX IF NOT EXISTS
    (a SHARE lock even when the index exists) deadlocks with the other's delete. -#}
{% macro ensure_rollup_changes() -%}
    create table if not exists {{ rollup_changes_table() }} (
        rollup text not null,
        tenant_id text,
        line_id text,
        sign smallint not null,
        company_id text,
        supplier_id text,
        product_code text,
        product_group_id text,
        invoice_status text,
        document_type text,
        reporting_currency text,
        is_counted boolean,
        invoice_date date,
        spend_reporting_amount numeric(38, 10),
        net_reporting_amount numeric(38, 10),
        tax_reporting_amount numeric(38, 10),
        signed_quantity numeric(18, 4)
    );
    call app.apply_tenant_isolation('{{ rollup_changes_table() }}')
{%- endmacro %}

{#- Called by validated_invoice_lines' post-hook: ``sign`` +1, the affected documents' new rows (their old rows
    were recorded with -1 as the pre-hook deleted them); after a full build, the rebuild-whole marker. -#}
{% macro record_rollup_changes(sign) -%}
    {{ ensure_rollup_changes() }};
    {%- set columns = rollup_change_columns() %}
    {% if is_incremental() -%}
    insert into {{ rollup_changes_table() }} (rollup, tenant_id, line_id, sign, {{ columns | join(', ') }})
    select r.rollup, t.tenant_id, t.line_id, {{ sign }}, {% for c in columns %}t.{{ c }}{{ ', ' if not loop.last }}{% endfor %}
    from ({{ affected_lines('tenant_id, line_id, ' ~ columns | join(', ')) }}) as t
    cross join (values {% for m in spend_rollup_models() %}('{{ m }}'){{ ', ' if not loop.last }}{% endfor %}) as r (rollup)
    {%- else -%}
    insert into {{ rollup_changes_table() }} (rollup, sign)
    values {% for m in spend_rollup_models() %}('{{ m }}', 0){{ ', ' if not loop.last }}{% endfor %}
    {%- endif %}
{%- endmacro %}

{#- The sums, line count and first line ids of a rollup row, over the lines of its group. -#}
{% macro spend_rollup_measures() -%}
        cast(sum(spend_reporting_amount) as numeric(38, 10)) as spend_reporting_amount,
        cast(sum(net_reporting_amount) as numeric(38, 10)) as net_reporting_amount,
        cast(sum(tax_reporting_amount) as numeric(38, 10)) as tax_reporting_amount,
        cast(sum(signed_quantity) as numeric(38, 4)) as signed_quantity,
        count(*) as line_count,
        -- The row's first line ids (at most 100, ordered): the provenance of an answer from this rollup is the first
        -- ids of the union of its rows', found in the 100 rows with the smallest first id (semantic/rollups.py).
        (array_agg(line_id order by line_id))[1:100] as first_line_ids,
        min(line_id) as first_line_id
{%- endmacro %}

{#- Null-safe equality of two rows' group keys (``nullable``: keys that may be null). -#}
{% macro rollup_keys_match(left, right, keys, nullable) -%}
    {%- for k in keys -%}
    {{ left }}.{{ k }} {{ 'is not distinct from' if k in nullable else '=' }} {{ right }}.{{ k }}{{ ' and ' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}

{#- The pre-hook of an incremental rollup run: this rollup's pending changes per group, the old rows of those
    groups (kept for the merge), then those rows deleted. ``date_expr`` is the rollup's date column over a line's
    ``invoice_date``; ``probe``: the key columns after tenant_id of one of the rollup's indexes (non-nullable keys),
    through which each changed group's row is found. -#}
{% macro prepare_incremental_rollup(keys, date_column, date_expr, probe, nullable=[]) -%}
    {{ no_jit() }};
    {{ ensure_rollup_changes() }};
    {%- set all_keys = ['tenant_id'] + keys + [date_column] %}
    create temporary table rollup_rebuild_whole on commit drop as
    select 1 as whole from {{ rollup_changes_table() }}
    where rollup = '{{ this.name }}' and tenant_id is null
    limit 1;
    create temporary table rollup_changed_groups on commit drop as
    select
        tenant_id, {{ keys | join(', ') }}, {{ date_expr }} as {{ date_column }},
        bool_or(sign < 0) as lost_lines,
        sum(spend_reporting_amount) filter (where sign > 0) as spend_reporting_amount,
        sum(net_reporting_amount) filter (where sign > 0) as net_reporting_amount,
        sum(tax_reporting_amount) filter (where sign > 0) as tax_reporting_amount,
        sum(signed_quantity) filter (where sign > 0) as signed_quantity,
        count(*) filter (where sign > 0) as line_count,
        (array_agg(line_id order by line_id) filter (where sign > 0))[1:100] as first_line_ids
    from {{ rollup_changes_table() }}
    where rollup = '{{ this.name }}' and tenant_id is not null
    group by tenant_id, {{ keys | join(', ') }}, {{ date_expr }};
    -- the columns the model joins and filters on (statistics of the sums and id arrays cost more than they tell)
    analyze rollup_changed_groups ({{ all_keys | join(', ') }}, lost_lines);
    -- The rows deleted are the previous rows kept for the merge. Each changed group's row is found by one probe of
    -- the ``probe`` index (a lateral subquery that `offset 0` keeps from being flattened): the rollup has no
    -- column statistics (migration 0030), so a join is planned as a scan of every row, or through whichever
    -- index matches as many columns (the daily rollup's company index reads ~200 rows per probe at 1M lines).
    create temporary table rollup_previous (like {{ this }}) on commit drop;
    with deleted as (
        delete from {{ this }} as r
        where r.ctid = any(array(
            select p.row_ctid
            from rollup_changed_groups as g
            cross join lateral (
                select r.ctid as row_ctid, r.* from {{ this }} as r
                where r.tenant_id = g.tenant_id{% for k in probe %} and r.{{ k }} = g.{{ k }}{% endfor %}
                offset 0
            ) as p
            where {{ rollup_keys_match('p', 'g', all_keys, nullable) }}
        ))
        returning r.*
    )
    insert into rollup_previous select * from deleted;
    delete from {{ this }} where exists (select 1 from rollup_rebuild_whole)
{%- endmacro %}

{#- Its post-hook: the changes it has applied are gone (also after a full build, which read every line). -#}
{% macro consume_rollup_changes() -%}
    {{ ensure_rollup_changes() }};
    delete from {{ rollup_changes_table() }} where rollup = '{{ this.name }}'
{%- endmacro %}

{#- The body of a spend rollup model: ``keys`` (besides the tenant) and the date column ``date_column``, computed
    from a line's invoice_date by ``date_expr``. A full build groups every line; an incremental run (after
    prepare_incremental_rollup) adds the merged and recomputed groups, or everything after the marker. -#}
{% macro spend_rollup(keys, date_column, date_expr, nullable=[]) -%}
{%- set all_keys = ['tenant_id'] + keys + [date_column] -%}
with

{% if is_incremental() -%}
{#- No shared CTE of the lines here: referenced twice it would be materialized, every line read on every run. -#}
{%- set line_date = date_expr | replace('invoice_date', 'lines.invoice_date') %}
-- after the lines were rebuilt whole: every group (an InitPlan: no scan when there is no marker)
rebuilt as (
    select
        tenant_id, {{ keys | join(', ') }}, {{ date_expr }} as {{ date_column }},
        {{ spend_rollup_measures() }}
    from {{ ref('validated_invoice_lines') }}
    where exists (select 1 from rollup_rebuild_whole)
    group by tenant_id, {{ keys | join(', ') }}, {{ date_expr }}
),

lost as (
    select distinct tenant_id, {{ keys | join(', ') }}, {{ date_column }}
    from rollup_changed_groups
    where lost_lines and not exists (select 1 from rollup_rebuild_whole)
),

-- groups that lost a line: recomputed from their lines (a hash join skips the lines when there are none)
recomputed as (
    select
        lines.tenant_id, {% for k in keys %}lines.{{ k }}, {% endfor %}{{ line_date }} as {{ date_column }},
        {{ spend_rollup_measures() }}
    from {{ ref('validated_invoice_lines') }} as lines
    join lost on lost.tenant_id = lines.tenant_id
        {% for k in keys %}and lost.{{ k }} {{ 'is not distinct from' if k in nullable else '=' }} lines.{{ k }}
        {% endfor %}and lost.{{ date_column }} = {{ line_date }}
    group by lines.tenant_id, {% for k in keys %}lines.{{ k }}, {% endfor %}{{ line_date }}
),

-- groups that only gained lines: the previous row (if any) plus the new lines
merged as (
    select
        g.tenant_id, {% for k in keys %}g.{{ k }}, {% endfor %}g.{{ date_column }},
        cast(coalesce(p.spend_reporting_amount, 0) + g.spend_reporting_amount as numeric(38, 10))
            as spend_reporting_amount,
        cast(coalesce(p.net_reporting_amount, 0) + g.net_reporting_amount as numeric(38, 10)) as net_reporting_amount,
        cast(coalesce(p.tax_reporting_amount, 0) + g.tax_reporting_amount as numeric(38, 10)) as tax_reporting_amount,
        cast(coalesce(p.signed_quantity, 0) + g.signed_quantity as numeric(38, 4)) as signed_quantity,
        coalesce(p.line_count, 0) + g.line_count as line_count,
        array(
            select id from unnest(coalesce(p.first_line_ids, '{}') || g.first_line_ids) as id order by id limit 100
        ) as first_line_ids,
        least(p.first_line_id, g.first_line_ids[1]) as first_line_id
    from rollup_changed_groups as g
    left join rollup_previous as p on {{ rollup_keys_match('p', 'g', all_keys, nullable) }}
    where not g.lost_lines and not exists (select 1 from rollup_rebuild_whole)
),

final as (
    select * from rebuilt
    union all
    select * from recomputed
    union all
    select * from merged
)
{%- else -%}
lines as (
    select * from {{ ref('validated_invoice_lines') }}
),

final as (
    select
        tenant_id, {{ keys | join(', ') }}, {{ date_expr }} as {{ date_column }},
        {{ spend_rollup_measures() }}
    from lines
    group by tenant_id, {{ keys | join(', ') }}, {{ date_expr }}
    -- Stored in the order of the rollup's index (tenant, company, date): a company's rows over a period sit on
    -- few pages, which the metric query reads twice (sums and provenance).
    order by tenant_id, company_id, {{ date_expr }}
)
{%- endif %}

select * from final
{%- endmacro %}
