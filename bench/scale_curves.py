"""Scale curves of the metric and search paths at 10k / 100k / 1M invoice lines (or as far as time allows).

    python -m bench.scale_curves [--lines 10000 --lines 100000 --lines 1000000] [--json OUT]
                                 [--max-search-scale 50] [--timeout 3600]

* **metric path**: ``bench.metric_api --lines N`` (its own database, N synthetic validated invoice lines for one
  tenant, real HTTP to uvicorn vs the same SQL on psycopg); the curve is the API's p50/p95 and the raw SQL p50.
* **search path**: ``bench.retrieval_latency --scale S --embedder hashing``, where S is the demo corpus scale whose
  generator emits N invoice lines (measured from the generator, not assumed); the search corpus is the text that
  comes with those invoices. The curve is the fused search p50/p95 (query embedding excluded).

A point whose estimated size exceeds ``--max-search-scale`` (or that fails or times out) is recorded as skipped
with the reason, so the report always says how far the curve goes on this machine.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_LINES = (10_000, 100_000, 1_000_000)


def lines_per_scale() -> tuple[int, int]:
    """(invoice lines at scale 1, additional lines per scale step), measured from the generator."""
    from procura.demo import generate

    with tempfile.TemporaryDirectory(prefix="procura-scale-") as tmp:
        one = generate(Path(tmp) / "s1", scale=1).invoice_lines
        two = generate(Path(tmp) / "s2", scale=2).invoice_lines
    return one, max(1, two - one)


def _run(argv: list[str], timeout_s: float) -> tuple[dict[str, Any] | None, str, float]:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="procura-scale-") as tmp:
        out = Path(tmp) / "out.json"
        try:
            proc = subprocess.run([sys.executable, "-m", *argv, "--json", str(out)], capture_output=True, text=True,
                                  timeout=timeout_s, cwd=REPO, check=False)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout_s:.0f} s", time.monotonic() - started
        if proc.returncode != 0 or not out.exists():
            return None, f"exit {proc.returncode}: {(proc.stdout + proc.stderr)[-400:]}", time.monotonic() - started
        return json.loads(out.read_text(encoding="utf-8")), "", time.monotonic() - started


def metric_point(lines: int, requests: int, timeout_s: float) -> dict[str, Any]:
    result, error, seconds = _run(["bench.metric_api", "--lines", str(lines), "--requests", str(requests)], timeout_s)
    point: dict[str, Any] = {"path": "metric", "invoice_lines": lines, "seconds": round(seconds, 1)}
    if result is None:
        return {**point, "skipped": error}
    stats = result.get("stats_ms", {})
    return {**point, "p50_ms": stats.get("api", {}).get("p50_ms"), "p95_ms": stats.get("api", {}).get("p95_ms"),
            "raw_p50_ms": stats.get("raw", {}).get("p50_ms"), "ratio_p50_api_over_raw":
            result.get("ratio_p50_api_over_raw")}


def search_point(lines: int, scale: int, max_scale: int, timeout_s: float) -> dict[str, Any]:
    point: dict[str, Any] = {"path": "search", "invoice_lines": lines, "corpus_scale": scale}
    if scale > max_scale:
        return {**point, "skipped": f"corpus scale {scale} > --max-search-scale {max_scale} (the text corpus that "
                                    "accompanies these invoices is beyond this run's time budget)"}
    database = f"procura_scale_search_{scale}"
    try:
        result, error, seconds = _run(["bench.retrieval_latency", "--scale", str(scale), "--embedder", "hashing",
                                       "--repeat", "2", "--database", database], timeout_s)
    finally:
        from procura.db.provision import drop_database
        from procura.settings import get_settings

        drop_database(get_settings(), database)  # hundreds of MB per point; nothing reuses it
    point["seconds"] = round(seconds, 1)
    if result is None:
        return {**point, "skipped": error}
    fused = (result.get("search_latency_excluding_embedding") or {}).get("fused") or {}
    return {**point, "p50_ms": fused.get("p50_ms"), "p95_ms": fused.get("p95_ms"),
            "chunks": result.get("tenant_chunks")}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--lines", type=int, action="append", help="invoice lines per point (repeatable)")
    parser.add_argument("--requests", type=int, default=200, help="metric requests per point")
    parser.add_argument("--max-search-scale", type=int, default=50,
                        help="largest corpus scale for the search path (scale 50 is about 110k invoice lines)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per point")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args(argv)
    points = sorted(set(args.lines or DEFAULT_LINES))
    base, per_scale = lines_per_scale()
    series: list[dict[str, Any]] = []
    for lines in points:
        series.append(metric_point(lines, args.requests, args.timeout))
        scale = max(1, math.ceil((lines - base) / per_scale) + 1)
        series.append(search_point(lines, scale, args.max_search_scale, args.timeout))
    for p in series:
        if "skipped" in p:
            print(f"{p['path']} path @ {p['invoice_lines']} lines: skipped: {p['skipped'][:200]}")
        else:
            print(f"{p['path']} path @ {p['invoice_lines']} lines: p50 {p.get('p50_ms')} ms, p95 {p.get('p95_ms')} ms"
                  + (f", raw SQL p50 {p['raw_p50_ms']} ms" if p.get("raw_p50_ms") is not None else ""))
    report = {"lines_at_scale_1": base, "lines_per_scale": per_scale, "series": series}
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0 if any("skipped" not in p for p in series) else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
