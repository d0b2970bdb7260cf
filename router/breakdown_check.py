"""The last check of a spend plan: a breakdown the question asks for must reach the plan.

"kestrel h2 split by category", "Aufstellung je Monat", "by supplier + po numbers": read by the grouping readers
(router/breakdown_words.py, router/reading.py) and carried to the governed call as its ``group_by`` or ``grain``.
Any reader along the way may still lose it (a rewrite that drops the words, a plan shape without a grouping), and
then the total would be answered as if it were the whole answer: a silent wrong. So before a spend plan is
answered the invariant is checked once more on the question as read: a breakdown phrase in the question and no
grouping anywhere in the plan make a clarification naming the breakdown, never a total presented as complete.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from router.contract import RoutingResult
from router.reader import amount_range
from router.reading import dimension_phrase, parse_amounts, parse_breakdown

#: The workflows whose plan answers a spend figure (their steps carry the grouping when one is asked).
_SPEND_WORKFLOWS = frozenset({"spend", "spend_with_documents"})
#: Argument keys through which a step groups or ranks its rows.
_GROUPING_KEYS = frozenset({"group_by", "grain", "dimension", "dimensions", "rank_by", "by", "breakdown"})


def _groups(value: Any) -> bool:
    """Whether an argument tree holds a non-empty grouping key."""
    if isinstance(value, Mapping):
        return any((key in _GROUPING_KEYS and bool(item)) or _groups(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(_groups(item) for item in value)
    return False


#: Words of an amount: with a breakdown by a governed dimension they ask for figures, never for passages.
_AMOUNT_WORDS = re.compile(r"\b(?:spend|spent|spending|invoiced|billed|amounts?|totals?|sum|eur|euros?|costs?|"
                           r"ausgaben|betr(?:ä|ae)ge|summe|montants?|importes?)\b", re.I)


#: An average over a grain ("average monthly spend", "avg spend per month", "run rate"): the grain divides the
#: total, it asks for no rows.
_AVERAGE = re.compile(r"\b(?:average|avg|mean|typical|durchschnitt\w*|schnitt|moyenne|promedio|run[- ]?rates?|"
                      r"ø)(?!\w)|ø", re.I)


_COMPANY_NAME = re.compile(r"\b(?:compan(?:y|ies)|comp|co)\.?\s+[A-Za-z](?![\w-])", re.I)


def dropped_breakdown(text: str, result: RoutingResult) -> str | None:
    """The clarification for a breakdown ``text`` asks for that no step of ``result``'s spend plan carries, or
    ``None`` (no breakdown asked, the plan carries one, several steps answer one row each, or no spend plan).
    An amount broken down by a governed dimension ("invoiced per legal entity Q1, EUR") that was read as a search
    of the documents is named too: passages are no figure per company."""
    if result.requires_clarification:
        return None
    # a company named by its letter ("paid by Company A", "by co a") is a name, no grouping by company
    asked = parse_breakdown(_COMPANY_NAME.sub("them", text))
    if result.workflow == "document_answer" and asked.group_by and _AMOUNT_WORDS.search(text):
        names = " and ".join(repr(dimension_phrase(d)) for d in asked.group_by)
        return (f"I read a breakdown by {names} of an amount in your question, but could not read it as a spend "
                f"figure (it was read as a search of the documents, whose passages give no amount per {names}). Do "
                f"you want the spend broken down by {names}?")
    if result.workflow not in _SPEND_WORKFLOWS:
        return None
    if _AVERAGE.search(text):
        return None  # "average monthly spend", "avg spend per supplier": the grouping divides, its rows are no ask
    grain = asked.grain
    if not (asked.group_by or grain):
        return None
    steps = [s for s in result.execution_plan if s.tool.startswith(("finance.", "semantic."))]
    if not steps or any(_groups(dict(s.arguments)) for s in result.execution_plan) or len(steps) > 1:
        return None  # (several governed steps: a row each, e.g. one per company)
    said = [dimension_phrase(d) for d in asked.group_by] + ([grain] if grain else [])
    names = " and ".join(repr(s) for s in said)
    return (f"I read a breakdown by {names} in your question, but this figure was planned as one total without "
            f"that breakdown, so it is not answered as if it were complete. Do you want the total only, or the "
            f"spend broken down by {names}?")


#: Argument keys through which a step bounds the amounts it counts or sums.
_AMOUNT_KEYS = ("threshold", "upper_threshold", "min_amount", "max_amount", "amount_min", "amount_max")


def _bounds(value: Any) -> bool:
    """Whether an argument tree holds a set amount bound."""
    if isinstance(value, Mapping):
        return any((key in _AMOUNT_KEYS and item is not None) or _bounds(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return any(_bounds(item) for item in value)
    return False


#: Workflows that bound each group's total by the question's amounts after the plan ran (router/thresholds.py).
_BOUNDING_WORKFLOWS = frozenset({"spend_threshold"})


def dropped_amount_range(text: str, result: RoutingResult) -> str | None:
    """The words of an amount range ``text`` asks ("gross total between 1150 EUR and 4350 EUR") that no step of
    ``result``'s plan bounds its amounts by, or ``None``: the figure of every amount would otherwise be answered
    as if it were the range's, so the answer names the range as not applied (partial)."""
    if result.requires_clarification or not result.execution_plan or result.workflow in _BOUNDING_WORKFLOWS:
        return None
    found = amount_range(parse_amounts(text))
    if found is None or any(_bounds(dict(s.arguments)) for s in result.execution_plan):
        return None
    low, high = found
    return text[low.start:high.end].strip()


__all__ = ["dropped_amount_range", "dropped_breakdown"]
