"""Shorthand notations of amounts, periods and company names, written out before any reader sees the question.

Users type the same constraint in notations the reader does not know, and each of them silently changed or
blocked the answer:

* Swiss thousands separators: "8'000.00 EUR" is 8000.00 (the apostrophe split the amount into "8" and "000.00");
* rolling windows in chat shorthand: "last 60d", "past 8wks", "trailing 3mo" are "last 60 days" etc.;
* a month written as month/year: "11/2025" is November 2025 (a slashed *day* keeps its three parts and is read by
  router/periods.py);
* kinds sharing one head noun: "pressure/temperature/flow sensor" is "pressure sensor / temperature sensor / flow
  sensor" when each is one of the tenant's names (router/group_unions.py then reads a group named with parts
  holding all its products as that group);
* a tenant company "Company C" written "CompanyC", "Co C", "comp c", "Co. C": rewritten only when the result is
  one of the tenant's company names, so "& Co KG" or a supplier "Co B Ltd" that is no company stays as typed.

Each rewrite keeps the meaning exactly (no guessing): what none of them matches reaches the reader as typed and is
named back when not understood. The answer's reading shows the rewritten question.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from router.document_notation import spell_document_numbers
from router.document_nouns import spell_document_nouns
from router.entities import Gazetteer
from router.period_family import read_family_months, read_period_family
from router.period_grammar import DateOrder, read_period_grammar
from router.period_phrases import read_period_phrases
from router.period_words import period_words
from router.supplier_gloss import supplier_glosses

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")

#: "8'000.00", "1’250’000": digits grouped by apostrophes (Swiss notation); a year or code never has one.
_SWISS = re.compile(r"(?<![\w'’.,])(\d{1,3})((?:['’]\d{3})+)(?=[.,]\d|(?![\w'’]))")

#: "last 60d", "past 8 wks", "trailing 3mo": a rolling window's unit abbreviated.
_ROLLING = re.compile(r"\b(last|past|previous|prior|trailing|rolling)\s+(\d{1,3})\s*"
                      r"(d|dys?|w|wks?|mos?|mths?)\b", re.I)
_UNITS = {"d": "days", "dy": "days", "dys": "days", "w": "weeks", "wk": "weeks", "wks": "weeks",
          "mo": "months", "mos": "months", "mth": "months", "mths": "months"}

#: "11/2025", "03/2026": one month of one year (a day would carry a third part: "03/11/2025").
_MONTH_YEAR = re.compile(r"(?<![\w/.\-])(0?[1-9]|1[0-2])/((?:19|20)\d{2})(?![\w/\-]|[.,]\d)")

#: "CompanyC", "Co C", "Co. C", "comp c", "Cpy C": the tenant's "Company <letter>" in shorthand.
_COMPANY = re.compile(r"\b(?:(?i:company|compny|comp|cpy|co))\.?\s*([A-Za-z])(?!\w|-|\.\w|['’](?!s\b))")


def _swiss(match: re.Match[str]) -> str:
    return match.group(1) + re.sub(r"['’]", "", match.group(2))


def _rolling(match: re.Match[str]) -> str:
    return f"{match.group(1)} {match.group(2)} {_UNITS[match.group(3).lower()]}"


#: A word making "N/YYYY" the N-th part of a year, not a month: "Halbjahr 2/2024", "Quartal 1/2026", "KW 12/2026".
_PART_BEFORE = re.compile(r"\b(?:halbjahr|hj|halbjahres|quartal|quartals|quarter|qtr|q|h|half|semester|semestre|"
                          r"trimestre|tertial|term|period|periode|p|kw|week|woche|wk|cw|fy|gj)\W*$", re.I)


def _month_year(match: re.Match[str]) -> str:
    if _PART_BEFORE.search(match.string[:match.start()]):
        return match.group(0)  # the part of the year the word before names, read by router/periods.py
    return f"{_MONTHS[int(match.group(1)) - 1]} {match.group(2)}"


def _companies(text: str, names: Iterable[str]) -> str:
    """``text`` with "Co C"-style shorthands written as the tenant's "Company C" (only a name the tenant has)."""
    letters = {m.group(1).upper(): m.group(0) for n in names if (m := re.fullmatch(r"Company ([A-Z])", n.strip()))}
    if not letters:
        return text

    def sub(match: re.Match[str]) -> str:
        word = match.group(0)[: match.start(1) - match.start(0)].rstrip(". ")
        letter = match.group(1)
        # "company a" already says the name: rewriting only its case would change what a clarification echoes
        if letter.upper() not in letters or match.group(0).casefold() == letters[letter.upper()].casefold():
            return match.group(0)
        # "co"/"comp" with a lower-case letter is prose ("co a", "comp a"...) unless the word itself is shorthand
        # written with its letter as a name is ("comp b", "Co C"); a bare lower-case "co" stays as typed
        if word.lower() == "co" and (word[0].islower() or letter.islower()):
            return match.group(0)
        return letters[letter.upper()]

    return _COMPANY.sub(sub, text)


#: "pressure/temperature/flow sensor": kinds listed by "/" before the one head noun they share.
_SHARED_HEAD = re.compile(r"\b([^\W\d_][\w-]*(?:\s*/\s*[^\W\d_][\w-]*)+)\s+([^\W\d_][\w-]*)\b")


def _known(phrase: str, names: set[str]) -> bool:
    folded = phrase.casefold()
    return folded in names or f"{folded}s" in names or (folded.endswith("s") and folded[:-1] in names)


def _shared_heads(text: str, names: set[str]) -> str:
    """"pressure/temperature/flow sensor" as "pressure sensor / temperature sensor / flow sensor" when each kind
    with the head is one of the tenant's names (else left: an item naming nothing is asked about as typed)."""
    def sub(match: re.Match[str]) -> str:
        kinds = [k.strip() for k in match.group(1).split("/")]
        head = match.group(2)
        if not all(_known(f"{k} {head}", names) for k in kinds):
            return match.group(0)
        return " / ".join(f"{k} {head}" for k in kinds)

    return _SHARED_HEAD.sub(sub, text)


def read_notation(question: str, names: Iterable[str] = (), gazetteer: Gazetteer | None = None,
                  date_order: DateOrder | None = None, as_of: dt.date | None = None) -> str | None:
    """``question`` with the shorthand notations above written out, or ``None`` when it has none.

    ``names``: the tenant's names (its "Company <letter>" names enable the company shorthands); ``gazetteer``:
    its catalogue, for a supplier glossed with its trade ("beta logistics (freight)", router/supplier_gloss.py);
    ``date_order``: the tenant's order of a slashed day the question does not settle (router/date_order.py);
    ``as_of``: the day the question is asked (a month touching two digits, "dec25", is a month of a year near it).

    >>> read_notation("CompanyC invoices over 8'000.00 EUR in 11/2025, last 60d", ["Company C"])
    'Company C invoices over 8000.00 EUR in November 2025, last 60 days'
    >>> read_notation("Company A spend in Q1 2026", ["Company A"]) is None
    True
    """
    names = tuple(names)
    # "inv20260504", "2026/0519", "0125 and 0127 from 2026": document numbers canonical (router/document_notation.py),
    # first, so that the period words below never take a document number for a month or a year
    text = spell_document_numbers(question)
    # "anything at least 15,000": the invoices above an amount asked without their noun (router/document_nouns.py)
    text = spell_document_nouns(text)
    # "zw. 15.09.25 und 15.12.2025", "7/2025 bis 3/2026", "Jul 2025 - today", "3. Qu. 2025": ranges of period atoms
    # and atoms in notations of any language, read whole (router/period_grammar.py)
    # "2026 1Q", "2025/07～2025/12", "4º tri de 2025", "no ano até agora": the period notation family (every
    # order, separator, script and language) in the notation the grammar and reader read (router/period_family.py)
    text = read_period_family(text, date_order, as_of)
    text = read_family_months(read_period_grammar(text, date_order, as_of), as_of)
    # "settembre '25", "kwartaal 1 2026", "1-2026": Italian, Dutch, Portuguese, Spanish periods (router/period_words.py)
    text = period_words(text, names)
    # "the quarter just gone", "last fin year", "the 2 weeks from 18/10/25", "from 01.01 to today", "MTD (May so
    # far)": period phrases of everyday speech, in the notation the reader reads (router/period_phrases.py)
    text = read_period_phrases(text, as_of)
    text = _SWISS.sub(_swiss, text)
    text = _ROLLING.sub(_rolling, text)
    text = _MONTH_YEAR.sub(_month_year, text)
    text = _companies(text, names)
    text = _shared_heads(text, {n.casefold() for n in names})
    if gazetteer is not None:
        text = supplier_glosses(text, gazetteer)
    return text if text != question else None
