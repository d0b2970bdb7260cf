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


__all__ = ["other_model_problems"]
