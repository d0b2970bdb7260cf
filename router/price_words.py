"""The words of a unit-price ask beyond "unit price" itself: a change of a price ("price increase", "did X get
more expensive", "did Gamma lower the price", "are we paying less per unit now", "Preiserhöhung", "más caro") and
an average paid for a product ("what are we paying on avg for X", "X - avg cost Q1").

A price exists per product (the quantity-weighted average net unit price of its invoice lines): these words ask
for it, or for its change between two periods, never for the spend of the product or passages that mention
prices. Before, a question in these words was read as a spend comparison, a ranking of a group, passages or a
refusal: a figure for another question presented as complete. Three readings:

* :func:`price_change_spans`: the words ask how a unit price changed; they ask a unit price with or without a
  product named (without one, the product is asked back, never a spend change in its place);
* :func:`product_price_spans`, :func:`bare_product_price`: the words ask the price a product named in the
  question was bought at ("what are we paying on avg", "avg cost", a bare "price" beside the product), read only
  when a product is named (an "average cost" of no product is another figure);
* :func:`asks_price`: any price ask (the ones above, a list price, "cheaper"), so that a product's description
  is read as the product (router/described_products.py).

Document questions about prices ("what does the agreement say about price increases") are not price asks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_PRICE = r"(?:unit[- ])?(?:prices?|costs?)"
_COMPARATIVE = (r"(?:more\s+expensive|less\s+expensive|cheaper|pricier|dearer|costlier|teurer|billiger|"
                r"g(?:ü|ue)nstiger|plus\s+cher|moins\s+cher|m(?:á|a)s\s+caro|m(?:á|a)s\s+barato)")
#: A change of a price asked for, in English first, then German, French and Spanish.
PRICE_CHANGE = re.compile(
    # "price increase", "unit price change", "price development", "price trend", "the price went up"
    rf"\b{_PRICE}\s+(?:increase[sd]?|increasing|decrease[sd]?|decreasing|rise[sn]?|rising|rose|hikes?|hiked|"
    r"drops?|dropped|dropping|falls?|fell|fallen|falling|change[sd]?|changing|development|developed|trend|"
    r"movements?|moves?|moved|moving|evolution|evolved|delta|difference|variance|jump(?:s|ed)?|went|go(?:es|ne|ing)?|"
    r"shift(?:s|ed)?|reductions?|cuts?)\b"
    # "did the probe get more expensive", "did we get it cheaper in Q1", "has X become pricier" (not "where do we
    # buy X cheaper": the cheapest supplier, router/unit_prices.py)
    r"|\b(?:get|gets|got|gotten|getting|become|becomes|became|becoming|grow|grew|grown|turn(?:s|ed)?|go|goes|went|"
    r"gone|pay|paid|paying)\s+(?:[\w-]+\s+){0,3}?(?:any\s+|a\s+bit\s+|"
    r"much\s+|slightly\s+)?" + _COMPARATIVE + r"\b"
    # "is X cheaper now than in H2", "more expensive than last quarter"
    + r"|\b" + _COMPARATIVE
    + r"(?=\s+(?:now\s+|today\s+)?(?:than|compared|vs\.?|versus|in\s+(?:q[1-4]|h[12]|20\d\d))\b)"
    # "did Gamma lower the price", "raised their prices", "cut the unit price"
    r"|\b(?:raise[sd]?|raising|hike[sd]?|hiking|increase[sd]?|increasing|lower(?:s|ed|ing)?|cut|cuts|cutting|"
    r"reduce[sd]?|reducing|drop(?:s|ped)?|bump(?:s|ed)?|put\s+up)\s+(?:the\s+|its\s+|their\s+|his\s+|her\s+|our\s+)?"
    rf"{_PRICE}\b"
    # "are we paying less per unit now", "paying more for each box"
    r"|\bpay(?:s|ing)?\s+(?:any\s+)?(?:more|less)\s+(?:per|for\s+each|for\s+one|each)(?:\s+(?:unit|piece|item|pc))?\b"
    r"|\b(?:more|less)\s+per\s+(?:unit|piece|item|pc)\b"
    # "going up or down", said of the price ("is the unit price going up or down quarter on quarter")
    rf"|\b{_PRICE}\s+(?:\w+\s+){{0,2}}?(?:going|gone|go|went|moving|trending)\s+(?:up|down)\b"
    # German, French, Spanish nouns of a price change
    r"|\bpreis(?:erh(?:ö|oe)hung|senkung|(?:ä|ae)nderung|entwicklung|anstieg|steigerung|r(?:ü|ue)ckgang)\w*"
    r"|\b(?:hausse|baisse|augmentation|(?:é|e)volution|variation)\s+(?:du|des)\s+prix\b"
    r"|\b(?:subida|bajada|aumento|variaci(?:ó|o)n|evoluci(?:ó|o)n)\s+(?:del|de\s+los)\s+precios?\b",
    re.I,
)
#: An average paid asked in words ("what are we paying on avg", "avg cost", "mean rate"): a price only with a
#: product named.
_AVERAGE_PAID = re.compile(
    r"\b(?:pay|pays|paid|paying|cost|costs|costing|charged?|charging)\b(?:\s+[\w-]+){0,3}?\s+(?:on\s+|in\s+)?"
    r"(?:avg\.?|average|mean)\b"
    r"|\b(?:avg\.?|average|mean|typical)\s+(?:net\s+)?(?:cost|rate|charge|price)s?\b"
    r"|\b(?:durchschnitts?preis|prix\s+moyen|precio\s+medio|coste\s+medio|co(?:û|u)t\s+moyen)\b",
    re.I,
)
#: A bare price or cost beside a named product ("copy paper price Q4 vs Q3", "the cost of the valve kit"): what it
#: was bought at; never the catalogue's list price.
_BARE_PRICE = re.compile(r"(?<!list\s)(?<!catalog\s)(?<!catalogue\s)\b(?:unit[- ])?(?:prices?|preis|prix|"
                         r"precio)\b|\bunit[- ]costs?\b", re.I)
#: "cost" of a product is what was spent on it ("total cost of X", "how much did X cost") unless a per-unit word
#: says it is the cost of one item ("cost per unit", "cost each", "a piece", "apiece").
_BARE_COST = re.compile(r"(?<!list\s)(?<!catalog\s)(?<!catalogue\s)\bcost(?:s|ing)?\b", re.I)
_PER_UNIT = re.compile(r"\b(?:per|a)\s+(?:unit|piece|item|pc|pcs)\b|\beach\b|\bapiece\b|\bper\s+(?!month|quarter|"
                       r"year|week|day|invoice|order|supplier|vendor|company|line)\w+", re.I)
#: The word "price" (the figure reader reads a product's description beside it; "cost" alone is other figures').
_PRICE_WORD = re.compile(r"\b(?:prices?|preis|prix|precio)\b", re.I)
#: An average over something else than one unit of the product: a run rate or an average document.
_OTHER_AVERAGE = re.compile(r"\b(?:per|a|each|every)\s+(?:month|quarter|year|week|day|invoice|order|supplier|"
                            r"vendor|company|line)\b|\bmonthly\b|\bweekly\b|\bquarterly\b", re.I)
#: A question about what a document says of prices: passages, not a price.
_DOCUMENT = re.compile(r"\b(?:agreements?|contracts?|clauses?|terms|manuals?|documents?|says?|said|stated?|"
                       r"stipulat\w*|escalat\w*|index(?:ation|ed)?|allowed|may|permitted|notice)\b", re.I)
#: The catalogue's list price asked (router/list_prices.py reads it).
_LIST_PRICE = re.compile(r"\b(?:list[- ]?prices?|catalog(?:ue)?[- ]prices?|prices?\s+(?:in|per|according\s+to|from)"
                         r"\s+(?:the\s+)?catalog(?:ue)?)\b", re.I)
#: "cheaper", "cheapest", "most expensive": prices compared.
_CHEAPER = re.compile(r"\b(?:cheap(?:er|est)|(?:more|most|less|least)\s+expensive|pricier|priciest|dearer|"
                      r"dearest)\b", re.I)


#: Words of a price or of its comparison, one word each, in the languages the writers mix in ("precio", "barato",
#: "günstiger", "goedkoper", "tańszy", "ucuz", "ieftin"): left unread beside a subject and a period they ask a unit
#: price (a product's), never the spend (router/read_answer.py keeps asking for the product).
PRICE_WORDS: frozenset[str] = frozenset("""
price prices pricing priced cheap cheaper cheapest expensive pricier priciest dearer dearest
precio precios barato barata baratos baratas caro cara caros caras preco preço precos preços
prix cher chere chère chers preis preise gunstig günstig gunstiger günstiger billig billiger teuer teurer
prezzo prezzi economico economica costoso costosa prijs prijzen goedkoop goedkoper duur duurder
cena ceny cen tani tansze tańsze tanszy tańszy drogi drozszy droższy levny levný levnejsi levnější drahy drahý
fiyat fiyati fiyatı ucuz ucuzu pahali pahalı pret preț preturi prețuri ieftin scump
pris priser billigare billigere dyr dyrere dyrare
""".split())  # noqa: SIM905 - a word list reads better as text


def price_change_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of words asking how a unit price changed (none in a question about documents).

    >>> bool(price_change_spans("core temp probe - price increase Q1 vs Q4?"))
    True
    >>> bool(price_change_spans("did Gamma lower the price of the LS-2? Q1 vs Q3"))
    True
    >>> bool(price_change_spans("Xenon - are we paying less per unit now than in H2?"))
    True
    >>> bool(price_change_spans("what do the agreements say about price increases?"))
    False
    >>> bool(price_change_spans("spend with Beta Q1 vs Q4"))
    False
    """
    if _DOCUMENT.search(text):
        return ()
    return tuple(m.span() for m in PRICE_CHANGE.finditer(text))


#: A base period named after a comparing word ("than in H2", "vs Q4"): with one period named, the other is unsaid.
BASE_WORDS = re.compile(r"\b(?:than|vs\.?|versus|compared\s+(?:to|with)|against|relative\s+to)\b", re.I)


def price_change_asked(text: str) -> bool:
    """Whether ``text`` asks how a price changed with no base period word ("did X get more expensive in Q1",
    "price increase in 2025"): the change is against the period before the one named.

    >>> price_change_asked("did the probe get more expensive in Q1 2026?")
    True
    >>> price_change_asked("is the probe cheaper now than in H2 2025?"), price_change_asked("probe price Q1 2026")
    (False, False)
    """
    return bool(price_change_spans(text)) and not BASE_WORDS.search(text)


def product_price_spans(text: str, product_spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The spans of words asking the price paid for a product the question names (``product_spans``: its mentions
    and written codes), or ``()``: a change of the price or an average paid.

    >>> product_price_spans("copy paper A4 box - what are we paying on avg this year so far?", [(0, 17)])
    ((32, 45),)
    >>> product_price_spans("copy paper A4 box - how much did we pay on avg per month?", [(0, 17)])
    ()
    >>> product_price_spans("what are we paying on avg this year so far?", [])
    ()
    """
    if not product_spans or _DOCUMENT.search(text) or _LIST_PRICE.search(text):
        return ()
    found = [m.span() for m in PRICE_CHANGE.finditer(text)]
    if not _OTHER_AVERAGE.search(text):
        found += [m.span() for m in _AVERAGE_PAID.finditer(text)]
    return tuple(sorted(set(found)))


def bare_product_price(text: str, product_spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``text`` says "price" or "cost" of a product it names and nothing else of it ("copy paper price Q4
    vs Q3", "the cost of the valve kit in Q1"): the price it was bought at, never the catalogue's list price nor a
    document's passage. The word stays in the text (other readers know "most recent price", "price per piece").

    >>> bare_product_price("copy paper price Q4 vs Q3 2025", [(0, 10)])
    True
    >>> bare_product_price("list price of copy paper", [(14, 24)]), bare_product_price("copy paper spend", [(0, 10)])
    (False, False)
    >>> bare_product_price("total cost of copy paper", [(14, 24)])
    False
    >>> bare_product_price("copy paper cost each", [(0, 10)])
    True
    """
    return bool(product_spans) and not _DOCUMENT.search(text) and not _LIST_PRICE.search(text) \
        and (_BARE_PRICE.search(text) is not None
             or (_BARE_COST.search(text) is not None and _PER_UNIT.search(text) is not None))


def asks_price(text: str) -> bool:
    """Whether ``text`` asks a price of any kind: a change, an average paid, a list price, "cheaper" (a product
    named in it is read by its description too).

    >>> asks_price("list price valve kit for the compressor?"), asks_price("did X get more expensive?")
    (True, True)
    >>> asks_price("Beta spend in Q1"), asks_price("what does the agreement say about price increases?")
    (False, False)
    """
    if _DOCUMENT.search(text):
        return False  # what a document says of prices: its topic, never a product filter of the passages
    return bool(PRICE_CHANGE.search(text) or _AVERAGE_PAID.search(text) or _LIST_PRICE.search(text)
                or _CHEAPER.search(text) or _PRICE_WORD.search(text))


__all__ = ["BASE_WORDS", "PRICE_CHANGE", "PRICE_WORDS", "asks_price", "bare_product_price", "price_change_asked",
           "price_change_spans", "product_price_spans"]
