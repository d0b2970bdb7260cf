-- The read policy of every AGE label table named its tenant as a literal ('... = ''tenant-17'''), and policy
-- expressions are readable by every role through pg_policy/pg_policies. The policy now compares the graph's own
-- (opaque) name with the graph registered for the transaction's tenant, so no tenant id appears in it.
-- Design note: the lookup is written as a scalar subquery in the policy, so Postgres evaluates it once per
-- statement (an InitPlan), not once per row of a label table. Graphs provisioned later get the same policy from
-- graph.age.ensure_graph; graphs still named after their tenant are renamed by it on their next provisioning.
create or replace function app.current_tenant_graph() returns text
    language sql stable parallel safe
    as $$ select graph_name from graph.tenant_graphs where tenant_id = app.current_tenant_id() $$;

grant execute on function app.current_tenant_graph() to procura_app;

do $$
declare
    g record;
    t record;
begin
    for g in select graph_name from graph.tenant_graphs loop
        for t in
            select c.oid::regclass as target from pg_class c
            join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = g.graph_name and c.relkind = 'r'
        loop
            execute format('drop policy if exists tenant_graph_read on %s', t.target);
            execute format(
                'create policy tenant_graph_read on %s for select using ((select app.current_tenant_graph()) = %L)',
                t.target, g.graph_name);
        end loop;
    end loop;
end
$$;
