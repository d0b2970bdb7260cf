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
* ``metric``: a governed metric other than spend, chosen by the measure the question names: unit price
  (``catalog.unit_price``: a product code and one calendar month), tax (``finance.tax_total``: invoice numbers),
  units (``finance.units_purchased``: a supplier and a period), invoice amount thresholds
  (``finance.invoices_above_threshold``: an amount and a period); plus a document branch when the question also
  asks for text. A measure whose parameters the question does not give, or that no governed metric computes
  (e.g. single invoice lines above an amount), is ``unsupported`` (nothing is guessed).

Arguments that depend on an earlier step are :class:`router.contract.Ref` objects naming that step, which must
be in ``depends_on``; the executor resolves them from the step's typed output and validates the ids.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from router.analysis import COMPANY_SPEND, DOCUMENT_CURRENCY
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
from router.open_reading import with_invoices_only_step
from router.reader import MetricKind, Reading

#: Bounded plans: no workflow needs more, and the executor refuses longer ones.
MAX_STEPS = 10


@dataclass(frozen=True)
class PlanInput:
    """What the planner needs from routing."""

    #: The question as read (the planner never re-reads the raw text).
    reading: Reading
    intents: frozenset[IntentType]
    entities: Entities
    constraints: Constraints
    as_of: dt.date
    spend: bool
    other_metric: bool
    approved: bool
    wants_documents: bool
    all_supplier_ids: tuple[str, ...]
    #: The reading's breakdown: allow-listed dimensions and time grain ("per supplier", "month by month").
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    #: A catalog metric without a workflow of its own, and its parameter values from the reading.
    catalog_metric: str | None = None
    catalog_parameters: dict[str, Any] | None = None
    #: The named product group and every group below it (the gazetteer's PART_OF* walk), for a category filter.
    group_ids: tuple[str, ...] = ()


def _single_month(inp: PlanInput) -> str | None:
    tr = inp.constraints.time_range
    if tr is None or tr.start.day != 1:
        return None
    following = (tr.start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return tr.start.strftime("%Y-%m") if tr.end == following else None


def _ref(step: str, field: str) -> Ref:
    return Ref.model_validate({"$ref": step, "field": field})


def _period(inp: PlanInput) -> tuple[str, str]:
    tr = inp.constraints.time_range
    if tr is not None:
        return tr.start.isoformat(), tr.end.isoformat()
    return inp.as_of.isoformat(), (inp.as_of + dt.timedelta(days=1)).isoformat()


def _phrases(inp: PlanInput) -> list[str]:
    """The quoted phrases of a lexical question (what the user wants found literally)."""
    if "lexical" not in inp.intents:
        return []
    return list(inp.reading.quoted)


def _search_text(inp: PlanInput, query_text: str) -> str:
    """The text to search: a lexical question's quoted phrases themselves, else ``query_text``.

    A quoted phrase is what the user wants found literally; the words around it ("Which documents mention ...")
    only dilute BM25 and pull the vector branch towards generic passages.
    """
    return " ".join(_phrases(inp)) or query_text


def _search_args(inp: PlanInput, *, modes: list[str], query_text: str, document_types: list[str]) -> dict[str, Any]:
    e = inp.entities
    scoped = (inp.reading.agreement_topic if query_text == inp.reading.text and not _phrases(inp) else None) \
        if set(document_types) <= {"agreement"} else None
    if scoped is not None:
        query_text, document_types = scoped, ["agreement"]
    return {
        "query_text": _search_text(inp, query_text),
        "identifiers": {
            "product_codes": list(e.product_codes),
            "invoice_numbers": list(e.invoice_numbers),
            "contract_ids": list(e.contract_ids),
        },
        "retrieval_modes": modes,
        # A literal (quoted, not explanatory) question keeps only passages that contain its phrases.
        "filters": {"document_types": document_types,
                    **({"company_ids": [e.company_id]} if scoped is not None and e.company_id else {}),
                    **({"phrases": _phrases(inp)} if modes == [m for m in modes if m != "vector"] and _phrases(inp)
                       else {})},
        "limit": 5,
    }


def _text_modes(inp: PlanInput) -> list[str]:
    modes = []
    has_ids = bool(inp.entities.product_codes or inp.entities.invoice_numbers or inp.entities.contract_ids)
    if has_ids:
        modes.append("exact")
    if "lexical" in inp.intents and "semantic" not in inp.intents and inp.reading.quoted:
        # A quoted phrase is to be found literally: a vector neighbour that lacks it does not "mention" it.
        modes.append("bm25")
        return modes
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
    breakdown: dict[str, Any] = {
        **({"group_by": list(inp.group_by)} if inp.group_by else {}),
        **({"grain": inp.grain} if inp.grain else {}),
    }
    groups = [*inp.group_by, *([inp.grain] if inp.grain else [])]
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
                arguments={"company_id": _ref("resolve-company", "company_id"), "start_date": start, "end_date": end,
                           "as_of": inp.as_of.isoformat()},
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
        # (a set of groups, "sensors or loggers", filters the company's spend by all of them below; the catalogue
        # lookup takes one group's name, so its product list would name the first group's products only)
        listed = not (e.product_group_ids and supplier_source is None and inp.group_ids)
        steps.extend([] if not listed else [
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
        ])
        if supplier_source is None and inp.group_ids:
            # Design note: no supplier set was asked for, so no supplier coverage is checked: the catalogue's
            # suppliers of the group are not a set the user named, and one without lines bought nothing. The
            # company's spend filtered to the group and its subgroups; a group without products matches no line,
            # which is "no data", never the unfiltered company total.
            steps.append(
                PlanStep(
                    step_id="calculate-spend",
                    tool="finance.company_spend",
                    depends_on=("resolve-company",),
                    arguments={**common, **breakdown, "product_group_ids": list(inp.group_ids)},
                    purpose=f"Governed SQL total of the company on {e.product_group} and its subgroups "
                    "(finance.company_spend, no supplier coverage asked).",
                )
            )
        else:
            spend_deps.append("find-products")
            steps.append(
                PlanStep(
                    step_id="calculate-spend",
                    tool="finance.aggregate_spend",
                    depends_on=tuple(spend_deps),
                    arguments={
                        **common,
                        **breakdown,
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
                arguments={**common, **breakdown, "supplier_ids": supplier_source,
                           "product_codes": list(e.product_codes) or None},
                purpose="Governed SQL total over validated invoice lines (finance.aggregate_spend).",
            )
        )
    else:
        steps.append(
            PlanStep(
                step_id="calculate-spend",
                tool="finance.company_spend",
                depends_on=("resolve-company",),
                arguments={**common, **breakdown,
                           **({"product_codes": list(e.product_codes)} if e.product_codes else {})},
                purpose="Governed SQL total of the company over all suppliers (finance.company_spend)"
                + (f", and the same metric grouped by {', '.join(groups)}." if groups else "."),
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


def _metric_steps(inp: PlanInput, kind: MetricKind) -> list[PlanStep] | None:
    """The steps of a non-spend metric, or ``None`` when the question lacks a parameter the metric needs."""
    e = inp.entities
    steps: list[PlanStep] = []
    company: Any = None
    currency: Any = inp.constraints.reporting_currency
    deps: tuple[str, ...] = ()
    if e.company_id is not None:
        steps.append(PlanStep(
            step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": e.company_id},
            purpose=f"Resolve {e.company_name or e.company_id} to its canonical id and reporting currency.",
        ))
        company = _ref("resolve-company", "company_id")
        currency = _ref("resolve-company", "reporting_currency")
        deps = ("resolve-company",)
    statuses = list(inp.constraints.invoice_status)
    tr = inp.constraints.time_range
    calc: list[PlanStep] = []
    if kind == "unit_price":
        month = _single_month(inp)
        if month is None:
            return None
        for i, code in enumerate(e.product_codes[:5], start=1):
            calc.append(PlanStep(
                step_id=f"calculate-unit-price-{i}", tool="catalog.unit_price", depends_on=deps,
                arguments={"product_code": code, "month": month, "company_id": company,
                           "invoice_statuses": statuses, "reporting_currency": currency},
                purpose=f"Governed average net unit price of {code} in {month} (catalog.unit_price).",
            ))
    elif kind == "tax_total":
        calc.append(PlanStep(
            step_id="calculate-tax", tool="finance.tax_total", depends_on=deps,
            arguments={"invoice_numbers": list(e.invoice_numbers), "company_id": company,
                       "invoice_statuses": statuses, "reporting_currency": currency},
            purpose="Governed tax total across the named invoices (finance.tax_total).",
        ))
    elif kind == "units_purchased":
        if tr is None:
            return None
        for i, supplier in enumerate(e.supplier_ids[:5], start=1):
            calc.append(PlanStep(
                step_id=f"calculate-units-{i}", tool="finance.units_purchased", depends_on=deps,
                arguments={"supplier_id": supplier, "start_date": tr.start.isoformat(), "end_date": tr.end.isoformat(),
                           "company_id": company, "invoice_statuses": statuses},
                purpose=f"Governed units purchased from {supplier} (finance.units_purchased).",
            ))
    elif kind == "invoices_above_threshold":
        threshold = inp.reading.threshold
        if tr is None or threshold is None:
            return None
        amount, named_currency = threshold
        upper = inp.reading.upper_threshold
        reporting = inp.constraints.reporting_currency
        if named_currency is not None and reporting is not None and named_currency != reporting:
            return None  # a threshold in another currency would be compared against converted amounts
        if named_currency is not None and e.company_id is None:
            currency = named_currency
        calc.append(PlanStep(
            step_id="find-above-threshold", tool="finance.invoices_above_threshold", depends_on=deps,
            arguments={"threshold": amount, "start_date": tr.start.isoformat(), "end_date": tr.end.isoformat(),
                       "company_id": company, "invoice_statuses": statuses, "reporting_currency": currency,
                       **({"inclusive": True} if inp.reading.threshold_inclusive else {}),
                       **({"direction": "below"} if inp.reading.threshold_direction == "below" else {}),
                       **({"supplier_ids": list(e.supplier_ids)} if e.supplier_ids else {}),
                       # "over 5k, excl Helix": the suppliers left out (router/routing.py asks about any other
                       # exclusion, a group's or a product's, which an invoice's grand total cannot leave out)
                       **({"exclude_supplier_ids": list(excluded)}
                          if (excluded := inp.reading.excluded_supplier_ids) else {}),
                       # "between 5k and 10k EUR": the range's upper bound (its lower one is the threshold).
                       **({"upper_threshold": upper[0], "upper_inclusive": upper[1]} if upper else {}),
                       # "the invoices billed in USD" (router/routing.py asks about any other currency reading)
                       **({"document_currency": issued} if (issued := inp.reading.analysis.document_currency)
                          else {})},
            purpose=f"Governed list of invoices with a grand total {'at or ' * inp.reading.threshold_inclusive}"
                    f"{inp.reading.threshold_direction} {amount}"
                    + (f" and at or below {upper[0]}" if upper else "") + " (finance.invoices_above_threshold).",
        ))
    else:
        return None
    steps.extend(calc)
    check_deps = [c.step_id for c in calc]
    if inp.wants_documents:
        steps.append(PlanStep(
            step_id="retrieve-documents", tool="documents.search",
            arguments=_search_args(inp, modes=_text_modes(inp), query_text=inp.reading.text_part,
                                   document_types=[]),
            purpose="The document part of the question (explanation / requirements).",
        ))
        check_deps.append("retrieve-documents")
    steps.append(_check(check_deps))
    return steps


def plan(inp: PlanInput) -> tuple[Workflow, tuple[PlanStep, ...]]:
    """The workflow and its steps for routed, unambiguous input.

    Raises:
        PlanError: the resulting plan violates the DAG rules (a bug, never user input).
    """
    e = inp.entities
    steps: list[PlanStep]
    workflow: Workflow
    if inp.reading.cues.personal_data_only:
        # Design note: refused before any tool runs, whatever the intents; bank and contact data never leave.
        return "unsupported", ()
    if inp.catalog_metric is not None:
        parameters = dict(inp.catalog_parameters or {})
        steps = [
            PlanStep(
                step_id="calculate-metric",
                tool="metrics.query",
                arguments={"metric": inp.catalog_metric, "parameters": dict(parameters),
                           "group_by": list(inp.group_by), "grain": inp.grain},
                purpose=f"Governed metric {inp.catalog_metric} with the question's parameters (metrics.query).",
            ),
        ]
        if (inp.catalog_metric == DOCUMENT_CURRENCY and "currency" in inp.group_by
                and not parameters.get("document_currency")):
            # Amounts in several invoice currencies are never added; the total beside them is the reporting
            # currency's, computed by the governed company metric over the same lines (the per-currency rows
            # are rounded, so their sum is not the exact total).
            steps.append(PlanStep(
                step_id="calculate-reporting-total",
                tool="metrics.query",
                arguments={"metric": COMPANY_SPEND, "parameters": parameters, "group_by": [],
                           "grain": None},
                purpose="The same lines' total in the reporting currency (finance.company_spend).",
            ))
        steps.append(_check([s.step_id for s in steps]))
        validate_plan(steps)
        return "metric", tuple(steps)
    kind = inp.reading.measure if (inp.spend or inp.other_metric) else None
    if kind is not None:
        metric_steps = _metric_steps(inp, kind)
        if metric_steps is None:
            return "unsupported", ()
        validate_plan(metric_steps)
        return "metric", tuple(metric_steps)
    if inp.spend:
        steps, check_deps = _spend_steps(inp)
        # an open total the question does not say the documents of: the invoices-only reading beside it
        steps = with_invoices_only_step(inp.reading.text, steps)
        workflow = "spend"
        if inp.wants_documents:
            steps.append(
                PlanStep(
                    step_id="retrieve-documents",
                    tool="documents.search",
                    arguments=_search_args(
                        inp, modes=_text_modes(inp), query_text=inp.reading.text, document_types=["agreement"]
                    ),
                    purpose="The document part of the question (summary / explanation).",
                )
            )
            check_deps.append("retrieve-documents")
            workflow = "spend_with_documents"
        steps.append(_check(check_deps))
    elif (
        "relationship" in inp.intents and (inp.approved or inp.reading.cues.approves)
        and e.company_id is not None
    ):
        start, end = _period(inp)
        steps = [
            PlanStep(step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": e.company_id},
                     purpose="Resolve the company."),
            PlanStep(
                step_id="find-approved-vendors",
                tool="graph.find_approved_vendors",
                depends_on=("resolve-company",),
                arguments={"company_id": _ref("resolve-company", "company_id"), "start_date": start, "end_date": end,
                           "as_of": inp.as_of.isoformat()},
                purpose="Suppliers whose approval overlaps the period.",
            ),
        ]
        check = ["find-approved-vendors"]
        if e.product_group is not None:
            # "Suppliers approved for <group>": the approved vendors that supply a product under the group.
            steps.append(PlanStep(
                step_id="find-products", tool="catalog.find_products", depends_on=("find-approved-vendors",),
                arguments={"supplier_ids": _ref("find-approved-vendors", "supplier_ids"),
                           "group_name": e.product_group},
                purpose=f"Products under {e.product_group} (PART_OF*0..3) supplied by the approved vendors.",
            ))
            check.append("find-products")
        steps.append(_check(check))
        workflow = "approved_vendors"
    elif inp.other_metric and not (inp.intents & {"semantic", "lexical"}):
        # A figure no governed metric computes; text questions that merely mention numbers still get a search.
        return "unsupported", ()
    elif (
        "relationship" in inp.intents and e.supplier_ids and e.product_group is None and e.company_id is None
        and inp.reading.cues.products
    ):
        steps = [
            PlanStep(
                step_id="find-products",
                tool="catalog.find_products",
                arguments={"supplier_ids": list(e.supplier_ids), "group_name": None},
                purpose="Products the named suppliers supply, under every root group (PART_OF*0..3).",
            ),
            _check(["find-products"]),
        ]
        workflow = "catalog_products"
    elif (
        (e.product_codes or e.invoice_numbers or e.contract_ids or e.supplier_ids or e.company_id)
        and inp.intents <= {"exact_lookup"}
    ):
        # Supplier and company ids have no exact-index key: their master-data passages are found by BM25 on the
        # id itself, still in one step.
        keyed = bool(e.product_codes or e.invoice_numbers or e.contract_ids)
        steps = [
            PlanStep(
                step_id="lookup-identifier",
                tool="documents.search",
                arguments=_search_args(inp, modes=["exact"] if keyed else ["bm25"], query_text=inp.reading.text,
                                       document_types=[]),
                purpose="Identifier lookup (one step).",
            )
        ]
        workflow = "identifier_lookup"
    elif "relationship" in inp.intents and e.product_group is not None and not (inp.intents & {"semantic", "lexical"}):
        # Every constraint of the reading: the named suppliers (when any) within the group and its subgroups.
        suppliers = list(e.supplier_ids) or list(inp.all_supplier_ids)
        steps = [
            PlanStep(
                step_id="find-products",
                tool="catalog.find_products",
                arguments={"supplier_ids": suppliers, "group_name": e.product_group},
                purpose=f"Products under {e.product_group} (PART_OF*0..3)"
                + (f" supplied by {', '.join(e.supplier_ids)}." if e.supplier_ids else "."),
            ),
            _check(["find-products"]),
        ]
        workflow = "catalog_products"
    else:
        steps = [
            PlanStep(
                step_id="retrieve-documents",
                tool="documents.search",
                arguments=_search_args(inp, modes=_text_modes(inp), query_text=inp.reading.text, document_types=[]),
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
