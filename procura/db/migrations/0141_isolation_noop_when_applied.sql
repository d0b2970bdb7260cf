-- The marts post-hooks call app.apply_tenant_isolation and app.hide_column_statistics after every build. A table
-- mart is new each time, but an incremental mart (validated_invoice_lines) keeps its table between runs: there
-- the ALTER TABLE statements would take an ACCESS EXCLUSIVE lock that holds until the build commits, and every
-- metric query would wait for the whole run. Both procedures now change only what is missing, so on a table that
-- already has its policy and hidden statistics they take no lock. Same effect as before on a new table.
create or replace procedure app.apply_tenant_isolation(target regclass)
    language plpgsql
    as $$
declare
    v_enabled boolean;
    v_forced  boolean;
begin
    select c.relrowsecurity, c.relforcerowsecurity into v_enabled, v_forced
    from pg_catalog.pg_class as c where c.oid = target;
    if not v_enabled then
        execute format('alter table %s enable row level security', target);
    end if;
    if not v_forced then
        execute format('alter table %s force row level security', target);
    end if;
    if not exists (
        select 1 from pg_catalog.pg_policy as p
        where p.polrelid = target and p.polname = 'tenant_isolation' and p.polcmd = '*' and p.polpermissive
          and p.polroles = '{0}'
          and pg_catalog.pg_get_expr(p.polqual, p.polrelid) = '(tenant_id = ( SELECT app.current_tenant_id() AS current_tenant_id))'
          and pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid) = '(tenant_id = ( SELECT app.current_tenant_id() AS current_tenant_id))'
    ) then
        execute format('drop policy if exists tenant_isolation on %s', target);
        execute format(
            'create policy tenant_isolation on %s using (tenant_id = (select app.current_tenant_id())) '
            'with check (tenant_id = (select app.current_tenant_id()))',
            target
        );
    end if;
end
$$;

create or replace procedure app.hide_column_statistics(target regclass)
    language plpgsql
    as $$
declare
    col name;
begin
    for col in
        select a.attname from pg_catalog.pg_attribute as a
        where a.attrelid = target and a.attnum > 0 and not a.attisdropped
          and a.attstattarget is distinct from 0
    loop
        execute format('alter table %s alter column %I set statistics 0', target, col);
    end loop;
end
$$;
