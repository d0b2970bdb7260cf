-- Intermediate results per run: one row per attempt of one plan step, with the validated request and the typed
-- response (or the error). A retried SQL timeout adds a second attempt row; successful steps are never re-run.
create table app.runs (
    tenant_id    text        not null,
    run_id       uuid        not null,
    trace_id     uuid        not null,
    step_id      text        not null,
    attempt      integer     not null check (attempt > 0),
    tool         text        not null,
    status       text        not null check (status in (
        'ok', 'not_found', 'timeout', 'invalid_input', 'invalid_output', 'failed', 'denied', 'skipped')),
    arguments    jsonb       not null,
    result       jsonb,
    error        text,
    started_at   timestamptz not null default now(),
    duration_ms  numeric(12, 3) not null,
    primary key (tenant_id, run_id, step_id, attempt),
    foreign key (tenant_id, trace_id) references app.traces (tenant_id, trace_id) on delete cascade
);
create index runs_trace on app.runs (tenant_id, trace_id);

call app.apply_tenant_isolation('app.runs');

grant select, insert on app.runs to procura_app;
