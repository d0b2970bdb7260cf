"""A model code written beside a product's (or a product group's) name that is not that product's code: "the VG-2
vacuum gauge" when the catalogue holds only the "Vacuum gauge VG-1".

The product reader matches a catalogue name without its model code ("vacuum gauge") so that "the vacuum gauge" is
understood; a model code written next to it then names *which* vacuum gauge. When that code is the product's own
(or a word of its name), the reading stands; when no catalogue name holds it, the question names a product the
catalogue does not have, and answering for the one whose name it shares would be a silent wrong figure. It is asked
about, named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from router.entities import Gazetteer, Mention

#: A model code: letters and digits with a hyphen ("VG-2", "DPS-482") or letters then digits ("PT100", "TL2").
_CODE = r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|[A-Za-z]{1,5}\d{1,5}[A-Za-z]?)"
_BEFORE = re.compile(rf"(?<![\w-])({_CODE})\s+(?:model\s+)?$")
#: Period words shaped like a code ("Q1", "H2", "FY26", "KW12", "Q1-26"): never a model.
_PERIOD_WORD = re.compile(r"(?:[qh]\d|fy\d{2,4}|cy\d{2,4}|kw\d{1,2}|cw\d{1,2}|w\d{1,2})(?:[-/']?\d{2,4})?", re.I)
_AFTER = re.compile(rf"\s+(?:model\s+|type\s+)?({_CODE})(?![\w-])")


def _fold(word: str) -> str:
    return re.sub(r"[^a-z0-9]", "", word.lower())


def other_model_problems(text: str, products: Iterable[Mention], gazetteer: Gazetteer,
                         taken: Sequence[tuple[int, int]] = ()) -> list[str]:
    """A clarification for each product mention with a model code beside it that none of its candidates' names
    holds (``taken``: spans read as something else, e.g. periods, never a model code)."""
    names = {p.product_code: p.product_name for p in gazetteer.products}
    known = {_fold(w) for name in names.values() for w in name.split()}
    problems: list[str] = []
    for m in products:
        if not m.candidates:
            continue
        for found, at in ((_BEFORE.search(text, 0, m.start), "before"), (_AFTER.match(text, m.end), "after")):
            if found is None or any(s < found.end(1) and found.start(1) < e for s, e in taken):
                continue
            if _PERIOD_WORD.fullmatch(found.group(1)):
                continue  # "Q1 vacuum gauge spend": a period, not a model
            code = _fold(found.group(1))
            # (a group mention's candidates are group ids: no name of a product, so only catalogue codes count)
            own = {_fold(w) for c in m.candidates for w in names.get(c, "").split()}
            if code in own or code in known:
                continue  # the product's own code, or another product's (read by the mentions, not here)
            written = text[found.start(1):m.end] if at == "before" else text[m.start:found.end(1)]
            options = ", ".join(f"{c} ({names[c]})" for c in m.candidates if c in names)
            has = f"the catalogue has {options}" if options else f"{text[m.start:m.end]!r} is a product group"
            problems.append(f"I do not know the product {found.group(1)!r} ({written!r}) in your catalogue: {has}. "
                            "Which product do you mean?")
    return problems


#: A specification typed before a noun: a size or rating with its unit ("27in", "3 kW", "500ml", "40 mm") or a
#: dimension ("600x400"). (No "m" or "k": "2m EUR" is an amount.)
#: (A one- or two-letter unit is read only written onto its number: "2025 in EUR", "Q1 2026 v Q4" are no sizes.)
_SPECIFIED = re.compile(r"(?<![\w.,'’-])(?P<spec>\d+(?:[.,]\d+)?(?:(?:in|inch|w|v|l)\b|-inch\b|"
                        r"\s?(?:inches|kw|ml|mm|cm|kg|bar)\b|(?:\s?x\s?\d+)+\b))[\s\"”]+(?P<noun>[^\W\d_][\w-]{2,})",
                        re.I)


def unknown_specified_product(text: str, gazetteer: Gazetteer) -> str | None:
    """A product named by a specification and a noun that no catalogue name holds ("27in monitors" when the
    catalogue has no 27-inch anything), or ``None``. The specification's numbers are compared whole with every
    product name's; a specification some product carries ("1l", "600x400") or a noun that is a word of the tenant's
    names is no unknown product (the product readers resolve it or name it themselves).

    >>> from router.entities import Product
    >>> g = Gazetteer.build([], [], [], [], [], [Product("PRD-1", "Euro crate 600x400"), Product("PRD-2", "Cable 3 m")])
    >>> unknown_specified_product("spend on 27in monitors in Feb", g), unknown_specified_product("600x400 crates", g)
    ('27in monitors', None)
    """
    names = [p.product_name for p in gazetteer.products]
    numbers = {n for name in names for n in re.findall(r"\d+(?:[.,]\d+)?", name)}
    words = {_fold(w) for name in (*names, *(g.group_name for g in gazetteer.product_groups),
                                   *(c.company_name for c in gazetteer.companies), *gazetteer.supplier_names.values())
             for w in re.findall(r"[^\W\d_]+", name)}
    for m in _SPECIFIED.finditer(text):
        if set(re.findall(r"\d+(?:[.,]\d+)?", m.group("spec"))) <= numbers:
            continue
        noun = _fold(m.group("noun"))
        if noun in words or noun.rstrip("s") in words or noun.removesuffix("es") in words:
            continue
        return " ".join(f"{m.group('spec')} {m.group('noun')}".split())
    return None


__all__ = ["other_model_problems", "unknown_specified_product"]
