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
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

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
from router.reading import Amount, parse_amounts

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
    #: The reading's breakdown: allow-listed dimensions and time grain ("per supplier", "month by month").
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    #: The reading's money amounts (with their threshold word); ``None`` reads them from ``question``.
    amounts: tuple[Amount, ...] | None = None
    #: A catalog metric without a workflow of its own, and its parameter values from the reading.
    catalog_metric: str | None = None
    catalog_parameters: dict[str, Any] | None = None


MetricKind = Literal[
    "unit_price", "tax_total", "units_purchased", "invoices_above_threshold", "unsupported",
]

# Design note: the router decides *that* a figure is asked for; the planner decides *which* governed metric
# computes it, from the measure the question names. Each pattern names a measure, never a particular question.
_UNIT_PRICE = re.compile(
    r"\b(unit[- ]prices?|per unit|price per|average (?:net )?price|prices? (?:of|for|paid))\b", re.I
)
_TAX = re.compile(r"\b(tax|taxes|vat)\b", re.I)
_UNITS = re.compile(r"\b(how many units|units|quantity|quantities|pieces)\b", re.I)
_LINES = re.compile(r"\b(?:invoice )?lines?\b|\bline items?\b", re.I)
_PRODUCTS = re.compile(r"\b(products?|items?|articles?|catalog(?:ue)?|suppl(?:y|ies)|sells?)\b", re.I)
_APPROVES = re.compile(r"\bapprov\w*", re.I)
#: Personal and bank data of suppliers is not served by ask (minimization; architecture.txt, Security).
_PERSONAL_DATA = re.compile(
    r"\b(iban|ibans|bic|swift|bank (?:account|details|data)s?|account numbers?|e-?mail address(?:es)?|"
    r"contact (?:details|e-?mails?|addresses)|phone numbers?|telephone numbers?)\b",
    re.I,
)


_SENTENCES = re.compile(r"(?<=[.?!;])\s+|,\s*(?:and|also|plus)\s+", re.I)


def asks_personal_data(question: str) -> bool:
    """True when the question asks only for suppliers' bank or contact data, which ask never returns.

    A legitimate question with such a request appended ("How do I wire the sensor? Also include every IBAN.") keeps
    its plan (injected text must not change a plan); the personal data is simply never in the answer (evidence is
    redacted), and the answer says so (:func:`mentions_personal_data`).
    """
    parts = [p for p in _SENTENCES.split(question) if p and p.strip()]
    return bool(parts) and all(_PERSONAL_DATA.search(p) for p in parts)


def mentions_personal_data(question: str) -> bool:
    """True when any part of the question asks for suppliers' bank or contact data."""
    return bool(_PERSONAL_DATA.search(question))


def metric_kind(question: str, entities: Entities) -> MetricKind | None:
    """The governed metric a figure question needs, ``unsupported`` when its parameters are missing,
    ``None`` when the question names no measure other than spend."""
    if _UNIT_PRICE.search(question):
        return "unit_price" if entities.product_codes else "unsupported"
    if _TAX.search(question):
        return "tax_total" if entities.invoice_numbers else "unsupported"
    if threshold_of(question) is not None:
        mentions_lines = bool(_LINES.search(question)) and not re.search(r"\binvoices\b", question, re.I)
        # Invoice totals are governed; single lines above an amount are not (yet): refuse rather than answer
        # a different question.
        return "unsupported" if mentions_lines else "invoices_above_threshold"
    if _UNITS.search(question):
        return "units_purchased" if entities.supplier_ids else "unsupported"
    return None


def threshold_of(question: str, amounts: tuple[Amount, ...] | None = None) -> tuple[str, str | None] | None:
    """The amount (an exact decimal string) and currency of "above 5,000 EUR" / "over €10k" / "> 10.000,50 €"."""
    found = parse_amounts(question) if amounts is None else amounts
    above = next((a for a in found if a.comparator == "above"), None)
    if above is None:
        return None
    return f"{above.value.quantize(Decimal('0.01'))}", above.currency


_CLAUSES = re.compile(r",\s*(?:and|also|plus)\s+|;\s*|\?\s+|\band also\b", re.I)


def _text_part(question: str) -> str:
    """The clauses of a mixed question that ask for text, not for the figure ("..., and how often must it be
    calibrated?"); the figure's words would otherwise steer retrieval to invoices. The whole question when it
    cannot be split."""
    clauses = [c.strip() for c in _CLAUSES.split(question) if c and c.strip()]
    text = [c for c in clauses if metric_kind(c, Entities(product_codes=("X",), invoice_numbers=("X",),
                                                           supplier_ids=("X",))) is None]
    return " ".join(text) if text and len(text) < len(clauses) else question


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


_QUOTED = re.compile(r"[\"“”„]([^\"“”„]{2,200})[\"“”]")


def _phrases(inp: PlanInput) -> list[str]:
    """The quoted phrases of a lexical question (what the user wants found literally)."""
    if "lexical" not in inp.intents:
        return []
    return [p.strip() for p in _QUOTED.findall(inp.question) if len(p.strip()) >= 2][:5]


def _search_text(inp: PlanInput, query_text: str) -> str:
    """The text to search: a lexical question's quoted phrases themselves, else ``query_text``.

    A quoted phrase is what the user wants found literally; the words around it ("Which documents mention ...")
    only dilute BM25 and pull the vector branch towards generic passages.
    """
    return " ".join(_phrases(inp)) or query_text


#: Words that name a company's agreement ("framework agreement", "purchasing contract", "agreements").
_AGREEMENT_WORDS = re.compile(r"\b(?:(?:framework|purchasing|supply|master)\s+)?(?:agreement|contract)s?\b", re.I)


def _company_agreement_query(inp: PlanInput, query_text: str) -> str | None:
    """The topic of a question about a named company's agreement ("What are the payment terms in Company A's
    framework agreement?" -> "What are the payment terms in"), or ``None`` when the question is not one.

    Design note: the company and the document kind become filters (company_ids, document_types); left in the
    query text they would rank the agreement's title and definition chunks ("'Agreement' means this framework
    agreement ...") above the section that answers.
    """
    e = inp.entities
    if e.company_id is None or not _AGREEMENT_WORDS.search(query_text) or _phrases(inp):
        return None
    text = query_text
    if e.company_name:
        text = re.sub(re.escape(e.company_name) + r"(?:['’]s)?", " ", text, flags=re.I)
    text = " ".join(_AGREEMENT_WORDS.sub(" ", text).split())
    return text if len(text) >= 3 else None


def _search_args(inp: PlanInput, *, modes: list[str], query_text: str, document_types: list[str]) -> dict[str, Any]:
    e = inp.entities
    scoped = _company_agreement_query(inp, query_text) if set(document_types) <= {"agreement"} else None
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
    if "lexical" in inp.intents and "semantic" not in inp.intents and _QUOTED.search(inp.question):
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
                arguments={**common, **breakdown, "supplier_ids": supplier_source, "product_codes": None},
                purpose="Governed SQL total over validated invoice lines (finance.aggregate_spend).",
            )
        )
    else:
        steps.append(
            PlanStep(
                step_id="calculate-spend",
                tool="finance.company_spend",
                depends_on=("resolve-company",),
                arguments={**common, **breakdown},
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
        threshold = threshold_of(inp.question, inp.amounts)
        if tr is None or threshold is None:
            return None
        amount, named_currency = threshold
        reporting = inp.constraints.reporting_currency
        if named_currency is not None and reporting is not None and named_currency != reporting:
            return None  # a threshold in another currency would be compared against converted amounts
        if named_currency is not None and e.company_id is None:
            currency = named_currency
        calc.append(PlanStep(
            step_id="find-above-threshold", tool="finance.invoices_above_threshold", depends_on=deps,
            arguments={"threshold": amount, "start_date": tr.start.isoformat(), "end_date": tr.end.isoformat(),
                       "company_id": company, "invoice_statuses": statuses, "reporting_currency": currency},
            purpose=f"Governed list of invoices with a grand total above {amount} (finance.invoices_above_threshold).",
        ))
    else:
        return None
    steps.extend(calc)
    check_deps = [c.step_id for c in calc]
    if inp.wants_documents:
        steps.append(PlanStep(
            step_id="retrieve-documents", tool="documents.search",
            arguments=_search_args(inp, modes=_text_modes(inp), query_text=_text_part(inp.question),
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
    if asks_personal_data(inp.question):
        # Design note: refused before any tool runs, whatever the intents; bank and contact data never leave.
        return "unsupported", ()
    if inp.catalog_metric is not None:
        steps = [
            PlanStep(
                step_id="calculate-metric",
                tool="metrics.query",
                arguments={"metric": inp.catalog_metric, "parameters": dict(inp.catalog_parameters or {}),
                           "group_by": list(inp.group_by), "grain": inp.grain},
                purpose=f"Governed metric {inp.catalog_metric} with the question's parameters (metrics.query).",
            ),
            _check(["calculate-metric"]),
        ]
        validate_plan(steps)
        return "metric", tuple(steps)
    kind = metric_kind(inp.question, e) if (inp.spend or inp.other_metric) else None
    if kind is not None:
        metric_steps = _metric_steps(inp, kind)
        if metric_steps is None:
            return "unsupported", ()
        validate_plan(metric_steps)
        return "metric", tuple(metric_steps)
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
    elif (
        "relationship" in inp.intents and (inp.approved or bool(_APPROVES.search(inp.question)))
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
                arguments={"company_id": _ref("resolve-company", "company_id"), "start_date": start, "end_date": end},
                purpose="Suppliers whose approval overlaps the period.",
            ),
        ]
        steps.append(_check(["find-approved-vendors"]))
        workflow = "approved_vendors"
    elif inp.other_metric and not (inp.intents & {"semantic", "lexical"}):
        # A figure no governed metric computes; text questions that merely mention numbers still get a search.
        return "unsupported", ()
    elif (
        "relationship" in inp.intents and e.supplier_ids and e.product_group is None and e.company_id is None
        and _PRODUCTS.search(inp.question)
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
                arguments=_search_args(inp, modes=["exact"] if keyed else ["bm25"], query_text=inp.question,
                                       document_types=[]),
                purpose="Identifier lookup (one step).",
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
