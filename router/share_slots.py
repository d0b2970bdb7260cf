"""The part slot of a share: the words a share question puts where its part belongs, when no name was read there.

A share has a part and a base ("what % of Company B's Q3 spend is cabling", "share of tooling in Company C's total",
"loggers is about 1% of Alpenland's spend", "flow meters as share of total"). The base is a company (or the group, a
product group) and is read by its name; the part is the supplier, product group or company whose share is asked.
When the part's words are no name the reader knows, they used to be dropped: the question was then asked back with a
generic "which supplier's share do you want?" (or, worse, answered as the base's plain total). The decision rule
here: the words in the part slot are a name asked for, so they are looked up like any other name (a group's name in
another word form, "cabling" for Cables and Connectors, resolves; the reading is stated), and when nothing matches
they are named back as not understood, never dropped.

The slot is found on the residual text (every read span blanked), so a part already read leaves nothing to find.
Only the closed class of share cues in English is matched: the other languages' share words are written in English
before the reader runs (router/foreign_words.py, router/romance.py, router/german.py, router/ranking_words.py).
"""

from __future__ import annotations

import re

#: Up to four words of a name (letters first; "&", "-" and apostrophes inside).
_WORDS = r"[^\W\d_][\w&'’-]*(?:[ \t]+[^\W\d_][\w&'’-]*){0,3}?"
#: Where a part phrase ends: punctuation, the end, a period or a clause word.
_END = (r"(?=\s*(?:[?,;.:()\"“”]|$)|\s+(?:in|for|during|over|from|between|since|of|at|within|across|on|to|"
        r"this|last|the|as|and|vs\.?|versus|compared)\b)")
#: A share's noun or sign.
_SHARE = r"(?:share|percentage|percent|per\s?cent|pct|proportion|portion|fraction|part|slice|chunk|%)"
#: The part slot in each order a share is written.
_SLOTS = (
    # "share of tooling in total company c", "percentage of cabling within Company B's spend"
    re.compile(rf"\b(?:share|percentage|proportion|portion|fraction|slice)\s+of\s+(?:the\s+|our\s+)?(?P<p>{_WORDS})"
               r"\s+(?:in|within|of|at|across|to|among|out\s+of)\s", re.I),
    # "tooling's share of", "flow meters as (a) share of", "cabling in % of"
    re.compile(rf"(?P<p>{_WORDS})(?:['’]s?\s+share\b|\s+as\s+(?:a\s+)?{_SHARE}\s+of\b)", re.I),
    # "what % of Company B's spend was cabling", "how big a slice of Comp B's spend is cabling", "... went to X"
    re.compile(rf"\b(?:what|which|how\s+(?:big|large|much))\s+(?:an?\s+|of\s+an?\s+|is\s+the\s+)?{_SHARE}\s+of\s+"
               r"[^?]{1,90}?\b(?:is|was|were|are|went|goes|go|going|spent)\s+(?:(?:on|with|to|for|into)\s+)?"
               rf"(?:the\s+|our\s+)?(?P<p>{_WORDS}){_END}", re.I),
    # "loggers is about 1% of Alpenland's spend", "Iris accounts for ~7% of ...": a stated share of a part
    re.compile(rf"(?:^|\bthat\s+|[:;,\"“]\s*)(?P<p>{_WORDS})\s+(?:is|are|was|were|accounts?\s+for|makes?\s+up|"
               r"represents?|comprises?)\s+(?:about\s+|around\s+|roughly\s+|approx\w*\.?\s+|nearly\s+|almost\s+|"
               r"~\s*|c\.\s*|ca\.?\s*)?\d+(?:[.,]\d+)?\s*(?:%|percent|per\s?cent)\s+of\b", re.I),
)
#: Words of a slot that are no name: the figure's own words, determiners, framing.
_NOT_A_NAME = frozenset((
    "the", "our", "a", "an", "all", "total", "overall", "whole", "entire", "spend", "spending", "spent", "purchases",
    "purchasing", "costs", "cost", "money", "budget", "amount", "figure", "value", "we", "us", "it", "this", "that",
    "these", "those", "its", "their", "company", "companies", "group", "supplier", "suppliers", "vendor", "vendors",
    "share", "percent", "percentage", "pct", "part", "portion", "what", "which", "how", "much", "many", "is", "was",
    "were", "are", "went", "goes", "to", "on", "with", "for", "into", "in", "of", "at", "by", "from"
))
#: Words that make the slot something other than a name: statuses, documents, currencies, amount bases.
_OTHER_SLOT = re.compile(
    r"\b(?:paid|posted|open|overdue|draft|drafts|cancel+ed|approved|unapproved|invoiced?|invoices|credit|notes?|"
    r"net|gross|tax|vat|currency|currencies|foreign|domestic|top|largest|biggest|bottom|rest|others?|tail|"
    # the base's scope words ("share of group-wide spend", "of our combined spend"): a whole, not a part
    r"group[- ]?wide|groupwide|tenant\w*|combined|consolidated|across|entities|companies|"
    r"[A-Z]{3})\b")


def share_part_phrases(text: str, residual: str) -> list[tuple[int, int, str]]:
    """(start, end, phrase) of each part slot of a share in ``text`` none of whose words was read (all still present
    in ``residual``, the text with every read span blanked).

    >>> q = "how big a slice of Comp B's Q3 spend is cabling (percent pls)"
    >>> share_part_phrases(q, q.replace("Comp B's Q3", " " * 11))
    [(40, 47, 'cabling')]
    >>> q = "share of tooling in total company c fiscal 2025"
    >>> share_part_phrases(q, q.replace("company c", " " * 9))
    [(9, 16, 'tooling')]
    >>> q = "what share of Company A spend went to Beta?"
    >>> share_part_phrases(q, q.replace("Beta", "    "))
    []
    """
    found: dict[tuple[int, int], str] = {}
    for slot in _SLOTS:
        for match in slot.finditer(text):
            start, end = match.span("p")
            if residual[start:end] != text[start:end]:
                continue  # a name, period or cue read inside the slot: its part is read ("Beta Supplies GmbH")
            words = [w for w in re.finditer(r"\S+", text[start:end])
                     if w.group(0).lower().strip("'’") not in _NOT_A_NAME]
            if not words:
                continue
            a, b = start + words[0].start(), start + words[-1].end()
            phrase = text[a:b]
            if _OTHER_SLOT.search(phrase) or not any(c.isalpha() for c in phrase):
                continue
            found.setdefault((a, b), phrase)
    return sorted((a, b, p) for (a, b), p in found.items())


__all__ = ["share_part_phrases"]
