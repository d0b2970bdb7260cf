"""Ingestion throughput against the raw MiniLM encode rate, measured in the same process on the same texts.

    python -m bench.ingest_throughput [--scale 2] [--corpus DIR] [--keep-db] [--with-writers]

Generates the demo corpus (or uses ``--corpus``), creates a scratch database, loads and warms the model, then
measures in this order: raw encode of every chunk's embedder input, the full ingestion (parse, chunk, embed,
stage, verify, publish, with the HNSW index), and raw encode again. The raw rate is the mean of the two raw
runs (the machine may be shared; bracketing cancels drift). Target: ingestion chunks/s >= 0.8 x raw.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ingest.embedder import Embedder

TARGET_RATIO = 0.8


def _raw_rate(embedder: Embedder, texts: list[str]) -> float:
    started = time.perf_counter()
    embedder.embed_documents(texts)
    return len(texts) / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=2, help="demo corpus scale (default 2)")
    parser.add_argument("--corpus", type=Path, help="use this corpus instead of generating one")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the scratch database")
    parser.add_argument("--with-writers", action="store_true", help="also run registered writers (graph)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

    import psycopg

    from ingest.embedder import get_default_embedder
    from ingest.parsers import parse_item
    from ingest.pipeline import ingest_path
    from ingest.sources import iter_items
    from procura.db.migrate import migrate
    from procura.db.provision import drop_database, ensure_database
    from procura.settings import get_settings

    with tempfile.TemporaryDirectory(prefix="procura-bench-") as scratch:
        corpus = args.corpus
        if corpus is None:
            from procura.demo.generator import generate

            corpus = Path(scratch) / "corpus"
            generate(corpus, scale=args.scale)
        base = get_settings()
        name = f"procura_bench_{os.getpid()}_{secrets.token_hex(3)}"
        settings = base.with_database(name)
        ensure_database(settings)
        try:
            with psycopg.connect(settings.admin_url, autocommit=True) as admin:
                migrate(admin, settings)
            embedder = get_default_embedder()
            texts = [c.embedding_text for item in iter_items(corpus) for c in parse_item(item).chunks]
            embedder.embed_documents(texts[:256])  # warm-up: first forward passes allocate
            raw_before = _raw_rate(embedder, texts)
            with psycopg.connect(settings.owner_url, autocommit=True) as conn:
                report = ingest_path(conn, corpus, embedder=embedder, writers=None if args.with_writers else ())
            raw_after = _raw_rate(embedder, texts)
        finally:
            if not args.keep_db:
                drop_database(base, name)
    raw = (raw_before + raw_after) / 2
    ratio = report.chunks_per_s / raw if raw else 0.0
    print(f"corpus:            {corpus} ({'given' if args.corpus else f'scale {args.scale}'})")
    print(f"documents:         {report.documents} ({report.published} published, {report.dead_lettered} dead-lettered)")
    print(f"chunks:            {report.chunks} ({report.encoded_texts} distinct inputs encoded), "
          f"landing rows: {report.rows}, identifiers: {report.identifiers}")
    print(f"ingestion:         {report.elapsed_s:.2f}s  {report.docs_per_s:.1f} docs/s  "
          f"{report.chunks_per_s:.1f} chunks/s")
    print(f"raw MiniLM encode: {raw:.1f} texts/s (before {raw_before:.1f}, after {raw_after:.1f}; "
          f"{len(texts)} texts, batch 128)")
    print(f"ratio:             {ratio:.2f} x raw encode (target >= {TARGET_RATIO})")
    met = ratio >= TARGET_RATIO and not report.dead_lettered
    if args.json is not None:
        figures = {
            "documents": report.documents,
            "published": report.published,
            "dead_lettered": report.dead_lettered,
            "chunks": report.chunks,
            "encoded_texts": report.encoded_texts,
            "ingestion_s": round(report.elapsed_s, 2),
            "ingestion_chunks_per_s": round(report.chunks_per_s, 1),
            "raw_encode_texts_per_s": round(raw, 1),
            "raw_encode_before_per_s": round(raw_before, 1),
            "raw_encode_after_per_s": round(raw_after, 1),
            "ratio_ingest_over_raw_encode": round(ratio, 3),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "headline": [
                {
                    "figure": f"ingestion chunks/s / raw MiniLM encode texts/s ({report.chunks} chunks)",
                    "value": round(ratio, 3),
                    "unit": "x",
                    "target": f">= {TARGET_RATIO}",
                    "met": met,
                    "detail": f"{report.chunks_per_s:.1f} chunks/s vs {raw:.1f} texts/s, "
                    f"{report.dead_lettered} dead-lettered",
                }
            ],
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0 if met else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
