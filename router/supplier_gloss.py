"""A supplier glossed with what it supplies: "w/ beta logistics (freight)", "freight (beta logistics)".

The bracket restates the supplier's trade, it is no second constraint: read as a measure ("freight costs") or a
product group, it blocked the question or was asked back. A gloss is set aside only when each of its words is a
word of the supplier's own catalogue (its products' names, its groups' names and their parents' names) and every
product the supplier sells is described by one of them, so the spend with the supplier is exactly the spend on
what the gloss names; a gloss with a word of its own (another trade, a period, a group the supplier does not
sell), or one naming only part of what the supplier sells ("Beta Supplies (cables)" when Beta also sells sensors:
a product filter), stays in the question and is read, or named back, as typed.
"""

from __future__ import annotations

import re

from router.entities import Gazetteer

_WORD = re.compile(r"[^\W\d_][\w-]*")
#: Words a gloss may carry beside the trade ("freight & shipping", "the logistics").
_FILLER = frozenset({"and", "the", "or", "of", "for", "&", "services", "service", "stuff", "supplier", "vendor"})


def _stem(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _trade(gazetteer: Gazetteer, supplier_ids: frozenset[str]) -> set[str]:
    """The stems of every word that names what ``supplier_ids`` supply in the catalogue."""
    words: set[str] = set()
    names = {p.product_code: p.product_name for p in gazetteer.products}
    for code, suppliers in gazetteer.product_suppliers.items():
        if suppliers & supplier_ids:
            words.update(_stem(w) for w in _WORD.findall(names.get(code, "")))
    parents = {g.product_group_id: g.parent_group_id for g in gazetteer.product_groups}
    groups = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    for gid, suppliers in gazetteer.group_suppliers.items():
        at: str | None = gid if suppliers & supplier_ids else None
        while at is not None and at in groups:
            words.update(_stem(w) for w in _WORD.findall(groups[at]))
            at = parents.get(at)
    return words


def _product_words(gazetteer: Gazetteer, supplier_ids: frozenset[str]) -> list[set[str]]:
    """For each product ``supplier_ids`` sell, the stems of its name and of its groups' names up to the top."""
    names = {p.product_code: p.product_name for p in gazetteer.products}
    parents = {g.product_group_id: g.parent_group_id for g in gazetteer.product_groups}
    groups = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    out = []
    for code, suppliers in gazetteer.product_suppliers.items():
        if not suppliers & supplier_ids:
            continue
        words = {_stem(w) for w in _WORD.findall(names.get(code, ""))}
        for gid in gazetteer.product_group_of.get(code, frozenset()):
            at: str | None = gid
            while at is not None and at in groups:
                words.update(_stem(w) for w in _WORD.findall(groups[at]))
                at = parents.get(at)
        out.append(words)
    return out


def _restates(gloss: str, trade: set[str], products: list[set[str]] | None = None) -> bool:
    stems = {_stem(w) for w in _WORD.findall(gloss) if w.casefold() not in _FILLER}
    if not stems or not stems <= trade:
        return False
    # the whole trade: a gloss describing only some of the supplier's products is a product filter, not a gloss
    return products is None or all(words & stems for words in products)


def supplier_glosses(text: str, gazetteer: Gazetteer) -> str:
    """``text`` with the glosses that restate a named supplier's trade set aside (see the module docstring)."""
    spellings = sorted(((s, ids) for s, ids in gazetteer.supplier_aliases.items() if len(s) >= 3),
                       key=lambda p: -len(p[0]))
    for spelling, ids in spellings:
        name = re.escape(spelling).replace(r"\ ", r"\s+")
        trade: set[str] | None = None
        products: list[set[str]] | None = None
        # "beta logistics (freight)"
        after = re.compile(rf"(?<![\w-])({name})\s*\(([^()]{{1,40}})\)", re.I)
        # "freight (beta logistics)": one or two words before the bracketed supplier
        before = re.compile(rf"(?<![\w-])((?:[^\W\d_][\w&-]*\s+)?[^\W\d_][\w-]*)\s*\(\s*({name})\s*\)", re.I)
        for pattern, gloss_at, name_at in ((after, 2, 1), (before, 1, 2)):
            match = pattern.search(text)
            if match is None:
                continue
            trade = trade if trade is not None else _trade(gazetteer, frozenset(ids))
            products = products if products is not None else _product_words(gazetteer, frozenset(ids))
            gloss = match.group(gloss_at)
            words = gloss.split()
            if gloss_at == 1 and len(words) == 2 and (words[0].casefold() in _FILLER
                                                      or not _restates(gloss, trade, products)):
                # of two words before the bracket, the last alone may be the gloss ("share of freight (Beta)")
                if _restates(words[1], trade, products):
                    text = f"{text[:match.start()]}{words[0]} {match.group(name_at)}{text[match.end():]}"
                continue
            if _restates(gloss, trade, products):
                text = f"{text[:match.start()]}{match.group(name_at)}{text[match.end():]}"
    return text


__all__ = ["supplier_glosses"]
