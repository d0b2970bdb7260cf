-- Scoping a serving transaction to one tenant in a single statement that fails on the server when it must.
--
-- Before this function, procura.db.session.tenant_transaction read `current_user` back to check the role, which
-- forced a network round trip before the query could be sent. Raising here instead lets a client pipeline
-- BEGIN, this call, the query and COMMIT in one round trip: when the check fails the server discards the rest
-- of the pipeline, so the query never runs. SECURITY INVOKER (the default), so current_user is the caller.
create or replace function app.begin_tenant_scope(
    p_tenant_id text,
    p_read_only boolean,
    p_statement_timeout text
) returns void
    language plpgsql
    volatile
    as $$
begin
    -- Row-level security does not apply to superusers, table owners or BYPASSRLS roles: scoping a transaction
    -- of any role other than the two serving roles would be a silent isolation failure.
    if current_user not in ('procura_app', 'procura_bi') then
        raise exception 'tenant transactions must run as procura_app or procura_bi, not %', current_user
            using errcode = 'insufficient_privilege';
    end if;
    if p_tenant_id is null or p_tenant_id !~ '^[a-z0-9][a-z0-9-]{0,62}$' then
        raise exception 'invalid tenant id' using errcode = 'invalid_parameter_value';
    end if;
    perform set_config('transaction_read_only', case when p_read_only then 'on' else 'off' end, true);
    perform set_config('app.tenant_id', p_tenant_id, true);
    if p_statement_timeout is not null then
        perform set_config('statement_timeout', p_statement_timeout, true);
    end if;
end
$$;

revoke all on function app.begin_tenant_scope(text, boolean, text) from public;
grant execute on function app.begin_tenant_scope(text, boolean, text) to procura_app, procura_bi;
