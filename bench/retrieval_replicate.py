"""A 300k-chunk retrieval database from a finished 100k build, by copying its tenants under new tenant ids.

    python -m bench.retrieval_replicate --source procura_bench_retrieval_hashing_100k_bm25 \\
        --database procura_bench_retrieval_hashing_300k --copies 2

Ingesting the demo corpus at scale 330 through the pipeline did not fit a session on the shared 2-core machine.
The latency of a tenant's search depends on the other tenants' rows only through the shared tables and
indexes (row-level security and the tenant-leading keys keep each search to its tenant), so a database with
the same tenants copied ``--copies`` times under new ids (``tenant-42`` -> ``tenant-42-r1``, ...) has the
table and index sizes of a corpus ``1 + copies`` times larger, and the measured tenant keeps its own rows.
What differs from a real 300k corpus: the copies repeat the source's texts (so they say nothing about recall),
and each measured tenant is as large as in the source.

The copy (``CREATE DATABASE ... TEMPLATE``) keeps the source's tenant indexes; the shared HNSW index is dropped
before the rows are copied (inserting 170k vectors into it one by one took longer than the session had) and not
rebuilt, so tenants without an index of their own, and the bench's forced HNSW path, scan exactly. Measure with
:mod:`bench.retrieval_latency` (``--reuse --database <this database>``; the build is recorded for it).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from psycopg import sql

#: table -> the key columns shifted per copy (integer keys must stay unique across tenants)
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ingest.documents", ()),
    ("ingest.document_versions", ()),
    ("ingest.chunks", ()),
    ("ingest.embeddings", ()),
    ("ingest.identifiers", ()),
    ("retrieval.bm25_documents", ("doc_key",)),
    ("retrieval.bm25_chunks", ("chunk_key",)),
    ("retrieval.bm25_postings", ("doc_key", "chunk_key")),
    ("retrieval.bm25_blocks", ("doc_key", "first_chunk_key", "last_chunk_key")),
)
#: columns the copy leaves to their defaults (a sequence) or clears (a key the index builder recomputes)
SKIPPED = {"ingest.documents": ("ingest_seq",), "ingest.embeddings": ("index_key",)}


def copy_statement(table: str, columns: Sequence[str], shifted: Sequence[str], copy: int) -> sql.Composed:
    """``INSERT ... SELECT`` of every source tenant's rows of ``table`` under ``<tenant>-r<copy>``, integer keys
    shifted by ``copy`` times a stride far above the source's largest key."""
    schema, name = table.split(".")
    wanted = [c for c in columns if c not in SKIPPED.get(table, ())]
    values = []
    for column in wanted:
        if column == "tenant_id":
            values.append(sql.SQL("tenant_id || {}").format(sql.Literal(f"-r{copy}")))
        elif column in shifted:
            values.append(sql.SQL("{} + {}").format(sql.Identifier(column), sql.Literal(copy * 10**12)))
        else:
            values.append(sql.Identifier(column))
    return sql.SQL("insert into {}.{} ({}) overriding system value select {} from {}.{} "
                   "where tenant_id !~ '-r[0-9]+$'").format(
        sql.Identifier(schema), sql.Identifier(name), sql.SQL(", ").join(map(sql.Identifier, wanted)),
        sql.SQL(", ").join(values), sql.Identifier(schema), sql.Identifier(name))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="procura_bench_retrieval_hashing_100k_bm25")
    parser.add_argument("--database", default="procura_bench_retrieval_hashing_300k")
    parser.add_argument("--copies", type=int, default=2)
    parser.add_argument("--vector-only", action="store_true",
                        help="copy the ingest tables only (what bench.vector_recall reads), not the BM25 tables")
    args = parser.parse_args(argv)
    tables = [(t, s) for t, s in TABLES if not (args.vector_only and t.startswith("retrieval.bm25_"))]

    import psycopg

    from procura.settings import get_settings

    settings = get_settings().with_database(args.database)
    started = time.monotonic()
    with psycopg.connect(settings.with_database("postgres").admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("create database {} template {} strategy file_copy").format(
            sql.Identifier(args.database), sql.Identifier(args.source)))
    print(f"[bench] copied {args.source} in {time.monotonic() - started:.0f}s", file=sys.stderr)
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        admin.execute("drop index if exists ingest.embeddings_hnsw")
        for table, shifted in tables:
            schema, name = table.split(".")
            columns = [r[0] for r in admin.execute(
                "select column_name from information_schema.columns where table_schema = %s and table_name = %s "
                "and is_generated = 'NEVER' "
                "order by ordinal_position", (schema, name)).fetchall()]
            for copy in range(1, args.copies + 1):
                step = time.monotonic()
                rows = admin.execute(copy_statement(table, columns, shifted, copy)).rowcount
                print(f"[bench] {table} copy {copy}: {rows} rows in {time.monotonic() - step:.0f}s", file=sys.stderr)
        for table, _ in tables:
            admin.execute(sql.SQL("vacuum analyze {}").format(sql.SQL(table)))
        admin.execute(
            "insert into public.retrieval_bench_build (scale, embedder, chunks) "
            "select b.scale, b.embedder, (select count(*) from retrieval.active_chunks) "
            "from public.retrieval_bench_build b order by b.finished_at desc limit 1")
        chunks = admin.execute("select count(*) from retrieval.active_chunks").fetchone()
    print(f"[bench] {args.database}: {chunks[0] if chunks else 0} active chunks, {time.monotonic() - started:.0f}s",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
