-- procura: run-as admin
-- procura_bi becomes the group of the per-tenant BI logins of migration 0030: it keeps the grants (USAGE on
-- marts and SELECT on every mart through the default privileges of migration 0001) and loses everything a BI
-- tool does not need. Each login gets CONNECT on its own database when `procura bi create-login` creates it.
do $$
begin
    execute format('revoke connect, temporary on database %I from procura_bi', current_database());
    -- Roles are cluster-wide: while another database of this server (not yet migrated) still lets procura_bi
    -- connect, the role keeps its LOGIN for that database's sake; `procura db migrate` retires it once none does.
    if not exists (
        select from pg_database as d, aclexplode(d.datacl) as a
        where a.grantee = 'procura_bi'::regrole and a.privilege_type = 'CONNECT'
    ) then
        alter role procura_bi nologin password null;
    end if;
end
$$;

-- The API's tenant scoping is not for BI sessions (and app.current_tenant_id() ignores app.tenant_id for them).
revoke execute on function app.begin_tenant_scope(text, boolean, text) from procura_bi;

-- Design note: pg_stat_activity shows every session of the server to everyone, with the query text of the
-- sessions whose role the reader has the privileges of; the BI logins of different customers must not even see
-- each other's sessions (login names, client applications, start times), nor which relations they lock
-- (pg_locks). Everyone may also take advisory locks (which Procura's graph writer, index builds and migrations
-- use: a BI session holding one would stall them) and create large objects (objects a BI login would own). These
-- catalog privileges are per database; the roles that run Procura's own code keep them.
revoke select on pg_catalog.pg_stat_activity, pg_catalog.pg_stat_ssl, pg_catalog.pg_stat_gssapi, pg_catalog.pg_locks
    from public;
grant select on pg_catalog.pg_stat_activity, pg_catalog.pg_stat_ssl, pg_catalog.pg_stat_gssapi, pg_catalog.pg_locks
    to procura_owner, procura_app;

do $$
declare
    fn regprocedure;
begin
    for fn in
        select p.oid::regprocedure from pg_catalog.pg_proc as p
        where p.pronamespace = 'pg_catalog'::regnamespace
          and (p.proname like 'pg\_stat\_get\_backend\_%'
               or p.proname in ('pg_stat_get_activity', 'pg_lock_status', 'pg_blocking_pids',
                                'pg_safe_snapshot_blocking_pids')
               or p.proname like 'pg\_%advisory%')
    loop
        execute format('revoke execute on function %s from public', fn);
        execute format('grant execute on function %s to procura_owner, procura_app', fn);
    end loop;
end
$$;

-- Procura stores no large objects; nobody but the admin creates them.
revoke execute on function pg_catalog.lo_create(oid), pg_catalog.lo_creat(integer),
    pg_catalog.lo_from_bytea(oid, bytea) from public;

-- Marts built before migration 0030 still hold the statistics it stops collecting (see app.hide_column_statistics);
-- the next dbt build replaces those tables, and until then the old rows are removed here.
delete from pg_catalog.pg_statistic as s
using pg_catalog.pg_class as c
where c.oid = s.starelid and c.relnamespace = 'marts'::regnamespace;
