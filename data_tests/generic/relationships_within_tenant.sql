{#- Like dbt's relationships test, but the parent must belong to the same tenant: ids such as SUP-18 or PRD-482
    exist in several tenants with different meanings. NULL children pass (use not_null for that). -#}
{% test relationships_within_tenant(model, column_name, to, field, tenant_column='tenant_id') %}
select child.{{ tenant_column }}, child.{{ column_name }}
from {{ model }} as child
left join {{ to }} as parent
    on parent.{{ tenant_column }} = child.{{ tenant_column }}
   and parent.{{ field }} = child.{{ column_name }}
where child.{{ column_name }} is not null
  and parent.{{ field }} is null
{% endtest %}
