"""What the system answered, normalized: one :class:`Observation` per golden case.

The ask pipeline answers with JSON (``POST /v1/ask``) that embeds the router's :class:`RoutingResult`, and keeps
a trace (``GET /v1/traces/{id}``) with every tool call. This module reads both into one typed record the metrics
work on, so the metrics never depend on where a field sits on the wire. The routing part follows
``router.contract`` exactly; the answer and trace parts are read by field name wherever they are nested (the
tool-call records of a trace are the objects that carry both ``tool`` and ``status``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

#: ``app.traces.status`` / ask ``status`` -> evaluation outcome.
STATUS_TO_OUTCOME = {
    "answered": "answer",
    "complete": "answer",
    "partial": "answer",
    "no_data": "answer",
    "ok": "answer",
    "clarification": "clarification",
    "not_found": "not_found",
    "unsupported": "refused",
    "refused": "refused",
    "forbidden": "forbidden",
    "denied": "forbidden",
    "validation_failed": "error",
    "failed": "error",
    "error": "error",
}
#: Tool-run statuses that mean the call itself was well-formed (whatever it found).
VALID_TOOL_STATUSES = frozenset({"ok", "not_found", "timeout", "failed", "denied", "skipped", "partial", "no_data"})
INVALID_TOOL_STATUSES = frozenset({"invalid_input", "invalid_output"})

_ID_KEY = re.compile(r"(^|_)(id|ids|chunk_id|chunk_ids|line_id|line_ids|document_id|document_ids|sources?)$")


@dataclass(frozen=True)
class PlanStep:
    """One planned tool call."""

    step_id: str
    tool: str
    depends_on: tuple[str, ...]
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class ToolCall:
    """One executed tool call, from the trace."""

    step_id: str | None
    tool: str
    status: str
    rows: int
    chunks: int
    source_ids: tuple[str, ...]
    values: tuple[str, ...]


@dataclass(frozen=True)
class Observation:
    """The system's answer to one case, normalized."""

    case_id: str
    http_status: int
    latency_ms: float
    outcome: str
    selected_intents: frozenset[str] = frozenset()
    confidences: Mapping[str, float] = field(default_factory=dict)
    overall_confidence: float | None = None
    requires_clarification: bool = False
    clarification_question: str | None = None
    entities: Mapping[str, frozenset[str]] = field(default_factory=dict)
    time_range: tuple[dt.date, dt.date] | None = None
    invoice_statuses: tuple[str, ...] | None = None
    reporting_currency: str | None = None
    workflow: str | None = None
    plan: tuple[PlanStep, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    answer_status: str | None = None
    result: Mapping[str, Any] = field(default_factory=dict)
    cited: tuple[tuple[str, int | None], ...] = ()
    text: str = ""
    raw: str = ""
    trace_id: str | None = None
    routing_source: str = "ask"
    error: str | None = None

    @property
    def has_routing(self) -> bool:
        return bool(self.confidences) or bool(self.selected_intents) or self.requires_clarification


# -- helpers -----------------------------------------------------------------------------------------------------
def walk(obj: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every (key path, value) pair of a JSON document, depth first."""
    yield path, obj
    if isinstance(obj, Mapping):
        for key, value in obj.items():
            yield from walk(value, (*path, str(key)))
    elif isinstance(obj, list | tuple):
        for value in obj:
            yield from walk(value, path)


def find_key(obj: Any, *names: str) -> Any:
    """The value of the first key named like one of ``names`` (breadth first), or ``None``."""
    queue: list[Any] = [obj]
    while queue:
        current = queue.pop(0)
        if isinstance(current, Mapping):
            for name in names:
                if name in current and current[name] is not None:
                    return current[name]
            queue.extend(current.values())
        elif isinstance(current, list | tuple):
            queue.extend(current)
    return None


def strings(obj: Any) -> list[str]:
    """Every string value (not key) of a JSON document."""
    return [v for _, v in walk(obj) if isinstance(v, str)]


def to_decimal(value: Any) -> Decimal | None:
    """A decimal from a string/number/``{"amount": ...}``; ``None`` when it is not one."""
    if isinstance(value, Mapping):
        value = find_key(value, "amount", "value")
    if isinstance(value, bool) or value is None:
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


# -- routing -------------------------------------------------------------------------------------------------
def routing_fields(routing: Mapping[str, Any]) -> dict[str, Any]:
    """Observation fields from a ``RoutingResult`` JSON object (``router.contract``)."""
    intents = routing.get("intents") or []
    confidences = {str(i["type"]): float(i["confidence"]) for i in intents if "type" in i and "confidence" in i}
    selected = frozenset(str(i["type"]) for i in intents if i.get("selected", True))
    entities_raw = routing.get("entities") or {}
    entities: dict[str, frozenset[str]] = {}
    company = entities_raw.get("company_id")
    entities["company_ids"] = frozenset([company] if company else entities_raw.get("company_ids") or [])
    for key in ("supplier_ids", "product_codes", "invoice_numbers", "contract_ids"):
        entities[key] = frozenset(entities_raw.get(key) or [])
    group = entities_raw.get("product_group_id")
    entities["product_group"] = frozenset([group] if group else [])
    constraints = routing.get("constraints") or {}
    time_range = constraints.get("time_range")
    tr: tuple[dt.date, dt.date] | None = None
    if isinstance(time_range, Mapping):
        start, end = _date(time_range.get("start")), _date(time_range.get("end"))
        if start and end:
            tr = (start, end)
    statuses = constraints.get("invoice_status", constraints.get("invoice_statuses"))
    plan = tuple(
        PlanStep(
            step_id=str(step.get("step_id")),
            tool=str(step.get("tool")),
            depends_on=tuple(step.get("depends_on") or ()),
            arguments=step.get("arguments") or {},
        )
        for step in routing.get("execution_plan") or []
    )
    return {
        "selected_intents": selected,
        "confidences": confidences,
        "overall_confidence": routing.get("confidence"),
        "requires_clarification": bool(routing.get("requires_clarification")),
        "clarification_question": routing.get("clarification_question"),
        "entities": {k: v for k, v in entities.items() if v},
        "time_range": tr,
        "invoice_statuses": tuple(statuses) if statuses else None,
        "reporting_currency": constraints.get("reporting_currency"),
        "workflow": routing.get("workflow"),
        "plan": plan,
    }


# -- answer ---------------------------------------------------------------------------------------------------
def _cited(answer: Mapping[str, Any]) -> tuple[tuple[str, int | None], ...]:
    items = [*(answer.get("sources") or ()), *(answer.get("citations") or ())]
    out: list[tuple[str, int | None]] = []
    for item in items:
        if isinstance(item, str):
            out.append((item, _page_of(item)))
        elif isinstance(item, Mapping):
            ident = item.get("chunk_id") or item.get("line_id") or item.get("source_id") or item.get("id")
            document = item.get("document_id")
            page = item.get("page")
            if document:
                out.append((str(document), int(page) if isinstance(page, int) else _page_of(str(ident or ""))))
            if ident and ident != document:
                out.append((str(ident), int(page) if isinstance(page, int) else _page_of(str(ident))))
    return tuple(out)


_PAGE_IN_ID = re.compile(r"-p(\d+)(?:-|$)")


def _page_of(identifier: str) -> int | None:
    match = _PAGE_IN_ID.search(identifier)
    return int(match.group(1)) if match else None


def tool_calls_from_trace(trace: Any) -> tuple[ToolCall, ...]:
    """Executed tool calls: every object in the trace that names a ``tool`` and a ``status``.

    A trace may keep the same call both as an event and as a run; calls are de-duplicated by
    (step, tool, attempt-free content).
    """
    calls: list[ToolCall] = []
    seen: set[tuple[Any, ...]] = set()
    for _, value in walk(trace):
        if not (isinstance(value, Mapping) and isinstance(value.get("tool"), str) and "status" in value):
            continue
        result = value.get("result") or value.get("output") or {}
        ids = sorted({s for path, s in walk(result) if isinstance(s, str) and path and _ID_KEY.search(path[-1])})
        rows = 0
        chunks = 0
        if isinstance(result, Mapping):
            for key, item in result.items():
                if isinstance(item, list) and item and isinstance(item[0], Mapping):
                    if key in {"hits", "chunks", "passages", "results", "evidence"}:
                        chunks += len(item)
                    else:
                        rows += len(item)
            rows += int(result.get("matched_line_count") or 0) if isinstance(result.get("matched_line_count"),
                                                                               int) else 0
        numbers = tuple(sorted({str(v) for _, v in walk(result) if isinstance(v, str) and to_decimal(v) is not None}))
        key = (value.get("step_id"), value["tool"], str(value.get("status")), tuple(ids), rows, chunks)
        if key in seen:
            continue
        seen.add(key)
        calls.append(ToolCall(
            step_id=value.get("step_id"), tool=value["tool"], status=str(value.get("status")), rows=rows,
            chunks=chunks, source_ids=tuple(ids), values=numbers,
        ))
    return tuple(calls)


def observe(
    case_id: str,
    *,
    http_status: int,
    latency_ms: float,
    body: Any,
    trace: Any = None,
    routing: Mapping[str, Any] | None = None,
) -> Observation:
    """Normalize one ask response (and its trace) into an :class:`Observation`.

    Args:
        body: the parsed JSON of the ask response (an error body for 4xx/5xx).
        trace: the parsed trace JSON, when it could be read.
        routing: a ``RoutingResult`` JSON from elsewhere (in-process routing) when the body has none.
    """
    raw = json.dumps(body, sort_keys=True, default=str, ensure_ascii=False) + (
        json.dumps(trace, default=str, ensure_ascii=False) if trace else "")
    envelope: Mapping[str, Any] = body if isinstance(body, Mapping) else {}
    # router.service.AskResult: {"trace_id", "answer": {...}, "routing": {...}, "steps": [...]}
    nested = envelope.get("answer")
    answer: Mapping[str, Any] = nested if isinstance(nested, Mapping) else envelope
    if http_status == 403:
        outcome = "forbidden"
    elif http_status >= 400 or not envelope:
        outcome = "error"
    else:
        status = str(answer.get("status") or "")
        outcome = STATUS_TO_OUTCOME.get(status, "error")
    routing_json: Mapping[str, Any] | None = None
    source = "ask"
    if isinstance(envelope.get("routing"), Mapping):
        routing_json = envelope["routing"]
    if routing_json is None and isinstance(trace, Mapping) and isinstance(trace.get("routing"), Mapping):
        routing_json, source = trace["routing"], "trace"
    if routing_json is None and routing is not None:
        routing_json, source = routing, "in_process"
    fields = routing_fields(routing_json) if routing_json else {}
    raw_result = answer.get("result")
    result: Mapping[str, Any] = raw_result if isinstance(raw_result, Mapping) else {}
    answer_status = None
    for candidate in (result.get("status"), answer.get("status")):
        if candidate in {"complete", "partial", "no_data"}:
            answer_status = candidate
            break
    if answer_status is None and answer.get("status") == "answered":
        answer_status = "complete"
    text_parts = [v for k in ("text", "answer", "clarification_question", "message")
                  if isinstance(v := answer.get(k), str)]
    error = None
    if http_status >= 400:
        error = str(find_key(envelope, "message", "detail") or envelope)[:300]
    elif outcome == "error":
        error = f"answer status {answer.get('status')!r}: {str(answer.get('text', ''))[:200]}"
    calls = tool_calls_from_trace(trace) if trace is not None else tool_calls_from_trace(envelope.get("steps"))
    return Observation(
        case_id=case_id,
        http_status=http_status,
        latency_ms=latency_ms,
        outcome=outcome,
        answer_status=answer_status,
        result=result or {},
        cited=_cited(answer),
        text="\n".join(text_parts),
        raw=raw,
        trace_id=str(envelope.get("trace_id")) if envelope.get("trace_id") else None,
        tool_calls=calls,
        routing_source=source if routing_json else "none",
        error=error,
        **fields,
    )


def matches_document(cited_id: str, document_id: str) -> bool:
    """True when a cited id is the document or one of its chunks/lines (``<document_id>-...``)."""
    return cited_id == document_id or cited_id.startswith(document_id + "-")


def values_in(obj: Any, names: Sequence[str]) -> list[Any]:
    """Values of keys named ``names`` anywhere in ``obj``."""
    wanted = set(names)
    return [v for path, v in walk(obj) if path and path[-1] in wanted]
