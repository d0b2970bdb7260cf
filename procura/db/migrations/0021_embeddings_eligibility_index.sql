-- The vector branch first counts the tenant's eligible embeddings, up to exact_threshold + 1, to choose between
-- exact search and HNSW (retrieval/vector.py). Without an index that can answer that count, the planner counts
-- with a LIMIT-bounded sequential scan of ingest.embeddings. Its cost then depends on where the synchronized
-- scan happens to start: on the 100k-chunk benchmark, 1 search in 20 read 16k pages of other tenants' rows
-- before it had counted 2,001 of its own (40 ms instead of under 1 ms). This index lets the count read only the
-- tenant's own entries for the active config, with the document keys the join to active versions needs.
create index embeddings_tenant_config_document
    on ingest.embeddings (tenant_id, embedding_config_id, document_id, document_version);
