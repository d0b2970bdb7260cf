"""Benchmark: ``POST /v1/metrics/finance.aggregate_spend/query`` against the same SQL with plain psycopg.

Both sides run in the same process run, interleaved request by request, against the same database and data:

* **api**: real HTTP over loopback to uvicorn serving :func:`api.main.create_app` in a separate process
  (authentication, rate limit, parameter binding, READ ONLY tenant transaction, result shaping, audit row),
  sent with the standard library's ``http.client`` on one keep-alive connection: the plain HTTP client, as
  psycopg is the plain database client on the raw side.
* **api_httpx** (for attribution): the same request sent with httpx, whose own cost is visible next to it.
* **http_floor** (for attribution): ``GET /healthz`` on the same connection, the cost of any HTTP round trip
  to this app on this machine, which no change to the metric path can remove.
* **api_floor** (for attribution): the same POST, body and key sent to a route the bench's server process adds
  (:data:`FLOOR_PATH`) with the metric route's dependencies and body model but nothing behind them: no service,
  no SQL, no audit. It is an ``async def`` route, as the metric route is (a ``def`` route would add a hop into
  AnyIO's worker threads that neither needs). ``raw + api_floor`` is the best any API on this stack could do
  here, and ``ratio_p50_lower_bound`` says what ratio that would be.
* **api_floor_sync** (for continuity): the same no-op as a ``def`` route (:data:`FLOOR_SYNC_PATH`), the floor
  figures before the metric route became async were measured with; ``beyond_sync_floor_p50_ms`` is the target's
  figure against it.
* **raw**: the identical compiled SQL text and bound values on one ``procura_app`` psycopg connection with
  ``app.tenant_id`` set once for the session (RLS applies the same way), run both ways plain psycopg can run
  it: **raw_prepared** (psycopg's default, a server-side prepared statement after five executions, so Postgres
  may switch to a generic plan) and **raw_unprepared** (``prepare=False``, a custom plan each time). The
  reference for the ratio is whichever of the two has the lower p50 in this run, so a plan choice can never
  make the API look better than the best plain psycopg execution.
* **service** (for attribution): :class:`semantic.service.MetricService` in-process, without HTTP.

Data: by default a private database is created, migrated, the marts are built by dbt, and
``--lines`` synthetic validated invoice lines (default 200 000, the scaled corpus's size) are loaded for one
tenant, and the rollups are built from them by dbt; ``--existing`` instead uses the configured database and the
seed question of ``--corpus``'s ground_truth.json (e.g. after ``procura demo run --scale ...``). Targets (issue
21): on the seed-like question, api p50 - (raw p50 + api_floor p50) <= 0.4 ms; on the three-year all-supplier
question, api p50 <= 15 ms at 200k lines (40 ms at 1M) and raw line-level p50 / api p50 >= 8 in the same run.
``raw`` is always the line-level SQL (the compiled query over the lines); ``answered_from`` says which relation
the API read.

    python -m bench.metric_api [--lines 200000] [--requests 400] [--json out.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import httpx
import psycopg
from fastapi import APIRouter, Response

from api.deps import PrincipalDep
from api.models import MetricQueryRequest
from procura.progress import echo_progress
from procura.settings import Settings, get_settings

METRIC = "finance.aggregate_spend"
#: The synthetic data's counterpart of the seed question: about as many matching lines (30-40) as the seed's.
BENCH_PARAMETERS: dict[str, Any] = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-572", "PRD-575"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}
SEED_PARAMETERS: dict[str, Any] = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-611", "PRD-612"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}

# Synthetic lines: 3 companies, 60 suppliers with 10 products each (SUP-18: PRD-482..491, SUP-27: PRD-572..581),
# invoice dates over 2024-01-01 .. 2026-12-31, a mix of statuses, credit notes, duplicates and currencies;
# deterministic (hash of the row number). ``%%`` is psycopg's literal modulo.
_SYNTHETIC_SQL = """
insert into marts.validated_invoice_lines (
    tenant_id, line_id, company_id, supplier_id, product_code, product_group_id, document_type, invoice_id,
    invoice_number, line_number, invoice_status, is_cancelled, is_draft, is_duplicate, invoice_date, posting_date,
    currency, quantity, unit_price, line_net_amount, line_tax_amount, fx_rate_to_reporting_currency, fx_rate_type,
    fx_rate_date, reporting_currency, source_document_id, source_document_version, source_line_id, ingest_seq,
    spend_reporting_amount, net_reporting_amount, tax_reporting_amount, signed_quantity, is_counted,
    spend_document_amount)
select
    b.*,
    -- what dbt's policy macros would write for these synthetic lines (they bypass dbt)
    p.sign * (b.net + b.tax) * b.fx, p.sign * b.net * b.fx, p.sign * b.tax * b.fx, p.sign * b.qty,
    not b.cancelled and not b.duplicate, p.sign * (b.net + b.tax)
from (
    select
        %(tenant)s,
        'bench-' || i || '-line-01',
        'COMP-' || chr(65 + (h %% 3)),
        'SUP-' || (18 + (h / 3) %% 60),
        'PRD-' || (482 + ((h / 3) %% 60) * 10 + (h / 191) %% 10),
        'PG-' || ((h / 3) %% 60) %% 12,
        case when h %% 17 = 0 then 'credit_note' else 'invoice' end as doc,
        'bench-' || (i / 4),
        'INV-B-' || (i / 4),
        1,
        status,
        status = 'cancelled' as cancelled,
        status = 'draft',
        h %% 23 = 0 as duplicate,
        d,
        d,
        case when h %% 5 = 0 then 'USD' else 'EUR' end,
        (1 + h %% 40)::numeric(18, 4) as qty,
        (10 + h %% 900)::numeric(18, 4),
        ((1 + h %% 40) * (10 + h %% 900))::numeric(18, 2) as net,
        ((1 + h %% 40) * (10 + h %% 900) * 0.19)::numeric(18, 2) as tax,
        (case when h %% 5 = 0 then 0.91234567 else 1 end)::numeric(18, 8) as fx,
        'corporate',
        d,
        'EUR',
        'bench-' || (i / 4),
        1,
        'bench-' || i || '-line-01',
        i
    from (
        select i, h,
               date '2024-01-01' + (h %% 1096) as d,
               (array['posted', 'paid', 'paid', 'posted', 'draft', 'cancelled', 'posted', 'paid'])[1 + (h / 11) %% 8]
                   as status
        from (select i, abs(hashint4(i)) as h from generate_series(1, %(lines)s) as i) as s
    ) as x
) as b
cross join lateral (select case when b.doc = 'credit_note' then -1 else 1 end as sign) as p
"""


@dataclass(frozen=True)
class Stats:
    """Latency summary of one side, in milliseconds."""

    n: int
    p50_ms: float
    p95_ms: float
    mean_ms: float


def summarize(samples_ns: list[int]) -> Stats:
    """p50/p95/mean of nanosecond samples, in ms."""
    ms = sorted(s / 1e6 for s in samples_ns)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return Stats(n=len(ms), p50_ms=round(statistics.median(ms), 3), p95_ms=round(p95, 3),
                 mean_ms=round(statistics.fmean(ms), 3))  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _bench_database(settings: Settings, lines: int, work: Path, progress: Callable[[str], None]) -> Iterator[Settings]:
    from procura.db.migrate import migrate
    from procura.db.provision import drop_database, ensure_database
    from procura.transform import _invoke, build_marts

    name = f"procura_bench_{secrets.token_hex(3)}"
    bench = settings.with_database(name)
    ensure_database(bench)
    try:
        with psycopg.connect(bench.admin_url, autocommit=True) as admin:
            migrate(admin, bench)
        progress(f"database {name} migrated; building the marts with dbt")
        build_marts(bench, target_path=work / "target", log_path=work / "logs")
        started = time.monotonic()
        with psycopg.connect(bench.admin_url, autocommit=True) as admin:
            admin.execute(_SYNTHETIC_SQL, {"tenant": "tenant-bench", "lines": lines})
            admin.execute("analyze marts.validated_invoice_lines")
        progress(f"{lines} synthetic lines loaded in {time.monotonic() - started:.1f}s")
        # The lines bypassed dbt (no change records for the incremental rollups): rebuild the rollups whole.
        started = time.monotonic()
        _invoke(bench, ["build", "--full-refresh", "--select", "spend_daily_rollup", "spend_monthly_rollup"],
                progress=None, target_path=work / "target", log_path=work / "logs", check=True)  # fmt: skip
        progress(f"rollups built by dbt in {time.monotonic() - started:.1f}s")
        yield bench
    finally:
        drop_database(settings, name)


def _serve(port: int, manifest: Path) -> None:
    """Child process: uvicorn serving the API (settings from the environment)."""
    import logging

    import uvicorn

    from api.main import create_app
    from semantic.schema import load_manifest

    logging.getLogger("semantic").setLevel(logging.WARNING)
    app = create_app(schema=load_manifest(manifest))
    app.include_router(_floor_router())
    # A long keep-alive: at 1M lines the raw side of one round of the bench takes longer than the default 5 s.
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", access_log=False, timeout_keep_alive=600)


#: The bench's own routes, mounted only in its server process: the metric query's path, dependencies and body
#: model (authentication, rate limit, JSON validation) with nothing behind them, as an async route (the metric
#: route's kind) and as a sync one.
FLOOR_PATH = "/bench/v1/metrics/{name}/query"
FLOOR_SYNC_PATH = "/bench/sync/v1/metrics/{name}/query"


def _floor_router() -> APIRouter:
    """Routes with the metric query's HTTP and FastAPI work but no service call, no SQL and no audit: the
    lowest latency any metric request can have through this stack on this machine."""
    router = APIRouter()

    @router.post(FLOOR_PATH)
    async def floor(*, name: str, body: MetricQueryRequest, principal: PrincipalDep) -> Response:
        return Response(content=b'{"rows":[]}', media_type="application/json")

    @router.post(FLOOR_SYNC_PATH)
    def floor_sync(*, name: str, body: MetricQueryRequest, principal: PrincipalDep) -> Response:
        return Response(content=b'{"rows":[]}', media_type="application/json")

    return router


#: Broader questions over the synthetic data, to show how the API's fixed overhead weighs against a query that
#: does more work: one company's spend with every supplier over a quarter, and over all three years.
BROAD_CASES: dict[str, dict[str, Any]] = {
    "quarter_all_suppliers": {
        "company_id": "COMP-A",
        "supplier_ids": [f"SUP-{n}" for n in range(18, 78)],
        "start_date": "2026-01-01",
        "end_date": "2026-04-01",
    },
    "three_years_all_suppliers": {
        "company_id": "COMP-A",
        "supplier_ids": [f"SUP-{n}" for n in range(18, 78)],
        "start_date": "2024-01-01",
        "end_date": "2027-01-01",
    },
}


def _measure_case(
    *,
    plain: HTTPConnection,
    http: httpx.Client,
    headers: dict[str, str],
    raw: psycopg.Connection,
    svc_conn: psycopg.Connection,
    service: Any,
    ctx: Any,
    sql: str,
    raw_params: dict[str, Any],
    parameters: dict[str, Any],
    requests: int,
    warmup: int,
) -> dict[str, Any]:
    """One parameter set: api, raw (both ways) and service, interleaved request by request."""
    sides = ("api", "api_httpx", "http_floor", "raw_prepared", "raw_unprepared", "service", "api_floor",
             "api_floor_sync")  # fmt: skip
    samples: dict[str, list[int]] = {side: [] for side in sides}
    body = {"parameters": parameters}
    payload = json.dumps(body).encode()
    path = f"/v1/metrics/{METRIC}/query"
    floor_path = FLOOR_PATH.format(name=METRIC)
    floor_sync_path = FLOOR_SYNC_PATH.format(name=METRIC)
    api_answer = raw_answer = None
    load_before = os.getloadavg()[0]
    for i in range(warmup + requests):
        t0 = time.perf_counter_ns()
        plain.request("POST", path, body=payload, headers={**headers, "Content-Type": "application/json"})
        reply = plain.getresponse()
        content = reply.read()
        t1 = time.perf_counter_ns()
        row = raw.execute(sql, raw_params).fetchone()
        t2 = time.perf_counter_ns()
        raw.execute(sql, raw_params, prepare=False).fetchone()
        t3 = time.perf_counter_ns()
        service.query(svc_conn, ctx, METRIC, parameters, route="cli", key_id="bench")
        t4 = time.perf_counter_ns()
        response = http.post(path, json=body, headers=headers)
        t5 = time.perf_counter_ns()
        plain.request("GET", "/healthz")
        floor = plain.getresponse()
        floor.read()
        t6 = time.perf_counter_ns()
        plain.request("POST", floor_path, body=payload, headers={**headers, "Content-Type": "application/json"})
        noop = plain.getresponse()
        noop.read()
        t7 = time.perf_counter_ns()
        plain.request("POST", floor_sync_path, body=payload, headers={**headers, "Content-Type": "application/json"})
        noop_sync = plain.getresponse()
        noop_sync.read()
        t8 = time.perf_counter_ns()
        statuses = (reply.status, response.status_code, floor.status, noop.status, noop_sync.status)
        if any(status != 200 for status in statuses):
            raise RuntimeError(f"API answered {statuses}: {content[:300]!r}")
        if i >= warmup:
            elapsed_ns = (t1 - t0, t5 - t4, t6 - t5, t2 - t1, t3 - t2, t4 - t3, t7 - t6, t8 - t7)
            for side, elapsed in zip(sides, elapsed_ns, strict=True):
                samples[side].append(elapsed)
        api_answer, raw_answer = json.loads(content), row
    stats = {side: summarize(values) for side, values in samples.items()}
    reference = min(("raw_prepared", "raw_unprepared"), key=lambda side: stats[side].p50_ms)
    stats["raw"] = stats[reference]
    assert api_answer is not None and raw_answer is not None
    api_values = api_answer["rows"][0]["values"] if api_answer["rows"] else {}
    if api_values.get("total_spend") is not None and raw_answer[0] is not None:
        # The two sides must be answering the same question, to the cent.
        cents = Decimal(raw_answer[0]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert api_values["total_spend"] == str(cents), (api_values, raw_answer)
    return {
        "parameters": parameters,
        # 1-minute load average when the case started and ended (the machine is shared)
        "load_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "requests": requests,
        "warmup": warmup,
        "answered_from": api_answer.get("answered_from"),
        "total_spend_api": api_values.get("total_spend"),
        "total_spend_raw": str(raw_answer[0]),
        "matched_line_count": api_values.get("matched_line_count"),
        "stats_ms": {side: asdict(s) for side, s in stats.items()},
        "raw_reference": reference,
        "overhead_p50_ms": round(stats["api"].p50_ms - stats["raw"].p50_ms, 3),
        # what the API adds beyond raw SQL and an authenticated request that runs nothing (target <= 0.4 ms)
        "beyond_floor_p50_ms": round(stats["api"].p50_ms - stats["raw"].p50_ms - stats["api_floor"].p50_ms, 3),
        # the same against the sync no-op route (the floor of the figures before the metric route became async)
        "beyond_sync_floor_p50_ms": round(
            stats["api"].p50_ms - stats["raw"].p50_ms - stats["api_floor_sync"].p50_ms, 3
        ),
        "speedup_p50_raw_over_api": round(stats["raw"].p50_ms / stats["api"].p50_ms, 2),
        "ratio_p50_api_over_raw": round(stats["api"].p50_ms / stats["raw"].p50_ms, 3),
        # the ratio an API that did no work of its own beyond HTTP, authentication and the body would have
        "ratio_p50_lower_bound": round((stats["raw"].p50_ms + stats["api_floor"].p50_ms) / stats["raw"].p50_ms, 3),
        "ratio_p95_api_over_raw": round(stats["api"].p95_ms / stats["raw"].p95_ms, 3),
    }


def run(
    settings: Settings,
    *,
    tenant: str,
    parameters: dict[str, Any],
    manifest: Path,
    requests: int,
    warmup: int,
    progress: Callable[[str], None],
    extra_cases: dict[str, dict[str, Any]] | None = None,
    lines: int | None = None,
) -> dict[str, Any]:
    """Measure api, raw and service latencies, interleaved, for ``parameters`` (the headline case) and each of
    ``extra_cases`` (a quarter of the requests each); returns the report."""
    from procura.auth import authenticate, create_key
    from procura.db.session import AuthContext
    from semantic.loader import load_registry
    from semantic.params import bind
    from semantic.schema import load_manifest
    from semantic.service import MetricService

    registry = load_registry(load_manifest(manifest), eager=True)
    metric = registry.get(METRIC)
    query = metric.variant()
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        key = create_key(owner, tenant_id=tenant, scopes=["invoice:aggregate"], principal_id="bench",
                         rate_limit_per_minute=1_000_000).key  # fmt: skip

    port = _free_port()
    env = {**os.environ, "PROCURA_DB_NAME": settings.database_name}
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.metric_api", "--serve", str(port), "--manifest", str(manifest)],
        env=env,
        cwd=Path(__file__).resolve().parent.parent,
    )
    cases = {"headline": parameters, **(extra_cases or {})}
    results: dict[str, dict[str, Any]] = {}
    # The headline API figure uses the standard library's HTTP client on one keep-alive connection, the
    # counterpart of plain psycopg on the raw side; httpx's figure is reported next to it.
    plain = HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        with httpx.Client(base_url=base, timeout=60) as http:
            while True:
                try:
                    if http.get("/readyz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the API server did not become ready")
                time.sleep(0.2)
            service = MetricService.from_settings(registry, settings)
            with (
                psycopg.connect(settings.app_url, autocommit=True) as raw,
                psycopg.connect(settings.app_url, autocommit=True) as svc_conn,
            ):
                raw.execute("select set_config('app.tenant_id', %s, false)", (tenant,))
                ctx = authenticate(svc_conn, key).context
                assert isinstance(ctx, AuthContext)
                for name, case in cases.items():
                    bound = bind(metric.definition.parameters, case, metric.definition.constraints)
                    share = 1 if name == "headline" else 4
                    results[name] = _measure_case(
                        plain=plain, http=http, headers={"Authorization": f"Bearer {key}"}, raw=raw, svc_conn=svc_conn,
                        service=service, ctx=ctx, sql=query.sql,
                        raw_params=bound.for_binding() | {"_row_limit": settings.row_cap + 1}, parameters=case,
                        requests=max(20, requests // share), warmup=max(5, warmup // share),
                    )  # fmt: skip
                    r = results[name]
                    st = r["stats_ms"]
                    progress(
                        f"{name}: {r['matched_line_count']} lines | api p50 {st['api']['p50_ms']} ms p95 "
                        f"{st['api']['p95_ms']} ms | raw ({r['raw_reference']}) p50 {st['raw']['p50_ms']} ms | "
                        f"raw_prepared p50 {st['raw_prepared']['p50_ms']} ms | service p50 {st['service']['p50_ms']}"
                        f" ms | httpx p50 {st['api_httpx']['p50_ms']} ms | http floor p50 {st['http_floor']['p50_ms']}"
                        f" ms | api floor p50 {st['api_floor']['p50_ms']} ms (sync {st['api_floor_sync']['p50_ms']})"
                        f" | beyond floor {r['beyond_floor_p50_ms']} ms (sync floor {r['beyond_sync_floor_p50_ms']})"
                        f" | overhead {r['overhead_p50_ms']} ms"
                        f" | ratio p50 {r['ratio_p50_api_over_raw']}x (at best {r['ratio_p50_lower_bound']}x)"
                    )
    finally:
        plain.close()
        server.terminate()
        server.wait(10)
    headline = results.pop("headline")
    report: dict[str, Any] = {
        "metric": METRIC,
        "database": settings.database_name,
        "tenant": tenant,
        **headline,
        "cases": results,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    report["headline"] = _headline(headline, results, lines)
    report["meets_target"] = all(h["met"] for h in report["headline"])
    return report


def _headline(headline: dict[str, Any], cases: dict[str, Any], lines: int | None) -> list[dict[str, Any]]:
    """The figures of issue 21's targets, each with met/missed.

    * seed-like question: api p50 - (raw p50 + authenticated no-op p50) <= 0.4 ms;
    * three years, all suppliers: api p50 <= 15 ms at 200k lines (40 ms at 1M) and at least 8x faster than the
      raw line-level SQL in the same run.
    """
    figures = []
    st = headline["stats_ms"]
    cores = os.cpu_count() or 1
    load = headline["load_1min"]
    # Design note: with more runnable processes than cores, scheduling delays of a few tenths of a millisecond
    # land on whichever side waited, so a 0.4 ms difference between p50s is then not resolved by this run.
    loaded = max(load) > cores
    figures.append({
        "figure": f"metric API p50 beyond raw SQL + authenticated no-op, seed-like question "
                  f"({headline['matched_line_count']} lines)",
        "value": headline["beyond_floor_p50_ms"],
        "unit": "ms",
        "target": "<= 0.4",
        "met": headline["beyond_floor_p50_ms"] <= 0.4,
        "detail": f"api {st['api']['p50_ms']} ms from {headline['answered_from']}, raw {st['raw']['p50_ms']} ms "
                  f"({headline['raw_reference']}, line-level), async no-op {st['api_floor']['p50_ms']} ms (sync "
                  f"no-op {st['api_floor_sync']['p50_ms']} ms: {headline['beyond_sync_floor_p50_ms']} ms beyond); load "
                  f"{load[0]}-{load[1]} on {cores} cores" + (" (too loaded to resolve 0.4 ms)" if loaded else ""),
    })  # fmt: skip
    for name, case in cases.items():
        st = case["stats_ms"]
        detail = (
            f"api {st['api']['p50_ms']} ms from {case['answered_from']}, raw line-level SQL "
            f"{st['raw']['p50_ms']} ms ({case['raw_reference']}), {case['matched_line_count']} lines; load "
            f"{case['load_1min'][0]}-{case['load_1min'][1]} on {cores} cores"
        )
        if name != "three_years_all_suppliers":
            figures.append({"figure": f"metric API p50, {name.replace('_', ' ')}", "value": st["api"]["p50_ms"],
                            "unit": "ms", "target": "reported", "met": True, "detail": detail})  # fmt: skip
            continue
        limit = 15.0 if (lines or 0) <= 200_000 else 40.0
        figures.append({
            "figure": f"metric API p50, three years all suppliers at {lines} lines",
            "value": st["api"]["p50_ms"], "unit": "ms", "target": f"<= {limit}",
            "met": st["api"]["p50_ms"] <= limit, "detail": detail,
        })  # fmt: skip
        figures.append({
            "figure": f"raw line-level SQL p50 / metric API p50, three years all suppliers at {lines} lines",
            "value": case["speedup_p50_raw_over_api"], "unit": "x", "target": ">= 8",
            "met": case["speedup_p50_raw_over_api"] >= 8, "detail": detail,
        })  # fmt: skip
    return figures


def main(argv: list[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000, help="synthetic invoice lines (default 200000)")
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--existing", action="store_true", help="use the configured database as it is")
    parser.add_argument("--corpus", type=Path, help="corpus folder whose ground_truth.json names the seed question")
    parser.add_argument("--manifest", type=Path, help="dbt manifest.json (default: the build's, or target/)")
    parser.add_argument("--json", type=Path, help="write the report here")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        _serve(args.serve, args.manifest)
        return 0

    progress = partial(echo_progress, prefix="bench")

    settings = get_settings()
    with tempfile.TemporaryDirectory(prefix="procura-bench-") as tmp:
        work = Path(tmp)
        if args.existing:
            tenant, parameters = "tenant-42", dict(SEED_PARAMETERS)
            if args.corpus is not None:
                truth = json.loads((args.corpus / "ground_truth.json").read_text())
                seed = next(q for q in truth["questions"] if q["name"] == "seed_monitoring_spend_2026q1")
                tenant = seed["tenant_id"]
                parameters = {k: seed["parameters"][k] for k in (*SEED_PARAMETERS, "invoice_statuses")}
            manifest = args.manifest or Path(__file__).resolve().parent.parent / "target" / "manifest.json"
            report = run(settings, tenant=tenant, parameters=parameters, manifest=manifest,
                         requests=args.requests, warmup=args.warmup, progress=progress)  # fmt: skip
        else:
            with _bench_database(settings, args.lines, work, progress) as bench:
                report = run(bench, tenant="tenant-bench", parameters=dict(BENCH_PARAMETERS), extra_cases=BROAD_CASES,
                             manifest=args.manifest or work / "target" / "manifest.json", lines=args.lines,
                             requests=args.requests, warmup=args.warmup, progress=progress)  # fmt: skip
            report["synthetic_lines"] = args.lines
    text = json.dumps(report, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
