-- Per-tenant BI logins: which tenant a BI login may see is decided by who logged in, never by a setting.
--
-- Design note: before this migration every BI tool shared one login (procura_bi) and row-level security read
-- the tenant from app.tenant_id, a setting any SQL client can change (SET, set_config, connection options).
-- Now each BI login is a LOGIN role, member of the NOLOGIN group procura_bi (which holds the grants), and bound
-- to one tenant by a row of app.bi_logins. Only the admin writes that table (no serving role has any privilege
-- on it); policies read it through app.bi_session_tenant(), a SECURITY DEFINER function with a fixed
-- search_path that looks up session_user only. session_user is the role that authenticated: SET ROLE, RESET
-- ROLE and SECURITY DEFINER functions change current_user but never session_user, and only a superuser session
-- may SET SESSION AUTHORIZATION.
--
-- procura_app (the API, whose code sets the tenant per transaction from an authenticated key) and superuser
-- sessions keep reading app.tenant_id: that branch is the first one of app.current_tenant_id(), which stays an
-- inlinable SQL function; under the per-row policies of the tables created before this migration it costs one
-- comparison of session_user more per row (about 50 ns in a scan of a million rows).

-- The standard isolation of migration 0002, with the tenant read once per statement: `(select ...)` makes the
-- planner evaluate it as an init plan instead of once per row. For procura_app the function is a cheap inlined
-- expression either way; for a BI login it is a lookup of the binding (several microseconds), which per row
-- would make a scan of 100,000 mart rows take half a second longer. dbt's post-hook applies it to every mart.
create or replace procedure app.apply_tenant_isolation(target regclass)
    language plpgsql
    as $$
begin
    execute format('alter table %s enable row level security', target);
    execute format('alter table %s force row level security', target);
    execute format('drop policy if exists tenant_isolation on %s', target);
    execute format(
        'create policy tenant_isolation on %s using (tenant_id = (select app.current_tenant_id())) '
        'with check (tenant_id = (select app.current_tenant_id()))',
        target
    );
end
$$;

create table app.bi_logins (
    role_oid   oid         primary key,
    role_name  name        not null unique,
    tenant_id  text        not null check (tenant_id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    created_at timestamptz not null default now(),
    rotated_at timestamptz
);

-- One row per administrative action on a BI login; never the password.
create table app.bi_login_audit (
    audit_id    bigint      generated always as identity primary key,
    action      text        not null check (action in ('create', 'rotate', 'drop')),
    role_name   name        not null,
    tenant_id   text        not null,
    actor       name        not null default session_user,
    occurred_at timestamptz not null default now()
);

-- Every table with a tenant_id carries the standard isolation; no serving role is granted anything on these two,
-- so the policies only matter as a second lock.
call app.apply_tenant_isolation('app.bi_logins');
call app.apply_tenant_isolation('app.bi_login_audit');
revoke all on app.bi_logins, app.bi_login_audit from public;

-- The tenant of the session's login:
--   * a bound login: its tenant, whatever the session did (p_setting is ignored);
--   * a member of procura_bi that is not bound (the group itself, a login whose binding was removed), or a
--     caller whose current_user is such a member (p_caller_is_bi): NULL, i.e. no rows;
--   * anyone else: p_setting, the value of app.tenant_id.
-- It reads the binding of session_user only, so calling it directly reveals nothing about other logins.
create function app.bi_session_tenant(p_caller_is_bi boolean, p_setting text) returns text
    language sql stable parallel safe security definer
    set search_path = pg_catalog, pg_temp
    as $$
        select case
            when b.tenant_id is not null then b.tenant_id
            when p_caller_is_bi then null
            when not r.rolsuper and pg_has_role(r.oid, 'procura_bi', 'MEMBER') then null
            else p_setting
        end
        from pg_roles as r
        left join app.bi_logins as b on b.role_oid = r.oid
        where r.rolname = session_user
    $$;

revoke all on function app.bi_session_tenant(boolean, text) from public;
grant execute on function app.bi_session_tenant(boolean, text) to procura_app, procura_bi;

-- Every name is schema-qualified (operators too): the body is parsed with the caller's search_path when a
-- policy inlines it.
create or replace function app.current_tenant_id() returns text
    language sql stable parallel safe
    as $$
        select case
            when session_user operator(pg_catalog.=) 'procura_app'::pg_catalog.name
                or pg_catalog.current_setting('is_superuser') operator(pg_catalog.=) 'on'
                then nullif(pg_catalog.current_setting('app.tenant_id', true), '')
            else app.bi_session_tenant(
                pg_catalog.pg_has_role(current_user, 'procura_bi', 'MEMBER'),
                nullif(pg_catalog.current_setting('app.tenant_id', true), '')
            )
        end
    $$;

-- Design note: statistics are collected over all tenants' rows, and under row-level security the planner still
-- uses them for leakproof operators (text =, <, ...), so `EXPLAIN select ... where supplier_id = 'X'` would
-- estimate how often another tenant has X, and pg_stats would list its values to anyone allowed to read them.
-- A mart keeps no per-column statistics at all (dbt's post-hook calls this on every mart): the planner falls back
-- to default selectivities and the table's row count, which hold no value of any tenant.
create procedure app.hide_column_statistics(target regclass)
    language plpgsql
    as $$
declare
    col name;
begin
    for col in
        select a.attname from pg_catalog.pg_attribute as a
        where a.attrelid = target and a.attnum > 0 and not a.attisdropped
    loop
        execute format('alter table %s alter column %I set statistics 0', target, col);
    end loop;
end
$$;

do $$
declare
    mart regclass;
begin
    for mart in select c.oid::regclass from pg_class as c where c.relnamespace = 'marts'::regnamespace
                                                            and c.relkind in ('r', 'p') loop
        call app.apply_tenant_isolation(mart);
        call app.hide_column_statistics(mart);
    end loop;
end
$$;
