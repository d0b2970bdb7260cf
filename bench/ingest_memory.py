"""Peak memory of ingesting one large file: ``python -m bench.ingest_memory [--mb 50]``.

Writes a ``--mb`` MB invoice JSON and a ``--mb`` MB JSONL batch into a scratch corpus, runs ``procura ingest`` on
each in a subprocess (against ``PROCURA_DB_NAME``) and prints the child's peak RSS (``ru_maxrss``) and wall time.
The file is refused by the size limit without being read whole; the batch is streamed line by line (its lines
are too large too: one ``--mb`` line each, so this measures the reading path, not embedding thousands of
invoices).
"""

from __future__ import annotations

import argparse
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


if __name__ == "__main__":
    main()
