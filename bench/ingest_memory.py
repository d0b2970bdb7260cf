"""Peak memory of ingesting one large file: ``python -m bench.ingest_memory [--mb 50] [--valid-mb 50]``.

Writes a ``--mb`` MB JSON file and a ``--mb`` MB JSONL batch into a scratch corpus, runs ``procura ingest`` on
each in a subprocess (against ``PROCURA_DB_NAME``) and prints the child's peak RSS (``ru_maxrss``) and wall time.
The JSON file is not a valid invoice (dead-lettered at parse; a file over ``PROCURA_INGEST_MAX_SOURCE_BYTES`` is
refused without being read whole); the batch is streamed line by line (4 MiB lines that fail validation, so this
measures the reading path, not embedding thousands of invoices). With ``--valid-mb N`` a valid invoice of N MB
(long line descriptions, one 50 MB summary chunk) is ingested too: the case the size limit admits. Each case runs
in its own subprocess, and ``ru_maxrss`` of children is the largest so far, so run the cases in increasing order
of size (as here) or one at a time.

Measured (2 shared cores, default limit 64 MiB) with
``PROCURA_DB_NAME=procura_ingest_mem python -m bench.ingest_memory --mb 50 --valid-mb 50``::

    50 MB JSON: peak RSS 824 MiB, 33.8s; dead letter [parse] ... (and 202053 more)
    52 MB JSONL: peak RSS 824 MiB, 18.2s; dead letter [parse] ...   (the largest so far: see above)
    50 MB valid invoice: peak RSS 905 MiB, 139.8s   (published: 9740 lines, a 51 MB chunk)

The embedder model alone is about 545 MiB. Before the copies of the text were removed (hashing the canonical JSON
whole, the parsed JSON kept beside its validated copy, the BM25 analyzer's list of characters, the landing and
chunk verification fetching every row and text, the original escaped as text) the same invoice peaked at
1382 MiB with the limit raised to 64 MiB, and the default limit was 16 MiB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _run(path: Path) -> tuple[float, float, str]:
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([sys.executable, "-m", "procura.cli", "ingest", "--quiet", str(path)],
                          capture_output=True, text=True, env=os.environ.copy(), check=False)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    last = (done.stdout.strip().splitlines() or [done.stderr.strip()])[-1]
    return max(peak_kib, before) / 1024, time.monotonic() - started, last


def _report(what: str, path: Path, result: tuple[float, float, str]) -> None:
    peak, elapsed, last = result
    print(f"{path.stat().st_size / 2**20:.0f} MB {what}: peak RSS {peak:.0f} MiB, {elapsed:.1f}s; {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--valid-mb", type=int, default=0, help="also ingest a valid invoice of this size")
    args = parser.parse_args()
    size = args.mb * 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "tenants" / "bench-memory" / "invoices"
        folder.mkdir(parents=True)
        big = folder / "big.json"
        with big.open("wb") as out:
            out.write(b'{"document_id": "big", "lines": [')
            row = b'{"line_number": 1, "description": "' + b"x" * 1000 + b'"},'
            while out.tell() < size:
                out.write(row)
            out.write(b'{"line_number": 2}]}')
        _report("JSON", big, _run(big))
        big.unlink()
        batch = folder / "batch.jsonl"
        with batch.open("wb") as out:
            while out.tell() < size:
                out.write(b'{"document_id": "' + b"y" * (4 * 1024 * 1024) + b'"}\n')
        _report("JSONL", batch, _run(batch))
        batch.unlink()
        if args.valid_mb:
            valid = folder / "valid.json"
            _valid_invoice(valid, args.valid_mb * 1024 * 1024)
            _report("valid invoice", valid, _run(valid))


def _valid_invoice(path: Path, size: int) -> None:
    """An invoice with as many lines as it takes to reach ``size`` bytes (5 KB descriptions, <= 9999 lines)."""
    # a new document every run: an invoice already ingested would be skipped, measuring nothing
    run = time.strftime("%Y%m%d%H%M%S")
    head = {"document_id": f"bench-memory-{size}-{run}", "source_system": "bench", "document_type": "invoice",
            "invoice_number": f"BENCH-{size}-{run}", "company_id": "COMP-A", "supplier_name": "Bench Supplier",
            "status": "posted", "invoice_date": "2026-01-02", "posting_date": "2026-01-02", "currency": "EUR",
            "tax_level": "line", "header_tax_amount": "0.00"}
    line = ('{"line_number": %d, "product_code": "PRD-1", "description": "' + "d" * 5200 + '", "quantity": "1", '
            '"unit_price": "1.00", "discount_amount": "0", "line_net_amount": "1.00", "line_tax_amount": "0.00"}')
    with path.open("w") as out:
        out.write(json.dumps(head)[:-1] + ', "lines": [')
        number = 0
        while out.tell() < size and number < 9999:
            number += 1
            out.write(("," if number > 1 else "") + line % number)
        out.write("]}")


if __name__ == "__main__":
    main()
