"""A subgroup asked for alone beside its parent group: "spend on crates only (not boxes in general)", "just the
pressure sensors, not sensors overall", "temperature sensors rather than all sensors".

Two product groups named, one inside the other, are otherwise asked back as a choice between them. When the
question marks the subgroup as the only one meant ("only", "just", "alone", "specifically") and sets the parent
aside as the general case ("not ... in general", "rather than", "instead of", "not all ..."), the reading is the
subgroup (with its own subgroups): the parent is named as what it is not, never excluded from the figure (that
would leave nothing) nor dropped silently (the answer's reading names the subgroup).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from router.entities import Gazetteer, Mention, ProductGroup

#: The subgroup marked as the only one meant, right before or after its name.
_ONLY_BEFORE = re.compile(r"\b(?:only|just|solely|specifically|exclusively)\s+(?:the\s+|our\s+|on\s+)?$", re.I)
_ONLY_AFTER = re.compile(r"^\s*(?:only|alone|specifically|exclusively|by\s+themselves|on\s+their\s+own)\b", re.I)
#: The parent set aside as the general case: "not boxes in general", "rather than all sensors", "instead of boxes".
_NOT_BEFORE = re.compile(r"(?:\bnot|\brather\s+than|\binstead\s+of|\bas\s+opposed\s+to)\s+"
                         r"(?:the\s+|all\s+(?:the\s+)?|any\s+|other\s+|our\s+)?$", re.I)
_GENERAL_AFTER = re.compile(r"^\s*(?:in\s+general|overall|as\s+a\s+whole|in\s+total|generally|at\s+large)\b", re.I)


def subgroup_only(text: str, mentions: Sequence[Mention], gazetteer: Gazetteer) -> ProductGroup | None:
    """The subgroup meant alone when ``text`` names exactly two product groups, one inside the other, marks the
    inner one as the only one meant and sets the outer one aside as the general case; else ``None``.

    >>> from router.entities import Gazetteer, Mention, ProductGroup
    >>> g = Gazetteer(product_groups=(ProductGroup("PG-BOX", "Boxes"), ProductGroup("PG-BOX-CRT", "Crates", "PG-BOX")))
    >>> t = "spend on crates only (not boxes in general)"
    >>> subgroup_only(t, [Mention("product_group", "crates", 9, 15, ("PG-BOX-CRT",)),
    ...                   Mention("product_group", "boxes", 26, 31, ("PG-BOX",))], g).product_group_id
    'PG-BOX-CRT'
    """
    resolved = [m for m in mentions if m.resolved]
    ids = {m.resolved for m in resolved}
    if len(ids) != 2 or len(resolved) != len(mentions):
        return None
    first, second = sorted(i for i in ids if i)
    if first in gazetteer.subgroups(second):
        inner_id, outer_id = first, second
    elif second in gazetteer.subgroups(first):
        inner_id, outer_id = second, first
    else:
        return None
    inner = [m for m in resolved if m.resolved == inner_id]
    outer = [m for m in resolved if m.resolved == outer_id]
    only = any(_ONLY_BEFORE.search(text[:m.start]) or _ONLY_AFTER.match(text[m.end:]) for m in inner)
    general = all(_NOT_BEFORE.search(text[:m.start]) or _GENERAL_AFTER.match(text[m.end:]) for m in outer)
    negated = any(_NOT_BEFORE.search(text[:m.start]) for m in outer)
    if not (general and (only or negated)):
        return None
    return next((g for g in gazetteer.product_groups if g.product_group_id == inner_id), None)


__all__ = ["subgroup_only"]
