"""Benchmark: the incremental build of ``marts.validated_invoice_lines`` after +1% invoices, against a full rebuild.

A private database is created and migrated; one tenant's master data (3 companies, 60 suppliers with aliases,
600 products, daily USD rates) is landed with the test landing writer and ``--invoices`` invoices of four lines
each are landed set-based (as ingestion would leave them: registry row, header, lines). The marts are built
once by dbt; then 1% new invoices are landed (dated anywhere in the three years, as the first ones) and
``dbt run`` of the lines and the two spend rollups (everything an invoice changes; upstream are views) is timed
incrementally, then the same selection with ``--full-refresh``. The row sets of the two are compared, for the
lines and each rollup. Per-model times come from dbt's run results; the rest of a run is dbt's own start-up
(parse, connection, the on-run-start hook) and its artifacts. The new invoices reach the incremental run through
the change log the registry's triggers write (ingest.served_document_changes, migration 0300), as ingestion's
would. Target (issue 21): incremental <= 0.1x the full rebuild at 1M lines.

    python -m bench.incremental_build [--invoices 250000] [--json out.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg

from procura.settings import Settings, get_settings

TENANT = "tenant-incr"
# Invoices i in [first, last): company, supplier (and so alias and products), date and currency from a hash of i.
_INVOICES_SQL = """
with src as (
    select i, abs(hashint4(i)) as h from generate_series(%(first)s, %(last)s - 1) as i
),
docs as (
    insert into ingest.documents (tenant_id, document_id, document_type, source_uri, active_version)
    select %(tenant)s, 'inv-' || i, 'invoice', 'bench://inv-' || i, 1 from src
    returning document_id
),
headers as (
    insert into landing.invoice_headers (tenant_id, document_id, document_version, content_hash, business_hash,
        source_system, document_type, invoice_number, company_id, supplier_name, status, invoice_date, posting_date,
        currency, tax_level, header_tax_amount, original_invoice_number)
    select %(tenant)s, 'inv-' || i, 1, 'sha256:' || encode(sha256(('h' || i)::bytea), 'hex'),
           'sha256:' || encode(sha256(('b' || i)::bytea), 'hex'), 'erp', 'invoice', 'INV-' || i,
           'COMP-' || chr(65 + h %% 3), 'Supplier ' || (h / 3) %% 60 || ' GmbH',
           (array['posted', 'paid', 'posted', 'draft'])[1 + (h / 7) %% 4],
           date '2024-01-01' + (h %% 1096), date '2024-01-01' + (h %% 1096),
           case when h %% 5 = 0 then 'USD' else 'EUR' end, 'line',
           (select sum(round((1 + (h + n) %% 40) * (10 + (h + n) %% 900) * 0.19, 2)) from generate_series(1, 4) as n),
           null
    from src
    returning document_id
)
insert into landing.invoice_lines (tenant_id, document_id, document_version, content_hash, line_id, line_number,
    product_code, description, quantity, unit_price, discount_amount, line_net_amount, line_tax_amount)
select %(tenant)s, 'inv-' || i, 1, 'sha256:' || encode(sha256(('h' || i)::bytea), 'hex'), 'inv-' || i || '-' || n, n,
       'PRD-' || (((h / 3) %% 60) * 10 + (h / 191 + n) %% 10), 'item', 1 + (h + n) %% 40, 10 + (h + n) %% 900, 0,
       (1 + (h + n) %% 40) * (10 + (h + n) %% 900), round((1 + (h + n) %% 40) * (10 + (h + n) %% 900) * 0.19, 2)
from src cross join generate_series(1, 4) as n
"""


def _land_master_data(conn: psycopg.Connection) -> None:
    from tests.support.landing import LandingWriter, Supplier

    writer = LandingWriter(conn, TENANT)
    writer.companies([(f"COMP-{c}", f"Company {c}", "EUR") for c in "ABC"])
    writer.suppliers([Supplier(f"SUP-{s}", f"Supplier {s}", (f"Supplier {s} GmbH",)) for s in range(60)])
    writer.product_groups([("PG-ALL", "All products", None)])
    writer.products([(f"PRD-{p}", f"Product {p}", "PG-ALL", f"SUP-{p // 10}") for p in range(600)])
    day = dt.date(2024, 1, 1)
    writer.fx_rates([(day + dt.timedelta(days=d), "USD", "EUR", "corporate", Decimal("0.92")) for d in range(1100)])


#: What one new invoice changes: the lines and the rollups read from them.
SELECTION = ("validated_invoice_lines", "spend_daily_rollup", "spend_monthly_rollup")


def _dbt_run(settings: Settings, work: Path, *extra: str) -> tuple[float, dict[str, float]]:
    """Seconds of one ``dbt run`` of :data:`SELECTION`, and each model's own seconds."""
    from procura.transform import _invoke

    started = time.monotonic()
    result = _invoke(settings, ["run", "--select", *SELECTION, *extra], progress=None,
                     target_path=work / "target", log_path=work / "logs", check=True)  # fmt: skip
    models = {n.name: round(n.elapsed_s, 2) for n in result.nodes if n.resource_type == "model"}
    return round(time.monotonic() - started, 2), models


_STATEMENT = re.compile(
    r"^(\d\d:\d\d:\d\d\.\d+) .*?\[(Thread-\d+|MainThread)[^\]]*\]: SQL status: (.*) in ([0-9.]+) seconds$"
)
_NODE = re.compile(r"\[(Thread-\d+)[^\]]*\]: Began running node model\.procura\.(\w+)")


def _slow_statements(log: Path, since: int, floor_s: float = 0.3) -> tuple[int, list[str]]:
    """The statements of dbt's debug log after byte ``since`` that took at least ``floor_s``: which model ran
    them, their status and seconds (what bounds a run); and the log's size, for the next call."""
    text = log.read_text(errors="replace") if log.exists() else ""
    model_of: dict[str, str] = {}
    slow = []
    for line in text[since:].splitlines():
        node = _NODE.search(line)
        if node:
            model_of[node.group(1)] = node.group(2)
            continue
        found = _STATEMENT.match(line)
        if found and float(found.group(4)) >= floor_s:
            who = model_of.get(found.group(2), "dbt") if found.group(2) != "MainThread" else "dbt (hooks)"
            slow.append(f"{who}: {found.group(3)} {found.group(4)}s")
    return len(text), slow


def _critical_path(models: dict[str, float]) -> float:
    """Seconds of the lines' model plus the slower rollup (dbt runs the two rollups in parallel)."""
    return models.get(SELECTION[0], 0.0) + max((models.get(name, 0.0) for name in SELECTION[1:]), default=0.0)


def _fingerprint(settings: Settings) -> dict[str, tuple[int, str]]:
    """Row count and an md5 of every row, per relation of :data:`SELECTION`."""
    found = {}
    with psycopg.connect(settings.admin_url) as conn:
        for name in SELECTION:
            row = conn.execute(
                f"select count(*), md5(string_agg(t::text, '|' order by t::text)) from marts.{name} as t"
            ).fetchone()
            assert row is not None
            found[name] = (int(row[0]), str(row[1]))
    return found


def run(settings: Settings, invoices: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """Land, build, add 1%, time incremental vs full; returns the report."""
    from procura.db.migrate import migrate
    from procura.db.provision import drop_database, ensure_database
    from procura.transform import build_marts

    name = f"procura_bench_{secrets.token_hex(3)}"
    bench = settings.with_database(name)
    ensure_database(bench)
    try:
        with tempfile.TemporaryDirectory(prefix="procura-incr-") as tmp:
            work = Path(tmp)
            with psycopg.connect(bench.admin_url, autocommit=True) as admin:
                migrate(admin, bench)
            with psycopg.connect(bench.owner_url, autocommit=True) as owner:
                _land_master_data(owner)
                started = time.monotonic()
                owner.execute(_INVOICES_SQL, {"tenant": TENANT, "first": 0, "last": invoices})
                owner.execute("analyze")
            progress(f"{invoices} invoices ({4 * invoices} lines) landed in {time.monotonic() - started:.1f}s")
            started = time.monotonic()
            build_marts(bench, target_path=work / "target", log_path=work / "logs")
            progress(f"first dbt build in {time.monotonic() - started:.1f}s")
            added = max(1, invoices // 100)
            with psycopg.connect(bench.owner_url, autocommit=True) as owner:
                owner.execute(_INVOICES_SQL, {"tenant": TENANT, "first": invoices, "last": invoices + added})
                owner.execute("analyze")
            load_before = [round(x, 2) for x in os.getloadavg()]
            log = work / "logs" / "dbt.log"
            mark, _ = _slow_statements(log, 0)
            incremental_s, incremental_models = _dbt_run(bench, work)
            mark, incremental_slow = _slow_statements(log, mark)
            incremental_rows = _fingerprint(bench)
            progress(f"+{added} invoices: incremental run {incremental_s}s {incremental_models}")
            full_s, full_models = _dbt_run(bench, work, "--full-refresh")
            mark, full_slow = _slow_statements(log, mark)
            full_rows = _fingerprint(bench)
            progress(f"full refresh {full_s}s {full_models}")
            # a no-change incremental run: only the change detection and dbt's start-up
            idle_s, idle_models = _dbt_run(bench, work)
            mark, idle_slow = _slow_statements(log, mark)
            progress(f"no-change run {idle_s}s {idle_models}")
    finally:
        drop_database(settings, name)
    ratio = round(incremental_s / full_s, 3)
    lines = full_rows["validated_invoice_lines"][0]
    identical = incremental_rows == full_rows
    return {
        "invoices": invoices + added,
        "governed_lines": lines,
        "added_invoices": added,
        "incremental_s": incremental_s,
        "full_refresh_s": full_s,
        "no_change_incremental_s": idle_s,
        "models_s": {"incremental": incremental_models, "full_refresh": full_models, "no_change": idle_models},
        # what dbt itself took besides the models (start-up, parse, hooks): the lines, then the two rollups in
        # parallel (dbt's threads), are the models' critical path; the rest of the wall time is dbt's
        "dbt_overhead_s": {
            run: round(total - _critical_path(models), 2)
            for run, total, models in (
                ("incremental", incremental_s, incremental_models),
                ("full_refresh", full_s, full_models),
                ("no_change", idle_s, idle_models),
            )
        },
        # every statement of >= 0.3 s, by model (dbt's debug log): where each run's time went
        "slow_statements": {"incremental": incremental_slow, "full_refresh": full_slow, "no_change": idle_slow},
        "ratio_incremental_over_full": ratio,
        "identical_rows": identical,
        "rows": {name: count for name, (count, _) in full_rows.items()},
        "load_average_before": load_before,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "measured_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "headline": [
            {
                "figure": f"incremental build of the lines and the spend rollups after +1% invoices / full rebuild "
                f"({lines} lines)",
                "value": ratio,
                "unit": "x",
                "target": "<= 0.1 (at 1M lines)",
                # the target is stated at 1M lines: a smaller run reports its ratio without a verdict
                "met": ratio <= 0.1 if 4 * (invoices + added) >= 1_000_000 else None,
                "detail": f"incremental {incremental_s}s {incremental_models}, full refresh {full_s}s, no-change "
                f"run {idle_s}s, identical rows (lines and both rollups): {identical}; load average {load_before} "
                f"before, {[round(x, 2) for x in os.getloadavg()]} after",
            }
        ],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--invoices", type=int, default=250_000, help="invoices of 4 lines (default 250000)")
    parser.add_argument("--json", type=Path, help="write the report here")
    args = parser.parse_args(argv)

    def progress(message: str) -> None:
        print(f"[bench] {message}", file=sys.stderr, flush=True)

    report = run(get_settings(), args.invoices, progress)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json is not None:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
