{#-
    The select list of a contracted model: the columns of its contract (the model's .yml), in contract order,
    one per line. A model that narrows a wider upstream relation to its contract thus names each column once, in
    the contract, instead of again in its SQL; a contract column the upstream lacks still fails the build.
    Inside a dbt unit test `model` is the test node, which has no contract and cannot see the model under test:
    every column is kept there (a unit test compares only the columns its expectation names).
-#}
{% macro contract_columns() -%}
    {%- if execute and model.resource_type == 'unit_test' -%}
        *
    {%- else -%}
        {%- if execute and not model.columns -%}
            {{ exceptions.raise_compiler_error("contract_columns(): " ~ model.name ~ " declares no columns") }}
        {%- endif -%}
        {{ model.columns.values() | map(attribute="name") | join(",\n        ") }}
    {%- endif -%}
{%- endmacro %}
