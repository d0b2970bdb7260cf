"""Misspelt measure words ("spnd", "expendture", "invoces"): read with the one-edit tolerance names get.

A supplier or group typed with one letter wrong is resolved by similarity (:mod:`router.reader`); the word that
says *which figure* is wanted deserves the same tolerance, or "Company B spnd YTD" is asked back although every
constraint was read. The correction is a fallback: it is tried only when the question as typed is not answered
(a clarification), a word is corrected only when exactly one measure word is within one edit of it (insert,
delete, substitute or swap two neighbours) and the word is neither a measure word nor a common English word one
edit away from one ("speed", "mount", "prize"), and the answer says what was read ("read 'spnd' as 'spend'").
A word that is no measure word in any spelling stays unknown and is named back (:func:`unknown_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from router.edits import ONE_EDIT_FROM_FOUR, budget, is_slip, unique_typo

#: The measure words a figure question names, each as the reader knows it.
MEASURE_WORDS: tuple[str, ...] = (
    "spend", "spending", "spent", "expenditure", "expenditures", "expenses", "expense", "purchases", "purchase",
    "invoices", "invoice", "costs", "total", "amount", "price", "prices", "quantity", "percentage", "comparison",
    "compare", "share",
)
#: Ordinary English words one edit away from a measure word: never read as its typo.
_REAL_WORDS = frozenset([
    "speed", "spends", "spender", "spell", "spendy", "upend", "spewing", "sending", "spacing", "sparing",
    "spiting", "spiting", "expanse", "expanses", "expend", "expends", "expenser", "compere", "compared",
    "compares", "mount", "amounts", "prince", "pride", "prize", "prime", "prices", "priced", "pricey", "trice",
    "rice", "prise", "shore", "shape", "shame", "sharp", "spare", "scare", "stare", "snare", "shade", "shake",
    "shave", "shire", "shard", "sharer", "shared", "shares", "whare", "posts", "hosts", "coats", "casts",
    "coots", "cots", "totals", "toral", "tonal", "totally", "invoiced", "purchased", "purchaser", "quantify",
    # "cost centre CC-4711", "cost price": the singular is a word of its own (router/dimensions.py names the
    # centre back), never a typo of "costs"
    "cost",
])
_WORD = re.compile(r"(?<![\w-])[^\W\d_]{4,}(?![\w-])")
_CONTENT_WORD = re.compile(r"(?<![\w-])[^\W\d_]{3,}(?![\w-])")
#: Words around a figure that carry no constraint: never named back as not understood.
_FUNCTION_WORDS = frozenset([
    "a", "an", "the", "of", "in", "on", "at", "for", "to", "from", "with", "by", "and", "or", "but", "vs",
    "versus", "per", "as", "is", "are", "was", "were", "be", "been", "do", "does", "did", "done", "what",
    "which", "who", "how", "much", "many", "our", "we", "us", "my", "me", "i", "you", "your", "their", "its",
    "it", "this", "that", "these", "those", "there", "here", "so", "far", "please", "pls", "show", "give",
    "tell", "list", "me", "get", "find", "total", "overall", "all", "any", "some", "each", "every", "so-far",
    "today", "now", "date"
])


def one_edit(typed: str, word: str) -> bool:
    """Whether ``typed`` becomes ``word`` by one insertion, deletion, substitution or swap of two neighbours
    (router/edits.py measures it).

    >>> one_edit("spnd", "spend"), one_edit("sepnd", "spend"), one_edit("spend", "spend"), one_edit("spx", "spend")
    (True, True, False, False)
    """
    return is_slip(typed, word, 1)


def measure_for(typed: str) -> str | None:
    """The one measure word ``typed`` is a one-edit typo of, or ``None`` (none, several, or a real word).

    >>> measure_for("spnd"), measure_for("Invoces"), measure_for("speed"), measure_for("spend")
    ('spend', 'invoices', None, None)
    """
    low = typed.lower()
    edits = budget(len(low), ONE_EDIT_FROM_FOUR)
    if low in MEASURE_WORDS or low in _REAL_WORDS or not edits:
        return None
    return unique_typo(low, MEASURE_WORDS, edits)


def measure_typos(text: str, names: Iterable[str] = ()) -> tuple[tuple[int, int, str, str], ...]:
    """Every word of ``text`` that is a one-edit typo of a measure word: (start, end, typed, measure word).
    Words of the tenant's names (``names``: every spelling of a company, supplier or group) are never typos."""
    known = {w.lower() for name in names for w in re.findall(r"[^\W\d_]+", name)}
    found = []
    for match in _WORD.finditer(text):
        word = match.group(0)
        if word.lower() in known:
            continue
        measure = measure_for(word)
        if measure is not None:
            found.append((match.start(), match.end(), word, measure))
    return tuple(found)


def corrected(text: str, typos: Sequence[tuple[int, int, str, str]]) -> str:
    """``text`` with each typo replaced by its measure word."""
    for start, end, _, measure in sorted(typos, reverse=True):
        text = text[:start] + measure + text[end:]
    return text


def correction_note(typos: Sequence[tuple[int, int, str, str]]) -> str:
    """How the corrected words were read, for the answer's interpretation."""
    return "; ".join(f"read {typed!r} as {measure!r}" for _, _, typed, measure in typos)


def unknown_words(text: str, consumed: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    """Content words of ``text`` outside every span the reading consumed: what a clarification names back when
    no figure was understood ("Company B xyzzy YTD" -> 'xyzzy')."""
    found = []
    for match in _CONTENT_WORD.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in consumed):
            continue
        if match.group(0).lower() not in _FUNCTION_WORDS:
            found.append(match.group(0))
    return tuple(dict.fromkeys(found))
