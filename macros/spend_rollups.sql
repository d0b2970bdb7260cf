{#-
    The measures every spend rollup keeps per row, over the lines of its group: exact numeric sums of the policy
    columns (never rounded, so a rollup's answer equals the lines'), the line count, and the row's first line ids
    (at most 100, ordered). The provenance of an answer from a rollup is the first ids of the union of its rows',
    found in the 100 rows with the smallest first id (semantic/rollups.py says why that is exact).
-#}
{% macro spend_rollup_measures() -%}
        cast(sum(spend_reporting_amount) as numeric(38, 10)) as spend_reporting_amount,
        cast(sum(net_reporting_amount) as numeric(38, 10)) as net_reporting_amount,
        cast(sum(tax_reporting_amount) as numeric(38, 10)) as tax_reporting_amount,
        cast(sum(signed_quantity) as numeric(38, 4)) as signed_quantity,
        count(*) as line_count,
        (array_agg(line_id order by line_id))[1:100] as first_line_ids,
        min(line_id) as first_line_id
{%- endmacro %}
