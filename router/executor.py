"""The bounded executor: runs a validated plan step by step with typed inputs and outputs.

Guarantees: only tools of the allowed list run; at most ``MAX_STEPS`` steps and a wall-clock budget; every
request is validated against the tool's request model (invalid input is never retried); entity ids that one
tool returns are checked (pattern + known to the tenant) before another tool uses them; every response is
validated against the tool's response model and its result-size cap (an invalid response is never retried);
a timeout is retried as often as the tool allows; every attempt's arguments and result are persisted to
``app.runs``; a step whose dependency produced nothing is skipped, so "no result" never turns into a value.
The plan is fixed before execution starts: nothing a tool returns (least of all retrieved text) can add, remove
or change a step, a tool or the authorization context.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import psycopg
from psycopg import errors as pg_errors
from pydantic import BaseModel, ValidationError

from procura.db.session import AuthContext
from router.contract import ALLOWED_TOOLS, PlanStep, Ref
from router.errors import PlanError, ToolFailedError, ToolOutputError, ToolTimeoutError
from router.planner import MAX_STEPS, validate_plan
from router.tools import (
    TOOLS,
    ApprovedVendorsToolResponse,
    FindProductsToolResponse,
    ResolveCompanyResponse,
    ToolEnv,
    check_completeness,
    result_size,
)
from router.traces import TraceRecorder, TraceStore, to_json

StepStatus = Literal["ok", "not_found", "timeout", "invalid_input", "invalid_output", "failed", "denied", "skipped"]
_ID_FIELDS = frozenset({"company_id", "supplier_ids", "product_codes"})


@dataclass(frozen=True)
class StepOutcome:
    """What one plan step ended with."""

    step_id: str
    tool: str
    status: StepStatus
    attempts: int
    arguments: Any
    output: BaseModel | None
    error: str | None
    duration_ms: float


@dataclass
class RunResult:
    """All step outcomes of one run, by step id."""

    run_id: uuid.UUID
    outcomes: dict[str, StepOutcome] = field(default_factory=dict)

    def output(self, step_id: str) -> BaseModel | None:
        """The typed output of a step that succeeded."""
        outcome = self.outcomes.get(step_id)
        return outcome.output if outcome is not None and outcome.status == "ok" else None


@dataclass(frozen=True)
class KnownEntities:
    """The tenant's canonical ids (from its gazetteer): ids a tool returns must be among them."""

    company_ids: frozenset[str]
    supplier_ids: frozenset[str]


def _not_found(output: BaseModel) -> bool:
    if isinstance(output, ResolveCompanyResponse):
        return not output.found
    if isinstance(output, ApprovedVendorsToolResponse):
        return not output.supplier_ids
    if isinstance(output, FindProductsToolResponse):
        return not output.products
    return False


class Executor:
    """Runs plans for one tenant context at a time (stateless between runs)."""

    def __init__(
        self,
        env: ToolEnv,
        store: TraceStore,
        *,
        allowed_tools: Iterable[str] = ALLOWED_TOOLS,
        max_steps: int = MAX_STEPS,
        time_budget_ms: int = 30_000,
        timeouts_ms: Mapping[str, int] | None = None,
    ) -> None:
        self.env = env
        self.store = store
        self.allowed_tools = frozenset(allowed_tools)
        self.max_steps = max_steps
        self.time_budget_ms = time_budget_ms
        self.timeouts_ms = dict(timeouts_ms or {})

    def execute(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        plan: tuple[PlanStep, ...],
        recorder: TraceRecorder,
        known: KnownEntities,
    ) -> RunResult:
        """Run ``plan`` for ``ctx``'s tenant.

        Raises:
            PlanError: the plan breaks the DAG rules, is too long, or names a tool outside the allowed list.
        """
        validate_plan(plan)
        if len(plan) > self.max_steps:
            raise PlanError(f"plan: {len(plan)} steps exceed this executor's bound of {self.max_steps}")
        for step in plan:
            if step.tool not in self.allowed_tools:
                raise PlanError(f"plan: tool {step.tool!r} is not in the allowed-tool list")
        run = RunResult(run_id=uuid.uuid4())
        started = time.perf_counter()
        for step in plan:
            elapsed_ms = (time.perf_counter() - started) * 1000
            if elapsed_ms > self.time_budget_ms:
                outcome = StepOutcome(step.step_id, step.tool, "skipped", 0, {}, None,
                                      f"run time budget of {self.time_budget_ms} ms exhausted", 0.0)
            else:
                outcome = self._step(conn, ctx, step, run, recorder, known)
            run.outcomes[step.step_id] = outcome
            recorder.add(
                "tool_call",
                {
                    "tool": step.tool,
                    "status": outcome.status,
                    "attempts": outcome.attempts,
                    "depends_on": list(step.depends_on),
                    "arguments": outcome.arguments,
                    "result": _summary(outcome.output),
                    "error": outcome.error,
                    "duration_ms": round(outcome.duration_ms, 3),
                },
                step.step_id,
            )
        return run

    def _step(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        step: PlanStep,
        run: RunResult,
        recorder: TraceRecorder,
        known: KnownEntities,
    ) -> StepOutcome:
        spec = TOOLS[step.tool]
        is_check = spec.run is None
        blocked = [d for d in step.depends_on if run.outcomes[d].status != "ok"]
        if blocked and not is_check:
            reason = "; ".join(f"{d} {run.outcomes[d].status}" for d in blocked)
            return self._persist(conn, ctx, run, recorder, step, "skipped", 0, {}, None,
                                 f"dependency without result: {reason}", 0.0)
        allowed = ctx.has_scope(spec.scope)
        recorder.add("policy_check", {"check": "scope", "tool": step.tool, "scope": spec.scope, "passed": allowed},
                     step.step_id)
        if not allowed:
            return self._persist(conn, ctx, run, recorder, step, "denied", 0, {}, None,
                                 f"the principal lacks scope {spec.scope!r}", 0.0)
        if is_check:
            upstream = {d: run.output(d) for d in step.depends_on}
            t0 = time.perf_counter()
            checked = check_completeness(upstream)
            return self._persist(conn, ctx, run, recorder, step, "ok", 1, {}, checked, None,
                                 (time.perf_counter() - t0) * 1000)
        try:
            arguments = self._resolve(step, run, known)
            request = spec.request.model_validate(arguments)
        except (ValidationError, ToolOutputError) as exc:
            message = _validation_message(exc)
            return self._persist(conn, ctx, run, recorder, step, "invalid_input", 0, to_json(step.arguments), None,
                                 message, 0.0)
        timeout_ms = self.timeouts_ms.get(step.tool, spec.timeout_ms)
        attempt = 0
        while True:
            attempt += 1
            t0 = time.perf_counter()
            try:
                try:
                    raw = spec.run(conn, ctx, request, self.env, timeout_ms)  # type: ignore[misc]  # run is set
                except pg_errors.QueryCanceled as exc:
                    raise ToolTimeoutError(f"{step.tool} exceeded its statement timeout of {timeout_ms} ms") from exc
                except psycopg.Error as exc:
                    raise ToolFailedError(f"{step.tool} failed in the database ({type(exc).__name__})") from exc
                output = spec.response.model_validate(raw.model_dump())
                size = result_size(output)
                if size > spec.result_cap:
                    raise ToolOutputError(f"{step.tool} returned {size} records, over its cap of {spec.result_cap}")
            except ToolTimeoutError as exc:
                duration = (time.perf_counter() - t0) * 1000
                self._attempt(conn, ctx, run, recorder, step, attempt, "timeout", request, None, str(exc), duration)
                if attempt <= spec.retries_on_timeout:
                    continue  # Design note: a timeout is transient; the same validated request is retried.
                return StepOutcome(step.step_id, step.tool, "timeout", attempt, to_json(request), None, str(exc),
                                   duration)
            except (ValidationError, ToolOutputError) as exc:
                duration = (time.perf_counter() - t0) * 1000
                message = _validation_message(exc)
                # Design note: a schema-invalid result is not retried unchanged; it needs a fix, not a rerun.
                self._attempt(conn, ctx, run, recorder, step, attempt, "invalid_output", request, None, message,
                              duration)
                return StepOutcome(step.step_id, step.tool, "invalid_output", attempt, to_json(request), None,
                                   message, duration)
            except ToolFailedError as exc:
                duration = (time.perf_counter() - t0) * 1000
                self._attempt(conn, ctx, run, recorder, step, attempt, "failed", request, None, str(exc), duration)
                return StepOutcome(step.step_id, step.tool, "failed", attempt, to_json(request), None, str(exc),
                                   duration)
            duration = (time.perf_counter() - t0) * 1000
            status: StepStatus = "not_found" if _not_found(output) else "ok"
            self._attempt(conn, ctx, run, recorder, step, attempt, status, request, output, None, duration)
            return StepOutcome(step.step_id, step.tool, status, attempt, to_json(request), output, None, duration)

    def _resolve(self, step: PlanStep, run: RunResult, known: KnownEntities) -> dict[str, Any]:
        """Arguments with every reference replaced by the upstream step's typed value, ids checked."""

        def value_of(raw: Any, name: str) -> Any:
            if isinstance(raw, dict) and "$ref" in raw:
                raw = Ref.model_validate(raw)
            if isinstance(raw, Ref):
                output = run.output(raw.ref)
                if output is None or not hasattr(output, raw.field):
                    raise ToolOutputError(f"{name}: step {raw.ref} has no field {raw.field!r}")
                resolved = getattr(output, raw.field)
                if name in _ID_FIELDS:
                    self._check_ids(name, resolved, known, raw.ref)
                return resolved
            if isinstance(raw, dict):
                return {k: value_of(v, f"{name}.{k}") for k, v in raw.items()}
            return raw

        return {name: value_of(raw, name) for name, raw in step.arguments.items()}

    @staticmethod
    def _check_ids(name: str, value: Any, known: KnownEntities, source: str) -> None:
        values = list(value) if isinstance(value, list | tuple) else [value]
        if name == "company_id":
            unknown = [v for v in values if v not in known.company_ids]
        elif name == "supplier_ids":
            unknown = [v for v in values if v not in known.supplier_ids]
        else:
            unknown = [v for v in values if not isinstance(v, str) or not v]
        if unknown:
            raise ToolOutputError(f"{name}: step {source} returned ids unknown to this tenant: {unknown}")

    def _attempt(
        self, conn: psycopg.Connection, ctx: AuthContext, run: RunResult, recorder: TraceRecorder, step: PlanStep,
        attempt: int, status: str, request: Any, output: Any, error: str | None, duration_ms: float,
    ) -> None:
        self.store.record_attempt(
            conn, ctx, run_id=run.run_id, trace_id=recorder.trace_id, step_id=step.step_id, attempt=attempt,
            tool=step.tool, status=status, arguments=request, result=output, error=error, duration_ms=duration_ms,
        )

    def _persist(
        self, conn: psycopg.Connection, ctx: AuthContext, run: RunResult, recorder: TraceRecorder, step: PlanStep,
        status: StepStatus, attempts: int, arguments: Any, output: BaseModel | None, error: str | None,
        duration_ms: float,
    ) -> StepOutcome:
        self._attempt(conn, ctx, run, recorder, step, max(attempts, 1), status, arguments, output, error,
                      duration_ms)
        return StepOutcome(step.step_id, step.tool, status, attempts, arguments, output, error, duration_ms)


def _validation_message(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "request"
        return f"{where}: {first.get('msg', 'invalid')}"
    return str(exc)


def _summary(output: BaseModel | None) -> Any:
    """The result as recorded in the trace: whole, except chunk texts are cut to 300 characters."""
    if output is None:
        return None
    data = to_json(output)
    for chunk in data.get("chunks", []) if isinstance(data, dict) else []:
        if isinstance(chunk.get("text"), str) and len(chunk["text"]) > 300:
            chunk["text"] = chunk["text"][:300] + "…"
    return data
