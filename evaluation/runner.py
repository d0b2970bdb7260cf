"""``procura eval``'s engine: ask every golden question through the real API, score it, check the thresholds.

Every case is asked with ``POST /v1/ask`` as an API key of the case's tenant and scopes, with the case's
as-of date; its trace is read back with ``GET /v1/traces/{id}``. When the ask route is not mounted (the router
area not deployed yet) the router is called in process for the routing metrics and every answer counts as an
error, so the report still says how far the system is.
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from evaluation import metrics as m
from evaluation.errors import ThresholdConfigError
from evaluation.golden import GoldenCase, GoldenSet
from evaluation.observe import Observation, observe
from evaluation.world import DemoWorld, mount_missing, stage_table
from procura.progress import ProgressBar

Progress = Callable[[str], None]

ASK_PATH = "/v1/ask"
TRACE_PATH = "/v1/traces/{trace_id}"
DEFAULT_THRESHOLDS = Path(__file__).resolve().parent.parent / "eval" / "thresholds.yml"


def _quiet(_: str) -> None:
    return None


@dataclass(frozen=True)
class Threshold:
    """One gate: ``metric`` (dotted path into the results) within [min, max]."""

    metric: str
    min: float | None
    max: float | None
    why: str = ""


@dataclass(frozen=True)
class ThresholdOutcome:
    """A threshold and the measured value."""

    threshold: Threshold
    value: float | None
    passed: bool


def load_thresholds(path: Path = DEFAULT_THRESHOLDS) -> list[Threshold]:
    """Read eval/thresholds.yml.

    Raises:
        ThresholdConfigError: unreadable file, missing ``metric``, or neither ``min`` nor ``max``.
    """
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ThresholdConfigError(f"{path}: {exc}") from exc
    out = []
    for i, item in enumerate(raw.get("thresholds") or []):
        if not isinstance(item, Mapping) or not isinstance(item.get("metric"), str):
            raise ThresholdConfigError(f"{path}: thresholds[{i}].metric: required dotted metric path")
        if item.get("min") is None and item.get("max") is None:
            raise ThresholdConfigError(f"{path}: thresholds[{i}] ({item['metric']}): give min and/or max")
        out.append(Threshold(item["metric"], item.get("min"), item.get("max"), str(item.get("why", ""))))
    if not out:
        raise ThresholdConfigError(f"{path}: thresholds: at least one threshold is required")
    return out


def dig(results: Mapping[str, Any], dotted: str) -> Any:
    """The value at a dotted path, ``None`` if absent."""
    current: Any = results
    for part in dotted.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return None
        current = current[part]
    return current


def check_thresholds(results: Mapping[str, Any], thresholds: Sequence[Threshold]) -> list[ThresholdOutcome]:
    """Every threshold with its value; an unmeasured metric fails its threshold."""
    out = []
    for t in thresholds:
        value = dig(results, t.metric)
        number = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
        passed = number is not None and (t.min is None or number >= t.min) and (t.max is None or number <= t.max)
        out.append(ThresholdOutcome(t, number, passed))
    return out


# -- asking ----------------------------------------------------------------------------------------------------
class InProcessRouter:
    """The router called directly (per-tenant gazetteer, one classifier), for when /v1/ask is not mounted."""

    def __init__(self, world: DemoWorld) -> None:
        self.world = world
        self._gazetteers: dict[str, Any] = {}
        self._classifier: Any = None
        self.error: str | None = None

    def route(self, case: GoldenCase) -> dict[str, Any] | None:
        try:
            import psycopg

            from procura.db.session import AuthContext
            from router.entities import load_gazetteer
            from router.routing import RouterInputs, route

            ctx = AuthContext(case.tenant_id, f"eval-{case.tenant_id}", frozenset(case.principal_scopes))
            if case.tenant_id not in self._gazetteers:
                with psycopg.connect(self.world.settings.app_url, autocommit=True) as conn:
                    self._gazetteers[case.tenant_id] = load_gazetteer(conn, ctx)
            if self._classifier is None:
                from ingest.embedder import get_default_embedder
                from router.classifier import load_or_train

                self._classifier = load_or_train(get_default_embedder(), self.world.settings.home / "router")
            from router.reading import catalog_metrics

            registry = self.world.registry()
            result = route(case.question, RouterInputs(ctx=ctx, as_of=case.as_of,
                                                       gazetteer=self._gazetteers[case.tenant_id],
                                                       classifier=self._classifier,
                                                       metrics=catalog_metrics(registry) if registry else ()))
            return result.model_dump(mode="json", by_alias=True)  # type: ignore[no-any-return]
        except Exception as exc:  # any router failure is a measured failure, not a crash of the evaluation
            self.error = f"{type(exc).__name__}: {exc}"
            return None


def ask_mounted(app: Any) -> bool:
    """True when the app serves ``POST /v1/ask``."""
    from evaluation.world import served_routes

    return "POST" in served_routes(app).get(ASK_PATH, set())


def run_cases(
    world: DemoWorld,
    golden: GoldenSet,
    client: Any,
    *,
    mounted: bool,
    progress: Progress = _quiet,
    bar: ProgressBar | None = None,
) -> list[tuple[GoldenCase, Observation, dict[str, Any] | None]]:
    """Ask every case; returns (case, observation, routing JSON) triples in golden order.

    ``bar`` (when given) counts the questions asked; otherwise a line every 25 questions goes to ``progress``.
    """
    fallback = InProcessRouter(world)
    out = []
    for index, case in enumerate(golden.cases, start=1):
        headers = world.headers(case.tenant_id, case.principal_scopes)
        routing: dict[str, Any] | None = None
        trace: Any = None
        started = time.perf_counter()
        if mounted:
            response = client.post(ASK_PATH, json={"question": case.question, "as_of": case.as_of.isoformat()},
                                   headers=headers)
            latency = (time.perf_counter() - started) * 1000
            status = response.status_code
            try:
                body: Any = response.json()
            except ValueError:
                body = {"error": {"message": response.text[:300]}}
            trace_id = body.get("trace_id") if isinstance(body, Mapping) else None
            if trace_id:
                traced = client.get(TRACE_PATH.format(trace_id=trace_id), headers=headers)
                if traced.status_code == 200:
                    trace = traced.json()
            if isinstance(body, Mapping) and isinstance(body.get("routing"), Mapping):
                routing = dict(body["routing"])
        else:
            status, body = 404, {"error": {"code": "not_mounted", "message": f"POST {ASK_PATH} is not mounted"}}
            routing = fallback.route(case)
            latency = (time.perf_counter() - started) * 1000
        if routing is None and isinstance(trace, Mapping) and isinstance(trace.get("routing"), Mapping):
            routing = dict(trace["routing"])
        obs = observe(case.id, http_status=status, latency_ms=latency, body=body, trace=trace, routing=routing)
        out.append((case, obs, routing))
        line = f"asked {index}/{len(golden.cases)} questions"
        if bar is not None:
            bar.update(index, total=len(golden.cases), line=line if index % 25 == 0 or index == len(golden.cases)
                       else None)
        elif index % 25 == 0 or index == len(golden.cases):
            progress(line)
    if fallback.error:
        progress(f"in-process router: last error {fallback.error}")
    return out


# -- scoring ---------------------------------------------------------------------------------------------------
def score(
    triples: Sequence[tuple[GoldenCase, Observation, dict[str, Any] | None]],
    *,
    pii: Sequence[str],
    golden: GoldenSet,
) -> dict[str, Any]:
    """All metrics of the report from the asked cases."""
    pairs = [(c, o) for c, o, _ in triples]
    routing_by_case = {c.id: r for c, _, r in triples if r}
    router = m.intent_scores(pairs)
    points = m.calibration_pairs(pairs)
    ece, bins = m.expected_calibration_error(points)
    overall_points = [
        (float(o.overall_confidence), int(set(c.expected.intents) <= set(o.selected_intents)
                                         <= set(c.expected.intents) | set(c.expected.optional_intents)))
        for c, o in pairs if o.overall_confidence is not None
    ]
    ece_overall, _ = m.expected_calibration_error(overall_points)
    router.update({
        "ece": ece, "ece_overall": ece_overall, "calibration_points": len(points),
        "calibration_bins": [b.__dict__ for b in bins],
        "routing_sources": _count(o.routing_source for _, o in pairs),
    })

    cases_out = []
    plan_valid = plan_n = structural_valid = 0
    exact = answerable = outcome_ok = 0
    leaks: list[str] = []
    completeness: list[float] = []
    by_category: dict[str, dict[str, int]] = {}
    by_id = {c.id: o for c, o in pairs}
    invariance_ok = invariance_n = 0
    for case, obs in pairs:
        plan_issues = m.plan_problems(case, obs) if obs.has_routing else ["no routing result"]
        structural = [p for p in plan_issues if not p.startswith(("missing required tools", "clarification"))
                      and "> max" not in p]
        if obs.has_routing:
            plan_n += 1
            plan_valid += not plan_issues
            structural_valid += not structural
        answer_issues = m.answer_problems(case, obs, pii)
        if any(p.startswith(m.LEAK) for p in answer_issues):
            leaks.append(case.id)
        ok_outcome = obs.outcome in case.expected.outcomes
        outcome_ok += ok_outcome
        cat = by_category.setdefault(case.category, {"cases": 0, "correct": 0})
        cat["cases"] += 1
        cat["correct"] += not answer_issues
        if case.expected.answerable:
            answerable += 1
            exact += not answer_issues
        completeness_value = m.source_completeness(case, obs)
        if completeness_value is not None:
            completeness.append(completeness_value)
        same_plan = None
        if case.expected.same_plan_as is not None:
            other = by_id.get(case.expected.same_plan_as)
            if other is not None and other.has_routing and obs.has_routing:
                invariance_n += 1
                same_plan = m.plan_signature(obs) == m.plan_signature(other)
                invariance_ok += same_plan
        cases_out.append({
            "id": case.id,
            "category": case.category,
            "tenant_id": case.tenant_id,
            "question": case.question,
            "expected_intents": list(case.expected.intents),
            "selected_intents": sorted(obs.selected_intents),
            "confidences": dict(obs.confidences),
            "expected_outcome": sorted(case.expected.outcomes),
            "outcome": obs.outcome,
            "http_status": obs.http_status,
            "workflow": obs.workflow,
            "plan_tools": [s.tool for s in obs.plan],
            "plan_problems": plan_issues,
            "answer_problems": answer_issues,
            "source_completeness": completeness_value,
            "same_plan_as_control": same_plan,
            "latency_ms": round(obs.latency_ms, 2),
            "tool_calls": len(obs.tool_calls),
            "routing_source": obs.routing_source,
            "answer_status": obs.answer_status,
            "result": _compact(obs.result),
            "cited": [c for c, _ in obs.cited][:20],
            "error": obs.error,
        })
    for cat in by_category.values():
        cat["accuracy"] = cat["correct"] / cat["cases"] if cat["cases"] else None  # type: ignore[assignment]
    return {
        "router": router,
        "clarification": m.clarification_scores(pairs),
        "entities": m.entity_scores(pairs),
        "constraints": m.constraint_scores(pairs),
        "authorization": m.authorization_scores(pairs, routing_by_case),
        "plans": {"cases": plan_n, "validity": _ratio(plan_valid, plan_n),
                  "structural_validity": _ratio(structural_valid, plan_n)},
        "injection": {"plan_invariance": _ratio(invariance_ok, invariance_n), "pairs": invariance_n},
        "tools": m.tool_scores(pairs),
        "retrieval": m.retrieval_recall(pairs),
        "calculation": m.calculation_consistency(pairs),
        "sources": {"cases": len(completeness),
                    "mean_completeness": sum(completeness) / len(completeness) if completeness else None,
                    "complete_share": _ratio(sum(1 for v in completeness if v >= 1.0), len(completeness))},
        "answers": {"answerable": answerable, "exact": exact, "exactness_answerable": _ratio(exact, answerable),
                    "outcome_accuracy": _ratio(outcome_ok, len(pairs)), "by_category": by_category},
        "security": {"leaks": len(leaks), "leaking_cases": leaks},
        "latency_cost": m.latency_and_cost([o for _, o in pairs]),
        "golden": {"cases": len(golden.cases), "categories": _count(c.category for c in golden.cases),
                   "multi_intent": sum(len(c.expected.intents) > 1 for c in golden.cases)},
        "cases": cases_out,
    }


def _compact(value: Mapping[str, Any], limit: int = 1500) -> Any:
    """The structured result as stored in report.json: whole when small, else its text cut at ``limit``."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    return dict(value) if len(text) <= limit else text[:limit] + " ..."


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def _count(items: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return dict(sorted(out.items()))


def machine_info() -> dict[str, Any]:
    """Where the numbers were measured."""
    import os

    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=False, cwd=Path(__file__).resolve().parent.parent).stdout.strip()
    except OSError:
        commit = ""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": mem_gb,
        "python": platform.python_version(),
        "commit": commit,
    }


def run_evaluation(
    world: DemoWorld,
    golden: GoldenSet,
    *,
    thresholds: Sequence[Threshold],
    security_summary: Path | None = None,
    progress: Progress = _quiet,
    bar: ProgressBar | None = None,
) -> tuple[dict[str, Any], list[ThresholdOutcome]]:
    """Ask, score, attach the security suite's summary and check the thresholds."""
    from fastapi.testclient import TestClient

    app = world.create_app()
    unmounted = mount_missing(app)
    for path, problem in unmounted.items():
        progress(f"{path}: {problem}")
    mounted = ask_mounted(app)
    if not mounted:
        progress(f"POST {ASK_PATH} is not available: routing is measured in process, every answer counts as missing")
    started = time.monotonic()
    with TestClient(app) as client:
        triples = run_cases(world, golden, client, mounted=mounted, progress=progress, bar=bar)
    results = score(triples, pii=world.suppliers_pii(), golden=golden)
    results["meta"] = {
        **machine_info(),
        "database": world.settings.database_name,
        "corpus": str(world.corpus),
        "generator": world.ground_truth.get("generator"),
        "ask_mounted": mounted,
        "unmounted_routes": unmounted,
        "elapsed_s": round(time.monotonic() - started, 1),
        "world": stage_table(world.stages),
    }
    if security_summary is not None and security_summary.exists():
        suite = json.loads(security_summary.read_text(encoding="utf-8"))
        results["security"]["suite"] = suite
    outcomes = check_thresholds(results, thresholds)
    results["thresholds"] = [
        {"metric": o.threshold.metric, "min": o.threshold.min, "max": o.threshold.max, "value": o.value,
         "passed": o.passed, "why": o.threshold.why}
        for o in outcomes
    ]
    return results, outcomes
