"""An agreement named by its subject in an approved-vendor question: "approved vendors for Q2 2026 according to the
packaging agreement", "who is approved under the lab supply contract".

A company's agreement is titled by what it covers ("Packaging Supply Agreement 2025-08"); "the packaging agreement"
names that document, and its approval table lists every vendor it approves, whatever each one supplies. Read as a
product-group filter, the same words would keep only the vendors approved for that group, a silently narrower list.
So when an approved-vendor list is asked "according to / under / per / in" an agreement whose subject words are a
product group of the tenant, the subject words are dropped and the list is the agreement's (the company's approvals
in force, each naming its agreement). A subject that is a company's or supplier's name ("the Kestrel agreement")
stays: it says whose agreement. Pure functions over the text and the tenant's group names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: "according to the packaging agreement", "under our lab supply contract", "per the Packaging Supply Agreement".
#: ("outside the packaging agreement's approved list", "off the lab contract": the same agreement, its list the
#: complement of the spend asked; "the Kestrel packaging agreement": the company's name before the subject)
_SUBJECT = re.compile(
    r"\b(?P<lead>according\s+to|under|per|as\s+per|in|from|of|outside(?:\s+of)?|off|beyond|not\s+(?:on|in|under))"
    r"\s+(?P<the>the|our|its|their)\s+"
    r"(?P<subject>[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,3}?)\s+"
    r"(?P<doc>(?:(?:supply|framework|purchasing|master)\s+)?(?:agreement|agmt|contract))\b", re.I)
#: An approved-vendor list asked for ("approved vendors", "who is approved", "which suppliers are approved", "the
#: approved list", "the list of approved suppliers").
_APPROVED_LIST = re.compile(r"\b(?:approved|authori[sz]ed)\s+(?:[\w-]+\s+)?(?:vendors?|suppliers?|list)\b|"
                            r"\b(?:approval|approved[- ]vendor|vendor)\s+list\b|\blist\s+of\s+approved\b|"
                            r"\bwho\s+(?:is|are|was|were)\s+(?:\w+\s+)?approved\b|"
                            r"\b(?:vendors?|suppliers?)\s+(?:are|were|is|was)\s+(?:\w+\s+)?approved\b", re.I)
_DOCUMENT_KIND = re.compile(r"^(?:supply|framework|purchasing|master|supply\s+framework)$", re.I)


@dataclass(frozen=True)
class SubjectRead:
    """The question with the agreement's subject words dropped, and those words (named in the answer)."""

    text: str
    subject: str


def agreement_by_subject(text: str, group_names: Iterable[str]) -> SubjectRead | None:
    """``text`` with the product-group subject of "the <subject> agreement" dropped, or ``None`` (no such agreement
    named, or its subject is no product group of the tenant).

    >>> agreement_by_subject("approved vendors for Q2 2026 according to the packaging agreement?", ["Packaging"])
    SubjectRead(text='approved vendors for Q2 2026 according to the agreement?', subject='packaging')
    >>> agreement_by_subject("approved vendors under the Kestrel agreement", ["Packaging"]) is None
    True
    >>> agreement_by_subject("Approved vendors under the Kestrel packaging agreement today?", ["Packaging"]).text
    'Approved vendors under the Kestrel agreement today?'
    >>> agreement_by_subject("spend with vendors outside the lab agreement's approved list", ["Lab"]).text
    "spend with vendors outside the agreement's approved list"
    """
    if _APPROVED_LIST.search(text) is None:
        return None  # a clause or a figure "under the packaging agreement" keeps its own reading
    groups = {" ".join(g.casefold().split()) for g in group_names}
    for found in _SUBJECT.finditer(text):
        words = found.group("subject")
        # "the packaging supply agreement": the document's kind words are no part of its subject
        subject = re.sub(r"\s+(?:supply|framework|purchasing|master)$", "", words, flags=re.I)
        # "the Kestrel packaging agreement": the words before the subject say whose agreement (kept); the subject
        # is the longest group name ending the phrase
        parts = subject.split()
        cut = next((i for i in range(len(parts)) if " ".join(parts[i:]).casefold() in groups), None)
        if _DOCUMENT_KIND.match(subject) or cut is None:
            continue
        owner = " ".join(parts[:cut])
        kept = f"{found.group('lead')} {found.group('the')} {owner + ' ' if owner else ''}{found.group('doc')}"
        return SubjectRead(text=text[:found.start()] + kept + text[found.end():], subject=" ".join(parts[cut:]))
    return None


__all__ = ["SubjectRead", "agreement_by_subject"]
