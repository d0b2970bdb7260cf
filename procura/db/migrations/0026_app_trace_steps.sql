-- The ordered events of one trace: every intent with its confidence, the clarification decision, entities,
-- constraints, plan steps with arguments, tool calls with returned rows/chunks, calculations, policy checks and
-- citations. Append-only for the serving role.
create table app.trace_steps (
    tenant_id   text        not null,
    trace_id    uuid        not null,
    seq         integer     not null check (seq > 0),
    kind        text        not null check (kind in (
        'intent', 'clarification', 'entity', 'constraint', 'authorization', 'plan', 'tool_call', 'policy_check',
        'calculation', 'evidence', 'citation', 'validation', 'answer')),
    step_id     text,
    payload     jsonb       not null,
    created_at  timestamptz not null default now(),
    primary key (tenant_id, trace_id, seq),
    foreign key (tenant_id, trace_id) references app.traces (tenant_id, trace_id) on delete cascade
);

call app.apply_tenant_isolation('app.trace_steps');

grant select, insert on app.trace_steps to procura_app;
