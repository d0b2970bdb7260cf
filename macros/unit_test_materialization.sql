{#- dbt's unit-test materialization for Postgres, changed in one place: it learns the column types of the model's
    query from an empty regular VIEW in the model's schema instead of a TEMPORARY table, because procura_owner
    (which runs dbt) is deliberately not granted TEMPORARY on the database by migration 0001. Everything else is
    dbt 1.11's default unit materialization. -#}
{%- materialization unit, adapter='postgres' -%}

  {% set relations = [] %}
  {% set sql_header = config.get('sql_header') if flags.REQUIRE_SQL_HEADER_IN_TEST_CONFIGS else none %}

  {% set expected_rows = config.get('expected_rows') %}
  {% set expected_sql = config.get('expected_sql') %}
  {% set tested_expected_column_names = expected_rows[0].keys() if (expected_rows | length ) > 0 else get_columns_in_query(sql) %}

  {%- set target_relation = this.incorporate(type='table') -%}
  {#- one probe view per unit test, so unit tests of one model can run in parallel threads -#}
  {%- set probe_identifier = 'dbt_unit_probe_' ~ local_md5(model.unique_id)[:16] -%}
  {%- set probe_relation = api.Relation.create(
        database=target_relation.database, schema=target_relation.schema,
        identifier=probe_identifier, type='view') -%}
  {% do adapter.drop_relation(probe_relation) %}
  {% do run_query('create view ' ~ probe_relation ~ ' as ' ~ get_empty_subquery_sql(sql)) %}
  {%- set columns_in_relation = adapter.get_columns_in_relation(probe_relation) -%}
  {% do adapter.drop_relation(probe_relation) %}
  {%- set column_name_to_data_types = {} -%}
  {%- set column_name_to_quoted = {} -%}
  {%- for column in columns_in_relation -%}
  {%-   do column_name_to_data_types.update({column.name|lower: column.data_type}) -%}
  {%-   do column_name_to_quoted.update({column.name|lower: column.quoted}) -%}
  {%- endfor -%}

  {%- set expected_column_names_quoted = [] -%}
  {%- for column_name in tested_expected_column_names -%}
  {%-   do expected_column_names_quoted.append(column_name_to_quoted[column_name|lower]) -%}
  {%- endfor -%}

  {% if not expected_sql %}
  {%   set expected_sql = get_expected_sql(expected_rows, column_name_to_data_types, column_name_to_quoted) %}
  {% endif %}
  {% set unit_test_sql = get_unit_test_sql(sql, expected_sql, expected_column_names_quoted) %}

  {% call statement('main', fetch_result=True) -%}

    {% if sql_header %}{{ sql_header }}{% endif %}
    {{ unit_test_sql }}

  {%- endcall %}

  {{ return({'relations': relations}) }}

{%- endmaterialization -%}
