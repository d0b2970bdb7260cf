"""Traces and runs: stored per tenant, readable by the same tenant only, with every decision and tool call;
the executor's guards (timeout retried, invalid input not retried, unknown ids refused, allowed-tool list)."""

from __future__ import annotations

import threading
import uuid

import psycopg
import pytest

from procura.db.session import tenant_transaction
from router.contract import PlanStep, Ref
from router.errors import PlanError, TraceNotFoundError
from router.executor import Executor, KnownEntities
from router.traces import TraceRecorder, TraceStore
from tests.integration.conftest_ask import AS_OF, OTHER_TENANT, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

VENDORS_QUESTION = "Which suppliers are approved vendors of Company A in 2026-Q1?"


def test_trace_records_every_decision_and_is_tenant_scoped(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(), VENDORS_QUESTION, as_of=AS_OF, interface="test")
    store = TraceStore()
    trace = store.read(app_conn, ctx(), out.trace_id)
    assert trace.status == "answered" and trace.workflow == "approved_vendors"
    assert trace.question == VENDORS_QUESTION and trace.as_of == AS_OF
    kinds = {e.kind for e in trace.events}
    assert {"intent", "clarification", "entity", "constraint", "authorization", "plan", "tool_call",
            "policy_check", "validation", "citation", "answer"} <= kinds
    intents = [e.payload for e in trace.events if e.kind == "intent"]
    assert any(i["type"] == "relationship" and i["selected"] for i in intents)
    auth = next(e.payload for e in trace.events if e.kind == "authorization")
    assert auth == {"tenant_id": SEED_TENANT, "principal_id": "analyst", "scopes": ["invoice:aggregate",
                                                                                     "procurement:read"]}
    call = next(e for e in trace.events if e.kind == "tool_call" and e.step_id == "find-approved-vendors")
    assert call.payload["arguments"]["company_id"] == "COMP-A"
    assert call.payload["result"]["supplier_ids"] == ["SUP-18", "SUP-27", "SUP-31"]
    runs = {r.step_id: r for r in trace.runs}
    assert set(runs) == {"resolve-company", "find-approved-vendors", "validate-result"}
    assert runs["find-approved-vendors"].status == "ok"
    assert runs["find-approved-vendors"].result["approvals"][0]["document_id"] == "agreement-2026-04"
    assert trace.answer["result"]["supplier_ids"] == ["SUP-18", "SUP-27", "SUP-31"]
    # Another tenant gets "not found" for the same id, exactly like an id that does not exist.
    with pytest.raises(TraceNotFoundError):
        store.read(app_conn, ctx(OTHER_TENANT), out.trace_id)
    with pytest.raises(TraceNotFoundError):
        store.read(app_conn, ctx(), str(uuid.uuid4()))
    with tenant_transaction(app_conn, ctx(OTHER_TENANT)):
        for table in ("app.traces", "app.trace_steps", "app.runs"):
            row = app_conn.execute(f"select count(*) from {table} where trace_id = %s", (out.trace_id,)).fetchone()
            assert row == (0,), table


def test_bi_role_cannot_read_traces(world: World, bi_conn: psycopg.Connection) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        bi_conn.execute("select count(*) from app.traces")


def test_clarification_trace_has_no_runs(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(), "What did we spend?", as_of=AS_OF, interface="test")
    trace = TraceStore().read(app_conn, ctx(), out.trace_id)
    assert trace.status == "clarification" and trace.runs == []
    decision = next(e.payload for e in trace.events if e.kind == "clarification")
    assert decision["requires_clarification"] is True
    assert any(r.startswith("period") for r in decision["reasons"])


def _start(world: World, app_conn: psycopg.Connection) -> TraceRecorder:
    recorder = TraceRecorder()
    TraceStore().start(app_conn, ctx(), recorder, interface="test", question="executor test", as_of=AS_OF,
                       routing={})
    return recorder


KNOWN = KnownEntities(company_ids=frozenset({"COMP-A", "COMP-B", "COMP-C"}),
                      supplier_ids=frozenset({"SUP-18", "SUP-27", "SUP-31"}))


def test_sql_timeout_is_retried_then_reported(
    world: World, app_conn: psycopg.Connection, admin_conn: psycopg.Connection
) -> None:
    executor = Executor(world.service.env, TraceStore(), timeouts_ms={"entity.resolve_company": 300})
    recorder = _start(world, app_conn)
    plan = (PlanStep(step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": "COMP-A"}),
            PlanStep(step_id="find-approved-vendors", tool="graph.find_approved_vendors",
                     depends_on=("resolve-company",),
                     arguments={"company_id": Ref.model_validate({"$ref": "resolve-company", "field": "company_id"}),
                                "start_date": "2026-01-01", "end_date": "2026-04-01"}))
    locked, release = threading.Event(), threading.Event()

    def hold_lock() -> None:
        with psycopg.connect(world.settings.admin_url) as locker:
            locker.execute("lock table marts.dim_companies in access exclusive mode")
            locked.set()
            release.wait(10)
            locker.rollback()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert locked.wait(10)
        run = executor.execute(app_conn, ctx(), plan, recorder, KNOWN)
    finally:
        release.set()
        holder.join()
    first = run.outcomes["resolve-company"]
    assert first.status == "timeout" and first.attempts == 2
    assert run.outcomes["find-approved-vendors"].status == "skipped"
    with tenant_transaction(app_conn, ctx()):
        rows = app_conn.execute(
            "select step_id, attempt, status from app.runs where trace_id = %s order by step_id, attempt",
            (recorder.trace_id,),
        ).fetchall()
    assert rows == [("find-approved-vendors", 1, "skipped"), ("resolve-company", 1, "timeout"),
                    ("resolve-company", 2, "timeout")]


def test_invalid_input_is_not_retried_and_unknown_ids_are_refused(
    world: World, app_conn: psycopg.Connection
) -> None:
    executor = Executor(world.service.env, TraceStore())
    recorder = _start(world, app_conn)
    vendors_ref = Ref.model_validate({"$ref": "find-approved-vendors", "field": "supplier_ids"})
    plan = (
        PlanStep(step_id="bad-company", tool="entity.resolve_company", arguments={"company_id": "COMP A; drop"}),
        PlanStep(step_id="find-approved-vendors", tool="graph.find_approved_vendors",
                 arguments={"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}),
        PlanStep(step_id="calculate-spend", tool="finance.aggregate_spend", depends_on=("find-approved-vendors",),
                 arguments={"company_id": "COMP-A", "supplier_ids": vendors_ref, "start_date": "2026-01-01",
                            "end_date": "2026-04-01", "reporting_currency": "EUR"}),
    )
    # The tenant "knows" only two of the three suppliers the graph returns: the third id must not reach SQL.
    known = KnownEntities(company_ids=KNOWN.company_ids, supplier_ids=frozenset({"SUP-18", "SUP-27"}))
    run = executor.execute(app_conn, ctx(), plan, recorder, known)
    bad = run.outcomes["bad-company"]
    assert bad.status == "invalid_input" and bad.attempts == 0 and "company_id" in (bad.error or "")
    assert run.outcomes["find-approved-vendors"].status == "ok"
    spend = run.outcomes["calculate-spend"]
    assert spend.status == "invalid_input" and "unknown to this tenant" in (spend.error or "")
    assert "SUP-31" in (spend.error or "")


def test_tools_outside_the_allowed_list_never_run(world: World, app_conn: psycopg.Connection) -> None:
    executor = Executor(world.service.env, TraceStore(), allowed_tools=["entity.resolve_company"])
    recorder = _start(world, app_conn)
    plan = (PlanStep(step_id="search", tool="documents.search", arguments={"query_text": "anything"}),)
    with pytest.raises(PlanError, match="allowed-tool list"):
        executor.execute(app_conn, ctx(), plan, recorder, KNOWN)
