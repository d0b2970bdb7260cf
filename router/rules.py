"""Deterministic routing rules: identifier patterns and cue words, applied before the classifier.

A rule's intent is always selected; the classifier can add intents but never remove one a rule found. Without
the classifier a rule reports its fixed confidence (:data:`RULE_CONFIDENCE`); with it, the reported confidence
is the classifier's probability, calibrated with "this rule fired" as one of its inputs (router.classifier).

Identifiers are normalized the way the exact-match store keeps them (``prd 482`` / ``PRD482`` -> ``PRD-482``).
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
    "literal_search": 0.85,
    "technical_phrase": 0.8,
    "product_group_mention": 0.9,
}

_PRODUCT = re.compile(r"\bprd[\s_-]?(\d{3,6})\b", re.I)
#: A product code as written (group 1: its digits).
PRODUCT_CODE = _PRODUCT
_INVOICE = re.compile(r"\b(inv|cn)[\s_-]?(\d{4})[\s_-]?(\d{3,6})\b", re.I)
_CONTRACT = re.compile(r"\b(agreement|contract)[\s_-](\d{4})[\s_-](\d{2})\b", re.I)
_SUPPLIER_ID = re.compile(r"\bsup[\s_-]?(\d{1,6})\b", re.I)
#: "comp-a", "comp a"; never a measure after a space ("scroll comp 7kw": "comp" is the compressor cut short and
#: "7kw" its rating, a number with a unit is no company id)
_RATING = r"\d+(?:[.,]\d+)?\s?(?:kw|w|v|l|ml|mm|cm|m|in|bar|kg|g)\b"
COMPANY_ID = re.compile(rf"\bcomp(?:[_-]|\s(?!{_RATING}))([a-z0-9]{{1,6}})\b", re.I)
_DOCUMENT_ID = re.compile(r"\b(invoice|credit-note|manual-prd)-(\d{3,4}(?:-\d{3,6})?)\b", re.I)

# Design note: cue words are deliberately narrow. A rule's intent can never be removed by the classifier, so a
# cue that is merely *frequent* in one intent's questions (``supplier``, ``how much``, ``warranty``) turns
# into false positives on every other intent; those words are left to the classifier, which sees the context.
_HOW_MUCH = (
    # "how much did/was/money ..." asks for an amount; "how much notice/insurance ..." asks about a document.
    r"how much(?=\s+(?:did|do|does|was|were|is|are|has|have|had|will|would|should|could|money|tax|vat|"
    r"spend|spent|we|in|on|for|altogether|overall|"
    # "how much went to approved vendors", "how much flowed to Beta": money that went to someone
    r"went|goes|flowed|flows|was\s+paid|got\s+paid)\b|\s*[?.!]?\s*$)"
)
_THRESHOLD = (
    # A threshold is an aggregate filter only when it is followed by an amount of money ("above 5,000 EUR").
    r"(?:above|below|over|under|more than|less than|north of|south of|up to|at most|at least|no more than|"
    r"exceed(?:s|ed|ing)?)\s+(?:[€$£]\s?)?\d[\d,.]*\s*"
    r"(?:k\b\s*)?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|€|\$|£)"
    r"|(?:above|below|over|under|more than|less than|north of|south of|up to|at most|at least|no more than|"
    r"exceed(?:s|ed|ing)?)\s+"
    r"(?:[€$£]|eur|usd|gbp|chf)\s?\d+"
    r"(?:[\d,.']*\d)?k?"
    # An amount range ("between 5k and 10k EUR", "from €1,000 to €5,000"): money on its upper bound.
    r"|(?:between|from)\s+(?:(?:[€$£]|eur|usd|gbp|chf)\s?)?\d[\d,.']*\s*(?:k\b\s*)?(?:eur\s+|€\s*)?(?:and|to|-)\s+"
    r"(?:(?:[€$£]|eur|usd|gbp|chf)\s?)?"
    r"\d[\d,.']*\s*(?:k\b\s*)?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|€|\$|£)"
    r"|(?:between|from)\s+(?:[€$£]|eur|usd|gbp|chf)\s?\d[\d,.']*\s*k?\s+(?:and|to|-)\s+(?:[€$£]|eur|usd|gbp|chf)\s?"
    r"\d+(?:[\d,.']*\d)?k?"
)
_AGGREGATION = re.compile(
    rf"\b(total|totals|sum|spend|spent|spending|expenditure|{_HOW_MUCH}|"
    # "how many days/weeks ..." asks for a duration a document states
    r"how many(?!\s+(?:days|weeks|months|years|hours|minutes|times))|average|avg|mean|count|"
    # "amt" is how analysts abbreviate "amount" ("amt paid to Beta"); "our bill with Beta", "expenses with Beta"
    # name the invoiced spend ("bill of materials/lading" is a document's topic).
    r"amount|amounts|amt|bill(?!\s+of\b)|bills|expenses|"
    # "what did Company A pay Beta", "purchases from Beta": the invoiced spend ("pay terms", "purchase orders"
    # are document topics)
    # ("how do we pay Beta?" asks about a payment method: only "did ... pay" is an amount)
    r"did\s[\w\s'’.-]{1,50}?\bpay(?!\s+(?:terms?|attention)\b)|purchases(?!\s+orders?\b)|"
    # "share of wallet", "the value of our unpaid invoices", "how many times did Beta invoice us": figures
    # "what share of Alpenland's H2 was sensors", "percentage of Q1 on cables": a part of the spend (never the
    # catalogue's list of the group named in it)
    # ("share of it": a part of the figure said before, read by the compound reader)
    r"share of(?!\s+(?:it|that|this|them|those|these)\b)|wallet share|"
    r"(?:percent(?:age)?|pct)\s+of(?!\s+(?:it|that|this|them|those|these)\b)|"
    r"value of(?=\s+(?:[\w'’-]+\s+){0,4}?(?:invoices?|credit notes?|bills|spend)\b)|"
    r"how many times (?=(?:did|has|have)\b[^?.;!]{1,60}?\binvoiced?\b)|invoice volume|"
    r"expenditures|outlay|cost|costs|tax|taxes|grand total|"
    r"per supplier|by supplier|unit price|per unit|per company|by company|"
    # "Company B Q1 2026 by product group": a breakdown of the spend, not the group's membership
    r"(?:per|by|across)\s+(?:each\s+|all\s+|the\s+)?(?:top[- ]level\s+|main\s+|leaf\s+|lowest[- ]level\s+)?"
    r"(?:(?:product|material|catalog(?:ue)?)\s+)?(?:sub-?)?(?:groups?|categor(?:y|ies))|"
    # a price change/adjustment/index is a contract topic, not a price to look up
    r"price(?!\s+(?:change|changes|adjustments?|increases?|reviews?|escalation|clauses?|index))|units|"
    rf"{_THRESHOLD}|threshold|aggregate)(?!\w)"
    # "invoices < 1k EUR", ">= €5,000": a comparison symbol before money (no word boundary before a symbol)
    r"|(?<![\w<>=])[<>≤≥]=?\s*(?:[€$£]\s?)?\d[\d,.']*\s*(?:k\b\s*)?(?:eur|euros?|usd|gbp|chf|€|\$|£)",
    re.I,
)
_RELATIONSHIP = re.compile(
    # Only words that name a traversal of the graph: approvals, who supplies what, group membership, ownership.
    # "supplier"/"vendor" alone is not one ("spend with Supplier Beta" filters, "Who is SUP-18?" looks up).
    # ("approval threshold", "approval limit": a rule of an agreement, no traversal)
    r"\b(approv(?:e|es|ed|al(?!\s+(?:thresholds?|limits?|process|workflows?|rules?))|als|ing)|supplies|"
    r"supplied by|(?<!power\s)supply(?!\s+(?:agreements?|contracts?|"
    # "supply voltage" (a manual's fact) is no supplier traversal
    r"chains?|terms|voltages?|current|power|pressure))|"
    r"belongs? to|belonging to|subgroups?|sub-groups?|product groups?|owns|owned by|ownership|"
    r"related to|connected to|linked to|relationships?|dependenc(?:y|ies)|who makes|who sells|who delivers|"
    r"(?:which|what|list|all)\s+(?:suppliers|vendors)\s+(?:provide|sell|deliver|make|carry|offer|stock)\w*|"
    # "which temperature sensors does Beta Trading carry": a supplier's catalogue
    r"(?:which|what)\s+[\w\s'’-]{1,40}?\s(?:does|do|did)\s[\w\s'’.&-]{1,50}?\s(?:carry|stock|offer))\b",
    re.I,
)
_EXPLANATORY = re.compile(
    r"\b(explain|explains|explanation|why|summarize|summarise|summary|describe|describes|description|"
    r"what does .{1,60} say|risks?|conditions?|requirements?|terms|clauses?|obligations?|how does|how do|"
    r"how to|how often|how frequently|how long|procedure|"
    # "ignore previous instructions" is an injection idiom, not a request for documentation.
    r"(?<!previous\s)(?<!prior\s)(?<!all\s)(?<!above\s)instructions?|steps?|guidance|overview|compare|"
    r"comparison|difference)\b",
    re.I,
)
#: Quotation marks around a phrase; an apostrophe inside a word ("Company A's", "I'm") is not a quote.
# "'s " opens no quote: a possessive after a masked id ("COMP-A's spend ... the invoices' currencies").
_QUOTED = re.compile(r"[\"“„]([^\"“”„]{2,80})[\"”“]|(?<!\w)['‘](?![sS]\s)([^'‘’]{3,80})['’](?!\w)")
_TECHNICAL = re.compile(
    r"\b(calibration|differential pressure|firmware|commissioning|installation|wiring|torque|ip\d{2}|"
    r"selv|span|tolerance|accuracy|warranty|liability|termination|indemnit\w*|force majeure|"
    r"service bulletin|maintenance interval)\b",
    re.I,
)
#: The user asks for the literal wording: "mention", "containing", "the phrase", "search for" ...
_LITERAL_CUE = re.compile(
    r"\b(mention|mentions|mentioned|mentioning|contain|contains|containing|search(?:\s+for)?|verbatim|"
    r"literally|occurrences?|the (?:exact )?(?:phrase|term|wording|words)(?!\s+of\b)|where does it say|"
    r"(?:text|passages?|pages?) (?:about|with|on))\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^\s*(what|what's|how|why|which|who|whom|when|where|is|are|was|were|does|do|did|can|could|should|would|"
    r"explain|describe|summari[sz]e|give|show|list|tell|compare)\b",
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
    companies = collect(COMPANY_ID, lambda m: f"COMP-{m.group(1).upper()}")
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


def quoted_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of quoted phrases (quotes included): literal text to find, not instructions to the router.

    >>> quoted_spans("Search for 'producer price index' in Company A's documents")
    ((11, 33),)
    """
    return tuple(m.span() for m in _QUOTED.finditer(text))


def _bare_keywords(text: str) -> bool:
    """True for a short keyword query ("torque values mounting bracket"): no question form, at most 6 words."""
    words = re.findall(r"[\w±%.-]+", text)
    return 0 < len(words) <= 6 and "?" not in text and not _QUESTION_START.search(text)


def apply_rules(
    text: str, identifiers: Identifiers, masked: tuple[tuple[int, int], ...] = ()
) -> tuple[RuleHit, ...]:
    """The deterministic intent rules, in a fixed order.

    Args:
        text: the question.
        identifiers: its identifiers (:func:`find_identifiers`); their spans are not read as cue words.
        masked: further spans the cue words must not come from (entity mentions such as a supplier alias
            "Eta Industrial Supply GmbH").

    Quoted phrases select ``lexical`` and are masked for every other cue: ``Search for "producer price
    index"`` asks for a literal phrase, not for a price. Technical vocabulary selects ``lexical`` only when the
    user asks for the wording (``mention``, ``containing``, ``the phrase``) or writes a bare keyword query;
    inside an ordinary question ("How long is the warranty period?") it is the topic of a semantic question.

    >>> [h.intent for h in apply_rules('Where is "supplier code of conduct" mentioned?', Identifiers())]
    ['lexical']
    >>> [h.intent for h in apply_rules("How long is the warranty period in the agreement?", Identifiers())]
    ['semantic']
    """
    hits: list[RuleHit] = []
    if identifiers.any:
        shown = [
            *identifiers.product_codes, *identifiers.invoice_numbers, *identifiers.contract_ids,
            *identifiers.supplier_ids, *identifiers.company_ids, *identifiers.document_ids,
        ]
        hits.append(RuleHit("identifier", "exact_lookup", RULE_CONFIDENCE["identifier"], ", ".join(shown)))
    id_masked = mask(text, identifiers.spans)
    quotes = [(m.group(1) or m.group(2)).strip() for m in _QUOTED.finditer(id_masked)]
    quotes = [q for q in quotes if q]
    cue_text = mask(id_masked, (*quoted_spans(id_masked), *masked))
    for rule, intent, pattern in (
        ("aggregation_words", "aggregate", _AGGREGATION),
        ("relationship_words", "relationship", _RELATIONSHIP),
        ("explanatory_words", "semantic", _EXPLANATORY),
    ):
        words = _unique([m.group(0).lower() for m in pattern.finditer(cue_text)])
        if words:
            hits.append(RuleHit(rule, intent, RULE_CONFIDENCE[rule], ", ".join(words)))  # type: ignore[arg-type]
    if quotes:
        hits.append(RuleHit("quoted_phrase", "lexical", RULE_CONFIDENCE["quoted_phrase"], ", ".join(quotes)))
    else:
        literal = _unique([m.group(0).lower() for m in _LITERAL_CUE.finditer(cue_text)])
        technical = _unique([m.group(0).lower() for m in _TECHNICAL.finditer(cue_text)])
        if literal and not identifiers.lookup_keys:
            # "Which documents mention force majeure?"; but "Where is PRD-482 mentioned?" is a lookup.
            hits.append(RuleHit("literal_search", "lexical", RULE_CONFIDENCE["literal_search"], ", ".join(literal)))
        elif technical and _bare_keywords(cue_text):
            hits.append(
                RuleHit("technical_phrase", "lexical", RULE_CONFIDENCE["technical_phrase"], ", ".join(technical))
            )
    return tuple(hits)
