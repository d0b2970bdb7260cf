-- The row policy of every AGE label table compares the graph's name with `(select app.current_tenant_graph())`,
-- evaluated once per statement for each label table the statement reads (an InitPlan each: a product traversal
-- reads 21). As a `language sql` function with a FROM clause it cannot be inlined, and each of those calls set up
-- the SQL function executor and planned its query afresh (about 0.07 ms each, measured, so 1.5 ms of a product
-- traversal under row-level security). PL/pgSQL keeps the plan of its query for the session, so a call is a
-- cached lookup. Same query, same invoker rights and volatility; `create or replace` keeps the grants of 0041.
-- Every name is schema-qualified (the operator too): the body is parsed with the caller's search_path, which for
-- AGE sessions starts with ag_catalog.
create or replace function app.current_tenant_graph() returns text
    language plpgsql stable parallel safe
    as $$
begin
    return (
        select t.graph_name from graph.tenant_graphs t
        where t.tenant_id operator(pg_catalog.=) app.current_tenant_id()
    );
end
$$;
