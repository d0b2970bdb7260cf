{#-
    The select list of a contracted model: the columns of its contract (the model's .yml), in contract order,
    one per line. A model that narrows a wider upstream relation to its contract thus names each column once, in
    the contract, instead of again in its SQL; a contract column the upstream lacks still fails the build.
-#}
{% macro contract_columns() -%}
    {%- if execute and not model.columns -%}
        {{ exceptions.raise_compiler_error("contract_columns(): " ~ model.name ~ " declares no columns") }}
    {%- endif -%}
    {{ model.columns.values() | map(attribute="name") | join(",\n        ") }}
{%- endmacro %}
