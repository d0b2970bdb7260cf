"""Two-workflow questions: a figure, and a document fact about the entity the figure selects.

"What are the payment terms of our biggest supplier, and what did we spend with it last quarter?" needs two
workflows, the second depending on the first: the governed ranking picks the supplier (``finance.spend_ranking``,
limit 1, ties at the cut all kept) and gives its spend; the approvals graph finds the agreement that approves
*that* supplier for the company in the period (the ranking's ``row_supplier_ids`` flow into it through a plan
reference, never a guessed id); retrieval then searches only that agreement for the fact. The answer cites both
parts (invoice lines of the figure, the agreement passage of the fact) and says PARTIAL when either is missing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from router.answer import AnswerStatus, Citation, _Draft, _snippet, composer
from router.contract import PlanStep, Ref
from router.reader import Reading

RANKING_METRIC = "finance.spend_ranking"

_SELECTOR = re.compile(
    r"\b(?:(?P<top>biggest|largest|top|main|most important|highest[- ]spend(?:ing)?|primary|leading)|"
    r"(?P<bottom>smallest|least important|lowest[- ]spend(?:ing)?))\s+(?:supplier|vendor)\b|"
    r"\b(?:supplier|vendor)\s+(?:that |which |whom )?(?:we|our company|it)\s+(?:spent|spend|paid|pay|buy|bought|"
    r"purchased?)\s+(?:the\s+)?(?P<most>most|least)\b|"
    r"\b(?:supplier|vendor)\s+with\s+the\s+(?:(?P<high>highest|largest|biggest|most)|(?P<low>lowest|smallest|least))"
    r"\s+(?:spend|spending|purchases|purchase volume|volume|invoiced amount)\b",
    re.I,
)
#: The document facts an agreement holds (what the second workflow searches for).
_FACT = re.compile(
    r"\b(payment terms?|terms of payment|payment conditions|payment due|due date|warranty(?: period)?|"
    r"liability|insurance|notice period|termination|term of the agreement|delivery terms|incoterms?|"
    r"price adjustments?|prices? fixed|rebates?|confidentiality|audit rights?|agreement|contract)\b",
    re.I,
)


@dataclass(frozen=True)
class CompoundRequest:
    """A figure that selects an entity (the top or bottom supplier by spend) and the document fact asked about it."""

    direction: str  # top | bottom
    selector: str
    fact: str


def compound_request(reading: Reading) -> CompoundRequest | None:
    """The two workflows a question needs, or ``None`` when it is not a figure-plus-document question."""
    selector = _SELECTOR.search(reading.cue_text)
    if selector is None:
        return None
    fact = _FACT.search(reading.cue_text)
    if fact is None:
        return None
    bottom = bool(selector.group("bottom") or selector.group("low")) or (selector.group("most") or "").lower() \
        == "least"
    return CompoundRequest(direction="bottom" if bottom else "top", selector=selector.group(0),
                           fact=fact.group(0))


def compound_steps(req: CompoundRequest, reading: Reading, company_id: str, start: str, end: str,
                   currency: str | None, product_group_ids: tuple[str, ...] = ()) -> tuple[PlanStep, ...]:
    """Rank -> the selected supplier's approving agreement -> the fact in that agreement -> check.

    ``product_group_ids``: the ranking's category ("our biggest supplier of sensors": the group and its subgroups).
    """
    ranking_params: dict[str, Any] = {"company_id": company_id, "start_date": start, "end_date": end,
                                      "direction": req.direction, "limit": 1,
                                      "invoice_statuses": list(reading.statuses)}
    if product_group_ids:
        ranking_params["product_group_ids"] = list(product_group_ids)
    if currency:
        ranking_params["reporting_currency"] = currency
    agreements = Ref.model_validate({"$ref": "find-agreement", "field": "agreement_ids"})
    query = req.fact if req.fact.lower() not in ("agreement", "contract") else reading.text_part
    return (
        PlanStep(
            step_id="rank-suppliers", tool="metrics.query",
            arguments={"metric": RANKING_METRIC, "parameters": ranking_params, "group_by": ["supplier_id"],
                       "grain": None},
            purpose=f"The {req.direction} supplier by governed spend in the period, with its spend ({RANKING_METRIC}, "
                    "limit 1; ties at the cut all kept).",
        ),
        PlanStep(
            step_id="find-agreement", tool="graph.find_approved_vendors", depends_on=("rank-suppliers",),
            arguments={"company_id": company_id, "start_date": start, "end_date": end,
                       "supplier_ids": Ref.model_validate({"$ref": "rank-suppliers", "field": "row_supplier_ids"})},
            purpose="The agreement(s) approving the supplier the ranking selected, for the company in the period.",
        ),
        PlanStep(
            step_id="retrieve-fact", tool="documents.search", depends_on=("find-agreement",),
            arguments={
                "query_text": query,
                "identifiers": {"product_codes": [], "invoice_numbers": [], "contract_ids": agreements},
                "retrieval_modes": ["exact", "bm25", "vector"],
                "filters": {"document_types": ["agreement"], "document_ids": agreements},
                "limit": 3,
            },
            purpose=f"The {req.fact} in that agreement (evidence, untrusted text).",
        ),
        PlanStep(step_id="validate-result", tool="validation.check_completeness",
                 depends_on=("rank-suppliers", "retrieve-fact"),
                 purpose="Both parts present: the figure and the cited fact."),
    )


@composer("figure_with_document")
def _compose_compound(d: _Draft) -> None:
    """``figure_with_document``: the selected supplier and its spend, then the fact from its agreement, both cited;
    PARTIAL when either part is missing."""
    from router.tools import ApprovedVendorsToolResponse, MetricToolResponse

    outcomes = d.run.outcomes
    company = d.routing.entities.company_name or d.routing.entities.company_id or "the company"
    ranking = outcomes.get("rank-suppliers")
    m = ranking.output if ranking is not None and ranking.status == "ok" else None
    vendors_outcome = outcomes.get("find-agreement")
    vendors = vendors_outcome.output if vendors_outcome is not None else None
    fact_outcome = outcomes.get("retrieve-fact")
    citations = list(d.citations)
    parts: list[str] = []
    missing: list[str] = []
    result: dict[str, Any] = {}
    top: list[dict[str, Any]] = []
    if isinstance(m, MetricToolResponse):
        top = [r for r in m.rows if r.get("rank") == 1]
        for line_id in m.source_line_ids:
            citations.append(Citation(source_id=line_id, kind="invoice_line", role="invoice line in the ranking"))
    names = {a.supplier_id: a.supplier_name for a in vendors.approvals} \
        if isinstance(vendors, ApprovedVendorsToolResponse) else {}
    if not isinstance(m, MetricToolResponse):
        missing.append("the spend ranking did not run" + (f" ({ranking.status}: {ranking.error})" if ranking else ""))
    elif not top:
        missing.append(f"no counted spend of {company} in {d.period_text}, so no supplier to select")
    else:
        cur = m.currency or ""
        who = ", ".join(f"{r.get('supplier_id')}" + (f" ({names[r['supplier_id']]})" if r.get("supplier_id") in names
                                                     else "") for r in top)
        tie = f" (a tie: {len(top)} suppliers share rank 1)" if len(top) > 1 else ""
        spends = "; ".join(f"{r.get('supplier_id')}: {r.get('total_spend')} {cur}" for r in top)
        parts.append(f"The selected supplier of {company} by spend in {d.period_text} is {who}{tie}; spend with it: "
                     f"{spends} (governed {RANKING_METRIC}).")
        result["suppliers"] = [{"supplier_id": r.get("supplier_id"), "total_spend": r.get("total_spend"),
                                "currency": cur, "rank": r.get("rank")} for r in top]
    shown = list(d.shown)
    if shown:
        quoted = " ".join(f"[{c.chunk_id}, {c.document_id} p. {c.page}] \"{_snippet(c.text, d.routing.question)}\""
                          for c in shown[:2])
        parts.append(f"From the approving agreement: {quoted}")
        result["passages"] = [c.chunk_id for c in shown]
    elif top:
        why = (vendors_outcome.error or vendors_outcome.status) if vendors_outcome is not None \
            and vendors_outcome.status != "ok" else None
        if vendors_outcome is not None and vendors_outcome.status == "not_found":
            missing.append(f"no agreement of {company} approves {', '.join(str(r.get('supplier_id')) for r in top)} "
                           "in the period, so the document fact was not found")
        elif fact_outcome is not None and fact_outcome.status == "ok":
            missing.append("no passage of the approving agreement answers the document part")
        else:
            missing.append("the document part did not run" + (f" ({why})" if why else ""))
    complete = bool(top) and bool(shown)
    status: AnswerStatus = "answered" if complete else ("partial" if (top or shown) else "failed")
    text = " ".join(parts)
    if not complete:
        text = ("PARTIAL RESULT: " if status == "partial" else "") + text + \
               (" " if text else "") + "Missing: " + "; ".join(missing) + "."
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    result["status"] = "complete" if complete else ("partial" if status == "partial" else "failed")
    citations = list({c.source_id: c for c in citations}.values())
    d.status, d.text, d.result = status, text, result
    d.inputs = {"ranking": m.parameters if isinstance(m, MetricToolResponse) else None}
    d.citations, d.sources = citations, tuple(c.source_id for c in citations)


__all__ = ["RANKING_METRIC", "CompoundRequest", "compound_request", "compound_steps"]
