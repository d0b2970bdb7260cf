-- Ask traces: one row per question asked through /v1/ask, `procura ask` or MCP `ask`, readable by the same
-- tenant only (GET /v1/traces/{id}). The routing decision, the final answer and its validation are kept whole;
-- the ordered events (intents, entities, plan steps, tool calls, policy checks, citations) are in
-- app.trace_steps, and the typed intermediate results of each tool call in app.runs.
create table app.traces (
    tenant_id        text        not null,
    trace_id         uuid        not null,
    principal_id     text        not null,
    interface        text        not null check (interface in ('api', 'cli', 'mcp', 'test')),
    question         text        not null,
    as_of            date        not null,
    status           text        not null check (status in (
        'running', 'answered', 'partial', 'no_data', 'not_found', 'clarification', 'unsupported',
        'validation_failed', 'failed')),
    workflow         text,
    routing          jsonb       not null,
    answer           jsonb,
    created_at       timestamptz not null default now(),
    finished_at      timestamptz,
    duration_ms      numeric(12, 3),
    primary key (tenant_id, trace_id)
);
create index traces_created on app.traces (tenant_id, created_at desc);

call app.apply_tenant_isolation('app.traces');

grant select, insert on app.traces to procura_app;
-- Only the outcome columns change after the row is written.
grant update (status, workflow, answer, finished_at, duration_ms) on app.traces to procura_app;
