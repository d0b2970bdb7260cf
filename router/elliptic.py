"""Elliptic questions: a company, a supplier or group and a period, and no word for the figure.

On the shop floor a question is often a fragment: "Theta letzter Monat, Company B", "Company B bei Eta im Q4
2025?", "company a dieses quartal bisher?", "Ypsilon: change last quarter vs the quarter before", "Kestrel sensors
2026 to date: Northwind's share?". Everything in them is read (the names, the period, "change" or "share"), only
the measure is left unsaid, and in procurement the unsaid measure of "X at Y in Q1" is the spend. The question is
then read once more with "spend" put in front; that reading is kept only when it answers (no clarification, no
unsupported figure), and the answer says that spend was assumed.

A fragment that names anything other than spend (documents, counts, prices, units, approvals, contracts, terms,
open or overdue items, taxes, currencies, listings) is never read as spend: those words ask for another figure or
a relationship, and a spend in their place would be a wrong answer presented as complete.
"""

from __future__ import annotations

import re

from router.default_measure import GROSS_BASIS
from router.measure_words import MEASURE_WORDS, unknown_words
from router.reader import Reading
from router.scope import ALL_COMPANIES

#: Words that ask for something other than the spend (English after the German rewrite, and German as typed).
_OTHER_ASK = re.compile(
    r"\b(?:invoices?|invoiced|rechnung\w*|credit|gutschrift\w*|lines?|documents?|approv\w*|freigegeben\w*|"
    r"genehmigt\w*|vendors?|suppliers|products|groups|contracts?|vertr(?:a|ä)g\w*|agreements?|terms?|clauses?|"
    r"manuals?|prices?|preis\w*|units?|st(?:ü|ue)ck\w*|quantit\w*|count\w*|number|anzahl|how\s+many|wie\s+viele|"
    r"list\w*|which|welche\w*|who|wer|open|overdue|unpaid|paid|due|tax|vat|mwst|currenc\w*|orders?|budget\w*|"
    r"forecast\w*|payment\w*|duplicat\w*|cancel\w*|draft\w*|disputed|average|max\w*|min\w*|top|rank\w*|"
    r"spend|spent|spending|expenditures?|expenses?|costs?|total|amount|ausgaben|betrag|summe)\b", re.I)
#: A word that refers back to a figure said before ("what share of it was sensors", a part of a compound
#: question): the whole is that figure, filtered as it was, never the plain spend put in front.
_REFERS_BACK = re.compile(r"\b(?:it|its|that|them|those|they|their|davon|dessen|deren)\b|"
                          r"\bthis\b(?!\s+(?:quarter|month|year|week|half))", re.I)
#: A question mark or a colon is no word; what is left must be names, a period and "change"/"share" at most.
_MIN_WORDS = re.compile(r"[^\W\d_]{2,}")


#: "rank the 3 companies", "ranking of the cos": a ranking whose rows are the companies, the measure unsaid (the
#: spend, as for any fragment): read as ranked by spend.
_RANK_COMPANIES = re.compile(r"\b(?:rank(?:ed|ing)?(?:\s+of)?|order|sort)\s+(?:the\s+|our\s+|all\s+)?"
                             r"(?:(?:two|three|four|five|six|\d)\s+)?compan(?:y|ies)\b", re.I)
#: "both companies split", "all entities - breakdown pls": a split word with no dimension after it.
_BARE_SPLIT = re.compile(r"\b(?:split|breakdown|break\s*down|broken\s+down)\b(?!\s+(?:by|per|into|across|over)\b)",
                         re.I)


def ranked_by_spend(text: str) -> str | None:
    """``text`` with "by spend" after a ranking of the companies that names no measure ("rank the 3 companies h2
    2025" -> "rank the 3 companies by spend h2 2025"), or ``None`` (no such ranking, or another figure asked).

    >>> ranked_by_spend("rank the companies q1"), ranked_by_spend("rank the companies by invoice count q1")
    ('rank the companies by spend q1', None)
    """
    ranked = _RANK_COMPANIES.search(text)
    if ranked is None or re.match(r"\s+by\b", text[ranked.end():], re.I):
        return None
    if _OTHER_ASK.search(text[:ranked.start()] + text[ranked.end():]):
        return None
    return f"{text[:ranked.end()]} by spend{text[ranked.end():]}".strip()


#: The words that ask for a breakdown whatever its dimension ("split", "breakdown").
_SPLIT_WORD = re.compile(r"\b(?:split|breakdown|break\s*down|broken\s+down)\b", re.I)


def elliptic_spend(text: str) -> str | None:
    """``text`` with "spend" put in front when it names no figure and asks for nothing else, or ``None``.

    A ranking of the companies ("rank the 3 companies H2 25") is ranked by spend; a split word with no dimension
    beside all the companies ("both companies split Q4") splits them by company (the only rows the scope names).

    >>> elliptic_spend("Theta last month, Company B")
    'spend Theta last month, Company B'
    >>> elliptic_spend("Company B approved vendors Q1 2026") is None, elliptic_spend("what share of it was sensors?")
    (True, None)
    >>> elliptic_spend("rank the 3 companies h2 2025"), elliptic_spend("both companies split q4 2025?")
    ('rank the 3 companies by spend h2 2025', 'spend both companies split by company q4 2025?')
    """
    ranked = ranked_by_spend(text)
    if ranked is not None:
        return ranked
    # ("incl VAT", "gross": the basis the spend already has, no ask for the tax: router/default_measure.py)
    if _OTHER_ASK.search(GROSS_BASIS.sub(" ", text)) or _REFERS_BACK.search(text) or not _MIN_WORDS.search(text):
        return None
    split = _BARE_SPLIT.search(text)
    if split is not None and ALL_COMPANIES.search(text):
        text = f"{text[:split.end()]} by company{text[split.end():]}"
    return f"spend {text.strip()}"


def unread_words(reading: Reading) -> tuple[str, ...]:
    """The words of an elliptic reading (the fragment with "spend" put in front) that no slot took: the names, the
    period, the analyst and breakdown words, the all-companies scope and the words a fragment may leave unread
    (:data:`_SCOPE_WORDS`) are read; anything else would be dropped by the spend reading, so it is named back
    ("calibraton eqpt co a h2": 'calibraton', 'eqpt'), never answered without it.
    """
    return tuple(w for w in unknown_words(reading.text, read_spans(reading))
                 if w.lower() not in _SCOPE_WORDS and w.lower() not in MEASURE_WORDS)


def read_spans(reading: Reading) -> tuple[tuple[int, int], ...]:
    """The spans of ``reading.text`` an elliptic reading took: the names, the period, the analysis and breakdown
    words and the all-companies scope (what :func:`unread_words` does not name back)."""
    spans = [*reading.consumed, *reading.analysis.spans, *reading.analysis.compare_words, *reading.breakdown.spans,
             *(m.span() for m in ALL_COMPANIES.finditer(reading.cue_text)),
             # ("incl. VAT", "gross": the basis the spend already has, read with it)
             *(m.span() for m in GROSS_BASIS.finditer(reading.text))]
    if reading.breakdown.group_by or reading.breakdown.grain:
        spans += [m.span() for m in _SPLIT_WORD.finditer(reading.text)]  # "split FY25 spend by company"
    return tuple(spans)


def named_back(clarification: str | None, words: tuple[str, ...]) -> str:
    """``clarification`` with the unread ``words`` named first (unless it names them already)."""
    said = clarification or ""
    missing = [w for w in words if f"'{w}'" not in said]
    if not missing:
        return said
    return f"I did not understand {', '.join(repr(w) for w in missing)}. {said}".strip()


#: Words a fragment may leave unread before "spend" is put in front: the scope of all companies ("change H1 vs
#: H2, all companies": without a measure "companies" is not read); any other word named back stays named back.
#: Legal forms are part of a supplier's name ("Zeta Sensorik GmbH"): read with the name once a measure is there.
_SCOPE_WORDS = frozenset({"companies", "company", "all", "group", "tenant", "gmbh", "ag", "inc", "ltd", "llc", "se",
                          "kg", "co", "plc", "sa", "bv", "nv", "oy", "ab", "spa", "srl"})


#: "orbis alpenland sept? prob 0", "kestrel may (probably nothing)", "co a q1 - should be ~5k": the writer's guess
#: at the answer, after the ask: a remark (the figure answers it), never a constraint or a word to ask about.
_GUESS = re.compile(
    r"(?:[?.!,;:]\s*|\s[-–—]\s*|\s\(\s*|\s+)(?P<remark>(?:prob(?:ably)?|prolly|likely|maybe|perhaps|possibly|"
    r"i\s+(?:think|guess|believe|expect)|should\s+be|expect(?:ing|ed)?|guess(?:ing)?)\s+(?:(?:it['’]?s|is|be|"
    r"about|around|approx\.?|~)\s*)*(?:0|zero|nothing|none|nil|nada|empty|~?\s*\d[\d.,']*\s*(?:k|m|tsd)?"
    r"(?:\s*(?:eur|€|euros?))?|no\s+(?:spend|data|invoices?))\b)\s*\)?\s*[?.!]*\s*$", re.I)


def guess_aside(text: str) -> tuple[str, str | None]:
    """``text`` without a guess at the answer written after the ask, and the guess (``None``: none).

    >>> guess_aside("orbis alpenland sept? prob 0")
    ('orbis alpenland sept?', 'prob 0')
    >>> guess_aside("co a q1 spend - should be about 5k"), guess_aside("top 3 suppliers likely")[1]
    (('co a q1 spend', 'should be about 5k'), None)
    """
    found = _GUESS.search(text)
    if found is None or not _MIN_WORDS.search(text[:found.start()]):
        return text, None
    kept = text[:found.start()] + ("?" if text[found.start()] == "?" else "")
    return kept.rstrip(" -–—("), found.group("remark")


#: How the answer says what was assumed.
ELLIPTIC_NOTE = "no figure named: read as the spend of the names and period given"
