-- One audit row per metric query: who (principal, key), which tenant, which metric, which parameters (names and
-- sha256 hashes of their values, never the values), how many rows, how long, and the outcome.
-- Design note: the standard tenant isolation applies (RLS enabled and forced, rows of the transaction's tenant
-- only); on top of it a RESTRICTIVE policy lets SELECT see rows only when the transaction's principal holds the
-- tenant:admin scope. The scopes come from the authenticated API key and are set per transaction
-- (app.principal_scopes) by the serving code, exactly like app.tenant_id. procura_app cannot INSERT, UPDATE or
-- DELETE rows: it appends through app.record_metric_audit(), one statement (one round trip) per query, whose
-- commit does not wait for the WAL flush (synchronous_commit off: a database crash can lose the audit rows of
-- the last fraction of a second, never corrupt them).
create or replace function app.current_scopes() returns text[]
    language sql stable parallel safe
    as $$ select coalesce(string_to_array(nullif(current_setting('app.principal_scopes', true), ''), ','), '{}') $$;

grant execute on function app.current_scopes() to procura_app, procura_bi;

create table app.audit_log (
    audit_id          bigint        generated always as identity primary key,
    tenant_id         text          not null,
    principal_id      text          not null,
    key_id            text,
    route             text          not null check (route in ('api', 'cli')),
    metric            text          not null check (length(metric) <= 200),
    parameter_names   text[]        not null default '{}',
    parameter_hashes  jsonb         not null default '{}'::jsonb,
    group_by          text[]        not null default '{}',
    grain             text,
    row_count         integer       check (row_count >= 0),
    duration_ms       numeric(12, 3) not null check (duration_ms >= 0),
    outcome           text          not null check (outcome in (
        'ok', 'partial', 'no_data', 'rejected', 'forbidden', 'not_found', 'timeout', 'error')),
    error_code        text,
    occurred_at       timestamptz   not null default now()
);

create index audit_log_tenant_time on app.audit_log (tenant_id, occurred_at desc);

call app.apply_tenant_isolation('app.audit_log');

create policy audit_log_read_tenant_admins on app.audit_log
    as restrictive
    for select
    using ('tenant:admin' = any (app.current_scopes()));

grant select on app.audit_log to procura_app;

create function app.record_metric_audit(
    p_tenant_id        text,
    p_principal_id     text,
    p_key_id           text,
    p_route            text,
    p_metric           text,
    p_parameter_hashes jsonb,
    p_group_by         text[],
    p_grain            text,
    p_row_count        integer,
    p_duration_ms      numeric,
    p_outcome          text,
    p_error_code       text
) returns void
    language plpgsql volatile security definer
    set search_path = pg_catalog, pg_temp
    as $$
begin
    if p_tenant_id is null or p_tenant_id !~ '^[a-z0-9][a-z0-9-]{0,62}$' then
        raise exception 'invalid tenant id for the audit log' using errcode = '22023';
    end if;
    perform set_config('synchronous_commit', 'off', true);
    insert into app.audit_log (
        tenant_id, principal_id, key_id, route, metric, parameter_names, parameter_hashes, group_by, grain,
        row_count, duration_ms, outcome, error_code)
    values (
        p_tenant_id, p_principal_id, p_key_id, p_route, p_metric,
        coalesce((select array_agg(k order by k) from jsonb_object_keys(p_parameter_hashes) as k), '{}'),
        p_parameter_hashes, coalesce(p_group_by, '{}'), p_grain, p_row_count, p_duration_ms, p_outcome,
        p_error_code);
end
$$;

revoke all on function app.record_metric_audit(text, text, text, text, text, jsonb, text[], text, integer, numeric,
    text, text) from public;
grant execute on function app.record_metric_audit(text, text, text, text, text, jsonb, text[], text, integer,
    numeric, text, text) to procura_app;
