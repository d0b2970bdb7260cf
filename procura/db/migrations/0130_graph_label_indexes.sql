-- Indexes the serving tools' Cypher needs on graphs provisioned before this migration (graph.age.index_statements
-- creates the same ones, by the same names, on every graph provisioned from now on):
-- * `<label>_gid`: the graph id of every label table. AGE creates label tables without any index, and every
--   step of a pattern joins an edge's start_id/end_id to a vertex's id; without it each step hash-joins the whole
--   vertex label.
-- * `<label>_name`: vertex lookups by name (`WHERE g.name = $group`), a btree on the same agtype expression AGE
--   generates for the property access.
-- Names are the lower-cased label plus a suffix, inside the graph's own schema; `if not exists` makes a re-run
-- (or a graph that already has them) a no-op. Row-level security and grants are untouched: an index adds no
-- read path (procura_app still needs SELECT and passes the label tables' policies).
do $$
declare
    g record;
    l record;
begin
    for g in
        select t.graph_name from graph.tenant_graphs t
        join ag_catalog.ag_graph ag on ag.name = t.graph_name
    loop
        for l in
            select al.name as label, al.kind from ag_catalog.ag_label al
            join ag_catalog.ag_graph ag on ag.graphid = al.graph
            where ag.name = g.graph_name and al.name not in ('_ag_label_vertex', '_ag_label_edge')
        loop
            execute format('create index if not exists %I on %I.%I (id)', lower(l.label) || '_gid', g.graph_name,
                           l.label);
            if l.kind = 'v' then
                execute format(
                    'create index if not exists %I on %I.%I ((ag_catalog.agtype_access_operator('
                    'VARIADIC ARRAY[properties, %L::ag_catalog.agtype])))',
                    lower(l.label) || '_name', g.graph_name, l.label, '"name"');
            end if;
        end loop;
    end loop;
end
$$;
