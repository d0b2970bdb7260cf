-- procura: run-as admin
-- dbt's incremental materialization stages the rows an incremental run adds to a mart (validated_invoice_lines,
-- models/marts/validated_invoice_lines.sql) in a temporary table of the building session, which runs as
-- procura_owner; the run's list of affected documents is a temporary table too. Temporary tables live in the
-- session's own schema and vanish with it. Idempotent (a repeated grant is a no-op); only this database.
do $$
begin
    execute format('grant temporary on database %I to procura_owner', current_database());
end
$$;
