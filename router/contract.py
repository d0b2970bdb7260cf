"""The routing output contract: what the router hands to the planner and executor.

A :class:`RoutingResult` says which retrieval intents a question needs (each with a calibrated confidence), the
entities and constraints found in it, whether it must stop for a clarification, the authorization context the
application injected, and the execution plan. Every model is frozen; money never appears here.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from procura.db.session import AuthContext

IntentType = Literal["exact_lookup", "lexical", "semantic", "aggregate", "relationship"]
INTENT_TYPES: tuple[IntentType, ...] = ("exact_lookup", "lexical", "semantic", "aggregate", "relationship")

ToolName = Literal[
    "entity.resolve_company",
    "graph.find_approved_vendors",
    "catalog.find_products",
    "finance.aggregate_spend",
    "finance.company_spend",
    "finance.tax_total",
    "finance.units_purchased",
    "finance.invoices_above_threshold",
    "catalog.unit_price",
    "catalog.list_price",
    "metrics.query",
    "documents.search",
    "validation.check_completeness",
]
#: The allowed-tool list: the executor refuses any other name, whatever a plan says.
ALLOWED_TOOLS: tuple[ToolName, ...] = (
    "entity.resolve_company",
    "graph.find_approved_vendors",
    "catalog.find_products",
    "finance.aggregate_spend",
    "finance.company_spend",
    "finance.tax_total",
    "finance.units_purchased",
    "finance.invoices_above_threshold",
    "catalog.unit_price",
    "catalog.list_price",
    "metrics.query",
    "documents.search",
    "validation.check_completeness",
)

CanonicalId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$")]
StepId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]{0,62}$")]
CurrencyCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
InvoiceStatus = Literal["draft", "posted", "paid", "cancelled"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class _Frozen(BaseModel):
    model_config = _FROZEN


class IntentScore(_Frozen):
    """One selected (or rejected) intent with its calibrated confidence and what produced it."""

    type: IntentType
    confidence: float = Field(ge=0.0, le=1.0)
    source: Literal["rule", "classifier", "rule+classifier"]
    selected: bool = True


class TimeRange(_Frozen):
    """A half-open period ``[start, end)`` with the words it was resolved from."""

    start: dt.date
    end: dt.date
    label: str = Field(description="How the period reads, e.g. 2026-Q1 or 2026-03.")
    source_text: str = Field(default="", description="The words of the question that named the period.")

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.end <= self.start:
            raise ValueError(f"time_range: end {self.end} must be after start {self.start}")
        return self


class Constraints(_Frozen):
    """Hard constraints the plan must honour."""

    time_range: TimeRange | None = None
    invoice_status: tuple[InvoiceStatus, ...] = ("posted", "paid")
    reporting_currency: CurrencyCode | None = None
    document_types: tuple[str, ...] = ()


class Entities(_Frozen):
    """What the question names, resolved to canonical ids where the alias table allows it."""

    company_name: str | None = None
    company_id: CanonicalId | None = None
    supplier_names: tuple[str, ...] = ()
    supplier_ids: tuple[CanonicalId, ...] = ()
    product_codes: tuple[CanonicalId, ...] = ()
    invoice_numbers: tuple[CanonicalId, ...] = ()
    contract_ids: tuple[CanonicalId, ...] = ()
    product_group: str | None = None
    product_group_id: CanonicalId | None = None
    #: Every group of a set the question adds up ("sensors or cables", "Temperature + Flow Sensors"), the first being
    #: ``product_group_id``; empty for one group. Each counts with its subgroups (router/set_words.py).
    product_group_ids: tuple[CanonicalId, ...] = ()


class AuthorizationContextModel(_Frozen):
    """The authenticated context, injected by the application (never parsed from the question)."""

    tenant_id: str
    principal_id: str
    scopes: tuple[str, ...]

    @classmethod
    def from_auth(cls, ctx: AuthContext) -> AuthorizationContextModel:
        """The contract form of an :class:`AuthContext`."""
        return cls(tenant_id=ctx.tenant_id, principal_id=ctx.principal_id, scopes=tuple(sorted(ctx.scopes)))


class Ref(_Frozen):
    """An argument taken from an upstream step's typed output: ``step`` must be in ``depends_on``."""

    ref: StepId = Field(alias="$ref")
    field: Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,62}$")]

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PlanStep(_Frozen):
    """One typed tool call of the plan DAG."""

    step_id: StepId
    tool: ToolName
    depends_on: tuple[StepId, ...] = ()
    arguments: dict[str, Any] = Field(default_factory=dict)
    purpose: str = ""

    @model_validator(mode="after")
    def _refs_are_dependencies(self) -> PlanStep:
        for name, value in self.arguments.items():
            for ref in _refs(value):
                if ref.ref not in self.depends_on:
                    raise ValueError(f"argument {name!r} reads step {ref.ref!r}, which is not in depends_on")
        return self


def _refs(value: Any) -> list[Ref]:
    if isinstance(value, Ref):
        return [value]
    if isinstance(value, dict):
        return [r for v in value.values() for r in _refs(v)]
    if isinstance(value, list | tuple):
        return [r for v in value for r in _refs(v)]
    return []


Workflow = Literal[
    "clarification",
    "identifier_lookup",
    "spend",
    "approved_vendors",
    "document_answer",
    "spend_with_documents",
    "catalog_products",
    "catalog_list_price",
    "metric",
    "unsupported",
    "invoice_count",
    "figure_with_document",
    "unit_price",
    "spend_threshold",
    "status_documents",
    "duplicate_documents",
    "document_amounts",
    "credit_note_origin",
    "overdue_invoices",
    "first_time_suppliers",
    "inactive_suppliers",
    "invoice_extreme",
]


class RoutingResult(_Frozen):
    """The router's decision for one question (the seed's routing contract)."""

    question: str
    as_of: dt.date
    intents: tuple[IntentScore, ...]
    confidence: float = Field(ge=0.0, le=1.0)
    requires_clarification: bool
    clarification_question: str | None = None
    clarification_reasons: tuple[str, ...] = ()
    entities: Entities
    constraints: Constraints
    authorization_context: AuthorizationContextModel
    workflow: Workflow
    execution_plan: tuple[PlanStep, ...] = ()
    rule_hits: tuple[str, ...] = ()
    #: The reading restated: company, suppliers, group and its subgroups, period as dates (for the answer text).
    interpretation: str = ""
    #: The question asks for suppliers' bank or contact data ("only": nothing else; "mentioned": among others).
    personal_data: Literal["only", "mentioned"] | None = None
    #: The question asks which agreement approves the suppliers it names (answered for those suppliers only).
    named_suppliers_only: bool = False
    #: The question asks for the approved vendors without spend in the period (router/idle_vendors.py): the plan is
    #: the approved vendors' spend, the answer lists those of them with no counted line.
    idle_vendors: bool = False
    #: Clauses of the question addressed to the system (instructions, SQL, claims about approvals): set aside
    #: before reading, never followed, and named back in the answer.
    set_aside: tuple[str, ...] = ()
    #: Content words of the question no reader consumed and no word list knows (router/unread_words.py): the answer
    #: names them as not understood and a figure is marked partial, never presented as complete.
    unread: tuple[str, ...] = ()
    #: Words left where the figure's name stands that named no figure (router/default_measure.py): read as the
    #: default figure (``assumed_figure``), the answer says so and a figure is marked partial naming them.
    assumed_measure: tuple[str, ...] = ()
    assumed_figure: str = ""

    @model_validator(mode="after")
    def _clarification_stops_execution(self) -> RoutingResult:
        if self.requires_clarification and (self.execution_plan or not self.clarification_question):
            raise ValueError("a clarification needs a question and no execution plan")
        return self

    @property
    def selected_intents(self) -> tuple[IntentType, ...]:
        """The intents the plan must serve."""
        return tuple(i.type for i in self.intents if i.selected)


_QUESTION_MAX = 2000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


#: A currency written as a word with its code after it ("dollar (USD) invoices", "Swiss franc (CHF)"): one currency.
_CURRENCY_TWICE = re.compile(
    r"\b(?P<word>(?:US[- ]?)?dollars?|(?:Swiss\s+)?francs?|(?:British\s+)?pounds?(?:\s+sterling)?|sterling|euros?)"
    r"\s*\(\s*(?P<code>USD|CHF|GBP|EUR)\s*\)", re.I)
_WORD_CODES = (("dollar", "USD"), ("franc", "CHF"), ("pound", "GBP"), ("sterling", "GBP"), ("euro", "EUR"))


#: "ccy" / "ccys", the treasury shorthand for currency: the word every currency reader knows.
_CCY = re.compile(r"\bccy(?P<plural>s)?\b", re.I)


def _one_spelling(match: re.Match[str]) -> str:
    word, code = match.group("word").lower(), match.group("code").upper()
    same = any(w in word and c == code for w, c in _WORD_CODES)
    return code if same else match.group(0)  # a word and a code that disagree stay as written (asked about)


def clean_question(text: str) -> str:
    """The question with control characters removed and whitespace collapsed.

    Raises:
        QuestionError: empty or longer than 2000 characters.
    """
    from router.count_asks import count_asks
    from router.document_asks import document_asks
    from router.document_words import document_words
    from router.errors import QuestionError
    from router.keyword_query import keyword_style
    from router.layout_words import read_layout
    from router.period_bounds import read_period_bounds
    from router.spreadsheet_formulas import read_formulas
    from router.structured_asks import structured_ask
    from router.structured_notation import structured_style
    from router.tool_syntax import tool_style

    if not isinstance(text, str):
        raise QuestionError("question: must be text")
    cleaned = _CURRENCY_TWICE.sub(_one_spelling, " ".join(_CONTROL.sub(" ", text).split()))
    cleaned = _CCY.sub(lambda m: "currencies" if m.group("plural") else "currency", cleaned)
    # a search-bar query ("sum(gross) where supplier = 'Gamma' group by month", "cn count zeta 2025") and an agent's
    # parameters ("company_id=COMP-Y", "period [2026-01-01, 2026-04-01)") in the reader's phrasing; between them the
    # structured notation's aggregate calls, field names and dimension lists ("max(invoice gross)", "vat_amount",
    # "dims: company | metric: ...", "pivot supplier x month") in the readers' words (router/structured_notation.py)
    # "from=2025-11-01 to=2026-01-31", "invoice_date >= 2025-09-01 AND < 2025-11-01", "2026-01-01/2026-03-31": the
    # two bounds of one period as one range, before any reader takes each bound alone (router/period_bounds.py);
    # then a structured ask (key=value pairs, a JSON object, a call, a REST path, pipes), every other key read as
    # its slot's words (router/structured_asks.py)
    # spreadsheet formulas ("=SUMIFS(NetAmount, Vendor, "Orbis", Co, "Company B")", "=UNIQUE(Vendor)", "InvDate")
    # in the readers' words first, their criteria through the field and slot tables (router/spreadsheet_formulas.py);
    # then "category-wise summary", "pivot rows=Vendor", "InvMonth on rows": the rows of a breakdown named by their
    # layout, as the grouping the readers know, before a reader takes the header for a key (router/layout_words.py)
    cleaned = read_period_bounds(read_layout(read_formulas(cleaned)))
    cleaned = tool_style(structured_style(keyword_style(structured_ask(cleaned))))
    # "CNs", "credit memo", "docs": the clerk's shorthand in the words every reader knows (router/document_words.py)
    cleaned = document_words(cleaned)
    # "nr of invoices", "credit notes Ypsilon H2 25 #", "distinct vendors Company B FY25": counts and entity lists
    # in the count and listing readers' words (router/count_asks.py)
    cleaned = count_asks(cleaned)
    # "paid invoices Q4: count and EUR total", "invoices vs credit notes": the asks written out
    # (router/document_asks.py)
    cleaned = document_asks(cleaned)
    if not cleaned:
        raise QuestionError("question: must not be empty")
    if len(cleaned) > _QUESTION_MAX:
        raise QuestionError(f"question: at most {_QUESTION_MAX} characters (got {len(cleaned)})")
    return cleaned
