"""A unit price or a price change asked without the product it is the price of: the product is asked back.

"did we get it cheaper in Q1 than in Q4 for Alpenland?", "company a - is the unit price going up or down quarter on
quarter", "Xenon - are we paying less per unit now than in H2?", "what did the price change to?": a unit price
exists per product (the quantity-weighted average of its invoice lines), so without a product nothing can be
computed. Before, such a question was answered with the company's spend change (another figure, presented as
complete), or asked only for a company, a period or a breakdown it does not need first. The product question
comes first here (with whatever else the question lacks after it); a product group named instead lists its
products, and a word the catalogue does not know ("cheapest vendor for pipettes") is named back.

A question the router serves as a price already (a product's average, a group's products ranked by price, a list
price) is left alone, as are questions about what a document says of prices.
"""

from __future__ import annotations

import re

from router.contract import RoutingResult
from router.entities import Gazetteer, find_mentions
from router.price_words import price_change_spans

#: A unit price asked in the words the reader knows ("unit price", "per unit", "average price", "price per").
_UNIT_PRICE = re.compile(r"\b(?:unit[- ](?:prices?|costs?)|per[- ](?:unit|piece|pc)|prices?\s+per|cost\s+per\s+unit|"
                         r"(?:average|avg\.?|mean)\s+(?:net\s+)?(?:unit\s+)?prices?)\b", re.I)
#: Prices compared ("cheaper", "the most expensive supplier"), not invoices, months or documents ranked.
_CHEAPER = re.compile(r"\b(?:cheap(?:er|est)|(?:more|most|less|least)\s+expensive|pricier|priciest|dearer|dearest)\b"
                      r"(?!\s+(?:\w+\s+)?(?:invoices?|bills?|credit\s+notes?|documents?|orders?|lines?|months?|"
                      r"quarters?|years?|weeks?|days?|periods?|compan(?:y|ies)))", re.I)
#: What a document says of prices: passages, never a price.
_DOCUMENT = re.compile(r"\b(?:agreements?|contracts?|clauses?|terms|manuals?|documents?|says?|stated?|"
                       r"stipulat\w*|escalat\w*|indexation|allowed|permitted|may)\b", re.I)
#: Two periods set against each other.
_COMPARED = re.compile(r"\b(?:vs\.?|versus|compared\s+(?:to|with)|against|than|change[ds]?|delta|difference|"
                       r"development|trend|evolution|(?:quarter|month|year)[- ](?:on|over)[- ](?:quarter|month|year)|"
                       r"qoq|yoy|mom)\b|->|→", re.I)
#: A model code as written: letters and digits, with or without a hyphen ("PT1000", "XR-7", "MC8").
_MODEL_WORD = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z]{1,5}-?\d{1,6}[A-Za-z]?(?![\w-])")
#: Written like a model code, but a period, an id or a unit ("Q1", "H2", "FY26", "KW12", "Q1-26", "PRD-482", "M20").
_NOT_A_MODEL = re.compile(r"(?:[qh]\d|fy\d{2,4}|cy\d{2,4}|kw\d{1,2}|cw\d{1,2}|w\d{1,2}|[qh]\d-\d{2,4})|"
                          r"(?:prd|sup|comp|inv|pg|cn|agr)-?\d+|\d+[a-z]{1,3}|[a-z]\d{1,2}", re.I)
#: The catalogue's list price asked.
_LIST_PRICE = re.compile(r"\b(?:list[- ]?prices?|catalog(?:ue)?[- ]prices?)\b", re.I)
#: A base period after a comparing word ("than in H2", "vs last quarter"), not suppliers compared ("Beta vs Gamma").
_BASE_PERIOD = re.compile(r"\b(?:than|vs\.?|versus|compared\s+(?:to|with)|against|relative\s+to)\s+(?:in\s+|during\s+|"
                          r"the\s+|over\s+)?(?:q[1-4]|h[12]|fy|20\d\d|last|previous|prior|same|before|earlier|a\s+year|"
                          r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", re.I)
#: Workflows that serve a price already, and the governed metrics of one.
_PRICE_WORKFLOWS = frozenset({"unit_price", "catalog_list_price"})
_PRICE_METRIC = re.compile(r"unit_price|list_price")
#: The thing priced, written after "for", "of" or "on" ("cheapest vendor for pipettes").
_OBJECT = re.compile(r"\b(?:for|of|on)\s+(?:the\s+|our\s+|a\s+|an\s+|these\s+|those\s+|all\s+)?"
                     r"(?P<words>[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,2})", re.I)
#: Words after "for" that name no product: periods, measures, pronouns, scope words.
_NOT_A_THING = frozenset({"in", "during", "from", "over", "since", "between", "at", "by", "per", "to", "with", "and",
    "or", "vs", "versus", "than", "it", "them", "this", "that", "these", "those", "us", "we", "you", "me", "one",
    "ones",
    "each", "every", "all", "any", "quarter", "quarters", "month", "months", "year", "years", "week", "weeks",
    "half", "period", "periods", "day", "days", "time", "now", "today", "q1", "q2", "q3", "q4", "h1", "h2", "last",
    "next", "previous", "prior", "current", "ytd", "mtd", "qtd", "january", "february", "march", "april",
    "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr",
    "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "unit", "units", "piece", "pieces", "item", "items",
    "price", "prices", "cost", "costs", "average", "avg", "spend", "supplier", "suppliers", "vendor", "vendors",
    "company", "companies", "group", "tenant", "whole", "total", "sum", "so", "far", "date"})


def asks_unit_price(text: str) -> bool:
    """Whether ``text`` asks a unit price, its change or prices compared (not what a document says of them).

    >>> asks_unit_price("did we get it cheaper in Q1 than in Q4 for Alpenland?")
    True
    >>> asks_unit_price("our most expensive invoice in Q1"), asks_unit_price("price increases in the agreement?")
    (False, False)
    """
    if _DOCUMENT.search(text):
        return False
    return bool(price_change_spans(text) or _UNIT_PRICE.search(text) or _CHEAPER.search(text))


def unknown_object(text: str, gazetteer: Gazetteer) -> str | None:
    """The words after "for"/"of"/"on" that name nothing the tenant's catalogue or names know, or ``None``.

    (Known names, periods and measure words are not unknown: "for Alpenland", "for Q1", "per unit".)"""
    known = find_mentions(text, gazetteer, figure=True).spans
    for m in _OBJECT.finditer(text):
        start = m.start("words")
        if any(s <= start < e for s, e in known):
            continue
        words = []
        for w in re.finditer(r"[^\W\d_][\w-]*", m.group("words")):
            at = start + w.start()
            if w.group(0).lower() in _NOT_A_THING or any(s <= at < e for s, e in known):
                break
            words.append(w.group(0))
        if words and len(words[0]) >= 3:
            return " ".join(words)
    return None


def unknown_model(text: str, gazetteer: Gazetteer) -> str | None:
    """A model code written in ``text`` that no catalogue name holds ("the PT1000 sensor" when the catalogue has
    the PT100 probe), or ``None``. Periods ("Q1-26", "FY2025"), ids (PRD-, SUP-, COMP-, INV-) and years are no model.

    >>> from router.entities import Product
    >>> g = Gazetteer.build([], [], [], [], [], [Product("PRD-1", "PT100 temperature probe")])
    >>> unknown_model("list price of the PT1000 sensor?", g), unknown_model("PT100 probe price Q1-26", g)
    ('PT1000', None)
    """
    known = {w.lower() for p in gazetteer.products for w in re.split(r"[\s()]+", p.product_name) if w}
    for m in _MODEL_WORD.finditer(text):
        word = m.group(0)
        if _NOT_A_MODEL.fullmatch(word) or word.lower() in known:
            continue
        return word
    return None


def product_question(text: str, result: RoutingResult, gazetteer: Gazetteer) -> tuple[str, str]:
    """(reason, question) asking which product a price is of: a model code or a word the catalogue does not know
    named back, a named group's products listed, else the product asked for."""
    model = unknown_model(text, gazetteer)
    if model is not None:
        return (f"product: {model!r} is no product of the catalogue",
                f"I do not know the product {model!r} in your catalogue (no catalogue name holds that model code). "
                "Which product do you mean (its code, such as PRD-482, or its catalogue name)?")
    unknown = unknown_object(text, gazetteer)
    if unknown is not None:
        return (f"product: {unknown!r} is no product or product group of the catalogue",
                f"I do not know {unknown!r} as a product or product group (category) of your catalogue. A unit price "
                "is computed per product: which product do you mean (its code, such as PRD-482, or its catalogue "
                "name)?")
    group = result.entities.product_group_id
    if group is not None:
        under = set(gazetteer.subgroups(group))
        names = {p.product_code: p.product_name for p in gazetteer.products}
        codes = sorted(c for c, groups in gazetteer.product_group_of.items() if groups & under and c in names)
        if codes:
            listed = ", ".join(f"{c} ({names[c]})" for c in codes[:8])
            return (f"product: a unit price is per product, {group} is a product group",
                    f"A unit price and its change are computed per product, and {group} is a product group: which "
                    f"of its products do you mean? {listed}.")
    return ("product: a unit price needs the product it is the price of",
            "Which product do you mean? A unit price and its change between periods are computed per product (its "
            "code, such as PRD-482, or its catalogue name).")


def one_period_change(text: str, result: RoutingResult) -> RoutingResult | None:
    """A product's price change read with one period only ("is the probe cheaper now than in H2?": H2 is the base,
    the other period unsaid): the other period is asked, never one period's average presented as the change."""
    if result.requires_clarification or not result.entities.product_codes:
        return None
    if not any(_PRICE_METRIC.search(str(s.arguments.get("metric", "")) + s.tool) for s in result.execution_plan):
        return None
    if not (_BASE_PERIOD.search(text) or price_change_spans(text)):
        return None
    period = result.constraints.time_range
    named = f" ({period.label})" if period is not None else ""
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": f"I read a change of the unit price of {', '.join(result.entities.product_codes)}, "
        f"but only one period{named}: which two periods should be compared (e.g. 'Q1 2026 vs Q4 2025')?",
        "clarification_reasons": ("period: a price change needs two periods, one is named",),
        "rule_hits": (*result.rule_hits, "price:second_period_asked")})


def price_without_product(text: str, result: RoutingResult, gazetteer: Gazetteer) -> RoutingResult | None:
    """The routed question asked back for its product when it asks a unit price and names none (see the module
    docstring), or ``None`` when it is no such question."""
    if result.entities.product_codes or _DOCUMENT.search(text) or not (
            asks_unit_price(text) or _LIST_PRICE.search(text)):
        return None  # (what an agreement says of list prices is read in the agreement)
    # ("Beta vs Northwind on monitoring products - which is cheaper per piece": "vs" between the two suppliers
    # ranked compares them, not two periods)
    suppliers_compared = (len(result.entities.supplier_ids) >= 2
                          and any(h.startswith("unit_price_ranking:supplier:") for h in result.rule_hits))
    if any(h.startswith("unit_price_ranking:") for h in result.rule_hits) and result.entities.product_group_id \
            and (price_change_spans(text) or (_COMPARED.search(text) and not suppliers_compared)):
        # "pumps: avg unit price Q1 vs Q4": a change is per product; the group's ranking in one period would drop
        # the comparison silently
        reason, question = product_question(text, result, gazetteer)
        return result.model_copy(update={
            "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
            "clarification_question": question, "clarification_reasons": (reason,),
            "rule_hits": (*result.rule_hits, "price:product_asked")})
    if result.workflow in _PRICE_WORKFLOWS or any(
            _PRICE_METRIC.search(str(s.arguments.get("metric", "")) + s.tool) for s in result.execution_plan):
        return None  # a group's products ranked by price, a list price: served as a price
    reason, question = product_question(text, result, gazetteer)
    reasons = result.clarification_reasons if result.requires_clarification else ()
    if any(r.startswith(("product:", "list price:")) for r in reasons) and not reason.startswith("product: '"):
        return None  # the product is asked already, and no unknown word is to be named
    # (the router's own "which product?" is the one this names more precisely: only other questions are kept)
    rest = (result.clarification_question or "") if result.requires_clarification and not all(
        r.startswith(("product:", "list price:")) for r in reasons) else ""
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": f"{question} {rest}".strip(),
        "clarification_reasons": (reason, *reasons),
        "rule_hits": (*result.rule_hits, "price:product_asked")})


__all__ = ["asks_unit_price", "one_period_change", "price_without_product", "product_question", "unknown_object"]
