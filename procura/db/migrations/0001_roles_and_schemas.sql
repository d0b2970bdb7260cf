-- procura: run-as admin
-- Roles are cluster-wide, so every statement here tolerates roles that an earlier database already created.
-- Design note: procura_owner owns every object and runs DDL, dbt and ingestion. It has BYPASSRLS because dbt
-- builds marts across all tenants; request-serving code never uses it. procura_app and procura_bi are plain
-- login roles: not superuser, no BYPASSRLS, owner of nothing, so row-level security always applies to them.
do $$
begin
    if not exists (select from pg_roles where rolname = 'procura_owner') then
        create role procura_owner login nosuperuser nocreatedb nocreaterole bypassrls;
    end if;
    if not exists (select from pg_roles where rolname = 'procura_app') then
        create role procura_app login nosuperuser nocreatedb nocreaterole nobypassrls noinherit;
    end if;
    if not exists (select from pg_roles where rolname = 'procura_bi') then
        create role procura_bi login nosuperuser nocreatedb nocreaterole nobypassrls noinherit;
    end if;
    execute format('grant connect, temporary on database %I to procura_app, procura_bi', current_database());
    execute format('grant connect, create on database %I to procura_owner', current_database());
    execute format('revoke all on database %I from public', current_database());
end
$$;

revoke create on schema public from public;

create schema if not exists app authorization procura_owner;
create schema if not exists ingest authorization procura_owner;
create schema if not exists landing authorization procura_owner;
create schema if not exists staging authorization procura_owner;
create schema if not exists intermediate authorization procura_owner;
create schema if not exists marts authorization procura_owner;

grant usage on schema public to procura_owner, procura_app, procura_bi;
grant usage on schema marts to procura_bi, procura_app;
grant usage on schema app, ingest, landing to procura_app;

-- Every table dbt creates in marts is readable by the serving roles; RLS (added by the post-hook in the same
-- transaction) decides which rows.
alter default privileges for role procura_owner in schema marts grant select on tables to procura_bi, procura_app;

-- AGE keeps its catalog in ag_catalog; the graph tools (as procura_app) need to call cypher().
grant usage on schema ag_catalog to procura_owner, procura_app;
grant select on all tables in schema ag_catalog to procura_owner, procura_app;
