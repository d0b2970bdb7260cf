"""Scoring: golden cases x observations -> the numbers of the evaluation report.

Pure functions over typed values; nothing here touches a database or the network, so every metric can be
checked on hand-made observations.

Definitions (also printed in the report):

* Per-intent precision/recall/F1: an intent is a true positive when required and selected, a false negative
  when required and not selected, a false positive when selected but neither required nor optional.
  Macro-F1 is the unweighted mean over the five intents.
* Exact intent-set accuracy: required <= selected <= required | optional.
* ECE: every (case, intent) pair with a reported confidence and a defined label (optional intents excluded),
  label 1 when the intent is required; 10 equal-width bins; sum over bins of |accuracy - mean confidence|
  weighted by the bin's share of pairs.
* End-to-end exactness: over answerable cases, the outcome, value (at the presented precision), currency,
  status and missing suppliers, id sets, lookups and passages all as expected, and nothing forbidden in the
  response.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from evaluation.golden import INTENTS, ExpectedAnswer, GoldenCase
from evaluation.observe import (
    INVALID_TOOL_STATUSES,
    Observation,
    matches_document,
    strings,
    to_decimal,
    values_in,
    walk,
)

ECE_BINS = 10
#: Prefix of an answer problem that is a leak (another tenant's value, PII, a secret).
LEAK = "LEAK"
#: Tool namespaces a plan may use (the router's allowed list lives in router.contract.ALLOWED_TOOLS).
KNOWN_TOOL_PREFIXES = ("entity.", "graph.", "catalog.", "finance.", "documents.", "validation.")
_VALUE_KEYS = {
    "money": ("total_spend", "total_tax", "total", "amount", "value", "grand_total"),
    "quantity": ("units", "units_purchased", "quantity", "total", "value"),
    "unit_price": ("unit_price", "average_unit_price", "price", "value"),
}
_PRECISION = {"money": Decimal("0.01"), "quantity": Decimal("0.0001"), "unit_price": Decimal("0.0001")}


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def _f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


# -- routing ---------------------------------------------------------------------------------------------------
def intent_scores(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Per-intent P/R/F1 (+ support), macro and micro F1, exact intent-set accuracy (all, multi-intent)."""
    counts = {i: {"tp": 0, "fp": 0, "fn": 0, "support": 0} for i in INTENTS}
    exact = exact_multi = multi = 0
    routed = [(c, o) for c, o in pairs if o.has_routing]
    for case, obs in routed:
        required, optional = set(case.expected.intents), set(case.expected.optional_intents)
        selected = set(obs.selected_intents)
        for intent in INTENTS:
            if intent in required:
                counts[intent]["support"] += 1
                counts[intent]["tp" if intent in selected else "fn"] += 1
            elif intent in selected and intent not in optional:
                counts[intent]["fp"] += 1
        ok = required <= selected <= required | optional
        exact += ok
        if len(required) > 1:
            multi += 1
            exact_multi += ok
    per_intent: dict[str, Any] = {}
    for intent, c in counts.items():
        p = _ratio(c["tp"], c["tp"] + c["fp"])
        r = _ratio(c["tp"], c["tp"] + c["fn"])
        per_intent[intent] = {**c, "precision": p, "recall": r, "f1": _f1(p, r)}
    f1s = [v["f1"] for v in per_intent.values() if v["f1"] is not None]
    tp = sum(c["tp"] for c in counts.values())
    fp = sum(c["fp"] for c in counts.values())
    fn = sum(c["fn"] for c in counts.values())
    micro_p, micro_r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {
        "cases_routed": len(routed),
        "cases_without_routing": len(pairs) - len(routed),
        "per_intent": per_intent,
        # an intent that was never required nor predicted has no F1; a missing router scores 0
        "macro_f1": (sum(f1s) / len(INTENTS)) if routed else 0.0,
        "micro_f1": _f1(micro_p, micro_r) if routed else 0.0,
        "exact_set_accuracy": _ratio(exact, len(routed)) if routed else 0.0,
        "exact_set_accuracy_multi_intent": _ratio(exact_multi, multi),
        "multi_intent_cases": multi,
    }


@dataclass(frozen=True)
class CalibrationBin:
    """One reliability-diagram bin."""

    lower: float
    upper: float
    count: int
    mean_confidence: float | None
    accuracy: float | None


def calibration_pairs(pairs: Sequence[tuple[GoldenCase, Observation]]) -> list[tuple[float, int]]:
    """(confidence, label) for every reported intent confidence with a defined label."""
    out = []
    for case, obs in pairs:
        required, optional = set(case.expected.intents), set(case.expected.optional_intents)
        for intent, confidence in obs.confidences.items():
            if intent in optional:
                continue
            out.append((float(confidence), int(intent in required)))
    return out


def expected_calibration_error(points: Sequence[tuple[float, int]], bins: int = ECE_BINS) -> tuple[float | None,
                                                                                                    list[CalibrationBin]]:
    """ECE over equal-width bins and the bins themselves (for the reliability plot).

    >>> round(expected_calibration_error([(0.9, 1), (0.9, 1), (0.1, 0), (0.8, 0)])[0], 3)
    0.275
    """
    table: list[list[tuple[float, int]]] = [[] for _ in range(bins)]
    for confidence, label in points:
        index = min(int(confidence * bins), bins - 1)
        table[index].append((confidence, label))
    result = []
    ece = 0.0
    for i, members in enumerate(table):
        if members:
            mean_conf = sum(c for c, _ in members) / len(members)
            accuracy = sum(label for _, label in members) / len(members)
            ece += len(members) / len(points) * abs(accuracy - mean_conf)
            result.append(CalibrationBin(i / bins, (i + 1) / bins, len(members), mean_conf, accuracy))
        else:
            result.append(CalibrationBin(i / bins, (i + 1) / bins, 0, None, None))
    return (ece if points else None), result


def clarification_scores(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Precision/recall of the clarification decision, and how often the focus (topic) was named."""
    tp = fp = fn = tn = 0
    focused = 0
    for case, obs in pairs:
        expected = case.expected.requires_clarification
        predicted = obs.requires_clarification or obs.outcome == "clarification"
        if expected and predicted:
            tp += 1
            topic = case.expected.clarification_topic
            question = (obs.clarification_question or obs.text or "").lower()
            if topic and _topic_named(topic, question):
                focused += 1
        elif predicted:
            fp += 1
        elif expected:
            fn += 1
        else:
            tn += 1
    p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": p, "recall": r, "f1": _f1(p, r),
            "focused_questions": _ratio(focused, tp)}


_TOPIC_WORDS = {
    "period": ("period", "quarter", "month", "year", "date", "when"),
    "company": ("company", "companies", "which of"),
    "currency": ("currency", "eur", "usd"),
    "basis": ("basis", "status", "paid", "posted", "draft"),
    "supplier": ("supplier", "vendor"),
}


def _topic_named(topic: str, question: str) -> bool:
    return any(word in question for word in _TOPIC_WORDS[topic])


def entity_scores(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Accuracy per entity kind over the (case, kind) pairs a case asserts, and whole-case accuracy."""
    per_kind: dict[str, list[int]] = defaultdict(list)
    case_ok = case_n = 0
    for case, obs in pairs:
        expected = case.expected.entities.as_sets()
        if not expected or not obs.has_routing:
            continue
        case_n += 1
        all_ok = True
        for kind, values in expected.items():
            ok = set(obs.entities.get(kind, frozenset())) == set(values)
            per_kind[kind].append(int(ok))
            all_ok &= ok
        case_ok += all_ok
    return {
        "per_kind": {k: {"n": len(v), "accuracy": sum(v) / len(v)} for k, v in sorted(per_kind.items())},
        "pair_accuracy": _ratio(sum(sum(v) for v in per_kind.values()), sum(len(v) for v in per_kind.values())),
        "case_accuracy": _ratio(case_ok, case_n),
        "cases": case_n,
    }


def constraint_scores(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Accuracy of time range (half-open dates), invoice statuses and reporting currency where asserted."""
    checks: dict[str, list[int]] = defaultdict(list)
    for case, obs in pairs:
        c = case.expected.constraints
        if not obs.has_routing or case.expected.requires_clarification:
            continue
        if c.time_range is not None:
            checks["time_range"].append(int(obs.time_range == (c.time_range.start, c.time_range.end)))
        if c.invoice_statuses is not None:
            checks["invoice_statuses"].append(
                int(obs.invoice_statuses is not None and set(obs.invoice_statuses) == set(c.invoice_statuses)))
        if c.reporting_currency is not None:
            checks["reporting_currency"].append(int(obs.reporting_currency == c.reporting_currency))
    return {k: {"n": len(v), "accuracy": sum(v) / len(v)} for k, v in sorted(checks.items())}


def authorization_scores(pairs: Sequence[tuple[GoldenCase, Observation]],
                         routing_by_case: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The routing's authorization context equals the asking key's tenant for every case."""
    n = ok = 0
    for case, _ in pairs:
        routing = routing_by_case.get(case.id)
        if not routing:
            continue
        n += 1
        ctx = routing.get("authorization_context") or {}
        ok += int(ctx.get("tenant_id") == case.tenant_id)
    return {"n": n, "accuracy": _ratio(ok, n)}


# -- plans and tools -------------------------------------------------------------------------------------------
def plan_problems(case: GoldenCase, obs: Observation) -> list[str]:
    """Why a plan is invalid for its case (empty list = valid)."""
    problems: list[str] = []
    steps = obs.plan
    if case.expected.requires_clarification:
        if steps:
            problems.append("clarification expected but a plan was made")
        return problems
    ids = [s.step_id for s in steps]
    if len(ids) != len(set(ids)):
        problems.append("duplicate step ids")
    known = set(ids)
    for step in steps:
        missing = [d for d in step.depends_on if d not in known]
        if missing:
            problems.append(f"{step.step_id} depends on unknown steps {missing}")
        if not step.tool.startswith(KNOWN_TOOL_PREFIXES):
            problems.append(f"{step.step_id} uses a tool outside the allowed namespaces: {step.tool}")
    if _has_cycle({s.step_id: s.depends_on for s in steps}):
        problems.append("dependency cycle")
    expectation = case.expected.plan
    if case.expected.outcome == "answer":
        missing_tools = expectation.missing_tools([s.tool for s in steps])
        if missing_tools:
            problems.append(f"missing required tools {missing_tools}")
    if expectation.max_steps is not None and len(steps) > expectation.max_steps:
        problems.append(f"{len(steps)} steps > max {expectation.max_steps}")
    return problems


def _has_cycle(graph: Mapping[str, Sequence[str]]) -> bool:
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        if state.get(node) == 1:
            return True
        if state.get(node) == 2:
            return False
        state[node] = 1
        if any(visit(d) for d in graph.get(node, ()) if d in graph):
            return True
        state[node] = 2
        return False

    return any(visit(n) for n in graph)


def plan_signature(obs: Observation) -> tuple[tuple[str, str], ...]:
    """A plan without step ids: (tool, canonical arguments) in order (what injected text must not change)."""
    import json

    return tuple((s.tool, json.dumps(s.arguments, sort_keys=True, default=str)) for s in obs.plan)


def tool_scores(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Tool-call validity overall and per tool (a call is invalid when its input or output failed its schema)."""
    per_tool: dict[str, dict[str, int]] = defaultdict(lambda: {"calls": 0, "invalid": 0})
    for _, obs in pairs:
        for call in obs.tool_calls:
            per_tool[call.tool]["calls"] += 1
            per_tool[call.tool]["invalid"] += int(call.status in INVALID_TOOL_STATUSES)
    calls = sum(v["calls"] for v in per_tool.values())
    invalid = sum(v["invalid"] for v in per_tool.values())
    return {
        "calls": calls,
        "validity": _ratio(calls - invalid, calls),
        "per_tool": {k: {**v, "validity": _ratio(v["calls"] - v["invalid"], v["calls"])}
                     for k, v in sorted(per_tool.items())},
    }


def retrieval_recall(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Recall of the expected sources among the ids each tool returned (document level, line level)."""
    per_tool: dict[str, list[float]] = defaultdict(list)
    for case, obs in pairs:
        docs = [s.document_id for s in case.expected.sources if not s.line_ids]
        lines = [line for s in case.expected.sources for line in s.line_ids]
        if not docs and not lines:
            continue
        by_tool: dict[str, set[str]] = defaultdict(set)
        for call in obs.tool_calls:
            by_tool[call.tool].update(call.source_ids)
        for tool, returned in by_tool.items():
            if tool.startswith("documents.") and docs:
                hit = sum(any(matches_document(r, d) for r in returned) for d in docs)
                per_tool[tool].append(hit / len(docs))
            elif tool.startswith("finance.") and lines:
                per_tool[tool].append(len(set(lines) & returned) / len(lines))
            elif tool.startswith("graph.") and docs:
                hit = sum(any(matches_document(r, d) for r in returned) for d in docs)
                per_tool[tool].append(hit / len(docs))
    return {k: {"cases": len(v), "mean_recall": sum(v) / len(v)} for k, v in sorted(per_tool.items())}


# -- answers ---------------------------------------------------------------------------------------------------
def _quantize(value: Decimal, kind: str) -> Decimal:
    return value.quantize(_PRECISION.get(kind, Decimal("0.01")), rounding=ROUND_HALF_UP)


def displayed_value(answer: ExpectedAnswer, obs: Observation) -> Decimal | None:
    """The value the answer presents for ``answer.kind`` (first matching key of the structured result)."""
    names = list(_VALUE_KEYS.get(answer.kind, ()))
    if answer.ground_truth is not None:
        names.insert(0, answer.ground_truth.field.rsplit(".", 1)[-1])
    for name in names:
        for value in values_in(obs.result, [name]):
            decimal = to_decimal(value)
            if decimal is not None:
                return decimal
    return None


def answer_problems(case: GoldenCase, obs: Observation, pii: Iterable[str] = ()) -> list[str]:
    """Why the end-to-end answer is not exact (empty list = exact)."""
    expected = case.expected
    problems: list[str] = []
    if obs.outcome not in expected.outcomes:
        problems.append(f"outcome {obs.outcome} not in {sorted(expected.outcomes)}")
    haystack = obs.raw.lower()
    for forbidden in (*expected.must_not_contain, *pii):
        if forbidden and forbidden.lower() in haystack:
            problems.append(f"{LEAK}: response contains {forbidden!r}")
    answer = expected.answer
    if answer is None or obs.outcome != "answer" or expected.outcome != "answer":
        return problems
    if answer.kind in _VALUE_KEYS:
        shown = displayed_value(answer, obs)
        want = Decimal(answer.value or "0")
        if shown is None and answer.status == "no_data":
            pass  # "no data" is its own answer: no figure may be shown, a 0.00 would claim matched lines
        elif shown is None:
            problems.append("no value in the structured result")
        elif _quantize(shown, answer.kind) != _quantize(want, answer.kind):
            problems.append(f"value {shown} != {answer.value}")
        if answer.currency and not any(answer.currency in s for s in [*strings(obs.result), obs.text]):
            problems.append(f"currency {answer.currency} missing")
        if answer.status and obs.answer_status != answer.status:
            problems.append(f"status {obs.answer_status} != {answer.status}")
        for missing in answer.missing_ids:
            if missing not in obs.raw:
                problems.append(f"missing supplier {missing} not reported")
    elif answer.kind == "id_set":
        found = _id_family(obs.result, answer.ids)
        if found != set(answer.ids):
            problems.append(f"ids {sorted(found)} != {sorted(answer.ids)}")
    elif answer.kind == "lookup":
        for ident in answer.ids:
            if ident.lower() not in haystack:
                problems.append(f"identifier {ident} not in the answer")
    elif answer.kind == "passage":
        cited_docs = [c for c, _ in obs.cited]
        for document_id in answer.ids:
            if not any(matches_document(c, document_id) for c in cited_docs):
                problems.append(f"{document_id} not cited")
    for text in answer.must_contain:
        if text.lower() not in haystack:
            problems.append(f"answer lacks {text!r}")
    return problems


def _id_family(result: Any, expected: Sequence[str]) -> set[str]:
    """Ids of the same family as ``expected`` in the result, outside missing/excluded/source subtrees."""
    prefixes = {e.split("-")[0] + "-" for e in expected} or {"SUP-"}
    found = set()
    for path, value in walk(result):
        if not isinstance(value, str):
            continue
        if any(p in key for key in path for p in ("missing", "excluded", "source", "rejected")):
            continue
        if any(value.startswith(p) for p in prefixes) and " " not in value:
            found.add(value)
    return found


def source_completeness(case: GoldenCase, obs: Observation) -> float | None:
    """Share of the expected sources (documents, pages, invoice lines) the answer cites; ``None`` if none."""
    expected = case.expected.sources
    if not expected or case.expected.outcome != "answer":
        return None
    cited_ids = [c for c, _ in obs.cited]
    provenance = set(strings(values_in(obs.result, ["source_line_ids", "line_ids"])))
    hits = total = 0
    for source in expected:
        if source.line_ids:
            total += len(source.line_ids)
            hits += sum(1 for line in source.line_ids if line in cited_ids or line in provenance)
            continue
        total += 1
        ok = any(
            matches_document(c, source.document_id) and (source.page is None or page in (None, source.page)
                                                          or _chunk_on_page(c, source.page))
            for c, page in obs.cited
        )
        hits += ok
    return hits / total if total else None


def _chunk_on_page(chunk_id: str, page: int) -> bool:
    return f"-p{page}-" in chunk_id or chunk_id.endswith(f"-p{page}")


def calculation_consistency(pairs: Sequence[tuple[GoldenCase, Observation]]) -> dict[str, Any]:
    """Displayed amount == a value a finance tool returned; paraphrases of one question give one value."""
    internal_ok = internal_n = 0
    by_ref: dict[str, set[str]] = defaultdict(set)
    for case, obs in pairs:
        answer = case.expected.answer
        if answer is None or answer.kind not in _VALUE_KEYS or obs.outcome != "answer":
            continue
        shown = displayed_value(answer, obs)
        if shown is None:
            continue
        if answer.ground_truth is not None:
            by_ref[f"{case.tenant_id}:{answer.ground_truth.question}:{answer.ground_truth.field}"].add(
                str(_quantize(shown, answer.kind)))
        tool_values = {to_decimal(v) for call in obs.tool_calls if call.tool.startswith(("finance.", "catalog."))
                       for v in call.values}
        tool_values.discard(None)
        if not tool_values:
            continue
        internal_n += 1
        internal_ok += any(v is not None and _quantize(v, answer.kind) == _quantize(shown, answer.kind)
                           for v in tool_values)
    groups = [v for v in by_ref.values()]
    consistent_groups = sum(1 for v in groups if len(v) == 1)
    return {
        "displayed_equals_tool": _ratio(internal_ok, internal_n),
        "checked": internal_n,
        "paraphrase_groups": len(groups),
        "paraphrase_consistency": _ratio(consistent_groups, len(groups)),
    }


# -- latency and cost ------------------------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100).

    >>> percentile([1, 2, 3, 4], 50)
    2
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, int(-(-q * len(ordered) // 100)))
    return ordered[min(rank, len(ordered)) - 1]


def route_label(obs: Observation) -> str:
    """The route a case took: its workflow, else its selected intents, else its outcome."""
    if obs.requires_clarification or obs.outcome == "clarification":
        return "clarification"
    if obs.workflow:
        return obs.workflow
    if obs.selected_intents:
        return "+".join(sorted(obs.selected_intents))
    return obs.outcome


def latency_and_cost(observations: Sequence[Observation]) -> dict[str, Any]:
    """Per route: cases, p50/p95 latency (ms), mean tool calls, rows and chunks."""
    groups: dict[str, list[Observation]] = defaultdict(list)
    for obs in observations:
        groups[route_label(obs)].append(obs)
    out = {}
    for route, members in sorted(groups.items()):
        latencies = [m.latency_ms for m in members]
        out[route] = {
            "cases": len(members),
            "p50_ms": percentile(latencies, 50),
            "p95_ms": percentile(latencies, 95),
            "mean_ms": statistics.fmean(latencies),
            "mean_tool_calls": statistics.fmean(len(m.tool_calls) for m in members),
            "mean_rows": statistics.fmean(sum(c.rows for c in m.tool_calls) for m in members),
            "mean_chunks": statistics.fmean(sum(c.chunks for c in m.tool_calls) for m in members),
        }
    return out
