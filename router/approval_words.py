"""The words between "approved" and "vendors"/"suppliers": what the approval is for ("approved cooling vendors",
"approved lab equipment suppliers"). They qualify the approved set (a product group), so the reader offers them as
a category span: a group it resolves narrows the set and the spend, anything else is named back as not
understood. Left unread, "spend with approved cooling vendors" was answered with every approved vendor's spend,
the category silently dropped.
"""

from __future__ import annotations

import re

#: Words that describe the approved vendors without naming what they are approved for.
_NOT_A_CATEGORY = frozenset({
    "the", "our", "its", "their", "his", "her", "all", "any", "other", "current", "currently", "active", "valid",
    "new", "existing", "main", "key", "eligible", "preferred", "official", "listed", "registered", "those", "these",
    "only", "still", "now", "and", "or", "of", "company", "companies", "group", "framework", "contract", "contracted",
    # function words of a role ("approved as suppliers", "approved to be vendors"): no category
    "as", "to", "be", "being", "been", "by", "for", "with", "in", "on", "at", "is", "are", "was", "were", "that",
    "which", "who",
})
_QUALIFIED = re.compile(r"\bapproved\s+(?P<what>(?:[^\W\d_][\w&/-]*\s+){1,3}?)(?:vendors?|suppliers?)\b", re.I)


def approval_qualifiers(masked: str) -> list[tuple[int, int, str]]:
    """The (start, end, phrase) of each category-like run between "approved" and "vendors"/"suppliers" in the
    masked text (read names are masked already, so a resolved group is never offered twice).

    >>> approval_qualifiers("alpenland spend with approved cooling vendors Q1 26")
    [(30, 37, 'cooling')]
    >>> approval_qualifiers("spend with approved vendors"), approval_qualifiers("our approved active suppliers")
    ([], [])
    """
    found: list[tuple[int, int, str]] = []
    for match in _QUALIFIED.finditer(masked):
        words = match.group("what").split()
        kept = [w for w in words if w.lower() not in _NOT_A_CATEGORY]
        if not kept or kept != words[len(words) - len(kept):]:
            continue  # nothing category-like, or a describing word after it ("cooling current vendors")
        start = masked.index(kept[0], match.start("what"))
        phrase = " ".join(kept)
        if masked[start:start + len(phrase)] == phrase:
            found.append((start, start + len(phrase), phrase))
    return found


#: "approved vendors for Company B in cables", "approved suppliers for sensors": what the approval is for, named after
#: the approved set (read names and periods are masked already, so only unread words reach here).
#: (one space after the preposition: a blank run is a read name or period, and what follows it is another clause,
#: "approved vendors of [Company C] supply cables")
_TARGET = re.compile(r"\bapproved\s+(?:vendors?|suppliers?)\b[^?.;]{0,60}?\b(?:in|for|of) (?:the |our )?"
                     r"(?!(?:in|for|of|the|our|right\s+now|as\s+(?:of|at))\b)(?P<what>[^\W\d_][\w&/-]*(?:\s+[^\W\d_][\w&/-]*){0,2}?)"
                     r"(?=\s*(?:$|[?.,;:!()]|\b(?:as\s+of|as\s+at|in|during|since|from|until|at|on|by|with|and|or|"
                     r"this|last|next|today|now|right\s+now|currently|after|before|following|per|under|according)\b))",
                     re.I)
#: Words after "in"/"for" that name no category: the scope, the time, the purpose or the state of the approval.
_NOT_A_TARGET = frozenset({
    "us", "me", "them", "it", "this", "that", "which", "what", "whom", "all", "each", "every", "any", "both", "now",
    "today", "force", "place", "effect", "total", "general", "scope", "use", "review", "approval", "reference",
    "sourcing", "purchasing", "procurement", "company", "companies", "group", "date", "time", "question", "detail",
    "details", "full", "particular", "practice", "principle", "summary", "short", "brief", "order",
    "list", "table", "writing", "the year", "the period", "the quarter", "the month", "the time being", "now on",
    "year", "quarter", "month", "week", "day", "future", "past", "latest", "current", "effect today", "period",
    "periods", "supply", "supplies", "supplying", "supplied", "who", "with", "range",
})


def approval_targets(masked: str) -> list[tuple[int, int, str]]:
    """The (start, end, phrase) of what an approved-vendor list is asked for after it ("approved vendors for
    Company B in cables"): offered as a category span like :func:`approval_qualifiers` (a group it resolves
    narrows the list; anything else is named back), never dropped for the whole approved list.

    >>> approval_targets("approved vendors for           in cables, as of today")
    [(34, 40, 'cables')]
    >>> approval_targets("approved vendors for           in force today"), approval_targets("approved vendors for us")
    ([], [])
    """
    found: list[tuple[int, int, str]] = []
    for match in _TARGET.finditer(masked):
        phrase = match.group("what").strip()
        words = phrase.lower().split()
        if phrase.lower() in _NOT_A_TARGET or any(w in _NOT_A_TARGET for w in words[:1]) or len(phrase) < 3:
            continue
        start = match.start("what")
        found.append((start, start + len(phrase), phrase))
    return found


__all__ = ["approval_qualifiers", "approval_targets"]
