{#
    Fresh planner statistics for every declared source before models read them. Ingestion usually lands
    thousands of rows moments before `dbt build`, before autovacuum has analyzed them; with the empty-table
    estimates the planner nests loops through the security_invoker view chain and a build that takes seconds
    takes minutes (seen on the demo corpus: one data test over 1,063 lines ran > 2 min, 0.1 s after ANALYZE).
    Only the sources whose statistics are stale by autovacuum's own rule are analyzed (never analyzed, or more
    rows changed since the last analyze than 50 + 10% of them): analyzing every landing table took 1.5 s of a
    no-change incremental run at 1M lines, whose whole budget is a few seconds.
#}
{% macro analyze_sources() %}
    {% if execute %}
        {% set relations = [] %}
        {% for node in graph.sources.values() %}
            {% do relations.append(node.schema ~ '.' ~ node.identifier) %}
        {% endfor %}
        {% if relations %}
            do $$
            declare
                stale record;
            begin
                for stale in
                    select s.schemaname, s.relname
                    from pg_catalog.pg_stat_user_tables as s
                    where s.schemaname || '.' || s.relname in ('{{ relations | unique | join("', '") }}')
                      and (coalesce(s.last_analyze, s.last_autoanalyze) is null
                           or s.n_mod_since_analyze > 50 + 0.1 * s.n_live_tup)
                loop
                    execute format('analyze %I.%I', stale.schemaname, stale.relname);
                end loop;
            end
            $$
        {% endif %}
    {% endif %}
{% endmacro %}
