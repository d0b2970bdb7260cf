"""Run the landing suites with Great Expectations 1.x and quarantine the document versions that fail.

Design note: Great Expectations runs in an ephemeral context on a pandas DataFrame read through the connection
the caller passes in (no second connection, no stored GX project). Values stay Decimal/date objects: no float
ever touches an amount.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from expectations.errors import InvalidParameterError, SuiteRunError
from expectations.suites import BATCH_COLUMNS, SUITES, DateWindow, LandingSuite
from ingest.normalize import normalize_supplier_name

Progress = Callable[[str], None]

#: Failing rows stored per quarantine entry (the count is always complete).
MAX_ROWS_PER_ENTRY = 20

_SUPPLIER_NAMES = """
    select s.tenant_id, s.supplier_id, s.supplier_name as name
    from landing.suppliers s
    join ingest.documents d
      on d.tenant_id = s.tenant_id and d.document_id = s.document_id
     and d.active_version = s.document_version and not d.is_deleted
    where (%(tenant)s::text is null or s.tenant_id = %(tenant)s::text)
    union
    select a.tenant_id, a.supplier_id, a.alias
    from landing.supplier_aliases a
    join ingest.documents d
      on d.tenant_id = a.tenant_id and d.document_id = a.document_id
     and d.active_version = a.document_version and not d.is_deleted
    where (%(tenant)s::text is null or a.tenant_id = %(tenant)s::text)
"""
_KNOWN_SUPPLIERS = """
    select s.tenant_id, s.supplier_id
    from landing.suppliers s
    join ingest.documents d
      on d.tenant_id = s.tenant_id and d.document_id = s.document_id
     and d.active_version = s.document_version and not d.is_deleted
    where (%(tenant)s::text is null or s.tenant_id = %(tenant)s::text)
"""


@dataclass(frozen=True, order=True)
class BatchKey:
    """A batch: one version of one document of one tenant."""

    tenant_id: str
    document_id: str
    document_version: int

    def __str__(self) -> str:
        return f"{self.tenant_id}/{self.document_id} v{self.document_version}"


@dataclass(frozen=True)
class ExpectationOutcome:
    """One expectation of one suite: did it hold, and where not."""

    name: str
    expectation_type: str
    column: str | None
    success: bool
    unexpected_count: int
    failing_batches: tuple[BatchKey, ...]
    sample_rows: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class SuiteOutcome:
    """One suite run over the candidate rows of one landing table."""

    name: str
    table: str
    description: str
    rows_checked: int
    batches_checked: int
    expectations: tuple[ExpectationOutcome, ...]
    elapsed_s: float

    @property
    def success(self) -> bool:
        return all(e.success for e in self.expectations)


@dataclass(frozen=True)
class QuarantineEntry:
    """A document version excluded from the marts by one failing expectation."""

    batch: BatchKey
    suite_name: str
    expectation: str
    unexpected_count: int
    rows: tuple[Mapping[str, Any], ...]
    newly_quarantined: bool


@dataclass(frozen=True)
class ValidationReport:
    """Everything one ``validate_landing`` call checked and decided."""

    suites: tuple[SuiteOutcome, ...]
    quarantined: tuple[QuarantineEntry, ...]
    quarantine_written: bool
    elapsed_s: float
    released: tuple[tuple[BatchKey, str, str], ...] = ()

    @property
    def success(self) -> bool:
        """True when every expectation held for every batch."""
        return all(s.success for s in self.suites)

    @property
    def quarantined_batches(self) -> tuple[BatchKey, ...]:
        return tuple(sorted({q.batch for q in self.quarantined}))

    def format_text(self) -> str:
        """The human report ``procura validate`` prints."""
        lines: list[str] = []
        for suite in self.suites:
            state = "ok" if suite.success else "FAILED"
            lines.append(
                f"suite {suite.name} ({suite.table}): {state}, {suite.rows_checked} rows in "
                f"{suite.batches_checked} batches, {suite.elapsed_s:.2f}s"
            )
            for exp in suite.expectations:
                if exp.success:
                    lines.append(f"  ok    {exp.name}")
                    continue
                where = ", ".join(str(b) for b in exp.failing_batches[:5])
                more = f" (+{len(exp.failing_batches) - 5} more)" if len(exp.failing_batches) > 5 else ""
                lines.append(f"  FAIL  {exp.name}: {exp.unexpected_count} row(s) in {where}{more}")
                for row in exp.sample_rows[:3]:
                    lines.append("        " + ", ".join(f"{k}={v}" for k, v in row.items()))
        batches = self.quarantined_batches
        if batches:
            verb = "quarantined" if self.quarantine_written else "would quarantine (dry run)"
            shown = ", ".join(str(b) for b in batches[:10])
            more = f" (+{len(batches) - 10} more)" if len(batches) > 10 else ""
            lines.append(f"{verb} {len(batches)} document version(s): {shown}{more}")
        else:
            lines.append("no document version failed")
        if self.released:
            lines.append(
                f"released {len(self.released)} quarantine entr{'y' if len(self.released) == 1 else 'ies'} "
                "whose expectation now holds: " + ", ".join(f"{b} {e}" for b, _, e in self.released[:10])
            )
        lines.append(f"validated in {self.elapsed_s:.1f}s")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (Decimals and dates as strings)."""
        return {
            "success": self.success,
            "quarantine_written": self.quarantine_written,
            "suites": [
                {
                    "name": s.name,
                    "table": s.table,
                    "success": s.success,
                    "rows_checked": s.rows_checked,
                    "batches_checked": s.batches_checked,
                    "expectations": [
                        {
                            "name": e.name,
                            "type": e.expectation_type,
                            "column": e.column,
                            "success": e.success,
                            "unexpected_count": e.unexpected_count,
                            "failing_batches": [str(b) for b in e.failing_batches],
                        }
                        for e in s.expectations
                    ],
                }
                for s in self.suites
            ],
            "released": [
                {"tenant_id": b.tenant_id, "document_id": b.document_id, "document_version": b.document_version,
                 "suite_name": suite, "expectation": exp}
                for b, suite, exp in self.released
            ],
            "quarantined": [
                {
                    "tenant_id": q.batch.tenant_id,
                    "document_id": q.batch.document_id,
                    "document_version": q.batch.document_version,
                    "suite_name": q.suite_name,
                    "expectation": q.expectation,
                    "unexpected_count": q.unexpected_count,
                    "rows": [_jsonable(r) for r in q.rows],
                }
                for q in self.quarantined
            ],
        }


def validate_landing(
    conn: psycopg.Connection,
    *,
    tenant: str | None = None,
    suites: Sequence[LandingSuite] = SUITES,
    window: DateWindow | None = None,
    quarantine: bool = True,
    progress: Progress | None = None,
) -> ValidationReport:
    """Validate the candidate landing rows and quarantine every document version that fails an expectation.

    Args:
        conn: a connection of the pipeline role (``procura_owner``: it reads every tenant's landing rows and
            writes ``ingest.quarantine``). Quarantine rows are written in a transaction block on it; with a
            non-autocommit connection the caller commits.
        tenant: only this tenant's documents (default: all tenants).
        suites: the suites to run (default: all of :data:`expectations.suites.SUITES`).
        window: the plausible range of business dates.
        quarantine: write failing versions to ``ingest.quarantine`` (``False`` = dry run, report only).
        progress: receives one line per suite.

    Returns:
        The report: per suite and expectation, and the quarantine decisions.

    Raises:
        InvalidParameterError: an invalid tenant id.
        SuiteRunError: Great Expectations failed to evaluate an expectation.
    """
    if tenant is not None and not tenant.strip():
        raise InvalidParameterError("tenant: must not be empty when given")
    window = window or DateWindow()
    started = time.monotonic()
    params = {"tenant": tenant}
    context = _ephemeral_context()
    outcomes: list[SuiteOutcome] = []
    failures: dict[tuple[BatchKey, str, str], list[Mapping[str, Any]]] = {}
    counts: dict[tuple[BatchKey, str, str], int] = {}
    resolver: _SupplierResolver | None = None
    checked: dict[str, set[BatchKey]] = {}
    for suite in suites:
        suite_started = time.monotonic()
        frame = _read_frame(conn, suite.query, params)
        if suite.needs_supplier_resolution:
            resolver = resolver or _SupplierResolver.load(conn, params)
            frame["resolved_supplier_id"] = [
                resolver.resolve(t, n) for t, n in zip(frame["tenant_id"], frame["supplier_name"], strict=True)
            ]
        outcome = _run_suite(context, suite, frame, window, suite_started)
        outcomes.append(outcome)
        checked[suite.name] = {
            BatchKey(str(t), str(d), int(v))
            for t, d, v in zip(frame["tenant_id"], frame["document_id"], frame["document_version"], strict=True)
        } if len(frame) else set()
        for exp in outcome.expectations:
            if exp.success:
                continue
            for row in exp.sample_rows:
                key = (_batch_of(row), suite.name, exp.name)
                failures.setdefault(key, []).append(row)
            for batch, n in _count_by_batch(exp.sample_rows).items():
                counts[(batch, suite.name, exp.name)] = n
        if progress is not None:
            failed = sum(not e.success for e in outcome.expectations)
            progress(
                f"{suite.name}: {outcome.rows_checked} rows, {len(outcome.expectations)} expectations, "
                f"{failed} failing ({outcome.elapsed_s:.2f}s)"
            )
    entries = [
        QuarantineEntry(
            batch=batch,
            suite_name=suite_name,
            expectation=expectation,
            unexpected_count=counts[(batch, suite_name, expectation)],
            rows=tuple(rows[:MAX_ROWS_PER_ENTRY]),
            newly_quarantined=False,
        )
        for (batch, suite_name, expectation), rows in sorted(failures.items(), key=lambda item: item[0])
    ]
    released: list[tuple[BatchKey, str, str]] = []
    if quarantine:
        entries = _write_quarantine(conn, entries)
        expectation_names = {s.name: {e.name for e in o.expectations} for s, o in zip(suites, outcomes, strict=True)}
        released = _release_resolved(conn, checked, expectation_names, set(failures))
    return ValidationReport(
        suites=tuple(outcomes),
        quarantined=tuple(entries),
        quarantine_written=quarantine,
        elapsed_s=time.monotonic() - started,
        released=tuple(released),
    )


class _SupplierResolver:
    """The alias lookup of the marts (normalize, then exact match) over the candidate master data."""

    def __init__(self, names: dict[tuple[str, str], set[str]], known: set[tuple[str, str]]) -> None:
        self._names = names
        self._known = known

    @classmethod
    def load(cls, conn: psycopg.Connection, params: Mapping[str, Any]) -> _SupplierResolver:
        known = {(str(t), str(s)) for t, s in conn.execute(_KNOWN_SUPPLIERS, params).fetchall()}
        names: dict[tuple[str, str], set[str]] = {}
        for tenant_id, supplier_id, name in conn.execute(_SUPPLIER_NAMES, params).fetchall():
            normalized = normalize_supplier_name(str(name))
            if normalized is not None and (tenant_id, supplier_id) in known:
                names.setdefault((tenant_id, normalized), set()).add(supplier_id)
        return cls(names, known)

    def resolve(self, tenant_id: str, supplier_name: str | None) -> str | None:
        """The supplier id, or None when the name is unknown or ambiguous."""
        if supplier_name is None:
            return None
        normalized = normalize_supplier_name(supplier_name)
        candidates = self._names.get((tenant_id, normalized or ""), set())
        return next(iter(candidates)) if len(candidates) == 1 else None


def _ephemeral_context() -> Any:
    # GX would otherwise try to send usage statistics (no network here) and draw progress bars on stderr.
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "false")
    import great_expectations as gx
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(),
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False),
    )
    return gx.get_context(project_config=config, mode="ephemeral")


def _read_frame(conn: psycopg.Connection, query: str, params: Mapping[str, Any]) -> Any:
    import pandas as pd

    with conn.cursor() as cur:
        cur.execute(query, params)
        columns = [c.name for c in cur.description or ()]
        rows = cur.fetchall()
    # dtype=object keeps Decimal and date values as they are (no float conversion)
    return pd.DataFrame.from_records(rows, columns=columns).astype(object)


def _run_suite(
    context: Any, suite: LandingSuite, frame: Any, window: DateWindow, started: float
) -> SuiteOutcome:
    import great_expectations as gx

    expectations = suite.build(window)
    batches = {tuple(row) for row in frame[list(BATCH_COLUMNS)].itertuples(index=False)} if len(frame) else set()
    if len(frame) == 0:
        # nothing landed: every expectation holds vacuously, and GX cannot infer column types of an empty frame
        results = tuple(
            ExpectationOutcome(e.meta["name"], e.expectation_type, getattr(e, "column", None), True, 0, (), ())
            for e in expectations
        )
        return SuiteOutcome(suite.name, suite.table, suite.description, 0, 0, results, time.monotonic() - started)
    source = context.data_sources.add_or_update_pandas(f"landing__{suite.name}")
    asset = source.add_dataframe_asset(name=suite.name)
    batch = asset.add_batch_definition_whole_dataframe("candidate_versions").get_batch(
        batch_parameters={"dataframe": frame}
    )
    gx_suite = gx.ExpectationSuite(name=suite.name)
    for expectation in expectations:
        gx_suite.add_expectation(expectation)
    index_columns = [*BATCH_COLUMNS, suite.row_key]
    result = batch.validate(
        gx_suite,
        result_format={"result_format": "COMPLETE", "unexpected_index_column_names": index_columns},
    )
    outcomes: list[ExpectationOutcome] = []
    for item in result.results:
        config = item.expectation_config
        name = str(config.meta.get("name", config.type))
        if item.exception_info and item.exception_info.get("raised_exception"):
            raise SuiteRunError(
                f"suite {suite.name}, expectation {name}: {item.exception_info.get('exception_message')}"
            )
        rows = tuple(_clean_row(r) for r in (item.result.get("unexpected_index_list") or ()))
        outcomes.append(
            ExpectationOutcome(
                name=name,
                expectation_type=config.type,
                column=config.kwargs.get("column"),
                success=bool(item.success),
                unexpected_count=int(item.result.get("unexpected_count") or len(rows)),
                failing_batches=tuple(sorted({_batch_of(r) for r in rows})),
                sample_rows=rows,
            )
        )
    order = {e.meta["name"]: i for i, e in enumerate(expectations)}
    outcomes.sort(key=lambda o: order.get(o.name, len(order)))
    return SuiteOutcome(
        suite.name, suite.table, suite.description, len(frame), len(batches), tuple(outcomes),
        time.monotonic() - started,
    )


def _clean_row(row: Mapping[str, Any]) -> dict[str, Any]:
    cleaned: dict[str, Any] = {}
    for key, value in row.items():
        if hasattr(value, "item") and not isinstance(value, Decimal | date | str):
            value = value.item()  # numpy scalar -> Python
        if isinstance(value, float) and math.isnan(value):
            value = None  # pandas' missing value, never a landed number (amounts are Decimal)
        cleaned[str(key)] = value
    return cleaned


def _batch_of(row: Mapping[str, Any]) -> BatchKey:
    return BatchKey(str(row["tenant_id"]), str(row["document_id"]), int(row["document_version"]))


def _count_by_batch(rows: Iterable[Mapping[str, Any]]) -> dict[BatchKey, int]:
    counts: dict[BatchKey, int] = {}
    for row in rows:
        batch = _batch_of(row)
        counts[batch] = counts.get(batch, 0) + 1
    return counts


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def _release_resolved(
    conn: psycopg.Connection,
    checked: Mapping[str, set[BatchKey]],
    expectation_names: Mapping[str, set[str]],
    failing: set[tuple[BatchKey, str, str]],
) -> list[tuple[BatchKey, str, str]]:
    """Release open quarantine entries whose expectation held on this run for the same document version.

    Design note: a version quarantined because its master data was missing (an unknown supplier, say) passes
    once the master data lands; the entry is released with a note instead of keeping the version out forever.
    Only expectations this run evaluated on batches it checked are touched; other entries (manual holds, other
    suites, versions outside a tenant filter) stay as they are.
    """
    released: list[tuple[BatchKey, str, str]] = []
    with conn.transaction():
        for suite_name, batches in checked.items():
            names = expectation_names.get(suite_name, set())
            if not batches or not names:
                continue
            rows = conn.execute(
                """
                select tenant_id, document_id, document_version, expectation
                from ingest.quarantine
                where suite_name = %s and released_at is null and expectation = any(%s)
                for update
                """,
                (suite_name, sorted(names)),
            ).fetchall()
            for tenant_id, document_id, version, expectation in rows:
                batch = BatchKey(tenant_id, document_id, int(version))
                if batch not in batches or (batch, suite_name, expectation) in failing:
                    continue
                conn.execute(
                    """
                    update ingest.quarantine
                    set released_at = now(),
                        details = details || jsonb_build_object('released_by', 'revalidation')
                    where tenant_id = %s and document_id = %s and document_version = %s
                      and suite_name = %s and expectation = %s
                    """,
                    (tenant_id, document_id, version, suite_name, expectation),
                )
                released.append((batch, suite_name, expectation))
    return sorted(released)


def _write_quarantine(conn: psycopg.Connection, entries: Sequence[QuarantineEntry]) -> list[QuarantineEntry]:
    """Upsert the entries; an entry an operator already released stays released."""
    written: list[QuarantineEntry] = []
    with conn.transaction():
        for entry in entries:
            details = {
                "unexpected_count": entry.unexpected_count,
                "rows": _jsonable(list(entry.rows)),
            }
            row = conn.execute(
                """
                insert into ingest.quarantine
                    (tenant_id, document_id, document_version, suite_name, expectation, details)
                values (%s, %s, %s, %s, %s, %s)
                on conflict (tenant_id, document_id, document_version, suite_name, expectation)
                do update set details = excluded.details
                    where ingest.quarantine.released_at is null
                returning (xmax = 0) as inserted
                """,
                (
                    entry.batch.tenant_id,
                    entry.batch.document_id,
                    entry.batch.document_version,
                    entry.suite_name,
                    entry.expectation,
                    Jsonb(details),
                ),
            ).fetchone()
            newly = bool(row[0]) if row is not None else False
            written.append(
                QuarantineEntry(
                    batch=entry.batch,
                    suite_name=entry.suite_name,
                    expectation=entry.expectation,
                    unexpected_count=entry.unexpected_count,
                    rows=entry.rows,
                    newly_quarantined=newly,
                )
            )
    return written
