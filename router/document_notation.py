"""Invoice and credit-note numbers in the notations users type, written out as the canonical "INV-2026-0511" /
"CN-2025-0502" before any reader sees the question.

The readers downstream (router/invoice_facts.py and the document search) know a number only in its canonical
shape with a type prefix. Clerks and auditors write the same number in a family of notations, and each one either
blocked the look-up (a clarification or "no governed metric") or sent it to a passage search:

* no separator after the prefix: "inv20260504", "CN2025-0502", "inv#2026/0519";
* other separators: "2026/0519", "INV.2026.0511", "rechnung nr. 2026-0511";
* no prefix at all: "2026-0511", "2026/0519" (a year, a dash or slash, then a running number that is no year:
  "2025-2026" stays a range of years and "2026-05-11" a day);
* a series sharing one year: "INV-2026-0125 and 0127", "2026-0125, 0127 & 0130", "0125 and 0127 from 2026",
  "0125 + 0127 (2026)" (zero-padded running numbers with the year named once, after them).

The type is the one the words before the number name ("cn", "credit note", "Gutschrift", "avoir"...); a number
with no type word is an invoice number. Each rewrite keeps the meaning (a year written beside a series is the
series' year, not a period: it is taken into the numbers); what none of them matches reaches the reader as typed.
"""

from __future__ import annotations

import re

from router.document_words import CREDIT_NOTES, alternation

#: Words naming a credit note right before its number ("cn 2025 0501", "credit note no. 2025-0502", "Gutschrift").
_CREDIT_WORD = re.compile(r"(?:\bcn|\bcredit[- ]?notes?|\bcredit[- ]?memos?|\bgutschrift(?:en)?|\bavoirs?|"
                          r"\bnotas?\s+de\s+cr[eé]dito|\b(?:" + alternation(CREDIT_NOTES) + r"))\b", re.I)
#: Words naming an invoice right before its number.
_INVOICE_WORD = re.compile(r"(?:\binv(?:oices?)?|\bbills?|\brechnung(?:en)?|\bfactur(?:e|es|a|as)|\bre|\brg)\b",
                           re.I)
#: What may stand between a type word and its number: "no.", "nr.", "number", "#", ":", "ref".
_FILLER = r"(?:\s*(?:no\.?|nr\.?|num(?:ber)?\.?|#|:|ref\.?|n°|nº)\s*)*"

#: A prefixed number: "inv20260504", "INV 2026/0519", "cn#2025.0502", "INV-2026-0511".
_PREFIXED = re.compile(r"(?<![A-Za-z0-9])(inv|cn)" + _FILLER + r"[-_ #.]?\s*((?:19|20)\d{2})[-_/. ]?(\d{3,6})"
                       r"(?![A-Za-z0-9]|[/.,]\d)", re.I)
#: A bare number: year, a dash or slash, a running number of four to six digits ("2026-0511", "2026/0519").
_BARE = re.compile(r"(?<![\w/.\-])((?:19|20)\d{2})[-/](\d{4,6})(?![\w/\-]|[.,]\d)")
#: A series continued after a full number: "INV-2026-0125 and 0127", "INV-2026-0125, 0127 & 0130".
_CONTINUED = re.compile(r"\b(INV|CN)-((?:19|20)\d{2})-(\d{3,6})((?:\s*(?:,|\band\b|&|\+|\bund\b|/)\s*\d{3,6}\b"
                        r"(?![-/.,]\d))+)")
_ITEM = re.compile(r"\d{3,6}")
#: Zero-padded running numbers with their year after them: "0125 and 0127 from 2026", "0125 + 0127 (2026)".
_YEAR_AFTER = re.compile(r"(?<![\w/.,\-])(0\d{3,5})((?:\s*(?:,|\band\b|&|\+|\bund\b)\s*0\d{3,5})*)"
                         r"(?:\s+(?:from|of|in|aus|von|de|del)\s+|\s*\(\s*)((?:19|20)\d{2})(\s*\))?(?![\w/\-]|[.,]\d)")
_YEAR_LIKE = re.compile(r"(?:19|20)\d{2}")


def _kind(before: str) -> str:
    """"CN" when the words right before a number name a credit note, else "INV"."""
    window = before[-30:]
    credit = list(_CREDIT_WORD.finditer(window))
    invoice = list(_INVOICE_WORD.finditer(window))
    if credit and (not invoice or credit[-1].start() > invoice[-1].start()):
        return "CN"
    return "INV"


def _prefixed(match: re.Match[str]) -> str:
    return f"{match.group(1).upper()}-{match.group(2)}-{match.group(3)}"


#: A document word right before a number ("invoice 2019-1900", "credit note no. 2025/2026"): it is a number.
_NAMED_BEFORE = re.compile(r"(?:\b(?:inv(?:oice)?|cn|credit[- ]?(?:note|memo)|bill|rechnung|gutschrift|avoir)\b"
                           + _FILLER + r"\s*|\b(?:no|nr)\.?\s*|#\s*)$", re.I)


def _bare(match: re.Match[str]) -> str:
    before = match.string[:match.start()]
    if _YEAR_LIKE.fullmatch(match.group(2)) and not _NAMED_BEFORE.search(before):
        return match.group(0)  # "2025-2026": a range of years (unless a document word names it: "invoice 2019-1900")
    return f"{_kind(before)}-{match.group(1)}-{match.group(2)}"


def _continued(match: re.Match[str]) -> str:
    kind, year, first = match.group(1), match.group(2), match.group(3)
    tail = match.group(4)
    if any(_YEAR_LIKE.fullmatch(n) and len(n) != len(first) for n in _ITEM.findall(tail)):
        return match.group(0)  # "INV-2026-0125 and 2027": not one series
    if any(len(n) != len(first) for n in _ITEM.findall(tail)):
        return match.group(0)  # a running number of another width is no continuation (an amount, a count)
    return f"{kind}-{year}-{first}" + _ITEM.sub(lambda m: f"{kind}-{year}-{m.group(0)}", tail)


#: Words that make a lone zero-padded number with a year after it a document number ("invoice 0125 of 2026").
_NUMBER_WORD = re.compile(r"(?:\bnos?\.?|\bnrs?\.?|\bnumbers?|#)\s*$", re.I)


def _year_after(match: re.Match[str]) -> str:
    year = match.group(3)
    before = match.string[:match.start()]
    window = before[-30:]
    named = bool(_CREDIT_WORD.search(window) or _INVOICE_WORD.search(window) or _NUMBER_WORD.search(before))
    if not match.group(2) and not named:
        return match.group(0)  # one zero-padded number and a year, no document word: not surely a document
    kind = _kind(before)
    numbers = f"{match.group(1)}{match.group(2)}"
    written = _ITEM.sub(lambda m: f"{kind}-{year}-{m.group(0)}", numbers)
    if match.group(0).rstrip().endswith(year) and "(" in match.group(0):
        return written + " ("  # "0125 + 0127 (2026, Gamma)": the parenthesis goes on without the year
    return written


def spell_document_numbers(text: str) -> str:
    """``text`` with every invoice and credit-note number in its canonical shape ("INV-2026-0511").

    >>> spell_document_numbers("inv20260504 - net + VAT pls")
    'INV-2026-0504 - net + VAT pls'
    >>> spell_document_numbers("whats the eur amount on 2026-0511?")
    'whats the eur amount on INV-2026-0511?'
    >>> spell_document_numbers("cn 2025/0502 -> which invoice")
    'CN-2025-0502 -> which invoice'
    >>> spell_document_numbers("0125 and 0127 from 2026 - VAT on both")
    'INV-2026-0125 and INV-2026-0127 - VAT on both'
    >>> spell_document_numbers("spend 2025-2026 on 2026-05-11")
    'spend 2025-2026 on 2026-05-11'
    """
    out = _PREFIXED.sub(_prefixed, text)
    out = _BARE.sub(_bare, out)
    out = _YEAR_AFTER.sub(_year_after, out)
    out = _CONTINUED.sub(_continued, out)
    return out


__all__ = ["spell_document_numbers"]
