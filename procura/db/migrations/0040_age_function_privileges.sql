-- procura: run-as admin
-- AGE functions that read a graph by name, outside Cypher's planned label-table scans, do not go through
-- row-level security: called directly with another tenant's graph name they return its vertices and edges.
-- Every ag_catalog function is executable by PUBLIC when the extension is created; this migration takes
-- EXECUTE away from PUBLIC on each function that names a graph and is not needed by a read-only Cypher query of
-- the serving roles, and guards the one such function Cypher itself calls (age_vle, for variable-length paths).
--
-- Design note: age_vle cannot be revoked, because `MATCH (a)-[:R*0..3]->(b)` plans as a call of
-- ag_catalog.age_vle that runs with the caller's privileges. AGE resolves that call by name when it transforms
-- the Cypher text, so the extension's C function is renamed to age_vle_unguarded (EXECUTE for the owner role
-- only) and ag_catalog.age_vle becomes a SECURITY DEFINER wrapper: for a session of a role that is not the owner
-- (or a superuser) it runs only on the graph registered for the transaction's tenant (graph.tenant_graphs,
-- app.current_tenant_id()); on any other graph it returns no rows, as the label tables' policies do. Caveat: the rename is a
-- change to an extension member; `ALTER EXTENSION age UPDATE` or a dump/restore recreates the original function,
-- and this migration has to be re-applied (test_age_functions fails until it is).
do $$
declare
    fn regprocedure;
begin
    foreach fn in array array[
        'ag_catalog.create_graph(name)',
        'ag_catalog.drop_graph(name, boolean)',
        'ag_catalog.alter_graph(name, cstring, name)',
        'ag_catalog.create_vlabel(name, name)',
        'ag_catalog.create_elabel(name, name)',
        'ag_catalog.drop_label(name, name, boolean)',
        'ag_catalog.load_labels_from_file(name, name, text, boolean)',
        'ag_catalog.load_edges_from_file(name, name, text)',
        'ag_catalog.create_complete_graph(name, integer, name, name)',
        'ag_catalog.age_create_barbell_graph(name, integer, integer, name, ag_catalog.agtype, name, ag_catalog.agtype)',
        'ag_catalog.age_prepare_cypher(cstring, cstring)',
        'ag_catalog.age_delete_global_graphs(ag_catalog.agtype)',
        'ag_catalog.age_startnode(ag_catalog.agtype, ag_catalog.agtype)',
        'ag_catalog.age_endnode(ag_catalog.agtype, ag_catalog.agtype)',
        'ag_catalog.age_vertex_stats(ag_catalog.agtype, ag_catalog.agtype)',
        'ag_catalog._label_id(name, name)',
        'ag_catalog.age_vle(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, '
            'ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype)'
    ]::regprocedure[]
    loop
        execute format('revoke execute on function %s from public', fn);
        execute format('grant execute on function %s to procura_owner', fn);
    end loop;
end
$$;

alter function ag_catalog.age_vle(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) rename to age_vle_unguarded;
revoke execute on function ag_catalog.age_vle_unguarded(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) from public;
grant execute on function ag_catalog.age_vle_unguarded(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) to procura_owner;

create function ag_catalog.age_vle(
    p_graph ag_catalog.agtype, p_start ag_catalog.agtype, p_end ag_catalog.agtype, p_edge ag_catalog.agtype,
    p_min ag_catalog.agtype, p_max ag_catalog.agtype, p_direction ag_catalog.agtype, p_function ag_catalog.agtype,
    out edges ag_catalog.agtype
) returns setof ag_catalog.agtype
    language plpgsql stable security definer
    set search_path = pg_catalog, pg_temp
    as $$
begin
    if not (pg_has_role(session_user, 'procura_owner', 'usage')
            or (select rolsuper from pg_roles where rolname = session_user)) then
        -- procura_owner has BYPASSRLS, so the registry is filtered by the transaction's tenant explicitly.
        if p_graph is null or not exists (
            select from graph.tenant_graphs t
            where t.tenant_id = app.current_tenant_id() and t.graph_name = p_graph::text
        ) then
            return;  -- like row-level security on the label tables: another graph has no rows for this tenant
        end if;
    end if;
    return query select * from ag_catalog.age_vle_unguarded(
        p_graph, p_start, p_end, p_edge, p_min, p_max, p_direction, p_function);
end
$$;

alter function ag_catalog.age_vle(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) owner to procura_owner;
revoke execute on function ag_catalog.age_vle(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype) from public;
grant execute on function ag_catalog.age_vle(ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype,
    ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype, ag_catalog.agtype)
    to procura_owner, procura_app;
