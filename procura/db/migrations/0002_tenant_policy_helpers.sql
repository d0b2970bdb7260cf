-- One function for the tenant of the current transaction, so that every policy reads the same setting.
-- current_setting(..., true) is NULL when no tenant is set, and NULL = tenant_id is never true: no tenant, no rows.
create or replace function app.current_tenant_id() returns text
    language sql stable parallel safe
    as $$ select nullif(current_setting('app.tenant_id', true), '') $$;

grant execute on function app.current_tenant_id() to procura_app, procura_bi;
grant usage on schema app to procura_bi;

-- Applies the standard tenant isolation (RLS enabled and FORCED, one policy for reads and writes) to a table.
-- Used by migrations and by dbt's post-hook, so the rule is written once.
create or replace procedure app.apply_tenant_isolation(target regclass)
    language plpgsql
    as $$
begin
    execute format('alter table %s enable row level security', target);
    execute format('alter table %s force row level security', target);
    execute format('drop policy if exists tenant_isolation on %s', target);
    execute format(
        'create policy tenant_isolation on %s using (tenant_id = app.current_tenant_id()) '
        'with check (tenant_id = app.current_tenant_id())',
        target
    );
end
$$;
