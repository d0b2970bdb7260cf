"""Possessives written without the apostrophe: "Company Bs spend", "kestrals share", "co Bs agreement", "company cs
biggest supplier", "Xenons invoices".

Chat English drops the apostrophe; the glued "s" then made the company's or supplier's name another word, which no
spelling matched ("I do not know 'Company Bs'"). The rule is by shape, for every name of the tenant at once: a word
ending in an "s" glued to a letter, outside every name already read, is read without that "s"; a company or supplier
name (exact, abbreviated or within one slip, by the ordinary name readers) that then ends exactly where the "s" was
is that name in the possessive, its span taking the "s". Nothing else changes: a group or product word read without
its "s" is a plural the readers take anyway, and a word whose stem names nothing stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from router.entities import EntityMentions, Mention

#: A word whose last letter is an "s" glued to a letter ("Bs", "kestrals", "Xenons"); not "ss" ("Gauss").
_GLUED_S = re.compile(r"(?<![\w'’])[^\W\d_]*[^\W\d_s]s(?![\w'’-])", re.I | re.UNICODE)


def possessive_mentions(text: str, mentions: EntityMentions,
                        find: Callable[[str], EntityMentions]) -> EntityMentions:
    """``mentions`` with the companies and suppliers named in the possessive without an apostrophe, found by
    ``find`` (the name readers) in ``text`` with each glued "s" outside a read name blanked.

    >>> from router.entities import EntityMentions, Mention
    >>> def find(t):
    ...     at = t.find("Company B ")
    ...     return EntityMentions(companies=(Mention("company", "Company B", at, at + 9, ("COMP-B",)),) if at >= 0
    ...                           else ())
    >>> found = possessive_mentions("share of Company Bs spend", EntityMentions(), find)
    >>> [(m.text, m.start, m.end) for m in found.companies]
    [('Company Bs', 9, 19)]
    >>> possessive_mentions("share of sensors spend", EntityMentions(), find).companies
    ()
    """
    taken = mentions.spans
    ends = [m.end() - 1 for m in _GLUED_S.finditer(text)
            if not any(s < m.end() and m.start() < e for s, e in taken)]
    if not ends:
        return mentions
    blanked = "".join(" " if i in ends else c for i, c in enumerate(text))
    found = find(blanked)

    def new(existing: tuple[Mention, ...], trial: tuple[Mention, ...]) -> tuple[Mention, ...]:
        added = tuple(replace(m, text=text[m.start:m.end + 1], end=m.end + 1) for m in trial
                      if m.end in ends and m.resolved is not None
                      and not any(m.start < e and s < m.end + 1 for s, e in taken))
        return tuple(sorted((*existing, *added), key=lambda m: m.start)) if added else existing

    return replace(mentions, companies=new(mentions.companies, found.companies),
                   suppliers=new(mentions.suppliers, found.suppliers))


__all__ = ["possessive_mentions"]
