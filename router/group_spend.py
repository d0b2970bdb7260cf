"""A product group with an amount word is the spend's filter, never the catalogue's list of the group.

"WG Papier, Xenon Pharma, 10.2025: Gesamtbetrag in EUR?", "control cabinets co c, total EUR", "office supplies
Q4 - amount": a group, an amount asked (in any of the writers' languages) and no word of the catalogue. Read by the
intent classifier alone, such a fragment may land on the catalogue's product list of the group, which drops the
amount and the period (a list presented as the answer to a figure: a silent wrong). The question is then read once
more with "spend" in front, and that reading is kept when it answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from router.contract import RoutingResult

#: Words of an amount asked: English, German, French, Spanish, and the reporting currency written beside it.
_AMOUNT = re.compile(
    r"\b(?:spend|spent|spending|amounts?|totals?|sum|costs?|expenditures?|expenses|invoiced|billed|how\s+much|"
    r"(?:gesamt|rechnungs)?betr(?:a|ä|ae)ge?|summe|gesamtsumme|ausgaben|kosten|montants?|d[ée]penses?|"
    r"importes?|gastos?|eur|euros?)\b|€", re.I)
#: Words that ask for the catalogue itself (its products, who supplies what): the list is then the answer.
_CATALOGUE = re.compile(
    r"\b(?:products?|items?|articles?|catalog(?:ue)?|katalog\w*|artikel|produkte?|suppl(?:y|ies)|sells?|"
    r"carr(?:y|ies)|stocks?|liefer\w*|which|welche\w*|what|was|who|wer|list\w*|members?|under)\b", re.I)


def spend_asked_of_group(text: str, result: RoutingResult, group_names: Iterable[str] = ()) -> bool:
    """Whether ``result`` lists the catalogue of a group where ``text`` asks for an amount and names no catalogue
    word (then the spend of the group is asked).

    >>> from types import SimpleNamespace
    >>> listed = SimpleNamespace(workflow="catalog_products", requires_clarification=False)
    >>> spend_asked_of_group("WG Papier, Xenon Pharma, 10.2025: Gesamtbetrag in EUR?", listed)
    True
    >>> spend_asked_of_group("which products are in Paper Products?", listed, ["Paper Products"])
    False
    >>> spend_asked_of_group("WG Paper Products, Xenon, 10.2025: amount in EUR?", listed, ["Paper Products"])
    True
    """
    if result.workflow != "catalog_products" or result.requires_clarification:
        return False
    for name in sorted(group_names, key=len, reverse=True):  # ("Paper Products" names a group, asks no list)
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text, flags=re.I)
    return bool(_AMOUNT.search(text)) and not _CATALOGUE.search(text)


__all__ = ["spend_asked_of_group"]
