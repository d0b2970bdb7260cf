"""Deterministic routing rules: identifier patterns and cue words, applied before the classifier.

A rule fires with a fixed confidence (:data:`RULE_CONFIDENCE`); the classifier can only add intents or raise a
confidence, never remove an intent a rule found. Identifiers are normalized the way the exact-match store
keeps them (``prd 482`` / ``PRD482`` -> ``PRD-482``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from router.contract import IntentType

#: How sure a rule is when it fires; an identifier pattern is the strongest signal there is.
RULE_CONFIDENCE: dict[str, float] = {
    "identifier": 0.97,
    "aggregation_words": 0.95,
    "relationship_words": 0.93,
    "explanatory_words": 0.9,
    "quoted_phrase": 0.85,
    "technical_phrase": 0.8,
}

_PRODUCT = re.compile(r"\bprd[\s_-]?(\d{3,6})\b", re.I)
_INVOICE = re.compile(r"\b(inv|cn)[\s_-]?(\d{4})[\s_-]?(\d{3,6})\b", re.I)
_CONTRACT = re.compile(r"\b(agreement|contract)[\s_-](\d{4})[\s_-](\d{2})\b", re.I)
_SUPPLIER_ID = re.compile(r"\bsup[\s_-]?(\d{1,6})\b", re.I)
_COMPANY_ID = re.compile(r"\bcomp[\s_-]([a-z0-9]{1,6})\b", re.I)
_DOCUMENT_ID = re.compile(r"\b(invoice|credit-note|manual-prd)-(\d{3,4}(?:-\d{3,6})?)\b", re.I)

_AGGREGATION = re.compile(
    r"\b(total|totals|sum|spend|spent|spending|expenditure|how much|how many|average|avg|mean|count|"
    r"amount|amounts|cost|costs|tax|taxes|grand total|per supplier|by supplier|unit price|price|units|"
    r"above|below|more than|less than|threshold|aggregate)\b",
    re.I,
)
_RELATIONSHIP = re.compile(
    r"\b(supplier|suppliers|vendor|vendors|approved|supplied by|supplies|customer|customers|dependency|"
    r"dependencies|owns|owned by|ownership|belongs to|related to|connected|relationship|who supplies|"
    r"which suppliers)\b",
    re.I,
)
_EXPLANATORY = re.compile(
    r"\b(explain|explains|explanation|why|summarize|summarise|summary|describe|describes|description|"
    r"what does .{1,60} say|risks?|conditions?|requirements?|terms|clauses?|obligations?|how does|how do|"
    r"how to|procedure|instructions?|steps?|guidance|overview|compare|comparison|difference)\b",
    re.I,
)
_QUOTED = re.compile(r"[\"“”']([^\"“”']{3,80})[\"“”']")
_TECHNICAL = re.compile(
    r"\b(calibration|differential pressure|firmware|commissioning|installation|wiring|torque|ip\d{2}|"
    r"selv|span|tolerance|accuracy|warranty|liability|termination|indemnit\w*|force majeure|"
    r"service bulletin|maintenance interval)\b",
    re.I,
)


@dataclass(frozen=True)
class Identifiers:
    """Identifiers written in the question, normalized."""

    product_codes: tuple[str, ...] = ()
    invoice_numbers: tuple[str, ...] = ()
    contract_ids: tuple[str, ...] = ()
    supplier_ids: tuple[str, ...] = ()
    company_ids: tuple[str, ...] = ()
    document_ids: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def any(self) -> bool:
        """True when the question names at least one identifier."""
        return bool(
            self.product_codes or self.invoice_numbers or self.contract_ids or self.supplier_ids
            or self.company_ids or self.document_ids
        )

    @property
    def lookup_keys(self) -> bool:
        """True when there is something an exact-match store can look up (products, invoices, contracts)."""
        return bool(self.product_codes or self.invoice_numbers or self.contract_ids or self.document_ids)


def _unique(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def find_identifiers(text: str) -> Identifiers:
    """Every identifier in ``text``, normalized (``prd 482`` -> ``PRD-482``, ``inv 2026 0148`` -> ``INV-2026-0148``).

    >>> find_identifiers("Explain calibration for prd482 and INV-2026-0148").product_codes
    ('PRD-482',)
    >>> find_identifiers("Explain calibration for prd482 and INV-2026-0148").invoice_numbers
    ('INV-2026-0148',)
    """
    spans: list[tuple[int, int]] = []

    def collect(pattern: re.Pattern[str], render: object) -> list[str]:
        out: list[str] = []
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in spans):
                continue
            spans.append(m.span())
            out.append(render(m))  # type: ignore[operator]  # render is a callable taking the match
        return out

    documents = collect(_DOCUMENT_ID, lambda m: f"{m.group(1).lower()}-{m.group(2)}")
    contracts = collect(_CONTRACT, lambda m: f"agreement-{m.group(2)}-{m.group(3)}")
    invoices = collect(_INVOICE, lambda m: f"{m.group(1).upper()}-{m.group(2)}-{m.group(3)}")
    products = collect(_PRODUCT, lambda m: f"PRD-{m.group(1)}")
    suppliers = collect(_SUPPLIER_ID, lambda m: f"SUP-{m.group(1)}")
    companies = collect(_COMPANY_ID, lambda m: f"COMP-{m.group(1).upper()}")
    return Identifiers(
        product_codes=_unique(products),
        invoice_numbers=_unique(invoices),
        contract_ids=_unique(contracts),
        supplier_ids=_unique(suppliers),
        company_ids=_unique(companies),
        document_ids=_unique(documents),
        spans=tuple(sorted(spans)),
    )


def mask(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """``text`` with the given spans blanked out (so ``agreement-2026-04`` is not read as a month)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


@dataclass(frozen=True)
class RuleHit:
    """One rule that fired: the intent it selects, its confidence and the words that triggered it."""

    rule: str
    intent: IntentType
    confidence: float
    evidence: str


def apply_rules(text: str, identifiers: Identifiers) -> tuple[RuleHit, ...]:
    """The deterministic intent rules, in a fixed order."""
    hits: list[RuleHit] = []
    if identifiers.any:
        shown = [
            *identifiers.product_codes, *identifiers.invoice_numbers, *identifiers.contract_ids,
            *identifiers.supplier_ids, *identifiers.company_ids, *identifiers.document_ids,
        ]
        hits.append(RuleHit("identifier", "exact_lookup", RULE_CONFIDENCE["identifier"], ", ".join(shown)))
    masked = mask(text, identifiers.spans)
    for rule, intent, pattern in (
        ("aggregation_words", "aggregate", _AGGREGATION),
        ("relationship_words", "relationship", _RELATIONSHIP),
        ("explanatory_words", "semantic", _EXPLANATORY),
        ("technical_phrase", "lexical", _TECHNICAL),
    ):
        words = _unique([m.group(0).lower() for m in pattern.finditer(masked)])
        if words:
            hits.append(RuleHit(rule, intent, RULE_CONFIDENCE[rule], ", ".join(words)))  # type: ignore[arg-type]
    quoted = _QUOTED.findall(masked)
    if quoted:
        hits.append(RuleHit("quoted_phrase", "lexical", RULE_CONFIDENCE["quoted_phrase"], ", ".join(quoted)))
    return tuple(hits)
