{#- Every view Procura creates runs with the privileges and row-level security of the querying role, not of its
    owner (procura_owner has BYPASSRLS): without security_invoker a view would leak every tenant's rows.
    Overrides dbt-postgres's create_view_as (the root project's macro wins the dispatch). -#}
{% macro postgres__create_view_as(relation, sql) -%}
  {%- set sql_header = config.get('sql_header', none) -%}

  {{ sql_header if sql_header is not none }}
  create view {{ relation.render() }}
    {% set contract_config = config.get('contract') %}
    {% if contract_config.enforced %}
      {{ get_assert_columns_equivalent(sql) }}
    {%- endif %}
  with (security_invoker = true)
  as (
    {{ sql }}
  );
{%- endmacro %}
