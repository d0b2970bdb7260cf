"""The catalogue's list price of a product: "catalog list price of the flow sensor FS-50", "Listenpreis PRD-486 laut
Katalog", "Katalogpreis Euro-Kiste 600x400".

The list price is what the catalogue states (``marts.dim_products``, in the catalogue's own currency), not what was
paid: no invoice is read and nothing is converted. Before, the question was refused as a figure without a metric,
or answered with passages (the price never stated). A question that also asks about what was paid or bought ("did
we pay more than list price") is not this reading and is left to the router as it was; a list price asked for no
product the catalogue has is asked back, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from router.contract import PlanStep, RoutingResult
from router.entities import Gazetteer

#: "list price", "catalog(ue) price", "catalog list price", "price in/according to the catalog".
_LIST_PRICE = re.compile(
    r"\b(?:(?:catalog(?:ue)?\s+)?list[- ]?prices?|catalog(?:ue)?[- ]prices?|prices?\s+(?:in|according\s+to|per|from)"
    r"\s+(?:the\s+)?catalog(?:ue)?|(?:cost|costs)\s+[^?]{0,60}?\b(?:in|according\s+to|per)\s+the\s+catalog(?:ue)?)\b",
    re.I)
#: The catalogue named as the source of the price ("list price of X per catalog", "..., as per the catalogue",
#: "according to our catalog"): where the price is read, never a breakdown "per catalog".
_SOURCE = re.compile(r"\b(?:as\s+)?(?:per|according\s+to|from|in|based\s+on|as\s+stated\s+in)\s+(?:the\s+|our\s+)?"
                     r"catalog(?:ue)?s?\b", re.I)
#: Words of a question about invoices or what was paid: a comparison with the list price, not the list price.
_PAID = re.compile(
    r"\b(?:paid|pay|spen[dt]|invoic\w*|bought|purchas\w*|average|avg|vs\.?|versus|compar\w*|than|discount\w*|"
    r"differences?|above|below|over|under|deviat\w*|unit\s+price|total|gesamt|summe|sum)\b", re.I)
#: A question about what a document says of the list price ("what do the agreements say about list price increases",
#: "how often may Beta raise the list price under its agreement", "Listenpreis laut Vertrag anpassen"): a document
#: or clause word, or a change of the price (a clause governs it; the catalogue states only the current price).
_DOCUMENT = re.compile(
    r"\b(?:agreements?|contracts?|contractual\w*|amendments?|addend(?:um|a)|clauses?|provisions?|sections?|terms|"
    r"t&cs?|manuals?|handbooks?|policy|policies|passages?|wording|stipulat\w*|allow\w*|permit\w*|entitled|"
    r"govern\w*|increas\w*|rais\w*|rise[sn]?|rising|rose|hik\w*|adjust\w*|chang\w*|escalat\w*|indexation|"
    r"revis\w*)\b|"
    r"\w*(?:vertrag|verträge|vertrages|vertrags|vereinbarung|klausel|handbuch|bedingung)\w*|\bagb\b|\blaut\s+"
    r"(?:vertrag|vereinbarung)|\w*(?:erhöh|erhoeh|anpass|änder|aender|steiger)\w*|\bdarf\b|\bdürfen\b",
    re.I)
_MODEL_TOKEN = re.compile(r"(?<![\w-])([A-Za-z]*\d[\w./-]*)(?![\w-])")
MAX_PRODUCTS = 5
#: Clarifications a figure of invoices needs and the catalogue's price does not.
_NOT_NEEDED = ("company: the question does not say which company", "period: the question names no period")


def asks_list_price(text: str) -> bool:
    """Whether ``text`` asks for the catalogue list price only (no paid or invoiced amount beside it).

    >>> asks_list_price("catalog list price of the flow sensor FS-50"), asks_list_price("list price PRD-486?")
    (True, True)
    >>> asks_list_price("did we pay more than list price for PRD-486 in Q1?"), asks_list_price("PRD-486 price")
    (False, False)
    """
    return bool(_LIST_PRICE.search(text)) and not _PAID.search(_LIST_PRICE.sub(" ", text)) \
        and not about_document(text)


def about_document(text: str) -> bool:
    """Whether ``text`` asks what an agreement, contract, manual or clause says of the list price, or about a
    change of it (an increase, an adjustment): a document question, never the catalogue's current price.

    >>> about_document("What do the agreements say about list price increases for PRD-482?")
    True
    >>> about_document("Wie oft darf Supplier Beta den catalog list price erhöhen?")
    True
    >>> about_document("catalog list price of the flow sensor FS-50"), about_document("list price PRD-486 per catalog")
    (False, False)
    """
    return bool(_DOCUMENT.search(_LIST_PRICE.sub(" ", text)))


def _source_read_as_breakdown(reason: str, text: str) -> bool:
    """Whether ``reason`` is the router's "no breakdown by 'catalog'" for a question that names the catalogue as
    the price's source ("list price of PRD-710 per catalog"): the source, read, not a grouping asked.

    >>> _source_read_as_breakdown("breakdown: 'catalog' is not a grouping the metric offers", "list price per catalog")
    True
    >>> _source_read_as_breakdown("breakdown: 'supplier' is not a grouping the metric offers", "list price per catalog")
    False
    """
    return reason.startswith("breakdown:") and "catalog" in reason.split(" is not ", 1)[0].lower() \
        and _SOURCE.search(text) is not None


def described_product(text: str, group_id: str | None, gazetteer: Gazetteer) -> str | None:
    """The one product of ``group_id`` (or its subgroups) whose catalogue name holds a model token of the text
    ("Euro-Kiste 600x400": the crate group read, "600x400" names Euro crate 600x400), else ``None``."""
    if group_id is None:
        return None
    within = set(gazetteer.subgroups(group_id))
    tokens = {t.lower() for t in _MODEL_TOKEN.findall(text) if not re.fullmatch(r"(?:19|20)\d{2}", t)}
    hits = {p.product_code for p in gazetteer.products
            if gazetteer.product_group_of.get(p.product_code, frozenset()) & within
            and tokens & {w.lower() for w in re.split(r"\s+", p.product_name)}}
    return next(iter(hits)) if len(hits) == 1 else None


def list_price_plan(codes: Sequence[str]) -> tuple[PlanStep, ...]:
    """The governed catalogue read of the products' list prices, then the completeness check."""
    return (
        PlanStep(step_id="lookup-list-price", tool="catalog.list_price",
                 arguments={"product_codes": list(codes)},
                 purpose="The catalogue's list price and currency of each product (marts.dim_products)."),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("lookup-list-price",),
                 purpose="Completeness: every named product found in the catalogue."),
    )


def list_price_route(text: str, result: RoutingResult, gazetteer: Gazetteer) -> RoutingResult | None:
    """The list-price reading of a routed question, or ``None`` when it is not one (see the module docstring).

    A clarification the router already asks (an unknown name, an ambiguous product) is kept: it comes first; only
    "which company" and "which period" are not asked, as the catalogue's price depends on neither."""
    if about_document(text):
        # what an agreement or manual says of the list price (its increases, adjustments): the router's document
        # reading stands, neither the catalogue's price nor the "beside another figure" question
        return None
    if _LIST_PRICE.search(text) and not asks_list_price(text) and not result.requires_clarification:
        # the list price beside another figure in one part ("X total + Listenpreis PRD-710", "paid more than list
        # price"): whatever figure the router found, the list price would be dropped or compared unasked
        return result.model_copy(update={
            "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
            "clarification_question": "I read the catalog list price beside another figure (spend, a total, what "
            "was paid or a comparison) in one part of the question. The list price is what the catalogue states and "
            "is not compared with or added to invoice figures here: do you want the list price, the figure, or both "
            "asked as separate parts (e.g. '..., and the list price of PRD-482?')?",
            "clarification_reasons": ("list price: beside another figure in one part",)})
    if not asks_list_price(text) or (result.requires_clarification and not all(
            r.startswith(_NOT_NEEDED) or _source_read_as_breakdown(r, text) for r in result.clarification_reasons)):
        return None
    e = result.entities
    codes = list(dict.fromkeys(e.product_codes))
    if not codes:
        found = described_product(text, e.product_group_id, gazetteer)
        codes = [found] if found else []
    if not codes or len(codes) > MAX_PRODUCTS:
        question = ("Which product do you mean? A catalog list price is stated per product (its code, such as "
                    "PRD-482, or its catalogue name).")
        return result.model_copy(update={
            "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
            "clarification_question": question,
            "clarification_reasons": ("list price: no single catalogue product named",)})
    entities = e.model_copy(update={"product_codes": codes, "product_group": None, "product_group_id": None})
    return result.model_copy(update={
        "workflow": "catalog_list_price", "execution_plan": list_price_plan(codes), "entities": entities,
        "requires_clarification": False, "clarification_question": None, "clarification_reasons": (),
        "rule_hits": (*result.rule_hits, "list_price:catalog"),
        "interpretation": f"the catalog list price of {', '.join(codes)} (as the catalogue states it, in its "
                          "currency; no invoice read)"})


__all__ = ["about_document", "asks_list_price", "described_product", "list_price_plan", "list_price_route"]
