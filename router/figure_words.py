"""Figure words: the invariant that a percentage asked is never answered by an amount alone.

A question can ask for its figure in percent with words no reader of shares or changes knows ("Beta contribution
% to total spend", "Beta weight in pct", "Anteil in Prozent"): the readers then plan the amount of the part, and
the amount was presented as the answer, complete (a silent wrong: the share asked, its numerator given). The words
of a percentage are a closed class (the sign and the word "percent" in the languages the writers mix in), so the
check is one of shape: a percent word in the question and a plan whose every figure is an amount or a count (no
share, no comparison, no derived ratio) name the percent as not applied: the answer is PARTIAL, the amount stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from router.reading import Amount

#: The sign and the words of a percentage ("%", "percent", "per cent", "pct", "Prozent", "pourcentage").
PERCENT = re.compile(r"%|(?<![\w])(?:percent(?:age)?s?|per\s?cent|pct|prozent(?:satz)?|pourcentage|porcentaje|"
                     r"percentuale|procent|prosent|procentowy)(?![\w])", re.I)

#: The governed figures that are an amount or a count of the scope (never a percentage): a percent asked beside one
#: of these alone was not computed.
AMOUNT_TOOLS: frozenset[str] = frozenset({
    "finance.aggregate_spend", "finance.company_spend", "finance.net_spend", "finance.tax_total",
    "finance.period_tax", "finance.invoice_count", "finance.units_purchased", "finance.supplier_count",
    "finance.invoice_line_count", "finance.product_count",
})
#: Steps that only resolve or check (no figure of their own).
_NO_FIGURE = ("entity.", "validation.")


#: The net amount under the names of the tax base ("taxable value", "assessable value", "tax base", "Bemessungs-
#: grundlage", "base imponible", "imponibile"): the amount the tax is charged on, the net. One alternation, read by
#: the basis readers (router/reader.py's net cue, router/invoice_facts.py's amount basis).
TAX_BASE = (r"taxable\s+(?:value|amount|base|turnover)s?|tax\s+base|assessable\s+(?:value|amount)s?|"
            r"value\s+before\s+tax|bemessungsgrundlage|base\s+imponible|(?:base\s+)?imponibile|base\s+hors\s+taxes?")

#: "taxable value only", "net amount only", "only the VAT": the restriction is the basis's own (the figure is that
#: basis alone), read with it, never a restriction left unread.
_BASIS_ONLY = re.compile(
    r"\b(?:net|gross|tax|vat|taxable|pre-tax)(?:\s+(?:amounts?|values?|totals?|base|spend|figures?|portion|part))?"
    r"(?:\s*\([^()]{1,25}\))?\s*(?:,\s*)?\s+only\b"
    r"|\bonly\s+(?:the\s+)?(?:net|gross|tax|vat|taxable)(?:\s+(?:amounts?|values?|totals?|base|spend|portion|part))?\b",
    re.I)


def basis_only_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of a tax basis said with "only" ("taxable value only", "only the net amount"), consumed by the
    basis reader.

    >>> [("Company C spend - taxable value only, without tax")[a:b] for a, b in basis_only_spans(
    ...     "Company C spend - taxable value only, without tax")]
    ['taxable value only']
    """
    return tuple(m.span() for m in _BASIS_ONLY.finditer(text))


def period_year(amount: Amount, period_spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``amount`` is a bare number (no currency, no multiplier) inside a span the period reader consumed: the
    year of a period ("over 2025 Q4", "above 2026 H1"), never a threshold of money.

    >>> from router.reading import parse_amounts
    >>> [period_year(a, [(5, 12)]) for a in parse_amounts("over 2025 Q4")]
    [True]
    >>> [period_year(a, [(13, 20)]) for a in parse_amounts("over 2025 EUR in Q4 2025")]
    [False]
    """
    number = re.search(r"\d[\d.,'’ ]*\d|\d", amount.text)
    if amount.currency is not None or number is None or not re.fullmatch(r"(?:19|20)\d\d", number.group(0)):
        return False
    start = amount.start + number.start()
    return any(s <= start < e for s, e in period_spans)


#: The part of a "how much of" named as the approved set ("was with approved vendors", "went to our approved
#: suppliers"): a set no share metric takes as its part.
_APPROVED_PART = re.compile(r"\b(?:with|from|to|on)\s+(?:our\s+|the\s+|its\s+|their\s+)?(?:approved|authori[sz]ed|"
                            r"on[- ]contract)\s+(?:vendors?|suppliers?)\b", re.I)
_SHARE_NOUN = re.compile(r"\b(?:share|percentage|proportion|fraction|portion|ratio)\b", re.I)


def amount_of_approved_part(text: str) -> bool:
    """Whether "how much of <spend> was with approved vendors" asks the amount of that part (no percent or share
    word): the approved vendors' spend, never a share whose part names no supplier.

    >>> amount_of_approved_part("Company A: how much of our Feb-26 spend was with approved vendors?")
    True
    >>> amount_of_approved_part("how much of our spend was with approved vendors, in %")
    False
    """
    return bool(re.search(r"\bhow\s+much\s+of\b", text, re.I) and _APPROVED_PART.search(text)
                and not PERCENT.search(text) and not _SHARE_NOUN.search(text))


def unanswered_percent(text: str, tools: Iterable[str]) -> str | None:
    """The percent word of ``text`` when the plan's figures (``tools``, the tool of each step) are amounts or counts
    only, so the percentage asked is not computed; ``None`` otherwise.

    >>> unanswered_percent("Beta contribution % to total spend Q1", ["entity.resolve_company",
    ...                    "finance.aggregate_spend"])
    '%'
    >>> unanswered_percent("Beta share in % of spend", ["finance.supplier_share"]) is None
    True
    >>> unanswered_percent("Beta spend Q1", ["finance.aggregate_spend"]) is None
    True
    """
    figures = [t for t in tools if not t.startswith(_NO_FIGURE)]
    if not figures or any(t not in AMOUNT_TOOLS for t in figures):
        return None
    match = PERCENT.search(text)
    return match.group(0) if match is not None else None


__all__ = ["AMOUNT_TOOLS", "PERCENT", "TAX_BASE", "amount_of_approved_part", "basis_only_spans", "period_year",
           "unanswered_percent"]
