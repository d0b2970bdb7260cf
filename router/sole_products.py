"""A unit price asked of a product group whose catalogue holds one product: that product's price.

"kestrel crates: avg unit price q1 26", "unit price of the valve kits in 2025": a unit price exists per product only
(``catalog.average_unit_price`` takes one product code), so a group name was asked back ("which product?") even
when the group (with its subgroups) holds a single catalogue product, which the name can only mean. That product is
read, and the group stays in the reading so that the answer says what was read ("product group Crates, products
PRD-900"). A group of several products is still asked about (an average over products of different units would mix
what it averages), and a ranking of the group's products or suppliers by unit price (router/price_rankings.py) is
left as it is: it ranks within the group, whatever its size.
"""

from __future__ import annotations

from dataclasses import replace

from router.entities import Gazetteer
from router.reader import Reading


def group_products(group_id: str, gazetteer: Gazetteer) -> frozenset[str]:
    """The catalogue products of ``group_id`` and its subgroups."""
    within = set(gazetteer.subgroups(group_id))
    return frozenset(code for code, groups in gazetteer.product_group_of.items() if groups & within)


def sole_product_reading(reading: Reading, gazetteer: Gazetteer) -> Reading:
    """``reading`` with the one product of its product group read as the product a unit price is asked of, or
    ``reading`` unchanged (no unit price asked, a product already named, no group or several, a price ranking, a
    group of several products)."""
    from router.price_rankings import _RANKED, price_ranking
    from router.unit_prices import price_request

    e = reading.entities
    if not (reading.cues.unit_price or reading.analysis.average_price) or e.product_codes or not e.product_group_id:
        return reading
    if len({m.resolved for m in reading.mentions.product_groups}) > 1 or reading.excluded_group_ids:
        return reading
    if price_ranking(reading, gazetteer.subgroups) is not None:
        # "lowest unit price of crates" names the lowest line price of the one product; "rank", "which",
        # "A vs B" rank within the group, as they do for any group
        asked = price_request(reading)
        if asked is None or asked.kind != "range" or _RANKED.search(reading.cue_text):
            return reading
    products = group_products(e.product_group_id, gazetteer)
    if len(products) != 1:
        return reading
    code = next(iter(products))
    # the group is the product's own: no filter of its own (no unit-price metric takes one), said by the product
    return replace(reading, entities=e.model_copy(update={"product_codes": (code,), "product_group": None,
                                                          "product_group_id": None}),
                   identifiers=replace(reading.identifiers, product_codes=(code,)))


def sole_product_note(before: Reading, after: Reading, gazetteer: Gazetteer) -> str:
    """What the answer says of the product read for the group: "product group Crates (PG-BOX-CRT) read as its one
    catalogue product, PRD-900 (Euro crate 600x400)"."""
    group = before.entities.product_group or before.entities.product_group_id
    code = after.entities.product_codes[0]
    name = next((p.product_name for p in gazetteer.products if p.product_code == code), "")
    return (f"product group {group} ({before.entities.product_group_id}) read as its one catalogue product, {code}"
            + (f" ({name})" if name else ""))


__all__ = ["group_products", "sole_product_note", "sole_product_reading"]
