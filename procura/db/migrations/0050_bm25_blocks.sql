-- Block-max summaries of the BM25 postings, for top-k pruning (retrieval/bm25.py).
--
-- A block is up to 32 consecutive chunks of one document version (by chunk_key, which follows the chunks' order
-- in the version). Per block and term the row keeps how many of its chunks hold the term (df), the largest term
-- frequency and the shortest chunk holding it. Those give an upper bound of any chunk's BM25 contribution for the
-- term within the block (the contribution rises with tf and falls with the chunk length), and summing df over
-- the active versions' blocks gives the exact document frequency without reading the postings. Rows are written
-- with the version's postings (retrieval.bm25_writer) and are immutable like them; the active-version filter is
-- the same join as for the postings.
--
-- The backfill must see every tenant's rows, and FORCE ROW LEVEL SECURITY applies to the owner this runs as:
-- forcing is lifted inside this transaction only and restored before it commits.

create table retrieval.bm25_blocks (
    tenant_id        text    not null,
    term             text    not null,
    document_id      text    not null,
    document_version integer not null,
    doc_key          bigint  not null,
    block_no         integer not null check (block_no >= 0),
    -- the smallest and largest chunk_key of the block's chunks that hold the term
    first_chunk_key  bigint  not null,
    last_chunk_key   bigint  not null check (last_chunk_key >= first_chunk_key),
    df               integer not null check (df > 0),
    max_tf           integer not null check (max_tf > 0),
    min_length       integer not null check (min_length > 0),
    primary key (tenant_id, term, doc_key, block_no)
        include (first_chunk_key, last_chunk_key, df, max_tf, min_length)
);
create index bm25_blocks_version on retrieval.bm25_blocks (tenant_id, document_id, document_version);

alter table retrieval.bm25_postings no force row level security;
alter table retrieval.bm25_chunks no force row level security;

insert into retrieval.bm25_blocks
select p.tenant_id, p.term, p.document_id, p.document_version, p.doc_key, c.position / 32,
       min(p.chunk_key), max(p.chunk_key), count(*), max(p.tf), min(p.chunk_length)
from retrieval.bm25_postings p
join (
    select chunk_key, (row_number() over (partition by tenant_id, document_id, document_version
                                          order by chunk_key) - 1)::integer as position
    from retrieval.bm25_chunks
) c on c.chunk_key = p.chunk_key
group by p.tenant_id, p.term, p.document_id, p.document_version, p.doc_key, c.position / 32;
analyze retrieval.bm25_blocks;

alter table retrieval.bm25_postings force row level security;
alter table retrieval.bm25_chunks force row level security;

call app.apply_tenant_isolation('retrieval.bm25_blocks');
grant select on retrieval.bm25_blocks to procura_app;
