"""Cancelled or draft documents listed for every company of the tenant: "list cancelled invoices, both companies",
"which drafts does the group have".

``finance.cancelled_draft_invoices`` is governed per company (its value is in the company's reporting currency),
so a listing over all the tenant's companies is one governed call per company, each answered on its own line
(documents, their number and each document's value as the metric returns it); no amount is added across
companies. Only the listing (and the number of documents) is served this way: the value of all companies'
cancelled documents together is a sum the metric does not compute, and stays a clarification.
"""

from __future__ import annotations

from typing import Any

from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.statuses import LISTED, STATUS_METRIC, StatusRequest, status_parameters

#: Step ids: one listing per company, numbered in the tenant's company order.
STEP = "status-company-documents-"


def company_status_steps(req: StatusRequest, reading: Any, gazetteer: Any, companies: tuple[Any, ...], start: str,
                         end: str) -> tuple[tuple[PlanStep, ...], list[tuple[str, str]]]:
    """One governed listing per company (grouped by invoice number) and the completeness check; and what the
    listing cannot take (as :func:`router.statuses.status_parameters` names it)."""
    steps: list[PlanStep] = []
    unmapped: list[tuple[str, str]] = []
    for i, company in enumerate(companies, start=1):
        params, cannot = status_parameters(req, reading, gazetteer, company.company_id, start, end,
                                           company.reporting_currency)
        if i == 1:
            unmapped.extend(cannot)
        steps.append(PlanStep(step_id=f"{STEP}{i}", tool="metrics.query",
                              arguments={"metric": STATUS_METRIC, "parameters": params,
                                         "group_by": ["invoice_number", "supplier_id"], "grain": None},
                              purpose=f"The {req.words} documents of {company.company_id} one by one."))
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: every company's listing ran; none matching is said as such."))
    return tuple(steps), unmapped


@composer("status_documents_companies")
def _compose_companies(d: _Draft) -> None:
    """``status_documents_companies``: each company's documents of the status, on its own line."""
    from router.tools import MetricToolResponse

    ran: list[MetricToolResponse] = []
    failed = 0
    for step_id, o in sorted(d.run.outcomes.items()):
        if not step_id.startswith(STEP):
            continue
        if o.status == "ok" and isinstance(o.output, MetricToolResponse):
            ran.append(o.output)
        else:
            failed += 1
    if not ran:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The invoices of that status could not be listed; no answer is given." + d.failure_text
        return
    statuses = tuple(ran[0].parameters.get("invoice_statuses") or ())
    words = " or ".join(statuses)
    parts: list[str] = []
    numbers: list[str] = []
    documents: list[dict[str, Any]] = []
    lines = 0
    for m in ran:
        rows = list(m.rows)
        company = str(m.parameters.get("company_id"))
        cur = m.currency or m.parameters.get("reporting_currency") or ""
        got = list(dict.fromkeys(str(r.get("invoice_number")) for r in rows))
        numbers.extend(got)
        documents.extend({**dict(r), "company_id": company} for r in rows)
        lines += m.matched_line_count
        shown = "; ".join(f"{r.get('invoice_number')} ({r.get('supplier_id')}, {r.get('total_amount')} {cur})"
                          for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        parts.append(f"{company}: {len(got)} {words} invoice{'s' if len(got) != 1 else ''}"
                     + (f": {shown}{more}" if got else " (none matches)"))
    status: AnswerStatus = "answered" if numbers else "no_data"
    text = (f"{'PARTIAL RESULT: ' if failed else ''}{words.capitalize()} documents of every company of the tenant "
            f"dated in {d.period_text}, {len(numbers)} in all: " + "; ".join(parts) + ". Each company's value is "
            "net + tax in its reporting currency (not recognized spend; governed spend never counts "
            f"{words} documents); replicated duplicates once.")
    if failed:
        status = "partial"
        text += f" {failed} compan{'y' if failed == 1 else 'ies'} could not be listed." + d.failure_text
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    for m in ran:
        cite_lines(d, m.source_line_ids, f"invoice line of a {words} document")
    d.status, d.text = status, text
    d.result = {"status": "partial" if failed else "complete" if numbers else "no_data", "metric": STATUS_METRIC,
                "invoice_statuses": list(statuses), "invoice_numbers": numbers, "invoice_count": len(numbers),
                "documents": documents, "line_count": lines}
    d.inputs = {"metric": STATUS_METRIC, "parameters": [m.parameters for m in ran]}


__all__ = ["company_status_steps"]
