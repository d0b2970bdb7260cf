"""Invoice currencies listed together by ISO code ("GBP and USD", "USD/GBP", "CHF, GBP and USD").

Pure text, no company: :mod:`router.currency` reads the list against the reporting currency, and the reader
counts its span as read (each code is a currency, never an unknown name to ask about).
"""

from __future__ import annotations

import re

from router.analysis import _CODE as CURRENCY_WORD
from router.analysis import _CURRENCY_PART as CURRENCY_PART

CODES = r"(?:EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|CNY)"
CODE = re.compile(rf"(?<![A-Za-z]){CODES}(?![A-Za-z])", re.I)
#: Two or more currency codes listed together ("GBP and EUR", "GBP/EUR", "GBP, CHF, EUR").
CODE_LIST = re.compile(rf"(?<![A-Za-z]){CODES}(?:\s*(?:,|/|&|\+|\band\b|\bplus\b)\s*(?:and\s+)?{CODES})+"
                       r"(?![A-Za-z])", re.I)


#: Invoices issued in one currency, by code, word or symbol ("CHF-invoiced", "billed in pounds", "USD invoices",
#: "spend invoiced in $"): that currency's invoices are the figure's filter.
ISSUED = tuple(re.compile(p, re.I) for p in (
    rf"\b(?:invoiced|billed|denominated|issued)\s+in\s+{CURRENCY_WORD}(?![A-Za-z])",
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ](?:denominated\s+|invoiced\s+|billed\s+)?(?:invoices|invoiced|billed|"
    r"denominated)\b",
    rf"\binvoices\s+(?:in|denominated in|billed in|issued in)\s+{CURRENCY_WORD}(?![A-Za-z])",
    # "invoices of Company A in USD during 2026": the scope between the noun and the currency (names are blanked in
    # the cue text); euros are how most listings are shown, so only another currency is read as issued here
    rf"\binvoices\s+(?:of|from|for|at)\s+[^?.;:]{{1,40}}?\s+in\s+(?!eur|euro){CURRENCY_WORD}(?![A-Za-z])",
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ]Rechnungen\b",
    # "how much GBP did Ypsilon get billed", "how many USD were invoiced": an amount asked in one invoice currency
    rf"\bhow\s+(?:much|many)\s+{CURRENCY_WORD}(?![A-Za-z])(?=\s+(?:did|do|does|was|were|has|have|is|are)\b)",
    rf"\bin\s+{CURRENCY_WORD}\s+(?:abgerechnet|fakturiert|in\s+Rechnung\s+gestellt)\b",
    # "USD share of the spend", "share of GBP", "CHF-Anteil": a share whose part is that currency's invoices
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ](?:{CURRENCY_PART})\b",
    rf"\b(?:{CURRENCY_PART})\s+(?:of\s+|der\s+|an\s+)?{CURRENCY_WORD}(?![A-Za-z])(?!\s?\d)"
    r"(?!\s*(?:invoices|spend))",
))
#: Words that label amounts as invoiced ("native", "orig ccy", "as invoiced", "Originalwährung").
NATIVE = (r"(?:native|orig(?:inal)?(?:\s+(?:ccy|currenc(?:y|ies)))?|as\s+invoiced|as\s+billed|local|"
          r"in\s+(?:the\s+)?(?:invoice|original)\s+(?:ccy|currenc(?:y|ies))|devise\s+d['’]\s?origine|"
          r"moneda\s+original|valuta\s+originale|Original(?:w(?:ä|ae)hrung|betr(?:ä|ae)ge))")
#: A list of codes that labels the native amounts of a currency breakdown ("(GBP/CHF/USD native, total EUR)",
#: "native GBP/USD + EUR total"): the columns the user expects, not a filter of the invoices.
NATIVE_LABEL = re.compile(rf"{CODE_LIST.pattern}\s*(?:amounts?\s+)?{NATIVE}\b|\b{NATIVE}\s*(?:amounts?\s*)?[:(]?\s*"
                          rf"{CODE_LIST.pattern}", re.I)


def issued_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the question names invoices as issued in a currency ("billed in USD", "CHF-invoiced")."""
    return tuple(m.span() for pattern in ISSUED for m in pattern.finditer(text))


def currency_list_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where two or more currency codes are listed together."""
    return tuple(m.span() for m in CODE_LIST.finditer(text))


__all__ = ["CODE", "CODES", "CODE_LIST", "ISSUED", "NATIVE", "NATIVE_LABEL", "currency_list_spans", "issued_spans"]
