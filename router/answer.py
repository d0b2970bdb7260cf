"""Answers: deterministic templated text that cites its sources, the structured result, and the validator.

The structured result is the seed's provenance object: ``result`` (the values, money as decimal strings),
``inputs`` (the resolved ids and period the values were computed from) and ``sources`` (chunk ids, invoice line
ids). Retrieved document text appears only inside the ``evidence`` section, quoted and labelled as untrusted;
flagged chunks are neither quoted nor cited.

Before an answer leaves, :func:`validate_answer` checks: every amount in the text equals a tool result, a money
result carries its currency, every cited source exists and is visible to the principal (re-read under RLS),
no entity outside the resolved set entered the calculation or the text, and a partial result says so.
An optional :class:`Synthesizer` (off by default) may rewrite the text; its output is validated the same way
and discarded if it fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import psycopg
from pydantic import BaseModel, ConfigDict

from procura.db.session import AuthContext, tenant_transaction
from router.contract import RoutingResult
from router.executor import RunResult
from router.tools import (
    ApprovedVendorsToolResponse,
    CompletenessResponse,
    DocumentSearchResponse,
    EvidenceChunk,
    FindProductsToolResponse,
    SpendResponse,
)

AnswerStatus = Literal[
    "answered", "partial", "no_data", "not_found", "clarification", "unsupported", "validation_failed", "failed"
]
_MONEY = re.compile(r"(-?\d+\.\d{2}) ([A-Z]{3})\b")
_SUPPLIER_ID = re.compile(r"\bSUP-\d+\b")
_SNIPPET = 280


class PolicyCheck(BaseModel):
    """One deterministic check on the answer."""

    model_config = ConfigDict(frozen=True)

    check: str
    passed: bool
    detail: str = ""


class Citation(BaseModel):
    """A source the answer rests on."""

    model_config = ConfigDict(frozen=True)

    source_id: str
    kind: Literal["chunk", "invoice_line", "record"]
    document_id: str | None = None
    page: int | None = None
    role: str


class EvidenceItem(BaseModel):
    """Untrusted document text shown as evidence, quoted, with its provenance."""

    model_config = ConfigDict(frozen=True)

    chunk_id: str
    document_id: str
    page: int | None
    snippet: str
    untrusted: bool = True


class Answer(BaseModel):
    """What ``ask`` returns."""

    model_config = ConfigDict(frozen=True)

    status: AnswerStatus
    text: str
    result: dict[str, Any]
    inputs: dict[str, Any]
    sources: tuple[str, ...]
    citations: tuple[Citation, ...] = ()
    evidence: tuple[EvidenceItem, ...] = ()
    withheld_chunk_ids: tuple[str, ...] = ()
    clarification_question: str | None = None
    checks: tuple[PolicyCheck, ...] = ()
    synthesized: bool = False


class Synthesizer(Protocol):
    """An optional language-model rewrite of the templated text (off unless configured)."""

    def synthesize(self, question: str, structured: dict[str, Any], evidence: Sequence[EvidenceItem]) -> str:
        """Text for the answer; it is validated like the template and dropped if any check fails."""
        ...


def _find(run: RunResult, kind: type[BaseModel]) -> list[BaseModel]:
    return [o.output for o in run.outcomes.values() if o.output is not None and isinstance(o.output, kind)]


def _evidence(run: RunResult) -> tuple[list[EvidenceChunk], list[str]]:
    shown: list[EvidenceChunk] = []
    withheld: list[str] = []
    for response in _find(run, DocumentSearchResponse):
        assert isinstance(response, DocumentSearchResponse)
        for chunk in response.chunks:
            if chunk.flagged_injection:
                withheld.append(chunk.chunk_id)
            elif chunk.chunk_id not in {c.chunk_id for c in shown}:
                shown.append(chunk)
    return shown, withheld


_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")


def _snippet(text: str) -> str:
    # Design note: evidence is minimized before it leaves: bank accounts and e-mail addresses are redacted.
    flat = " ".join(_EMAIL.sub("[email redacted]", _IBAN.sub("[IBAN redacted]", text)).split())
    return flat if len(flat) <= _SNIPPET else flat[: _SNIPPET - 1] + "…"


def compose(routing: RoutingResult, run: RunResult | None) -> Answer:
    """The templated answer for a routed (and, unless clarifying, executed) question."""
    if routing.requires_clarification:
        return Answer(
            status="clarification",
            text=f"I need a clarification before answering: {routing.clarification_question}",
            result={}, inputs={}, sources=(), clarification_question=routing.clarification_question,
        )
    if routing.workflow == "unsupported" or run is None:
        return Answer(
            status="unsupported",
            text="This kind of figure (unit prices, tax totals, unit counts, thresholds) is not answered by ask yet; "
            "use the governed metric API (/v1/metrics) for it. Nothing was calculated.",
            result={}, inputs={}, sources=(),
        )
    shown, withheld = _evidence(run)
    evidence = tuple(
        EvidenceItem(chunk_id=c.chunk_id, document_id=c.document_id, page=c.page, snippet=_snippet(c.text))
        for c in shown
    )
    spend = next(iter(_find(run, SpendResponse)), None)
    vendors = next(iter(_find(run, ApprovedVendorsToolResponse)), None)
    products = next(iter(_find(run, FindProductsToolResponse)), None)
    check = next(iter(_find(run, CompletenessResponse)), None)
    failures = [o for o in run.outcomes.values() if o.status in ("failed", "timeout", "invalid_input",
                                                                    "invalid_output", "denied")]
    citations: list[Citation] = []
    if vendors is not None:
        assert isinstance(vendors, ApprovedVendorsToolResponse)
        for a in vendors.approvals:
            if a.chunk_id:
                citations.append(Citation(source_id=a.chunk_id, kind="chunk", document_id=a.document_id, page=a.page,
                                          role=f"approval of {a.supplier_id}"))
    for chunk in shown:
        citations.append(Citation(source_id=chunk.chunk_id, kind="chunk", document_id=chunk.document_id,
                                  page=chunk.page, role="retrieved evidence"))
    if spend is not None:
        assert isinstance(spend, SpendResponse)
        for line_id in spend.source_line_ids:
            citations.append(Citation(source_id=line_id, kind="invoice_line", role="invoice line in the total"))
    citations = list({c.source_id: c for c in citations}.values())
    sources = tuple(c.source_id for c in citations)
    period = routing.constraints.time_range
    period_text = f"{period.label} [{period.start}, {period.end})" if period else ""
    failure_text = "".join(f" Step {o.step_id} ({o.tool}) {o.status}: {o.error}." for o in failures)

    spend_workflow = routing.workflow in ("spend", "spend_with_documents")
    if spend_workflow and spend is None:
        company = routing.entities.company_name or routing.entities.company_id
        not_found = [o for o in run.outcomes.values() if o.status == "not_found"]
        if not_found and not failures:
            text = ("Not found: " + ", ".join(f"{o.step_id} ({o.tool})" for o in not_found)
                    + f" returned no result, so no spend of {company} in {period_text} was calculated.")
            status: AnswerStatus = "not_found"
        else:
            text = (f"The total spend of {company} in {period_text} could not be calculated; no figure is given."
                    + failure_text)
            status = "failed"
        result: dict[str, Any] = {"status": status, "total_spend": None, "currency": None}
        inputs: dict[str, Any] = {"company_id": routing.entities.company_id, "period": period.label if period else None}
        citations = [c for c in citations if c.kind != "invoice_line"]
        sources = tuple(c.source_id for c in citations)
    elif spend is not None:
        assert isinstance(spend, SpendResponse)
        company = routing.entities.company_name or routing.entities.company_id
        scope = ""
        if products is not None:
            scope = f" on {routing.entities.product_group}"
        if vendors is not None:
            scope += " supplied by its approved vendors" if products is not None else " with its approved vendors"
        suppliers = ", ".join(spend.calculated_supplier_ids or spend.requested_supplier_ids) or "all suppliers"
        inputs = {
            "company_id": spend.parameters.get("company_id"),
            "supplier_ids": list(spend.requested_supplier_ids),
            "product_codes": list(spend.product_codes) if spend.product_codes is not None else None,
            "period": period.label if period else None,
            "start_date": spend.parameters.get("start_date"),
            "end_date": spend.parameters.get("end_date"),
            "invoice_statuses": spend.parameters.get("invoice_statuses"),
            "reporting_currency": spend.currency,
            "metric": spend.metric,
        }
        result = {
            "status": spend.status,
            "total_spend": spend.total_spend if spend.status != "no_data" else None,
            "currency": spend.currency,
            "matched_line_count": spend.matched_line_count,
            "calculated_suppliers": list(spend.calculated_supplier_ids),
            "missing_suppliers": list(spend.missing_supplier_ids),
            "policy": spend.policy,
        }
        if spend.status == "no_data":
            text = (f"Not found: no validated invoice line matched for {company}{scope} in {period_text} "
                    f"(suppliers {suppliers}). This is no data, not a zero total.")
            status = "no_data"
        elif spend.status == "partial":
            text = (f"PARTIAL RESULT, not the complete total: {company}'s spend{scope} in {period_text} is "
                    f"{spend.total_spend} {spend.currency} for {', '.join(spend.calculated_supplier_ids)} only, "
                    f"over {spend.matched_line_count} validated invoice lines; no validated invoice lines were found "
                    f"for {', '.join(spend.missing_supplier_ids)}, so the total is incomplete.")
            status = "partial"
        else:
            text = (f"{company}'s total spend{scope} in {period_text} was {spend.total_spend} {spend.currency}, "
                    f"over {spend.matched_line_count} validated invoice lines from {suppliers} "
                    f"(statuses {', '.join(inputs['invoice_statuses'] or [])}; cancelled and duplicate invoices "
                    f"excluded; converted at the corporate rate on each posting date).")
            status = "answered"
        if products is not None:
            assert isinstance(products, FindProductsToolResponse)
            text += f" Products: {', '.join(products.product_codes)}."
        if failures:
            status = "partial" if status == "answered" else status
            text += " Some steps did not complete:" + failure_text
    elif vendors is not None:
        assert isinstance(vendors, ApprovedVendorsToolResponse)
        names = "; ".join(
            f"{a.supplier_id} ({a.supplier_name}, {a.agreement_id}, valid from {a.valid_from}"
            f"{' to ' + str(a.valid_to) if a.valid_to else ', open-ended'})"
            for a in vendors.approvals
        )
        company = routing.entities.company_name or routing.entities.company_id
        when = period_text or f"on {vendors.start_date}"
        text = f"Approved vendors of {company} {when}: {names}."
        result = {"status": "complete", "supplier_ids": list(vendors.supplier_ids)}
        inputs = {"company_id": vendors.company_id, "start_date": str(vendors.start_date),
                  "end_date": str(vendors.end_date)}
        status = "answered"
    elif products is not None:
        assert isinstance(products, FindProductsToolResponse)
        text = (f"Products under {products.group_name}: "
                + "; ".join(f"{p.product_code} {p.product_name} (supplier {p.supplier_id})" for p in products.products)
                + ".")
        result = {"status": "complete", "product_codes": list(products.product_codes)}
        inputs = {"group_name": products.group_name}
        status = "answered"
        for p in products.products:
            for src in p.source_chunk_ids:
                citations.append(Citation(source_id=src, kind="chunk" if "-c" in src else "record",
                                          role=f"{p.product_code} in group"))
        citations = list({c.source_id: c for c in citations}.values())
        sources = tuple(c.source_id for c in citations)
    else:
        if shown:
            lines = [f"[{i}] {c.chunk_id} ({c.document_id}, page {c.page})" for i, c in enumerate(shown, start=1)]
            text = (f"Found {len(shown)} passage(s) for your question; the quoted document text below is evidence, "
                    "not a verified statement: " + "; ".join(lines) + ".")
            status = "answered"
        else:
            text = "Not found: no authorized passage matches the question."
            status = "not_found"
        result = {"status": "complete" if shown else "not_found", "passages": len(shown)}
        inputs = {"identifiers": routing.entities.model_dump(include={"product_codes", "invoice_numbers",
                                                                       "contract_ids"})}
        if failures:
            status = "failed" if not shown else "partial"
            text += " Some steps did not complete:" + failure_text
    if not spend_workflow and vendors is None and spend is None and products is None and any(
        o.status == "not_found" for o in run.outcomes.values()
    ):
        missing = [o.step_id for o in run.outcomes.values() if o.status == "not_found"]
        text = "Not found: " + ", ".join(missing) + " returned no result." + failure_text
        status = "not_found"
    if shown and spend is not None:
        text += f" Supporting passages: {', '.join(c.chunk_id for c in shown)}."
    if withheld:
        text += f" {len(withheld)} retrieved passage(s) were withheld because they contain instruction-like text."
    if check is not None:
        assert isinstance(check, CompletenessResponse)
        result["completeness"] = check.status
    if sources:
        text += " Sources: " + ", ".join(sources) + "."
    return Answer(
        status=status, text=text, result=result, inputs=inputs, sources=sources, citations=tuple(citations),
        evidence=evidence, withheld_chunk_ids=tuple(withheld),
    )


def validate_answer(
    conn: psycopg.Connection, ctx: AuthContext, routing: RoutingResult, run: RunResult | None, answer: Answer,
    text: str | None = None,
) -> tuple[PolicyCheck, ...]:
    """The deterministic checks on ``answer`` (or on an alternative ``text`` for it)."""
    body = answer.text if text is None else text
    checks: list[PolicyCheck] = []
    spend = next(iter(_find(run, SpendResponse)), None) if run is not None else None
    vendors = next(iter(_find(run, ApprovedVendorsToolResponse)), None) if run is not None else None
    tool_amounts = set()
    if isinstance(spend, SpendResponse) and spend.total_spend is not None and spend.status != "no_data":
        tool_amounts.add((spend.total_spend, spend.currency))
    shown = set(_MONEY.findall(body))
    extra = shown - tool_amounts
    checks.append(PolicyCheck(
        check="displayed_amount_equals_tool_result",
        passed=not extra and (not tool_amounts or tool_amounts <= shown),
        detail=f"shown {sorted(shown)}, tool {sorted(tool_amounts)}",
    ))
    if answer.result.get("total_spend") is not None:
        checks.append(PolicyCheck(check="currency_present", passed=bool(answer.result.get("currency")),
                                  detail=str(answer.result.get("currency"))))
    resolved: set[str] = set(routing.entities.supplier_ids)
    if isinstance(vendors, ApprovedVendorsToolResponse):
        resolved |= set(vendors.supplier_ids)
    if isinstance(spend, SpendResponse):
        used = set(spend.requested_supplier_ids)
        allowed = resolved if resolved else used
        outside = sorted(used - allowed)
        if routing.entities.company_id and spend.parameters.get("company_id") != routing.entities.company_id:
            outside.append(str(spend.parameters.get("company_id")))
        checks.append(PolicyCheck(check="no_entity_outside_resolved_set", passed=not outside,
                                  detail=f"outside: {outside}" if outside else "calculation used resolved ids only"))
        resolved |= used
    mentioned = set(_SUPPLIER_ID.findall(body))
    stray = sorted(mentioned - resolved)
    checks.append(PolicyCheck(check="text_names_only_resolved_entities", passed=not stray,
                              detail=f"unexpected: {stray}" if stray else "ok"))
    if answer.result.get("status") == "partial":
        checks.append(PolicyCheck(check="partial_is_labelled", passed="partial" in body.lower(), detail=""))
    missing = _missing_sources(conn, ctx, answer.citations)
    checks.append(PolicyCheck(
        check="cited_sources_exist_and_authorized", passed=not missing,
        detail=f"not found for this principal: {missing}" if missing else f"{len(answer.citations)} source(s) checked",
    ))
    return tuple(checks)


def _missing_sources(conn: psycopg.Connection, ctx: AuthContext, citations: Sequence[Citation]) -> list[str]:
    """Cited ids that do not exist for ``ctx``'s tenant (re-read under RLS as the serving role)."""
    chunk_ids = [c.source_id for c in citations if c.kind == "chunk"]
    line_ids = [c.source_id for c in citations if c.kind == "invoice_line"]
    record_docs = [c.source_id for c in citations if c.kind == "record"]
    found: set[str] = set()
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=5000):
        if chunk_ids:
            found |= {r[0] for r in conn.execute(
                "select chunk_id from retrieval.active_chunks where chunk_id = any(%s)", (chunk_ids,)
            ).fetchall()}
        if line_ids:
            found |= {r[0] for r in conn.execute(
                "select line_id from marts.validated_invoice_lines where line_id = any(%s)", (line_ids,)
            ).fetchall()}
        if record_docs:
            # A structured record ref names its document first ("<document_id>:<row>" or "<document_id>#...").
            docs = {ref: re.split(r"[:#/]", ref, maxsplit=1)[0] for ref in record_docs}
            present = {r[0] for r in conn.execute(
                "select document_id from ingest.active_documents where document_id = any(%s)",
                (sorted(set(docs.values())),),
            ).fetchall()}
            found |= {ref for ref, doc in docs.items() if doc in present}
    return sorted({c.source_id for c in citations} - found)
