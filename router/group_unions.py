"""Two product groups named together: "data loggers / sensors", "compressors and compressor spare parts".

Joined by "and", "/", "+" or "&", both groups are meant (their union), not a choice between them; asked back as an
ambiguity, the question was never answered. The governed paths take one group (with its subgroups), so the union
is read as the one group that holds exactly it:

* one group lies under the other ("compressors and compressor spare parts"): the outer group, which holds the
  inner one; the reading says so;
* otherwise their nearest common parent, when every catalogue product under that parent lies in one of the two
  groups (the parent then holds exactly the union: "data loggers / sensors" is Monitoring Products when that is
  all it holds); the reading says so.

A union no single group holds exactly stays a clarification (never the parent with more products in it, nor one
of the two groups alone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from router.entities import Gazetteer, Mention

#: What may stand between the two group names for both to be meant.
_JOINED = re.compile(r"^\s*(?:/|\+|&|,?\s*and|und|as\s+well\s+as)\s*$", re.I)


@dataclass(frozen=True)
class GroupUnion:
    """The one group that holds exactly the two named groups, and how the reading says it."""

    group_id: str
    group_name: str
    note: str


def _ancestors(group_id: str, parents: dict[str, str | None]) -> list[str]:
    out, seen, at = [], set(), parents.get(group_id)
    while at is not None and at not in seen:
        out.append(at)
        seen.add(at)
        at = parents.get(at)
    return out


def joined_groups_union(text: str, mentions: tuple[Mention, ...], gazetteer: Gazetteer) -> GroupUnion | None:
    """The union of exactly two group mentions joined in ``text`` (see the module docstring), else ``None``."""
    named = [m for m in sorted(mentions, key=lambda m: m.start) if m.resolved is not None]
    if len(named) != 2 or len(mentions) != 2 or named[0].resolved == named[1].resolved:
        return None
    first, second = named
    if not _JOINED.match(text[first.end:second.start]):
        return None
    a, b = str(first.resolved), str(second.resolved)
    names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    parents = {g.product_group_id: g.parent_group_id for g in gazetteer.product_groups}
    if a not in names or b not in names:
        return None
    for outer, inner in ((a, b), (b, a)):
        if inner in gazetteer.subgroups(outer):
            return GroupUnion(outer, names[outer], f"{names[outer]} and {names[inner]} read as {names[outer]}, "
                                                  f"which holds {names[inner]} (one of its subgroups)")
    common = next((g for g in _ancestors(a, parents) if g in _ancestors(b, parents)), None)
    if common is None:
        return None
    covered = set(gazetteer.subgroups(a)) | set(gazetteer.subgroups(b))
    under = set(gazetteer.subgroups(common))
    products = [groups for groups in gazetteer.product_group_of.values() if groups & under]
    if not products or not all(groups & covered for groups in products):
        return None  # the parent holds products outside both groups: not the union
    return GroupUnion(common, names[common], f"{names[a]} and {names[b]} together read as {names[common]}, whose "
                                             f"catalogue products all lie in one of the two")


def restated_parts(mentions: tuple[Mention, ...], gazetteer: Gazetteer,
                   excluded: tuple[str, ...] = ()) -> GroupUnion | None:
    """A group named with subgroups of its own that together hold every catalogue product under it ("packaging
    ... boxes + crates both", "pressure/temperature/flow sensors ... for sensors"): the group, whose figure is the
    same whichever of the two is meant, so there is nothing to ask. Parts that leave some of the group's products
    out stay a choice (the group and its part differ then)."""
    named = list(dict.fromkeys(m.resolved for m in mentions if m.resolved is not None))
    if len(named) < 2 or any(m.resolved is None for m in mentions) or set(named) & set(excluded):
        return None
    names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    outer = [g for g in named if g in names and all(o in gazetteer.subgroups(g) for o in named)]
    if len(outer) != 1:
        return None
    whole = outer[0]
    parts = [g for g in named if g != whole]
    covered = {s for g in parts for s in gazetteer.subgroups(g)}
    under = set(gazetteer.subgroups(whole))
    products = [groups for groups in gazetteer.product_group_of.values() if groups & under]
    if not products or not all(groups & covered for groups in products):
        return None
    listed = ", ".join(names[g] for g in parts)
    return GroupUnion(whole, names[whole], f"{names[whole]} with {listed} read as {names[whole]}, whose catalogue "
                                           "products all lie in the parts named")


_SLASH_BEFORE = re.compile(r"([^\W\d_][\w-]{3,})\s*/\s*$")
_SLASH_AFTER = re.compile(r"^\s*/\s*([^\W\d_][\w-]{3,})")


def slash_joined_unknown(text: str, groups: tuple[Mention, ...], occupied: list[tuple[int, int]]) -> str | None:
    """A word joined to a read group by "/" that names nothing read ("pumps / sensors" where no group is called
    pumps): the list's other item, never dropped for the group alone. Returns the word (asked back), else None."""
    for m in groups:
        if m.resolved is None:
            continue
        for found, offset in ((_SLASH_BEFORE.search(text[:m.start]), 0), (_SLASH_AFTER.match(text[m.end:]), m.end)):
            if found is None:
                continue
            start, end = found.start(1) + offset, found.end(1) + offset
            if not any(s < end and start < e for s, e in occupied):
                return text[start:end]
    return None


__all__ = ["GroupUnion", "joined_groups_union", "restated_parts", "slash_joined_unknown"]
