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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Literal, Protocol

import psycopg
from pydantic import BaseModel, ConfigDict

from procura.db.session import AuthContext, tenant_transaction
from router.approval_validity import is_validity_window, validity_text
from router.approval_windows import uncovered_sentence, uncovered_vendors
from router.contract import RoutingResult, TimeRange
from router.executor import RunResult
from router.idle_vendors import idle_answer
from router.netted_documents import NETTED_STEP, netted_amounts, netted_sentence, planned_numbers
from router.off_contract import CHECK_STEP, EXCLUDE_STEP, WHOLE_STEP, off_contract_parts, off_contract_scope
from router.open_reading import INVOICES_ONLY_STEP, both_readings
from router.run_rate import run_rate_range, run_rate_sentence
from router.set_words import choice_cue
from router.tools import (
    ApprovedVendorsToolResponse,
    CompletenessResponse,
    DocumentSearchResponse,
    EvidenceChunk,
    FindProductsToolResponse,
    ListPriceResponse,
    MetricToolResponse,
    SpendResponse,
)

AnswerStatus = Literal[
    "answered", "partial", "no_data", "not_found", "clarification", "unsupported", "validation_failed", "failed",
]
#: A decimal shown with a currency code: money (2 places) and unit prices (4 places).
_MONEY = re.compile(r"(-?\d+\.\d{2}(?:\d{2})?) ([A-Z]{3})\b")
_SUPPLIER_ID = re.compile(r"\bSUP-\d+\b")
#: Evidence is a window of the (section-expanded) passage around the sentence that best matches the question.
_SNIPPET = 900


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


#: How a breakdown's dimension is named in the answer text.
#: Product groups nest: each level says which one it is ("lowest level": each product's own group).
_BREAKDOWN_LABELS = {"supplier_id": "supplier", "product_group_id": "product group (each product's own catalog "
                     "group)", "top_product_group_id": "top-level product group", "product_code": "product",
                     "period_start": "period"}

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


_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
_STOP = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how", "in",
    "is", "it", "its", "of", "on", "or", "our", "the", "this", "to", "was", "we", "what", "when", "which", "who",
    "why", "with", "must", "should", "say", "says", "about",
))
_SENTENCE = re.compile(r"(?<=[.!?;:|])\s+|\n+")


def _snippet(text: str, question: str = "") -> str:
    """The passage cut to the window that best matches the question (a query-biased snippet).

    A chunk is often longer than the snippet; cutting at its start would hide the sentence that answers the
    question (e.g. a calibration interval on the last line of a section), so the window starts at the sentence
    sharing the most question terms.
    """
    # Design note: evidence is minimized before it leaves: bank accounts and e-mail addresses are redacted.
    flat = " ".join(_EMAIL.sub("[email redacted]", _IBAN.sub("[IBAN redacted]", text)).split())
    if len(flat) <= _SNIPPET:
        return flat
    terms = {w for w in _WORD.findall(question.lower()) if w not in _STOP and len(w) > 1}
    start = 0
    if terms:
        best = 0
        offset = 0
        for sentence in _SENTENCE.split(" ".join(text.split())):
            found = flat.find(sentence[:40], offset) if sentence else -1
            if found < 0:
                continue
            offset = found
            words = set(_WORD.findall(sentence.lower()))
            # stems: "calibrated" matches "calibration" on the first 6 letters
            score = sum(1 for t in terms if t in words or any(w[:6] == t[:6] and len(t) >= 6 for w in words))
            if score > best:
                best, start = score, found
    window = flat[start: start + _SNIPPET - 2]
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + _SNIPPET - 2 < len(flat) else ""
    return prefix + window + suffix


@dataclass
class _Draft:
    """The answer being composed: what the run produced (read-only) and the parts a composer fills in."""

    routing: RoutingResult
    run: RunResult
    shown: list[EvidenceChunk]
    metrics: list[MetricToolResponse]
    spend: Any
    vendors: Any
    products: Any
    failures: list[Any]
    citations: list[Citation]
    sources: tuple[str, ...]
    period: Any
    period_text: str
    failure_text: str
    status: AnswerStatus = "failed"
    text: str = ""
    result: dict[str, Any] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)


Composer = Callable[[_Draft], None]
def _period_text(period: TimeRange | None) -> str:
    """A period's name and its half-open range, once when the name is the range itself (explicit dates)."""
    if period is None:
        return ""
    bounds = f"[{period.start}, {period.end})"
    return bounds if period.label == bounds else f"{period.label} {bounds}"


#: One composer per workflow: the registry :func:`compose` dispatches on ``routing.workflow``.
COMPOSERS: dict[str, Composer] = {}


def composer(*workflows: str) -> Callable[[Composer], Composer]:
    """Register a composer for the given workflows."""
    def register(fn: Composer) -> Composer:
        for workflow in workflows:
            COMPOSERS[workflow] = fn
        return fn
    return register


def cite_lines(d: _Draft, line_ids: Iterable[str], role: str) -> None:
    """Cite the invoice lines behind a figure after the draft's citations; a source cited twice keeps its place and
    its last role."""
    cited = [*d.citations, *(Citation(source_id=i, kind="invoice_line", role=role) for i in line_ids)]
    d.citations = list({c.source_id: c for c in cited}.values())
    d.sources = tuple(c.source_id for c in d.citations)


def compose(routing: RoutingResult, run: RunResult | None) -> Answer:
    """The templated answer for a routed (and, unless clarifying, executed) question."""
    if routing.personal_data == "only":
        # Design note: a request for suppliers' bank or contact data is refused whatever the routing decided
        # (even a clarification would invite the user to narrow down a request that is never served).
        return Answer(
            status="unsupported",
            text="Refused: suppliers' bank details and personal contact data (IBANs, account numbers, e-mail "
            "addresses, phone numbers) are not disclosed through ask. Nothing was retrieved.",
            result={}, inputs={}, sources=(),
        )
    if routing.requires_clarification:
        return Answer(
            status="clarification",
            text=f"I need a clarification before answering: {routing.clarification_question}",
            result={}, inputs={}, sources=(), clarification_question=routing.clarification_question,
        )
    if routing.workflow == "unsupported" or run is None:
        text = ("This figure needs a governed metric whose parameters the question does not fully give "
                "(unit price: a product code and one calendar month; tax: invoice numbers; units: a supplier "
                "and a period; thresholds: an amount and a period), or no governed metric computes it. "
                "Nothing was calculated; the metric API (/v1/metrics) lists what can be.")
        return Answer(status="unsupported", text=text, result={}, inputs={}, sources=())
    shown, withheld = _evidence(run)
    evidence = tuple(
        EvidenceItem(chunk_id=c.chunk_id, document_id=c.document_id, page=c.page,
                     snippet=_snippet(c.text, routing.question))
        for c in shown
    )
    metrics = [m for m in _find(run, MetricToolResponse) if isinstance(m, MetricToolResponse)]
    spend = next(iter(_find(run, SpendResponse)), None)
    vendors = next(iter(_find(run, ApprovedVendorsToolResponse)), None)
    products = next(iter(_find(run, FindProductsToolResponse)), None)
    check = next(iter(_find(run, CompletenessResponse)), None)
    # (the second reading of an open total is said beside the governed figure, never a failure of it)
    failures = [o for o in run.outcomes.values() if o.status in ("failed", "timeout", "invalid_input",
                                                                    "invalid_output", "denied")
                and o.step_id != INVOICES_ONLY_STEP]
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
    period = routing.constraints.time_range
    draft = _Draft(
        routing=routing, run=run, shown=shown, metrics=metrics, spend=spend, vendors=vendors, products=products,
        failures=failures, citations=citations, sources=tuple(c.source_id for c in citations), period=period,
        period_text=_period_text(period),
        failure_text="".join(f" Step {o.step_id} ({o.tool}) {o.status}: {o.error}." for o in failures),
    )
    COMPOSERS.get(routing.workflow, _compose_documents)(draft)
    if NETTED_STEP in run.outcomes:
        # "after credit note CN-...": whether the credit note lies in the figure's scope (router/netted_documents.py)
        draft.text += netted_sentence(run.outcomes[NETTED_STEP], routing.rule_hits,
                                      planned_numbers(routing.execution_plan))
    status, text, result, inputs = draft.status, draft.text, draft.result, draft.inputs
    citations, sources, failure_text = draft.citations, draft.sources, draft.failure_text
    spend_workflow = routing.workflow in ("spend", "spend_with_documents")
    if routing.interpretation and routing.workflow in ("spend", "spend_with_documents", "metric", "approved_vendors",
                                                       "catalog_products", "catalog_list_price"):
        # The reading restated, so a reader sees which constraints the figure was computed under.
        said = routing.interpretation
        if routing.workflow == "catalog_products" and isinstance(result, dict) and not result.get("product_codes") \
                and routing.entities.supplier_names and routing.entities.supplier_ids:
            # an empty catalogue list names the suppliers it was asked for by name (no id reads as a listed one)
            said = said.replace("suppliers " + ", ".join(routing.entities.supplier_ids),
                                "suppliers " + ", ".join(routing.entities.supplier_names), 1)
        elif (routing.workflow == "approved_vendors" and not routing.named_suppliers_only
              and routing.entities.supplier_ids):
            # a supplier said beside an approved-vendor list ("Epsilon got phased out I think") does not narrow
            # it: the restatement says so by name, never as a filter of ids the list was not cut to
            said = said.replace("suppliers " + ", ".join(routing.entities.supplier_ids),
                                "supplier(s) mentioned, not a filter of the list: "
                                + ", ".join(routing.entities.supplier_names or routing.entities.supplier_ids), 1)
        text += f" Read as: {said}."
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
    if routing.personal_data is not None:
        text += " Suppliers' bank details and contact data are not disclosed through ask."
    if check is not None:
        assert isinstance(check, CompletenessResponse)
        result["completeness"] = check.status
    if sources:
        text += " Sources: " + ", ".join(sources) + "."
    if spend_workflow and status == "answered":
        # an open total the question does not say the documents of: both readings (router/open_reading.py)
        both = both_readings(text, result, run.outcomes.get(INVOICES_ONLY_STEP))
        text, result = both if both is not None else (text, result)
    return Answer(
        status=status, text=text, result=result, inputs=inputs, sources=sources, citations=tuple(citations),
        evidence=evidence, withheld_chunk_ids=tuple(withheld),
    )



@composer("metric")
def _compose_metric(d: _Draft) -> None:
    """``metric``: each governed metric's values exactly as the tool gave them."""
    routing, metrics, failures, citations = d.routing, d.metrics, d.failures, d.citations
    sources, period_text, failure_text = d.sources, d.period_text, d.failure_text
    status: AnswerStatus
    result: dict[str, Any]
    inputs: dict[str, Any]
    for m in metrics:
        for line_id in m.source_line_ids:
            citations.append(Citation(source_id=line_id, kind="invoice_line", role=f"invoice line in {m.metric}"))
    citations = list({c.source_id: c for c in citations}.values())
    sources = tuple(c.source_id for c in citations)
    second = d.run.output(INVOICES_ONLY_STEP) if d.run is not None else None
    status, text, result, inputs = _metric_answer(routing, [m for m in metrics if m is not second], period_text)
    first = next((m for m in metrics if m is not second), None)
    if second is not None and first is not None and status == "answered" and first.values.get("total_spend"):
        # an open total of several companies together: the invoices-only reading beside it (router/open_reading.py)
        both = both_readings(text, {"total_spend": first.values.get("total_spend"),
                                    "matched_line_count": first.matched_line_count, "currency": first.currency},
                             d.run.outcomes.get(INVOICES_ONLY_STEP) if d.run is not None else None)
        if both is not None:
            text, result = both[0], {**result, "invoices_only": both[1]["invoices_only"]}
    if failures:
        status = "partial" if status == "answered" else ("failed" if not metrics else status)
        text += " Some steps did not complete:" + failure_text
        if status == "partial":
            result["status"] = "partial"
            text = "PARTIAL RESULT: " + text
    d.status, d.text, d.result, d.inputs, d.citations, d.sources = status, text, result, inputs, citations, sources


@composer("spend", "spend_with_documents")
def _compose_spend(d: _Draft) -> None:
    """``spend`` / ``spend_with_documents``: the governed total (or why there is none), its breakdown and scope."""
    routing, run, spend, vendors = d.routing, d.run, d.spend, d.vendors
    products, failures, citations, sources = d.products, d.failures, d.citations, d.sources
    period, period_text, failure_text = d.period, d.period_text, d.failure_text
    status: AnswerStatus
    result: dict[str, Any]
    inputs: dict[str, Any]
    if spend is None:
        company = routing.entities.company_name or routing.entities.company_id
        not_found = [o for o in run.outcomes.values() if o.status == "not_found"]
        if not_found and not failures and all(o.tool == "catalog.find_products" for o in not_found):
            # Every name resolved, but the catalogue has no product of those suppliers in that group: no line can
            # match, which is the "no data" answer to the question asked, not an unknown entity.
            who = ", ".join(routing.entities.supplier_ids) or (
                "its approved vendors" if "find-approved-vendors" in run.outcomes else "its suppliers")
            text = (f"No data: the catalogue lists no product of {who} under {routing.entities.product_group}, "
                    f"so no validated invoice line of {company} in {period_text} matches. This is no data, not a "
                    "zero total.")
            status = "no_data"
        elif not_found and not failures:
            text = ("Not found: " + ", ".join(f"{o.step_id} ({o.tool})" for o in not_found)
                    + f" returned no result, so no spend of {company} in {period_text} was calculated.")
            status = "not_found"
        else:
            text = (f"The total spend of {company} in {period_text} could not be calculated; no figure is given."
                    + failure_text)
            status = "failed"
        result = {"status": status, "total_spend": None, "currency": None}
        inputs = {"company_id": routing.entities.company_id, "period": period.label if period else None}
        citations = [c for c in citations if c.kind != "invoice_line"]
        sources = tuple(c.source_id for c in citations)
    else:
        assert isinstance(spend, SpendResponse)
        company = routing.entities.company_name or routing.entities.company_id
        scope = ""
        if products is not None:
            scope = f" on {routing.entities.product_group}"
        approval_note = ""
        if vendors is not None and (EXCLUDE_STEP in run.outcomes or CHECK_STEP in run.outcomes):
            # a negated approval (router/off_contract.py): the approved set excluded, or the named suppliers checked
            assert isinstance(vendors, ApprovedVendorsToolResponse)
            scope, approval_note = off_contract_scope(vendors, EXCLUDE_STEP in run.outcomes, company, period_text)
        elif vendors is not None:
            scope += " supplied by its approved vendors" if products is not None else " with its approved vendors"
        suppliers = ", ".join(spend.calculated_supplier_ids or spend.requested_supplier_ids) or (
            "suppliers other than the approved vendors" if EXCLUDE_STEP in run.outcomes else "all suppliers")
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
            **({"exclude_supplier_ids": list(spend.parameters["exclude_supplier_ids"])}
               if spend.parameters.get("exclude_supplier_ids") else {}),
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
        # A group's spend without a supplier set is planned without coverage (finance.company_spend over the group),
        # so "partial" here always means a supplier the question asked for (named, or approved vendors) has no lines.
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
        elif list(inputs["invoice_statuses"] or []) == ["draft"]:
            text = (f"{company}'s draft invoices{scope} in {period_text} total {spend.total_spend} {spend.currency}, "
                    f"over {spend.matched_line_count} draft invoice lines from {suppliers} (drafts only: not "
                    "recognized spend, which counts posted and paid invoices; cancelled and duplicate invoices "
                    "excluded; converted at the corporate rate on each posting date).")
            status = "answered"
        else:
            text = (f"{company}'s total spend{scope} in {period_text} was {spend.total_spend} {spend.currency}, "
                    f"over {spend.matched_line_count} validated invoice lines from {suppliers} "
                    f"(statuses {', '.join(inputs['invoice_statuses'] or [])}; cancelled and duplicate invoices "
                    f"excluded; converted at the corporate rate on each posting date).")
            status = "answered"
            rate_text, rate = run_rate_sentence(routing.question, period.start if period else None,
                                                period.end if period else None, spend.total_spend, spend.currency)
            text += rate_text
            if rate is not None:
                result["run_rate"] = rate
        if spend.breakdown and spend.status != "no_data":
            dimension = spend.breakdown[0].dimension
            if dimension == "supplier_id":
                result["by_supplier"] = [
                    {"supplier_id": b.key, "total_spend": b.total_spend, "matched_line_count": b.matched_line_count}
                    for b in spend.breakdown
                ]
            result["breakdown"] = [
                {"dimension": b.dimension, "key": b.key, "total_spend": b.total_spend,
                 "matched_line_count": b.matched_line_count}
                for b in spend.breakdown
            ]
            label = " and ".join(_BREAKDOWN_LABELS.get(part, part.replace("_id", "").replace("_", " "))
                                 for part in dimension.split("+"))
            # how many suppliers (products) had counted lines: a listing's own answer ("distinct vendors ...")
            members = {"supplier_id": "supplier", "product_code": "product"}.get(dimension)
            if members is not None:
                n = len(spend.breakdown)
                label += f" ({n} {members}{'s' if n != 1 else ''})"
            text += f" By {label}: " + "; ".join(
                f"{b.key} {b.total_spend} {spend.currency} ({b.matched_line_count} lines)" for b in spend.breakdown
            ) + "."
            if "+" not in dimension and len(spend.breakdown) >= 2 and choice_cue(routing.question):
                # "Beta or Gamma, which was higher?": the rows compared, the answer to the choice said
                text += _which_is_higher([(b.key, Decimal(str(b.total_spend))) for b in spend.breakdown],
                                         spend.currency)
        by_product = spend is not None and any("product_code" in b.dimension.split("+") for b in spend.breakdown)
        if products is not None and not by_product:
            # (a breakdown by product already names what was bought: the catalogue's products in scope beside it
            # would read as bought too, the ones without lines included)
            assert isinstance(products, FindProductsToolResponse)
            text += f" Products: {', '.join(products.product_codes)}."
        if EXCLUDE_STEP in run.outcomes:
            # off-contract by supplier or as a share (router/off_contract.py)
            shaped, fields, answered = off_contract_parts(spend, run.outcomes.get(WHOLE_STEP), company, period_text)
            text += shaped
            result.update(fields)
            status = "answered" if answered else status
        text += approval_note
        if (isinstance(vendors, ApprovedVendorsToolResponse) and period is not None and spend.status != "no_data"
                and CHECK_STEP not in run.outcomes and not routing.idle_vendors):
            # an approval starting or ending inside the period: the overlap reading said, never silent
            # (router/approval_windows.py)
            excluded = EXCLUDE_STEP in run.outcomes
            uncovered = uncovered_vendors(((a.supplier_id, a.valid_from, a.valid_to) for a in vendors.approvals),
                                          period.start, period.end,
                                          None if excluded else spend.requested_supplier_ids)
            if uncovered:
                text += uncovered_sentence(uncovered, excluded)
                status = "partial" if status == "answered" else status
                result["approvals_not_covering_period"] = [
                    {"supplier_id": u.supplier_id, "covered": [[a.isoformat(), b.isoformat()] for a, b in u.covered]}
                    for u in uncovered]
        if isinstance(vendors, ApprovedVendorsToolResponse) and vendors.version_notes:
            text += " Agreement versions read: " + "; ".join(vendors.version_notes) + "."
        if failures:
            status = "partial" if status == "answered" else status
            text += " Some steps did not complete:" + failure_text
    if routing.idle_vendors and spend is not None and not failures:
        # "which approved vendors had no spend": the approved set's vendors without a counted line
        scope = f" supplying {routing.entities.product_group}" if routing.entities.product_group else ""
        text, result = idle_answer(str(routing.entities.company_name or routing.entities.company_id), scope,
                                   period_text, spend.requested_supplier_ids, spend.missing_supplier_ids,
                                   spend.total_spend, spend.currency, spend.matched_line_count)
        status = "answered"
    d.status, d.text, d.result, d.inputs, d.citations, d.sources = status, text, result, inputs, citations, sources


@composer("approved_vendors")
def _compose_vendors(d: _Draft) -> None:
    """``approved_vendors``: the approvals in the period (of the named suppliers, or of a group's suppliers)."""
    routing, vendors, products, citations = d.routing, d.vendors, d.products, d.citations
    sources, period_text = d.sources, d.period_text
    status: AnswerStatus
    result: dict[str, Any]
    inputs: dict[str, Any]
    assert isinstance(vendors, ApprovedVendorsToolResponse)
    # "Which agreement approves Supplier Beta?" is answered for the named suppliers only; "which suppliers
    # were approved" lists them all, whatever supplier the question (or text quoted in it) mentions.
    named = set(routing.entities.supplier_ids) if routing.named_suppliers_only else set()
    # A question about named suppliers ("which agreement approves Supplier Beta") is answered for them only.
    approvals = [a for a in vendors.approvals if not named or a.supplier_id in named]
    if products is not None:
        # "Suppliers approved for <group>": the approved vendors that supply a product under the group.
        assert isinstance(products, FindProductsToolResponse)
        approvals = [a for a in approvals if a.supplier_id in set(products.supplier_ids)]
    names = "; ".join(
        f"{a.supplier_id} ({a.supplier_name}, {a.agreement_id}, valid from {a.valid_from}"
        f"{' to ' + str(a.valid_to) if a.valid_to else ', open-ended'})"
        for a in approvals
    )
    company = routing.entities.company_name or routing.entities.company_id
    when = period_text or f"on {vendors.start_date}"
    scope = f" supplying {routing.entities.product_group} (or its subgroups)" if products is not None else ""
    if named and is_validity_window(vendors.start_date, vendors.end_date):
        # "until when is Gamma approved": the named suppliers' approval rows with their end dates
        text = validity_text(str(company), approvals, sorted(named), str(routing.as_of))
    elif approvals:
        text = f"Approved vendors of {company}{scope} {when}: {names}."
    elif named:
        text = (f"Not found: {', '.join(sorted(named))} had no approval as a vendor of {company} {when}; "
                f"approved then: {', '.join(vendors.supplier_ids) or 'none'}.")
    else:
        # No supplier named: the empty list is the answer ("none was approved"), said as such.
        others = [s for s in vendors.supplier_ids if products is not None]
        group = routing.entities.product_group
        text = (f"No vendor of {company}{f' for {group}' if group else ''} was approved "
                f"{when if when.startswith('on ') else 'in ' + when}"
                # (counted, not listed: ids beside an empty answer read as the answer to a hurried reader)
                + (f" ({len(others)} other vendor{'s' if len(others) > 1 else ''} approved then, none supplying it "
                   "in the catalogue)" if others else "") + ".")
    if vendors.version_notes:  # an amendment not yet in force on the as-of date: the version read is said
        text += " Agreement versions read: " + "; ".join(vendors.version_notes) + "."
    result = {"status": "complete" if approvals else "not_found",
              "supplier_ids": sorted({a.supplier_id for a in approvals}),
              "agreement_ids": sorted({a.agreement_id for a in approvals})}
    if named or products is not None:
        kept = {a.chunk_id for a in approvals}
        citations = [c for c in citations if not c.role.startswith("approval of ") or c.source_id in kept]
        sources = tuple(c.source_id for c in citations)
    inputs = {"company_id": vendors.company_id, "start_date": str(vendors.start_date),
              "end_date": str(vendors.end_date)}
    status = "answered"
    d.status, d.text, d.result, d.inputs, d.citations, d.sources = status, text, result, inputs, citations, sources


#: A catalogue question that asks for the suppliers ("who supplies", "which suppliers supply"), not the products.
_WHO_SUPPLIES = re.compile(r"\b(?:who\s+(?:supplies|sells|delivers|provides)|which\s+(?:suppliers|vendors)\s+"
                           r"(?:supply|sell|deliver|provide))\b", re.I)


@composer("catalog_products")
def _compose_products(d: _Draft) -> None:
    """``catalog_products``: the products under a group or of the named suppliers."""
    products, citations, sources = d.products, d.citations, d.sources
    status: AnswerStatus
    result: dict[str, Any]
    inputs: dict[str, Any]
    assert isinstance(products, FindProductsToolResponse)
    scope_text = (f"under {products.group_name}" if products.group_name
                  else f"of {', '.join(products.requested_supplier_ids)}")
    text = (f"Products {scope_text}: "
            + "; ".join(f"{p.product_code} {p.product_name} (supplier {p.supplier_id})" for p in products.products)
            + ".")
    if not products.products:
        # an empty list is said as such ("Products under X: ." read as a fault); the suppliers are named by name
        # (the id list of a non-empty answer is the list asked for, here there is none)
        who = ", ".join(d.routing.entities.supplier_names or d.routing.entities.supplier_ids)
        text = (f"None: the catalogue lists no product {'of ' + who + ' ' if who else ''}"
                f"{scope_text if products.group_name else ''}".rstrip() + " (an empty list).")
    if _WHO_SUPPLIES.search(d.routing.question) and products.supplier_ids:
        # "wer liefert X laut Katalog", "who supplies X": the catalogue's suppliers first, their products after
        text = f"Suppliers {scope_text} in the catalogue: {', '.join(products.supplier_ids)}. {text}"
    result = {"status": "complete", "product_codes": list(products.product_codes)}
    inputs = {"group_name": products.group_name}
    result["supplier_ids"] = list(products.supplier_ids)
    status = "answered"
    for p in products.products:
        for i, src in enumerate(p.source_chunk_ids):
            document = p.source_document_ids[i] if i < len(p.source_document_ids) else None
            citations.append(Citation(source_id=src, kind="chunk" if "-c" in src else "record",
                                      document_id=document, role=f"{p.product_code} in group"))
    citations = list({c.source_id: c for c in citations}.values())
    sources = tuple(c.source_id for c in citations)
    d.status, d.text, d.result, d.inputs, d.citations, d.sources = status, text, result, inputs, citations, sources


@composer("catalog_list_price")
def _compose_list_price(d: _Draft) -> None:
    """``catalog_list_price``: the catalogue's stated list price of each named product, in its own currency."""
    priced = next(iter(_find(d.run, ListPriceResponse)), None)
    assert isinstance(priced, ListPriceResponse)
    said = "; ".join(f"{p.product_code} {p.product_name} (supplier {p.supplier_id}): {p.list_price} {p.currency}"
                     for p in priced.products)
    text = (f"Catalog list price (as the catalogue states it, in its currency; not an invoiced price): {said}."
            if priced.products else "Not found: the named product is not in your catalogue.")
    if priced.missing_product_codes:
        text += f" Not in the catalogue (partial): {', '.join(priced.missing_product_codes)}."
    d.citations = [*d.citations, *(Citation(source_id=f"landing.products/{p.product_code}", kind="record",
                                            document_id=p.source_document_id, role=f"{p.product_code} list price")
                                   for p in priced.products)]
    d.sources = tuple(c.source_id for c in d.citations)
    d.status = "answered" if priced.products else "not_found"
    d.text = text
    d.result = {"status": "partial" if priced.missing_product_codes else "complete" if priced.products
                else "not_found",
                "list_prices": [{"product_code": p.product_code, "list_price": p.list_price, "currency": p.currency}
                                for p in priced.products],
                **({"value": priced.products[0].list_price, "currency": priced.products[0].currency}
                   if len(priced.products) == 1 else {})}
    d.inputs = {"product_codes": [p.product_code for p in priced.products] + list(priced.missing_product_codes)}


@composer("identifier_lookup", "document_answer")
def _compose_documents(d: _Draft) -> None:
    """``identifier_lookup`` / ``document_answer``: the passages found (untrusted evidence)."""
    routing, shown, failures, failure_text = d.routing, d.shown, d.failures, d.failure_text
    citations, sources = d.citations, d.sources
    status: AnswerStatus
    result: dict[str, Any]
    inputs: dict[str, Any]
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
    d.status, d.text, d.result, d.inputs, d.citations, d.sources = status, text, result, inputs, citations, sources


def _catalog_sentence(m: MetricToolResponse, company: str, period_text: str) -> str:
    """One catalog metric's result in words: its named outputs (or rows), the scope and the line count."""
    unit = m.currency or ""
    if m.status == "no_data":
        return (f"Not found: no validated invoice line matched {m.metric} for {company} in {period_text}; "
                "no data, not zero.")
    if m.rows:
        listed = "; ".join(", ".join(f"{k} {v}" for k, v in r.items() if v is not None) for r in m.rows)
        return (f"{m.metric} for {company} in {period_text}{_document_types_said(m.parameters)}"
                + _exclusions_said(m.parameters) + (" (truncated at the row cap)" if m.truncated else "")
                + f": {listed}.")
    shown = ", ".join(
        f"{name.replace('_', ' ')} {m.values.get(name)}" + (f" {unit}" if spec.get("type") == "money" and unit else "")
        for name, spec in m.outputs.items() if name != "matched_line_count"
    )
    return (f"{m.metric} for {company} in {period_text}{_document_types_said(m.parameters)}"
            f"{_exclusions_said(m.parameters)}: {shown}, over "
            f"{m.matched_line_count} validated invoice lines.")


def _exclusions_said(p: Mapping[str, Any]) -> str:
    """The exclusions a catalog metric ran with, restated ("largest invoices excl Helix": every other supplier's)."""
    left = [f"{what} {', '.join(p[key])}" for key, what in (("exclude_supplier_ids", "suppliers"),
                                                            ("exclude_product_group_ids", "product groups"),
                                                            ("exclude_product_codes", "products")) if p.get(key)]
    return f" (excluding {'; '.join(left)})" if left else ""


def _document_types_said(p: Mapping[str, Any]) -> str:
    """The document types a catalog metric ran with, restated (a count of invoice lines leaves credit notes out)."""
    types = tuple(p.get("document_types") or ())
    if types == ("invoice",):
        return " (invoices only; credit notes not counted)"
    if types == ("credit_note",):
        return " (credit notes only)"
    return ""


# --- the analyst's metrics: rankings, shares, comparisons, filters, original currency, average price ---------------
_DIMENSION_PLURAL = {"company_id": ("company", "companies"), "supplier_id": ("supplier", "suppliers"),
                     "product_group_id": ("product group (each product's own catalog group)",
                                          "product groups (each product's own catalog group)"),
                     "top_product_group_id": ("top-level product group", "top-level product groups"),
                     "product_code": ("product", "products")}
_ORDER_WORDS = {"total_spend": "spend (net + tax)", "net_spend": "net spend (tax excluded)", "units": "units purchased",
                "matched_line_count": "number of invoice lines"}


def _filters(p: dict[str, Any], currency: str, *, suppliers: bool = True) -> str:
    """The filters a metric ran with, restated: suppliers, groups, exclusions, statuses, document types, currency."""
    parts: list[str] = []
    if p.get("supplier_ids") and suppliers:
        parts.append("suppliers " + ", ".join(p["supplier_ids"]))
    if p.get("product_group_ids"):
        parts.append("product groups " + ", ".join(p["product_group_ids"]) + " (the group and its subgroups)")
    if p.get("exclude_supplier_ids"):
        parts.append("excluding suppliers " + ", ".join(p["exclude_supplier_ids"]))
    if p.get("exclude_product_group_ids"):
        parts.append("excluding product groups " + ", ".join(p["exclude_product_group_ids"]))
    if p.get("exclude_product_codes"):
        parts.append("excluding products " + ", ".join(p["exclude_product_codes"]))
    if p.get("exclude_document_currencies"):
        parts.append("only invoices not issued in " + ", ".join(p["exclude_document_currencies"]))
    if p.get("document_currencies"):
        parts.append("only invoices issued in " + ", ".join(p["document_currencies"]))
    statuses = list(p.get("invoice_statuses") or ("posted", "paid"))
    parts.append("invoice statuses " + ", ".join(statuses)
                 + (" (posted = not yet paid)" if statuses == ["posted"] else ""))
    types = list(p.get("document_types") or ("invoice", "credit_note"))
    if types == ["credit_note"]:
        parts.append("credit notes only (they count negative)")
    elif types == ["invoice"]:
        parts.append("invoices only (credit notes left out)")
    else:
        parts.append("invoices and credit notes (credit notes negative)")
    if currency:
        parts.append(f"in {currency}, the reporting currency (converted at the corporate rate on each posting date)")
    parts.append("drafts, cancelled invoices and duplicates never count")
    return "; ".join(parts)


def _which_is_higher(rows: list[tuple[str, Decimal]], currency: str) -> str:
    """The highest and the lowest of compared rows, ties said (amounts compared to the cent, as shown)."""
    top, low = max(v for _, v in rows), min(v for _, v in rows)
    if top == low:
        return f" All {len(rows)} are equal ({top} {currency})."
    highest = [k for k, v in rows if v == top]
    lowest = [k for k, v in rows if v == low]
    word = ("higher", "lower") if len(rows) == 2 else ("highest", "lowest")
    return (f" {' and '.join(highest)} {'is' if len(highest) == 1 else 'are'} {word[0]} ({top} {currency}); "
            f"{' and '.join(lowest)} {'is' if len(lowest) == 1 else 'are'} {word[1]} ({low} {currency}).")


def filters_text(p: dict[str, Any], currency: str) -> str:
    """The filters a metric ran with, restated (every one, the defaults too), for answers built on its rows."""
    text = _filters(p, currency)
    if p.get("product_codes"):
        text = "products " + ", ".join(p["product_codes"]) + "; " + text
    return text


def _supplier_total_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    """One named supplier's total under exclusion or document-type filters (its row of the ranking)."""
    p, cur = m.parameters, m.currency or ""
    sid = p["supplier_ids"][0]
    filters = _filters({k: v for k, v in p.items() if k != "supplier_ids"}, cur)
    row = m.rows[0] if m.rows else None
    if m.status == "no_data" or row is None:
        return (f"Not found: no validated invoice line of {company} with {sid} matched in {period_text} ({filters}); "
                "no data, not a zero total.", {"total_spend": None, "currency": cur, "supplier_ids": [sid]})
    return (f"{company}'s spend with {sid} in {period_text} was {row.get('total_spend')} {cur}, over "
            f"{row.get('matched_line_count')} validated invoice lines ({filters}).",
            {"total_spend": row.get("total_spend"), "currency": cur, "supplier_ids": [sid]})


def _ranking_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    p, cur = m.parameters, m.currency or ""
    if len(p.get("supplier_ids") or ()) == 1 and p.get("limit") == 1 and (not m.rows or "supplier_id" in m.rows[0]):
        return _supplier_total_sentence(m, company, period_text)
    dim = next((k for k in ("supplier_id", "product_group_id", "top_product_group_id", "product_code", "company_id")
                if m.rows and k in m.rows[0]), None)
    dim = dim or "supplier_id"
    singular, plural = _DIMENSION_PLURAL.get(dim, (dim, dim))
    limit, direction, order_by = int(p.get("limit") or 5), str(p.get("direction") or "top"), str(p.get("order_by"))
    ranked = int(m.rows[0].get("groups_ranked") or 0) if m.rows else 0  # type: ignore[arg-type]
    # "rank all of Kestrel's suppliers": every group fits under the cut, so the list is all of them, not a "top 100"
    size = (f"All {ranked} {plural}" if 1 < ranked <= limit and limit > 1 else
            f"{'Top' if direction == 'top' else 'Bottom'} {limit} {singular if limit == 1 else plural}")
    head = (f"{size} of {company} "
            f"by {_ORDER_WORDS.get(order_by, order_by)}, {'largest' if direction == 'top' else 'smallest'} first, "
            f"in {period_text} ({_filters(p, cur)})")
    if m.status == "no_data" or not m.rows:
        return (f"Not found: {head}: no validated invoice line matched, so nothing could be ranked; no data, not "
                "zero.", {"rows": [], "limit": limit, "direction": direction, "order_by": order_by,
                          "dimension": dim})
    listed = []
    for r in m.rows:
        value = r.get(order_by)
        unit = f" {cur}" if order_by in ("total_spend", "net_spend") else (" units" if order_by == "units" else
                                                                           " lines")
        shown = f"{value}{unit}"
        if order_by != "total_spend" and r.get("total_spend") is not None:
            shown += f", spend {r.get('total_spend')} {cur}"
        listed.append(f"{r.get('rank')}. {r.get(dim)} {shown} ({r.get('share_of_total_percent')} % of the ranked "
                      f"total, {r.get('matched_line_count')} lines)")
    ties = sorted({int(r["rank"]) for r in m.rows if int(r.get("tie_count") or 1) > 1})  # type: ignore[arg-type]
    tie_text = ""
    for rank in ties:
        tied = [str(r.get(dim)) for r in m.rows if r.get("rank") == rank]
        tie_text += f" {' and '.join(tied)} are tied at rank {rank}."
    last = max(int(r["rank"]) for r in m.rows)  # type: ignore[arg-type]
    if len(m.rows) > limit:
        tie_text += (f" Because of the tie at rank {last}, {len(m.rows)} {plural} are listed for a "
                     f"{direction} {limit} (every group tied at the cut is kept).")
    groups = m.rows[0].get("groups_ranked")
    text = f"{head}: " + "; ".join(listed) + f".{tie_text} {groups} {plural} were ranked in total."
    return text, {"rows": [dict(r) for r in m.rows], "limit": limit, "direction": direction, "order_by": order_by,
                  "dimension": dim, "ties": ties, "groups_ranked": groups}


def _share_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    """``finance.supplier_share``: named suppliers as the part of the company's (or a group's) spend."""
    p = m.parameters
    groups = p.get("product_group_ids")
    base = (f"{company}'s spend on product groups {', '.join(groups)} (the group and its subgroups)" if groups
            else f"{company}'s total spend")
    filters = _filters({k: val for k, val in p.items() if k != "product_group_ids"}, m.currency or "",
                       suppliers=False)
    suppliers = ", ".join(p.get("supplier_ids") or ())
    return _share_text(m, period_text, f"{suppliers}'s share of {base}", suppliers, base, filters,
                       {"supplier_ids": list(p.get("supplier_ids") or ())})


def _group_share_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    """``finance.product_group_share``: product groups as the part of the company's (or suppliers') spend."""
    p = m.parameters
    part = f"product groups {', '.join(p.get('product_group_ids') or ())} (the group and its subgroups)"
    suppliers = p.get("supplier_ids")
    base = (f"{company}'s spend with suppliers {', '.join(suppliers)}" if suppliers else f"{company}'s total spend")
    if p.get("within_product_group_ids"):
        base = (f"{company}'s spend on product groups {', '.join(p['within_product_group_ids'])}"
                + (f" with suppliers {', '.join(suppliers)}" if suppliers else ""))
    filters = _filters({k: val for k, val in p.items() if k not in ("product_group_ids", "supplier_ids",
                                                                   "within_product_group_ids")},
                       m.currency or "", suppliers=False)
    return _share_text(m, period_text, f"The share of {part} in {base}", part, base, filters,
                       {"product_group_ids": list(p.get("product_group_ids") or ())})


def _currency_share_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    """``finance.currency_share``: the invoices issued in some currencies as the part of the spend, both sides
    converted to the reporting currency."""
    p = m.parameters
    codes = ", ".join(p.get("document_currencies") or ())
    left_out = ", ".join(p.get("exclude_document_currencies") or ())
    suppliers = p.get("supplier_ids")
    base = f"{company}'s spend" + (f" with suppliers {', '.join(suppliers)}" if suppliers else "")
    filters = _filters({k: val for k, val in p.items() if k not in ("document_currencies", "supplier_ids",
                                                                   "exclude_document_currencies")},
                       m.currency or "", suppliers=False)
    part = f"invoices issued in {codes}" if codes else f"invoices issued in any currency but {left_out}"
    return _share_text(m, period_text, f"The share of {part} (converted to {m.currency or 'the reporting currency'} "
                       f"at the corporate rate on each posting date) in {base}", part, base, filters,
                       {"document_currencies": list(p.get("document_currencies") or ())})


#: Row keys of a grouped or per-period result, and the words that name them.
_ROW_KEYS = {"period_start": "period from", "supplier_id": "supplier", "product_group_id": "product group",
             "top_product_group_id": "top-level product group",
             "product_code": "product", "company_id": "company", "currency": "currency"}


def share_two_decimals(percent: object, part: object, whole: object) -> str | None:
    """The share to two decimals from its part and whole, not from the 4-decimal percent (rounding twice can move
    the last digit: 64.66496 % is shown 64.6650 %, which rounds again to 64.67). ``None`` when it cannot be
    computed or disagrees with the metric's own percent (then the metric's figure stands alone).

    >>> share_two_decimals("64.6650", "9394.91", "14528.59")
    '64.66'
    >>> share_two_decimals("50.0000", "1.00", "0") is None
    True
    """
    try:
        p, a, b = Decimal(str(percent)), Decimal(str(part)), Decimal(str(whole))
        if b == 0:
            return None
        exact = a * 100 / b
    except (InvalidOperation, ValueError, ArithmeticError):
        return None
    if abs(exact - p) > Decimal("0.001"):
        return None
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _share_text(m: MetricToolResponse, period_text: str, subject: str, part: str, base: str, filters: str,
                named: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A share's sentence: no data (never 0 %), undefined on a zero whole, else the percent with part and whole."""
    cur, v = m.currency or "", m.values
    extra: dict[str, Any] = {"share_percent": None, "part_value": None, "whole_value": None, "base": base,
                             "currency": cur, **named}
    if m.rows and m.status != "no_data":
        # One share per period or group: each row is its own part of its own whole, never only the first.
        key = next((k for k in m.rows[0] if k in _ROW_KEYS), None)
        label = _ROW_KEYS.get(key or "", "row")
        listed = "; ".join(
            f"{label} {r.get(key) if key else i + 1}: "
            + (f"{r.get('share_percent')} % ({r.get('part_value')} {cur} of {r.get('whole_value')} {cur})"
               if r.get("share_percent") is not None else f"undefined (the whole sums to {r.get('whole_value')} {cur})")
            for i, r in enumerate(m.rows))
        return (f"{subject} in {period_text}, by {label.replace(' from', '')}: {listed} (base: {base}; {filters}).",
                {**extra, "rows": [dict(r) for r in m.rows]})
    if m.status == "no_data" or not v:
        return (f"Not found: no validated invoice line matched {base} in {period_text} ({filters}), so no share of "
                f"{part} can be given; no data, not 0 %.", extra)
    extra.update({k: v.get(k) for k in ("share_percent", "part_value", "whole_value", "part_line_count")})
    if v.get("share_percent") is None:
        return (f"{subject} in {period_text} is undefined: the whole sums to {v.get('whole_value')} {cur} (the "
                f"part is {v.get('part_value')} {cur}); a share of zero is not computed ({filters}).", extra)
    two = share_two_decimals(v.get("share_percent"), v.get("part_value"), v.get("whole_value"))
    shown = f"{v.get('share_percent')} %"
    if two is not None:
        extra["share_percent_2dp"] = two
        if str(Decimal(str(v.get("share_percent"))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)) != two:
            # 64.6650 % is 64.66496...: rounding the shown 4 decimals again would say 64.67, so say it here
            shown += f", to two decimals {two} %"
    return (f"{subject} in {period_text} was {shown} ({v.get('part_value')} {cur} of "
            f"{v.get('whole_value')} {cur}; {v.get('part_line_count')} of {m.matched_line_count} validated invoice "
            f"lines; base: {base}; {filters}).", extra)


_COMPARE_WORDS = {"previous_period": "the previous period of the same length",
                  "same_period_last_year": "the same period one year earlier", "custom": "the period named"}


def _comparison_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    p, cur = m.parameters, m.currency or ""
    base_text = (f"{p.get('base_start_date')} to {p.get('base_end_date')} (end exclusive; "
                 f"{_COMPARE_WORDS.get(str(p.get('compare_to')), str(p.get('compare_to')))})")
    filters = _filters(p, cur)
    rows = m.rows or ((m.values,) if m.values else ())
    extra: dict[str, Any] = {"compare_to": p.get("compare_to"), "base_start_date": p.get("base_start_date"),
                             "base_end_date": p.get("base_end_date"), "currency": cur}
    if m.status == "no_data" or not rows:
        extra.update({"total_spend": None, "base_value": None, "change": None, "change_percent": None,
                      "comparison": "no_data"})
        return (f"Not found: no validated invoice line of {company} in {period_text} nor in the base period "
                f"{base_text} ({filters}); no data, not zero.", extra)
    texts = []
    for r in rows:
        key = next((f"{r.get(k)}: " for k in ("supplier_id", "product_group_id", "top_product_group_id", "product_code")
                    if k in r), "")
        current = (f"{r.get('total_spend')} {cur} ({r.get('current_line_count')} lines)"
                   if r.get("current_line_count") else f"no data ({r.get('total_spend')} {cur}, no line)")
        if r.get("comparison") == "no_base_data":
            texts.append(f"{key}{current} in {period_text}; the base period {base_text} has no validated invoice "
                         "line, so there is nothing to compare with: no change and no percent change are given (no "
                         "data, not 0 % and not infinite)")
        elif r.get("comparison") == "zero_base":
            texts.append(f"{key}{current} in {period_text} against {r.get('base_value')} {cur} in {base_text} "
                         f"({r.get('base_line_count')} lines summing to zero): a change of {r.get('change')} {cur}; "
                         "the percent change is undefined (the base is zero)")
        else:
            texts.append(f"{key}{current} in {period_text} against {r.get('base_value')} {cur} in {base_text} "
                         f"({r.get('base_line_count')} lines): a change of {r.get('change')} {cur} "
                         f"({r.get('change_percent')} %)")
    if not m.rows:
        v = m.values
        extra.update({k: v.get(k) for k in ("total_spend", "base_value", "change", "change_percent", "comparison",
                                             "current_line_count", "base_line_count")})
    else:
        extra["rows"] = [dict(r) for r in m.rows]
    return f"{company}'s spend compared with a base period ({filters}): " + "; ".join(texts) + ".", extra


def _document_currency_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    p, cur = m.parameters, m.currency or ""
    filters = _filters(p, cur).replace(f"in {cur}, the reporting currency", f"beside {cur}, the reporting currency")
    if m.status == "no_data" or not (m.rows or m.values):
        return (f"Not found: no validated invoice line of {company} in {period_text}"
                + (f" in {p.get('document_currency')}" if p.get("document_currency") else "")
                + f" ({filters}); no data, not zero.", {"rows": [], "document_spend": None})
    if m.rows:
        code = p.get("document_currency")
        listed = "; ".join(
            ", ".join(f"{_ROW_KEYS[k]} {r[k]}" for k in _ROW_KEYS if k in r and k != "currency") + (": " if any(
                k in r and k != "currency" for k in _ROW_KEYS) else "")
            + f"{r.get('document_spend')} {r.get('currency') or code} as invoiced ({r.get('total_spend')} {cur} "
            f"converted, {r.get('matched_line_count')} lines)" for r in m.rows)
        return (f"{company}'s spend in {period_text} in the invoices' own currencies (not converted; amounts in "
                f"different currencies are not added): {listed} ({filters}).",
                {"rows": [dict(r) for r in m.rows]})
    v, code = m.values, p.get("document_currency")
    return (f"{company}'s spend in {period_text} on invoices in {code}, in {code} as invoiced (not converted), was "
            f"{v.get('document_spend')} {code}; the same lines are {v.get('total_spend')} {cur} in the reporting "
            f"currency; over {m.matched_line_count} validated invoice lines ({filters}).",
            {"document_spend": v.get("document_spend"), "document_currency": code, "total_spend": v.get("total_spend"),
             "currency": cur})


def _document_price_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    """The average unit price in the invoices' own currencies: one price per currency (never averaged across
    currencies), each beside the same lines' net amount in the reporting currency."""
    p, cur = m.parameters, m.currency or ""
    code, named = p.get("product_code"), p.get("document_currency")
    who = company + (f", suppliers {', '.join(p['supplier_ids'])}" if p.get("supplier_ids") else "")
    how = ("quantity-weighted: net amount excluding tax / net quantity in the invoice currency, not converted, "
           "credit notes subtracted in both; statuses " + ", ".join(p.get("invoice_statuses") or ("posted", "paid")))
    rows = [dict(r) for r in m.rows] if m.rows else ([{**m.values, "currency": named}] if m.values else [])
    priced = [r for r in rows if r.get("document_unit_price") is not None]
    if m.status == "no_data" or not priced:
        return (f"Not found: no validated invoice line of {code} ({who}) in {period_text}"
                + (f" invoiced in {named}" if named else "") + "; no data, not a price.",
                {"document_unit_price": None, "product_code": code})
    listed = "; ".join(
        (f"{r['supplier_id']}, " if r.get("supplier_id") else "")
        + f"{r.get('document_unit_price')} {r.get('currency') or named} per unit as invoiced (net "
        f"{r.get('net_document_amount')} {r.get('currency') or named} / {r.get('quantity')} units; the same lines are "
        f"{r.get('net_amount')} {cur} net in the reporting currency; {r.get('matched_line_count')} lines)"
        for r in priced)
    scope = f"on invoices in {named}" if named else "in each invoice currency"
    return (f"The average net unit price of {code} ({who}) in {period_text} {scope}: {listed} ({how}).",
            {"rows": priced, "product_code": code, "currency": cur})


def _average_price_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    p, cur = m.parameters, m.currency or ""
    code = p.get("product_code")
    who = company + (f", suppliers {', '.join(p['supplier_ids'])}" if p.get("supplier_ids") else "")
    if p.get("exclude_supplier_ids"):
        who += f", excluding suppliers {', '.join(p['exclude_supplier_ids'])}"
    statuses = ", ".join(p.get("invoice_statuses") or ("posted", "paid"))
    types = tuple(p.get("document_types") or ("invoice", "credit_note"))
    refunds = ("invoices only, credit notes left out" if types == ("invoice",) else "credit notes only (their "
               "refunded amounts and quantities)" if types == ("credit_note",) else "credit notes subtracted in both")
    issued = f"; invoices issued in {p['document_currency']} only" if p.get("document_currency") else ""
    how = (f"quantity-weighted: net amount excluding tax / net quantity, {refunds}{issued}; statuses "
           f"{statuses}; in {cur}")
    if m.status == "no_data" or not (m.rows or m.values):
        return (f"Not found: no validated invoice line for {code} ({who}) in {period_text}; no data, not a price.",
                {"unit_price": None, "product_code": code})
    if m.rows:
        key = next((k for k in ("supplier_id", "company_id", "period_start") if k in m.rows[0]), "supplier_id")
        before = "period from " if key == "period_start" else ""
        listed = "; ".join(f"{before}{r.get(key)} {r.get('unit_price')} {cur} per unit (net {r.get('net_amount')} "
                           f"{cur} / {r.get('quantity')} units, {r.get('matched_line_count')} lines)" for r in m.rows)
        by = "period" if key == "period_start" else key.replace("_id", "")
        return (f"The average net unit price of {code} ({who}) in {period_text} by {by}: {listed} "
                f"({how}).", {"rows": [dict(r) for r in m.rows], "product_code": code, "currency": cur})
    v = m.values
    if v.get("unit_price") is None:
        return (f"{code} has no average unit price in {period_text} ({who}): its net quantity is zero over "
                f"{m.matched_line_count} lines (net {v.get('net_amount')} {cur}).",
                {"unit_price": None, "product_code": code, "net_amount": v.get("net_amount")})
    return (f"The average net unit price of {code} ({who}) in {period_text} was {v.get('unit_price')} {cur} per unit "
            f"(net {v.get('net_amount')} {cur} / {v.get('quantity')} units; {how}), over {m.matched_line_count} "
            "validated invoice lines.",
            {"unit_price": v.get("unit_price"), "quantity": v.get("quantity"), "net_amount": v.get("net_amount"),
             "product_code": code, "currency": cur})


def _company_spend_sentence(m: MetricToolResponse, company: str, period_text: str) -> tuple[str, dict[str, Any]]:
    p, cur = m.parameters, m.currency or ""
    filters = _filters(p, cur)
    if m.status == "no_data" or not (m.rows or m.values):
        return (f"Not found: no validated invoice line of {company} matched in {period_text} ({filters}); no data, "
                "not a zero total.", {"total_spend": None, "currency": cur})
    if m.rows:
        # every grouping key of the rows ("by company and quarter": company and period), never only the first
        keys = [k for k in m.rows[0] if k not in m.outputs]
        listed = "; ".join(f"{' '.join(str(r.get(k)) for k in keys)} {r.get('total_spend')} {cur} "
                           f"({r.get('matched_line_count')} lines)" for r in m.rows)
        named = " and ".join(k.replace('_id', '').replace('_', ' ') for k in keys)
        return (f"{company}'s spend in {period_text} by {named} ({filters}): "
                f"{listed}.", {"rows": [dict(r) for r in m.rows], "currency": cur})
    total = m.values.get("total_spend")
    return (f"{company}'s spend in {period_text} was {total} {cur}, over {m.matched_line_count} validated invoice "
            f"lines ({filters}).", {"total_spend": total, "currency": cur})


_ANALYST_SENTENCES: dict[str, Callable[[MetricToolResponse, str, str], tuple[str, dict[str, Any]]]] = {
    "finance.spend_ranking": _ranking_sentence,
    "finance.supplier_share": _share_sentence,
    "finance.product_group_share": _group_share_sentence,
    "finance.currency_share": _currency_share_sentence,
    "finance.spend_comparison": _comparison_sentence,
    "finance.document_currency_spend": _document_currency_sentence,
    "catalog.average_unit_price": _average_price_sentence,
    "catalog.document_currency_unit_price": _document_price_sentence,
    "finance.company_spend": _company_spend_sentence,
}


def _per_part(metrics: list[MetricToolResponse]) -> bool:
    """One metric run over several distinct periods or companies (the parts of a period list, each company)."""
    periods = {(m.parameters.get("company_id"), m.parameters.get("start_date"), m.parameters.get("end_date"))
               for m in metrics}
    return len(metrics) > 1 and len({m.metric for m in metrics}) == 1 and len(periods) == len(metrics)


def _step_period(m: MetricToolResponse, period: TimeRange | None, overall: str) -> str:
    """The period one metric step ran over, when it is not the question's one period (a part of a list)."""
    start, end = m.parameters.get("start_date"), m.parameters.get("end_date")
    if not start or not end or (period is not None and (str(start), str(end)) == (period.start.isoformat(),
                                                                                  period.end.isoformat())):
        return overall
    return f"[{start}, {end})"


def _metric_answer(
    routing: RoutingResult, metrics: list[MetricToolResponse], period_text: str
) -> tuple[AnswerStatus, str, dict[str, Any], dict[str, Any]]:
    """Status, text, structured result and inputs of a ``metric`` workflow (values exactly as the tool gave)."""
    company = routing.entities.company_name or routing.entities.company_id or "all companies of the tenant"
    scope = next((h.split(":", 2)[2] for h in routing.rule_hits if h.startswith("all_companies:")), None)
    named = next((h.split(":", 2)[2] for h in routing.rule_hits if h.startswith("company_set:")), None)
    if scope:
        # An all-companies question: the scope restated with every company it covers.
        company = f"all companies of the tenant together ({scope.replace(',', ', ')})"
    elif named:
        # Several companies named together ("Xenon and Ypsilon combined"): exactly those, restated.
        company = f"the companies {named.replace(',', ', ')} together"
    if not metrics:
        return ("failed", "The figure could not be calculated; no figure is given.", {"status": "failed"},
                {"company_id": routing.entities.company_id})
    sentences: list[str] = []
    parts: list[dict[str, Any]] = []
    statuses: list[str] = []
    overall, whole = period_text, company
    for m in metrics:
        # A step over one part of a period list ("Q3 2025 and Q1 2026") names its own part; one over one company
        # of several its company.
        period_text = _step_period(m, routing.constraints.time_range, overall)
        company = whole if routing.entities.company_id or not m.parameters.get("company_id") else str(
            m.parameters["company_id"])
        cur = m.currency or ""
        p = m.parameters
        n = m.matched_line_count
        part: dict[str, Any] = {"status": m.status, "metric": m.metric}
        if m.metric == "catalog.unit_price":
            code, month = p.get("product_code"), str(p.get("month") or "")[:7]
            price = m.values.get("unit_price")
            if m.status == "no_data":
                sentences.append(f"Not found: no validated invoice line for {code} in {month} ({company}); "
                                 "no data, not a price.")
            elif price is None:
                sentences.append(f"{code} has no unit price in {month}: its net quantity is zero over {n} lines.")
            else:
                sentences.append(
                    f"The average net unit price of {code} in {month} ({company}) was {price} {cur} per unit "
                    f"(net amount excluding tax / net quantity {m.values.get('quantity')}, credit notes subtracted), "
                    f"over {n} validated invoice lines.")
            part.update({"unit_price": price, "currency": cur, "quantity": m.values.get("quantity"),
                         "product_code": code, "month": month})
        elif m.metric == "finance.tax_total":
            total = m.values.get("total_tax")
            numbers = ", ".join(p.get("invoice_numbers") or ())
            if m.status == "no_data":
                sentences.append(f"Not found: no validated invoice line for {numbers}; no data, not a zero tax.")
            else:
                label = "PARTIAL RESULT, not the complete total: " if m.status == "partial" else ""
                missing = (f"; no validated lines were found for {', '.join(m.missing_keys)}, so the total is "
                           "incomplete") if m.missing_keys else ""
                sentences.append(f"{label}The total tax across {', '.join(m.calculated_keys) or numbers} was "
                                 f"{total} {cur}, over {n} validated invoice lines (credit notes negative){missing}.")
            part.update({"total_tax": total if m.status != "no_data" else None, "currency": cur,
                         "missing_invoice_numbers": list(m.missing_keys)})
        elif m.metric == "finance.units_purchased":
            units = m.values.get("units_purchased")
            supplier = p.get("supplier_id")
            if m.status == "no_data":
                sentences.append(f"Not found: no validated invoice line from {supplier} for {company} in "
                                 f"{period_text}; no data, not zero units.")
            else:
                # said as "how many" is answered ("99 units", not "99.0000"); the value keeps its scale
                said = f"{Decimal(str(units)).normalize():f}" if units is not None else units
                sentences.append(f"{company} purchased {said} units from {supplier} in {period_text} (credit "
                                 f"notes subtracted), over {n} validated invoice lines.")
            part.update({"units_purchased": units if m.status != "no_data" else None, "supplier_id": supplier})
        elif m.metric in _ANALYST_SENTENCES:
            sentence, extra = _ANALYST_SENTENCES[m.metric](m, company, period_text)
            sentences.append(sentence)
            part.update(extra)
        elif m.metric != "finance.invoices_above_threshold":
            # Any other catalog metric (e.g. one added in YAML only): its outputs as the metric names them.
            sentences.append(_catalog_sentence(m, company, period_text))
            part.update({"currency": cur, "values": dict(m.values) if not m.rows else None,
                         "rows": [dict(r) for r in m.rows] if m.rows else None,
                         **({k: m.values.get(k) for k in m.outputs} if m.status != "no_data" else
                            dict.fromkeys(m.outputs))})
        else:
            key, amount, what = "invoice_number", "grand_total", "invoices"
            if p.get("document_currency"):
                what = f"invoices issued in {p['document_currency']}"
            if p.get("exclude_supplier_ids"):
                # the suppliers left out are restated: the list is of the invoices of every other supplier
                what += f" (excluding suppliers {', '.join(p['exclude_supplier_ids'])})"
            threshold = p.get("threshold")
            side = "below" if p.get("direction") == "below" else "above"
            above = f"at or {side}" if p.get("inclusive") else side
            if p.get("upper_threshold") is not None:
                # A range: both bounds restated ("at or above 5000.00 EUR and at or below 10000.00").
                below = "at or below" if p.get("upper_inclusive") else "below"
                above = f"{above} {threshold} {cur} and {below}"
                threshold = p["upper_threshold"]
            if not m.rows:
                sentences.append(f"No {what} of {company} dated in {period_text} are {above} {threshold} {cur}.")
            else:
                sentences.append(
                    f"{len(m.rows)} {what} of {company} dated in {period_text} are {above} {threshold} {cur}"
                    + (" (list truncated at the row cap)" if m.truncated else "") + ": "
                    + "; ".join(f"{r.get(key)} ({r.get('invoice_date')}, {r.get('supplier_id')}, "
                                f"{r.get(amount)} {cur})" for r in m.rows) + ".")
            # An empty list is a complete answer (nothing is above the threshold), not missing data.
            part.update({"status": "complete", "threshold": threshold, "currency": cur,
                         "invoice_numbers": [r.get(key) for r in m.rows],
                         "rows": [dict(r) for r in m.rows]})
        part["matched_line_count"] = n
        part["policy"] = m.policy
        statuses.append(part["status"])
        parts.append(part)
    if routing.entities.company_id is None and len({m.parameters.get("company_id") for m in metrics}) > 1:
        sentences.insert(0, "Each company of the tenant separately (its own reporting currency; governed figures "
                            "are per company and are not added up):")
    if all(st == "no_data" for st in statuses):
        status: AnswerStatus = "no_data"
        overall = "no_data"
    elif "partial" in statuses or ("no_data" in statuses and not _per_part(metrics)):
        # A part of a period list without data is that part's answer ("no data"), not a missing figure.
        status, overall = "partial", "partial"
    else:
        status, overall = "answered", "complete"
    result: dict[str, Any] = {**parts[0], "status": overall} if len(parts) == 1 else {"status": overall,
                                                                                        "metrics": parts}
    listed = next((h.split(":", 2)[2].split("|") for h in routing.rule_hits if h.startswith("period_list:parts:")),
                  None)
    if listed is not None and len(parts) == len(listed) + 1:
        # Adjacent periods listed ("H2 2025 and Q1 2026"): the union is the figure, each part's figure beside it.
        # A union without data has no part with data either; a part without data is that part's answer.
        status, overall = ("no_data", "no_data") if parts[0]["status"] == "no_data" else (status, overall)
        for label, part in zip(listed, parts[1:], strict=True):
            part["period"] = label
        result = {**parts[0], "status": overall, "parts": parts[1:]}
        if overall != "no_data":
            each = "; ".join(
                f"{label}: {part.get('total_spend')} {part.get('currency')} ({part['matched_line_count']} lines)"
                if part["status"] != "no_data" else f"{label}: no data (no matching line, not zero)"
                for label, part in zip(listed, parts[1:], strict=True))
            sentences = [sentences[0], f"Each period of the list on its own: {each}."]
        else:
            sentences = sentences[:1]
    if [x["metric"] for x in parts] == ["finance.document_currency_spend", "finance.company_spend"]:
        # The invoice-currency rows with their total in the reporting currency beside them: one figure.
        result = {**parts[0], "status": overall, "total_spend": parts[1].get("total_spend"),
                  "currency": parts[1].get("currency")}
    inputs = {"company_id": routing.entities.company_id, "period": routing.constraints.time_range.label
              if routing.constraints.time_range else None,
              "metrics": [{"metric": m.metric, "parameters": m.parameters} for m in metrics]}
    by_company = next((m for m in metrics if m.rows and "company_id" in m.rows[0]), None) if scope else None
    if scope and by_company is not None:
        # Every company of the scope is answered: one without a matching line has no data (not a zero).
        absent = [c for c in scope.split(",") if c not in {str(r.get("company_id")) for r in by_company.rows}]
        if absent:
            sentences.append(f"{', '.join(absent)}: no validated invoice line matched (no data, not a zero).")
    share = _company_share_sentence(routing, metrics) if scope else None
    if share is not None:
        sentences.append(share[0])
        result["company_share"] = share[1]
    all_total = next((m for m in metrics if m.metric == "finance.company_spend" and not m.rows
                      and m.values.get("total_spend") is not None), None) if scope or named else None
    period = routing.constraints.time_range
    if all_total is not None and period is not None:
        # "group monthly run-rate over the last 3 full months": the all-companies total per calendar month, as a
        # company's is (router/run_rate.py); never the total alone as if it were the rate
        rate_text, rate = run_rate_sentence(routing.question, period.start, period.end,
                                            all_total.values["total_spend"], all_total.currency or "")
        if rate_text:
            sentences.append(rate_text.strip())
        if rate is not None:
            result["run_rate"] = rate
    text = " ".join(sentences)
    return status, text[:1].upper() + text[1:], result, inputs


def _company_share_sentence(routing: RoutingResult,
                            metrics: list[MetricToolResponse]) -> tuple[str, dict[str, Any]] | None:
    """"Company A's share of group-wide spend": the named company's row of the companies ranked by spend (its
    share of their ranked total, which is the all-companies total) beside that total, both governed."""
    company = routing.entities.company_id
    ranked = next((m for m in metrics if m.metric == "finance.spend_ranking" and m.rows
                   and "company_id" in m.rows[0]), None)
    whole = next((m for m in metrics if m.metric == "finance.company_spend" and not m.rows), None)
    if company is None or ranked is None:
        return None
    row = next((r for r in ranked.rows if r.get("company_id") == company), None)
    if row is None or row.get("share_of_total_percent") is None:
        return (f"{company} has no validated spend in the period: no share can be stated (no data, not 0 %).",
                {"company_id": company, "share_percent": None})
    total = whole.values.get("total_spend") if whole is not None else None
    # to two places from the exact part and whole when both are governed (the 4-place percent rounded again can move
    # the last digit, and a plain quantize rounds half to even)
    pct = share_two_decimals(row["share_of_total_percent"], row.get("total_spend"), total) or \
        str(Decimal(str(row["share_of_total_percent"])).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    cur = ranked.currency or ""
    of = f" of {total} {cur}" if total is not None else ""
    return (f"Share of {company}: {pct} % ({row.get('total_spend')} {cur}{of}, the spend of all the tenant's "
            "companies together).", {"company_id": company, "share_percent": str(pct),
                                     "part": row.get("total_spend"), "whole": total, "currency": cur})


def validate_answer(
    conn: psycopg.Connection, ctx: AuthContext, routing: RoutingResult, run: RunResult | None, answer: Answer,
    text: str | None = None,
) -> tuple[PolicyCheck, ...]:
    """The deterministic checks on ``answer`` (or on an alternative ``text`` for it)."""
    body = answer.text if text is None else text
    checks: list[PolicyCheck] = []
    spend = next(iter(_find(run, SpendResponse)), None) if run is not None else None
    vendors = next(iter(_find(run, ApprovedVendorsToolResponse)), None) if run is not None else None
    from router.invoice_facts import rederived_metrics
    from router.overdue import overdue_rederived

    tool_amounts = set()
    listed_amounts: set[tuple[str, str]] = set()
    tool_entities: set[str] = set()
    if isinstance(spend, SpendResponse) and spend.total_spend is not None and spend.status != "no_data":
        tool_amounts.add((spend.total_spend, spend.currency))
        listed_amounts |= {(b.total_spend, spend.currency) for b in spend.breakdown if b.total_spend is not None}
        # a key of two groupings joins both values ("SUP-18 2026-01-01")
        tool_entities |= {part for b in spend.breakdown if b.key for part in b.key.split(" ")}
        rate = answer.result.get("run_rate")
        if isinstance(rate, dict) and isinstance(rate.get("months"), int) and rate["months"] > 0:
            # a run-rate is derived from the tool's total: recomputed here, so only that derivation passes
            listed_amounts |= {(str(v), spend.currency)
                               for v in run_rate_range(Decimal(spend.total_spend), rate["months"])}
    whole = run.output(WHOLE_STEP) if run is not None else None
    if isinstance(whole, SpendResponse) and whole.total_spend is not None:
        listed_amounts.add((whole.total_spend, whole.currency))  # the whole of an off-contract share
    second = run.output(INVOICES_ONLY_STEP) if run is not None else None
    # the credit note's row of an "after credit note" scope check: said beside the figure, never the figure
    netted = run.output(NETTED_STEP) if run is not None else None
    listed_amounts |= netted_amounts(netted)
    for m in _find(run, MetricToolResponse) if run is not None else ():
        assert isinstance(m, MetricToolResponse)
        amount_outputs = [k for k, o in m.outputs.items() if o.get("unit") == m.currency and m.currency]
        # A comparison whose base period has no data states that instead of a base value and a change; the second
        # reading of an open total is only said when it differs from the governed figure.
        optional = {"base_value", "change"} if m.values.get("comparison") == "no_base_data" else set()
        optional = set(amount_outputs) if m is second or m is netted else optional
        # (finance.document_amounts gives exact sums, shown rounded: its amounts are re-derived below)
        for name in amount_outputs if m.metric not in rederived_metrics(routing.rule_hits) | overdue_rederived(
                routing.rule_hits) else ():
            if m.values.get(name) is not None:
                (listed_amounts if name in optional else tool_amounts).add((str(m.values[name]), str(m.currency)))
            listed_amounts |= {(str(r[name]), str(m.currency)) for r in m.rows if r.get(name) is not None}
        rate = answer.result.get("run_rate")
        if (m.metric == "finance.company_spend" and not m.rows and m.values.get("total_spend") is not None
                and isinstance(rate, dict) and isinstance(rate.get("months"), int) and rate["months"] > 0):
            # the all-companies total's run-rate (answer of a scope): recomputed here, only that derivation passes
            listed_amounts |= {(str(v), str(m.currency))
                               for v in run_rate_range(Decimal(str(m.values["total_spend"])), rate["months"])}
        for name in ("document_spend", "document_unit_price", "net_document_amount"):
            if name not in m.outputs:
                continue
            # Amounts in the invoices' own currency: each row's currency, or the one document currency asked for.
            code = m.parameters.get("document_currency")
            if code and m.values.get(name) is not None:
                tool_amounts.add((str(m.values[name]), str(code)))
            # (a listing of one row comes back as the result's values, with that row's currency)
            listed_amounts |= {(str(r[name]), str(r.get("currency") or code)) for r in (m.rows or (m.values,))
                               if r.get(name) is not None}
        for key in ("supplier_ids", "exclude_supplier_ids"):
            tool_entities |= {str(x) for x in (m.parameters.get(key) or ())}
        if m.parameters.get("threshold") is not None and m.currency:
            # the threshold (and a range's upper bound) is an input echoed back, not a computed figure
            listed_amounts.add((f"{m.parameters['threshold']}", m.currency))
            if m.parameters.get("upper_threshold") is not None:
                listed_amounts.add((f"{m.parameters['upper_threshold']}", m.currency))
        # (a listing of one row comes back as the result's values, not as a row)
        tool_entities |= {str(r["supplier_id"]) for r in (*m.rows, m.values) if r.get("supplier_id")}
        if m.parameters.get("supplier_id"):
            tool_entities.add(str(m.parameters["supplier_id"]))
    for products in _find(run, FindProductsToolResponse) if run is not None else ():
        assert isinstance(products, FindProductsToolResponse)
        tool_entities |= set(products.supplier_ids)
    for priced in _find(run, ListPriceResponse) if run is not None else ():
        assert isinstance(priced, ListPriceResponse)
        tool_amounts |= {(p.list_price, p.currency) for p in priced.products}
        tool_entities |= {p.supplier_id for p in priced.products}
    from router.thresholds import threshold_amounts

    # the bounds of a threshold on totals are inputs of the question echoed back, not computed figures
    bounds = threshold_amounts(routing.rule_hits)
    for found in _find(run, MetricToolResponse) if run is not None and bounds else ():
        assert isinstance(found, MetricToolResponse)
        listed_amounts |= {(a, str(found.currency)) for a in bounds if found.currency}
    from router.invoice_facts import derived_amounts

    # a named document's amounts and a period's net or VAT are sums of the governed rows, recomputed here
    listed_amounts |= derived_amounts(routing.rule_hits, _find(run, MetricToolResponse) if run is not None else ())
    from router.overdue import overdue_amounts

    # the total of the overdue invoices is the exact sum of the governed listing's rows, recomputed here
    listed_amounts |= overdue_amounts(routing.rule_hits, _find(run, MetricToolResponse) if run is not None else ())
    shown = set(_MONEY.findall(body))
    extra = shown - tool_amounts - listed_amounts
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
    resolved |= tool_entities
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
    record_docs = [c.source_id for c in citations if c.kind == "record" and not c.document_id]
    record_with_doc = {c.source_id: c.document_id for c in citations if c.kind == "record" and c.document_id}
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
        if record_with_doc:
            # A structured record (a landing row) is cited through the document it was read from.
            present = {r[0] for r in conn.execute(
                "select document_id from ingest.active_documents where document_id = any(%s)",
                (sorted(set(record_with_doc.values())),),
            ).fetchall()}
            found |= {ref for ref, doc in record_with_doc.items() if doc in present}
    return sorted({c.source_id for c in citations} - found)
