"""What a supplier sells in a product group, asked without "which products": "What Helix Reagents sells in lab
consumables", "what does Beta supply under sensors". The catalogue's products of the supplier in the group, as
"which products does Helix Reagents sell in lab consumables" reads (a relationship, no figure); left as written the
question reached no intent and was asked back. Present tense only: "what did X buy / sell" is a purchase listing
(:mod:`router.listings`), never the catalogue.
"""

from __future__ import annotations

import re

_CATALOG_ASK = re.compile(
    r"^(?P<lead>[^?:]{1,60}?:\s*)?\s*what\s+(?:does\s+|do\s+)?(?P<supplier>(?!(?:did|we|i|you|they)\b)[^?,;:]{1,60}?)\s+"
    r"(?:sells?|supply|supplies|offers?|carry|carries|provides?)\s+(?P<prep>in|under|within|among|for)\s+"
    r"(?P<group>[^?;:]{1,80}?)[\s?.!]*$", re.I | re.S)


def read_catalog_ask(question: str) -> str | None:
    """The question as "which products does <supplier> sell in <group>", else ``None``.

    >>> read_catalog_ask("What Helix Reagents sells in lab consumables")
    'which products does Helix Reagents sell in lab consumables'
    >>> read_catalog_ask("what does Beta supply under sensors?")
    'which products does Beta sell in sensors'
    >>> read_catalog_ask("what did Company A buy in Q1 2026") is None
    True
    """
    found = _CATALOG_ASK.match(question)
    if found is None:
        return None
    return (f"{found.group('lead') or ''}which products does {found.group('supplier').strip()} sell in "
            f"{found.group('group').strip()}")


__all__ = ["read_catalog_ask"]
