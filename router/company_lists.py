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
        head, last = company.company_name.rsplit(" ", 1)
        written = text[m.start:m.end].split()
        # the head must be written, not only implied by an alias: as in the name, or shortened before the name's
        # own last word ("cos A and B", "Co. A & C": the short head and the letter of the name)
        if not (text[m.start:m.end].lower().startswith(head.lower())
                or (len(written) > 1 and written[-1].lower() == last.lower())):
            continue
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


#: "all companies except C", "every company other than B and C": the plural of a shared head word ("Company")
#: before an exclusion cue, then only the words that tell the companies apart.
_HEAD_EXCEPT = re.compile(
    r"\b(?P<head>[A-Za-z]\w*?)(?:ies|s)?\s+(?:except(?:\s+for)?|excluding|excl\.?|but|other\s+than|apart\s+from|"
    r"besides|without)\s+(?P<tail>[A-Za-z0-9][\w-]*)\b", re.I)


def excepted_companies(text: str, mentions: EntityMentions, gazetteer: Gazetteer) -> EntityMentions:
    """Add the companies "all companies except C" leaves out: the companies' shared head word in the plural
    before an exclusion cue, then each word (written as in the name) that completes that head to a known
    company's name is that company. The exclusion itself is read by the cue, like any named company's."""
    by_name = {tuple(c.company_name.rsplit(" ", 1)): c for c in gazetteer.companies if " " in c.company_name}
    heads = {h.lower() for h, _ in by_name}
    taken = [(m.start, m.end) for m in (*mentions.companies, *mentions.suppliers, *mentions.product_groups,
                                        *mentions.products)]
    added: list[Mention] = []
    for match in _HEAD_EXCEPT.finditer(text):
        word = match.group("head").lower()
        head = word if word in heads else f"{word}y" if f"{word}y" in heads else None  # "compan" + "ies"
        if head is None:
            continue
        start, end, tail = match.start("tail"), match.end("tail"), match.group("tail")
        while True:
            other = next((c for (h, last), c in by_name.items() if h.lower() == head and last == tail), None)
            if other is None or any(s < end and start < e for s, e in taken):
                break
            added.append(Mention("company", tail, start, end, (other.company_id,)))
            item = _ELIDED_ITEM.match(text, end)
            if item is None:
                break
            start, end, tail = item.start("tail"), item.end("tail"), item.group("tail")
    if not added:
        return mentions
    return replace(mentions, companies=tuple(sorted((*mentions.companies, *added), key=lambda x: x.start)))


__all__ = ["elided_companies", "excepted_companies"]
