"""Plans keep every constraint of the reading: through the real ask service (procura_app, RLS), a figure either
carries each constraint the question named (company, suppliers, group with its subgroups, exclusions, statuses,
the period with both bounds, the comparison base, the breakdown) and equals the governed metric called directly
with them, or the answer is a clarification naming the constraint no plan could carry. Never a figure computed
over fewer constraints or another base.
"""

from __future__ import annotations

import psycopg
import pytest

from router.contract import Constraints, Entities, PlanStep, TimeRange
from router.entities import load_gazetteer
from router.reader import read
from router.routing import unused_constraints
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

PRES = ["PG-PRES", "PG-PRES-WL"]
SENS = ["PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]
Q1 = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}

#: (question, metric, parameters, group_by, the output whose value must be in the answer)
_FIGURES = [
    ("How did Company A's spend in the last 3 months compare with the previous 3 months?",
     "finance.spend_comparison",
     # "the last 3 months" are whole calendar months before the as-of date's month (as-of 2026-05-15)
     {"company_id": "COMP-A", "start_date": "2026-02-01", "end_date": "2026-05-01", "compare_to": "custom",
      "base_start_date": "2025-11-01", "base_end_date": "2026-02-01"}, [], "base_value"),
    ("Which of Beta and Gamma did Company A spend more with in Q1 2026?", "finance.company_spend",
     {**Q1, "supplier_ids": ["SUP-18"]}, [], "total_spend"),
    ("Top 3 suppliers of Company A in Q4 2025 and Q1 2026", "finance.spend_ranking",
     {"company_id": "COMP-A", "start_date": "2025-10-01", "end_date": "2026-04-01", "limit": 3, "direction": "top",
      "order_by": "total_spend"}, ["supplier_id"], "total_spend"),
    ("What share of Company A's Q1 2026 spend went to Beta, excluding Pressure Sensors?", "finance.supplier_share",
     {**Q1, "supplier_ids": ["SUP-18"], "exclude_product_group_ids": PRES}, [], "share_percent"),
    ("Did Company A spend more in Q1 2026 than in Q4 2025?", "finance.spend_comparison",
     {**Q1, "compare_to": "previous_period"}, [], "change"),
]


def _ask(world: World, conn: psycopg.Connection, question: str):
    return world.service.ask(conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")


@pytest.mark.parametrize(("question", "metric", "params", "group_by", "output"), _FIGURES)
def test_figures_equal_the_metric_with_every_constraint(
    world: World, app_conn: psycopg.Connection, question: str, metric: str, params: dict, group_by: list,
    output: str,
) -> None:
    out = _ask(world, app_conn, question)
    assert out.answer.status == "answered", (question, out.answer.text)
    rows = world.service.env.metric_service.query(app_conn, ctx(SEED_TENANT), metric, params, group_by=group_by,
                                                  route="api").rows
    assert rows, question
    for row in rows:
        assert str(row.values[output]) in out.answer.text, (question, out.answer.text)


@pytest.mark.parametrize(("question", "named"), [
    # One ranking per supplier is no governed metric: the per-supplier breakdown is named, never dropped.
    ("Top 3 products per supplier of Company A in 2025", "supplier"),
    # "as of" a month for a figure: year to date up to it, or the month alone; both named with their dates.
    ("Company A spend as of March 2026", "2026-01-01 to 2026-04-01"),
    # Overlapping periods are no single period (a list with a gap is answered per part: test_ask_silent_wrongs).
    ("Company A spend Q1 2026 and March 2026", "overlap"),
])
def test_a_constraint_no_plan_carries_is_asked_about(world: World, app_conn: psycopg.Connection, question: str,
                                                     named: str) -> None:
    out = _ask(world, app_conn, question)
    assert out.answer.status == "clarification", (question, out.answer.text)
    assert named in (out.answer.clarification_question or ""), (question, out.answer.clarification_question)


def test_the_check_names_what_a_plan_leaves_out(world: World, app_conn: psycopg.Connection) -> None:
    """The check itself, on the tenant's real reading: a plan without the exclusion, the status, the end of the
    period or the breakdown is reported constraint by constraint."""
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    reading = read("Company A's unpaid spend per supplier in Q1 2026 excluding Beta", gazetteer, AS_OF)
    entities = Entities(company_id="COMP-A", company_name="Company A")
    tr = reading.period.time_range
    assert tr is not None
    constraints = Constraints(time_range=TimeRange(start=tr.start, end=tr.end, label=tr.label),
                              invoice_status=("posted",), reporting_currency="EUR")
    bare = (PlanStep(step_id="calculate-spend", tool="finance.company_spend",
                     arguments={"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-05-01"},
                     purpose="a plan that drops constraints"),)
    missing = unused_constraints(entities, constraints, bare, "spend", reading)
    assert any("period" in m for m in missing), missing
    assert any("status" in m for m in missing), missing
    assert any("SUP-18" in m for m in missing), missing
    assert any("breakdown by supplier" in m for m in missing), missing
    full = (PlanStep(step_id="calculate-spend", tool="metrics.query", arguments={
        "metric": "finance.company_spend", "group_by": ["supplier_id"], "grain": None,
        "parameters": {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
                       "invoice_statuses": ["posted"], "exclude_supplier_ids": ["SUP-18"]}},
        purpose="every constraint"),)
    assert unused_constraints(entities, constraints, full, "metric", reading) == []
