"""A compound question about a document that does not exist: one "not found", never a part asked back beside it.

"Status and amount of invoice INV-2026-0999 for Company A? vendor says it is not paid." was split into two parts:
the lookup (not found) and the supplier's claim, which asks nothing and was asked back ("could you say what you
need?"). Every part of such a question is about the named document; once the document is missing, the not-found
is the whole answer. The invariant is checked on the parts' outcomes, not on their words: at least one part is
``not_found`` and every other part is a clarification whose only reason is that no ask was read in it (no name
asked about, no parameter missing); a part asked back for a reason of its own keeps the question compound.
"""

from __future__ import annotations

from collections.abc import Sequence

#: The clarification reason of a part in which no ask at all was read (router/routing.py).
NO_ASK = "intent: no retrieval intent reached the confidence threshold"


def sole_not_found(outcomes: Sequence[tuple[str, Sequence[str]]]) -> int | None:
    """The index of the part whose not-found answers the whole question, or None.

    ``outcomes`` holds each part's answer status and its clarification reasons, in order.

    >>> sole_not_found([("not_found", ()), ("clarification", (NO_ASK,))])
    0
    >>> sole_not_found([("not_found", ()), ("clarification", ("unknown supplier: Zeta",))]) is None
    True
    >>> sole_not_found([("answered", ()), ("clarification", (NO_ASK,))]) is None
    True
    >>> sole_not_found([("not_found", ()), ("not_found", ())]) is None
    True
    """
    found = [i for i, (status, _) in enumerate(outcomes) if status == "not_found"]
    if not found or len(outcomes) < 2:
        return None
    rest = [o for i, o in enumerate(outcomes) if i not in found]
    if rest and all(status == "clarification" and tuple(reasons) == (NO_ASK,) for status, reasons in rest):
        return found[0]
    return None


def set_aside_note(text: str, parts: Sequence[str]) -> str:
    """The not-found answer's text with the parts that asked nothing named as set aside (before the sources).

    >>> set_aside_note("Not found: no invoice X.", ["vendor says it is not paid."])
    "Not found: no invoice X. Set aside as a remark about that document: 'vendor says it is not paid.'."
    """
    head, sep, tail = text.partition(" Sources:")
    said = ", ".join(repr(p.strip()) for p in parts)
    return f"{head.rstrip()} Set aside as a remark about that document: {said}.{sep}{tail}"


__all__ = ["NO_ASK", "set_aside_note", "sole_not_found"]
