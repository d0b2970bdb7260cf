"""Follow-up questions without their context: "and for the other one?", "what about last year?", "same for Beta?".

``ask`` is stateless: every question is answered on its own, with no earlier question or answer to lean on. A
question that refers back to one ("the other one", "same for", "what about last year") therefore lacks a
constraint it takes for granted (the figure, the entity, the period), and answering it would mean answering a
guessed question. Such a question becomes a clarification that names the referring words and asks for the whole
question; nothing is planned or run.

A question is a follow-up when it uses a phrase that only makes sense after an earlier question (the other one,
the same, as before, that one), or when it opens like a continuation ("and ...", "what about ...", "how about
...") and the rest names nothing to compute or look up (only a period, a name or filler words): "And what was
Company A's spend in Q1 2026?" is a whole question, "and the previous quarter?" is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Phrases that point back to an earlier question or answer wherever they stand.
_REFERRING = re.compile(
    r"\b(the other (?:ones?|suppliers?|vendors?|compan(?:y|ies)|groups?|products?|categor(?:y|ies)|periods?|"
    r"quarters?|years?|months?|invoices?)|the others|"
    r"same (?:for|with|as (?:before|above|last time|the last one)|but|again|question|thing|figure)|"
    # "same breakdown but for company b", "the same split for Q2": the earlier answer's shape, re-asked
    r"same (?:breakdown|split|table|view|analysis|report|query|numbers|figures|chart|list|ranking|grouping)"
    r"(?=\s+(?:but|for|with|as|again|please|in|on)\b)|"
    r"as before|as above|like before|(?:the|your|that) (?:previous|last|earlier) (?:answer|question|result|reply|one)|"
    r"(?:do|show) (?:it|that|the same) (?:again|for)|(?:repeat|redo) (?:it|that|this)|"
    # "ok now do that as a 6 month rolling avg", "show this by quarter": an earlier answer re-shaped
    r"(?:now\s+)?(?:do|show|make|give|redo|run|turn)\s+(?:me\s+)?(?:that|this|it)\s+(?:again\s+)?"
    r"(?:as|by|per|into|in|with|but|over)(?=\s))\b",
    re.I,
)
#: Demonstratives that need an antecedent: one only when the question itself names no company, supplier, group
#: or product ("... Supplier Beta ..., and which products does that supplier sell?" has its antecedent).
_DEMONSTRATIVE = re.compile(
    r"\b(?:that|this|the same) (?:one|supplier|vendor|company|group|product|category|figure|number|question|"
    r"thing|metric|amount|total)\b"
    # "ok now split that by supplier", "break it down by month", "rank them": a figure of an earlier answer reshaped
    r"|\b(?:split|break|broke|broken|group|divide|sort|rank|order|filter|compare)\s+(?:it|that|this|them|those|"
    r"these)\b(?:\s+(?:down|out|up))?"
    # "how does that compare (then)", "how did it change", "is that higher": the demonstrative is the subject of a
    # comparison whose two sides were never named
    r"|\b(?:does|do|did|would|will|is|was|has|are|were)\s+(?:that|this|it|those|these|they)\s+(?:compare|stack\s+up|"
    r"differ|change|changed|move|moved|look|higher|lower|more|less|better|worse)\b",
    re.I,
)
#: Openers of a continuation; what follows them decides whether the question stands on its own.
_OPENER = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|right|thanks|great|and|so|then|now|also|but)[,.]?\s+)*"
    r"(?P<opener>what about|how about|and (?:for|with|in|from|during|the|last|this|next|what about|how about)|"
    r"and|also for|now for|then for|for)\b",
    re.I,
)
#: Words that name something to compute or look up: a continuation with one of them is a whole question.
_SUBSTANCE = re.compile(
    r"\b(spend|spent|spending|expenditure|cost|costs|purchases?|purchased|bought|buy|paid|pay|invoiced|invoices?|"
    r"credit notes?|how many|how much|number|count|total|totals|sum|average|price|prices|units?|quantit(?:y|ies)|"
    r"tax|vat|share|rank\w*|top|biggest|largest|smallest|lowest|bottom|approved|approval|agreements?|contracts?|"
    r"terms|clauses?|"
    r"warranty|liability|calibrat\w*|install\w*|manuals?|documents?|catalog(?:ue)?|explain|summar\w+|describe|"
    r"list|show|which|who|why|when|where|what (?:is|are|was|were|did|does|do)"
    r")\b",
    re.I,
)


@dataclass(frozen=True)
class FollowUp:
    """A question that refers to context ``ask`` does not have, and the words that refer to it."""

    words: str
    start: int
    end: int


def context_reference(question: str, names_an_entity: bool = False) -> FollowUp | None:
    """The referring words of a follow-up question that lacks its context, or ``None``. ``names_an_entity``:
    the question names a company, supplier, group or product itself (a demonstrative may refer to it).

    >>> context_reference("and for the other one?").words
    'the other one'
    >>> context_reference("What about last year?").words
    'What about last year'
    >>> context_reference("And what was Company A's total spend in Q1 2026?") is None
    True
    """
    match = _REFERRING.search(question) or (None if names_an_entity else _DEMONSTRATIVE.search(question))
    if match is not None:
        return FollowUp(match.group(0), match.start(), match.end())
    opener = _OPENER.match(question)
    if opener is None:
        return None
    rest = question[opener.end():]
    if _SUBSTANCE.search(rest):
        return None
    # The whole continuation is what refers back ("and the previous quarter"): it is named as the user wrote it.
    start = len(question) - len(question.lstrip())
    end = len(question.rstrip(" ?!.").rstrip())
    return FollowUp(question[start:end], start, end)


def clarification(follow: FollowUp) -> tuple[str, str]:
    """(reason, question) of the clarification for a follow-up without context."""
    reason = f"context: {follow.words!r} refers to an earlier question, and each question is answered on its own"
    question = (f"{follow.words!r} refers to an earlier question or answer, but each question is answered on its "
                "own, without the conversation before it. Please ask the whole question: the figure or document, "
                "the company, the supplier or product group, and the period (for example \"What was Company A's "
                "spend with Supplier Beta in 2026-Q1?\").")
    return reason, question


__all__ = ["FollowUp", "clarification", "context_reference"]
