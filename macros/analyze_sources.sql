{#
    Fresh planner statistics for every declared source before models read them. Ingestion usually lands
    thousands of rows moments before `dbt build`, before autovacuum has analyzed them; with the empty-table
    estimates the planner nests loops through the security_invoker view chain and a build that takes seconds
    takes minutes (seen on the demo corpus: one data test over 1,063 lines ran > 2 min, 0.1 s after ANALYZE).
#}
{% macro analyze_sources() %}
    {% if execute %}
        {% set relations = [] %}
        {% for node in graph.sources.values() %}
            {% do relations.append(adapter.quote(node.schema) ~ '.' ~ adapter.quote(node.identifier)) %}
        {% endfor %}
        {% if relations %}
            analyze {{ relations | unique | join(', ') }}
        {% endif %}
    {% endif %}
{% endmacro %}
