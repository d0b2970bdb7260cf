-- API keys of the serving API. Only a sha256 of each key is stored: keys are 256-bit random secrets, so a fast
-- hash is enough (no dictionary to attack) and lookups stay one index probe. The key is printed once at creation.
-- Design note: RLS is on like on every tenant table, and procura_app gets no privilege on the table at all. A
-- request is authenticated before any tenant is known, so it goes through app.authenticate_api_key(), a
-- SECURITY DEFINER function owned by procura_owner that returns the one active key matching a hash, nothing else.
create table app.api_keys (
    key_id                text        primary key check (key_id ~ '^[0-9a-f]{12}$'),
    key_hash              text        not null unique check (key_hash ~ '^[0-9a-f]{64}$'),
    tenant_id             text        not null check (tenant_id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    principal_id          text        not null check (length(principal_id) between 1 and 200),
    scopes                text[]      not null default '{}',
    rate_limit_per_minute integer     not null default 600 check (rate_limit_per_minute between 1 and 1000000),
    created_at            timestamptz not null default now(),
    expires_at            timestamptz,
    revoked_at            timestamptz
);

create index api_keys_tenant on app.api_keys (tenant_id);

call app.apply_tenant_isolation('app.api_keys');

create function app.authenticate_api_key(p_key_hash text)
    returns table (
        key_id                text,
        tenant_id             text,
        principal_id          text,
        scopes                text[],
        rate_limit_per_minute integer
    )
    language sql stable security definer
    set search_path = pg_catalog, pg_temp
    as $$
        select k.key_id, k.tenant_id, k.principal_id, k.scopes, k.rate_limit_per_minute
        from app.api_keys as k
        where k.key_hash = p_key_hash
          and k.revoked_at is null
          and (k.expires_at is null or k.expires_at > now())
    $$;

revoke all on function app.authenticate_api_key(text) from public;
grant execute on function app.authenticate_api_key(text) to procura_app;
