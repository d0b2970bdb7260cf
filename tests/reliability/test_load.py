"""A bounded loopback load test of ``/v1/metrics/...`` and ``/v1/ask`` on the demo world: throughput, p50/p95/p99
and zero errors at the stated concurrency. The figures are printed and written to ``<home>/reports/load.json``
(``make bench`` and ``procura eval`` pick them up)."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections import Counter
from typing import Any

import httpx
import pytest

from evaluation.metrics import percentile
from evaluation.world import DemoWorld, mount_missing
from tests.reliability.conftest import serving

pytestmark = pytest.mark.integration

#: (route label, concurrency, request cap, time cap in seconds)
PROFILES = {
    "metrics": (8, 600, 20.0),
    "ask": (4, 80, 40.0),
}
METRIC_BODIES = [
    ("finance.company_spend", {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}),
    ("finance.aggregate_spend", {"company_id": "COMP-A", "supplier_ids": ["SUP-18", "SUP-27"],
                                 "start_date": "2026-01-01", "end_date": "2026-04-01"}),
    ("catalog.unit_price", {"product_code": "PRD-482", "month": "2026-03", "company_id": "COMP-A"}),
]
QUESTIONS = [
    "What was Company A's total spend on monitoring products supplied by its approved vendors during the last quarter?",
    "Which suppliers were approved vendors of Company A in Q1 2026?",
    "What is PRD-482?",
    "Explain the calibration requirements for PRD-482",
]


async def _run(url: str, headers: dict[str, str], label: str) -> dict[str, Any]:
    concurrency, cap, time_cap = PROFILES[label]
    latencies: list[float] = []
    statuses: Counter[int | str] = Counter()
    issued = 0
    started = time.monotonic()

    def next_request(i: int) -> tuple[str, dict[str, Any]]:
        if label == "metrics":
            name, params = METRIC_BODIES[i % len(METRIC_BODIES)]
            return f"/v1/metrics/{name}/query", {"parameters": params}
        return "/v1/ask", {"question": QUESTIONS[i % len(QUESTIONS)], "as_of": "2026-05-15"}

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal issued
        while issued < cap and time.monotonic() - started < time_cap:
            i = issued
            issued += 1
            path, body = next_request(i)
            t0 = time.perf_counter()
            try:
                response = await client.post(url + path, json=body, headers=headers)
                statuses[response.status_code] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1
            latencies.append((time.perf_counter() - t0) * 1000)

    async with httpx.AsyncClient(timeout=httpx.Timeout(60.0), limits=httpx.Limits(max_connections=concurrency)) as c:
        await c.post(url + next_request(0)[0], json=next_request(0)[1], headers=headers)  # warm-up (model loads)
        started = time.monotonic()
        await asyncio.gather(*(worker(c) for _ in range(concurrency)))
    elapsed = time.monotonic() - started
    return {
        "route": label, "concurrency": concurrency, "requests": len(latencies), "seconds": round(elapsed, 2),
        "throughput_rps": round(len(latencies) / elapsed, 1) if elapsed else None,
        "p50_ms": round(percentile(latencies, 50) or 0, 1), "p95_ms": round(percentile(latencies, 95) or 0, 1),
        "p99_ms": round(percentile(latencies, 99) or 0, 1), "mean_ms": round(statistics.fmean(latencies), 1),
        "statuses": {str(k): v for k, v in statuses.items()},
    }


def test_bounded_load_on_metrics_and_ask(world: DemoWorld) -> None:
    app = world.create_app()
    mount_missing(app)
    headers = world.headers("tenant-42")
    with serving(app) as server:
        results = [asyncio.run(_run(server.url, headers, label)) for label in PROFILES]
    out = world.settings.home / "reports" / "load.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    for r in results:
        print(f"\n[load] {r['route']}: {r['requests']} requests at concurrency {r['concurrency']} in {r['seconds']} s, "
              f"{r['throughput_rps']} req/s, p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms, p99 {r['p99_ms']} ms, "
              f"statuses {r['statuses']}")
    for r in results:
        assert r["requests"] >= PROFILES[r["route"]][0], r
        assert r["statuses"] == {"200": r["requests"]}, f"errors under load on {r['route']}: {r['statuses']}"
