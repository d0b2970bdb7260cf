"""The catalogue relation asks of a category manager, read as one family with two slots: a supplier (optional) and
a product group.

* what a supplier carries in a group: "does Theta have anything in sensors?", "Gamma Controls - anything in
  monitoring?", "Zeta - which items do they carry in pressure sensors?", "which cabling items do we get from
  Iota?", "what sensor products does Beta stock?";
* who carries a group: "who can sell us calibration gear", "who stocks packaging", "suppliers in the catalogue for
  cables", "which vendors carry data loggers", "where can we source crates?".

Each is written in the one phrasing the reader plans from ("which products does <supplier> sell in <group>",
"which suppliers supply <group> according to the catalog"); left as written they reached a passage search or a
generic "what do you need" question. The group slot is what the ask is about: when no product group of the
catalogue resolves from it, the caller asks back naming it (:func:`unresolved_group`), never the supplier's whole
catalogue nor a passage search in its place.

Only the present tense is the catalogue ("do we get", "can sell"): what a company bought or was invoiced ("did we
buy", "in Q1") is a purchase listing (:mod:`router.listings`), so a question naming a period, a past purchase, a
spend or an approval is left alone here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from ingest.normalize import normalize_supplier_name
from router.approval_synonyms import read_approval_synonyms
from router.contract import RoutingResult
from router.entities import Gazetteer
from router.group_words import (
    GENERIC_HEADS,
    content_words,
    group_names,
    leading_word_group,
    read_group_forms,
    read_shared_heads,
    same_word,
    word_form_group,
)

_I = re.I | re.S

#: Words that make the ask another one: a purchase (period, past tense, spend), an approval, a document.
_NOT_CATALOGUE = re.compile(
    r"\b(?:did|bought|buy\s+in|purchased|spent|spend|spending|invoiced?|invoices?|paid|cost|costs|approved|approval|"
    r"preferred|contract\w*|agreements?|q[1-4]|h[12]|ytd|last|this\s+(?:year|month|quarter)|(?:19|20)\d{2}|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|price|prices|manual|how\s+much|how\s+many)\b", _I)

_CARRY = r"(?:have|has|carry|carries|sell|sells|stock|stocks|offer|offers|supply|supplies|list|lists|provide|provides)"
_THINGS = r"(?:items?|products?|articles?|parts?|skus?|goods|stuff|things)"
_ANY = rf"(?:anything|something|any(?:thing)?\s+{_THINGS}|{_THINGS})"
_IN = r"(?:in|under|within|for|among)"
#: A group phrase: a few words, no clause after it (a trailing "?" or "." is dropped).
_GROUP = r"(?P<group>[^?;:!]{2,60}?)"
_END = r"[\s?.!]*$"
#: "Zeta Sensorik - ...", "Gamma Controls: ...": the supplier the rest of the question speaks of as "they".
_LEAD = re.compile(r"^\s*(?P<lead>[^?:;,\-–—]{2,60}?)\s*(?:\s[-–—]+\s|:\s+|,\s+)(?P<rest>.+)$", _I)

_SUPPLIER_PRODUCTS = tuple(re.compile(p, _I) for p in (
    # "does Theta have anything in sensors", "can Beta sell us anything under packaging"
    rf"^(?:does|do|can|could)\s+(?P<supplier>[^?,;:]{{2,60}}?)\s+{_CARRY}\s+(?:us\s+)?{_ANY}\s+{_IN}\s+{_GROUP}{_END}",
    # "does Theta carry any pressure sensors", "do they stock any crates": the goods right after "any"
    rf"^(?:does|do|can|could)\s+(?P<supplier>[^?,;:]{{2,60}}?)\s+{_CARRY}\s+(?:us\s+)?(?:any|some)\s+"
    rf"(?!{_THINGS}\b|thing\b){_GROUP}{_END}",
    # "which products does Theta sell in pallets", "what items does Beta stock under sensors"
    rf"^(?:which|what)\s+{_THINGS}\s+(?:does|do|can)\s+(?P<supplier>[^?,;:]{{2,60}}?)\s+{_CARRY}\s+{_IN}\s+{_GROUP}{_END}",
    # "what sensor products does Beta stock", "which cabling items does Iota carry"
    rf"^(?:which|what)\s+{_GROUP}\s+{_THINGS}\s+(?:does|do|can)\s+(?P<supplier>[^?,;:]{{2,60}}?)\s+{_CARRY}{_END}",
    # "which cabling items do we get from Iota Cables", "what packaging products can we order from Kappa"
    rf"^(?:which|what)\s+{_GROUP}\s+{_THINGS}\s+(?:do|can|could)\s+(?:we|i|you)\s+(?:get|order|source|buy|obtain)\s+"
    rf"(?:from|at|with)\s+(?P<supplier>[^?,;:]{{2,60}}?){_END}",
))
#: After a lead naming the supplier: "anything in monitoring?", "which items do they carry in temp sensors?".
_LEAD_PRODUCTS = tuple(re.compile(p, _I) for p in (
    rf"^(?:(?:do|does)\s+(?:they|it|he|she)\s+{_CARRY}\s+)?{_ANY}\s+{_IN}\s+{_GROUP}{_END}",
    rf"^(?:which|what)\s+{_THINGS}\s+(?:do|does|can)\s+(?:they|it)\s+{_CARRY}\s+{_IN}\s+{_GROUP}{_END}",
    rf"^(?:which|what)\s+{_GROUP}\s+{_THINGS}\s+(?:do|does|can)\s+(?:they|it)\s+{_CARRY}{_END}",
))
_GROUP_SUPPLIERS = tuple(re.compile(p, _I) for p in (
    # "who can sell us calibration gear", "who could supply crates"
    rf"^who\s+(?:can|could|would|will|is\s+able\s+to)\s+(?:sell|supply|provide|deliver|offer)\s+(?:us\s+|to\s+us\s+)?"
    rf"{_GROUP}{_END}",
    # "who sells / stocks / carries packaging", "who supplies pallets"
    rf"^who\s+(?:sells|stocks|carries|offers|provides|delivers|supplies|makes)\s+{_GROUP}{_END}",
    # "which vendors carry data loggers", "what suppliers can sell us cables"
    rf"^(?:which|what)\s+(?:suppliers?|vendors?|sources?)\s+(?:can\s+|could\s+)?(?:sell|supply|carry|stock|offer|"
    rf"provide|deliver|have)\s+(?:us\s+)?{_GROUP}{_END}",
    # "suppliers in the catalogue for cabling", "vendors listed in the catalog under sensors"
    rf"^(?:which\s+|what\s+|the\s+|list\s+(?:the\s+)?)?(?:suppliers?|vendors?)\s+(?:are\s+)?(?:listed\s+)?(?:in|from)\s+"
    rf"(?:the|our)\s+catalog(?:ue)?\s+{_IN}\s+{_GROUP}{_END}",
    # "catalogue suppliers for sensors"
    rf"^(?:which\s+|the\s+)?catalog(?:ue)?\s+(?:suppliers?|vendors?)\s+(?:for|of|in|under)\s+{_GROUP}{_END}",
    # "where can we source crates", "where do we get cabling from"
    rf"^where\s+(?:can|could|do)\s+(?:we|i)\s+(?:buy|get|source|order)\s+{_GROUP}(?:\s+from)?{_END}",
))
#: Group phrases that name no group: pronouns and the generic words of the frames.
_NO_GROUP = re.compile(rf"^(?:it|them|this|that|these|those|us|{_THINGS}|anything|everything|something)$", _I)


@dataclass(frozen=True)
class CatalogAsk:
    """A catalogue relation ask: its kind, its slots as written, and the phrasing the reader plans from."""

    kind: Literal["products", "suppliers"]
    group: str
    supplier: str | None
    text: str


#: "per catalog", "(catalog)", "according to the catalogue": where the answer is read from, no word of the group.
_PER_CATALOGUE = re.compile(r"\s*[(,-]?\s*(?:(?:according\s+to|acc\.?\s+to|as\s+per|per|in|from|based\s+on|"
                            r"by)\s+)?(?:the\s+|our\s+)?catalog(?:ue)?\s*\)?\s*$", re.I)


def _group(raw: str) -> str | None:
    group = _PER_CATALOGUE.sub("", " ".join(raw.split())).strip(" -,.")
    group = re.sub(r"^(?:the|our)\s+", "", group, flags=re.I)
    if not group or _NO_GROUP.match(group) or re.search(r"\b(?:from|by)\b", group, re.I):
        return None
    return group


def read_catalog_relation(question: str) -> CatalogAsk | None:
    """The catalogue relation ``question`` asks, or ``None`` when it is no such ask.

    >>> read_catalog_relation("does Theta have anything in sensors?").text
    'which products does Theta sell in sensors'
    >>> read_catalog_relation("Gamma Controls - anything in monitoring?").text
    'which products does Gamma Controls sell in monitoring'
    >>> read_catalog_relation("who can sell us calibration gear").text
    'which suppliers supply calibration gear according to the catalog'
    >>> read_catalog_relation("which cabling items did we buy from Iota in Q1 2026") is None
    True
    """
    text = " ".join(question.split())
    if _NOT_CATALOGUE.search(text):
        return None
    for pattern in _SUPPLIER_PRODUCTS:
        found = pattern.match(text)
        if found is not None and (group := _group(found.group("group"))) is not None:
            supplier = found.group("supplier").strip()
            if _NO_GROUP.match(supplier) or supplier.lower() in ("we", "you", "i", "they"):
                continue
            return CatalogAsk("products", group, supplier, f"which products does {supplier} sell in {group}")
    lead = _LEAD.match(text)
    if lead is not None:
        for pattern in _LEAD_PRODUCTS:
            found = pattern.match(lead.group("rest").strip())
            if found is not None and (group := _group(found.group("group"))) is not None:
                supplier = lead.group("lead").strip()
                return CatalogAsk("products", group, supplier, f"which products does {supplier} sell in {group}")
    for pattern in _GROUP_SUPPLIERS:
        found = pattern.match(text)
        if found is not None and (group := _group(found.group("group"))) is not None:
            return CatalogAsk("suppliers", group, None, f"which suppliers supply {group} according to the catalog")
    return None


def _names_company(words: str, gazetteer: Gazetteer) -> bool:
    """Whether ``words`` (the supplier slot) name one of the tenant's companies and none of its suppliers."""
    said = " ".join(words.lower().split())
    if said in {" ".join(a.lower().split()) for a in (*gazetteer.supplier_aliases, *gazetteer.supplier_names.values())}:
        return False
    return said in {" ".join(c.company_name.lower().split()) for c in gazetteer.companies}


def relation_in_names(ask: CatalogAsk, gazetteer: Gazetteer) -> CatalogAsk | None:
    """``ask`` with its group slot written as the catalogue's name when the slot says that name in other word forms
    ("cabling & connectors", "calibration gear": router/group_words.py); unchanged otherwise (an exact name, or
    nothing the catalogue knows: then the reader resolves it or it is asked back); ``None`` when the group slot names
    a company or supplier, or the supplier slot a company (no catalogue relation)."""
    if ask.supplier is not None and _names_company(ask.supplier, gazetteer):
        return None  # "Company B: anything in pressure sensors?": a company's purchases, no supplier's catalogue
    if any(name.lower() == ask.group.lower() for name, _ in group_names(gazetteer)):
        return ask
    if ask.group.lower() in {n.lower() for n in (*gazetteer.supplier_names.values(),
                                                 *(c.company_name for c in gazetteer.companies))}:
        return None  # "who supplies Company A": a company's (or supplier's) suppliers, no catalogue group
    found = leading_word_group(ask.group, gazetteer) or word_form_group(ask.group, gazetteer)
    if found is None:
        return ask
    name = found[1]
    return replace(ask, group=name, text=ask.text.replace(ask.group, name, 1))


_JOIN = re.compile(r"\s*(?:,|&|\+|/|\band\b|\bor\b)\s*", re.I)


def _one_group(phrase: str, gazetteer: Gazetteer) -> str | None:
    exact = {gid for name, gid in group_names(gazetteer) if name.lower() == phrase.lower()}
    if len(exact) == 1:
        return next(iter(exact))
    found = leading_word_group(phrase, gazetteer) or word_form_group(phrase, gazetteer)
    return found[0] if found is not None else None


def several_groups(ask: CatalogAsk, gazetteer: Gazetteer) -> tuple[CatalogAsk, str] | None:
    """What a supplier carries in several groups ("pressure sensors and temperature sensors"), as the catalogue
    of the one group that holds them all, when the supplier carries nothing else under it: (the ask so read, the
    note that says why it is exact), else ``None`` (the reader then reads the groups or asks which one is meant).

    A group holding the named ones and others would list products of groups not asked for; it is taken only when
    the catalogue shows none of the supplier's products outside the named groups under it.
    """
    if ask.kind != "products" or ask.supplier is None or _one_group(ask.group, gazetteer) is not None:
        return None
    parts = [p for p in _JOIN.split(ask.group) if p.strip()]
    groups = [_one_group(p.strip(), gazetteer) for p in parts]
    if len(parts) < 2 or any(g is None for g in groups):
        return None
    named = {g for g in groups if g is not None}
    covered = {s for g in named for s in gazetteer.subgroups(g)}
    holders = [g.product_group_id for g in gazetteer.product_groups
               if named <= set(gazetteer.subgroups(g.product_group_id))]
    if not holders:
        return None
    holder = min(holders, key=lambda g: len(gazetteer.subgroups(g)))
    key = ask.supplier.lower()
    suppliers = {sid for sid, name in gazetteer.supplier_names.items() if name.lower() == key}
    suppliers |= set(gazetteer.supplier_aliases.get(normalize_supplier_name(ask.supplier), ()))
    if len(suppliers) != 1:
        return None
    supplier = next(iter(suppliers))
    under = set(gazetteer.subgroups(holder))
    carried = [code for code, sups in gazetteer.product_suppliers.items()
               if supplier in sups and gazetteer.product_group_of.get(code, frozenset()) & under]
    if not carried or any(not gazetteer.product_group_of.get(code, frozenset()) <= covered for code in carried):
        return None
    name = next(g.group_name for g in gazetteer.product_groups if g.product_group_id == holder)
    asked = ", ".join(next(g.group_name for g in gazetteer.product_groups if g.product_group_id == n)
                      for n in dict.fromkeys(x for x in groups if x is not None))
    note = (f"{asked} read through {name}, the group holding them: the catalogue lists no product of "
            f"{ask.supplier} under {name} outside them")
    return replace(ask, group=name, text=ask.text.replace(ask.group, name, 1)), note


_TOKEN = re.compile(r"[^\W\d_]+|[+&/]", re.UNICODE)
_JOINERS = frozenset({"+", "&", "/", "and", "or"})
_APPROVED_LIST = re.compile(r"\bapproved\s+(?:vendors?|suppliers?)\b|\b(?:vendors?|suppliers?)\b[^?.;]{0,40}"
                            r"\bapproved\b", re.I)
_FIGURE_WORDS = re.compile(r"\b(?:spend|spent|spending|total|how\s+much|invoices?|paid|amounts?|cost|costs|share|"
                           r"bought|buy|purchased?)\b", re.I)


def split_group_list(question: str, gazetteer: Gazetteer) -> str | None:
    """An approved-vendor list or catalogue relation asked for two groups that no one group holds exactly ("approved
    suppliers (office + shipping)", "who supplies packaging and cables") written as one ask per group, or ``None``.
    Each group's list is answered on its own (the reader plans one group per ask), never one of them dropped or
    the whole question asked back.

    >>> from router.entities import ProductGroup
    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-OFF", "Office"), ProductGroup("PG-SHIP", "Shipping")])
    >>> split_group_list("Ypsilon approved suppliers (office + shipping)?", g)
    'Ypsilon approved suppliers (office)?, and Ypsilon approved suppliers (shipping)?'
    >>> split_group_list("Ypsilon spend with approved suppliers on office + shipping", g) is None
    True
    """
    question = read_relation_words(question, gazetteer)[0]  # "pressure + temp sensors": both groups written out
    relation = read_catalog_relation(question)
    if _FIGURE_WORDS.search(question) or not (_APPROVED_LIST.search(question) or relation):
        return None
    named = relation_in_names(relation, gazetteer) if relation is not None else None
    if named is not None and several_groups(named, gazetteer) is not None:
        return None  # a supplier's catalogue over groups one group holds with nothing else of it: one ask
    tokens = list(_TOKEN.finditer(question))
    for j, joiner in enumerate(tokens):
        if joiner.group(0).lower() not in _JOINERS:
            continue
        for left, right in ((n, m) for n in (3, 2, 1) for m in (3, 2, 1)):
            if j - left < 0 or j + right >= len(tokens):
                continue
            a = question[tokens[j - left].start():tokens[j - 1].end()]
            b = question[tokens[j + 1].start():tokens[j + right].end()]
            whole = question[tokens[j - left].start():tokens[j + right].end()]
            ga, gb = _one_group(a, gazetteer), _one_group(b, gazetteer)
            if ga is None or gb is None or ga == gb or _one_group(whole, gazetteer) is not None:
                continue
            both = set(gazetteer.subgroups(ga)) | set(gazetteer.subgroups(gb))
            if any(set(gazetteer.subgroups(g.product_group_id)) == both for g in gazetteer.product_groups):
                return None  # one group holds exactly both: the reader reads it
            start, end = tokens[j - left].start(), tokens[j + right].end()
            first = f"{question[:start]}{a}{question[end:]}"
            second = f"{question[:start]}{b}{question[end:]}"
            return f"{first}, and {second}"
    return None


def read_relation_words(text: str, gazetteer: Gazetteer) -> tuple[str, tuple[str, ...]]:
    """``text`` with the class's words in the reader's phrasing, and a note per rewriting (for the interpretation):
    the approval synonyms ("preferred suppliers", "on-contract", "vendor(s)": router/approval_synonyms.py), two
    groups sharing their head noun ("pressure + temp sensors") and group names in other word forms ("temp sensor",
    "cabling & connectors": router/group_words.py)."""
    synonyms = read_approval_synonyms(text)
    text = synonyms or text
    shared = read_shared_heads(text, gazetteer)
    forms = read_group_forms(shared or text, gazetteer) or shared
    return forms or text, (*([f"approval words read as {synonyms!r}"] if synonyms else ()),
                           *([f"product group names read as {forms!r}"] if forms else ()))


def group_asked(relation: CatalogAsk | None, result: RoutingResult, gazetteer: Gazetteer) -> RoutingResult:
    """``result``, or a clarification naming the group slot of a catalogue relation ask that resolved to no
    product group: "which products does Theta sell in pallets" is never Theta's whole catalogue. A clarification
    the reader asks already (about the slot or another one) is kept; only the generic "what do you need" question
    is replaced."""
    if relation is None:
        return result
    asked = unresolved_group(relation, result.entities.product_group_id, result.entities.product_codes,
                             gazetteer)
    if asked is None or relation.group.lower() in (result.clarification_question or "").lower():
        return result
    if result.requires_clarification and not (result.clarification_question or "").startswith(
            "Could you say what you need"):
        return result
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": asked,
        "clarification_reasons": (f"unknown_category: {relation.group!r} is no product group of the catalogue",)})


def company_lead_asked(relation: CatalogAsk | None, result: RoutingResult, gazetteer: Gazetteer) -> RoutingResult:
    """``result``, or a clarification when the supplier slot of a catalogue relation ask names one of the tenant's
    companies ("Company B: anything in pressure sensors?"): a company sells nothing in the catalogue, so no
    catalogue (the group's or anyone's) is its answer; a purchase reading (a period named) is kept."""
    if relation is None or relation.supplier is None or not _names_company(relation.supplier, gazetteer):
        return result
    if result.requires_clarification and not (result.clarification_question or "").startswith(
            "Could you say what you need"):
        return result  # the reader's own question (a slot it names) is kept
    if not result.requires_clarification and not result.workflow.startswith("catalog"):
        return result  # a purchase reading, not a catalogue
    asked = (f"{relation.supplier} is one of your companies, not a supplier: do you mean what {relation.supplier} "
             f"bought in {relation.group} (in which period?), or which supplier's catalogue in {relation.group}?")
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": asked,
        "clarification_reasons": (f"company_as_supplier: {relation.supplier!r} is a company, no catalogue supplier",)})


#: Words of a group slot that name nothing themselves.
_SLOT_WORDS = frozenset({"the", "our", "a", "an", "of", "in", "any", "all", "some", "kind", "kinds", "type", "types",
                         "category", "categories", "group", "groups", "range", "line", "lines", "per", "catalog",
                         "catalogue", "according", "acc", "to", "as", "listed", "list"})


def _leftover(slot: str, product_group_id: str, gazetteer: Gazetteer) -> list[str]:
    """Words of the group slot that no name of the resolved group accounts for ("packaging" in "packaging and
    cables and connectors" read as Cables and Connectors): each is a word the answer would silently drop."""
    # (a subgroup named beside its group, "boxes and crates" read as Boxes, is inside what was read)
    held = set(gazetteer.subgroups(product_group_id))
    named = [w for name, gid in group_names(gazetteer) if gid in held for w in content_words(name)]
    return [w for w in content_words(slot) if w not in _SLOT_WORDS and w not in GENERIC_HEADS and not any(
        same_word(w, n) or (len(w) >= 3 and n.startswith(w)) for n in named)]


def unresolved_group(ask: CatalogAsk, product_group_id: str | None, product_codes: tuple[str, ...],
                     gazetteer: Gazetteer | None = None) -> str | None:
    """The clarification to ask when the ask's group slot resolved to no product group (nor product), or when
    words of it are left over beside the group read, else ``None``: the catalogue relation is about the group, so
    answering without it (or with part of it) would list another catalogue in its place."""
    if product_codes:
        return None
    if product_group_id is not None:
        left = _leftover(ask.group, product_group_id, gazetteer) if gazetteer is not None else []
        if not left:
            return None
        what = " ".join(left)
    else:
        what = ask.group
    return (f"I do not know {what!r} as a product group of your catalogue, so I cannot say "
            + ("which suppliers carry it" if ask.kind == "suppliers" else f"what {ask.supplier} carries in it")
            + ". Which product group do you mean?")


__all__ = ["CatalogAsk", "company_lead_asked", "group_asked", "read_catalog_relation", "read_relation_words",
           "relation_in_names", "several_groups", "split_group_list", "unresolved_group"]
