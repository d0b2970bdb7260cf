"""A product group named by the word its names start with: "laboratory spend" for Laboratory Equipment, German
"Laborausgaben" (read as "Labor spend") for the group whose synonyms are "Laborausstattung" and "Laborgeräte".

Analysts drop the head noun of a group's name ("shipping" for Shipping Services) and German compounds keep only
the modifier ("Versandkosten"). A span nothing else resolved is offered here before it is named back as unknown:
it names a group when it is the first word of one of the group's names (of two words or more), or the start of
a one-word name that runs on (a compound). When it starts names of several groups, it names the one of them the
others all belong to (their common ancestor: "Labor" starts the names of Laboratory Equipment and of its subgroup
Lab Consumables, and names Laboratory Equipment with the subgroup in it); otherwise it stays unknown, so nothing is
guessed between two unrelated groups.
"""

from __future__ import annotations

import re

from router.entities import Gazetteer

#: A compound's modifier must leave this many letters of the name after it ("Labor" + "geräte").
_COMPOUND_REST = 3
_MIN_WORD = 4
#: A shorter word ("lab") names a group only when it is the whole first word of one of its names.
_SHORT_WORD = 3
#: A first word is cut short ("lab" for "laboratory") only when it has at least this many letters.
_ABBREVIATED_MIN = 5


def _names(gazetteer: Gazetteer) -> list[tuple[str, str]]:
    return [*((g.group_name, g.product_group_id) for g in gazetteer.product_groups), *gazetteer.group_synonyms]


def leading_word_group(phrase: str, gazetteer: Gazetteer) -> tuple[str, str] | None:
    """(product_group_id, the name it starts) for a one-word ``phrase`` that starts a group's names, or ``None``.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment"),
    ...                                  ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB")],
    ...                     [("Laborgeräte", "PG-LAB"), ("Laborverbrauchsmaterial", "PG-LABC")])
    >>> leading_word_group("laboratory", g), leading_word_group("Labor", g), leading_word_group("Lab", g)
    (('PG-LAB', 'Laboratory Equipment'), ('PG-LAB', 'Laborgeräte'), ('PG-LAB', 'Laboratory Equipment'))
    >>> leading_word_group("lab", Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment")]))
    """
    word = phrase.strip().lower()
    if len(word) < _SHORT_WORD or not re.fullmatch(r"[^\W\d_]+", word):
        return None
    hits: dict[str, str] = {}
    exact = False
    for name, group_id in _names(gazetteer):
        words = name.lower().split()
        if len(words) > 1 and words[0] == word:
            exact = True
            hits.setdefault(group_id, name)
        elif len(word) >= _MIN_WORD and len(words) == 1 and words[0].startswith(word) and (
                len(words[0]) >= len(word) + _COMPOUND_REST):
            hits.setdefault(group_id, name)
        elif (len(word) < _MIN_WORD and len(words) > 1 and len(words[0]) >= _ABBREVIATED_MIN
              and words[0].startswith(word) and len(words[0]) >= len(word) + 2):
            # "lab" is the first word of Lab Consumables and cut short from Laboratory (Equipment): both groups'
            # names start with it (their common ancestor is meant, below)
            hits.setdefault(group_id, name)
    if len(word) < _MIN_WORD and not exact:
        return None  # a short word alone names a group only as the whole first word of one of its names
    ancestors = [g for g in hits if all(h in gazetteer.subgroups(g) for h in hits)]
    return (ancestors[0], hits[ancestors[0]]) if len(ancestors) == 1 else None


__all__ = ["leading_word_group"]
