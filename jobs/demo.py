"""The main job end to end on the demo corpus: generate, ingest, validate, build the marts, answer the seed.

Each stage is the same code the individual commands run (``procura demo generate``, ``procura ingest``,
``procura validate``, ``procura transform``); this module only sequences them and reports.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import psycopg

from procura.db.session import AuthContext, tenant_transaction
from procura.errors import ProcuraError
from procura.progress import ProgressBar
from procura.settings import Settings

SEED_TENANT = "tenant-42"
SEED_QUESTION = "seed_monitoring_spend_2026q1"

# The seed's SQL, over the governed mart; the scope (approved vendors whose half-open approval
# overlaps the period, products under the group within PART_OF*0..3) is resolved in SQL as well, so this check
# is independent of the graph and of the ground-truth file it is compared with.
_SEED_SQL = """
with approved as (
    select distinct supplier_id
    from marts.vendor_approvals
    where company_id = %(company_id)s
      and valid_from < %(end_date)s
      and (valid_to is null or valid_to > %(start_date)s)
),
in_group as (
    select p.product_code
    from marts.dim_products p
    join marts.product_group_hierarchy h on h.descendant_group_id = p.product_group_id
    join marts.dim_product_groups g on g.product_group_id = h.ancestor_group_id
    where g.group_name = %(group_name)s and h.depth <= 3
      and p.supplier_id in (select supplier_id from approved)
)
select
    coalesce(sum(spend_reporting_amount), 0) as total_spend_reporting_currency,
    count(*) as matched_line_count,
    coalesce(array_agg(distinct supplier_id order by supplier_id) filter (where supplier_id is not null), '{}'),
    coalesce(array_agg(distinct product_code order by product_code) filter (where product_code is not null), '{}')
from marts.validated_invoice_lines
where company_id = %(company_id)s
  and supplier_id in (select supplier_id from approved)
  and product_code in (select product_code from in_group)
  and invoice_status = any(%(statuses)s)
  and is_cancelled = false
  and is_duplicate = false
  and invoice_date >= %(start_date)s
  and invoice_date < %(end_date)s
"""


@dataclass(frozen=True)
class SeedAnswer:
    """The seed question answered from governed SQL, next to the ground truth."""

    total_spend: str
    currency: str
    matched_line_count: int
    supplier_ids: tuple[str, ...]
    product_codes: tuple[str, ...]
    expected_total_spend: str
    expected_matched_line_count: int

    @property
    def matches_ground_truth(self) -> bool:
        return (
            self.total_spend == self.expected_total_spend
            and self.matched_line_count == self.expected_matched_line_count
        )


def _money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def seed_answer_from_sql(app_conn: psycopg.Connection, ground_truth: dict[str, Any]) -> SeedAnswer:
    """Answer the seed question with the seed's SQL as ``procura_app`` under the seed tenant's RLS."""
    question = next(q for q in ground_truth["questions"] if q["name"] == SEED_QUESTION)
    params = question["parameters"]
    ctx = AuthContext(tenant_id=question["tenant_id"], principal_id="demo", scopes=frozenset({"invoice:aggregate"}))
    with tenant_transaction(app_conn, ctx) as conn:
        row = conn.execute(
            _SEED_SQL,
            {
                "company_id": params["company_id"],
                "group_name": params.get("product_group_name", "Monitoring Products"),
                "start_date": date.fromisoformat(params["start_date"]),
                "end_date": date.fromisoformat(params["end_date"]),
                "statuses": list(params["invoice_statuses"]),
            },
        ).fetchone()
    if row is None:  # pragma: no cover - an aggregate always returns one row
        raise ProcuraError("the seed query returned no row")
    expected = question["expected"]
    return SeedAnswer(
        total_spend=_money(row[0]),
        currency=params["reporting_currency"],
        matched_line_count=int(row[1]),
        supplier_ids=tuple(row[2]),
        product_codes=tuple(row[3]),
        expected_total_spend=expected["total_spend"],
        expected_matched_line_count=int(expected["matched_line_count"]),
    )


#: What ``procura demo run`` counts on its progress bar.
DEMO_STAGES = ("generate", "ingest", "ingest updates", "validate", "dbt build", "seed answer")


def run_demo(settings: Settings, corpus: Path, *, scale: int = 1, seed: int = 42, bar: ProgressBar) -> SeedAnswer:
    """Generate the corpus, ingest it, validate landing data, build the marts and answer the seed question.

    ``bar`` (total :data:`DEMO_STAGES`) advances once per stage; each stage's own progress is its detail line.
    """
    from expectations.runner import validate_landing
    from ingest import ingest_path
    from procura.demo import generate
    from procura.transform import build_marts

    def detail(prefix: str) -> Callable[[object], None]:
        return lambda p: bar.update(bar.completed, line=f"{prefix}{p}")

    started = time.monotonic()
    summary = generate(corpus, seed=seed, scale=scale, progress=detail(""))
    bar.advance(line=(
        f"corpus: {len(summary.tenants)} tenants, {summary.documents} documents, "
        f"{summary.invoice_lines} invoice lines ({summary.elapsed_s:.1f}s)"
    ))
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        report = ingest_path(owner, corpus, progress=detail("ingest: "))
        bar.advance()
        # Later arrivals (amendments, status changes) are new versions of documents ingested above.
        updates = ingest_path(owner, corpus / "updates", progress=detail("ingest updates: "))
        bar.advance(line=f"updates: {updates.published} new versions published, {updates.skipped} unchanged")
        bar.echo(
            f"ingested {report.documents} documents: {report.published} published, {report.skipped} unchanged, "
            f"{report.dead_lettered} dead-lettered; {report.chunks} chunks, {report.rows} rows, "
            f"{report.embeddings} embeddings in {report.elapsed_s:.1f}s"
        )
        validation = validate_landing(owner, progress=detail(""))
        state = "all expectations held" if validation.success else "expectations failed"
        bar.advance(line=(
            f"validation: {state}; {len(validation.quarantined_batches)} batch(es) quarantined "
            f"({validation.elapsed_s:.1f}s)"
        ))
    result = build_marts(settings, progress=detail(""))
    bar.advance(line=f"dbt build: {result.summary()}")
    ground_truth = json.loads((corpus / "ground_truth.json").read_text())
    with psycopg.connect(settings.app_url, autocommit=True) as app:
        answer = seed_answer_from_sql(app, ground_truth)
    bar.advance(line=f"demo finished in {time.monotonic() - started:.1f}s")
    return answer
