"""Elided company lists: "Company A, B and C", "Company A and B" name the shared head of the companies' names once
and then only the word that tells each apart. Each listed word that completes the head to another known company's
name is that company (read as a mention, so the question names every company, never only the first)."""

from __future__ import annotations

import re
from dataclasses import replace

from router.entities import EntityMentions, Gazetteer, Mention

#: "Company A, B and C": a list that names the shared part of the companies' names once ("Company") and then
#: only what tells them apart.
_ELIDED_ITEM = re.compile(r"\s*(?:,\s*(?:and\s+|&\s*)?|\s+(?:and|&|\+|or)\s+|/\s*)(?P<tail>[A-Za-z0-9][\w-]*)\b")


def elided_companies(text: str, mentions: EntityMentions, gazetteer: Gazetteer) -> EntityMentions:
    """Add the companies of an elided list ("Company A, B and C", "Company A and B"): after a company whose name is
    a shared head and a distinguishing last word, each listed word that completes that head to another known
    company's name is that company. A word completing no known name is left to the reading (never a guess)."""
    by_name = {c.company_name.lower(): c for c in gazetteer.companies}
    added: list[Mention] = []
    taken = [(m.start, m.end) for m in (*mentions.companies, *mentions.suppliers, *mentions.product_groups,
                                        *mentions.products)]
    for m in mentions.companies:
        if len(m.candidates) != 1:
            continue
        company = gazetteer.company(m.candidates[0])
        if company is None or " " not in company.company_name:
            continue
        head = company.company_name.rsplit(" ", 1)[0]
        if not text[m.start:m.end].lower().startswith(head.lower()):
            continue  # the head must be written, not only implied by an alias
        end = m.end
        while (item := _ELIDED_ITEM.match(text, end)) is not None:
            other = by_name.get(f"{head} {item.group('tail')}".lower())
            if other is None or any(s <= item.start("tail") < e for s, e in taken):
                break
            added.append(Mention("company", item.group("tail"), item.start("tail"), item.end("tail"),
                                 (other.company_id,)))
            end = item.end()
    if not added:
        return mentions
    return replace(mentions, companies=tuple(sorted((*mentions.companies, *added), key=lambda x: x.start)))


__all__ = ["elided_companies"]
