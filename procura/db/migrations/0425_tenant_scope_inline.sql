-- The tenant scope and the audit row without per-call PL/pgSQL set-up (issue 21, the metric API's cost).
--
-- A metric call is one short transaction: the scope statement, then the audited query. PL/pgSQL evaluates each
-- expression of a function through an expression state it builds once per transaction, so in a transaction of
-- one call every expression of app.begin_tenant_scope (the role check, the tenant pattern, three set_config
-- calls, each PERFORM a query of its own) was set up afresh on every call: about 45-65 us of backend CPU per
-- call at load 10-12 on the shared 2-core machine, where the same three set_config calls as a plain statement
-- cost about 5 us (measured per call from the backend's scheduler statistics, 1,500 calls interleaved; see
-- docs/benchmarks.md, "Metric API, sixth pass").
--
-- app.begin_tenant_scope becomes a one-expression SQL function, which the planner inlines into the calling
-- statement (a prepared statement keeps it in its plan), with the same checks and effects:
-- * the role check and the tenant pattern come first in one CASE; when either fails, nothing is set and
--   app.refuse_tenant_scope() raises the same errors as before (insufficient_privilege naming the role, or
--   invalid_parameter_value), so a pipelined query after it never runs;
-- * READ ONLY (or not), the tenant and the statement timeout are set local to the transaction; a NULL timeout
--   leaves the current one (set_config to its own value), as the PL/pgSQL function did by not setting it.
-- Every name is schema-qualified, operators too: an inlined body is parsed with the caller's search_path, which
-- for AGE sessions starts with ag_catalog (see 0210). SECURITY INVOKER as before (current_user is the caller);
-- `create or replace` keeps the grants (procura_app; procura_bi lost EXECUTE in 0031, and a caller without
-- EXECUTE gets no inlining, so the call still fails on the privilege).
create or replace function app.refuse_tenant_scope(p_tenant_id text) returns void
    language plpgsql
    volatile
    as $$
begin
    if current_user not in ('procura_app', 'procura_bi') then
        raise exception 'tenant transactions must run as procura_app or procura_bi, not %', current_user
            using errcode = 'insufficient_privilege';
    end if;
    raise exception 'invalid tenant id' using errcode = 'invalid_parameter_value';
end
$$;

revoke all on function app.refuse_tenant_scope(text) from public;
grant execute on function app.refuse_tenant_scope(text) to procura_app;

create or replace function app.begin_tenant_scope(
    p_tenant_id text,
    p_read_only boolean,
    p_statement_timeout text
) returns void
    language sql
    volatile
    as $$
    select case
        when current_user operator(pg_catalog.=) any ('{procura_app,procura_bi}'::pg_catalog.name[])
            and p_tenant_id operator(pg_catalog.~) '^[a-z0-9][a-z0-9-]{0,62}$'
            and pg_catalog.set_config('transaction_read_only', case when p_read_only then 'on' else 'off' end, true)
                is not null
            and pg_catalog.set_config('app.tenant_id', p_tenant_id, true) is not null
            and pg_catalog.set_config('statement_timeout',
                coalesce(p_statement_timeout, pg_catalog.current_setting('statement_timeout')), true) is not null
            then null::pg_catalog.void
        else app.refuse_tenant_scope(p_tenant_id)
    end
$$;

-- The audit row: the same checks, columns and values as 0042; `synchronous_commit` is set by an assignment (a
-- simple expression) instead of PERFORM (a query through SPI per call): about 25 us of backend CPU per call at
-- load 11, measured as above.
create or replace function app.record_audit(
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
    v_ignored text;
begin
    if v_tenant_id is null or v_tenant_id !~ '^[a-z0-9][a-z0-9-]{0,62}$' then
        raise exception 'audit rows are written inside a tenant transaction (app.tenant_id is not set)'
            using errcode = '22023';
    end if;
    v_ignored := set_config('synchronous_commit', 'off', true);
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
