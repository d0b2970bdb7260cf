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


__all__ = ["approval_qualifiers"]
