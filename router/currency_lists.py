"""Invoice currencies listed together by ISO code ("GBP and USD", "USD/GBP", "CHF, GBP and USD").

Pure text, no company: :mod:`router.currency` reads the list against the reporting currency, and the reader
counts its span as read (each code is a currency, never an unknown name to ask about).
"""

from __future__ import annotations

import re

CODES = r"(?:EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|CNY)"
CODE = re.compile(rf"(?<![A-Za-z]){CODES}(?![A-Za-z])", re.I)
#: Two or more currency codes listed together ("GBP and EUR", "GBP/EUR", "GBP, CHF, EUR").
CODE_LIST = re.compile(rf"(?<![A-Za-z]){CODES}(?:\s*(?:,|/|&|\+|\band\b|\bplus\b)\s*(?:and\s+)?{CODES})+"
                       r"(?![A-Za-z])", re.I)


def currency_list_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where two or more currency codes are listed together."""
    return tuple(m.span() for m in CODE_LIST.finditer(text))


__all__ = ["CODE", "CODES", "CODE_LIST", "currency_list_spans"]
