{#- Fails on every combination of `combination_of_columns` that occurs more than once. -#}
{% test unique_combination_of_columns(model, combination_of_columns) %}
{%- set columns = combination_of_columns | join(', ') -%}
select {{ columns }}, count(*) as occurrences
from {{ model }}
group by {{ columns }}
having count(*) > 1
{% endtest %}
