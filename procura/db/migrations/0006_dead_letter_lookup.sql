-- Unresolved dead letters are looked up by source on every failure (one open letter per source, attempts add up)
-- and resolved by source or document on every success; partial indexes keep both cheap as history grows.
create index dead_letters_open_by_source on ingest.dead_letters (tenant_id, source_uri) where resolved_at is null;
create index dead_letters_open_by_document on ingest.dead_letters (tenant_id, document_id) where resolved_at is null;
