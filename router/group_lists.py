"""A product group restated by its subgroups in parentheses: "packaging spend (crates + boxes)", "monitoring
products (sensors + loggers)", "lab equipment (measurement + consumables)".

The parenthesis lists what the named group holds; the group counts with its subgroups anyway, so the list is the
figure's scope restated (the parent), never a second group to choose between nor a word left unread. Each item
of the list must name a subgroup of that group: a group mention resolved inside its subtree, or a word of exactly
one subgroup's name ("loggers" for Data Loggers, "consumables" for Lab Consumables). Anything else in the
parenthesis (a supplier, a period, an unknown word) leaves it as it was: read and asked about as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from router.entities import EntityMentions, Gazetteer, Mention

#: A parenthesis after the group, within a few words of it ("packaging spend kestrel in 2025 (crates + boxes)").
_PAREN = re.compile(r"\(([^()]{1,120})\)")
_MAX_GAP = 60
#: What joins the items of the list.
_JOIN = re.compile(r"\s*(?:\+|&|/|,|\band\b|\bund\b|\bplus\b)\s*", re.I)
_LEAD = re.compile(r"^(?:the|all|both|our|i\.?e\.?|e\.?g\.?|incl\.?|including|namely)\s+", re.I)
_MIN_WORD = 4


@dataclass(frozen=True)
class Restated:
    """The parenthesis spans to consume, and the subgroup mentions inside them (dropped: the parent is meant)."""

    spans: tuple[tuple[int, int], ...]
    dropped: tuple[Mention, ...]


def _words(name: str) -> set[str]:
    words = re.findall(r"[^\W\d_]+", name.lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def _one_subgroup(item: str, parent: str, gazetteer: Gazetteer) -> bool:
    """Whether ``item`` (one word) is a word of exactly one strict subgroup's name under ``parent``."""
    wanted = _words(item)
    if len(wanted) != 1 or len(next(iter(wanted))) < _MIN_WORD:
        return False
    names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    hits = [gid for gid in gazetteer.subgroups(parent) if gid != parent and wanted <= _words(names.get(gid, ""))]
    # "cabinets": Control Cabinets and its subgroup Cabinet Accessories are one branch (the one holding the other)
    return len(hits) == 1 or sum(1 for h in hits if set(hits) <= set(gazetteer.subgroups(h))) == 1


def restated_subgroups(text: str, mentions: EntityMentions, gazetteer: Gazetteer) -> Restated:
    """The parentheses that list subgroups of a group named before them (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    dropped: list[Mention] = []
    groups: Sequence[Mention] = mentions.product_groups
    others = [*mentions.suppliers, *mentions.companies, *mentions.products]
    for parent in groups:
        if parent.resolved is None:
            continue
        found = _PAREN.search(text, parent.end)
        if found is None or found.start() - parent.end > _MAX_GAP or "(" in text[parent.end:found.start()]:
            continue
        inner_start = found.start(1)
        if any(found.start() < m.start < found.end() for m in others):
            continue
        inside = [m for m in groups if found.start() < m.start and m.end <= found.end()]
        below = set(gazetteer.subgroups(parent.resolved)) - {parent.resolved}
        if any(m.resolved is None or m.resolved not in below for m in inside):
            continue
        items, pos, ok = [], 0, True
        content = found.group(1)
        for piece in _JOIN.split(content):
            start = content.find(piece, pos)
            pos = start + len(piece)
            items.append((inner_start + start, inner_start + start + len(piece), piece))
        if not items:
            continue
        for start, end, piece in items:
            word = _LEAD.sub("", piece.strip())
            if not word:
                continue
            if any(m.start < end and start < m.end for m in inside):
                continue
            if not _one_subgroup(word, parent.resolved, gazetteer):
                ok = False
                break
        if ok:
            spans.append(found.span())
            dropped.extend(inside)
    return Restated(tuple(spans), tuple(dropped))


#: "<group> + cabinets", "cabinets & <group>": one word joined to a group's name.
_JOINED_AFTER = re.compile(r"\s*(?:\+|&|\band\b|\bund\b|\bplus\b)\s*(?:the\s+)?([^\W\d_]{4,})\b", re.I)
_JOINED_BEFORE = re.compile(r"\b([^\W\d_]{4,})\s*(?:\+|&|\band\b|\bund\b|\bplus\b)\s*$", re.I)


@dataclass(frozen=True)
class Joined:
    """Groups joined into one: the mentions replaced, the mention standing for the union, the spans read."""

    replaced: tuple[Mention, ...]
    union: tuple[Mention, ...]
    spans: tuple[tuple[int, int], ...]


def _family_word(word: str, group_id: str, gazetteer: Gazetteer) -> str | None:
    """The one group of ``group_id``'s branch (its ancestors and subgroups, not itself) whose name has ``word``."""
    wanted = _words(word)
    if len(wanted) != 1:
        return None
    parents = {g.product_group_id: g.parent_group_id for g in gazetteer.product_groups}
    names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    family, up = set(gazetteer.subgroups(group_id)), parents.get(group_id)
    while up and up not in family:
        family.add(up)
        up = parents.get(up)
    hits = [g for g in family - {group_id} if wanted <= _words(names.get(g, ""))]
    return hits[0] if len(hits) == 1 else None


def joined_groups(text: str, mentions: EntityMentions, gazetteer: Gazetteer, taken: Sequence[tuple[int, int]]
                  ) -> Joined:
    """"cabinet accessories + cabinets": a group and a word naming a group of its branch, joined by "+" / "&" /
    "and", are both meant (a union), never the first alone; the union is read as the one group that holds the
    other (Control Cabinets with its subgroup Cabinet Accessories). A union no single group holds is not read
    here (the word stays for the caller to name)."""
    replaced: list[Mention] = []
    union: list[Mention] = []
    spans: list[tuple[int, int]] = []
    occupied = [*taken, *((m.start, m.end) for m in (*mentions.companies, *mentions.suppliers, *mentions.products,
                                                     *mentions.product_groups))]
    for m in mentions.product_groups:
        if m.resolved is None:
            continue
        after = _JOINED_AFTER.match(text, m.end)
        before = _JOINED_BEFORE.search(text[:m.start])
        for found, word_span in ((after, after.span(1) if after else None),
                                 (before, before.span(1) if before else None)):
            if found is None or word_span is None:
                continue
            if any(s < word_span[1] and word_span[0] < e for s, e in occupied):
                continue
            other = _family_word(text[word_span[0]:word_span[1]], m.resolved, gazetteer)
            if other is None:
                continue
            both = {m.resolved, other}
            holder = [g for g in both if both <= set(gazetteer.subgroups(g))]
            if len(holder) != 1:
                continue
            start, end = min(m.start, word_span[0]), max(m.end, word_span[1])
            replaced.append(m)
            union.append(Mention("product_group", text[start:end], start, end, (holder[0],)))
            spans.append((start, end))
            break
    return Joined(tuple(replaced), tuple(union), tuple(spans))


def product_restating_groups(mentions: EntityMentions, codes: Sequence[str], gazetteer: Gazetteer
                             ) -> tuple[Mention, ...]:
    """The group mentions that only restate the named products' own group ("avg unit price PRD-611 monitoring
    controller", "PRD-483 gauge sensor from Beta"): every named product lies in the group (or its subgroups), so
    the group filters nothing the product does not; a group a product lies outside of is a real conflict, kept."""
    named = [*codes, *(m.resolved for m in mentions.products if m.resolved)]
    if not named or not gazetteer.product_group_of:
        return ()
    out = []
    for m in mentions.product_groups:
        if m.resolved is None:
            continue
        within = set(gazetteer.subgroups(m.resolved))
        if all(gazetteer.product_group_of.get(c, frozenset()) and gazetteer.product_group_of[c] <= within
               for c in named):
            out.append(m)
    return tuple(out)


__all__ = ["Joined", "Restated", "joined_groups", "product_restating_groups", "restated_subgroups"]
