-- A log of changes to what is served, so the incremental build of the lines mart reads the documents that changed
-- since its last run instead of comparing every served document with every document it holds.
--
-- What a document serves is decided by ingest.documents (active_version, is_deleted, document_type) and by
-- ingest.quarantine (unreleased rows of the active version); statement-level triggers on both tables write one
-- row per touched document, in the writer's own transaction, whoever the writer is (publication, tombstones,
-- rollbacks, quality gates, a hand-run UPDATE). Agreements and manuals are logged too: the reader filters.
--
-- Design note: the log is consumed by key, not read up to a high-water mark. The build deletes the rows it can
-- see (DELETE ... RETURNING) in the transaction that rebuilds their documents; a row of a transaction that has
-- not committed yet is invisible to that DELETE and stays for the next build, however its change_id compares
-- with the rows consumed (a sequence mark would skip a transaction that took its number first and committed
-- last). If the build fails, its transaction rolls back and the rows are back.
create table if not exists ingest.served_document_changes (
    change_id     bigint      generated always as identity primary key,
    -- NULL tenant and document: rebuild every tenant (written below, for marts built before this log existed)
    tenant_id     text,
    document_id   text,
    -- the type the document had (both types when an update changed it); NULL when it has no registry row
    document_type text,
    changed_at    timestamptz not null default now()
);

comment on table ingest.served_document_changes is
    'Documents whose served version may have changed (triggers on ingest.documents and ingest.quarantine); '
    'consumed (deleted) by the build of marts.validated_invoice_lines. A row without tenant: rebuild everything.';

call app.apply_tenant_isolation('ingest.served_document_changes');

-- Registry rows: inserted and deleted rows, and updated rows whose served fields changed (old and new side, so a
-- changed document type is seen as both). Not SECURITY DEFINER: the writers own the tables (procura_owner); a
-- writer bound to one tenant may log only that tenant's documents, which the tenant policy checks.
create or replace function ingest.log_document_changes() returns trigger
    language plpgsql
    as $$
begin
    if tg_op = 'INSERT' then
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select tenant_id, document_id, document_type from new_rows;
    elsif tg_op = 'DELETE' then
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select tenant_id, document_id, document_type from old_rows;
    else
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select n.tenant_id, n.document_id, n.document_type
        from new_rows as n
        where not exists (
            select 1 from old_rows as o
            where o.tenant_id = n.tenant_id and o.document_id = n.document_id
              and o.active_version is not distinct from n.active_version
              and o.is_deleted = n.is_deleted and o.document_type = n.document_type)
        union
        select o.tenant_id, o.document_id, o.document_type
        from old_rows as o
        where not exists (
            select 1 from new_rows as n
            where n.tenant_id = o.tenant_id and n.document_id = o.document_id
              and n.active_version is not distinct from o.active_version
              and n.is_deleted = o.is_deleted and n.document_type = o.document_type);
    end if;
    return null;
end
$$;

-- Quarantine rows (a version held back, released, or the row removed): the document, with its registry type.
create or replace function ingest.log_quarantine_changes() returns trigger
    language plpgsql
    as $$
begin
    if tg_op = 'INSERT' then
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select q.tenant_id, q.document_id, d.document_type
        from (select distinct tenant_id, document_id from new_rows) as q
        left join ingest.documents as d on d.tenant_id = q.tenant_id and d.document_id = q.document_id;
    elsif tg_op = 'DELETE' then
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select q.tenant_id, q.document_id, d.document_type
        from (select distinct tenant_id, document_id from old_rows) as q
        left join ingest.documents as d on d.tenant_id = q.tenant_id and d.document_id = q.document_id;
    else
        insert into ingest.served_document_changes (tenant_id, document_id, document_type)
        select q.tenant_id, q.document_id, d.document_type
        from (select tenant_id, document_id from new_rows union select tenant_id, document_id from old_rows) as q
        left join ingest.documents as d on d.tenant_id = q.tenant_id and d.document_id = q.document_id;
    end if;
    return null;
end
$$;

-- Transition tables allow one event per trigger.
drop trigger if exists documents_log_insert on ingest.documents;
drop trigger if exists documents_log_update on ingest.documents;
drop trigger if exists documents_log_delete on ingest.documents;
create trigger documents_log_insert after insert on ingest.documents
    referencing new table as new_rows for each statement execute function ingest.log_document_changes();
create trigger documents_log_update after update on ingest.documents
    referencing old table as old_rows new table as new_rows
    for each statement execute function ingest.log_document_changes();
create trigger documents_log_delete after delete on ingest.documents
    referencing old table as old_rows for each statement execute function ingest.log_document_changes();

drop trigger if exists quarantine_log_insert on ingest.quarantine;
drop trigger if exists quarantine_log_update on ingest.quarantine;
drop trigger if exists quarantine_log_delete on ingest.quarantine;
create trigger quarantine_log_insert after insert on ingest.quarantine
    referencing new table as new_rows for each statement execute function ingest.log_quarantine_changes();
create trigger quarantine_log_update after update on ingest.quarantine
    referencing old table as old_rows new table as new_rows
    for each statement execute function ingest.log_quarantine_changes();
create trigger quarantine_log_delete after delete on ingest.quarantine
    referencing old table as old_rows for each statement execute function ingest.log_quarantine_changes();

-- TRUNCATE has no rows to log: everything is rebuilt.
create or replace function ingest.log_all_changed() returns trigger
    language plpgsql
    as $$
begin
    insert into ingest.served_document_changes (tenant_id, document_id, document_type) values (null, null, null);
    return null;
end
$$;

drop trigger if exists documents_log_truncate on ingest.documents;
drop trigger if exists quarantine_log_truncate on ingest.quarantine;
create trigger documents_log_truncate after truncate on ingest.documents
    for each statement execute function ingest.log_all_changed();
create trigger quarantine_log_truncate after truncate on ingest.quarantine
    for each statement execute function ingest.log_all_changed();

-- A database migrated from an earlier release may hold a lines mart built before anything was logged, and changes
-- made since: its next incremental build rebuilds every tenant once (a full build just consumes this row).
insert into ingest.served_document_changes (tenant_id, document_id, document_type) values (null, null, null);

-- The comparison state of the earlier incremental build (full comparison of served and held documents), which the
-- log replaces; dbt created both, so they may be missing.
drop table if exists intermediate.validated_invoice_lines_build_state;
drop table if exists intermediate.validated_invoice_lines_documents;
