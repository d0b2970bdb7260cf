-- The audit row's tenant comes from the transaction (app.tenant_id, set by app.begin_tenant_scope from the
-- authenticated context), never from an argument: app.record_metric_audit(p_tenant_id, ...) let the serving role
-- append rows to any tenant's log in one call and is no longer executable by it. MCP calls get their own route
-- label. Parameter hashes are keyed (HMAC with the server secret) by the application; the column is unchanged.
alter table app.audit_log drop constraint if exists audit_log_route_check;
alter table app.audit_log add constraint audit_log_route_check check (route in ('api', 'cli', 'mcp'));

create function app.record_audit(
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
declare
    v_tenant_id text := nullif(current_setting('app.tenant_id', true), '');
begin
    if v_tenant_id is null or v_tenant_id !~ '^[a-z0-9][a-z0-9-]{0,62}$' then
        raise exception 'audit rows are written inside a tenant transaction (app.tenant_id is not set)'
            using errcode = '22023';
    end if;
    perform set_config('synchronous_commit', 'off', true);
    insert into app.audit_log (
        tenant_id, principal_id, key_id, route, metric, parameter_names, parameter_hashes, group_by, grain,
        row_count, duration_ms, outcome, error_code)
    values (
        v_tenant_id, p_principal_id, p_key_id, p_route, p_metric,
        coalesce((select array_agg(k order by k) from jsonb_object_keys(p_parameter_hashes) as k), '{}'),
        p_parameter_hashes, coalesce(p_group_by, '{}'), p_grain, p_row_count, p_duration_ms, p_outcome,
        p_error_code);
end
$$;

revoke all on function app.record_audit(text, text, text, text, jsonb, text[], text, integer, numeric, text, text)
    from public;
grant execute on function app.record_audit(text, text, text, text, jsonb, text[], text, integer, numeric, text, text)
    to procura_app;
revoke all on function app.record_metric_audit(text, text, text, text, text, jsonb, text[], text, integer, numeric,
    text, text) from procura_app;
