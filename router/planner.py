"""The planner: routing decisions -> a DAG of typed tool calls (predefined workflows for the common shapes).

Workflows:

* ``identifier_lookup``: one ``documents.search`` step in exact mode.
* ``spend`` (the seed): resolve the company -> approved vendors in the period (graph) -> products of the group
  under those vendors (graph, PART_OF*0..3) -> governed SQL total -> supporting clauses -> completeness check.
  Without "approved"/a group, explicit suppliers (resolved through the alias table) or the whole company.
* ``spend_with_documents``: the spend workflow plus a document-search branch for the summary part.
* ``approved_vendors``: company -> approved vendors (graph) -> supporting clauses -> completeness check.
* ``catalog_products``: products of a group (graph).
* ``document_answer``: ``documents.search`` (exact + BM25 + vector as the intents need) -> check.

Arguments that depend on an earlier step are :class:`router.contract.Ref` objects naming that step, which must
be in ``depends_on``; the executor resolves them from the step's typed output and validates the ids.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from router.contract import (
    ALLOWED_TOOLS,
    Constraints,
    Entities,
    IntentType,
    PlanStep,
    Ref,
    Workflow,
)
from router.errors import PlanError

#: Bounded plans: no workflow needs more, and the executor refuses longer ones.
MAX_STEPS = 10


@dataclass(frozen=True)
class PlanInput:
    """What the planner needs from routing."""

    question: str
    intents: frozenset[IntentType]
    entities: Entities
    constraints: Constraints
    as_of: dt.date
    spend: bool
    other_metric: bool
    approved: bool
    wants_documents: bool
    all_supplier_ids: tuple[str, ...]


def _ref(step: str, field: str) -> Ref:
    return Ref.model_validate({"$ref": step, "field": field})


def _period(inp: PlanInput) -> tuple[str, str]:
    tr = inp.constraints.time_range
    if tr is not None:
        return tr.start.isoformat(), tr.end.isoformat()
    return inp.as_of.isoformat(), (inp.as_of + dt.timedelta(days=1)).isoformat()


def _search_args(inp: PlanInput, *, modes: list[str], query_text: str, document_types: list[str]) -> dict[str, Any]:
    e = inp.entities
    return {
        "query_text": query_text,
        "identifiers": {
            "product_codes": list(e.product_codes),
            "invoice_numbers": list(e.invoice_numbers),
            "contract_ids": list(e.contract_ids),
        },
        "retrieval_modes": modes,
        "filters": {"document_types": document_types},
        "limit": 5,
    }


def _text_modes(inp: PlanInput) -> list[str]:
    modes = []
    has_ids = bool(inp.entities.product_codes or inp.entities.invoice_numbers or inp.entities.contract_ids)
    if has_ids:
        modes.append("exact")
    # Design note: BM25 and vector both run for text questions; weighted fusion (per query class) decides,
    # so a rare-term question still finds a paraphrased passage and vice versa.
    modes.extend(["bm25", "vector"])
    return modes


def _spend_steps(inp: PlanInput) -> tuple[list[PlanStep], list[str]]:
    e = inp.entities
    start, end = _period(inp)
    steps: list[PlanStep] = [
        PlanStep(
            step_id="resolve-company",
            tool="entity.resolve_company",
            arguments={"company_id": e.company_id},
            purpose=f"Resolve {e.company_name or e.company_id} to its canonical id and reporting currency.",
        )
    ]
    common = {
        "company_id": _ref("resolve-company", "company_id"),
        "start_date": start,
        "end_date": end,
        "invoice_statuses": list(inp.constraints.invoice_status),
        "reporting_currency": _ref("resolve-company", "reporting_currency"),
    }
    use_graph = inp.approved or (e.product_group is not None and not e.supplier_ids)
    supplier_source: Any
    spend_deps = ["resolve-company"]
    evidence_deps: list[str] = []
    if e.supplier_ids and not inp.approved:
        supplier_source = list(e.supplier_ids)
    elif use_graph and inp.approved:
        steps.append(
            PlanStep(
                step_id="find-approved-vendors",
                tool="graph.find_approved_vendors",
                depends_on=("resolve-company",),
                arguments={"company_id": _ref("resolve-company", "company_id"), "start_date": start, "end_date": end},
                purpose="Suppliers whose approval [valid_from, valid_to) overlaps the period.",
            )
        )
        supplier_source = _ref("find-approved-vendors", "supplier_ids")
        spend_deps.append("find-approved-vendors")
        evidence_deps.append("find-approved-vendors")
    else:
        supplier_source = None
    if e.product_group is not None:
        deps = ("find-approved-vendors",) if isinstance(supplier_source, Ref) else ()
        steps.append(
            PlanStep(
                step_id="find-products",
                tool="catalog.find_products",
                depends_on=deps,
                arguments={
                    "supplier_ids": supplier_source if supplier_source is not None else list(inp.all_supplier_ids),
                    "group_name": e.product_group,
                },
                purpose=f"Products under {e.product_group} (PART_OF*0..3) supplied by those suppliers.",
            )
        )
        spend_deps.append("find-products")
        steps.append(
            PlanStep(
                step_id="calculate-spend",
                tool="finance.aggregate_spend",
                depends_on=tuple(spend_deps),
                arguments={
                    **common,
                    "supplier_ids": _ref("find-products", "supplier_ids"),
                    "product_codes": _ref("find-products", "product_codes"),
                },
                purpose="Governed SQL total over validated invoice lines (finance.aggregate_spend).",
            )
        )
    elif supplier_source is not None:
        steps.append(
            PlanStep(
                step_id="calculate-spend",
                tool="finance.aggregate_spend",
                depends_on=tuple(spend_deps),
                arguments={**common, "supplier_ids": supplier_source, "product_codes": None},
                purpose="Governed SQL total over validated invoice lines (finance.aggregate_spend).",
            )
        )
    else:
        steps.append(
            PlanStep(
                step_id="calculate-spend",
                tool="finance.company_spend",
                depends_on=("resolve-company",),
                arguments=common,
                purpose="Governed SQL total of the company over all suppliers (finance.company_spend).",
            )
        )
    check_deps = ["calculate-spend"]
    if evidence_deps:
        steps.append(
            PlanStep(
                step_id="retrieve-supporting-clauses",
                tool="documents.search",
                depends_on=tuple(evidence_deps),
                arguments={
                    "query_text": f"approved vendors of {e.company_name or e.company_id}"
                    + (f" {e.product_group}" if e.product_group else ""),
                    "identifiers": {
                        "product_codes": [],
                        "invoice_numbers": [],
                        "contract_ids": _ref("find-approved-vendors", "agreement_ids"),
                    },
                    "retrieval_modes": ["exact", "bm25", "vector"],
                    "filters": {
                        "document_types": ["agreement"],
                        "document_ids": _ref("find-approved-vendors", "agreement_ids"),
                    },
                    "limit": 5,
                },
                purpose="Agreement clauses that approve the vendors (evidence, untrusted text).",
            )
        )
        check_deps.append("retrieve-supporting-clauses")
    return steps, check_deps


def plan(inp: PlanInput) -> tuple[Workflow, tuple[PlanStep, ...]]:
    """The workflow and its steps for routed, unambiguous input.

    Raises:
        PlanError: the resulting plan violates the DAG rules (a bug, never user input).
    """
    e = inp.entities
    steps: list[PlanStep]
    workflow: Workflow
    if inp.spend:
        steps, check_deps = _spend_steps(inp)
        workflow = "spend"
        if inp.wants_documents:
            steps.append(
                PlanStep(
                    step_id="retrieve-documents",
                    tool="documents.search",
                    arguments=_search_args(
                        inp, modes=_text_modes(inp), query_text=inp.question, document_types=["agreement"]
                    ),
                    purpose="The document part of the question (summary / explanation).",
                )
            )
            check_deps.append("retrieve-documents")
            workflow = "spend_with_documents"
        steps.append(_check(check_deps))
    elif "relationship" in inp.intents and inp.approved and e.company_id is not None:
        start, end = _period(inp)
        steps = [
            PlanStep(step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": e.company_id},
                     purpose="Resolve the company."),
            PlanStep(
                step_id="find-approved-vendors",
                tool="graph.find_approved_vendors",
                depends_on=("resolve-company",),
                arguments={"company_id": _ref("resolve-company", "company_id"), "start_date": start, "end_date": end},
                purpose="Suppliers whose approval overlaps the period.",
            ),
        ]
        steps.append(_check(["find-approved-vendors"]))
        workflow = "approved_vendors"
    elif inp.other_metric:
        return "unsupported", ()
    elif (
        (e.product_codes or e.invoice_numbers or e.contract_ids)
        and inp.intents <= {"exact_lookup"}
    ):
        steps = [
            PlanStep(
                step_id="lookup-identifier",
                tool="documents.search",
                arguments=_search_args(inp, modes=["exact"], query_text=inp.question, document_types=[]),
                purpose="Exact identifier lookup (one step).",
            )
        ]
        workflow = "identifier_lookup"
    elif "relationship" in inp.intents and e.product_group is not None and not (inp.intents & {"semantic", "lexical"}):
        steps = [
            PlanStep(
                step_id="find-products",
                tool="catalog.find_products",
                arguments={"supplier_ids": list(inp.all_supplier_ids), "group_name": e.product_group},
                purpose=f"Products under {e.product_group} (PART_OF*0..3).",
            ),
            _check(["find-products"]),
        ]
        workflow = "catalog_products"
    else:
        steps = [
            PlanStep(
                step_id="retrieve-documents",
                tool="documents.search",
                arguments=_search_args(inp, modes=_text_modes(inp), query_text=inp.question, document_types=[]),
                purpose="Passages that answer the question (exact / BM25 / vector as needed).",
            ),
            _check(["retrieve-documents"]),
        ]
        workflow = "document_answer"
    validate_plan(steps)
    return workflow, tuple(steps)


def _check(deps: list[str]) -> PlanStep:
    return PlanStep(
        step_id="validate-result",
        tool="validation.check_completeness",
        depends_on=tuple(deps),
        purpose="Completeness: every requested supplier calculated, no data vs zero, evidence present.",
    )


def validate_plan(steps: list[PlanStep] | tuple[PlanStep, ...]) -> None:
    """Check the DAG rules: known tools, unique ids, dependencies exist and come first, bounded length.

    Raises:
        PlanError: the first rule broken.
    """
    if len(steps) > MAX_STEPS:
        raise PlanError(f"plan: {len(steps)} steps exceed the bound of {MAX_STEPS}")
    seen: set[str] = set()
    for step in steps:
        if step.tool not in ALLOWED_TOOLS:
            raise PlanError(f"plan: tool {step.tool!r} is not allowed")
        if step.step_id in seen:
            raise PlanError(f"plan: step id {step.step_id!r} is repeated")
        for dep in step.depends_on:
            if dep not in seen:
                raise PlanError(f"plan: step {step.step_id!r} depends on {dep!r}, which does not come before it")
        seen.add(step.step_id)
