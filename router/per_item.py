"""A price asked per item of a named product: "what did we pay per label roll", "per reagent kit RK-12 on
average", "copy paper A4, average per box".

The product named after "per" is the unit the price is of, so the figure is the product's quantity-weighted
average unit price, never the spend on it (a different figure, presented as complete). The unit of measure after an
average ("average per box") asks the same when a product is named. Only the reader's own spans are used: the
product mention has been found already, so no word of the name is read twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: "per" right before a product's name ("pay per label roll", "per one reagent kit"); "per the manual" is
#: "according to", no price.
_PER_BEFORE = re.compile(r"\bper\s+(?:a\s+|an\s+|one\s+|each\s+|single\s+)?$", re.I)
#: A price is asked: what was paid, charged or cost, or an average.
_PRICE_ASKED = re.compile(r"\b(?:pa(?:y|id|ying)|cost\w*|charged?|prices?|average|avg|mean|spen[dt])\b", re.I)
#: Units a product is counted in ("per box", "per roll", "per kit").
_UNIT_WORDS = (r"sets?|kits?|metres?|meters?|box(?:es)?|parcels?|pairs?|rolls?|packs?|packages?|cartons?|bottles?|"
               r"items?|pieces?|pcs|units?|probes?|controllers?|modules?|cabinets?|sensors?|litres?|liters?|crates?|"
               r"gloves?|switch(?:es)?|valves?|loggers?|transmitters?|gauges?|wrenches?|multimeters?")
#: "average per box", "on average per roll", "per box on average", "avg. per kit", "each box on average".
_AVERAGE_PER_UNIT = re.compile(
    rf"\b(?:average|avg\.?|mean|on\s+average)\s+(?:net\s+)?(?:paid\s+)?per\s+(?:{_UNIT_WORDS})\b"
    rf"|\bper\s+(?:{_UNIT_WORDS})\s+on\s+average\b"
    rf"|\b(?:pay|paid|cost(?:\s+us)?)\s+(?:on\s+average\s+)?(?:for\s+)?(?:a|one|each)\s+(?:{_UNIT_WORDS})\b",
    re.I)
#: "what did X spend per unit on Y", "what does Y cost us per piece", "Y costing per unit": the spend or cost of
#: one unit is the unit price (a count unit after "per", never a month or a supplier).
_SPEND_PER_UNIT = re.compile(r"\b(?:spen[dt]|spending|cost(?:s|ing)?(?:\s+(?:us|me|them))?|pa(?:y|id|ying))\s*"
                             r"(?:per|/)\s*(?:unit|piece|pc|pcs|ea|each|item)\b", re.I)
#: A word that asks another price than the average: the lowest, highest or latest one (router/unit_prices.py).
_OTHER_PRICE = re.compile(r"\b(?:highest|lowest|max(?:imum)?|min(?:imum)?|cheapest|dearest|latest|"
                          r"last\s+(?:time|price|invoice|purchase|order)|most\s+recent(?:ly)?|recently|peak)\b", re.I)


def priced_per_item(text: str, product_spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...] | None:
    """The spans of the per-item words when ``text`` asks the price of one item of a product it names
    (``product_spans``: the product mentions' spans, or written codes'), else None. The spans ("per", "average
    per box") are read: the unit word is neither a breakdown ("per module") nor a product group ("per sensor").

    >>> priced_per_item("what did Xenon pay per label roll on average", [(23, 33)])
    ((19, 22),)
    >>> priced_per_item("Ypsilon - copy paper A4, average per box in Q1 2026", [(10, 23)])
    ((25, 40),)
    >>> priced_per_item("Ypsilon spend on copy paper A4 in Q1 2026", [(17, 30)]) is None
    True
    >>> priced_per_item("average per box in Q1 2026", []) is None
    True
    >>> priced_per_item("Per the MC-4 manual, what is the allowed temperature range?", [(8, 12)]) is None
    True
    """
    if not product_spans or not _PRICE_ASKED.search(text):
        return None
    before = [m for start, _ in product_spans if (m := _PER_BEFORE.search(text, 0, start)) is not None]
    if before:
        return tuple((m.start(), m.start() + 3) for m in before)
    found = [m.span() for m in _AVERAGE_PER_UNIT.finditer(text)]
    if not _OTHER_PRICE.search(text):
        found += [m.span() for m in _SPEND_PER_UNIT.finditer(text)]
    return tuple(found) if found else None
